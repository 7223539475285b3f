"""Figures of the statistics study (notebook 04): the pool-size chart, frequencies, difficulty."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import matplotlib.pyplot as plt
import numpy as np

from .. import checks
from ..errors import InvalidPuzzleError
from ..sliding import DistanceTable
from .occupancy import (
    check_pool,
    expected_distinct,
    prob_all_seen,
    prob_at_least,
    prob_at_most,
    samples_needed,
    unseen_probability,
    variance_distinct,
)
from .richness import PoolEstimate, count_values, log_likelihood
from .samples import patterns_of


def draw_pool_estimate(
    estimate: PoolEstimate, ax=None, *, simulated: np.ndarray | None = None, max_pool: int = 100
):
    """The write-up's chart with the closed form (left) and how the exact interval is built (right).

    Parameters
    ----------
    estimate : PoolEstimate
        From `estimate_pool_size(n, d)`.
    ax : pair of Axes, optional
        Left and right panels (a new 11 x 3.8 inch figure when omitted).
    simulated : array, optional
        Mean distinct counts simulated for pools 1..max_pool (`simulate_curve`), drawn on top.
    max_pool : int
        Largest pool on the left panel.

    Returns
    -------
    (Axes, Axes)
    """
    if not isinstance(estimate, PoolEstimate):
        raise InvalidPuzzleError(f"estimate must be a PoolEstimate, not {estimate!r:.60}")
    max_pool = checks.integer(max_pool, "max_pool", minimum=1, maximum=100_000)
    n, d = estimate.n_samples, estimate.n_distinct
    if ax is None:
        _, ax = plt.subplots(1, 2, figsize=(11, 3.8))
    left, right = ax
    pools = np.arange(1, max_pool + 1)
    exact = np.array([expected_distinct(N, n) for N in pools])
    sd = np.sqrt([variance_distinct(N, n) for N in pools])
    band = exact - 2 * sd, exact + 2 * sd
    left.fill_between(pools, *band, color="tab:blue", alpha=0.15, label="closed form ±2 sd")
    left.plot(pools, exact, color="tab:blue", label="closed form E[D]")
    if simulated is not None:
        left.plot(pools, simulated, color="tab:orange", lw=1, label="simulation (mean of runs)")
    left.plot(pools, np.minimum(pools, n), color="grey", lw=0.8, ls=":", label="all seen")
    left.axhline(d, color="k", lw=1, label=f"{d} seen")
    _mark_interval(left, estimate)
    left.set(xlabel="pool size N", ylabel=f"distinct patterns in {n} openings")
    left.set_title("The write-up's chart, with the closed form")
    left.legend(fontsize=8, loc="lower right")
    top = int(min(max(2 * estimate.high, d + 10), 10 * d)) if np.isfinite(estimate.high) else 3 * d
    Ns = np.arange(d, top + 1)
    right.plot(Ns, [prob_at_most(N, n, d) for N in Ns], label=f"P(D ≤ {d} | N)")
    right.plot(Ns, [prob_at_least(N, n, d) for N in Ns], label=f"P(D ≥ {d} | N)")
    rel = np.exp(log_likelihood(Ns, n, d) - log_likelihood(estimate.estimate, n, d))
    right.plot(Ns, rel, color="k", lw=1, label="likelihood / max")
    right.axhline((1 - estimate.confidence) / 2, color="grey", ls="--", lw=0.8)
    _mark_interval(right, estimate, line=False)
    right.set(xlabel="pool size N", ylabel="probability")
    right.set_title(f"{d} of {n}: the exact interval {estimate.low:.0f}–{estimate.high:.0f}")
    right.legend(fontsize=8)
    return left, right


def _mark_interval(ax, estimate: PoolEstimate, line: bool = True) -> None:
    """Shade the interval (and mark the estimate) on an axis of pool sizes."""
    label = f"{estimate.confidence:.0%} interval"
    ax.axvspan(estimate.low, estimate.high, color="tab:green", alpha=0.12, label=label)
    if line:
        ax.axvline(estimate.estimate, color="tab:green", lw=1)


def draw_frequencies(counts: Counter, ax=None, *, expected: np.ndarray | None = None, title=""):
    """Bars of how often each pattern was seen (most frequent first), optionally vs the truth."""
    freq = np.sort(count_values(counts).astype(float))[::-1]
    if ax is None:
        _, ax = plt.subplots(figsize=(10, 3.4))
    ax.bar(np.arange(len(freq)), freq, color="tab:blue", label="seen")
    if expected is not None:
        w = np.sort(np.asarray(expected, dtype=float))[::-1]
        ax.plot(np.arange(len(w)), w, color="tab:orange", lw=1.5, label="expected (sorted)")
    ax.set(xlabel="pattern (most frequent first)", ylabel="openings", xticks=[], title=title)
    ax.legend()
    return ax


def draw_difficulty(moves: dict, patterns, table, ax=None, *, mean: float | None = None):
    """Minimum moves of the openings and of the distinct patterns against all states of `table`.

    `moves` maps each pattern to its minimum moves (`minimum_moves`), `patterns` lists the
    openings' patterns (with repeats), `mean` marks the openings' mean.
    """
    if not isinstance(table, DistanceTable):
        raise InvalidPuzzleError("table must be a sliding.DistanceTable (e.g. game_table())")
    if not isinstance(moves, dict) or not all(isinstance(v, int) for v in moves.values()):
        raise InvalidPuzzleError("moves must map patterns to minimum moves (minimum_moves)")
    patterns = patterns_of(patterns)
    if not moves or any(p not in moves for p in patterns):
        raise InvalidPuzzleError("every pattern needs its minimum moves in `moves`")
    if ax is None:
        _, ax = plt.subplots()
    depth = np.arange(len(table.counts))
    per_opening = np.bincount([moves[p] for p in patterns], minlength=len(depth))
    per_pattern = np.bincount(list(moves.values()), minlength=len(depth))
    all_states = table.counts / table.counts.sum()
    ax.bar(depth - 0.2, per_opening / per_opening.sum(), width=0.4, label="openings (weighted)")
    ax.bar(depth + 0.2, per_pattern / per_pattern.sum(), width=0.4, label="distinct patterns")
    ax.plot(depth, all_states, "k.-", lw=1, label=f"all {int(table.counts.sum()):,} states")
    if mean is not None:
        ax.axvline(mean, color="tab:blue", ls="--", lw=1)
    ax.axvline(float(depth @ all_states), color="k", ls="--", lw=1)
    ax.set(xlabel="minimum moves", ylabel="fraction", title="Difficulty of the openings")
    ax.legend(fontsize=8)
    return ax


def draw_risk(pools=(70, 80), ax=None, *, n_max: int = 1000, reliability: float = 0.001):
    """The write-up's risk (N/(N+1))^n of never drawing one extra pattern, per pool size.

    Dotted lines mark `samples_needed(N, reliability)`; the dashed curve is the chance that
    some of the last pool's own patterns are still unseen (1 - P(D = N)).
    """
    if isinstance(pools, (str, bytes)) or not isinstance(pools, Iterable):
        raise InvalidPuzzleError(f"pools must be a list of pool sizes, not {pools!r:.60}")
    pools = [check_pool(N) for N in pools]
    if not pools:
        raise InvalidPuzzleError("pools must name at least one pool size")
    n_max = checks.integer(n_max, "n_max", minimum=1, maximum=1_000_000)
    reliability = checks.fraction(reliability, "reliability")
    if ax is None:
        _, ax = plt.subplots()
    n = np.arange(0, n_max + 1)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for N, color in zip(pools, colors[1:] + colors[:1], strict=False):
        label = f"one extra pattern never drawn, N = {N}"
        ax.semilogy(n, unseen_probability(N, n), color=color, label=label)
        ax.axvline(samples_needed(N, reliability), color=color, ls=":", lw=1)
    last = pools[-1]
    coarse = n[:: max(1, n_max // 100)]
    unseen = [1 - prob_all_seen(last, int(k)) for k in coarse]
    ax.semilogy(coarse, unseen, color="k", ls="--", lw=1, label=f"some of the {last} still unseen")
    ax.axhline(reliability, color="k", lw=0.8)
    ax.set(xlabel="openings n", ylabel="probability", ylim=(reliability / 100, 1.2))
    ax.legend(fontsize=8)
    return ax
