"""Regression tests for the sliding-puzzle items of issues 10 (bad input) and 11 (one interface).

Each test fails on the code before the fix; expected values come from independent sources
(the dictionary BFS, hand-counted boards, the 3x3 distance table), never from the code tested.
"""

from __future__ import annotations

import math
import os
import warnings

import numpy as np
import pytest

from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError
from puzzlelab.sliding import (
    distance_counts_reference,
    distance_table,
    format_board,
    is_solution,
    is_solvable,
    parse_board,
    read_board,
    solve,
    solved_state,
)
from puzzlelab.sliding.pdb import build_pattern_table, ida_star, pattern_database, pdb_path
from puzzlelab.sliding.tables import table_path

GAME_GOAL = parse_board("789456B23")


@pytest.fixture()
def cache_in(tmp_path, monkeypatch):
    """A private cache folder."""
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


# ---------------------------------------------------------------- issue 10, item 1: N x 1


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


# -------------------------------------------------------- item 2: the shape of rows and arrays


def test_solve_uses_the_shape_of_arrays_and_nested_lists():
    board = np.array(solved_state((2, 8))).reshape(2, 8)
    board[1, 6], board[1, 7] = 0, 15  # one move from the 2x8 goal
    sol = solve(board, algorithm="astar", heuristic="manhattan")
    assert sol.shape == (2, 8) and sol.verdict == "optimal" and sol.length == 1
    sol = solve([[1, 2, 3], [4, 0, 5]])
    assert sol.shape == (2, 3) and sol.length == 1
    sol = solve(np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 0, 11]]), algorithm="astar")
    assert sol.shape == (3, 4) and sol.length == 1
    assert read_board([[1, 2], [3, 0]]) == ((1, 2, 3, 0), (2, 2))
    assert read_board("1 2 3 / 4 5 _") == ((1, 2, 3, 4, 5, 0), (2, 3))
    with pytest.raises(ParseError, match="shape"):
        read_board(np.zeros((2, 8), dtype=int), (4, 4))


# ------------------------------------------------------- item 3: any tile labels in the databases


def test_pdb_idastar_with_the_game_goal_and_large_labels():
    table = distance_table((3, 3), GAME_GOAL, cache=False)
    board = parse_board("9B6358247")
    sol = solve(board, GAME_GOAL, (3, 3), algorithm="idastar", heuristic="pdb", progress=False)
    assert sol.verdict == "optimal" and sol.length == table.distance(board) == 27
    assert is_solution(board, sol.moves, GAME_GOAL, (3, 3))
    big = {t: 10 * t for t in range(2, 10)}  # labels 20..90 on nine cells
    goal10 = tuple(big.get(t, 0) for t in GAME_GOAL)
    board10 = tuple(big.get(t, 0) for t in board)
    for heuristic in ("pdb", "manhattan", "pdb-noreflect"):
        sol = solve(board10, goal10, (3, 3), "idastar", heuristic, progress=False)
        assert sol.length == 27 and is_solution(board10, sol.moves, goal10, (3, 3)), heuristic


# ------------------------------------------------------------- item 4: every cache read verified


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


def test_a_tampered_pattern_database_is_rebuilt(cache_in):
    shape, goal = (3, 3), solved_state((3, 3))
    db = pattern_database(shape, goal, "4-4", progress=False)
    path = pdb_path(shape, goal, db.patterns[0])
    raw = bytearray(path.read_bytes())
    raw[-100] = 99  # a value far above the truth would make IDA* miss the optimum
    path.write_bytes(bytes(raw))
    with pytest.warns(RuntimeWarning, match="checksum"):
        again = pattern_database(shape, goal, "4-4", progress=False)
    assert np.array_equal(again.tables[0], build_pattern_table(shape, goal, db.patterns[0]))


# ----------------------------------------------------------------- item 6: is_solvable


def test_is_solvable_equal_boards_and_shape_checks():
    assert is_solvable((1, 0, 2, 0), (1, 0, 2, 0), (2, 2))
    assert is_solvable((0, 1, 2, 0, 3, 0), (0, 1, 2, 0, 3, 0), (2, 3))
    with pytest.raises(InvalidPuzzleError, match="more than once"):
        is_solvable((1, 1, 2, 0), (1, 1, 2, 0), (2, 2))
    with pytest.raises(ParseError, match="3x3"):
        is_solvable((1, 2, 3, 0), (1, 2, 3, 0), (3, 3))
    with pytest.raises(InvalidPuzzleError, match="no blank"):
        is_solvable((1, 2, 3, 4), (1, 2, 3, 4), (2, 2))


