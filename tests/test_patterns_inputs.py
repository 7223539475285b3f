"""Pattern statistics on odd input: refused clearly, large counts and huge pools answered fast.

Large-argument answers are checked against asymptotic formulas or against the defining
inequality evaluated independently with exact fractions, never against the code itself.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from puzzlelab.errors import ParseError, PuzzleError, TooLargeError
from puzzlelab.patterns import (
    chao1,
    coverage,
    distinct_distribution,
    distinct_distribution_exact,
    estimate_pool_size,
    mixture_pool_size,
    mle_pool,
    prob_all_seen,
    read_samples,
    samples_needed,
    samples_to_see_all,
    simulate_curve,
    simulate_distinct,
    uniformity_test,
    unseen_probability,
    write_samples,
)

LN2 = Fraction("0.69314718055994530941723212145817656807550013436026")  # ln 2, 50 digits
ESTIMATORS = [chao1, coverage, mixture_pool_size]


# ---- no silent change of the input --------------------------------------------------------


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    "counts",
    [[1.9, 1.9, 2.5], [3, -1, 2], [1, float("nan")], [1, float("inf")], [2, 2.0]],
    ids=["fractional", "negative", "nan", "inf", "float-two"],
)
def test_counts_are_never_truncated_or_dropped(estimator, counts):
    """Old code truncated 1.9 to 1 and dropped -1; every such count is now refused."""
    with pytest.raises(PuzzleError, match=r"counts\[\d\]"):
        estimator(counts)


@pytest.mark.parametrize("confidence", [1.5, 0.0, 1.0, -0.2, float("nan"), "0.9"])
def test_confidence_outside_zero_one(confidence):
    """The old '150 % interval nan-nan' is refused by every interval estimator."""
    for call in (
        lambda: estimate_pool_size(80, 48, confidence),
        lambda: chao1([1, 1, 2, 3], confidence),
        lambda: mixture_pool_size([1, 1, 2, 3], confidence),
        lambda: samples_to_see_all(10, confidence),
    ):
        with pytest.raises(PuzzleError, match="confidence"):
            call()


@pytest.mark.parametrize("n", [-5, 2.5, float("nan"), np.array([3, -1])])
def test_negative_or_fractional_sample_counts(n):
    """unseen_probability(80, -5) was 1.06, a probability above 1."""
    with pytest.raises(PuzzleError):
        unseen_probability(80, n)


def test_trials_zero_and_float_arguments():
    with pytest.raises(PuzzleError, match="trials"):
        simulate_curve([10, 20], 5, trials=0)
    with pytest.raises(PuzzleError, match="pool"):
        simulate_distinct(2.5, 10)
    with pytest.raises(PuzzleError, match="n_samples"):
        estimate_pool_size(80.0, 48)
    with pytest.raises(PuzzleError, match="counts"):
        uniformity_test([10, 20.5, 3])


# ---- large counts, fast and right ---------------------------------------------------------


def climb_mle(n: int, d: int) -> int:
    """The old reference: walk up from N = d while the likelihood still rises."""
    N = d
    while math.log(N + 1) - math.log(N + 1 - d) + n * math.log(N / (N + 1)) > 0:
        N += 1
    return N


@pytest.mark.parametrize("n,d", [(80, 48), (500, 80), (200, 199), (1000, 900), (30, 2)])
def test_mle_matches_the_climb(n, d):
    assert mle_pool(n, d) == climb_mle(n, d)


def test_mle_with_one_collision_is_n_choose_2():
    """d = n - 1: L(N) ~ C(n,2)/N exp(-C(n,2)/N) peaks at N = n(n-1)/2 (it used to hang)."""
    n = 20_000
    assert mle_pool(n, n - 1) == pytest.approx(n * (n - 1) / 2, rel=1e-3)


def test_samples_needed_for_a_huge_pool():
    """(N/(N+1))^n <= 2^-10 at the answer and not one draw earlier, checked with fractions."""
    pool = 10**18
    n = samples_needed(pool, 2.0**-10)
    target = 10 * LN2  # -ln(2^-10), exact to ~1e-50
    x = Fraction(1, pool)
    step = x - x**2 / 2 + x**3 / 3  # ln(1 + 1/N), error below 1/N^4
    assert n * step >= target > (n - 1) * step
    assert n == pytest.approx(float(target) * pool, rel=1e-15)


def test_samples_needed_matches_the_write_ups_loop():
    for pool in (1, 2, 70, 80, 1000):
        p, k = 1.0, 0
        while p > 0.001:
            p *= pool / (pool + 1)
            k += 1
        assert samples_needed(pool, 0.001) == k


def test_coupon_collector_for_a_million_patterns():
    """Erdos-Renyi: P(all N seen after N ln N + cN) -> exp(-e^-c); c = -ln(-ln 0.999)."""
    pool = 10**6
    n = samples_to_see_all(pool)
    c = -math.log(-math.log(0.999))
    assert n == pytest.approx(pool * (math.log(pool) + c), rel=1e-4)


@pytest.mark.parametrize("pool,n", [(3, 7), (5, 12), (8, 30)])
def test_prob_all_seen_exact(pool, n):
    assert prob_all_seen(pool, n) == pytest.approx(
        float(distinct_distribution_exact(pool, n)[pool])
    )


def test_series_for_all_seen_matches_the_recurrence():
    """A pool of 150 (series path) against the draw-by-draw recurrence."""
    from puzzlelab.patterns.occupancy import _all_seen_series, _by_draws

    for n in (1200, 1500):
        assert _all_seen_series(150, n) == pytest.approx(_by_draws(150, n, 150)[150], rel=1e-9)


def test_squaring_matches_the_recurrence():
    from puzzlelab.patterns.occupancy import _by_draws, _by_squaring

    for N, n in [(10, 1000), (50, 3000), (7, 3)]:
        top = min(N, n)
        assert np.allclose(_by_squaring(N, n, top), _by_draws(N, n, top), rtol=1e-9, atol=1e-300)


def test_pool_of_ten_seen_in_a_billion_draws():
    """d = 10 in 10^9 draws: every pattern was seen many times, the pool is exactly 10."""
    est = estimate_pool_size(10**9, 10)
    assert (est.estimate, est.low, est.high) == (10, 10, 10)
    assert est.moment == pytest.approx(10)


@pytest.mark.parametrize(
    "call",
    [
        lambda: estimate_pool_size(100_000, 50_000),
        lambda: distinct_distribution(10**6, 10**6),
        lambda: simulate_distinct(80, 10**6, trials=1000),
    ],
)
def test_too_large_is_refused_at_once(call):
    """These used to run for minutes; now a TooLargeError comes back before any work."""
    with pytest.raises(TooLargeError):
        call()


# ---- writers never lose a file --------------------------------------------------------------


def good_rows(n=3) -> pd.DataFrame:
    return pd.DataFrame(
        {"picture": [1, 2, 6][:n], "pattern": ["789456B23", "9B6358247", "359B26478"][:n]}
    )


def test_empty_table_is_not_written(tmp_path):
    """An empty extraction used to replace the committed 500-row samples.csv by a header."""
    target = tmp_path / "samples.csv"
    write_samples(good_rows(), target)
    before = target.read_bytes()
    empty = pd.DataFrame({"picture": [], "state": []})
    with pytest.raises(PuzzleError, match="empty"):
        write_samples(empty, target, overwrite=True)
    assert target.read_bytes() == before
    other = tmp_path / "empty.csv"
    write_samples(empty, other, allow_empty=True)
    assert read_samples(other, allow_empty=True).empty


def test_different_file_is_not_replaced(tmp_path):
    target = tmp_path / "samples.csv"
    write_samples(good_rows(3), target)
    before = target.read_bytes()
    with pytest.raises(PuzzleError, match="overwrite=True"):
        write_samples(good_rows(2), target)
    assert target.read_bytes() == before
    write_samples(good_rows(3), target)  # the same content: nothing to refuse
    write_samples(good_rows(2), target, overwrite=True)
    assert len(read_samples(target)) == 2


@pytest.mark.parametrize(
    "picture,pattern",
    [
        (1, "hello,world"),
        (1, "789456B2\n3"),
        (7, "789456B23"),
        (0, "789456B23"),
        (1.5, "789456B23"),
        (1, "879456B23"),
    ],
)
def test_rows_the_reader_rejects_are_not_written(tmp_path, picture, pattern):
    """patterns.write_samples once wrote `hello,world`, which its own reader rejects."""
    target = tmp_path / "samples.csv"
    with pytest.raises(PuzzleError):
        write_samples(pd.DataFrame({"picture": [picture], "pattern": [pattern]}), target)
    assert not target.exists()


def test_committed_samples_file_is_intact():
    """data/last_origin/samples.csv stays as committed: 500 readable openings."""
    samples = read_samples()
    assert len(samples) == 500 and samples["picture"].between(1, 6).all()


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe1,789456B23\n", b"1,789\x00456B23\n", bytes(range(256)), b"picture;pattern\n1;x\n"],
)
def test_binary_and_non_utf8_files(tmp_path, content):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    with pytest.raises(ParseError):
        read_samples(path)


def test_certain_pattern_with_no_draws():
    """Found by the fuzz suite: weights [1] and 0 draws gave NaN (0 x -inf); nothing is seen."""
    from puzzlelab.patterns import expected_distinct

    assert expected_distinct(None, 0, [1.0]) == 0.0
    assert expected_distinct(None, 3, [1.0, 0.0]) == 1.0


def test_chao1_interval_holds_its_estimate_without_singletons():
    """Found by the fuzz suite: counts [1] gave 'Chao1 1.0 (50 % interval 1.2-1.9)'."""
    for counts in ([1], [5, 5, 1], [3, 4, 2, 2]):
        est = chao1(counts, 0.5)
        assert est.low <= est.estimate <= est.high and est.contains(len(counts))


@pytest.mark.parametrize(
    "call",
    [
        lambda: read_samples_text("1,12345678²\n"),
        lambda: __import__("puzzlelab.patterns").patterns.samples_for_distinct(80, ""),
        lambda: __import__("puzzlelab.patterns").patterns.hardest_pattern(["789456B23", None]),
        lambda: __import__("puzzlelab.patterns").patterns.stirling2(10**6, 5000),
        lambda: __import__("puzzlelab.patterns").patterns.distinct_distribution_exact(10**20, 3000),
    ],
)
def test_found_by_fuzzing(call):
    """Raw ValueError/TypeError, or minutes of work, found by tests/test_fuzz_patterns.py."""
    with pytest.raises(PuzzleError):
        call()


def read_samples_text(text):
    from puzzlelab.patterns import parse_samples

    return parse_samples(text)


# ---- counts outside the possible range ------------------------------------------------------


@pytest.mark.parametrize("d", [-1, -2, -(10**30), 0])
def test_at_least_a_non_positive_count_is_certain(d):
    """P(D >= d) is 1 for d <= 0 (a negative d was a list index: 0.3024 for d = -1)."""
    from puzzlelab.patterns import prob_at_least, prob_at_most

    assert prob_at_least(10, 5, d) == 1.0
    assert prob_at_most(10, 5, d - 1) == 0.0


def test_counts_beyond_the_range_and_wrong_types():
    from puzzlelab.patterns import prob_at_least, prob_at_most

    assert prob_at_least(10, 5, 6) == 0.0 and prob_at_most(10, 5, 10**30) == 1.0
    assert prob_at_most(10, 5, -1) == 0.0
    for bad in (2.5, "3", None, float("nan")):
        with pytest.raises(PuzzleError, match="n_distinct"):
            prob_at_least(10, 5, bad)


# ---- pools of any size ----------------------------------------------------------------------

HUGE = 10**400


def test_expected_distinct_for_a_huge_pool():
    """10^400 patterns: every draw is new to float precision (OverflowError before)."""
    from puzzlelab.patterns import expected_distinct

    assert expected_distinct(HUGE, 500) == 500.0
    assert expected_distinct(HUGE, np.array([0, 1, 7])).tolist() == [0.0, 1.0, 7.0]
    assert expected_distinct(10**20, 10**400) == 1e20  # every pattern seen


def test_expected_distinct_beyond_the_float_range_is_refused():
    from puzzlelab.patterns import expected_distinct, variance_distinct

    with pytest.raises(TooLargeError, match="exceeds a float"):
        expected_distinct(HUGE, HUGE)
    with pytest.raises(TooLargeError, match="exceeds a float"):
        variance_distinct(HUGE, HUGE)


@pytest.mark.parametrize("pool", [10**7, 10**9, 10**15, 10**20])
def test_variance_for_large_pools_is_the_collision_count(pool):
    """n << N: Var[D] = n(n-1)/2N (1 - O(n/N)); the float formula lost it from N ~ 10^7."""
    from puzzlelab.patterns import variance_distinct

    n = 500
    assert variance_distinct(pool, n) == pytest.approx(n * (n - 1) / (2 * pool), rel=1e-4)
    assert variance_distinct(pool, 2) == pytest.approx((1 - 1 / pool) / pool, rel=1e-12)


def test_variance_matches_exact_fractions_on_a_mid_size_pool():
    """Var from the exact distribution (fractions) for N = 10^6, n = 40."""
    from puzzlelab.patterns import variance_distinct

    pool, n = 10**6, 40
    dist = distinct_distribution_exact(pool, n)
    mean = sum(k * p for k, p in enumerate(dist))
    var = sum((k - mean) ** 2 * p for k, p in enumerate(dist))
    assert variance_distinct(pool, n) == pytest.approx(float(var), rel=1e-12)


def test_sample_sizes_for_a_huge_pool():
    """samples_needed and samples_to_see_all answer for 10^400 with every digit."""
    from puzzlelab.patterns import samples_needed, samples_to_see_all

    n = samples_needed(HUGE, 2.0**-10)
    with localcontext() as ctx:  # the defining inequality at 1,000 digits, by another route
        ctx.prec = 1000
        step, target = ((Decimal(HUGE) + 1) / HUGE).ln(), 10 * Decimal(2).ln()
        assert (n - 1) * step < target <= n * step
    m = samples_to_see_all(HUGE, 0.5)
    assert m / HUGE == pytest.approx(math.log(HUGE) - math.log(math.log(2)), rel=1e-12)


def test_other_occupancy_functions_with_a_huge_pool():
    from puzzlelab.patterns import (
        distinct_distribution,
        samples_for_distinct,
        unseen_probability,
    )

    assert unseen_probability(HUGE, 500) == 1.0
    assert samples_for_distinct(HUGE, 3.0) == 3.0
    assert distinct_distribution(HUGE, 4).tolist() == [0, 0, 0, 0, 1]
    assert prob_all_seen(HUGE, 2 * HUGE) == 0.0
    with pytest.raises(TooLargeError, match="beyond numpy"):
        simulate_distinct(HUGE, 5)

    from puzzlelab.patterns import log_likelihood

    with pytest.raises(PuzzleError, match="pool sizes"):
        log_likelihood(HUGE, 10, 5)
