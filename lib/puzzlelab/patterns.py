"""Pattern-frequency statistics: how many shuffles does a game draw from, and how hard are they?

The slide-puzzle write-up opened its game many times, wrote down (picture, pattern) for each
opening and asked: how big is the pool of shuffles, how many openings make an unseen extra
pattern unlikely, are the six pictures equally frequent, does each picture have its own pool,
and how many moves does a typical opening need? It answered by simulation; here are the
closed forms (the classical occupancy model) next to seeded simulations of the same question.

Notation: a pool of `N` equally likely patterns, `n` samples (openings), `D` the number of
distinct patterns seen. `P(D = k) = C(N, k) k! S(n, k) / N^n` with `S` the Stirling numbers
of the second kind; we compute it with the (stable, all-positive) one-draw-at-a-time recurrence
and keep the exact integer formula as the slow reference.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import optimize, special, stats

from .errors import InvalidPuzzleError, ParseError, PuzzleError
from .game import GAME_GOAL, GAME_SHAPE, N_PICTURES
from .paths import atomic_write_text
from .sliding import DistanceTable, State, distance_table, is_solvable, parse_board, to_pattern

Pattern = str  # the write-up's compact board, e.g. '9B6358247'

# ----------------------------------------------------------------------------- samples file


def read_samples(path: str | Path, n_pictures: int | None = N_PICTURES) -> pd.DataFrame:
    """Read a samples CSV (picture, pattern per row; header optional) into a validated table."""
    path = Path(path)
    if not path.exists():
        raise ParseError(f"{path}: no such samples file (expected rows like '1,9B6358247')")
    return parse_samples(path.read_text(encoding="utf-8-sig"), n_pictures, source=str(path))


def parse_samples(
    text: str, n_pictures: int | None = N_PICTURES, source: str = "samples"
) -> pd.DataFrame:
    """Rows `picture,pattern` (header optional) -> DataFrame(opening, picture, state, pattern).

    Every empty or malformed row is reported with its line number in one ParseError; trailing
    blank lines are allowed. Patterns must hold the game's tiles (2-9 and a blank) and be
    solvable toward `789456B23`; pictures are integers 1..n_pictures.
    """
    text = text.lstrip("\ufeff")
    lines = text.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise ParseError(f"{source}: empty file (expected rows like '1,9B6358247')")
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    col_picture, col_pattern, first = 0, 1, 0
    header = [c.strip().lower() for c in rows[0]]
    if "picture" in header or "pattern" in header:
        if "picture" not in header or "pattern" not in header:
            raise ParseError(f"{source} line 1: the header needs both 'picture' and 'pattern'")
        col_picture, col_pattern, first = header.index("picture"), header.index("pattern"), 1
    problems: list[str] = []
    records = []
    for number, row in enumerate(rows[first:], start=first + 1):
        try:
            records.append((number, *_parse_row(row, col_picture, col_pattern, n_pictures)))
        except PuzzleError as exc:
            problems.append(f"line {number}: {exc}")
    if problems:
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        raise ParseError(f"{source}: {len(problems)} bad rows: " + "; ".join(problems[:10]) + more)
    if not records:
        raise ParseError(f"{source}: a header but no samples")
    line, picture, state = zip(*records, strict=True)
    return pd.DataFrame(
        {
            "opening": np.arange(len(records)),
            "picture": np.array(picture, dtype=np.int64),
            "state": list(state),
            "pattern": [to_pattern(s) for s in state],
            "line": np.array(line, dtype=np.int64),
        }
    )


def _parse_row(
    row: Sequence[str], col_picture: int, col_pattern: int, n_pictures: int | None
) -> tuple[int, State]:
    """One CSV row -> (picture, state), raising a PuzzleError that says what is wrong."""
    cells = [c.strip() for c in row]
    if not any(cells):
        raise ParseError("empty row (expected 'picture,pattern')")
    if len(cells) <= max(col_picture, col_pattern):
        raise ParseError(f"{len(cells)} field(s) {','.join(cells)!r}; expected 'picture,pattern'")
    pic_text, pat_text = cells[col_picture], cells[col_pattern]
    try:
        picture = int(pic_text)
    except ValueError:
        raise ParseError(f"picture {pic_text!r} is not a whole number") from None
    if picture < 1 or (n_pictures is not None and picture > n_pictures):
        top = "" if n_pictures is None else f"..{n_pictures}"
        raise InvalidPuzzleError(f"picture {picture} is outside 1{top}")
    if len(pat_text) != 9:
        raise ParseError(f"pattern {pat_text!r} has {len(pat_text)} characters, expected 9")
    state = parse_board(pat_text, GAME_SHAPE)
    if not is_solvable(state, GAME_GOAL, GAME_SHAPE):  # also checks the tiles 2-9 + blank
        raise InvalidPuzzleError(f"pattern {pat_text!r} cannot be solved toward 789456B23")
    return picture, state


def format_samples(samples: pd.DataFrame) -> str:
    """The write-up's CSV text: header `picture,pattern`, one opening per line."""
    lines = ["picture,pattern"]
    lines += [f"{int(p)},{s}" for p, s in zip(samples["picture"], samples["pattern"], strict=True)]
    return "\n".join(lines) + "\n"


