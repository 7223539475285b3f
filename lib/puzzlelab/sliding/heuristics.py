"""Lower bounds on the moves left: misplaced tiles, Manhattan distance, linear conflict.

All three ignore blanks (a board may have several), so they work for any goal. They are
the slow, obvious references; the 4x4 search uses pattern databases (`pdb`) in numba.

Linear conflict, the admissible line-wise form: in a row, look at the tiles whose goal is
in that row. If their goal columns are not in increasing order, some of them must leave
the row and come back, two vertical moves each beyond their Manhattan distance. The
fewest tiles that must leave is (tiles in the line) - (longest increasing run of goal
columns), so the row adds 2 x that; columns likewise with vertical/horizontal swapped.
Rows count only vertical detours and columns only horizontal ones, so the sums add.
The popular shortcut "+2 for every conflicting pair" overestimates: in a row reading
3 2 1 all three pairs conflict (+6), yet moving 3 and 1 out of the way (+4) suffices.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable

from ..errors import InvalidPuzzleError
from .board import Shape, State, _board_pair, manhattan_checked

Heuristic = Callable[[State], int]


def misplaced(state: State, goal: State, shape: Shape) -> int:
    """Tiles (blanks excluded) not on their goal cell."""
    return misplaced_checked(*_board_pair(state, goal, shape))


def misplaced_checked(state: State, goal: State, shape: Shape) -> int:
    """`misplaced` for boards already read and checked."""
    return sum(1 for t, g in zip(state, goal, strict=True) if t and t != g)


def _goal_cells(goal: State) -> dict[int, int]:
    """Goal cell of every tile."""
    return {t: i for i, t in enumerate(goal) if t}


def longest_increasing(seq: list[int]) -> int:
    """Length of the longest strictly increasing subsequence (patience sorting)."""
    tails: list[int] = []
    for v in seq:
        i = bisect_left(tails, v)
        if i == len(tails):
            tails.append(v)
        else:
            tails[i] = v
    return len(tails)


def goal_lines(state: State, goal: State, shape: Shape) -> list[list[int]]:
    """Per row, then per column: the goal positions along the line of the tiles already in
    their goal line, in reading order (goal columns for rows, goal rows for columns)."""
    rows, cols = shape
    where = _goal_cells(goal)
    by_row = [
        [where[t] % cols for t in state[r * cols : (r + 1) * cols] if t and where[t] // cols == r]
        for r in range(rows)
    ]
    by_col = [
        [where[t] // cols for t in state[c::cols] if t and where[t] % cols == c]
        for c in range(cols)
    ]
    return by_row + by_col


def line_conflicts(state: State, goal: State, shape: Shape) -> int:
    """Extra moves forced by lines: 2 x (tiles that must leave their goal row or column)."""
    return sum(
        2 * (len(line) - longest_increasing(line)) for line in goal_lines(state, goal, shape)
    )


def linear_conflict(state: State, goal: State, shape: Shape) -> int:
    """Manhattan distance plus the admissible line-wise linear-conflict term."""
    return linear_conflict_checked(*_board_pair(state, goal, shape))


def linear_conflict_checked(state: State, goal: State, shape: Shape) -> int:
    """`linear_conflict` for boards already read and checked."""
    return manhattan_checked(state, goal, shape) + line_conflicts(state, goal, shape)


def pairwise_conflicts(state: State, goal: State, shape: Shape) -> int:
    """The overestimating shortcut: +2 per pair of tiles reversed in their goal line."""
    return sum(
        2 * sum(1 for i in range(len(line)) for j in range(i + 1, len(line)) if line[i] > line[j])
        for line in goal_lines(state, goal, shape)
    )


def pairwise_linear_conflict(state: State, goal: State, shape: Shape) -> int:
    """Manhattan + 2 per conflicting pair: NOT admissible (kept to show why)."""
    state, goal, shape = _board_pair(state, goal, shape)
    return manhattan_checked(state, goal, shape) + pairwise_conflicts(state, goal, shape)


HEURISTICS: dict[str, Callable[[State, State, Shape], int]] = {
    "zero": lambda state, goal, shape: 0,
    "misplaced": misplaced_checked,
    "manhattan": manhattan_checked,
    "linear_conflict": linear_conflict_checked,
}
"""The admissible pure-Python heuristics by name, on boards already checked (for `solve`)."""


def heuristic(name: str, goal: State, shape: Shape) -> Heuristic:
    """h(state) for a named heuristic and a fixed goal."""
    if name not in HEURISTICS:
        raise InvalidPuzzleError(
            f"unknown heuristic {name!r}: choose one of {sorted(HEURISTICS)} or 'pdb'"
        )
    f = HEURISTICS[name]
    return lambda state: f(state, goal, shape)
