"""Pattern statistics: the write-up's figures, exact enumeration on tiny cases, simulation."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import numpy as np
import pandas as pd
import pytest
from conftest import examples
from hypothesis import example, given
from hypothesis import strategies as st
from scipy import stats

from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError
from puzzlelab.game import GAME_GOAL, make_pool, sample_openings
from puzzlelab.patterns import (
    chao1,
    check_coverage,
    coverage,
    data,
    difficulty,
    distinct_distribution,
    distinct_distribution_enumerated,
    distinct_distribution_exact,
    estimate_pool_size,
    expected_distinct,
    expected_shared_matrix,
    format_samples,
    frequency_counts,
    game_table,
    hardest_pattern,
    interval_coverage,
    is_pool_estimate,
    log_likelihood,
    minimum_moves,
    mixture_pool_size,
    mle_pool,
    moment_estimate,
    parse_samples,
    picture_counts,
    prob_all_seen,
    read_samples,
    samples_for_distinct,
    samples_needed,
    samples_to_see_all,
    shared_pattern_matrix,
    shared_pattern_test,
    simulate_curve,
    simulate_distinct,
    stirling2,
    uniformity_test,
    unseen_probability,
    variance_distinct,
    write_samples,
)
from puzzlelab.sliding import is_solvable, move_between, parse_board, to_pattern

# ----------------------------------------------------------------------------- write-up figures


def test_writeup_pool_estimate_from_80_samples():
    """48 distinct in 80 samples -> about 70 patterns, 95 % interval about 57-94."""
    est = estimate_pool_size(80, 48)
    assert est.estimate == 70
    assert (est.low, est.high) == (57, 94)
    assert round(est.moment) == 70
    assert is_pool_estimate(est)


def test_writeup_pool_estimate_from_500_samples():
    """80 distinct in 500 samples -> 80 patterns, interval 80-81."""
    est = estimate_pool_size(500, 80)
    assert (est.estimate, est.low, est.high) == (80, 80, 81)
    assert est.contains(80) and not est.contains(82)


def test_writeup_samples_needed():
    """(N/(N+1))^n < 0.1 %: 487 samples for 70 patterns, 557 for 80; 0.2 % at 500."""
    assert samples_needed(70, 0.001) == 487
    assert samples_needed(80, 0.001) == 557
    assert unseen_probability(70, 487) == pytest.approx(0.0009998380510145163, rel=1e-9)
    assert round(100 * unseen_probability(80, 500), 1) == 0.2
    # the write-up read "about 35 %" at 80 samples off its chart; the formula gives 32 %
    assert unseen_probability(70, 80) == pytest.approx((70 / 71) ** 80)
    assert 0.30 < unseen_probability(70, 80) < 0.35


def test_writeup_expected_distinct_and_its_simulation():
    """80 patterns, 500 samples: 79.85 expected; the write-up's 100-run mean 79.81 fits it."""
    mean = expected_distinct(80, 500)
    assert round(mean, 2) == 79.85
    se = math.sqrt(variance_distinct(80, 500) / 100)
    assert abs(79.81 - mean) < 3 * se


def test_writeup_simulation_chart_crosses_48_near_70():
    """Seeded rerun of the chart (pools 1-100, 100 trials, 80 samples) crosses 48 near 70."""
    pools = np.arange(1, 101)
    curve = simulate_curve(pools, 80, trials=100, rng=0)
    exact = np.array([expected_distinct(N, 80) for N in pools])
    assert np.all(np.abs(curve - exact) < 1.0)  # 100-trial means scatter by < 1 pattern
    crossing = pools[np.argmax(curve >= 48)]
    assert 65 <= crossing <= 75
    assert exact[69] < 48 <= exact[70]  # the closed form crosses 48 between N = 70 and 71


def test_writeup_mean_of_all_states_and_hardest_pattern():
    """All 3x3 states average 21.972...; the 80-sample hardest pattern 9B6358247 needs 27 moves."""
    table = game_table()
    assert table.mean == pytest.approx(21.972398589065257, abs=1e-12)
    assert table.distance(parse_board("9B6358247")) == 27
    path = table.path(parse_board("9B6358247"))
    assert len(path) == 28 and path[-1] == GAME_GOAL
    for a, b in zip(path, path[1:], strict=False):
        move_between(a, b, (3, 3))  # raises unless one legal move apart


