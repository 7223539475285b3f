"""The occupancy model: n draws from a pool of N equally likely patterns, D distinct seen.

`P(D = k) = C(N, k) k! S(n, k) / N^n` with `S` the Stirling numbers of the second kind. We
compute it draw by draw (with k seen, the next draw is new with probability (N - k)/N: every
term a sum of positive numbers, nothing cancels); for many draws over a small pool the same
one-step matrix is raised to the n-th power by squaring. Requests too big for either raise
`TooLargeError` at once. The exact integer formula is kept as the slow reference.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .. import checks
from ..errors import InvalidPuzzleError, TooLargeError

STEP_BUDGET = 4_000_000  # draws x states of the draw-by-draw recurrence (~0.1 s)
MAX_STEPS = 50_000  # draws done one at a time (a Python loop each)
MAX_MATRIX = 100  # largest state count raised to the n-th power by squaring
MAX_SIMULATED = 50_000_000  # draws held in memory by one simulation


def check_pool(pool: object, name: str = "pool") -> int:
    """A pool size: a positive whole number of patterns."""
    return checks.integer(pool, name, minimum=1)


def check_samples(n_samples: object, name: str = "n_samples") -> int:
    """A number of samples (draws): a non-negative whole number."""
    return checks.integer(n_samples, name, minimum=0)


def probabilities(weights: Sequence[float]) -> np.ndarray:
    """Weights as probabilities (non-negative, finite, normalised)."""
    try:
        w = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):
        raise InvalidPuzzleError("weights must be a list of numbers") from None
    if w.ndim != 1 or len(w) == 0 or not np.isfinite(w).all() or np.any(w < 0) or w.sum() <= 0:
        raise InvalidPuzzleError("weights must be a non-empty list of non-negative finite numbers")
    return w / w.sum()


def _samples_array(n_samples) -> np.ndarray:
    """Sample counts (a number or an array) as a float array; negatives and NaN refused."""
    if np.ndim(n_samples) == 0:
        return np.asarray(float(check_samples(n_samples)))
    try:
        n = np.asarray(n_samples)
    except (TypeError, ValueError):
        raise InvalidPuzzleError("n_samples must be whole numbers") from None
    if n.dtype.kind not in "iu":
        raise InvalidPuzzleError(f"n_samples must be whole numbers, not {n.dtype} values")
    if np.any(n < 0):
        raise InvalidPuzzleError("n_samples must be >= 0")
    return n.astype(float)


def expected_distinct(
    pool: int | None, n_samples: int | np.ndarray, weights: Sequence[float] | None = None
) -> float | np.ndarray:
    """E[D]: expected distinct patterns in n draws, N(1 - (1 - 1/N)^n), or sum 1 - (1 - p)^n."""
    if weights is None and type(pool) is int and type(n_samples) is int:  # the common scalar case
        if pool > 1 and n_samples >= 0:
            return pool * -math.expm1(n_samples * math.log1p(-1.0 / pool))
    n = _samples_array(n_samples)
    if weights is not None:
        p = probabilities(weights)
        with np.errstate(divide="ignore", invalid="ignore"):  # p = 1: log1p(-1) = -inf
            log_unseen = np.multiply.outer(n, np.log1p(-p))
        log_unseen = np.where(np.multiply.outer(n, np.ones_like(p)) == 0, 0.0, log_unseen)
        out = np.sum(-np.expm1(log_unseen), axis=-1)  # no draws: nothing seen, even with p = 1
    else:
        pool = check_pool(pool)
        out = pool * -np.expm1(n * math.log1p(-1.0 / pool)) if pool > 1 else np.minimum(n, 1.0)
    return float(out) if np.ndim(out) == 0 else out


def variance_distinct(pool: int, n_samples: int) -> float:
    """Var[D] for `n_samples` draws from `pool` equally likely patterns (closed form)."""
    N, n = check_pool(pool), check_samples(n_samples)
    a = math.exp(n * math.log1p(-1 / N)) if N > 1 else float(n == 0)
    b = math.exp(n * math.log1p(-2 / N)) if N > 2 else float(n == 0 or N == 1)
    return max(0.0, N * (N - 1) * b + N * a - N * N * a * a)


def distinct_distribution(pool: int, n_samples: int) -> np.ndarray:
    """P(D = k) for k = 0..min(N, n): the exact occupancy distribution (float, stable).

    Raises `TooLargeError` (at once) when neither the draw-by-draw recurrence nor matrix
    squaring is cheap: more than `STEP_BUDGET` draws x states and more than `MAX_MATRIX` states.
    """
    N, n = check_pool(pool), check_samples(n_samples)
    top = min(N, n)
    if n <= MAX_STEPS and n * (top + 1) <= STEP_BUDGET:
        return _by_draws(N, n, top)
    if top < MAX_MATRIX:
        return _by_squaring(N, n, top)
    raise TooLargeError(
        f"the exact distribution of distinct patterns for {n} draws from a pool of {N} is too "
        f"costly (needs min(N, n) < {MAX_MATRIX} or n x min(N, n) <= {STEP_BUDGET:,})"
    )


def _by_draws(N: int, n: int, top: int) -> np.ndarray:
    """The draw-by-draw recurrence over states 0..top."""
    k = np.arange(top + 1, dtype=float)
    prob = np.zeros(top + 1)
    prob[0] = 1.0
    stay, move = k / N, (N - k) / N
    for _ in range(n):
        new = prob * stay
        new[1:] += prob[:-1] * move[:-1]
        prob = new
    return prob


def _by_squaring(N: int, n: int, top: int) -> np.ndarray:
    """Row 0 of the one-draw matrix to the n-th power (states 0..top, N <= top or n small)."""
    size = top + 1
    k = np.arange(size, dtype=float)
    step = np.diag(k / N)
    step[np.arange(size - 1), np.arange(1, size)] = (N - k[:-1]) / N
    result = np.zeros(size)
    result[0] = 1.0
    power = step
    while n:
        if n & 1:
            result = result @ power
        n >>= 1
        if n:
            power = power @ power
    return result


def prob_at_most(pool: int, n_samples: int, n_distinct: int) -> float:
    """P(D <= d) for `n_samples` draws from `pool` equally likely patterns."""
    dist = distinct_distribution(pool, n_samples)
    return float(min(1.0, dist[: n_distinct + 1].sum()))


def prob_at_least(pool: int, n_samples: int, n_distinct: int) -> float:
    """P(D >= d) for `n_samples` draws from `pool` equally likely patterns."""
    dist = distinct_distribution(pool, n_samples)
    return float(min(1.0, dist[n_distinct:].sum()))


def samples_for_distinct(pool: int, n_distinct: float | np.ndarray) -> float | np.ndarray:
    """Invert E[D]: the n at which N equally likely patterns show `n_distinct` on average."""
    pool = check_pool(pool)
    d = np.asarray(n_distinct)
    if d.dtype.kind not in "iuf":
        raise InvalidPuzzleError(f"n_distinct must be numbers, not {n_distinct!r:.60}")
    d = d.astype(float)
    if not np.all(np.isfinite(d)) or np.any(d < 0) or np.any(d >= pool):
        raise InvalidPuzzleError(f"an average distinct count must lie in 0..{pool} (exclusive)")
    out = np.log1p(-d / pool) / math.log1p(-1.0 / pool) if pool > 1 else np.zeros_like(d)
    return float(out) if np.ndim(out) == 0 else out


def stirling2(n: int, k: int) -> int:
    """Stirling number of the second kind S(n, k), exact (ways to split n items into k blocks)."""
    n, k = checks.integer(n, "n", minimum=0), checks.integer(k, "k", minimum=0)
    if n * min(n, k) > 4_000_000:
        raise TooLargeError(f"S({n}, {k}) is too costly to compute exactly here")
    return _stirling2(n, k)


@lru_cache(maxsize=4096)
def _stirling2(n: int, k: int) -> int:
    """Worker of `stirling2` (checked arguments)."""
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
    pool, n_samples = check_pool(pool), check_samples(n_samples)
    if n_samples > 300 or n_samples * math.log10(pool) > 20_000:
        raise TooLargeError(f"the exact fractions for {n_samples} draws from {pool} are too big")
    total = pool**n_samples
    return [
        Fraction(math.perm(pool, k) * stirling2(n_samples, k), total)
        for k in range(min(pool, n_samples) + 1)
    ]


def distinct_distribution_enumerated(pool: int, n_samples: int) -> np.ndarray:
    """Slowest reference: count distinct values over all N^n draw sequences (tiny cases only)."""
    pool, n_samples = check_pool(pool), check_samples(n_samples)
    if pool**n_samples > 2_000_000:
        raise TooLargeError(f"{pool}^{n_samples} sequences is too many to enumerate")
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
    n_samples = check_samples(n_samples)
    trials = checks.integer(trials, "trials", minimum=1)
    if trials * n_samples > MAX_SIMULATED:
        raise TooLargeError(
            f"{trials} trials x {n_samples} draws exceeds {MAX_SIMULATED:,} draws in memory"
        )
    rng = checks.rng(seed, "seed")
    if weights is None:
        draws = rng.integers(check_pool(pool), size=(trials, n_samples))
    else:
        p = probabilities(weights)
        draws = rng.choice(len(p), size=(trials, n_samples), p=p)
    return _distinct_per_row(draws)


def simulate_curve(
    pools: Iterable[int], n_samples: int, trials: int = 100, seed: int = 0
) -> np.ndarray:
    """The write-up's chart: mean distinct seen over `trials` runs for each pool size."""
    rng = checks.rng(seed, "seed")
    return np.array([simulate_distinct(N, n_samples, trials, rng).mean() for N in pools])


