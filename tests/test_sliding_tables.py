"""Distance tables: exact agreement with published distributions and the write-up's figures."""

from __future__ import annotations

import os
import warnings
from fractions import Fraction

import numpy as np
import pytest
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import (
    CacheError,
    InvalidPuzzleError,
    PuzzleError,
    TooLargeError,
    UnsolvableError,
)
from puzzlelab.sliding import (
    DistanceTable,
    distance_counts_reference,
    distance_table,
    move_between,
    parse_board,
    solve,
    solved_state,
)
from puzzlelab.sliding.pdb import pattern_database
from puzzlelab.sliding.tables import build_table, table_path

GAME_GOAL = parse_board("789456B23")

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


@examples(60)
@given(st.integers(0, 181_439))
def test_every_path_is_legal_and_optimal(game_table, index):
    (state,) = game_table.states([index])
    path = game_table.path(state)
    assert path[0] == state and path[-1] == game_table.goal
    assert len(path) - 1 == game_table.distance(state)
    for a, b in zip(path, path[1:], strict=False):
        move_between(a, b, (3, 3))  # raises unless one legal move apart


@examples(30)
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


@pytest.fixture()
def cache_in(tmp_path, monkeypatch):
    """A private cache folder."""
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.mark.parametrize("shape", [(3, 1), (4, 1), (5, 1), (6, 1), (4, 2), (3, 2)])
def test_column_boards_match_the_dictionary_bfs(shape):
    table = distance_table(shape, cache=False)
    assert table.counts.tolist() == distance_counts_reference(shape).tolist()
    if shape[1] == 1:
        assert table.counts.tolist() == [1] * shape[0]  # the blank walks up the column


def test_column_board_distances_and_two_blanks():
    table = distance_table((5, 1), cache=False)
    assert table.distance((1, 2, 3, 0, 4)) == 1
    assert table.distance((0, 1, 2, 3, 4)) == 4
    goal = (1, 0, 2, 0)
    two = distance_table((4, 1), goal, cache=False)
    assert two.counts.tolist() == distance_counts_reference((4, 1), goal).tolist() == [1, 3, 1, 1]


def test_a_tampered_table_is_rebuilt_not_trusted(cache_in):
    shape, goal = (2, 3), solved_state((2, 3))
    first = distance_table(shape, goal, cache=True)
    path = table_path(shape, goal)
    raw = bytearray(path.read_bytes())
    raw[-3] ^= 0x01  # one changed byte in the distances
    path.write_bytes(bytes(raw))
    far = first.farthest(1)[0]
    with pytest.warns(RuntimeWarning, match="checksum"):
        sol = solve(far, goal, shape, algorithm="table")
    assert sol.length == first.distance(far) == 21
    with pytest.warns(RuntimeWarning, match="rebuilding"):
        again = distance_table(shape, goal, cache=True)  # rebuilt and rewritten
    assert np.array_equal(again.depths, first.depths)
    assert np.array_equal(distance_table(shape, goal, cache=True).depths, first.depths)


def test_states_refuses_indices_outside_the_table():
    table = distance_table((2, 3), cache=False)
    for bad in ([10**12], [-1], [table.depths.size], [10**30], [1.5], "0"):
        with pytest.raises(PuzzleError):
            table.states(bad)
    assert table.states([0, table.depths.size - 1])[0] == table.states(np.array([0]))[0]


def test_unusable_cache_folder_does_not_break_runs(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PUZZLELAB_CACHE", str(blocker / "cache"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert distance_table((2, 3), cache=False).n_states == 360
        assert solve("1 2 3 / 4 5 6 / 7 _ 8").length == 1
        assert distance_table((2, 3), cache=True).n_states == 360
        db = pattern_database((3, 3), solved_state((3, 3)), "4-4", progress=False)
        assert db.h(solved_state((3, 3))) == 0
    assert not os.path.exists(blocker / "cache")


def test_a_temporary_left_by_a_killed_writer_is_removed_on_the_next_write(cache_in):
    import time

    shape, goal = (2, 5), solved_state((2, 5))
    path = table_path(shape, goal)
    stale = path.parent / f".{path.name}.abc123"  # as an atomic write left it at kill -9
    stale.write_bytes(b"\0" * 1000)
    old = time.time() - 3600
    os.utime(stale, (old, old))
    young = path.parent / f".{path.name}.def456"  # a writer still at work: kept
    young.write_bytes(b"\0" * 10)
    distance_table(shape, goal, cache=True, progress=False)
    assert path.exists() and not stale.exists() and young.exists()


def test_cache_names_do_not_grow_with_tile_labels(cache_in):
    goal = (2**31 - 1, 2**31 - 2, 2**31 - 3, 2**31 - 4, 2**31 - 5, 0, 7, 8, 9, 10)
    table = distance_table((2, 5), goal, cache=True, progress=False)
    assert table.n_states == 1_814_400 and len(table_path((2, 5), goal).name) < 60