def test_writeup_shared_matrix_fits_one_common_pool():
    """The write-up's matrix is what one pool of 80 equal patterns predicts (not own pools)."""
    diag = np.diag(data.SHARED)
    counts = samples_for_distinct(80, diag)
    assert abs(counts.sum() - 500) < 15  # the inferred picture counts add up to ~500 openings
    expected = expected_shared_matrix(counts, np.ones(80))
    assert np.allclose(np.diag(expected), diag)
    off = ~np.eye(6, dtype=bool)
    assert np.abs(expected[off] - data.SHARED[off]).mean() < 3
    assert data.SHARED[off].min() > 20  # separate pools would give zeros


# ----------------------------------------------------------------------------- exact occupancy


def test_stirling_numbers():
    """S(n, k) against known values and Bell numbers."""
    assert [stirling2(4, k) for k in range(5)] == [0, 1, 7, 6, 1]
    assert stirling2(10, 5) == 42525
    assert sum(stirling2(10, k) for k in range(11)) == 115975  # Bell(10)
    assert stirling2(0, 0) == 1 and stirling2(3, 0) == 0 and stirling2(2, 3) == 0


@pytest.mark.parametrize("pool,n", [(1, 3), (2, 5), (3, 4), (4, 6), (5, 3), (6, 7)])
def test_distribution_matches_enumeration(pool, n):
    """Recurrence == exact Stirling formula == counting over all N^n sequences."""
    fast = distinct_distribution(pool, n)
    exact = np.array([float(f) for f in distinct_distribution_exact(pool, n)])
    brute = distinct_distribution_enumerated(pool, n)
    assert np.allclose(fast, brute, atol=1e-14)
    assert np.allclose(exact, brute, atol=1e-14)


def test_distribution_matches_exact_fractions_at_writeup_size():
    """At N=70, n=80 the float recurrence agrees with exact big-integer fractions."""
    exact = distinct_distribution_exact(70, 80)
    assert sum(exact) == Fraction(1)
    fast = distinct_distribution(70, 80)
    assert np.allclose(fast, [float(f) for f in exact], rtol=1e-9, atol=1e-300)


@pytest.mark.parametrize("pool,n", [(1, 5), (7, 3), (70, 80), (80, 500), (200, 50)])
def test_closed_form_moments(pool, n):
    """E[D] and Var[D] closed forms equal the moments of the exact distribution."""
    dist = distinct_distribution(pool, n)
    k = np.arange(len(dist))
    mean = dist @ k
    assert expected_distinct(pool, n) == pytest.approx(mean, rel=1e-10)
    assert variance_distinct(pool, n) == pytest.approx(dist @ (k - mean) ** 2, rel=1e-7, abs=1e-9)
    assert expected_distinct(None, n, weights=np.ones(pool)) == pytest.approx(mean, rel=1e-10)


def test_prob_all_seen_against_inclusion_exclusion():
    """P(every pattern seen) equals the inclusion-exclusion sum."""
    for pool, n in [(3, 5), (10, 30), (80, 500)]:
        ie = sum(
            (-1) ** j * math.comb(pool, j) * Fraction(pool - j, pool) ** n for j in range(pool)
        )
        assert prob_all_seen(pool, n) == pytest.approx(float(ie), rel=1e-9)
    n = samples_to_see_all(20, 0.99)
    assert prob_all_seen(20, n) >= 0.99 > prob_all_seen(20, n - 1)


def test_simulation_agrees_with_closed_form():
    """Seeded simulation means sit within 4 standard errors of E[D]."""
    for pool, n in [(70, 80), (80, 500), (10, 10)]:
        sims = simulate_distinct(pool, n, trials=2000, rng=1)
        se = math.sqrt(variance_distinct(pool, n) / len(sims))
        assert abs(sims.mean() - expected_distinct(pool, n)) < 4 * se + 1e-12
    weights = np.arange(1, 21)
    sims = simulate_distinct(20, 15, trials=4000, rng=2, weights=weights)
    assert abs(sims.mean() - expected_distinct(None, 15, weights=weights)) < 0.1


# ----------------------------------------------------------------------------- estimators


