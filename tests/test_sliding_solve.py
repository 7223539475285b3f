"""solve(): every algorithm and heuristic against the distance tables; the write-up's A*."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError, TooLargeError
from puzzlelab.results import STATS_KEYS
from puzzlelab.sliding import (
    distance_table,
    is_solution,
    manhattan,
    neighbors,
    parse_board,
    read_board,
    solve,
    solved_state,
)
from puzzlelab.sliding.heuristics import (
    line_conflicts,
    linear_conflict,
    longest_increasing,
    misplaced,
    pairwise_linear_conflict,
)
from puzzlelab.sliding.pdb import ida_star, pattern_database
from puzzlelab.sliding.writeup import WRITEUP_GOAL

solve_mod = importlib.import_module("puzzlelab.sliding.solve")  # the package exports solve()

GOALS = {(3, 3): solved_state((3, 3)), (2, 4): solved_state((2, 4))}
METHODS = [
    ("astar", "misplaced"),
    ("astar", "manhattan"),
    ("astar", "linear_conflict"),
    ("astar", "pdb"),
    ("idastar", "manhattan"),
    ("idastar", "pdb"),
    ("idastar", "linear_conflict"),
    ("bfs", "auto"),
    ("table", "auto"),
    ("auto", "auto"),
]


@pytest.fixture(scope="module")
def tables():
    """Distance tables of the 3x3 and 2x4 boards (blank last)."""
    return {shape: distance_table(shape, goal) for shape, goal in GOALS.items()}


def sample(table, n: int, seed: int, max_depth: int = 99) -> list:
    """n seeded random reachable boards (optionally not deeper than max_depth)."""
    idx = np.flatnonzero(table.depths <= max_depth)
    rng = np.random.default_rng(seed)
    return table.states(rng.choice(idx, n, replace=False))


@pytest.mark.parametrize("shape", list(GOALS))
@pytest.mark.parametrize(("algorithm", "heuristic"), METHODS)
def test_every_method_finds_the_table_length(tables, shape, algorithm, heuristic):
    table, goal = tables[shape], GOALS[shape]
    slow = heuristic in ("misplaced", "linear_conflict") and algorithm == "idastar"
    boards = sample(table, 4, seed=11, max_depth=20 if slow else 99)
    for board in boards:
        sol = solve(board, goal, shape, algorithm, heuristic, progress=False)
        assert sol.verdict == "optimal"
        assert sol.length == table.distance(board)
        assert is_solution(board, sol.moves, goal, shape)
        assert len(sol.moves) == sol.length
        for (tile, _), a, b in zip(sol.moves, sol.states, sol.states[1:], strict=False):
            assert dict(neighbors(a, shape))[(tile, _)] == b


@pytest.mark.parametrize("name", ["misplaced", "manhattan", "linear_conflict"])
def test_heuristics_admissible_on_every_3x3_board(tables, name):
    table, goal, shape = tables[3, 3], GOALS[3, 3], (3, 3)
    f = {"misplaced": misplaced, "manhattan": manhattan, "linear_conflict": linear_conflict}[name]
    boards = table.states(np.arange(table.depths.size))
    h = np.array([f(b, goal, shape) for b in boards])
    assert (h <= table.depths).all()
    assert h[table.depths == 0].tolist() == [0]


def test_pairwise_conflict_rule_overestimates(tables):
    # "+2 per conflicting pair" breaks admissibility on some 3x3 boards; the line-wise form not
    table, goal, shape = tables[3, 3], GOALS[3, 3], (3, 3)
    boards = table.states(np.flatnonzero(table.depths >= 26))  # _87/654/321 is at 28
    over = [b for b in boards if pairwise_linear_conflict(b, goal, shape) > table.distance(b)]
    assert over
    assert all(linear_conflict(b, goal, shape) <= table.distance(b) for b in over)


def test_line_conflict_examples():
    shape, goal = (3, 3), solved_state((3, 3))
    assert line_conflicts(parse_board("321456780"), goal, shape) == 4  # two tiles leave row 1
    assert pairwise_linear_conflict(parse_board("321456780"), goal, shape) == 4 + 6
    assert line_conflicts(goal, goal, shape) == 0
    assert longest_increasing([3, 1, 2, 0, 4]) == 3


@examples(100)
@given(st.permutations(range(9)))
def test_heuristic_ordering(perm):
    shape, goal = (3, 3), solved_state((3, 3))
    s = tuple(perm)
    assert 0 <= misplaced(s, goal, shape) <= manhattan(s, goal, shape)
    assert manhattan(s, goal, shape) <= linear_conflict(s, goal, shape)


def test_two_blank_goal_with_manhattan():
    table = distance_table((3, 3), WRITEUP_GOAL)
    for board in sample(table, 6, seed=2):
        sol = solve(board, WRITEUP_GOAL, (3, 3), "astar", "manhattan")
        assert sol.length == table.distance(board)
        assert is_solution(board, sol.moves, WRITEUP_GOAL, (3, 3))


def test_unsolvable_is_reported_before_any_search(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("a search started on an unsolvable board")

    for name in ("astar", "bfs", "idastar", "run_ida", "weighted_astar", "greedy"):
        monkeypatch.setattr(solve_mod, name, boom)
    for algorithm in ("auto", "astar", "idastar", "bfs", "greedy"):
        sol = solve("1 2 3 / 4 5 6 / 8 7 _", algorithm=algorithm)
        assert sol.verdict == "unsolvable" and "parity" in sol.note
        assert sol.length is None and sol.moves == [] and not sol.solved
    korf_swapped = (0, 2, 1, *range(3, 16))
    sol = solve(korf_swapped, tuple(range(16)), (4, 4))
    assert sol.verdict == "unsolvable" and sol.length is None


def test_five_by_five_explains_limits():
    goal = solved_state((5, 5))
    with pytest.raises(TooLargeError, match="weighted_astar"):
        solve(goal, goal, (5, 5))
    with pytest.raises(TooLargeError, match="16"):
        solve(goal, goal, (5, 5), algorithm="idastar")
    # a lightly scrambled 24-puzzle: the suggested non-optimal search works
    board, rng = goal, np.random.default_rng(0)
    for _ in range(12):
        options = neighbors(board, (5, 5))
        board = options[rng.integers(len(options))][1]
    sol = solve(board, goal, (5, 5), algorithm="weighted_astar", heuristic="linear_conflict")
    assert sol.verdict == "feasible" and is_solution(board, sol.moves, goal, (5, 5))


def test_bad_requests():
    with pytest.raises(InvalidPuzzleError, match="heuristic"):
        solve("1 2 3 / 4 5 6 / 7 _ 8", heuristic="euclid")
    with pytest.raises(PuzzleError, match="algorithm"):
        solve("1 2 3 / 4 5 6 / 7 _ 8", algorithm="dfs")
    with pytest.raises(InvalidPuzzleError, match="different tiles"):
        solve("1 2 3 / 4 5 6 / 7 _ 9")


def test_limit_verdict_and_auto_choices(tables):
    far = tables[3, 3].farthest(1)[0]
    sol = solve(far, algorithm="astar", heuristic="misplaced", max_expanded=10)
    assert sol.verdict == "limit" and sol.length is None and not sol.solved
    assert solve(far, algorithm="auto").heuristic == "linear_conflict"
    assert set(sol.stats()) == set(STATS_KEYS) and sol.row()["heuristic"] == "misplaced"
    assert solve("1 2 3 / 4 5 6 / 7 8 _").length == 0


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


def test_zero_budget_stops_at_once_on_the_numba_path():
    far = distance_table((3, 3), cache=False).farthest(1)[0]
    for algorithm, heuristic in [("idastar", "pdb"), ("idastar", "manhattan"), ("astar", "auto")]:
        sol = solve(far, algorithm=algorithm, heuristic=heuristic, max_expanded=0, progress=False)
        assert sol.verdict == "limit" and sol.expanded == 0 and sol.length is None, heuristic
    db = pattern_database((3, 3), solved_state((3, 3)), "4-4", cache=False, progress=False)
    res = ida_star(db, far, max_seconds=0)
    assert res.verdict == "limit" and "max_seconds" in res.note


def test_idastar_reaches_a_goal_more_than_a_thousand_moves_deep():
    n = 1201
    goal = tuple(range(1, n)) + (0,)
    start = (0, *range(1, n))  # every tile one step right of home: 1200 moves
    sol = solve(start, goal, (1, n), algorithm="idastar", heuristic="manhattan")
    assert sol.verdict == "optimal" and sol.length == n - 1
    assert is_solution(start, sol.moves, goal, (1, n))


def test_solution_is_a_result_with_the_shared_stats():
    from puzzlelab.results import STATS_KEYS, Result

    sol = solve("1 2 3 / 4 5 6 / 7 _ 8")
    assert isinstance(sol, Result) and tuple(sol.stats()) == STATS_KEYS
    assert sol.states[0] == parse_board("1 2 3 / 4 5 6 / 7 _ 8") and sol.moves == [(8, "left")]


def test_strips_of_any_length_are_solved_directly_and_optimally():
    n = 5000
    goal = (*range(1, n), 0)
    start = tuple(list(range(1, 1234)) + [0] + list(range(1234, n)))  # blank 3,765 cells off
    sol = solve(start, goal, (1, n), max_expanded=1)  # no search: the budget is not needed
    assert sol.verdict == "optimal" and sol.method == "strip" and sol.length == n - 1 - 1233
    assert sol.verify() and sol.expanded == 0
    column = solve((1, 0, 2, 0, 3), (0, 1, 0, 2, 3), (5, 1))
    assert column.length == 2 and column.verify() and {d for _, d in column.moves} == {"down"}


def test_strip_lengths_match_the_distance_table():
    for shape, goal in [((1, 6), (0, 1, 0, 2, 3, 0)), ((6, 1), (1, 2, 0, 3, 4, 5))]:
        table = distance_table(shape, goal, cache=False)
        reachable = np.flatnonzero(table.depths < 255)
        for board, depth in zip(table.states(reachable), table.depths[reachable], strict=True):
            sol = solve(board, goal, shape)
            assert sol.length == depth and sol.verify(), board


def test_one_budget_runs_through_every_layer():
    from puzzlelab.results import Budget

    far = distance_table((3, 3), cache=False).farthest(1)[0]
    spent = Budget(max_seconds=0)
    for algorithm, heuristic in [("astar", "manhattan"), ("idastar", "pdb"), ("bfs", "auto")]:
        sol = solve(far, algorithm=algorithm, heuristic=heuristic, budget=spent, progress=False)
        assert sol.verdict == "limit" and sol.expanded == 0, algorithm
    with pytest.raises(PuzzleError, match="not both"):
        solve(far, budget=Budget(), max_expanded=5)


def test_tile_labels_near_two_to_the_31_solve_and_cache(tmp_path, monkeypatch):
    from puzzlelab.sliding.pdb import pdb_path

    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path / "cache"))
    big = 2**31 - 20
    goal = (*range(big, big + 8), 0)
    start = list(goal)
    start[7], start[8] = 0, start[7]  # one move from the goal
    sol = solve(tuple(start), goal, (3, 3), "idastar", "pdb:4-4", progress=False)
    assert sol.verdict == "optimal" and sol.length == 1 and sol.verify()
    names = [p.name for p in (tmp_path / "cache").rglob("*.bin")]
    assert len(names) == 2 and all(len(name) < 80 for name in names)
    goal16 = (*range(big, big + 15), 0)  # the 7-7-1 split of a 4x4 goal: names stay short
    assert len(pdb_path((4, 4), goal16, goal16[:7]).name) < 80
