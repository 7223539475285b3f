"""The A* write-up's 8-puzzle solver, kept faithfully as a baseline.

The write-up solves `4 3 _ / 5 1 6 / 7 2 _` towards the two-blank goal `1 2 3 / 4 5 6 / 7 _ _`.
Its queue holds (g + h, board, (g, h, parent)) tuples, so ties go to the smaller board
(lexicographically); successors are listed in sorted order; the closed set and the
"already queued?" test are Python lists scanned from the start, and a board already queued
is never updated. It prints each board on the path with its h and move number, then the
largest queue length. This module repeats that logic with our own code (tuples instead of
lists) and returns the same figures as data; it only suits tiny boards.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field

from .board import Shape, State, manhattan, neighbors, parse_board

WRITEUP_START = parse_board("4 3 _ / 5 1 6 / 7 2 _")
WRITEUP_GOAL = parse_board("1 2 3 / 4 5 6 / 7 _ _")
WRITEUP_SHAPE: Shape = (3, 3)


def writeup_h(state: State, goal: State, shape: Shape = WRITEUP_SHAPE) -> int:
    """The write-up's h_sum: Manhattan distance of the tiles, blanks counted as 0."""
    return manhattan(state, goal, shape)


def writeup_successors(state: State, shape: Shape = WRITEUP_SHAPE) -> list[State]:
    """Every board one slide away, sorted (as the write-up's get_succ returns them)."""
    return sorted(nxt for _, nxt in neighbors(state, shape))


@dataclass
class WriteupRun:
    """The write-up's printout as data: the path with h and moves, and the largest queue."""

    steps: list[tuple[State, int, int]] = field(default_factory=list)  # (board, h, moves)
    max_queue: int = 0
    expanded: int = 0
    seconds: float = 0.0

    @property
    def length(self) -> int:
        """Moves on the path found."""
        return len(self.steps) - 1

    def lines(self) -> list[str]:
        """The printout: one line per board, then the largest queue."""
        out = [f"{list(s)} h={h} moves: {m}" for s, h, m in self.steps]
        out.append(f"Max queue length: {self.max_queue}")
        return out


def writeup_astar(
    start: State = WRITEUP_START, goal: State = WRITEUP_GOAL, shape: Shape = WRITEUP_SHAPE
) -> WriteupRun:
    """A* exactly as the write-up runs it (list scans, no re-opening, ties by board)."""
    t0 = time.perf_counter()
    h0 = writeup_h(start, goal, shape)
    queue = [(h0, start, (0, h0, -1))]
    track = {0: (start, -1)}  # entry number -> (board, parent entry number)
    visited: list[State] = []
    next_id, max_len, expanded = 1, 0, 0
    while queue:
        _, board, (g, _, pi) = heapq.heappop(queue)
        if board == goal:
            break
        if board not in visited:
            visited.append(board)
        expanded += 1
        parent = next(k for k, (s, _) in track.items() if s == board)  # first entry of board
        for succ in writeup_successors(board, shape):
            if succ not in visited and all(item[1] != succ for item in queue):
                h = writeup_h(succ, goal, shape)
                heapq.heappush(queue, (g + 1 + h, succ, (g + 1, h, pi + 1)))
                max_len = max(max_len, len(queue))
                track[next_id] = (succ, parent)
                next_id += 1
    else:
        return WriteupRun([], max_len, expanded, time.perf_counter() - t0)
    last = [k for k, (s, _) in track.items() if s == goal][-1]  # the write-up keeps the last
    path = []
    while last != -1:
        path.append(track[last][0])
        last = track[last][1]
    path.reverse()
    steps = [(s, writeup_h(s, goal, shape), i) for i, s in enumerate(path)]
    return WriteupRun(steps, max_len, expanded, time.perf_counter() - t0)