@pytest.mark.parametrize("n,d", [(80, 48), (20, 12), (30, 29), (10, 1), (500, 80), (100, 60)])
def test_mle_is_the_argmax_of_the_exact_likelihood(n, d):
    """The MLE maximises P_N(D = d) computed from the full distribution."""
    grid = np.arange(d, 4000)
    brute = grid[np.argmax(log_likelihood(grid, n, d))]
    assert mle_pool(n, d) == brute
    near = range(max(d, brute - 3), brute + 4)
    probs = [distinct_distribution(N, n)[d] for N in near]
    assert list(near)[int(np.argmax(probs))] == brute


@pytest.mark.parametrize("n,d", [(20, 12), (15, 15), (12, 3), (40, 30)])
def test_interval_matches_brute_force_test_inversion(n, d):
    """low..high is exactly the set of N not rejected by either one-sided 2.5 % test."""
    kept = [
        N
        for N in range(d, 3000)
        if distinct_distribution(N, n)[d:].sum() > 0.025
        and distinct_distribution(N, n)[: d + 1].sum() > 0.025
    ]
    est = estimate_pool_size(n, d)
    assert est.low == kept[0]
    if d == n:
        assert math.isinf(est.high) and math.isinf(est.estimate)
    else:
        assert est.high == kept[-1] and kept == list(range(kept[0], kept[-1] + 1))


@pytest.mark.parametrize("pool,n", [(70, 80), (80, 500), (20, 30), (5, 8)])
def test_interval_coverage_is_at_least_nominal(pool, n):
    """Inverting two exact one-sided tests covers the truth at least 95 % of the time."""
    assert interval_coverage(pool, n) >= 0.95


def test_interval_coverage_by_simulation():
    """Over seeded simulated samples from 70 patterns the 95 % interval covers near 95 %."""
    distinct = simulate_distinct(70, 80, trials=400, rng=3)
    hits = [estimate_pool_size(80, int(d)).contains(70) for d in distinct]
    assert 0.92 <= np.mean(hits) <= 1.0


def test_moment_estimate_solves_expected_distinct():
    """E[D | N = moment estimate] = d."""
    for n, d in [(80, 48), (500, 80), (30, 20)]:
        assert expected_distinct(1, n) == 1
        N = moment_estimate(n, d)
        assert N * (1 - (1 - 1 / N) ** n) == pytest.approx(d, rel=1e-9)
    assert math.isinf(moment_estimate(5, 5)) and moment_estimate(5, 1) == 1
    assert moment_estimate(131, 5) >= 5  # N >= E[D] = d; the root-finder gave 4.999999999999999


@given(st.integers(1, 400), st.floats(1e-6, 0.5))
@example(pool=1, reliability=0.125)  # (1/2)^3 is exactly 0.125: a float power read it above
def test_samples_needed_is_the_first_n(pool, reliability):
    """The returned n is the first sample count whose risk is at most `reliability`."""
    n = samples_needed(pool, reliability)
    assert unseen_probability(pool, n) <= reliability < unseen_probability(pool, n - 1)


def test_good_turing_and_chao1_by_hand():
    """Counts 1,1,1,2,3: n=8, f1=3, f2=1; Chao1 = 5 + (7/8) 3*2/(2*2)."""
    cov = coverage([1, 1, 1, 2, 3])
    assert (cov.n_samples, cov.n_distinct, cov.singletons, cov.doubletons) == (8, 5, 3, 1)
    assert cov.unseen_mass == 3 / 8 and cov.coverage == 5 / 8
    ch = chao1(Counter({"a": 1, "b": 1, "c": 1, "d": 2, "e": 3}))
    assert ch.estimate == pytest.approx(5 + 7 / 8 * 6 / 4)
    assert 5 < ch.low < ch.estimate < ch.high


def test_chao1_without_singletons_adds_nothing():
    """No singletons: the estimate is the observed count, the interval starts there."""
    ch = chao1([2, 3, 4, 2])
    assert ch.estimate == 4 and ch.low == 4 and ch.high >= 4


@given(st.lists(st.integers(1, 12), min_size=1, max_size=60))
@examples(60)
def test_chao1_interval_is_ordered(counts):
    """Chao1 >= observed, and low <= estimate <= high."""
    ch = chao1(counts)
    assert ch.n_distinct == len(counts)
    assert len(counts) <= ch.low <= ch.estimate + 1e-9
    assert ch.estimate <= ch.high + 1e-9


