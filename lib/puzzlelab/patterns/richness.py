"""How many patterns are in the pool? Four estimators of richness from the samples.

* equal weights (the write-up's model): maximum likelihood with an exact interval, and the
  moment estimate (where E[D] crosses the observed count);
* Good-Turing: how much probability the unseen patterns hold (sample coverage);
* Chao1 (bias-corrected): unseen patterns from the singletons and doubletons;
* Gamma-Poisson (negative binomial): unequal weights, profile likelihood over N.

Every estimate has the same names: `estimate` (the point estimate), `low`, `high`,
`confidence`, `contains(pool)`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import optimize, special, stats

from .. import checks
from ..errors import InvalidPuzzleError, TooLargeError
from .occupancy import (
    MAX_SIMULATED,
    _first_true,
    check_pool,
    check_samples,
    distinct_distribution,
    prob_at_least,
    prob_at_most,
    probabilities,
)

MAX_COUNT = 10**12  # one pattern's count; sums stay far from int64 overflow
MAX_POOL = 10**7  # largest interval end searched by the exact equal-weights interval
MAX_SAMPLES = 10**15  # openings in one sample (the estimators work in floats)


def _num(x: float) -> str:
    """An integer-valued float as an int, infinity as 'inf'."""
    return "inf" if math.isinf(x) else f"{x:.0f}"


@dataclass(frozen=True, kw_only=True)
class Interval:
    """A point estimate of the pool size with its confidence interval."""

    estimate: float
    low: float
    high: float
    confidence: float

    def contains(self, pool: int) -> bool:
        """Is `pool` inside the interval?"""
        return self.low <= pool <= self.high


@dataclass(frozen=True, kw_only=True)
class PoolEstimate(Interval):
    """Pool size from (n samples, d distinct) under the equal-weights occupancy model.

    `estimate` is the maximum-likelihood pool size (inf when every sample was new); `low` and
    `high` the exact interval; `moment` the N with E[D] = d (the write-up's chart crossing).
    """

    n_samples: int
    n_distinct: int
    moment: float

    def __str__(self) -> str:
        """One line for notebooks: MLE with its interval."""
        return (
            f"{self.n_distinct}/{self.n_samples} -> pool {_num(self.estimate)} "
            f"({self.confidence:.0%} interval {_num(self.low)}-{_num(self.high)}), "
            f"moment estimate {self.moment:.1f}"
        )


def log_likelihood(pool: int | np.ndarray, n_samples: int, n_distinct: int) -> np.ndarray:
    """log P(D = d | N) up to a term free of N: log N!/(N-d)! - n log N (-inf for N < d)."""
    n, d = _check_counts(n_samples, n_distinct)
    try:
        N = np.asarray(pool, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise InvalidPuzzleError(f"pool sizes must be numbers, not {pool!r:.60}") from None
    if not np.all(np.isfinite(N)) or np.any(N < 1):
        raise InvalidPuzzleError("pool sizes must be finite numbers >= 1")
    with np.errstate(divide="ignore", invalid="ignore"):
        out = special.gammaln(N + 1) - special.gammaln(np.maximum(N - d, 0) + 1) - n * np.log(N)
    return np.where(d <= N, out, -np.inf)


def _check_counts(n_samples: object, n_distinct: object) -> tuple[int, int]:
    """Whole numbers with 1 <= d <= n."""
    n = checks.integer(n_samples, "n_samples", minimum=1, maximum=MAX_SAMPLES)
    d = checks.integer(n_distinct, "n_distinct", minimum=1)
    if d > n:
        raise InvalidPuzzleError(
            f"{d} distinct patterns from {n} samples: need 1 <= distinct <= samples"
        )
    return n, d


def moment_estimate(n_samples: int, n_distinct: int) -> float:
    """The real N with N(1 - (1 - 1/N)^n) = d (inf when d = n, 1 when d = 1)."""
    n, d = _check_counts(n_samples, n_distinct)
    if d == n:
        return math.inf
    if d == 1:
        return 1.0

    def gap(log_n: float) -> float:
        N = math.exp(log_n)
        return N * -math.expm1(n * math.log1p(-1.0 / N)) - d

    lo, hi = math.log(d), math.log(d) + 1
    while gap(hi) < 0:
        lo, hi = hi, hi * 2
    if gap(lo) >= 0:  # E[D] reaches d already at N = d (to float precision)
        return float(d)
    return max(float(d), math.exp(optimize.brentq(gap, lo, hi, xtol=1e-12)))  # N >= E[D]


def _gains(N: int, n: int, d: int) -> bool:
    """L(N+1) > L(N): (N+1)/(N+1-d) * (N/(N+1))^n > 1 (decreasing in N)."""
    return -math.log1p(-d / (N + 1)) - n * math.log1p(1 / N) > 0


def mle_pool(n_samples: int, n_distinct: int) -> float:
    """The integer N >= d maximising P(D = d | N) (inf when every sample was new).

    The likelihood ratio L(N+1)/L(N) falls with N, so the MLE is the first N where it is at
    most 1: found by doubling and bisection (about 2 log2(MLE) steps, whatever the counts).
    """
    n, d = _check_counts(n_samples, n_distinct)
    if d == n:
        return math.inf
    hi = d
    while _gains(hi, n, d):
        hi *= 2
    return float(_first_true(lambda N: not _gains(N, n, d), d, hi))


def estimate_pool_size(n_samples: int, n_distinct: int, confidence: float = 0.95) -> PoolEstimate:
    """MLE pool size with an exact (conservative) interval, and the moment estimate.

    Parameters
    ----------
    n_samples : int
        Openings observed, n >= 1.
    n_distinct : int
        Distinct patterns among them, 1 <= d <= n.
    confidence : float
        Coverage of the interval, strictly between 0 and 1.

    Returns
    -------
    PoolEstimate
        The interval holds every N >= d for which neither one-sided test rejects at
        (1 - confidence)/2: P_N(D <= d) > alpha/2 and P_N(D >= d) > alpha/2 (like
        Clopper-Pearson), so its coverage is at least `confidence` whatever the true N.

    Raises
    ------
    PuzzleError
        Counts that are not whole numbers with 1 <= d <= n, a confidence outside (0, 1);
        `TooLargeError` (at once) when the exact occupancy distribution is too costly.
    """
    n, d = _check_counts(n_samples, n_distinct)
    confidence = checks.fraction(confidence, "confidence")
    tail = (1 - confidence) / 2

    def upper_ok(N: int) -> bool:  # P_N(D >= d) > tail; grows with N
        return prob_at_least(N, n, d) > tail

    def lower_ok(N: int) -> bool:  # P_N(D <= d) > tail; shrinks with N
        return prob_at_most(N, n, d) > tail

    low = d
    if not upper_ok(d):
        hi = _grow(upper_ok, d + 1, f"{d}/{n}: the lower bound")
        low = _first_true(upper_ok, d, hi)
    if d == n:
        high = math.inf
    else:
        hi = _grow(lambda N: not lower_ok(N), max(low, d) + 1, f"{d}/{n}: the upper bound")
        high = _first_true(lambda N: not lower_ok(N), max(low, d), hi) - 1
    return PoolEstimate(
        n_samples=n,
        n_distinct=d,
        estimate=mle_pool(n, d),
        low=float(low),
        high=float(high),
        moment=moment_estimate(n, d),
        confidence=confidence,
    )


def _grow(pred: Callable[[int], bool], start: int, what: str) -> int:
    """Double `start` until a monotone predicate holds; TooLargeError beyond MAX_POOL."""
    hi = start
    while not pred(hi):
        hi *= 2
        if hi > MAX_POOL:
            raise TooLargeError(f"{what} exceeds {MAX_POOL:,} patterns")
    return hi


def _bracket(pred: Callable[[int], bool], start: int, limit: int) -> int:
    """An upper end where a monotone predicate holds: start + 1, 2, 4, ... (capped at limit)."""
    step = 1
    while start + step < limit and not pred(start + step):
        step *= 2
    return min(start + step, limit)


def interval_coverage(pool: int, n_samples: int, confidence: float = 0.95) -> float:
    """Exact probability that `estimate_pool_size`'s interval contains the true `pool`."""
    pool, n_samples = check_pool(pool), check_samples(n_samples)
    confidence = checks.fraction(confidence, "confidence")
    dist = distinct_distribution(pool, n_samples)
    return float(
        sum(
            p
            for d, p in enumerate(dist)
            if d >= 1 and p > 0 and estimate_pool_size(n_samples, d, confidence).contains(pool)
        )
    )


def is_pool_estimate(est: PoolEstimate) -> bool:
    """Validator: low <= estimate <= high, low >= d, and the moment estimate is >= d."""
    if not isinstance(est, PoolEstimate):
        raise InvalidPuzzleError(f"expected a PoolEstimate (estimate_pool_size), not {est!r:.60}")
    return est.n_distinct <= est.low <= est.estimate <= est.high and est.moment >= est.n_distinct


# ----------------------------------------------------------------------------- Good-Turing


def count_values(counts: Counter | Sequence[int]) -> np.ndarray:
    """Positive per-pattern counts as an int array; negative, fractional or NaN counts refused."""
    if isinstance(counts, (str, bytes)):
        raise InvalidPuzzleError("counts must be a list of whole numbers, not text")
    values = list(counts.values()) if isinstance(counts, dict) else counts
    if isinstance(values, np.ndarray) and values.ndim != 1:
        raise InvalidPuzzleError(f"counts must be one-dimensional, not shape {values.shape}")
    checked = checks.counts(values, "counts")
    if any(v > MAX_COUNT for v in checked):
        raise TooLargeError(f"a count above {MAX_COUNT:,} is more than this module handles")
    c = np.asarray(checked, dtype=np.int64)
    c = c[c > 0]
    if len(c) == 0:
        raise InvalidPuzzleError("no samples: need at least one pattern count above zero")
    return c


@dataclass(frozen=True, kw_only=True)
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
    c = count_values(counts)
    n, f1, f2 = int(c.sum()), int(np.sum(c == 1)), int(np.sum(c == 2))
    return Coverage(
        n_samples=n,
        n_distinct=len(c),
        singletons=f1,
        doubletons=f2,
        unseen_mass=f1 / n,
        coverage=1 - f1 / n,
    )


# ----------------------------------------------------------------------------- Chao1


@dataclass(frozen=True, kw_only=True)
class Chao1(Interval):
    """Bias-corrected Chao1 lower-bound estimate of the pool size with a log-normal interval."""

    sd: float
    n_samples: int
    n_distinct: int
    singletons: int
    doubletons: int

    def __str__(self) -> str:
        """One line for notebooks."""
        return (
            f"Chao1 {self.estimate:.1f} ({self.confidence:.0%} interval "
            f"{self.low:.1f}-{self.high:.1f}; f1={self.singletons}, f2={self.doubletons})"
        )


def chao1(
    counts: Counter | Sequence[int], confidence: float = 0.95, *, small_sample: bool = True
) -> Chao1:
    """Bias-corrected Chao1 (Chao 1987/2005) with the EstimateS variance and log-normal interval.

    Parameters
    ----------
    counts : Counter or sequence of int
        How often each pattern was seen (zeros ignored; negative or fractional refused).
    confidence : float
        Coverage of the interval, strictly between 0 and 1.
    small_sample : bool
        Multiply the unseen term and the variance's terms by (n-1)/n, as Chao et al. (2005)
        and EstimateS 9 do (the default). False gives the classic bias-corrected form of
        Chao (1987) and EstimateS 8, which is scikit-bio's `chao1` / `chao1_ci`.

    Returns
    -------
    Chao1
        S = D + r f1(f1-1) / (2(f2+1)) with r = (n-1)/n (or 1); with two or more singletons
        the interval is S_obs + T/K .. S_obs + T*K (EstimateS eq. 13; variance eq. 6, or
        eq. 7 when there are no doubletons), so the lower end stays above the observed count.
        With at most one singleton the unseen term is 0 and the interval uses EstimateS's
        equation for the no-singleton case, summed over the actual counts, with the lower end
        at the observed count (scikit-bio gives D..D for one singleton, and an approximation
        with every count equal to n/D for none).

    Raises
    ------
    PuzzleError
        Bad counts or confidence.
    """
    c = count_values(counts)
    confidence = checks.fraction(confidence, "confidence")
    if not isinstance(small_sample, (bool, np.bool_)):
        raise InvalidPuzzleError(f"small_sample must be True or False, not {small_sample!r:.40}")
    n, d = int(c.sum()), len(c)
    f1, f2 = int(np.sum(c == 1)), int(np.sum(c == 2))
    z = stats.norm.ppf(0.5 + confidence / 2)
    r = (n - 1) / n if small_sample else 1.0
    t = r * f1 * (f1 - 1) / (2 * (f2 + 1))
    if t > 0:
        if f2 > 0:  # EstimateS eq. 6
            var = (
                t
                + r * r * f1 * (2 * f1 - 1) ** 2 / (4 * (f2 + 1) ** 2)
                + r * r * f1 * f1 * f2 * (f1 - 1) ** 2 / (4 * (f2 + 1) ** 4)
            )
        else:  # EstimateS eq. 7: no doubletons
            var = r * f1 * (f1 - 1) / 2 + r * r * (
                f1 * (2 * f1 - 1) ** 2 / 4 - f1**4 / (4 * (d + t))
            )
        var = max(var, 0.0)
        k = math.exp(z * math.sqrt(math.log(1 + var / t**2)))
        low, high = d + t / k, d + t * k
    else:
        kinds = np.bincount(c) if c.max() <= 10_000 else None
        i = np.flatnonzero(kinds) if kinds is not None else np.unique(c)
        f = kinds[i] if kinds is not None else np.unique(c, return_counts=True)[1]
        var = float(
            np.sum(f * (np.exp(-i) - np.exp(-2.0 * i))) - np.sum(i * np.exp(-i) * f) ** 2 / n
        )
        var = max(var, 0.0)
        p = float(np.sum(f * np.exp(-i)) / d)
        low = d  # EstimateS's max(S_obs, ...) can exceed S_obs, the estimate here: keep it in
        high = d / (1 - p) + z * math.sqrt(var) / (1 - p)
    return Chao1(
        estimate=d + t,
        low=float(low),
        high=float(high),
        confidence=confidence,
        sd=math.sqrt(var),
        n_samples=n,
        n_distinct=d,
        singletons=f1,
        doubletons=f2,
    )


# ----------------------------------------------------------------------------- Gamma-Poisson


@dataclass(frozen=True, kw_only=True)
class MixtureEstimate(Interval):
    """Pool size when patterns have unequal frequencies: Gamma-Poisson (negative binomial) model.

    Each of N patterns is drawn X ~ NegBin(mean mu, shape k) times (a Poisson count whose rate
    varies like a Gamma; a Dirichlet-weighted pool gives exactly this shape). The unseen
    patterns are N - D; N is chosen by the full likelihood, the interval by its profile
    (likelihood-ratio test, chi-square with one degree of freedom).
    """

    shape: float  # k: large = near-equal weights, small = very unequal
    mean: float  # mu: expected draws per pattern
    p_unseen: float  # P(X = 0) at the MLE
    n_samples: int
    n_distinct: int

    def __str__(self) -> str:
        """One line for notebooks."""
        return (
            f"Gamma-Poisson pool {_num(self.estimate)} ({self.confidence:.0%} interval "
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
    """Pool size allowing unequal pattern frequencies (profile likelihood over N).

    Parameters
    ----------
    counts : Counter or sequence of int
        How often each pattern was seen (zeros ignored; negative or fractional refused).
    confidence : float
        Coverage of the profile-likelihood interval, strictly between 0 and 1.
    max_shape : float
        Largest Gamma shape k fitted (k -> inf is the equal-weights model).

    Returns
    -------
    MixtureEstimate
        estimate, low, high (inf when the likelihood keeps rising), shape k and mean mu.

    Raises
    ------
    PuzzleError
        Bad counts, confidence or max_shape.
    """
    c = count_values(counts)
    confidence = checks.fraction(confidence, "confidence")
    max_shape = checks.number(max_shape, "max_shape", minimum=0.01, maximum=1e12)
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
        nan = math.nan
        return MixtureEstimate(
            estimate=math.inf,
            low=float(d),
            high=math.inf,
            confidence=confidence,
            shape=nan,
            mean=nan,
            p_unseen=nan,
            n_samples=n,
            n_distinct=d,
        )
    top = profile(best)
    low = _first_true(lambda N: top - profile(N) <= cutoff, d, best)

    def outside(N: int) -> bool:
        return top - profile(N) > cutoff

    end = _bracket(outside, best, limit)
    high = math.inf if not outside(end) else _first_true(outside, best, end) - 1
    _, k, mu = cache[best]
    return MixtureEstimate(
        estimate=float(best),
        low=float(low),
        high=float(high),
        confidence=confidence,
        shape=k,
        mean=float(mu),
        p_unseen=float((k / (k + mu)) ** k),
        n_samples=n,
        n_distinct=d,
    )


# ----------------------------------------------------------------------------- coverage check


@dataclass(frozen=True, kw_only=True)
class CoverageCheck:
    """How often each estimator's interval caught the true pool over simulated samples."""

    pool: int
    n_samples: int
    trials: int
    equal_weights: float  # fraction of trials whose exact equal-weights interval holds the pool
    chao1: float  # fraction whose Chao1 interval holds the pool
    mixture: float  # fraction whose Gamma-Poisson interval holds the pool
    mean_distinct: float
    mean_estimate: float  # mean equal-weights MLE
    mean_chao1: float


def check_coverage(
    weights: Sequence[float],
    n_samples: int,
    trials: int = 200,
    confidence: float = 0.95,
    rng: int | np.random.Generator | None = 0,
) -> CoverageCheck:
    """Draw `trials` seeded samples from a known pool and score the three interval estimators."""
    p = probabilities(weights)
    n_samples = checks.integer(n_samples, "n_samples", minimum=1)
    trials = checks.integer(trials, "trials", minimum=1)
    confidence = checks.fraction(confidence, "confidence")
    if trials * n_samples > MAX_SIMULATED:
        raise TooLargeError(f"{trials} trials x {n_samples} draws is too many to simulate")
    draws = checks.rng(rng).choice(len(p), size=(trials, n_samples), p=p)
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
        d_sum, mle_sum, chao_sum = d_sum + d, mle_sum + est.estimate, chao_sum + ch.estimate
    return CoverageCheck(
        pool=len(p),
        n_samples=n_samples,
        trials=trials,
        equal_weights=hits_eq / trials,
        chao1=hits_chao / trials,
        mixture=hits_mix / trials,
        mean_distinct=d_sum / trials,
        mean_estimate=mle_sum / trials,
        mean_chao1=chao_sum / trials,
    )


@lru_cache(maxsize=4096)
def _cached_estimate(n_samples: int, n_distinct: int, confidence: float) -> PoolEstimate:
    """estimate_pool_size, remembered (it depends on the two counts only)."""
    return estimate_pool_size(n_samples, n_distinct, confidence)
