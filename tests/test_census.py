"""The census studies (serial runs): cases, row functions checked independently, summaries.

Serial-vs-cluster equality of these censuses is in test_batch.py (one LocalCluster there).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from puzzlelab.errors import PuzzleError
from puzzlelab.nonogram import census as nonogram
from puzzlelab.sliding import census as sliding
from puzzlelab.watersort import census as watersort
from puzzlelab.watersort.solve import solve


def _wilson(k: int, n: int) -> tuple[float, float]:
    ci = stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
    return ci.low, ci.high


# ------------------------------------------------------------------------------ water sort


def test_watersort_cases_pair_the_same_deal_with_one_and_two_empty_tubes():
    cases = watersort.cases((5, 7), 3)
    assert len(cases) == 2 * 3 * 2
    for c in (5, 7):
        for d in range(3):
            one, two = (
                watersort.deal_level(x) for x in cases if x["colors"] == c and x["deal"] == d
            )
            assert one.tubes[:c] == two.tubes[:c]
            assert (one.n_empty, two.n_empty) == (1, 2)
    budget = watersort.cases((5,), 1, max_expanded=7)[0]
    assert watersort.deal_level(budget).tubes == watersort.deal_level(cases[0]).tubes


def test_watersort_verdicts_agree_with_the_optimal_solver():
    table = watersort.census((4, 6, 8), 5, progress=False)
    assert table["error"].isna().all() and len(table) == 30
    assert set(table["verdict"]) <= {"feasible", "unsolvable"}
    for case, row in zip(watersort.cases((4, 6, 8), 5), table.itertuples(), strict=True):
        level = watersort.deal_level(case)
        optimal = solve(level, "optimal")
        assert (row.verdict == "unsolvable") == (optimal.verdict == "unsolvable")
        if row.verdict == "feasible":
            assert row.length >= optimal.length


def test_watersort_budget_limited_deals_are_counted_apart_and_widen_the_interval():
    table = watersort.census((6,), 8, (2,), max_expanded=3, progress=False)
    summary = watersort.summarise(table)
    row = summary.iloc[0]
    assert row["limit"] == (table["verdict"] == "limit").sum() > 0
    assert row["deals"] == row["solvable"] + row["unsolvable"] + row["limit"] == 8
    assert row["share_hi"] == pytest.approx(_wilson(int(row["solvable"] + row["limit"]), 8)[1])


def test_watersort_summary_of_a_handmade_table():
    verdicts = ["feasible"] * 6 + ["unsolvable"] * 3 + ["limit"] + ["feasible"]
    table = pd.DataFrame(
        {
            "colors": 10,
            "empty": 1,
            "verdict": verdicts,
            "error": [None] * 10 + ["RuntimeError: boom"],
        }
    )
    row = watersort.summarise(table).iloc[0]
    assert (row["deals"], row["solvable"], row["unsolvable"], row["limit"], row["errors"]) == (
        10,
        6,
        3,
        1,
        1,
    )
    assert row["share_solvable"] == 0.6 and row["share_unsolvable"] == 0.3
    assert row["share_lo"] == pytest.approx(_wilson(6, 10)[0])
    assert row["share_hi"] == pytest.approx(_wilson(7, 10)[1])


@pytest.mark.parametrize(
    "kwargs",
    [{"colors": (0,)}, {"colors": (4.0,)}, {"n_deals": -1}, {"method": "magic"}, {"seed": -2}],
)
def test_watersort_bad_cases_are_refused(kwargs):
    with pytest.raises(PuzzleError):
        watersort.cases(**kwargs)


# ------------------------------------------------------------------------------ nonogram


def _clues(grid: np.ndarray) -> tuple:
    """Row and column run lengths, computed here independently of the library."""

    def runs(line):
        return tuple(len(list(g)) for v, g in itertools.groupby(line) if v)

    return tuple(runs(r) for r in grid), tuple(runs(c) for c in grid.T)


def test_nonogram_uniqueness_matches_brute_force_on_3x3():
    all_grids = [np.array(bits, dtype=bool).reshape(3, 3) for bits in np.ndindex(*[2] * 9)]
    sharing: dict = {}
    for g in all_grids:
        sharing[_clues(g)] = sharing.get(_clues(g), 0) + 1
    table = nonogram.census([(3, 3)], (0.3, 0.5, 0.7), 12, progress=False)
    assert table["error"].isna().all()
    cases = nonogram.cases([(3, 3)], (0.3, 0.5, 0.7), 12)
    for case, row in zip(cases, table.itertuples(), strict=True):
        grid = nonogram.picture(case)
        assert row.filled == grid.sum()
        assert row.verdict == ("unique" if sharing[_clues(grid)] == 1 else "multiple")
        assert not row.line_solvable or row.verdict == "unique"


def test_nonogram_pictures_come_from_the_case_not_the_budget():
    a = nonogram.cases([(6, 7)], (0.4,), 2, max_expanded=10)
    b = nonogram.cases([(6, 7)], (0.4,), 2, max_expanded=None)
    assert np.array_equal(nonogram.picture(a[1]), nonogram.picture(b[1]))
    assert nonogram.picture(a[1]).shape == (6, 7)
    assert not np.array_equal(nonogram.picture(a[0]), nonogram.picture(a[1]))


def test_nonogram_summary_of_a_handmade_table():
    table = pd.DataFrame(
        {
            "rows": 10,
            "cols": 10,
            "density": [0.5] * 8,
            "verdict": ["unique"] * 4 + ["multiple"] * 2 + ["limit"] + ["unique"],
            "line_solvable": [True, True, True, False, False, False, False, False],
            "error": [None] * 7 + ["ValueError: x"],
        }
    )
    row = nonogram.summarise(table).iloc[0]
    assert (row["pictures"], row["unique"], row["multiple"], row["limit"]) == (7, 4, 2, 1)
    assert (row["line_solvable"], row["errors"]) == (3, 1)
    assert row["unique_lo"] == pytest.approx(_wilson(4, 7)[0])
    assert row["unique_hi"] == pytest.approx(_wilson(5, 7)[1])
    assert (row["line_lo"], row["line_hi"]) == pytest.approx(_wilson(3, 7))


@pytest.mark.parametrize(
    "kwargs",
    [{"sizes": [(10,)]}, {"sizes": ["10x10"]}, {"densities": (1.5,)}, {"n_pictures": 2.5}],
)
def test_nonogram_bad_cases_are_refused(kwargs):
    with pytest.raises(PuzzleError):
        nonogram.cases(**kwargs)


# ------------------------------------------------------------------------------ sliding


def test_sliding_census_lengths_match_the_complete_3x3_table():
    from puzzlelab.sliding import distance_table

    table = sliding.census(12, (3, 3), progress=False)
    assert table["error"].isna().all() and (table["verdict"] == "optimal").all()
    bfs = distance_table((3, 3), sliding.korf_goal(3, 3))
    for row in table.itertuples():
        start = tuple(int(t) for t in row.start.split())
        assert row.length == bfs.distance(start)
        assert row.h0 <= row.length
    summary = sliding.summarise(table).iloc[0]
    assert summary["solved"] == 12 and summary["published_mean"] == 21.97
    lo, hi = stats.t.interval(0.95, 11, table["length"].mean(), stats.sem(table["length"]))
    assert (summary["mean_lo"], summary["mean_hi"]) == pytest.approx((lo, hi))


def test_sliding_random_boards_cover_both_parity_classes_of_permutations():
    boards = [sliding.case_board(c) for c in sliding.cases(40, (2, 3))]
    assert all(sorted(b) == list(range(6)) for b in boards)
    assert len(set(boards)) > 20  # 360 reachable boards: 40 draws rarely repeat much


def test_sliding_budget_limited_boards_are_counted_not_averaged():
    table = sliding.census(4, (3, 3), max_expanded=1, progress=False)
    summary = sliding.summarise(table).iloc[0]
    assert summary["limit"] == (table["verdict"] == "limit").sum() > 0
    assert summary["solved"] + summary["limit"] == 4
    assert table.loc[table["verdict"] == "limit", "length"].isna().all()


def test_sliding_length_distribution_sums_to_the_solved_boards():
    table = pd.DataFrame(
        {
            "rows": 3,
            "cols": 3,
            "verdict": ["optimal"] * 5 + ["limit"],
            "length": [20, 22, 22, 24, 22, None],
            "error": [None] * 6,
        }
    )
    dist = sliding.length_distribution(table)
    assert dist["length"].tolist() == [20, 22, 24] and dist["boards"].tolist() == [1, 3, 1]
    assert dist.loc[1, "share"] == 0.6
    assert (dist.loc[1, "share_lo"], dist.loc[1, "share_hi"]) == pytest.approx(_wilson(3, 5))


@pytest.mark.parametrize(
    "kwargs",
    [{"shape": (5, 5)}, {"shape": "4x4"}, {"n_boards": -1}, {"partition": 663}],
)
def test_sliding_bad_cases_are_refused(kwargs):
    with pytest.raises(PuzzleError):
        sliding.cases(**kwargs)


# ------------------------------------------------------------------------------ every census


@pytest.mark.parametrize(
    "census",
    [
        watersort,
        nonogram,
        sliding,
    ],
    ids=["watersort", "nonogram", "sliding"],
)
def test_the_summary_of_an_empty_census_is_empty_or_a_puzzle_error(census):
    from puzzlelab.batch import run_batch

    empty = run_batch(lambda case: {}, [], progress=False)
    try:
        summary = census.summarise(empty)
    except PuzzleError:
        return
    assert len(summary) == 0
