"""The A* write-up's 8-puzzle solver, kept faithfully as a baseline.

The write-up solves `4 3 _ / 5 1 6 / 7 2 _` towards the two-blank goal `1 2 3 / 4 5 6 / 7 _ _`.
Its queue holds (g + h, board, (g, h, parent)) tuples, so ties go to the smaller board
(lexicographically); successors are listed in sorted order; the closed set and the
"already queued?" test are Python lists scanned from the start, and a board already queued
is never updated. It prints each board on the path with its h and move number, then the
largest queue length. `solve_writeup` repeats that logic with our own code (tuples instead
of lists) and returns a `Solution` like every sliding solver; `printout` gives its lines.
It only suits tiny boards: the start is checked for solvability first (the write-up would
scan every reachable board, for ever at its list speed) and a budget stops it.
"""

from __future__ import annotations

import heapq

from ..results import Budget, as_budget
from .board import (
    Shape,
    State,
    check_same_tiles,
    check_shape,
    manhattan_checked,
    next_boards,
    parse_board,
    read_board,
    solvable_checked,
    to_text,
)
from .solve import Solution, _solution

WRITEUP_START = parse_board("4 3 _ / 5 1 6 / 7 2 _")
WRITEUP_GOAL = parse_board("1 2 3 / 4 5 6 / 7 _ _")
WRITEUP_SHAPE: Shape = (3, 3)


def writeup_h(state: State, goal: State, shape: Shape = WRITEUP_SHAPE) -> int:
    """The write-up's h_sum: Manhattan distance of the tiles, blanks counted as 0."""
    return manhattan_checked(state, goal, shape)


def writeup_successors(state: State, shape: Shape = WRITEUP_SHAPE) -> list[State]:
    """Every board one slide away, sorted (as the write-up's get_succ returns them)."""
    return sorted(nxt for _, nxt in next_boards(state, shape))


def solve_writeup(
    start: State | str = WRITEUP_START,
    goal: State | str = WRITEUP_GOAL,
    shape: Shape = WRITEUP_SHAPE,
    *,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    budget: Budget | None = None,
) -> Solution:
    """A* exactly as the write-up runs it (list scans, no re-opening, ties by board).

    Parameters
    ----------
    start, goal : board
        Any form `read_board` reads (default: the write-up's board and two-blank goal).
    shape : (rows, cols)
        The board's shape.
    max_expanded, max_seconds, budget : optional
        The budget (None unlimited, 0 = stop at once): verdict ``limit`` when it runs out.

    Returns
    -------
    Solution
        Method ``writeup``; verdict ``feasible`` with the path it finds (the write-up's A*
        never re-opens a board, so optimality is not guaranteed), ``unsolvable`` (parity,
        at once, no search) or ``limit``. `max_frontier` is its largest queue.

    Raises
    ------
    ParseError, InvalidPuzzleError
        Unreadable boards or boards with different tiles.
    """
    limits = as_budget(budget, max_expanded, max_seconds)
    shape = check_shape(shape)
    start = read_board(start, shape)[0]
    goal = read_board(goal, shape)[0]
    check_same_tiles(start, goal)
    head = {"start": start, "goal": goal, "shape": shape, "heuristic": "manhattan"}
    if not solvable_checked(start, goal, shape):
        note = f"{to_text(start)} cannot reach {to_text(goal)}: other parity class"
        return Solution(method="writeup", verdict="unsolvable", note=note, **head)
    h0 = writeup_h(start, goal, shape)
    queue = [(h0, start, (0, h0, -1))]
    track = {0: (start, -1)}  # entry number -> (board, parent entry number)
    visited: list[State] = []
    next_id, max_len, expanded, generated = 1, 0, 0, 0
    while queue:
        _, board, (g, _, pi) = heapq.heappop(queue)
        if board == goal:
            break
        if limits.exhausted(expanded):
            return Solution(
                method="writeup", verdict="limit", **head, note=limits.why(), expanded=expanded,
                generated=generated, max_frontier=max_len, seconds=limits.elapsed(),
            )  # fmt: skip
        if board not in visited:
            visited.append(board)
        expanded += 1
        parent = next(k for k, (s, _) in track.items() if s == board)  # first entry of board
        for succ in writeup_successors(board, shape):
            generated += 1
            if succ not in visited and all(item[1] != succ for item in queue):
                h = writeup_h(succ, goal, shape)
                heapq.heappush(queue, (g + 1 + h, succ, (g + 1, h, pi + 1)))
                max_len = max(max_len, len(queue))
                track[next_id] = (succ, parent)
                next_id += 1
    else:  # cannot happen for a solvable start (the goal is reachable): said, not hidden
        return Solution(method="writeup", verdict="unsolvable", note="queue ran empty", **head)
    last = [k for k, (s, _) in track.items() if s == goal][-1]  # the write-up keeps the last
    path = []
    while last != -1:
        path.append(track[last][0])
        last = track[last][1]
    path.reverse()
    sol = _solution(head, "writeup", "feasible", path, limits)
    sol.expanded, sol.generated, sol.max_frontier = expanded, generated, max_len
    return sol


def printout(result: Solution) -> list[str]:
    """The write-up's printout: each board on the path with h and move number, the queue."""
    out = [
        f"{list(s)} h={writeup_h(s, result.goal, result.shape)} moves: {i}"
        for i, s in enumerate(result.states)
    ]
    out.append(f"Max queue length: {result.max_frontier}")
    return out
