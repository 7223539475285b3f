"""The occupancy model: n draws from a pool of N equally likely patterns, D distinct seen.

`P(D = k) = C(N, k) k! S(n, k) / N^n` with `S` the Stirling numbers of the second kind. We
compute it draw by draw (with k seen, the next draw is new with probability (N - k)/N: every
term a sum of positive numbers, nothing cancels); for many draws over a small pool the same
one-step matrix is raised to the n-th power by squaring. Requests too big for either raise
`TooLargeError` at once. The exact integer formula is kept as the slow reference.

Pools of any size are answered (a pool of 10**400 included): probabilities go through the
exponent x with (1 - 1/N)^n = e^-x, computed from the two integers so that nothing is
converted to a float before it fits; the variance and the sample sizes, whose answers need more
digits than a float holds, are computed with `decimal` at a precision that grows with the pool.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal, getcontext, localcontext
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .. import checks
from ..errors import InvalidPuzzleError, TooLargeError

STEP_BUDGET = 4_000_000  # draws x states of the draw-by-draw recurrence (~0.1 s)
MAX_STEPS = 50_000  # draws done one at a time (a Python loop each)
MAX_MATRIX = 100  # largest state count raised to the n-th power by squaring
MAX_SIMULATED = 50_000_000  # draws held in memory by one simulation
MAX_DIGITS = 2_000  # largest pool (in decimal digits) for the variance and the sample sizes
EXACT_FLOAT = 2**53  # below this a pool is an exact float; above it -log(1 - 1/N) = 1/N in floats


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
    except (TypeError, ValueError, OverflowError):
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


def _digits(value: int) -> int:
    """Decimal digits of a positive int (without converting it to text)."""
    return int(value.bit_length() * 0.30103) + 1


def _sci(value: int) -> str:
    """A whole number for messages: as it is when short, else about 10^k."""
    return str(value) if value < 10**12 else f"about 10^{_digits(value) - 1}"


def _float(value: int) -> float:
    """An int as a float, inf when it is beyond the float range."""
    try:
        return float(value)
    except OverflowError:
        return math.inf


def _unseen_exponent(N: int, n: int) -> float:
    """x with (1 - 1/N)^n = e^-x for any sizes (inf when beyond a float): a pattern never drawn."""
    if n == 0:
        return 0.0
    if N == 1:
        return math.inf
    try:
        return n / N if N > EXACT_FLOAT else n * -math.log1p(-1.0 / N)
    except OverflowError:
        return math.inf


def _seen_share(x: float | np.ndarray) -> float | np.ndarray:
    """(1 - e^-x) / x, which is 1 at x = 0: the pool share seen per expected draw."""
    x = np.asarray(x, dtype=float)
    safe = np.where(x > 0, x, 1.0)
    out = np.where(x > 0, -np.expm1(-safe) / safe, 1.0)
    return float(out) if out.ndim == 0 else out


def expected_distinct(
    pool: int | None, n_samples: int | np.ndarray, weights: Sequence[float] | None = None
) -> float | np.ndarray:
    """E[D]: expected distinct patterns in n draws, N(1 - (1 - 1/N)^n), or sum 1 - (1 - p)^n.

    Any pool size works (10**400 included); `TooLargeError` only when the answer itself is
    beyond the float range.
    """
    if weights is not None:
        n = _samples_array(n_samples)
        p = probabilities(weights)
        with np.errstate(divide="ignore", invalid="ignore"):  # p = 1: log1p(-1) = -inf
            log_unseen = np.multiply.outer(n, np.log1p(-p))
        log_unseen = np.where(np.multiply.outer(n, np.ones_like(p)) == 0, 0.0, log_unseen)
        out = np.sum(-np.expm1(log_unseen), axis=-1)  # no draws: nothing seen, even with p = 1
        return float(out) if np.ndim(out) == 0 else out
    N = check_pool(pool)
    if N == 1:
        out = np.minimum(_samples_array(n_samples), 1.0)
        return float(out) if np.ndim(out) == 0 else out
    # E[D] = N (1 - e^-x) = (N c) n (1 - e^-x)/x with c = -log(1 - 1/N), N c = 1 for a big pool
    nc = N * -math.log1p(-1.0 / N) if N <= EXACT_FLOAT else 1.0
    if np.ndim(n_samples) == 0:
        n = check_samples(n_samples)
        x = _unseen_exponent(N, n)
        value = nc * _float(n) * _seen_share(x) if x < 1 else _float(N) * -math.expm1(-x)
        if not math.isfinite(value):
            raise TooLargeError(
                f"E[D] for {_sci(n)} draws from a pool of {_sci(N)} exceeds a float"
            )
        return value
    n = _samples_array(n_samples)
    step = -math.log1p(-1.0 / N) if N <= EXACT_FLOAT else 1 / N  # int / int: never overflows
    return nc * n * _seen_share(n * step)


def variance_distinct(pool: int, n_samples: int) -> float:
    """Var[D] for `n_samples` draws from `pool` equally likely patterns (closed form).

    Var = N a [(1 - a) - (N - 1) a (1 - e^-y)] with a = (1 - 1/N)^n and
    y = -n log(1 - 1/(N-1)^2): the two terms in the bracket nearly cancel when n << N (the
    variance is then about n(n-1)/2N), so they are computed with `decimal` at about
    digits(N) + 30 digits. Pools below 10**2000; `TooLargeError` beyond, or when the variance
    exceeds the float range.
    """
    N, n = check_pool(pool), check_samples(n_samples)
    if n < 2 or N == 1:
        return 0.0
    if N == 2:
        a = 0.5**n
        return max(0.0, 2 * a - 4 * a * a)
    digits = _digits(N)
    if digits > MAX_DIGITS:
        raise TooLargeError(f"the variance for a pool of {digits} digits is too costly here")
    with localcontext() as ctx:
        ctx.prec = digits + 30
        big = Decimal(N)
        log_a = Decimal(n) * _dlog1p(-1 / big)
        a = log_a.exp()
        seen = -_dexpm1(log_a)  # 1 - a
        y = -Decimal(n) * _dlog1p(-1 / (big - 1) ** 2)
        pair = -(big - 1) * _dexpm1(-y)  # (N - 1)(1 - e^-y)
        value = float(big * a * (seen - a * pair))
    if not math.isfinite(value):
        raise TooLargeError(f"Var[D] for {_sci(n)} draws from a pool of {_sci(N)} exceeds a float")
    return max(0.0, value)


SMALL = Decimal("1e-4")  # below this, log1p and expm1 are summed as series (no cancellation)


def _dlog1p(t: Decimal) -> Decimal:
    """log(1 + t) in the current decimal context, accurate for tiny t."""
    if abs(t) >= SMALL:
        return (1 + t).ln()
    eps = Decimal(10) ** -(getcontext().prec + 2)
    total, power, k = Decimal(0), t, 1
    while True:
        term = power / k
        total += term
        if abs(term) <= eps * abs(total):
            return total
        power, k = -power * t, k + 1


def _dexpm1(z: Decimal) -> Decimal:
    """exp(z) - 1 in the current decimal context, accurate for tiny z."""
    if abs(z) >= SMALL:
        return z.exp() - 1
    eps = Decimal(10) ** -(getcontext().prec + 2)
    total, term, k = Decimal(0), z, 1
    while True:
        total += term
        if abs(term) <= eps * abs(total):
            return total
        k += 1
        term = term * z / k


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


def _stay_move(N: int, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """With k patterns seen, the chances that the next draw is old (k/N) and new ((N-k)/N)."""
    big = _float(N)
    if math.isinf(big):  # a pool beyond the float range: every draw is new
        return np.zeros_like(k), np.ones_like(k)
    return k / big, (big - k) / big


def _by_draws(N: int, n: int, top: int) -> np.ndarray:
    """The draw-by-draw recurrence over states 0..top."""
    k = np.arange(top + 1, dtype=float)
    prob = np.zeros(top + 1)
    prob[0] = 1.0
    stay, move = _stay_move(N, k)
    for _ in range(n):
        new = prob * stay
        new[1:] += prob[:-1] * move[:-1]
        prob = new
    return prob


def _by_squaring(N: int, n: int, top: int) -> np.ndarray:
    """Row 0 of the one-draw matrix to the n-th power (states 0..top, N <= top or n small)."""
    size = top + 1
    k = np.arange(size, dtype=float)
    stay, move = _stay_move(N, k)
    step = np.diag(stay)
    step[np.arange(size - 1), np.arange(1, size)] = move[:-1]
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
    """P(D <= d) for `n_samples` draws from `pool` equally likely patterns.

    `n_distinct` is any whole number: below 0 the answer is 0 (D is never negative), at or
    above min(N, n) it is 1.
    """
    dist = distinct_distribution(pool, n_samples)
    d = checks.integer(n_distinct, "n_distinct")
    return 0.0 if d < 0 else float(min(1.0, dist[: d + 1].sum()))


def prob_at_least(pool: int, n_samples: int, n_distinct: int) -> float:
    """P(D >= d) for `n_samples` draws from `pool` equally likely patterns.

    `n_distinct` is any whole number: at or below 0 the answer is 1, above min(N, n) it is 0.
    """
    dist = distinct_distribution(pool, n_samples)
    d = checks.integer(n_distinct, "n_distinct")
    return 1.0 if d <= 0 else float(min(1.0, dist[d:].sum()))


def samples_for_distinct(pool: int, n_distinct: float | np.ndarray) -> float | np.ndarray:
    """Invert E[D]: the n at which N equally likely patterns show `n_distinct` on average."""
    pool = check_pool(pool)
    d = np.asarray(n_distinct)
    if d.dtype.kind not in "iuf":
        raise InvalidPuzzleError(f"n_distinct must be numbers, not {n_distinct!r:.60}")
    d = d.astype(float)
    if not np.all(np.isfinite(d)) or np.any(d < 0) or np.any(d >= _float(pool)):
        raise InvalidPuzzleError(
            f"an average distinct count must lie in 0..{_sci(pool)} (exclusive)"
        )
    if pool == 1:
        out = np.zeros_like(d)
    elif pool <= EXACT_FLOAT:
        out = np.log1p(-d / pool) / math.log1p(-1.0 / pool)
    else:  # -log(1 - 1/N) = 1/N in floats: n = -N log(1 - d/N) = d (-log1p(-t)/t), t = d/N
        t = d * (1 / pool)
        safe = np.where(t > 0, t, 0.5)
        out = d * np.where(t > 0, -np.log1p(-safe) / safe, 1.0)
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
    if n_samples > 21 or pool**n_samples > 2**21:  # n first: pool**n is never a huge power
        raise TooLargeError(f"{pool}^{n_samples} sequences is too many to enumerate")
    seqs = np.indices((pool,) * n_samples).reshape(n_samples, -1).T
    distinct = np.array([len(set(row)) for row in seqs.tolist()])
    counts = np.bincount(distinct, minlength=min(pool, n_samples) + 1)
    return counts / pool**n_samples


def simulate_distinct(
    pool: int,
    n_samples: int,
    trials: int = 100,
    rng: int | np.random.Generator | None = 0,
    weights: Sequence[float] | None = None,
) -> np.ndarray:
    """Distinct patterns seen in each of `trials` seeded simulations of `n_samples` draws."""
    n_samples = check_samples(n_samples)
    trials = checks.integer(trials, "trials", minimum=1)
    if trials * max(n_samples, 1) > MAX_SIMULATED:  # a trial of no draws still holds a count
        raise TooLargeError(
            f"{trials} trials x {n_samples} draws exceeds {MAX_SIMULATED:,} draws in memory: "
            "ask for fewer trials"
        )
    rng = checks.rng(rng)
    if weights is None:
        pool = check_pool(pool)
        if pool > 2**62:
            raise TooLargeError(
                f"a pool of {_sci(pool)} is beyond numpy's integers: ask expected_distinct"
            )
        draws = rng.integers(pool, size=(trials, n_samples))
    else:
        p = probabilities(weights)
        draws = rng.choice(len(p), size=(trials, n_samples), p=p)
    return _distinct_per_row(draws)


def simulate_curve(
    pools: Iterable[int], n_samples: int, trials: int = 100, rng: int | np.random.Generator = 0
) -> np.ndarray:
    """The write-up's chart: mean distinct seen over `trials` runs for each pool size."""
    rng = checks.rng(rng)
    if isinstance(pools, (str, bytes)) or not isinstance(pools, Iterable):
        raise InvalidPuzzleError(f"pools must be a list of pool sizes, not {pools!r:.60}")
    return np.array([simulate_distinct(N, n_samples, trials, rng).mean() for N in pools])