def test_mixture_estimator_on_equal_and_unequal_pools():
    """Equal weights: close to the equal-weights MLE. Dirichlet weights: covers the truth."""
    rng = np.random.default_rng(5)
    counts = np.bincount(rng.integers(70, size=300))
    mix = mixture_pool_size(counts)
    est = estimate_pool_size(300, int(np.count_nonzero(counts)))
    assert mix.contains(70) and abs(mix.estimate - est.estimate) <= 2
    check = check_coverage(make_pool().weights, 500, trials=120, rng=4)
    assert check.mixture >= 0.88
    assert check.equal_weights < check.mixture  # unequal weights break the equal-weights model


def test_default_game_recovers_true_pool():
    """The notebook's claim: on the default synthetic game the pool of 80 is inside the interval."""
    samples = sample_openings(make_pool(), 500, rng=0)
    counts = frequency_counts(samples)
    assert mixture_pool_size(counts).contains(80)
    assert chao1(counts).contains(80)


def test_bad_counts_are_rejected():
    """Impossible inputs raise a PuzzleError that says what is wrong."""
    with pytest.raises(InvalidPuzzleError, match="1 <= distinct"):
        estimate_pool_size(10, 11)
    with pytest.raises(PuzzleError, match="pool must be at least 1"):
        samples_needed(0)
    with pytest.raises(InvalidPuzzleError):
        chao1([])
    with pytest.raises(PuzzleError, match="confidence"):
        estimate_pool_size(10, 5, confidence=1.5)


# ----------------------------------------------------------------------------- pictures


def test_uniformity_exact_against_enumeration():
    """The exact p-value sums multinomial probabilities of tables at least as extreme."""
    counts = [5, 1, 0]
    n, k = sum(counts), len(counts)
    e = n / k
    obs = sum((c - e) ** 2 / e for c in counts)
    brute = 0.0
    for table in product(range(n + 1), repeat=k):
        if sum(table) == n and sum((c - e) ** 2 / e for c in table) >= obs - 1e-9:
            brute += stats.multinomial.pmf(table, n, [1 / k] * k)
    result = uniformity_test(counts)
    assert result.method == "exact"
    assert result.p_value == pytest.approx(brute, rel=1e-9)
    assert result.chi2 == pytest.approx(obs)


def test_uniformity_monte_carlo_and_chi_square_agree_with_exact():
    """Forced Monte-Carlo is close to the exact p; chi-square matches scipy."""
    counts = [9, 4, 12, 5]
    exact = uniformity_test(counts)
    mc = uniformity_test(counts, max_enumerate=0, n_simulations=20000, rng=1)
    assert exact.method == "exact" and mc.method == "monte-carlo"
    assert abs(exact.p_value - mc.p_value) < 0.015
    assert exact.p_chi2 == pytest.approx(stats.chisquare(counts).pvalue)
    assert uniformity_test([40, 2, 40, 40, 40, 40]).conclusion == "unequal"
    assert uniformity_test([10, 11, 9, 10, 12, 8]).conclusion == "equal"


def test_picture_counts_and_range():
    """Counts per picture 1..6; a picture 7 is refused."""
    df = pd.DataFrame({"picture": [1, 1, 6], "pattern": ["789456B23"] * 3})
    assert picture_counts(df).tolist() == [2, 0, 0, 0, 0, 1]
    with pytest.raises(InvalidPuzzleError):
        picture_counts(pd.DataFrame({"picture": [7], "pattern": ["789456B23"]}))


def _random_patterns(k: int, seed: int) -> list[str]:
    """k distinct solvable patterns (from the game model's pool)."""
    return make_pool(k, rng=seed).patterns


def test_shared_matrix_against_sets():
    """The matrix counts set intersections, like the write-up's code."""
    pats = _random_patterns(5, 1)
    rows = [(1, pats[0]), (1, pats[1]), (2, pats[1]), (2, pats[2]), (3, pats[3]), (1, pats[1])]
    df = pd.DataFrame(rows, columns=["picture", "pattern"])
    m = shared_pattern_matrix(df, n_pictures=3)
    sets = [{p for q, p in rows if q == i} for i in (1, 2, 3)]
    assert m.tolist() == [[len(a & b) for b in sets] for a in sets]