def write_samples(samples: pd.DataFrame, path: str | Path) -> Path:
    """Write samples in the write-up's CSV format (atomically)."""
    return atomic_write_text(path, format_samples(samples))


# ----------------------------------------------------------------------------- occupancy model


def expected_distinct(
    pool: int | None, n_samples: int | np.ndarray, weights: Sequence[float] | None = None
) -> float | np.ndarray:
    """E[D]: expected distinct patterns in n draws, N(1 - (1 - 1/N)^n), or sum 1 - (1 - p)^n."""
    n = np.asarray(n_samples, dtype=float)
    if weights is not None:
        p = _probabilities(weights)
        with np.errstate(divide="ignore"):  # p = 1: log1p(-1) = -inf, the pattern is always seen
            out = np.sum(-np.expm1(np.multiply.outer(n, np.log1p(-p))), axis=-1)
    else:
        _check_pool(pool)
        out = pool * -np.expm1(n * math.log1p(-1.0 / pool)) if pool > 1 else np.ones_like(n)
    return float(out) if np.ndim(out) == 0 else out


def variance_distinct(pool: int, n_samples: int) -> float:
    """Var[D] for `n_samples` draws from `pool` equally likely patterns (closed form)."""
    _check_pool(pool)
    N, n = pool, n_samples
    a = (1 - 1 / N) ** n
    b = (1 - 2 / N) ** n if N > 1 else 0.0
    return max(0.0, N * (N - 1) * b + N * a - N * N * a * a)


def distinct_distribution(pool: int, n_samples: int) -> np.ndarray:
    """P(D = k) for k = 0..min(N, n): the exact occupancy distribution (float, stable).

    Draw by draw: with k patterns seen, the next draw is new with probability (N - k) / N.
    Every term is a sum of positive numbers, so nothing cancels.
    """
    _check_pool(pool)
    N, top = pool, min(pool, n_samples)
    k = np.arange(top + 1, dtype=float)
    prob = np.zeros(top + 1)
    prob[0] = 1.0
    stay, move = k / N, (N - k) / N
    for _ in range(n_samples):
        new = prob * stay
        new[1:] += prob[:-1] * move[:-1]
        prob = new
    return prob


def samples_for_distinct(pool: int, n_distinct: float | np.ndarray) -> float | np.ndarray:
    """Invert E[D]: the n at which N equally likely patterns show `n_distinct` on average."""
    _check_pool(pool)
    d = np.asarray(n_distinct, dtype=float)
    if np.any(d < 0) or np.any(d >= pool):
        raise InvalidPuzzleError(f"an average distinct count must lie in 0..{pool} (exclusive)")
    out = np.log1p(-d / pool) / math.log1p(-1.0 / pool)
    return float(out) if np.ndim(out) == 0 else out


@lru_cache(maxsize=4096)
def stirling2(n: int, k: int) -> int:
    """Stirling number of the second kind S(n, k), exact (ways to split n items into k blocks)."""
    if n == k:
        return 1
    if k == 0 or k > n:
        return 0
    row = [1] + [0] * k  # S(0, j)
    for m in range(1, n + 1):
        for j in range(min(m, k), 0, -1):
            row[j] = j * row[j] + row[j - 1]
        row[0] = 0
    return row[k]


def distinct_distribution_exact(pool: int, n_samples: int) -> list[Fraction]:
    """Slow reference: P(D = k) = C(N, k) k! S(n, k) / N^n as exact fractions."""
    _check_pool(pool)
    total = pool**n_samples
    return [
        Fraction(math.perm(pool, k) * stirling2(n_samples, k), total)
        for k in range(min(pool, n_samples) + 1)
    ]


def distinct_distribution_enumerated(pool: int, n_samples: int) -> np.ndarray:
    """Slowest reference: count distinct values over all N^n draw sequences (tiny cases only)."""
    if pool**n_samples > 2_000_000:
        raise InvalidPuzzleError(f"{pool}^{n_samples} sequences is too many to enumerate")
    seqs = np.indices((pool,) * n_samples).reshape(n_samples, -1).T
    distinct = np.array([len(set(row)) for row in seqs.tolist()])
    counts = np.bincount(distinct, minlength=min(pool, n_samples) + 1)
    return counts / pool**n_samples


def simulate_distinct(
    pool: int,
    n_samples: int,
    trials: int = 100,
    seed: int | np.random.Generator = 0,
    weights: Sequence[float] | None = None,
) -> np.ndarray:
    """Distinct patterns seen in each of `trials` seeded simulations of `n_samples` draws."""
    rng = np.random.default_rng(seed)
    if weights is None:
        draws = rng.integers(pool, size=(trials, n_samples))
    else:
        draws = rng.choice(len(weights), size=(trials, n_samples), p=_probabilities(weights))
    return _distinct_per_row(draws)


