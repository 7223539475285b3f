"""Distance tables: exact agreement with published distributions and the write-up's figures."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.errors import CacheError, InvalidPuzzleError, TooLargeError, UnsolvableError
from puzzlelab.sliding import (
    DistanceTable,
    distance_counts_reference,
    distance_table,
    move_between,
    parse_board,
    solved_state,
)
from puzzlelab.sliding.tables import build_table

GAME_GOAL = "789456B23"


@pytest.fixture(scope="module")
def game_table() -> DistanceTable:
    """The write-up's 3x3 game: tiles numbered like a keypad, blank bottom-left."""
    return distance_table((3, 3), GAME_GOAL, cache=False)


def goal_for(entry: dict) -> tuple[int, ...]:
    """Tiles 1..n-1 in row-major order with the blank where the reference puts it."""
    r, c = entry["goal"]["blank_cell_row_col"]
    return solved_state((entry["rows"], entry["cols"]), r * entry["cols"] + c)


SMALL = ["3x3_corner", "3x3_edge", "3x3_centre", "2x2", "2x3", "2x4", "2x5"]


@pytest.mark.parametrize("key", SMALL)
def test_published_distributions(distributions, key):
    entry = distributions[key]
    table = distance_table((entry["rows"], entry["cols"]), goal_for(entry), cache=False)
    assert table.counts.tolist() == entry["counts"]
    assert table.n_states == entry["total_states"]
    assert table.max_depth == entry["max_depth"]
    assert Fraction(int(np.dot(np.arange(len(table.counts)), table.counts)), table.n_states) == (
        Fraction(entry["mean_exact"])
    )


@pytest.mark.slow
def test_3x4_full_distribution(distributions):
    entry = distributions["3x4"]
    table = distance_table((3, 4), goal_for(entry), cache=False)
    assert table.counts.tolist() == entry["counts"]
    assert table.n_states == 239_500_800


@pytest.mark.slow
def test_2x6_published_prefix_and_maximum(distributions):
    entry = distributions["2x6"]
    table = distance_table((2, 6), goal_for(entry), cache=False)
    lo, hi = entry["counts_cover_depths"]
    assert table.counts[lo : hi + 1].tolist() == entry["counts"]
    assert table.max_depth == entry["max_depth"] == 80
    assert table.n_states == entry["total_states"]


def test_the_write_ups_3x3_figures(game_table):
    assert game_table.n_states == 181_440
    assert game_table.max_depth == 31
    assert game_table.mean == pytest.approx(21.972398589065257, abs=1e-12)
    assert game_table.distance("9B6358247") == 27
    sizes = {shape: distance_table(shape).n_states for shape in [(2, 2), (2, 3), (2, 4)]}
    assert sizes == {(2, 2): 12, (2, 3): 360, (2, 4): 20_160}


def test_table_agrees_with_dictionary_bfs(game_table):
    """The numba tables against the plain-Python dictionary BFS."""
    for shape, goal in [
        ((2, 3), None),
        ((3, 2), (0, 1, 2, 3, 4, 5)),
        ((2, 4), (1, 0, 2, 3, 4, 5, 6, 7)),
    ]:
        assert (
            distance_table(shape, goal).counts.tolist()
            == distance_counts_reference(shape, goal).tolist()
        )
    ref = distance_counts_reference((3, 3), parse_board(GAME_GOAL))
    assert game_table.counts.tolist() == ref.tolist()


@pytest.mark.parametrize(
    ("shape", "goal", "n_states"),
    [
        ((3, 3), "1 2 3 / 4 5 6 / 7 _ _", 181_440),  # the A* write-up's two-blank goal
        ((2, 3), "1 _ 2 / _ 3 4", 360),
        ((2, 2), "_ _ / 1 2", 12),
        ((3, 3), "1 _ 2 / _ 3 _ / 4 _ 5", 15_120),  # 9!/4!: every arrangement
        ((1, 5), "1 2 _ 3 4", 5),  # a strip: only the blank moves along the tiles
    ],
)
def test_several_blanks_and_strips(shape, goal, n_states):
    table = distance_table(shape, goal)
    assert table.n_states == n_states
    assert (
        table.counts.tolist() == distance_counts_reference(shape, parse_board(goal, shape)).tolist()
    )