def _distinct_per_row(draws: np.ndarray) -> np.ndarray:
    """Number of distinct values in each row of an int array."""
    if draws.shape[1] == 0:
        return np.zeros(len(draws), dtype=np.int64)
    s = np.sort(draws, axis=1)
    return 1 + np.count_nonzero(np.diff(s, axis=1), axis=1)


# ----------------------------------------------------------------------------- sample size


def unseen_probability(pool: int, n_samples: int | np.ndarray) -> float | np.ndarray:
    """The write-up's risk: one extra pattern among N + 1 never drawn in n samples, (N/(N+1))^n."""
    pool = check_pool(pool)
    out = np.exp(-_samples_array(n_samples) * math.log1p(1.0 / pool))
    return float(out) if np.ndim(out) == 0 else out


def samples_needed(pool: int, reliability: float = 0.001) -> int:
    """Smallest n with (N/(N+1))^n <= reliability (the write-up's 487 for N=70, 557 for N=80).

    Parameters
    ----------
    pool : int
        N, the number of patterns expected (any size: the answer is computed to 60 digits).
    reliability : float
        The accepted risk, strictly between 0 and 1.

    Returns
    -------
    int
        ceil(ln(reliability) / ln(N / (N + 1))).

    Raises
    ------
    PuzzleError
        A pool that is not a positive int, or a reliability outside (0, 1).
    """
    pool = check_pool(pool)
    reliability = checks.fraction(reliability, "reliability")
    target, step = -math.log(reliability), math.log1p(1.0 / pool)
    n = math.ceil(target / step)
    if n < 2**50 and min(n * step - target, target - (n - 1) * step) > 1e-9 * target:
        return n  # clear of the boundary: float arithmetic decides it
    with localcontext() as ctx:
        ctx.prec = 60
        ratio = Decimal(reliability).ln() / (Decimal(pool) / Decimal(pool + 1)).ln()
        return int(ratio.to_integral_value(rounding="ROUND_CEILING"))


