"""Reference data of the sliding study: the loaders' DataFrames and the published constants."""

from __future__ import annotations

from conftest import require_shared

from puzzlelab.sliding import data, manhattan


def test_korf100_loads_as_a_dataframe_of_boards():
    require_shared("reference", "sliding", "korf100.tsv")
    korf = data.korf100()
    assert len(korf) == 100 and list(korf.columns[:3]) == ["id", "optimal_length", "manhattan_h0"]
    first = korf.iloc[0]
    assert manhattan(first.state, data.KORF_GOAL, data.KORF_SHAPE) == first.manhattan_h0
    easiest = data.korf100(3)
    assert (
        easiest["optimal_length"].tolist() == sorted(easiest["optimal_length"])
        and len(easiest) == 3
    )
    assert easiest.iloc[0].id == 55 and easiest.iloc[0].optimal_length == 41


def test_korf24_loads_the_fifty_24_puzzles():
    require_shared("reference", "sliding", "korf24.tsv")
    korf = data.korf24()
    assert len(korf) == 50 and all(sorted(s) == list(data.KORF24_GOAL) for s in korf["state"])
    assert korf["optimal_length"].min() == 81 and data.korf24(1).iloc[0].id == 25


def test_published_constants_agree_with_the_distributions():
    require_shared("reference", "sliding", "distributions.json")
    dist = data.distributions()
    corner = dist.loc["3x3_corner"]
    assert corner.total_states == data.GAME_STATES and corner.max_depth == data.GAME_GODS_NUMBER
    assert round(corner["mean"], 2) == data.GAME_MEAN
    assert round(dist.loc["4x4"]["mean"], 2) == data.MEAN_15
    assert data.PUBLISHED_MEAN[(4, 4)] == data.MEAN_15 and data.KORF_GOAL == tuple(range(16))
