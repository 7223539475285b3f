"""Fuzz every public entry point of puzzlelab.patterns and puzzlelab.game.

Random numbers (NaN, inf, negative, huge, float, numpy ints, text, None), random count lists
and random CSV text or bytes: each call must return a sane answer or raise a `PuzzleError`,
within `fuzz_call`'s deadline. The contract test walks `__all__`, so a new export is fuzzed
without anyone remembering to. About 20 s of CPU in all.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import pandas as pd
import pytest
from conftest import examples, fuzz_call
from hypothesis import example, given
from hypothesis import strategies as st

from puzzlelab import game
from puzzlelab import patterns as pt

numbers = st.one_of(
    st.integers(-5, 3000),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 2, 0.5, 1.0, np.int64(7), np.float64(2.0), 10**18, -1]),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
)
fractions_ = st.one_of(numbers, st.floats(0.0, 1.0))
count_lists = st.one_of(
    st.lists(st.integers(0, 50), max_size=40),
    st.lists(numbers, max_size=8),
    st.lists(st.integers(0, 10**13), max_size=5),
    st.dictionaries(st.text(max_size=4), st.integers(-3, 30), max_size=10),
    numbers,
)


call = fuzz_call()


def is_probability(x) -> bool:
    return x is None or (0.0 <= x <= 1.0)


@examples(100)
@given(numbers, numbers)
def test_occupancy_functions(pool, n):
    for fn in (pt.expected_distinct, pt.variance_distinct, pt.unseen_probability):
        out = call(fn, pool, n)
        assert out is None or (np.all(np.isfinite(out)) and np.all(np.asarray(out) >= 0))
    assert is_probability(call(pt.prob_all_seen, pool, n))
    dist = call(pt.distinct_distribution, pool, n)
    assert dist is None or (np.all(dist >= 0) and abs(dist.sum() - 1) < 1e-6)


@examples(100)
@given(numbers, fractions_)
def test_sample_sizes(pool, level):
    n = call(pt.samples_needed, pool, level)
    assert n is None or (isinstance(n, int) and n >= 0)
    m = call(pt.samples_to_see_all, pool, level)
    assert m is None or (isinstance(m, int) and m >= pool)


@examples(100)
@given(numbers, numbers, fractions_)
def test_pool_size_estimates(n, d, confidence):
    est = call(pt.estimate_pool_size, n, d, confidence)
    assert est is None or pt.is_pool_estimate(est)
    mle = call(pt.mle_pool, n, d)
    assert mle is None or mle >= d
    moment = call(pt.moment_estimate, n, d)
    assert moment is None or moment >= d - 1e-9


@examples(100)
@given(count_lists, fractions_)
def test_count_based_estimators(counts, confidence):
    for fn in (pt.chao1, pt.mixture_pool_size):
        est = call(fn, counts, confidence)
        assert est is None or est.low <= est.estimate + 1e-9 <= est.high + 2e-9
        assert est is None or est.estimate >= est.n_distinct - 1e-9
    cov = call(pt.coverage, counts)
    assert cov is None or 0 <= cov.coverage <= 1
    test = call(pt.uniformity_test, counts)
    assert test is None or (0 <= test.p_value <= 1 and test.conclusion in ("equal", "unequal"))


@examples(30)
@given(numbers, numbers, numbers, numbers)
@example(1, 0, 3_162_970_864, 0)  # no draws, 3e9 trials: 24 GiB of counts, the machine's memory
def test_simulation(pool, n, trials, seed):
    out = call(pt.simulate_distinct, pool, n, trials, seed)
    assert out is None or (len(out) == trials and np.all(out <= min(pool, n)))


rows = st.lists(
    st.tuples(
        st.one_of(st.integers(-2, 9), st.text(max_size=2)),
        st.one_of(st.sampled_from(["789456B23", "9B6358247", "8734B9265"]), st.text(max_size=11)),
    ),
    max_size=6,
)


@examples(100)
@given(st.one_of(st.text(max_size=200), rows.map(lambda r: "\n".join(f"{a},{b}" for a, b in r))))
def test_parse_samples_text(text):
    table = call(pt.parse_samples, text)
    assert table is None or (len(table) >= 1 and table["picture"].between(1, 6).all())


@examples(100)
@given(st.binary(max_size=200))
def test_read_samples_bytes(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("fuzz") / "samples.csv"
    path.write_bytes(raw)
    table = call(pt.read_samples, path)
    assert table is None or len(table) >= 1


@examples(100)
@given(rows, st.booleans())
def test_write_samples_only_writes_what_reads_back(tmp_path_factory, rows, allow_empty):
    """Whatever the writer accepts, the reader reads back to the same rows."""
    path = tmp_path_factory.mktemp("fuzz") / "samples.csv"
    table = pd.DataFrame(rows, columns=["picture", "pattern"])
    written = call(pt.write_samples, table, path, allow_empty=allow_empty)
    if written is None:
        assert not path.exists()
        return
    back = pt.read_samples(written, allow_empty=allow_empty)
    assert back["picture"].tolist() == [int(p) for p in table["picture"]]
    assert back["pattern"].tolist() == [p.upper() for p in table["pattern"]]


@examples(100)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=6), numbers)
def test_weighted_expectations(weights, n):
    out = call(pt.expected_distinct, None, n, weights)
    assert out is None or (math.isfinite(out) and 0 <= out <= len(weights))


patterns_ = st.one_of(
    st.sampled_from(["789456B23", "9B6358247", "8734B9265", "359B26478", "879456B23"]),
    st.text(max_size=10),
    numbers,
)
tables = st.one_of(
    st.lists(st.tuples(st.one_of(st.integers(-1, 8), numbers), patterns_), max_size=8).map(
        lambda r: pd.DataFrame(r, columns=["picture", "pattern"])
    ),
    st.lists(patterns_, max_size=6),
    st.lists(patterns_, max_size=3).map(lambda p: pd.DataFrame({"other": p})),
    numbers,
)


@examples(60)
@given(tables, numbers, fractions_)
def test_sample_table_functions(samples, n_pictures, alpha):
    """Tables with odd pictures and patterns (or no table at all) are refused or analysed."""
    counts = call(pt.frequency_counts, samples)
    assert counts is None or sum(counts.values()) == len(samples)
    pics = call(pt.picture_counts, samples, n_pictures)
    assert pics is None or (pics.sum() == len(samples) and len(pics) == n_pictures)
    m = call(pt.shared_pattern_matrix, samples, n_pictures)
    assert m is None or (m == m.T).all()
    test = call(pt.shared_pattern_test, samples, n_pictures, 20, alpha)
    assert test is None or 0 < test.p_value <= 1
    moves = call(pt.minimum_moves, samples)
    assert moves is None or all(17 <= v <= 31 or v < 17 for v in moves.values())
    hard = call(pt.difficulty, samples, None, alpha)
    assert hard is None or hard.min <= hard.mean <= hard.max
    worst = call(pt.hardest_pattern, samples)
    assert worst is None or worst[1] == max(moves.values())


@examples(100)
@given(numbers, numbers, numbers)
def test_remaining_numeric_helpers(a, b, c):
    s = call(pt.stirling2, a, b)
    assert s is None or (isinstance(s, int) and s >= 0)
    ll = call(pt.log_likelihood, a, b, c)
    assert ll is None or not np.isnan(ll).any()
    exact = call(pt.distinct_distribution_exact, a, b)
    assert exact is None or sum(exact) == 1
    av = call(pt.samples_for_distinct, a, b)
    assert av is None or np.all(np.asarray(av) >= 0)


@examples(30)
@given(st.lists(st.one_of(st.floats(0, 5), numbers), max_size=5), numbers, numbers, fractions_)
def test_coverage_check(weights, n, trials, confidence):
    """check_coverage with tiny pools; its fractions are frequencies."""
    if isinstance(trials, int) and trials > 20 or isinstance(n, int) and n > 200:
        return  # valid but slow: covered by test_patterns
    out = call(pt.check_coverage, weights, n, trials, confidence)
    assert out is None or 0 <= out.equal_weights <= 1 and 0 <= out.mixture <= 1


ODD = [None, "x", -1, 2.5, float("nan"), 10**400, [], [1, "a"], pd.DataFrame({"x": [1]})]
PUBLIC = sorted(
    [getattr(pt, name) for name in pt.__all__ if inspect.isfunction(getattr(pt, name))]
    + [game.make_pool, game.random_openings, game.sample_openings],
    key=lambda fn: fn.__name__,
)


def test_the_contract_covers_every_export():
    """Every function in patterns' __all__ is in the list below (classes and modules are not)."""
    names = {fn.__name__ for fn in PUBLIC}
    assert {"prob_at_least", "write_samples", "unflagged", "random_openings"} <= names
    assert len(PUBLIC) >= 40


@pytest.mark.parametrize("fn", PUBLIC, ids=lambda fn: fn.__name__)
def test_every_export_refuses_odd_arguments_clearly(fn, tmp_path, monkeypatch):
    """Each odd value in each of the first three positions: a result or a PuzzleError."""
    monkeypatch.chdir(tmp_path)  # a writer given a name writes here, never into the project
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    params = [p for p in inspect.signature(fn).parameters.values() if p.kind in kinds]
    required = sum(p.default is inspect.Parameter.empty for p in params)
    good = [5, 3, 2, 2]
    for position in range(min(3, len(params))):
        for value in ODD:
            args = good[: max(required, position + 1)]
            args[position] = value
            call(fn, *args)