def _distinct_per_row(draws: np.ndarray) -> np.ndarray:
    """Number of distinct values in each row of an int array."""
    if draws.shape[1] == 0:
        return np.zeros(len(draws), dtype=np.int64)
    s = np.sort(draws, axis=1)
    return 1 + np.count_nonzero(np.diff(s, axis=1), axis=1)


# ----------------------------------------------------------------------------- sample size


EXACT_BITS = 200_000  # unseen_probability is exact (a Fraction) up to this many bits


def unseen_probability(pool: int, n_samples: int | np.ndarray) -> float | np.ndarray:
    """The write-up's risk: one extra pattern among N + 1 never drawn in n samples, (N/(N+1))^n."""
    pool = check_pool(pool)
    if np.ndim(n_samples) == 0:  # (N/(N+1))^n = (1 - 1/(N+1))^n, any sizes
        n = check_samples(n_samples)
        if n * (pool + 1).bit_length() <= EXACT_BITS:  # correctly rounded, as samples_needed
            return float(Fraction(pool, pool + 1) ** int(n))
        return math.exp(-_unseen_exponent(pool + 1, n))
    step = math.log1p(1.0 / pool) if pool <= EXACT_FLOAT else 1 / pool
    out = np.exp(-_samples_array(n_samples) * step)
    return float(out) if np.ndim(out) == 0 else out