def simulate_curve(
    pools: Iterable[int], n_samples: int, trials: int = 100, seed: int = 0
) -> np.ndarray:
    """The write-up's chart: mean distinct seen over `trials` runs for each pool size."""
    rng = np.random.default_rng(seed)
    return np.array([simulate_distinct(N, n_samples, trials, rng).mean() for N in pools])


def _distinct_per_row(draws: np.ndarray) -> np.ndarray:
    """Number of distinct values in each row of an int array."""
    if draws.shape[1] == 0:
        return np.zeros(len(draws), dtype=np.int64)
    s = np.sort(draws, axis=1)
    return 1 + np.count_nonzero(np.diff(s, axis=1), axis=1)


def _check_pool(pool: int | None) -> None:
    """A pool size must be a positive integer."""
    if pool is None or int(pool) != pool or pool < 1:
        raise InvalidPuzzleError(f"a pool holds a positive whole number of patterns, not {pool}")


def _probabilities(weights: Sequence[float]) -> np.ndarray:
    """Weights as probabilities (non-negative, normalised)."""
    w = np.asarray(weights, dtype=float)
    if w.ndim != 1 or len(w) == 0 or np.any(w < 0) or not np.isfinite(w).all() or w.sum() <= 0:
        raise InvalidPuzzleError("weights must be a non-empty list of non-negative numbers")
    return w / w.sum()


# ----------------------------------------------------------------------------- pool size


@dataclass(frozen=True)
class PoolEstimate:
    """Pool size from (n samples, d distinct) under the equal-weights occupancy model."""

    n_samples: int
    n_distinct: int
    mle: float  # maximum-likelihood pool size (inf when every sample was new)
    low: float  # exact confidence interval by inverting the two one-sided tests
    high: float
    moment: float  # N with E[D] = d (the write-up's "where the curve crosses the line")
    confidence: float

    def contains(self, pool: int) -> bool:
        """Is `pool` inside the confidence interval?"""
        return self.low <= pool <= self.high

    def __str__(self) -> str:
        """One line for notebooks: MLE with its interval."""
        return (
            f"{self.n_distinct}/{self.n_samples} -> pool {_num(self.mle)} "
            f"({self.confidence:.0%} interval {_num(self.low)}-{_num(self.high)}), "
            f"moment estimate {self.moment:.1f}"
        )


def _num(x: float) -> str:
    """An integer-valued float as an int, infinity as 'inf'."""
    return "inf" if math.isinf(x) else f"{x:.0f}"


