"""Optimal sliding-puzzle solving: one `solve()` over tables, A*, IDA* and pattern databases.

`solve(state)` picks the method: a cached distance table answers at once; boards up to 12
cells use A* with linear conflict; one-blank boards up to 16 cells (the 15-puzzle) use the
numba IDA* with additive pattern databases and the reflected lookup. Every answer is a
`Solution` with the boards, the moves (which tile slid which way) and search statistics.
The start is checked for solvability first, so an impossible request never searches.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from ..errors import InvalidPuzzleError, TooLargeError
from ..search import (
    Problem,
    SearchResult,
    Verdict,
    astar,
    bfs,
    greedy,
    idastar,
    weighted_astar,
)
from .board import (
    DIRECTIONS,
    Move,
    Shape,
    State,
    check_same_tiles,
    move_between,
    neighbors,
    parse_board,
    require_solvable,
    solved_state,
)
from .heuristics import HEURISTICS
from .heuristics import heuristic as named_heuristic
from .pdb import PatternDatabase, ida_star, manhattan_database, pattern_database
from .tables import MAX_CELLS, cached_table

MAX_PDB_CELLS = 16
ALGORITHMS = ("auto", "table", "bfs", "astar", "idastar", "weighted_astar", "greedy")
OPTIMAL = {"table", "bfs", "astar", "idastar"}


@dataclass
class Solution(Verdict):
    """A solved (or given-up) sliding puzzle: the path, the moves and what the search cost."""

    steps_field = "moves"

    start: State
    goal: State
    shape: Shape
    algorithm: str
    heuristic: str
    verdict: str  # "optimal", "feasible" or "limit"
    states: list[State] = field(default_factory=list, repr=False)
    moves: list[Move] = field(default_factory=list, repr=False)
    expanded: int = 0
    generated: int = 0
    max_frontier: int = 0
    seconds: float = 0.0

    def stats(self) -> dict:
        """One table row: method, verdict, length and the counters."""
        return {
            "algorithm": self.algorithm,
            "heuristic": self.heuristic,
            "verdict": self.verdict,
            "length": self.length,
            "expanded": self.expanded,
            "generated": self.generated,
            "max_frontier": self.max_frontier,
            "seconds": self.seconds,
        }


def is_solution(states: list[State], start: State, goal: State, shape: Shape) -> bool:
    """Does `states` run from `start` to `goal`, one legal move at a time?"""
    if not states or states[0] != start or states[-1] != goal:
        return False
    pairs = zip(states, states[1:], strict=False)
    return all(b in {nxt for _, nxt in neighbors(a, shape)} for a, b in pairs)


class SlidingProblem(Problem):
    """A sliding puzzle as a search problem: actions are (tile, direction) moves."""

    def __init__(self, initial: State, goal: State, shape: Shape, h=None):
        super().__init__(initial)
        self.goal, self.shape = goal, shape
        self._h = h or (lambda s: 0)
        self._step = {name: dr * shape[1] + dc for (dr, dc), name in DIRECTIONS.items()}

    def actions(self, state: State) -> list[Move]:
        """The legal moves, in a fixed order."""
        return [move for move, _ in neighbors(state, self.shape)]

    def result(self, state: State, action: Move) -> State:
        """Slide the tile one cell in its direction (into a blank)."""
        tile, direction = action
        i = state.index(tile)
        j = i + self._step[direction]
        s = list(state)
        s[i], s[j] = 0, tile
        return tuple(s)

    def is_goal(self, state: State) -> bool:
        """Is this the goal board?"""
        return state == self.goal

    def h(self, state: State) -> float:
        """The chosen heuristic."""
        return self._h(state)


def default_partition(shape: Shape) -> str:
    """Pattern sizes for a board: 6-6-3 on 4x4, otherwise near-equal groups of at most 6."""
    m = shape[0] * shape[1] - 1
    if tuple(shape) == (4, 4):
        return "6-6-3"
    parts = math.ceil(m / 6)
    sizes = [m // parts + (1 if i < m % parts else 0) for i in range(parts)]
    return "-".join(map(str, sizes))


def _too_large(shape: Shape) -> TooLargeError:
    """The explanation for optimal requests beyond 16 cells."""
    rows, cols = shape
    n = rows * cols
    return TooLargeError(
        f"a {rows}x{cols} board ({n} cells, about {math.factorial(n) / 2:.1e} states) is beyond "
        "the optimal solvers here: distance tables stop at 12 cells and pattern-database "
        "IDA* at 16 (the 15-puzzle). Optimal 24-puzzle solutions need 6-6-6-6 databases "
        "(about 127 million entries each) and hours to days of search per instance. "
        "Feasible here: solve(..., algorithm='weighted_astar') or algorithm='greedy' for a "
        "good but not optimal solution"
    )


def _choose(algorithm: str, heuristic: str, shape: Shape, goal: State) -> tuple[str, str]:
    """Resolve 'auto' choices of algorithm and heuristic."""
    n = shape[0] * shape[1]
    one_blank = goal.count(0) == 1
    if algorithm not in ALGORITHMS:
        raise InvalidPuzzleError(f"unknown algorithm {algorithm!r}: choose one of {ALGORITHMS}")
    if algorithm == "auto":
        if n <= MAX_CELLS and cached_table(shape, goal) is not None:
            algorithm = "table"
        elif n <= MAX_CELLS:
            algorithm = "astar"
        elif n <= MAX_PDB_CELLS and one_blank:
            algorithm = "idastar"
        elif n <= MAX_PDB_CELLS:
            algorithm = "astar"
        else:
            raise _too_large(shape)
    if n > MAX_PDB_CELLS and algorithm in OPTIMAL:
        raise _too_large(shape)
    if algorithm == "table" and n > MAX_CELLS:
        raise TooLargeError(f"distance tables stop at {MAX_CELLS} cells; use algorithm='idastar'")
    if heuristic == "auto":
        if algorithm in ("table", "bfs"):
            heuristic = "none"
        elif algorithm == "idastar" and one_blank and n > MAX_CELLS:
            heuristic = "pdb"
        else:
            heuristic = "linear_conflict"
    return algorithm, heuristic


def _numba_ida(heuristic: str, goal: State, shape: Shape, one_blank: bool) -> bool:
    """Does this request run on the numba IDA* (one blank, a database-style heuristic)?"""
    return one_blank and (heuristic == "manhattan" or heuristic.startswith("pdb"))


def database(shape: Shape, goal: State, heuristic: str = "pdb", progress: bool = True):
    """The PatternDatabase behind 'pdb', 'pdb:6-6-3', 'pdb-noreflect' or 'manhattan'."""
    if heuristic == "manhattan":
        return manhattan_database(shape, goal)
    name, _, partition = heuristic.partition(":")
    reflected = name != "pdb-noreflect"
    return pattern_database(
        shape, goal, partition or default_partition(shape), progress=progress, reflected=reflected
    )


def solve(
    state: State | str,
    goal: State | str | None = None,
    shape: Shape | None = None,
    algorithm: str = "auto",
    heuristic: str = "auto",
    *,
    max_expanded: int | None = None,
    weight: float = 2.0,
    progress: bool = True,
) -> Solution:
    """Solve a sliding puzzle; optimal unless algorithm is 'weighted_astar' or 'greedy'.

    `goal` defaults to tiles in order with the blank last. `heuristic`: 'misplaced',
    'manhattan', 'linear_conflict', 'pdb' (optionally 'pdb:6-6-3', or 'pdb-noreflect'),
    'zero' or 'auto'. Raises UnsolvableError at once when the start cannot reach the goal.
    """
    start = parse_board(state, shape)
    shape = _shape_of(start, state, shape)
    goal = solved_state(shape) if goal is None else parse_board(goal, shape)
    check_same_tiles(start, goal)
    if shape[0] * shape[1] > MAX_PDB_CELLS and algorithm in OPTIMAL | {"auto"}:
        raise _too_large(shape)
    require_solvable(start, goal, shape)  # before any search
    algorithm, heuristic = _choose(algorithm, heuristic, shape, goal)
    one_blank = goal.count(0) == 1
    t0 = time.perf_counter()
    if algorithm == "table":
        table = cached_table(shape, goal)
        if table is None:
            from .tables import distance_table

            table = distance_table(shape, goal, progress=progress)
        states = table.path(start)
        return _solution(start, goal, shape, "table", "none", "optimal", states, 0, 0, 0, t0)
    if algorithm == "idastar" and _numba_ida(heuristic, goal, shape, one_blank):
        db = database(shape, goal, heuristic, progress=progress)
        return solve_with_database(start, db, heuristic, max_expanded, t0)
    if heuristic == "none":
        heuristic = "zero"
    h = _python_heuristic(heuristic, goal, shape, progress)
    problem = SlidingProblem(start, goal, shape, h)
    search = {
        "bfs": bfs,
        "astar": astar,
        "idastar": idastar,
        "greedy": greedy,
        "weighted_astar": lambda p, max_expanded: weighted_astar(p, weight, max_expanded),
    }[algorithm]
    result: SearchResult = search(problem, max_expanded=max_expanded)
    return _solution(
        start,
        goal,
        shape,
        result.method,
        heuristic,
        result.verdict,
        result.states,
        result.expanded,
        result.generated,
        result.max_frontier,
        t0,
    )


def solve_with_database(
    start: State,
    db: PatternDatabase,
    heuristic: str = "pdb",
    max_expanded: int | None = None,
    t0: float | None = None,
) -> Solution:
    """Numba IDA* with a ready database (reuse one database across many boards)."""
    t0 = time.perf_counter() if t0 is None else t0
    require_solvable(start, db.goal, db.shape)
    res = ida_star(db, start, node_limit=max_expanded or 10**15)
    states = [start]
    if res.length >= 0:
        for b, c in zip(res.blank_path, res.blank_path[1:], strict=False):
            s = list(states[-1])
            s[b], s[c] = s[c], 0
            states.append(tuple(s))
    verdict = "optimal" if res.length >= 0 else "limit"
    return _solution(
        start,
        db.goal,
        db.shape,
        "idastar-numba",
        heuristic,
        verdict,
        states,
        res.expanded,
        res.generated,
        len(states),
        t0,
    )


def _python_heuristic(name: str, goal: State, shape: Shape, progress: bool):
    """h(state) for the generic searches: a named heuristic or a database lookup."""
    if name.startswith("pdb"):
        if goal.count(0) != 1:
            raise InvalidPuzzleError("pattern databases need one blank: use 'manhattan'")
        return database(shape, goal, name, progress=progress).h
    if name not in HEURISTICS:
        raise InvalidPuzzleError(
            f"unknown heuristic {name!r}: choose one of {sorted(HEURISTICS)}, 'pdb' or 'auto'"
        )
    return named_heuristic(name, goal, shape)


def _shape_of(start: State, given: object, shape: Shape | None) -> Shape:
    """The board's shape: given, from the text's rows, or square."""
    if shape is not None:
        return (int(shape[0]), int(shape[1]))
    if isinstance(given, str) and any(ch in given for ch in "/\n;|"):
        rows = [r for r in given.replace("\n", "/").replace(";", "/").replace("|", "/").split("/")]
        rows = [r for r in rows if r.strip()]
        return (len(rows), len(start) // len(rows))
    side = math.isqrt(len(start))
    return (side, side)


def _solution(
    start, goal, shape, algorithm, heuristic, verdict, states, expanded, generated, max_frontier, t0
) -> Solution:
    """Package a path as a Solution with its moves."""
    moves = [move_between(a, b, shape) for a, b in zip(states, states[1:], strict=False)]
    if verdict == "unsolvable":  # cannot happen after require_solvable; never answer silently
        raise RuntimeError(f"search found no path although {start} passed the parity test")
    return Solution(
        start,
        goal,
        shape,
        algorithm,
        heuristic,
        verdict,
        list(states),
        moves,
        int(expanded),
        int(generated),
        int(max_frontier),
        time.perf_counter() - t0,
    )
