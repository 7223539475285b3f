"""The write-up's A* solver, kept faithfully as the baseline (our own code, its behaviour).

What it does, and what we keep on purpose:
- Positions are *labelled* (tube order matters); a position's key is the string of its
  colour numbers, each tube padded with -1 to the capacity and joined without separators.
  With 11+ colours two different positions can share a key ("1","0" vs "10"), and the second
  one is then skipped.
- Moves are generated destination by destination (then source by source); only the first
  empty tube is used as a destination; full one-colour tubes are neither source nor
  destination; a pour into an empty tube needs `top run != free space` in the source, which
  forbids some legal pours (e.g. the top unit of [a, a, b] into an empty tube).
- A pour moves the whole top run, keeps what fits and returns the rest (partial pours).
- Score = tubes + colour switches - sorted tubes - empty tubes + pours so far (an
  overestimate); the open list is a binary heap ordered by score alone (Python's heapq with
  ties resolved by the heap's own order, exactly as with the write-up's Board.__lt__).
- A position is marked seen when generated, and the search stops when a generated position
  is sorted.
Because of the restricted moves and key collisions, an exhausted search proves nothing: the
verdict is then "unknown", never "unsolvable".
"""

from __future__ import annotations

import heapq
import time

from .level import Level
from .solvers import Solution

Board = tuple[tuple[int, ...], ...]


def _top(t: tuple[int, ...]) -> tuple[int, int]:
    """(top colour or -1, length of the top run)."""
    if not t:
        return -1, 0
    c, k = t[-1], 1
    while k < len(t) and t[-1 - k] == c:
        k += 1
    return c, k


def seed_actions(board: Board, volume: int) -> list[tuple[int, int]]:
    """The write-up's move list: (source, destination) pairs in its order."""
    n = len(board)
    info = [(*_top(t), volume - len(t)) for t in board]  # (top colour, run, free space)
    actions = []
    use_free = False
    for i in range(n):
        ci, ri, fi = info[i]
        if ri == volume:
            continue
        for j in range(n):
            if i == j:
                continue
            cj, rj, fj = info[j]
            if rj == volume:
                continue
            if ci == cj != -1 and fi > 0:
                actions.append((j, i))
            elif ci == -1 and cj != -1 and rj != fj and not use_free:
                actions.append((j, i))
        if ci == -1:
            use_free = True
    return actions


def seed_step(board: Board, src: int, dst: int, volume: int) -> Board:
    """Pour the whole top run of `src` onto `dst`, keeping what fits, returning the rest."""
    s, d = board[src], board[dst]
    _, run = _top(s)
    k = min(run, volume - len(d))
    tubes = list(board)
    tubes[src] = s[: len(s) - k]
    tubes[dst] = d + s[len(s) - k :]
    return tuple(tubes)


def seed_key(board: Board, volume: int) -> str:
    """The write-up's position key: colour numbers padded with -1, joined without separators."""
    return "".join("".join(map(str, list(t) + [-1] * (volume - len(t)))) for t in board)


def seed_score(board: Board, volume: int, steps: int) -> int:
    """tubes + colour switches - sorted tubes - empty tubes + pours so far."""
    switches = sorted_ = free = 0
    for t in board:
        switches += sum(1 for k in range(len(t) - 1) if t[k] != t[k + 1])
        c, run = _top(t)
        if run == len(t) == volume:
            sorted_ += 1
        if c == -1:
            free += 1
    return len(board) + switches - sorted_ - free + steps


def _done(board: Board, volume: int) -> bool:
    return all(_top(t)[1] in (0, volume) for t in board)


class _Node:
    """A heap entry compared by score only (the write-up's Board.__lt__)."""

    __slots__ = ("board", "parent", "pour", "score", "steps")

    def __init__(self, board: Board, score: int, steps: int, parent, pour):
        self.board, self.score, self.steps, self.parent, self.pour = (
            board,
            score,
            steps,
            parent,
            pour,
        )

    def __lt__(self, other: _Node) -> bool:
        return self.score < other.score


def seed_solve(level: Level, max_expanded: int | None = None) -> Solution:
    """Run the write-up's A* on `level` (colours numbered 0.. in order of appearance)."""
    t0 = time.perf_counter()
    index = {c: k for k, c in enumerate(level.colors)}
    volume = level.capacity
    board: Board = tuple(tuple(index[c] for c in t) for t in level.tubes)
    root = _Node(board, 0, 0, None, None)
    heap = [root]
    seen = {seed_key(board, volume)}
    expanded = generated = 0
    sol = Solution(level, "seed", "unknown")
    found = None
    while heap and found is None:
        if max_expanded is not None and expanded >= max_expanded:
            sol.verdict = "limit"
            break
        node = heapq.heappop(heap)
        expanded += 1
        for src, dst in seed_actions(node.board, volume):
            nb = seed_step(node.board, src, dst, volume)
            generated += 1
            key = seed_key(nb, volume)
            if key in seen:
                continue
            seen.add(key)
            child = _Node(nb, 0, node.steps + 1, node, (src, dst))
            if _done(nb, volume):
                found = child
                break
            child.score = seed_score(nb, volume, child.steps)
            heapq.heappush(heap, child)
    if found is not None:
        pours = []
        while found.parent is not None:
            pours.append(found.pour)
            found = found.parent
        sol.pours, sol.verdict = pours[::-1], "feasible"
    sol.expanded, sol.generated = expanded, generated
    sol.seconds = time.perf_counter() - t0
    return sol