def log_likelihood(pool: int | np.ndarray, n_samples: int, n_distinct: int) -> np.ndarray:
    """log P(D = d | N) up to a term free of N: log N!/(N-d)! - n log N (-inf for N < d)."""
    N = np.asarray(pool, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (
            special.gammaln(N + 1)
            - special.gammaln(np.maximum(N - n_distinct, 0) + 1)
            - n_samples * np.log(N)
        )
    return np.where(n_distinct <= N, out, -np.inf)


def _check_counts(n_samples: int, n_distinct: int) -> None:
    """1 <= d <= n, both whole numbers."""
    if int(n_samples) != n_samples or int(n_distinct) != n_distinct:
        raise InvalidPuzzleError("sample and distinct counts must be whole numbers")
    if not 1 <= n_distinct <= n_samples:
        raise InvalidPuzzleError(
            f"{n_distinct} distinct patterns from {n_samples} samples: "
            "need 1 <= distinct <= samples"
        )


def moment_estimate(n_samples: int, n_distinct: int) -> float:
    """The real N with N(1 - (1 - 1/N)^n) = d (inf when d = n, 1 when d = 1)."""
    _check_counts(n_samples, n_distinct)
    n, d = n_samples, n_distinct
    if d == n:
        return math.inf
    if d == 1:
        return 1.0

    def gap(log_n: float) -> float:
        N = math.exp(log_n)
        return N * -math.expm1(n * math.log1p(-1.0 / N)) - d

    hi = math.log(d) + 1
    while gap(hi) < 0:
        hi *= 2
    return math.exp(optimize.brentq(gap, math.log(d), hi, xtol=1e-12))


def mle_pool(n_samples: int, n_distinct: int) -> float:
    """The integer N >= d maximising P(D = d | N) (inf when every sample was new)."""
    _check_counts(n_samples, n_distinct)
    n, d = n_samples, n_distinct
    if d == n:
        return math.inf
    N = d
    # L(N+1)/L(N) = (N+1)/(N+1-d) * (N/(N+1))^n is decreasing in N: climb while it exceeds 1
    while math.log(N + 1) - math.log(N + 1 - d) + n * math.log(N / (N + 1)) > 0:
        N += 1
    return float(N)


def estimate_pool_size(n_samples: int, n_distinct: int, confidence: float = 0.95) -> PoolEstimate:
    """MLE pool size with an exact (conservative) interval, and the moment estimate.

    The interval holds every N >= d for which neither one-sided test rejects at
    (1 - confidence)/2: P_N(D <= d) > alpha/2 and P_N(D >= d) > alpha/2 (like Clopper-Pearson),
    so its coverage is at least `confidence` whatever the true N.
    """
    _check_counts(n_samples, n_distinct)
    if not 0 < confidence < 1:
        raise InvalidPuzzleError(f"confidence must lie strictly between 0 and 1, not {confidence}")
    n, d, tail = n_samples, n_distinct, (1 - confidence) / 2

    def upper_ok(N: int) -> bool:  # P_N(D >= d) > tail; grows with N
        return distinct_distribution(N, n)[d:].sum() > tail

    def lower_ok(N: int) -> bool:  # P_N(D <= d) > tail; shrinks with N
        return distinct_distribution(N, n)[: d + 1].sum() > tail

    low = d
    if not upper_ok(d):
        hi = d + 1
        while not upper_ok(hi):
            hi *= 2
        low = _first_true(upper_ok, d, hi)
    if d == n:
        high = math.inf
    else:
        hi = max(low, d) + 1
        while lower_ok(hi):
            hi *= 2
            if hi > 10**7:
                raise InvalidPuzzleError(f"{d}/{n}: the upper bound exceeds 10^7 patterns")
        high = _first_true(lambda N: not lower_ok(N), max(low, d), hi) - 1
    return PoolEstimate(
        n, d, mle_pool(n, d), float(low), float(high), moment_estimate(n, d), confidence
    )


def _bracket(pred, start: int, limit: int) -> int:
    """An upper end where a monotone predicate holds: start + 1, 2, 4, ... (capped at limit)."""
    step = 1
    while start + step < limit and not pred(start + step):
        step *= 2
    return min(start + step, limit)


def _first_true(pred, lo: int, hi: int) -> int:
    """Smallest integer in [lo, hi] where a monotone predicate (False..True) holds; pred(hi)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def interval_coverage(pool: int, n_samples: int, confidence: float = 0.95) -> float:
    """Exact probability that `estimate_pool_size`'s interval contains the true `pool`."""
    dist = distinct_distribution(pool, n_samples)
    return float(
        sum(
            p
            for d, p in enumerate(dist)
            if d >= 1 and p > 0 and estimate_pool_size(n_samples, d, confidence).contains(pool)
        )
    )


# ----------------------------------------------------------------------------- sample size


def unseen_probability(pool: int, n_samples: int | np.ndarray) -> float | np.ndarray:
    """The write-up's risk: one extra pattern among N + 1 never drawn in n samples, (N/(N+1))^n."""
    _check_pool(pool)
    out = np.exp(np.asarray(n_samples, dtype=float) * math.log(pool / (pool + 1)))
    return float(out) if np.ndim(out) == 0 else out


def samples_needed(pool: int, reliability: float = 0.001) -> int:
    """Smallest n with (N/(N+1))^n <= reliability (the write-up's 487 for N=70, 557 for N=80)."""
    _check_pool(pool)
    if not 0 < reliability < 1:
        raise InvalidPuzzleError(
            f"reliability must lie strictly between 0 and 1, not {reliability}"
        )
    n = max(0, math.ceil(math.log(reliability) / math.log(pool / (pool + 1))) - 2)
    while unseen_probability(pool, n) > reliability:  # settle float rounding at the edge
        n += 1
    return n


def prob_all_seen(pool: int, n_samples: int) -> float:
    """P(D = N): every one of `pool` equally likely patterns seen in `n_samples` draws."""
    return float(distinct_distribution(pool, n_samples)[pool]) if n_samples >= pool else 0.0


def samples_to_see_all(pool: int, confidence: float = 0.999) -> int:
    """Smallest n with P(every pattern seen) >= confidence (the coupon-collector question)."""
    _check_pool(pool)
    lo, hi = pool, 2 * pool
    while prob_all_seen(pool, hi) < confidence:
        hi *= 2
    return _first_true(lambda n: prob_all_seen(pool, n) >= confidence, lo, hi)


# ----------------------------------------------------------------------------- unseen patterns


def frequency_counts(samples: pd.DataFrame | Sequence[Pattern]) -> Counter:
    """How often each pattern was seen."""
    patterns = samples["pattern"] if isinstance(samples, pd.DataFrame) else samples
    return Counter(patterns)


@dataclass(frozen=True)
class Coverage:
    """Good-Turing view of a sample: how much probability do the unseen patterns hold?"""

    n_samples: int
    n_distinct: int
    singletons: int  # f1, patterns seen once
    doubletons: int  # f2, patterns seen twice
    unseen_mass: float  # Good-Turing f1/n: chance the next opening is a new pattern
    coverage: float  # 1 - f1/n


def coverage(counts: Counter | Sequence[int]) -> Coverage:
    """Good-Turing unseen mass and sample coverage from the pattern counts."""
    c = _count_values(counts)
    n, f1, f2 = int(c.sum()), int(np.sum(c == 1)), int(np.sum(c == 2))
    return Coverage(n, len(c), f1, f2, f1 / n, 1 - f1 / n)


@dataclass(frozen=True)
class Chao1:
    """Bias-corrected Chao1 lower-bound estimate of the pool size with a log-normal interval."""

    estimate: float
    low: float
    high: float
    sd: float
    n_samples: int
    n_distinct: int
    singletons: int
    doubletons: int
    confidence: float

    def contains(self, pool: int) -> bool:
        """Is `pool` inside the interval?"""
        return self.low <= pool <= self.high

    def __str__(self) -> str:
        """One line for notebooks."""
        return (
            f"Chao1 {self.estimate:.1f} ({self.confidence:.0%} interval "
            f"{self.low:.1f}-{self.high:.1f}; f1={self.singletons}, f2={self.doubletons})"
        )


def chao1(counts: Counter | Sequence[int], confidence: float = 0.95) -> Chao1:
    """Bias-corrected Chao1 (Chao 1984/2005) with the EstimateS variance and log-normal interval.

    Uses no equal-weights assumption: the unseen count is read off singletons and doubletons,
    S = D + (n-1)/n * f1(f1-1) / (2(f2+1)). The interval S_obs + T/K .. S_obs + T*K keeps the
    lower end above the observed count; with at most one singleton it uses EstimateS's
    equation for the no-singleton case.
    """
    c = _count_values(counts)
    n, d = int(c.sum()), len(c)
    f1, f2 = int(np.sum(c == 1)), int(np.sum(c == 2))
    z = stats.norm.ppf(0.5 + confidence / 2)
    r = (n - 1) / n
    t = r * f1 * (f1 - 1) / (2 * (f2 + 1))
    est = d + t
    if t > 0:
        var = (
            r * f1 * (f1 - 1) / (2 * (f2 + 1))
            + r * r * f1 * (2 * f1 - 1) ** 2 / (4 * (f2 + 1) ** 2)
            + r * r * f1 * f1 * f2 * (f1 - 1) ** 2 / (4 * (f2 + 1) ** 4)
        )
        k = math.exp(z * math.sqrt(math.log(1 + var / t**2)))
        low, high = d + t / k, d + t * k
    else:
        kinds = np.bincount(c)
        i = np.flatnonzero(kinds)
        f = kinds[i]
        var = float(
            np.sum(f * (np.exp(-i) - np.exp(-2.0 * i))) - np.sum(i * np.exp(-i) * f) ** 2 / n
        )
        var = max(var, 0.0)
        p = float(np.sum(f * np.exp(-i)) / d)
        low = max(d, d / (1 - p) - z * math.sqrt(var) / (1 - p))
        high = d / (1 - p) + z * math.sqrt(var) / (1 - p)
    return Chao1(est, float(low), float(high), math.sqrt(var), n, d, f1, f2, confidence)


def _count_values(counts: Counter | Sequence[int]) -> np.ndarray:
    """Positive per-pattern counts as an int array."""
    values = list(counts.values()) if isinstance(counts, dict) else list(counts)
    c = np.asarray(values, dtype=np.int64)
    c = c[c > 0]
    if len(c) == 0:
        raise InvalidPuzzleError("no samples: need at least one pattern count above zero")
    return c


# ----------------------------------------------------------------------------- pictures


def picture_counts(samples: pd.DataFrame, n_pictures: int = N_PICTURES) -> np.ndarray:
    """Openings per picture 1..n_pictures."""
    pics = np.asarray(samples["picture"], dtype=np.int64)
    if len(pics) and (pics.min() < 1 or pics.max() > n_pictures):
        raise InvalidPuzzleError(f"pictures must lie in 1..{n_pictures}")
    return np.bincount(pics - 1, minlength=n_pictures)


@dataclass(frozen=True)
class UniformityTest:
    """Are the pictures equally frequent? Chi-square and an exact (or Monte-Carlo) test."""

    counts: tuple[int, ...]
    expected: tuple[float, ...]
    chi2: float
    dof: int
    p_chi2: float  # asymptotic chi-square p-value
    p_value: float  # exact multinomial (small n) or Monte-Carlo p-value of the same statistic
    method: str  # 'exact' or 'monte-carlo'
    verdict: str  # 'equal' (no evidence against) or 'unequal'


def uniformity_test(
    counts: Sequence[int],
    alpha: float = 0.05,
    max_enumerate: int = 200_000,
    n_simulations: int = 20_000,
    seed: int = 0,
) -> UniformityTest:
    """Test equal frequencies: P(X^2 >= observed), exact for small tables, else simulated."""
    c = np.asarray(counts, dtype=np.int64)
    if c.ndim != 1 or len(c) < 2 or np.any(c < 0) or c.sum() == 0:
        raise InvalidPuzzleError("need counts for at least two pictures, non-negative, not all 0")
    n, k = int(c.sum()), len(c)
    p = np.full(k, 1.0 / k)
    expected = n * p
    obs = _chi2(c, expected)
    p_chi2 = float(stats.chi2.sf(obs, k - 1))
    if math.comb(n + k - 1, k - 1) <= max_enumerate:
        tables = _compositions(n, k)
        pmf = np.exp(
            special.gammaln(n + 1)
            - special.gammaln(tables + 1).sum(axis=1)
            + (tables * np.log(p)).sum(axis=1)
        )
        p_value, method = float(pmf[_chi2(tables, expected) >= obs - 1e-9].sum()), "exact"
    else:
        sims = np.random.default_rng(seed).multinomial(n, p, size=n_simulations)
        hits = int(np.sum(_chi2(sims, expected) >= obs - 1e-9))
        p_value, method = (1 + hits) / (1 + n_simulations), "monte-carlo"
    verdict = "equal" if p_value >= alpha else "unequal"
    return UniformityTest(
        tuple(int(x) for x in c),
        tuple(float(e) for e in expected),
        obs,
        k - 1,
        p_chi2,
        min(1.0, p_value),
        method,
        verdict,
    )


def _chi2(tables: np.ndarray, expected: np.ndarray) -> np.ndarray | float:
    """Pearson's X^2 of each row against the expected counts."""
    return np.sum((tables - expected) ** 2 / expected, axis=-1)


def _compositions(n: int, k: int) -> np.ndarray:
    """Every way to write n as an ordered sum of k non-negative ints (stars and bars)."""
    bars = np.array(list(combinations(range(n + k - 1), k - 1)), dtype=np.int64).reshape(-1, k - 1)
    edges = np.hstack([np.full((len(bars), 1), -1), bars, np.full((len(bars), 1), n + k - 1)])
    return np.diff(edges, axis=1) - 1


# ----------------------------------------------------------------------------- shared patterns


def shared_pattern_matrix(samples: pd.DataFrame, n_pictures: int = N_PICTURES) -> np.ndarray:
    """M[i, j] = distinct patterns seen with both picture i+1 and picture j+1 (the write-up's)."""
    pics, codes = _encode(samples, n_pictures)
    return _shared(_presence(pics, codes, n_pictures, codes.max() + 1 if len(codes) else 0))


def expected_shared_matrix(picture_counts: Sequence[int], weights: Sequence[float]) -> np.ndarray:
    """E[M] if every picture draws from one common pool with these pattern probabilities.

    Given the picture counts n_i, the draws for different pictures are independent, so
    E[M_ij] = sum_k q_ik q_jk with q_ik = 1 - (1 - p_k)^n_i (and E[M_ii] = sum_k q_ik).
    """
    p = _probabilities(weights)
    n = np.asarray(picture_counts, dtype=float)
    q = 1.0 - np.power.outer(1.0 - p, n).T  # q[i, k]: pattern k seen with picture i
    m = q @ q.T
    np.fill_diagonal(m, q.sum(axis=1))
    return m


@dataclass(frozen=True)
class SharedPatternTest:
    """Do the pictures share one pattern pool? Observed sharing against one common pool."""

    observed: np.ndarray  # the shared-pattern matrix
    expected: np.ndarray  # its mean under one common pool (over picture-label permutations)
    statistic: float  # mean off-diagonal sharing
    null_mean: float  # mean of the statistic over label permutations
    p_value: float  # P(statistic <= observed) under permutation (few shared = own pools)
    n_permutations: int
    verdict: str  # 'one common pool' or 'separate pools'


def shared_pattern_test(
    samples: pd.DataFrame,
    n_pictures: int = N_PICTURES,
    n_permutations: int = 2000,
    alpha: float = 0.05,
    seed: int = 0,
) -> SharedPatternTest:
    """Permutation test: shuffle the picture labels (keeping every count) and recount sharing."""
    pics, codes = _encode(samples, n_pictures)
    n_patterns = int(codes.max()) + 1
    observed = _shared(_presence(pics, codes, n_pictures, n_patterns))
    stat = _off_diagonal_mean(observed)
    rng = np.random.default_rng(seed)
    null = np.empty(n_permutations)
    total = np.zeros_like(observed, dtype=float)
    for b in range(n_permutations):
        perm = _shared(_presence(rng.permutation(pics), codes, n_pictures, n_patterns))
        null[b] = _off_diagonal_mean(perm)
        total += perm
    p_value = (1 + int(np.sum(null <= stat + 1e-12))) / (1 + n_permutations)
    expected = total / n_permutations
    verdict = "one common pool" if p_value >= alpha else "separate pools"
    return SharedPatternTest(
        observed, expected, stat, float(null.mean()), p_value, n_permutations, verdict
    )


def _encode(samples: pd.DataFrame, n_pictures: int) -> tuple[np.ndarray, np.ndarray]:
    """Pictures as 0-based ints and patterns as codes 0..K-1."""
    picture_counts(samples, n_pictures)  # validates the range
    pics = np.asarray(samples["picture"], dtype=np.int64) - 1
    _, codes = np.unique(np.asarray(samples["pattern"], dtype=str), return_inverse=True)
    return pics, codes.astype(np.int64)


def _presence(pics: np.ndarray, codes: np.ndarray, n_pictures: int, n_patterns: int) -> np.ndarray:
    """Boolean picture x pattern table: was the pattern ever seen with the picture?"""
    seen = np.zeros((n_pictures, n_patterns), dtype=np.int64)
    seen[pics, codes] = 1
    return seen


def _shared(seen: np.ndarray) -> np.ndarray:
    """Patterns in common between every pair of pictures."""
    return seen @ seen.T


def _off_diagonal_mean(m: np.ndarray) -> float:
    """Mean of the entries above the diagonal."""
    iu = np.triu_indices(len(m), k=1)
    return float(m[iu].mean())


# ----------------------------------------------------------------------------- difficulty


def game_table() -> DistanceTable:
    """The complete 3x3 distance table toward the game's goal 789456B23."""
    return distance_table(GAME_SHAPE, GAME_GOAL, progress=False)


def minimum_moves(
    patterns: Iterable[Pattern], table: DistanceTable | None = None
) -> dict[Pattern, int]:
    """Optimal moves to the game's goal for each distinct pattern."""
    table = game_table() if table is None else table
    return {p: table.distance(parse_board(p, GAME_SHAPE)) for p in dict.fromkeys(patterns)}


@dataclass(frozen=True)
class Difficulty:
    """How many moves an opening needs, weighted by how often it appears, against all states."""

    n_samples: int
    n_patterns: int
    mean: float  # mean over openings = frequency-weighted mean over patterns
    se: float  # its standard error (openings are independent draws)
    pattern_mean: float  # unweighted mean over the distinct patterns seen
    min: int
    max: int
    uniform_mean: float  # mean over every solvable 3x3 state (a uniformly random shuffle)
    uniform_sd: float
    z: float  # (mean - uniform_mean) / se
    p_value: float  # two-sided
    verdict: str  # 'harder', 'easier' or 'no detectable difference' than a random shuffle


def difficulty(
    samples: pd.DataFrame, table: DistanceTable | None = None, alpha: float = 0.05
) -> Difficulty:
    """Frequency-weighted mean of minimum moves with its standard error, against all states."""
    table = game_table() if table is None else table
    moves_of = minimum_moves(samples["pattern"], table)
    moves = np.array([moves_of[p] for p in samples["pattern"]], dtype=float)
    if len(moves) < 2:
        raise InvalidPuzzleError("need at least two samples for a standard error")
    depth = np.arange(len(table.counts))
    w = table.counts / table.counts.sum()
    u_mean = float(depth @ w)
    u_sd = float(np.sqrt(((depth - u_mean) ** 2) @ w))
    mean, se = float(moves.mean()), float(moves.std(ddof=1) / np.sqrt(len(moves)))
    z = (mean - u_mean) / se if se > 0 else math.copysign(math.inf, mean - u_mean)
    p = float(2 * stats.norm.sf(abs(z)))
    verdict = "no detectable difference" if p >= alpha else ("harder" if z > 0 else "easier")
    return Difficulty(
        len(moves),
        len(moves_of),
        mean,
        se,
        float(np.mean(list(moves_of.values()))),
        int(moves.min()),
        int(moves.max()),
        u_mean,
        u_sd,
        float(z),
        p,
        verdict,
    )


def hardest_pattern(
    samples: pd.DataFrame | Iterable[Pattern], table: DistanceTable | None = None
) -> tuple[Pattern, int]:
    """The pattern needing the most moves (first in sorted order among ties)."""
    patterns = samples["pattern"] if isinstance(samples, pd.DataFrame) else samples
    moves_of = minimum_moves(sorted(set(patterns)), table)
    best = max(moves_of, key=lambda p: (moves_of[p], [-ord(ch) for ch in p]))
    return best, moves_of[best]


def is_pool_estimate(est: PoolEstimate) -> bool:
    """Validator: low <= mle <= high, low >= d, and the moment estimate is >= d."""
    return est.n_distinct <= est.low <= est.mle <= est.high and est.moment >= est.n_distinct


@dataclass(frozen=True)
class CoverageCheck:
    """How often each estimator's interval caught the true pool over simulated samples."""

    pool: int
    n_samples: int
    trials: int
    equal_weights: float  # fraction of trials whose exact equal-weights interval holds the pool
    chao1: float  # fraction whose Chao1 interval holds the pool
    mixture: float  # fraction whose Gamma-Poisson interval holds the pool
    mean_distinct: float
    mean_mle: float
    mean_chao1: float


def check_coverage(
    weights: Sequence[float],
    n_samples: int,
    trials: int = 200,
    confidence: float = 0.95,
    seed: int = 0,
) -> CoverageCheck:
    """Draw `trials` seeded samples from a known pool and score both interval estimators."""
    p = _probabilities(weights)
    rng = np.random.default_rng(seed)
    draws = rng.choice(len(p), size=(trials, n_samples), p=p)
    hits_eq = hits_chao = hits_mix = 0
    d_sum = mle_sum = chao_sum = 0.0
    for row in draws:
        counts = np.bincount(row)
        d = int(np.count_nonzero(counts))
        est = _cached_estimate(n_samples, d, confidence)
        ch = chao1(counts, confidence)
        hits_eq += est.contains(len(p))
        hits_chao += ch.contains(len(p))
        hits_mix += mixture_pool_size(counts, confidence).contains(len(p))
        d_sum, mle_sum, chao_sum = d_sum + d, mle_sum + est.mle, chao_sum + ch.estimate
    return CoverageCheck(
        len(p),
        n_samples,
        trials,
        hits_eq / trials,
        hits_chao / trials,
        hits_mix / trials,
        d_sum / trials,
        mle_sum / trials,
        chao_sum / trials,
    )


@lru_cache(maxsize=4096)
def _cached_estimate(n_samples: int, n_distinct: int, confidence: float) -> PoolEstimate:
    """estimate_pool_size, remembered (it depends on the two counts only)."""
    return estimate_pool_size(n_samples, n_distinct, confidence)


# ----------------------------------------------------------------------------- unequal weights


@dataclass(frozen=True)
class MixtureEstimate:
    """Pool size when patterns have unequal frequencies: Gamma-Poisson (negative binomial) model.

    Each of N patterns is drawn X ~ NegBin(mean mu, shape k) times (a Poisson count whose rate
    varies like a Gamma; a Dirichlet-weighted pool gives exactly this shape). The unseen
    patterns are N - D; N is chosen by the full likelihood, the interval by its profile
    (likelihood-ratio test, chi-square with one degree of freedom).
    """

    mle: float
    low: float
    high: float
    shape: float  # k: large = near-equal weights, small = very unequal
    mean: float  # mu: expected draws per pattern
    p_unseen: float  # P(X = 0) at the MLE
    n_samples: int
    n_distinct: int
    confidence: float

    def contains(self, pool: int) -> bool:
        """Is `pool` inside the interval?"""
        return self.low <= pool <= self.high

    def __str__(self) -> str:
        """One line for notebooks."""
        return (
            f"Gamma-Poisson pool {_num(self.mle)} ({self.confidence:.0%} interval "
            f"{_num(self.low)}-{_num(self.high)}; shape k={self.shape:.3g})"
        )


def _nb_profile(values: np.ndarray, mult: np.ndarray, n_pool: int, max_shape: float):
    """Max over the shape k of the log-likelihood with N patterns (mean fixed at n/N, its MLE)."""
    n_unseen = n_pool - int(mult.sum())
    mu = float(values @ mult) / n_pool

    def negll(log_k: float) -> float:
        k = math.exp(log_k)
        p = k / (k + mu)
        return -float(mult @ stats.nbinom.logpmf(values, k, p) + n_unseen * k * math.log(p))

    res = optimize.minimize_scalar(
        negll,
        bounds=(math.log(1e-3), math.log(max_shape)),
        method="bounded",
        options={"xatol": 1e-7},
    )
    return -float(res.fun), math.exp(res.x), mu


def mixture_pool_size(
    counts: Counter | Sequence[int], confidence: float = 0.95, max_shape: float = 1e4
) -> MixtureEstimate:
    """Pool size allowing unequal pattern frequencies (profile likelihood over N)."""
    c = _count_values(counts)
    n, d = int(c.sum()), len(c)
    values, mult = np.unique(c, return_counts=True)
    cutoff = stats.chi2.ppf(confidence, 1) / 2
    cache: dict[int, tuple[float, float, float]] = {}

    def profile(N: int) -> float:
        if N not in cache:
            ll, k, mu = _nb_profile(values, mult, N, max_shape)
            cache[N] = (ll + special.gammaln(N + 1) - special.gammaln(N - d + 1), k, mu)
        return cache[N][0]

    # the profile is unimodal in N: bracket by doubling, then bisect (a few dozen fits)
    limit = max(100 * d, d + 10_000)

    def falling(N: int) -> bool:
        return profile(N + 1) < profile(N)

    best = _first_true(falling, d, _bracket(falling, d, limit))
    if best >= limit:
        return MixtureEstimate(
            math.inf, float(d), math.inf, math.nan, math.nan, math.nan, n, d, confidence
        )
    top = profile(best)
    low = _first_true(lambda N: top - profile(N) <= cutoff, d, best)

    def outside(N: int) -> bool:
        return top - profile(N) > cutoff

    end = _bracket(outside, best, limit)
    high = math.inf if not outside(end) else _first_true(outside, best, end) - 1
    _, k, mu = cache[best]
    return MixtureEstimate(
        float(best),
        float(low),
        float(high),
        k,
        float(mu),
        float((k / (k + mu)) ** k),
        n,
        d,
        confidence,
    )