def prob_all_seen(pool: int, n_samples: int) -> float:
    """P(D = N): every one of `pool` equally likely patterns seen in `n_samples` draws.

    Exact recurrence when cheap, else the inclusion-exclusion series
    sum_j (-1)^j C(N, j) (1 - j/N)^n, summed until its terms vanish; `TooLargeError` when that
    series would cancel away the answer (P(D = N) below about 1e-6 for a large pool).
    """
    N, n = check_pool(pool), check_samples(n_samples)
    if n < N:
        return 0.0
    if n <= MAX_STEPS and n * (N + 1) <= STEP_BUDGET or N < MAX_MATRIX:
        return float(min(1.0, distinct_distribution(N, n)[N]))
    return _all_seen_series(N, n)


def _first_true(pred: Callable[[int], bool], lo: int, hi: int) -> int:
    """Smallest integer in [lo, hi] where a monotone predicate (False..True) holds; pred(hi)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _all_seen_series(N: int, n: int) -> float:
    """Inclusion-exclusion for P(D = N) with its cancellation checked."""
    total, biggest, log_term = 0.0, 1.0, 0.0
    for j in range(1, N):  # the j = N term is 0
        log_term += math.log((N - j + 1) / j) + n * (math.log1p(-j / N) - math.log1p(-(j - 1) / N))
        term = math.exp(log_term)
        biggest = max(biggest, term)
        total += -term if j % 2 else term
        if biggest > 1e10 or (term < 1e-18 * max(abs(1.0 + total), 1e-300) and j > 2):
            break
    value = 1.0 + total
    if biggest > 1e10 * max(value, 0.0):
        raise TooLargeError(
            f"P(all {N} patterns seen in {n} draws) is too small to compute here; "
            "ask about more draws"
        )
    return float(min(1.0, max(0.0, value)))


def samples_to_see_all(pool: int, confidence: float = 0.999) -> int:
    """Smallest n with P(every pattern seen) >= confidence (the coupon-collector question).

    Parameters
    ----------
    pool : int
        N, the number of equally likely patterns.
    confidence : float
        Wanted probability of having seen all of them, strictly between 0 and 1.

    Returns
    -------
    int
        The smallest such n (about N (ln N - ln(-ln confidence)) for a large pool).

    Raises
    ------
    PuzzleError
        Bad arguments; `TooLargeError` when the probabilities cannot be computed accurately.
    """
    N = check_pool(pool)
    confidence = checks.fraction(confidence, "confidence")
    if confidence < 1e-4 and N >= MAX_MATRIX:
        raise TooLargeError(f"a confidence of {confidence:g} is too small for a pool of {N}")

    def enough(n: int) -> bool:  # a TooLargeError means P(all seen) < 1e-5 < confidence
        try:
            return prob_all_seen(N, n) >= confidence
        except TooLargeError:
            return False

    guess = N * max(1.0, math.log(N) - math.log(-math.log(confidence)))
    lo, hi = N, max(N + 1, int(guess))
    while not enough(hi):
        lo, hi = hi, 2 * hi
    return _first_true(enough, lo, hi)
