"""Optimal sliding-puzzle solving: one `solve()` over tables, A*, IDA* and pattern databases.

`solve(board)` picks the method: a cached distance table answers at once; boards up to 12
cells use A* with linear conflict; one-blank boards up to 16 cells (the 15-puzzle) use the
numba IDA* with additive pattern databases and the reflected lookup; a 1 x n (or n x 1)
strip of any length is solved directly (tiles never pass each other, so each tile walks
straight home). Every answer is a `Solution`, the study's one `puzzlelab.results.Result`,
with the boards, the moves (which tile slid which way) and search statistics; the write-up's
method (`writeup.solve_writeup`) returns one too. The start is checked for solvability
first: a start in the other parity class is reported as verdict ``unsolvable`` without any
search. One `Budget` is made at the entry point and passed down to every search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..checks import choice, number
from ..errors import InvalidPuzzleError, PuzzleError, TooLargeError
from ..results import Budget, Result, as_budget
from ..search import Problem, astar, bfs, greedy, idastar, weighted_astar
from . import ida
from .board import (
    Move,
    Shape,
    State,
    _slide,
    check_same_tiles,
    check_shape,
    is_solution,
    legal_moves,
    move_between,
    read_board,
    solvable_checked,
    solved_state,
    to_text,
)
from .heuristics import HEURISTICS
from .heuristics import heuristic as named_heuristic
from .pdb import (
    CompactDatabase,
    PatternDatabase,
    best_database,
    compact_database,
    ida_star,
    manhattan_database,
    needs_compact,
    pattern_database,
    run_ida,
)
from .tables import MAX_CELLS, cached_table, distance_table

MAX_PDB_CELLS = 16
MAX_BEST_CELLS = 25  # heuristic="pdb:best" reaches the 24-puzzle (Korf & Felner's 6-6-6-6)
BEST = "pdb:best"
MAX_STRIP_STATES = 10**6  # optimal search on 1 x n strips of any length up to this many states
ALGORITHMS = ("auto", "table", "bfs", "astar", "idastar", "weighted_astar", "greedy")
OPTIMAL = {"table", "bfs", "astar", "idastar"}
PDB_NAMES = ("pdb", "pdb-noreflect")


@dataclass(kw_only=True)
class Solution(Result):
    """A solved, unsolvable or given-up sliding puzzle: boards, moves and what the search cost.

    The one result type of the sliding study (`solve`, `solve_with_database`, the write-up's
    `solve_writeup`). `moves` are (tile, direction the tile slid) pairs; `states` run from
    `start` to `goal` (one longer than `moves`); `length` is None without an answer.
    `verify()` replays the moves from `start` with the slide rule (`board.is_solution`).
    """

    start: State
    goal: State
    shape: Shape
    heuristic: str = "none"
    states: list[State] = field(default_factory=list, repr=False)
    moves: list[Move] = field(default_factory=list, repr=False)

    iterations: int = 0  # IDA*: one per f bound (0 for the other methods)

    def details(self) -> dict[str, Any]:
        """The heuristic, the board's shape and IDA*'s iterations.

        Counters: `expanded` counts boards whose successors were generated (a table lookup
        or the direct strip solution expands none); `generated` counts successor boards
        made; `max_frontier` is the largest open list (A*, the write-up: its queue) or the
        deepest path held (IDA*).
        """
        return {
            "heuristic": self.heuristic,
            "shape": f"{self.shape[0]}x{self.shape[1]}",
            "iterations": self.iterations,
        }

    def _check(self) -> bool:
        """The moves replayed from `start` reach `goal`, through `states`."""
        if self.states and (self.states[0] != self.start or self.states[-1] != self.goal):
            return False
        return is_solution(self.start, self.moves, self.goal, self.shape)


class SlidingProblem(Problem):
    """A sliding puzzle as a search problem: actions are (tile, direction) moves."""

    def __init__(self, initial: State, goal: State, shape: Shape, h=None):
        super().__init__(initial)
        self.goal, self.shape = goal, shape
        self._h = h or (lambda s: 0)

    def actions(self, state: State) -> list[Move]:
        """The legal moves, in a fixed order."""
        return legal_moves(state, self.shape)

    def result(self, state: State, action: Move) -> State:
        """Slide the tile one cell in its direction (into a blank): `board.slide`."""
        return _slide(state, action, self.shape)

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
        "IDA* at 16 (the 15-puzzle). On 5x5, heuristic='pdb:best' builds Korf & Felner's "
        "6-6-6-6 databases once (4 x 127.5 million entries, 4 bits each: about 9 minutes of "
        "CPU and 1 GiB of memory, then cached, 243 MiB) and solves the easiest published "
        "24-puzzles in seconds to minutes; typical random ones take hours to days of search "
        "(up to 10^12 nodes), so give max_seconds. Feasible here: "
        "solve(..., algorithm='weighted_astar') or algorithm='greedy' for a good but not "
        "optimal solution"
    )


def _small_strip(shape: Shape, goal: State) -> bool:
    """A 1 x n or n x 1 strip, whose few reachable states any optimal search handles."""
    n = shape[0] * shape[1]
    return min(shape) == 1 and math.comb(n, goal.count(0)) <= MAX_STRIP_STATES


def check_heuristic(heuristic: object) -> str:
    """A known heuristic name ('pdb', 'pdb:6-6-3', 'manhattan', ...); InvalidPuzzleError if not."""
    names = (*HEURISTICS, "auto", "none", *PDB_NAMES)
    if isinstance(heuristic, str) and heuristic.partition(":")[0] in PDB_NAMES:
        return heuristic
    try:
        return choice(heuristic, "heuristic", names)
    except PuzzleError as exc:
        raise InvalidPuzzleError(f"{exc} (or 'pdb:<sizes>' such as 'pdb:6-6-3')") from None


def _choose(algorithm: str, heuristic: str, shape: Shape, goal: State, table) -> tuple[str, str]:
    """Resolve 'auto' choices of algorithm and heuristic."""
    n = shape[0] * shape[1]
    one_blank = goal.count(0) == 1
    strip = _small_strip(shape, goal)
    if heuristic == BEST and one_blank and n <= MAX_BEST_CELLS and algorithm in ("auto", "idastar"):
        return "idastar", heuristic
    if algorithm == "auto":
        if table is not None:
            algorithm = "table"
        elif n <= MAX_CELLS or strip:
            algorithm = "astar"
        elif n <= MAX_PDB_CELLS:
            algorithm = "idastar" if one_blank else "astar"
        else:
            raise _too_large(shape)
    if n > MAX_PDB_CELLS and algorithm in OPTIMAL and not (strip and algorithm != "table"):
        raise _too_large(shape)
    if algorithm == "table" and n > MAX_CELLS:
        raise TooLargeError(f"distance tables stop at {MAX_CELLS} cells; use algorithm='idastar'")
    if heuristic == "auto":
        if algorithm in ("table", "bfs"):
            heuristic = "none"
        elif algorithm == "idastar" and one_blank and MAX_CELLS < n <= MAX_PDB_CELLS:
            heuristic = "pdb"
        else:
            heuristic = "linear_conflict"
    return algorithm, heuristic


def _numba_ida(heuristic: str, goal: State) -> bool:
    """Does this request run on the numba IDA* (one blank, a database-style heuristic)?"""
    if heuristic == BEST:
        return goal.count(0) == 1 and len(goal) <= MAX_BEST_CELLS
    return (
        goal.count(0) == 1
        and len(goal) <= MAX_PDB_CELLS
        and (heuristic == "manhattan" or heuristic.partition(":")[0] in PDB_NAMES)
    )


def database(shape: Shape, goal: State, heuristic: str = "pdb", progress: bool = True):
    """The PatternDatabase behind 'pdb', 'pdb:6-6-3', 'pdb-noreflect' or 'manhattan'."""
    if heuristic == "manhattan":
        return manhattan_database(shape, goal)
    if heuristic == BEST:
        return best_database(shape, goal, progress=progress)
    name, _, partition = heuristic.partition(":")
    if name not in PDB_NAMES:
        raise InvalidPuzzleError(f"heuristic {heuristic!r} is not 'pdb[:sizes]' or 'manhattan'")
    if len(goal) > MAX_PDB_CELLS:
        raise TooLargeError(f"pattern databases here stop at {MAX_PDB_CELLS} cells")
    if partition and needs_compact(shape, goal, partition):  # e.g. 'pdb:7-8': 4 bits an entry
        return compact_database(
            shape, goal, partition, progress=progress, reflected=name != "pdb-noreflect"
        )
    return pattern_database(
        shape,
        goal,
        partition or default_partition(shape),
        progress=progress,
        reflected=name != "pdb-noreflect",
    )


def solve(
    state: State | str,
    goal: State | str | None = None,
    shape: Shape | None = None,
    algorithm: str = "auto",
    heuristic: str = "auto",
    *,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    budget: Budget | None = None,
    weight: float = 2.0,
    progress: bool = True,
) -> Solution:
    """Solve a sliding puzzle; optimal unless algorithm is 'weighted_astar' or 'greedy'.

    Parameters
    ----------
    state : tuple of int, str, nested rows or 2-D array
        The start in any form `read_board` reads (row-major, 0 = blank; several blanks and
        any distinct labels allowed). A 2-D array or nested list gives the shape.
    goal : optional
        The target board (default: tiles 1..n-1 in order with the blank last).
    shape : (rows, cols), optional
        The shape, when the start does not show it (else rows, a 2-D input or a square).
    algorithm : str
        'auto', 'table', 'bfs', 'astar', 'idastar', 'weighted_astar' or 'greedy'. 'auto'
        solves a strip directly, looks a cached table up, else searches.
    heuristic : str
        'auto', 'zero', 'none', 'misplaced', 'manhattan', 'linear_conflict', 'pdb',
        'pdb-noreflect', 'pdb:<sizes>' (e.g. 'pdb:6-6-3') or 'pdb:best' (the strongest
        databases the lab knows: 7-8 on 4x4, 6-6-6-6 on 5x5, built once and cached; the
        5x5 build takes about 9 minutes of CPU the first time, 7-8 about 12).
    max_expanded, max_seconds : optional
        The search budget (None unlimited, 0 = stop at once); an exhausted budget gives
        verdict ``limit``.
    budget : Budget, optional
        A running `puzzlelab.results.Budget` instead of the two limits (its clock keeps
        going: building databases counts against it).
    weight : float
        The weight of h for 'weighted_astar' (>= 1).
    progress : bool
        Progress bars while building tables or databases.

    Returns
    -------
    Solution
        Verdict ``optimal`` (or ``feasible`` for the non-optimal algorithms) with `moves`
        and `states`; ``unsolvable`` (other parity class, no search, a note says why);
        ``limit`` when the budget ran out. `length` is None without an answer.

    Raises
    ------
    ParseError, InvalidPuzzleError
        Unreadable boards, boards with different tiles, unknown algorithm or heuristic,
        bad budgets or weight.
    TooLargeError
        An optimal request beyond 16 cells (strips and heuristic='pdb:best' up to 25
        cells excepted), or too little memory to build 'pdb:best'.

    Examples
    --------
    >>> solve("1 2 3 / 4 5 6 / 7 _ 8").moves
    [(8, 'left')]
    """
    limits = as_budget(budget, max_expanded, max_seconds)
    start, shape = read_board(state, None if shape is None else check_shape(shape))
    goal = solved_state(shape) if goal is None else read_board(goal, shape)[0]
    check_same_tiles(start, goal)
    algorithm = choice(algorithm, "algorithm", ALGORITHMS)
    heuristic = check_heuristic(heuristic)
    weight = number(weight, "weight", minimum=1)
    if not isinstance(progress, bool | np.bool_):
        raise InvalidPuzzleError(f"progress must be True or False, not {progress!r}")
    n = shape[0] * shape[1]
    strip = min(shape) == 1 and algorithm == "auto"
    usable = n <= MAX_CELLS and algorithm in ("auto", "table") and not strip
    table = cached_table(shape, goal) if usable else None
    if strip:
        algorithm, heuristic = "strip", "none" if heuristic == "auto" else heuristic
    else:
        algorithm, heuristic = _choose(algorithm, heuristic, shape, goal, table)
    head = {"start": start, "goal": goal, "shape": shape, "heuristic": heuristic}
    if not solvable_checked(start, goal, shape):  # before any search
        return Solution(
            method=algorithm, verdict="unsolvable", **head,
            note=f"{to_text(start)} cannot reach {to_text(goal)}: the boards lie in different "
            "parity classes (swap any two tiles of the start to make it solvable)",
        )  # fmt: skip
    if algorithm == "strip":
        states, moves = strip_path(start, goal, shape)
        return Solution(
            method="strip", verdict="optimal", **head, states=states, moves=moves,
            seconds=limits.elapsed(),
        )  # fmt: skip
    if algorithm == "table":
        table = table or distance_table(shape, goal, progress=bool(progress))
        return _solution(head, "table", "optimal", table.path(start), limits)
    if algorithm == "idastar" and _numba_ida(heuristic, goal):
        db = database(shape, goal, heuristic, progress=bool(progress))
        run = ida.run if isinstance(db, CompactDatabase) else run_ida
        return _database_solution(run(db, start, limits), start, db, heuristic)
    h = _python_heuristic("zero" if heuristic == "none" else heuristic, goal, shape, progress)
    problem = SlidingProblem(start, goal, shape, h)
    if algorithm == "weighted_astar":
        result = weighted_astar(problem, weight, budget=limits)
    else:
        search = {"bfs": bfs, "astar": astar, "idastar": idastar, "greedy": greedy}[algorithm]
        result = search(problem, budget=limits)
    return Solution(
        method=result.method, verdict=result.verdict, **head, states=list(result.states),
        moves=list(result.moves), expanded=result.expanded, generated=result.generated,
        max_frontier=result.max_frontier, seconds=limits.elapsed(), note=result.note,
    )  # fmt: skip


def strip_path(start: State, goal: State, shape: Shape) -> tuple[list[State], list[Move]]:
    """An optimal path on a 1 x n or n x 1 strip whose tiles are in the goal's order.

    Tiles never pass each other, so tile k must travel from its cell to its goal cell and
    sum(|a_k - b_k|) moves is a lower bound. It is reached: first the tiles that go back
    (towards cell 0), in order from the front, then those that go forward, from the back;
    each finds its way clear. Time and memory grow with (moves x cells): the boards.
    Returns the boards and the moves.
    """
    a = [i for i, t in enumerate(start) if t]
    b = [i for i, t in enumerate(goal) if t]
    back, forward = ("left", "right") if shape[0] == 1 else ("up", "down")
    cells = list(start)
    path, moves = [start], []

    def walk(k: int, step: int) -> None:
        direction = back if step < 0 else forward
        for i in range(a[k], b[k], step):
            moves.append((cells[i], direction))
            cells[i + step], cells[i] = cells[i], 0
            path.append(tuple(cells))

    for k in range(len(a)):
        if b[k] < a[k]:
            walk(k, -1)
    for k in reversed(range(len(a))):
        if b[k] > a[k]:
            walk(k, 1)
    return path, moves


def solve_with_database(
    start: State | str,
    db: PatternDatabase,
    heuristic: str = "pdb",
    *,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    budget: Budget | None = None,
) -> Solution:
    """Numba IDA* with a ready database (reuse one database across many boards).

    Parameters, budget and verdicts as `solve` (the goal and shape are the database's).
    """
    res = ida_star(db, start, budget=as_budget(budget, max_expanded, max_seconds))
    return _database_solution(res, read_board(start, db.shape)[0], db, heuristic)


def _database_solution(res, start: State, db: PatternDatabase, heuristic: str) -> Solution:
    """The numba IDA*'s result as a Solution."""
    return Solution(
        method=res.method, verdict=res.verdict, start=start, goal=db.goal, shape=db.shape,
        heuristic=heuristic, states=res.states, moves=res.moves, expanded=res.expanded,
        generated=res.generated, max_frontier=res.max_frontier, seconds=res.seconds,
        note=res.note, iterations=getattr(res, "iterations", 0),
    )  # fmt: skip


def _python_heuristic(name: str, goal: State, shape: Shape, progress: bool):
    """h(state) for the generic searches: a named heuristic or a database lookup."""
    if name.partition(":")[0] in PDB_NAMES:
        if goal.count(0) != 1:
            raise InvalidPuzzleError("pattern databases need one blank: use 'manhattan'")
        return database(shape, goal, name, progress=bool(progress)).h
    return named_heuristic(name, goal, shape)


def _solution(head: dict, method: str, verdict: str, states: list, limits: Budget) -> Solution:
    """A Solution from a path of boards (the moves are read off consecutive boards)."""
    shape = head["shape"]
    moves = [move_between(a, b, shape) for a, b in zip(states, states[1:], strict=False)]
    return Solution(
        method=method, verdict=verdict, **head, states=list(states), moves=moves,
        seconds=limits.elapsed(),
    )  # fmt: skip