def test_two_blank_goal_farthest_is_24():
    table = distance_table((3, 3), "1 2 3 / 4 5 6 / 7 _ _")
    assert table.max_depth == 24
    for state in table.farthest():
        assert table.distance(state) == 24 and len(table.path(state)) == 25


def test_farthest_states_of_the_game(game_table):
    far = game_table.farthest()
    assert len(far) == 2 and all(game_table.distance(s) == 31 for s in far)
    assert sum(len(game_table.states_at(d, None)) for d in range(32)) == 181_440


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 181_439))
def test_every_path_is_legal_and_optimal(game_table, index):
    (state,) = game_table.states([index])
    path = game_table.path(state)
    assert path[0] == state and path[-1] == game_table.goal
    assert len(path) - 1 == game_table.distance(state)
    for a, b in zip(path, path[1:], strict=False):
        move_between(a, b, (3, 3))  # raises unless one legal move apart


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([((2, 3), 2), ((3, 3), 2), ((2, 4), 3)]), st.randoms(use_true_random=False))
def test_paths_with_several_blanks(board, rnd):
    shape, k = board
    n = shape[0] * shape[1]
    goal = tuple([0] * k + list(range(1, n - k + 1)))
    table = distance_table(shape, goal)
    state = list(goal)
    rnd.shuffle(state)
    path = table.path(tuple(state))
    assert len(path) - 1 == table.distance(tuple(state)) and path[-1] == goal


def test_unsolvable_and_oversized_requests(game_table):
    with pytest.raises(UnsolvableError, match="parity"):
        game_table.distance("879456B23")
    with pytest.raises(TooLargeError, match="12 cells"):
        distance_table((4, 4))
    with pytest.raises(InvalidPuzzleError, match="missing from the board"):
        game_table.distance("789456B21")
    with pytest.raises(InvalidPuzzleError, match="single tile"):
        distance_table((1, 2))
    with pytest.raises(InvalidPuzzleError, match="at least two cells"):
        distance_table((1, 1), (0,))


def test_save_and_load_round_trip(tmp_path, game_table):
    path = game_table.save(tmp_path / "t.bin")
    back = DistanceTable.load(path, (3, 3), GAME_GOAL)
    assert back.counts.tolist() == game_table.counts.tolist() and back.goal == game_table.goal
    assert back.distance("9B6358247") == 27
    raw = bytearray(path.read_bytes())
    raw[-5] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(CacheError, match="checksum"):
        DistanceTable.load(path, (3, 3), GAME_GOAL)
    path.write_bytes(bytes(raw[:-10]))
    with pytest.raises(CacheError, match="truncated"):
        DistanceTable.load(path, (3, 3), GAME_GOAL)
    game_table.save(path)
    with pytest.raises(CacheError, match="key"):  # a file written for another goal
        DistanceTable.load(path, (3, 3), "B89456723")


def test_cache_is_used_and_versioned(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path))
    first = distance_table((2, 3), cache=True)
    files = list((tmp_path / "tables").iterdir())
    assert len(files) == 1 and "-v2-" in files[0].name
    again = distance_table((2, 3), cache=True)
    assert again.counts.tolist() == first.counts.tolist()


def test_queue_scan_and_threaded_searches_agree(monkeypatch):
    """The three BFS kernels (queue, serial scan, threaded scan) give the same table."""
    import puzzlelab.sliding.tables as tables

    for goal in [solved_state((3, 3)), parse_board("1 2 3 / 4 5 6 / 7 _ _")]:
        queued = build_table((3, 3), goal)
        monkeypatch.setattr(tables, "QUEUE_BELOW", 0)
        monkeypatch.setattr(tables, "PARALLEL_FROM", 0)
        serial = build_table((3, 3), goal, threads=1)
        threaded = build_table((3, 3), goal, threads=2)
        monkeypatch.undo()
        assert np.array_equal(serial.depths, threaded.depths)
        assert np.array_equal(serial.depths, queued.depths)