# ----------------------------------------------------------- item 8: max_expanded=0 everywhere


def test_zero_budget_stops_at_once_on_the_numba_path():
    far = distance_table((3, 3), cache=False).farthest(1)[0]
    for algorithm, heuristic in [("idastar", "pdb"), ("idastar", "manhattan"), ("astar", "auto")]:
        sol = solve(far, algorithm=algorithm, heuristic=heuristic, max_expanded=0, progress=False)
        assert sol.verdict == "limit" and sol.expanded == 0 and sol.length is None, heuristic
    db = pattern_database((3, 3), solved_state((3, 3)), "4-4", cache=False, progress=False)
    res = ida_star(db, far, max_seconds=0)
    assert res.verdict == "limit" and "max_seconds" in res.note


# -------------------------------------------------------------- item 9: states() index checks


def test_states_refuses_indices_outside_the_table():
    table = distance_table((2, 3), cache=False)
    for bad in ([10**12], [-1], [table.depths.size], [10**30], [1.5], "0"):
        with pytest.raises(PuzzleError):
            table.states(bad)
    assert table.states([0, table.depths.size - 1])[0] == table.states(np.array([0]))[0]


# --------------------------------------------------------------- item 10: a deep IDA* goal


def test_idastar_reaches_a_goal_more_than_a_thousand_moves_deep():
    n = 1201
    goal = tuple(range(1, n)) + (0,)
    start = (0, *range(1, n))  # every tile one step right of home: 1200 moves
    sol = solve(start, goal, (1, n), algorithm="idastar", heuristic="manhattan")
    assert sol.verdict == "optimal" and sol.length == n - 1
    assert is_solution(start, sol.moves, goal, (1, n))


# ------------------------------------------------------------ item 16: unusable cache folder


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


# ------------------------------------------------------------------ raw exceptions -> PuzzleError


@pytest.mark.parametrize(
    "call",
    [
        lambda: parse_board("12345678²"),
        lambda: parse_board([1, 2, math.inf, 0]),
        lambda: parse_board([1, 2, math.nan, 0]),
        lambda: parse_board([1, 2, 3.0, 0]),
        lambda: parse_board(np.array([1.0, 2, 3, 0])),
        lambda: parse_board("1230", shape=("a", 2)),
        lambda: parse_board("1230", shape=(4,)),
        lambda: parse_board("1230", shape=(2.0, 2)),
        lambda: parse_board([[1, 2], [3]]),
        lambda: parse_board(None),
        lambda: is_solvable((1, 2, 3, 4), (1, 2, 3, 4), (2, 2)),
        lambda: format_board(()),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", heuristic=None),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", algorithm="weighted_astar", weight="2"),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", heuristic="pdbfoo"),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", heuristic="pdb:4-x"),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", max_expanded=1.5),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", max_seconds=math.nan),
        lambda: distance_table((2.0, 3)),
        lambda: distance_table((2, 3), threads=0),
        lambda: pattern_database((3, 3), solved_state((3, 3)), "0-8", cache=False),
    ],
)
def test_bad_input_gives_a_puzzle_error(call):
    with pytest.raises(PuzzleError):
        call()


def test_float_tiles_are_refused_not_truncated():
    with pytest.raises(ParseError, match="whole number"):
        parse_board([1.7, 2, 3, 0])
    assert parse_board([np.int64(1), np.int32(2), 3, 0]) == (1, 2, 3, 0)


# ------------------------------------------------------------------------ issue 11


def test_solution_is_a_result_with_the_shared_stats():
    from puzzlelab.results import STATS_KEYS, Result

    sol = solve("1 2 3 / 4 5 6 / 7 _ 8")
    assert isinstance(sol, Result) and tuple(sol.stats()) == STATS_KEYS
    assert sol.states[0] == parse_board("1 2 3 / 4 5 6 / 7 _ 8") and sol.moves == [(8, "left")]


def test_is_solution_never_raises_on_bad_moves():
    start = parse_board("1 2 3 / 4 5 6 / 7 _ 8")
    assert is_solution(start, [(8, "left")])
    bad = [[(8, "right")], [(9, "left")], [(0, "up")], [("8", "left")], [(8,)], None, 42]
    bad += [[(8, "sideways")], [[8, "left", 1]], [(7, "right"), (7, "left")], [(8.0, "left")]]
    for moves in bad:
        assert is_solution(start, moves) is False, moves
    assert not is_solution(parse_board("1 2 _ / 3 4 5"), [(3, "left")], shape=(2, 3))  # no wrap