def samples_needed(pool: int, reliability: float = 0.001) -> int:
    """Smallest n with (N/(N+1))^n <= reliability (the write-up's 487 for N=70, 557 for N=80).

    Parameters
    ----------
    pool : int
        N, the number of patterns expected (below 10**2000: beyond 2**53 the answer is
        computed with `decimal`, keeping every digit of it).
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
    target = -math.log(reliability)
    if pool <= EXACT_FLOAT:
        step = math.log1p(1.0 / pool)
        n = math.ceil(target / step)
        if n < 2**50 and min(n * step - target, target - (n - 1) * step) > 1e-9 * target:
            return n  # clear of the boundary: float arithmetic decides it
    digits = _digits(pool)
    if digits > MAX_DIGITS:
        raise TooLargeError(f"the sample size for a pool of {digits} digits is too costly here")
    with localcontext() as ctx:  # the answer has about as many digits as the pool: keep them all
        ctx.prec = digits + 40
        ratio = -Decimal(reliability).ln() / _dlog1p(1 / Decimal(pool))
        return int(ratio.to_integral_value(rounding="ROUND_CEILING"))


def prob_all_seen(pool: int, n_samples: int) -> float:
    """P(D = N): every one of `pool` equally likely patterns seen in `n_samples` draws.

    Exact recurrence when cheap, else the inclusion-exclusion series
    sum_j (-1)^j C(N, j) (1 - j/N)^n, summed until its terms vanish; `TooLargeError` when that
    series would cancel away the answer (P(D = N) below about 1e-6 for a large pool). Beyond
    2**53 patterns the unseen count is Poisson with mean N e^-x, so P = exp(-N e^-x) (the
    error is of order 1/N, below a float's resolution).
    """
    N, n = check_pool(pool), check_samples(n_samples)
    if n < N:
        return 0.0
    if N > EXACT_FLOAT:
        log_mean = math.log(N) - _unseen_exponent(N, n)  # log of the expected unseen count
        return 0.0 if log_mean > 700 else math.exp(-math.exp(log_mean))
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
        The smallest such n (about N (ln N - ln(-ln confidence)) for a large pool; beyond
        2**53 patterns that Poisson limit, computed with `decimal`, is the answer).

    Raises
    ------
    PuzzleError
        Bad arguments; `TooLargeError` when the probabilities cannot be computed accurately.
    """
    N = check_pool(pool)
    confidence = checks.fraction(confidence, "confidence")
    if N > EXACT_FLOAT:
        return _see_all_poisson(N, confidence)
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


def _see_all_poisson(N: int, confidence: float) -> int:
    """Smallest n with exp(-N (1 - 1/N)^n) >= confidence (the Poisson limit, any big N)."""
    digits = _digits(N)
    if digits > MAX_DIGITS:
        raise TooLargeError(f"the sample size for a pool of {digits} digits is too costly here")
    with localcontext() as ctx:
        ctx.prec = digits + 40
        target = Decimal(N).ln() - (-Decimal(confidence).ln()).ln()
        ratio = target / -_dlog1p(-1 / Decimal(N))
        return int(ratio.to_integral_value(rounding="ROUND_CEILING"))
