"""The A* write-up's method: its run reproduced, and its limits (parity, budget) honoured."""

from __future__ import annotations

from puzzlelab.results import Budget
from puzzlelab.sliding import (
    Solution,
    distance_table,
    is_solution,
    manhattan,
    parse_board,
    solve,
    solve_writeup,
)
from puzzlelab.sliding.writeup import WRITEUP_GOAL, WRITEUP_START, printout, writeup_h


def test_writeup_run_reproduced():
    run = solve_writeup()
    table = distance_table((3, 3), WRITEUP_GOAL)
    assert isinstance(run, Solution) and run.method == "writeup" and run.verify()
    assert run.length == 11 == table.distance(WRITEUP_START)
    assert run.states[0] == WRITEUP_START and run.states[-1] == WRITEUP_GOAL
    assert is_solution(WRITEUP_START, run.moves, WRITEUP_GOAL, (3, 3))
    lines = printout(run)
    assert lines[0] == f"{list(WRITEUP_START)} h=7 moves: 0"
    assert lines[-2] == f"{list(WRITEUP_GOAL)} h=0 moves: 11"
    assert all(
        f"h={manhattan(s, WRITEUP_GOAL, (3, 3))} " in line
        for s, line in zip(run.states, lines, strict=False)
    )
    assert run.max_frontier > 0 and lines[-1] == f"Max queue length: {run.max_frontier}"
    assert writeup_h(WRITEUP_START, WRITEUP_GOAL) == 7
    ours = solve(WRITEUP_START, WRITEUP_GOAL, algorithm="astar", heuristic="manhattan")
    assert ours.length == 11


def test_unsolvable_start_is_answered_at_once_by_parity():
    start, goal = parse_board("123456870"), parse_board("123456780")
    run = solve_writeup(start, goal, (3, 3), max_expanded=10_000)
    assert run.verdict == "unsolvable" and "parity" in run.note
    assert run.expanded == 0 and run.length is None and run.verify()


def test_writeup_honours_its_budget():
    far = distance_table((3, 3)).farthest(1)[0]
    run = solve_writeup(far, parse_board("123456780"), (3, 3), max_expanded=50)
    assert run.verdict == "limit" and run.expanded == 50 and "max_expanded" in run.note
    spent = Budget(max_seconds=0)
    run = solve_writeup(far, parse_board("123456780"), (3, 3), budget=spent)
    assert run.verdict == "limit" and run.expanded == 0