def test_expected_shared_matrix_against_simulation():
    """E[M] under one pool matches the mean of seeded simulations."""
    weights = np.arange(1, 31, dtype=float)
    counts = [20, 35, 10]
    rng = np.random.default_rng(7)
    p = weights / weights.sum()
    total = np.zeros((3, 3))
    for _ in range(1500):
        seen = np.zeros((3, 30), dtype=int)
        for i, c in enumerate(counts):
            seen[i, rng.choice(30, size=c, p=p)] = 1
        total += seen @ seen.T
    assert np.allclose(total / 1500, expected_shared_matrix(counts, weights), atol=0.3)


def test_shared_pattern_test_tells_common_from_separate_pools():
    """Own pools per picture -> little sharing -> rejected; one pool -> not rejected."""
    pats = _random_patterns(60, 2)
    rng = np.random.default_rng(0)
    pics = rng.integers(1, 7, size=400)
    common = pd.DataFrame(
        {"picture": pics, "pattern": [pats[i] for i in rng.integers(60, size=400)]}
    )
    own = pd.DataFrame(
        {"picture": pics, "pattern": [pats[(p - 1) * 10 + rng.integers(10)] for p in pics]}
    )
    assert shared_pattern_test(common, n_permutations=300).p_value > 0.01
    result = shared_pattern_test(own, n_permutations=300)
    assert result.conclusion == "separate pools" and result.p_value < 0.01
    assert result.statistic == 0


# ----------------------------------------------------------------------------- difficulty


def test_difficulty_by_hand():
    """Weighted mean = mean over openings; min, max, SE and the all-states mean."""
    table = game_table()
    one_move = to_pattern(table.states_at(1)[0])
    hard = "9B6358247"
    df = pd.DataFrame({"picture": [1, 2, 3, 4], "pattern": [hard, hard, one_move, "789456B23"]})
    moves = np.array([27, 27, 1, 0])
    result = difficulty(df, table)
    assert result.mean == pytest.approx(moves.mean())
    assert result.se == pytest.approx(moves.std(ddof=1) / 2)
    assert result.pattern_mean == pytest.approx((27 + 1 + 0) / 3)
    assert (result.min, result.max, result.n_patterns) == (0, 27, 3)
    assert result.uniform_mean == pytest.approx(table.mean)
    assert minimum_moves([hard, one_move], table) == {hard: 27, one_move: 1}
    assert hardest_pattern(df, table) == (hard, 27)


def test_game_is_harder_than_a_random_shuffle_in_the_default_model():
    """The default game's openings (17-28 moves) average more than 21.97 moves."""
    result = difficulty(sample_openings(make_pool(), 500, rng=0))
    assert 17 <= result.min and result.max <= 28
    assert result.conclusion == "harder" and result.mean > result.uniform_mean


# ----------------------------------------------------------------------------- CSV


def test_csv_round_trip_and_forms(tmp_path):
    """Written samples read back; header optional; BOM and lower-case b accepted."""
    samples = sample_openings(make_pool(), 30, rng=1)
    path = write_samples(samples, tmp_path / "samples.csv")
    back = read_samples(path)
    assert back["pattern"].tolist() == samples["pattern"].tolist()
    assert back["picture"].tolist() == samples["picture"].tolist()
    assert back["state"].tolist() == samples["state"].tolist()
    headerless = "\ufeff1,789456b23\n2,9B6358247\n\n"
    df = parse_samples(headerless)
    assert df["pattern"].tolist() == ["789456B23", "9B6358247"] and df["line"].tolist() == [1, 2]
    swapped = parse_samples("pattern,picture\n9B6358247,3\n")
    assert swapped["picture"].tolist() == [3]


@pytest.mark.parametrize(
    "text,where",
    [
        ("picture,pattern\n1,789456B23\n\n2,789456B23\n", "line 3: empty row"),
        ("picture,pattern\n1,789456B23\n,\n", "line 3: empty row"),
        ("picture,pattern\n1,789456B23\nx,789456B23\n", "line 3: picture 'x'"),
        ("picture,pattern\n9,789456B23\n", "line 2: picture 9"),
        ("picture,pattern\n1,789456B2\n", "line 2: pattern '789456B2'"),
        ("picture,pattern\n1,879456B23\n", "line 2: pattern '879456B23' cannot be solved"),
        ("picture,pattern\n1,789456B21\n", "line 2"),
        ("picture,pattern\n1\n", "line 2: 1 field"),
        ("", "empty file"),
        ("picture,pattern\n", "no samples"),
    ],
)
def test_csv_errors_name_the_line(text, where):
    """Every bad row is reported with its line number and what was expected."""
    with pytest.raises(PuzzleError) as info:
        parse_samples(text)
    assert where in str(info.value)


