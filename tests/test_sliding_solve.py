"""solve(): every algorithm and heuristic against the distance tables; the write-up's A*."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.errors import InvalidPuzzleError, PuzzleError, TooLargeError
from puzzlelab.results import STATS_KEYS
from puzzlelab.sliding import (
    distance_table,
    manhattan,
    move_between,
    neighbors,
    parse_board,
    solved_state,
)
from puzzlelab.sliding.heuristics import (
    line_conflicts,
    linear_conflict,
    longest_increasing,
    misplaced,
    pairwise_linear_conflict,
)
from puzzlelab.sliding.solve import is_solution, solve
from puzzlelab.sliding.writeup import WRITEUP_GOAL, WRITEUP_START, writeup_astar, writeup_h

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
    boards = table.states(np.flatnonzero(table.depths >= 20))
    over = [b for b in boards if pairwise_linear_conflict(b, goal, shape) > table.distance(b)]
    assert over
    assert all(linear_conflict(b, goal, shape) <= table.distance(b) for b in over)


def test_line_conflict_examples():
    shape, goal = (3, 3), solved_state((3, 3))
    assert line_conflicts(parse_board("321456780"), goal, shape) == 4  # two tiles leave row 1
    assert pairwise_linear_conflict(parse_board("321456780"), goal, shape) == 4 + 6
    assert line_conflicts(goal, goal, shape) == 0
    assert longest_increasing([3, 1, 2, 0, 4]) == 3


@settings(max_examples=100, deadline=None)
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


def test_writeup_run_reproduced():
    run = writeup_astar()
    table = distance_table((3, 3), WRITEUP_GOAL)
    assert run.length == 11 == table.distance(WRITEUP_START)
    assert run.steps[0] == (WRITEUP_START, 7, 0)
    assert run.steps[-1] == (WRITEUP_GOAL, 0, 11)
    assert [m for _, _, m in run.steps] == list(range(12))
    assert all(h == manhattan(s, WRITEUP_GOAL, (3, 3)) for s, h, _ in run.steps)
    path = [s for s, _, _ in run.steps]
    moves = [move_between(a, b, (3, 3)) for a, b in zip(path, path[1:], strict=False)]
    assert is_solution(WRITEUP_START, moves, WRITEUP_GOAL, (3, 3))
    assert run.max_queue > 0 and run.lines()[-1] == f"Max queue length: {run.max_queue}"
    assert writeup_h(WRITEUP_START, WRITEUP_GOAL) == 7
    ours = solve(WRITEUP_START, WRITEUP_GOAL, algorithm="astar", heuristic="manhattan")
    assert ours.length == 11


def test_unsolvable_is_reported_before_any_search(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("a search started on an unsolvable board")

    for name in ("astar", "bfs", "idastar", "ida_star", "weighted_astar", "greedy", "database"):
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
