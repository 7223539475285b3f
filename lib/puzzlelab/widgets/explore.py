"""Study controls: the pool-size question of notebook 04, live.

Pick a true pool size, the number of openings, how unequal the pattern frequencies are and a
seed; the explorer draws the openings, counts the distinct patterns and redraws both
estimators (equal weights: MLE with its exact interval; Gamma-Poisson: profile likelihood)
against the truth. Everything is computed by `puzzlelab.patterns`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import ipywidgets as W
import numpy as np
from matplotlib.figure import Figure

from ..checks import integer, number
from ..errors import PuzzleError
from .core import Panel, figure_png, image_widget, show

CONCENTRATIONS = (
    ("equal weights", 0.0),
    ("Dirichlet 20", 20.0),
    ("Dirichlet 5", 5.0),
    ("Dirichlet 1", 1.0),
)


@dataclass(frozen=True)
class PoolDraw:
    """One draw of openings from a pool and what the estimators make of it."""

    pool: int
    n_samples: int
    counts: Counter
    equal: Any  # patterns.PoolEstimate (estimate, low, high)
    mixture: Any  # patterns.MixtureEstimate

    @property
    def n_distinct(self) -> int:
        """Distinct patterns seen."""
        return len(self.counts)


def draw_pool(pool: int, n_samples: int, concentration: float = 0.0, seed: int = 0) -> PoolDraw:
    """Draw `n_samples` openings of the game from `pool` patterns; estimate the pool both ways.

    The openings come from the game model's one pool sampler (`puzzlelab.game.random_openings`),
    so the explorer samples exactly as notebook 04 does.

    Parameters
    ----------
    pool : int
        The true number of patterns.
    n_samples : int
        Openings drawn.
    concentration : float
        0 for equal weights, else the Dirichlet concentration of the pattern weights
        (small = very unequal).
    seed : int
        Seeds the weights and the draws.

    Returns
    -------
    PoolDraw
    """
    from .. import game, patterns

    pool = integer(pool, "pool", minimum=1, maximum=10_000)
    n_samples = integer(n_samples, "n_samples", minimum=1, maximum=10**6)
    concentration = number(concentration, "concentration", minimum=0, maximum=1e6)
    seed = integer(seed, "seed", minimum=0)
    draws = game.random_openings(pool, n_samples, concentration=concentration, rng=seed)
    counts = Counter(int(x) for x in draws)
    equal = patterns.estimate_pool_size(n_samples, len(counts))
    mixture = patterns.mixture_pool_size(counts)
    return PoolDraw(pool, n_samples, counts, equal, mixture)


def _check_draw(draw: object) -> None:
    """Refuse anything but a PoolDraw (from `draw_pool`)."""
    if not isinstance(draw, PoolDraw):
        raise PuzzleError(f"expected a PoolDraw (from draw_pool), not {type(draw).__name__}")


def _fmt(x: float) -> str:
    """A pool size for text: an integer, or 'inf'."""
    return "inf" if not np.isfinite(x) else f"{x:.0f}"


def describe(draw: PoolDraw) -> str:
    """One line: what was seen, both estimates and whether they hold the truth."""
    _check_draw(draw)
    eq, mx = draw.equal, draw.mixture

    def holds(est: Any) -> str:
        return "holds" if est.contains(draw.pool) else "misses"

    return (
        f"{draw.n_distinct} distinct in {draw.n_samples} openings of a pool of {draw.pool} · "
        f"equal weights {_fmt(eq.estimate)} [{_fmt(eq.low)}-{_fmt(eq.high)}] {holds(eq)} · "
        f"Gamma-Poisson {_fmt(mx.estimate)} [{_fmt(mx.low)}-{_fmt(mx.high)}] {holds(mx)} the truth"
    )


def draw_estimates(draw: PoolDraw, ax: Any = None) -> Any:
    """Relative likelihood of the pool size (equal weights), both intervals and the truth."""
    _check_draw(draw)
    from .. import patterns

    if ax is None:
        ax = Figure(figsize=(6.0, 2.8)).add_subplot()
    eq, mx = draw.equal, draw.mixture
    finite = [v for v in (eq.high, mx.high, draw.pool) if np.isfinite(v)]
    top = int(max(finite + [draw.n_distinct + 5]) * 1.3) + 2
    pools = np.arange(draw.n_distinct, top)
    ll = patterns.log_likelihood(pools, draw.n_samples, draw.n_distinct)
    ax.plot(pools, np.exp(ll - ll.max()), color="tab:blue", label="relative likelihood")
    ax.axvspan(eq.low, min(eq.high, top), color="tab:blue", alpha=0.15, label="equal weights 95 %")
    ax.plot(
        [mx.low, min(mx.high, top)],
        [-0.08, -0.08],
        color="tab:orange",
        lw=5,
        label="Gamma-Poisson 95 %",
    )
    ax.axvline(draw.pool, color="k", ls="--", lw=1, label=f"true pool {draw.pool}")
    ax.set(
        xlabel="pool size N",
        ylim=(-0.15, 1.05),
        yticks=[0, 0.5, 1],
        title=f"{draw.n_distinct} distinct patterns in {draw.n_samples} openings",
    )
    ax.legend(fontsize=7, loc="upper right")
    return ax


class PoolSizeExplorer(Panel):
    """Sliders for pool size, openings, weights and seed; the estimates redrawn live.

    Parameters
    ----------
    pool, n_samples : int
        Starting true pool size and number of openings.
    concentration : float
        Starting weights (0 = equal; one of the Dirichlet concentrations in CONCENTRATIONS).
    seed : int
        Starting seed.
    """

    def __init__(
        self, pool: int = 80, n_samples: int = 500, concentration: float = 5.0, seed: int = 0
    ):
        pool = integer(pool, "pool", minimum=5, maximum=300)
        n_samples = integer(n_samples, "n_samples", minimum=10, maximum=1500)
        concentration = number(concentration, "concentration", minimum=0, maximum=1e6)
        seed = integer(seed, "seed", minimum=0, maximum=10**6)
        style = {"description_width": "7em"}
        slider = dict(continuous_update=False, style=style)
        self.pool = W.IntSlider(value=pool, min=5, max=300, description="pool size", **slider)
        self.n_samples = W.IntSlider(
            value=n_samples, min=10, max=1500, step=10, description="openings", **slider
        )
        options = dict(CONCENTRATIONS)
        if concentration not in options.values():
            options[f"Dirichlet {concentration:g}"] = float(concentration)
        self.concentration = W.Dropdown(
            options=options, value=float(concentration), description="weights", style=style
        )
        self.seed = W.BoundedIntText(
            value=seed,
            min=0,
            max=10**6,
            description="seed",
            style=style,
            layout=W.Layout(width="14em"),
        )
        self.image = image_widget()
        self.status = W.Label()
        self.status.add_class("puzzlelab-status")
        controls = [self.pool, self.n_samples, self.concentration, self.seed]
        for control in controls:
            control.observe(lambda _: self.update(), names="value")
        super().__init__([W.HBox(controls[:2]), W.HBox(controls[2:]), self.image, self.status])
        self.add_class("puzzlelab-explorer")
        self.update()

    def update(self) -> PoolDraw:
        """Draw again with the current controls and redraw the picture and the line."""
        self.draw = draw_pool(
            self.pool.value, self.n_samples.value, self.concentration.value, self.seed.value
        )
        show(self.image, self.fallback_png())
        self.status.value = describe(self.draw)
        return self.draw

    def fallback_png(self) -> bytes:
        """The current estimates."""
        fig = Figure(figsize=(6.0, 2.8))
        draw_estimates(self.draw, fig.add_subplot())
        fig.tight_layout()
        return figure_png(fig)

    def summary(self) -> str:
        """The line under the picture."""
        return describe(self.draw)