def test_csv_reports_every_bad_line():
    """Several bad rows: one error listing them all."""
    text = "1,789456B23\n\n7,789456B23\n2,789456B23\n"
    with pytest.raises(ParseError, match=r"2 bad rows: line 2: .*; line 3: "):
        parse_samples(text)


@given(st.lists(st.tuples(st.integers(1, 6), st.permutations([0, 2, 3, 4, 5, 6, 7, 8, 9]))))
@examples(40)
def test_csv_round_trip_property(rows):
    """Any solvable patterns with pictures 1..6 survive format -> parse."""
    rows = [(p, tuple(s)) for p, s in rows if is_solvable(tuple(s), GAME_GOAL, (3, 3))]
    df = pd.DataFrame(
        {"picture": [p for p, _ in rows], "pattern": [to_pattern(s) for _, s in rows]}
    )
    if not rows:
        with pytest.raises(ParseError):
            parse_samples(format_samples(df))
        return
    back = parse_samples(format_samples(df))
    assert back["pattern"].tolist() == df["pattern"].tolist()
    assert back["picture"].tolist() == df["picture"].tolist()


@pytest.mark.parametrize("seed,size,pool", [(0, 500, 80), (1, 80, 70), (2, 150, 40)])
def test_mixture_search_finds_the_profile_maximum(seed, size, pool):
    """Bracketing + bisection land on the grid argmax and the likelihood-ratio interval."""
    from scipy import special

    from puzzlelab.patterns.richness import _nb_profile

    weights = np.random.default_rng(seed).dirichlet(np.full(pool, 3.0))
    draws = np.random.default_rng(seed + 10).choice(pool, size=size, p=weights)
    counts = np.bincount(draws)
    counts = counts[counts > 0]
    values, mult = np.unique(counts, return_counts=True)
    d = len(counts)
    grid = np.arange(d, d + 600)
    prof = np.array(
        [
            _nb_profile(values, mult, N, 1e4)[0]
            + special.gammaln(N + 1)
            - special.gammaln(N - d + 1)
            for N in grid
        ]
    )
    est = mixture_pool_size(counts)
    assert est.estimate == grid[np.argmax(prof)]
    inside = grid[prof.max() - prof <= stats.chi2.ppf(0.95, 1) / 2]
    assert est.low == inside.min()
    if inside.max() < grid[-1]:
        assert est.high == inside.max()


def test_writes_the_video_readers_table(tmp_path):
    """The extractor's table (picture, state as tuples or strings) goes through the one writer."""
    samples = sample_openings(make_pool(), 25, rng=4)
    table = pd.DataFrame({"picture": samples["picture"], "state": samples["state"]})
    path = write_samples(table, tmp_path / "samples.csv")
    back = read_samples(path)
    assert back["pattern"].tolist() == samples["pattern"].tolist()
    assert back["picture"].tolist() == samples["picture"].tolist()


def test_missing_file_is_a_parse_error(tmp_path):
    """A missing samples file says where it looked."""
    with pytest.raises(ParseError, match="does not exist"):
        read_samples(tmp_path / "absent.csv")


def test_figures_of_the_study():
    """The study's figures draw the numbers they are given (two panels, risk, matrix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from puzzlelab.patterns import draw_pool_estimate, draw_risk
    from puzzlelab.plotting import draw_matrix

    est = estimate_pool_size(80, 48)
    left, right = draw_pool_estimate(est)
    assert "57–94" in right.get_title() and left.get_xlim()[1] >= 100
    ax = draw_risk((70, 80))
    assert [round(line.get_xdata()[0]) for line in ax.lines if line.get_linestyle() == ":"] == [
        487,
        557,
    ]
    _, ax = plt.subplots()
    draw_matrix(data.SHARED, ax)
    assert [t.get_text() for t in ax.texts][:3] == ["60", "33", "41"]
    plt.close("all")
