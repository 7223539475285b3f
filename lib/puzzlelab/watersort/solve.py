"""`solve(level, method)`: optimal A*, BFS, DFS, greedy and weighted A* (and the write-up's A*).

Every method returns the study's one result type, `Solution` (a `results.Result`), whose
`verify()` replays its pours with the pour rule. The write-up's A* lives in `writeup.py`
(`solve_writeup`) and is also reachable as ``solve(level, "writeup")``.

The fast solvers work on a compact canonical state: colors become small integers, each tube
a `bytes` string (bottom to top) and a position the *sorted* tuple of its tubes, because tubes
are unlabelled - any permutation of tubes is the same position. The searches themselves are
the generic ones of `puzzlelab.search` (`best_first` with newest-first ties for optimal,
greedy and weighted A*; `dfs`; `bfs`); water sort only supplies the successor kernel
`expand`, which returns each successor with its bound updated incrementally. Pour sequences
are mapped back to the level's own tube numbers at the end (`_labelled_pours`).

Pruning in the successor function (each rule only drops successors that are duplicates of
ones kept, or the state itself, so the search graph keeps every distinct neighbour and every
shortest path; this is why exhausting it proves a level unsolvable):
1. Identical tubes: with tubes sorted, equal tubes are adjacent. Pouring from (or onto) a
   tube equal to the previous one gives the same canonical successor as using the previous
   one, so only the first of a group is used as source (and as destination).
2. One empty destination: all empty tubes are identical (rule 1 applied to empties).
3. A source that holds a single color is never poured into an empty tube: the whole tube
   moves (an empty tube has room for it), so the canonical position is unchanged - a self-
   loop, which no shortest path (and no search) needs.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from ..checks import number
from ..errors import InvalidPuzzleError, PuzzleError, TooLargeError
from ..results import Budget, Result, as_budget
from ..search import Problem, best_first, bfs, dfs
from .bounds import BoundKernel
from .level import Level, Pour, is_solution, poured

Code = tuple[bytes, ...]  # canonical encoded position: sorted tubes, colors as bytes 1..C

METHODS = ("optimal", "writeup", "bfs", "dfs", "greedy", "weighted")


@dataclass(kw_only=True)
class Solution(Result):
    """A water-sort answer (`results.Result`): moves are pours (source, destination).

    `level` is the start; `states` lists the `Level`s from the start to the sorted position
    (empty without an answer). `verify()` replays the pours with the pour rule.
    """

    level: Level = field(repr=False)
    bound: int = 0  # the admissible lower bound at the start

    def __post_init__(self) -> None:
        """Refuse a verdict outside the vocabulary, or a start that is not a Level."""
        super().__post_init__()
        check_level(self.level)

    def _check(self) -> bool:
        """The pours, replayed from `level` by the pour rule, sort it (and match `states`)."""
        if not is_solution(self.level, self.moves):
            return False
        return not self.states or self.states == self.level.play(self.moves)

    def details(self) -> dict:
        """Water-sort extras: level name, the admissible bound at the start, note.

        Counters: `expanded` counts positions taken off the frontier and expanded (canonical
        positions - tubes sorted - for our searches; labelled boards for the write-up's),
        `generated` the successors produced (before duplicate checks), `max_frontier` the
        largest open list (DFS: its stack).
        """
        return {"level": self.level.name, "bound": self.bound, "note": self.note}


# ---- encoding ---------------------------------------------------------------------------
def encode(level: Level) -> tuple[list[bytes], dict[str, int]]:
    """The level's tubes as bytes (color k of `level.colors` -> byte k+1), labelled order."""
    index = {c: k + 1 for k, c in enumerate(level.colors)}
    if len(index) > 254:
        raise InvalidPuzzleError(f"{len(index)} colors; at most 254 are supported")
    return [bytes(index[c] for c in t) for t in level.tubes], index


def canonical(tubes: list[bytes] | tuple[bytes, ...]) -> Code:
    """Tubes sorted: one key per position up to renumbering tubes."""
    return tuple(sorted(tubes))


def children(state: Code, cap: int) -> list[Code]:
    """Canonical successors of `state` under the pour rule, with the safe pruning above."""
    return expand(state, cap)


def expand(state: Code, cap: int, hs: int = 0, bound: BoundKernel | None = None) -> list:
    """(action, successor, cost 1, its bound) tuples, as `search.best_first` takes them.

    The action is the successor itself; the bound is updated incrementally from `hs`.
    Without `bound`: the bare successors (what `children` returns, for DFS and BFS).
    This is the fast kernel of the pour rule: it specialises `level.poured` to canonical
    `bytes` positions (destinations looked up by top color plus the first empty tube, so a
    position costs time in proportion to its tubes and successors rather than to all tube
    pairs) and is tested against `children_reference`, which uses the rule itself.
    """
    groups: dict[int, list] = {}  # top color -> [first, twin] indices of destination groups
    empty = -1
    prev = None
    j = -1
    for d in state:
        j += 1
        if d == prev:
            if d and len(d) < cap:
                group = groups[d[-1]][-1]
                if group[1] < 0:
                    group[1] = j  # a twin, used only when the first one is the source
            continue
        prev = d
        if not d:
            empty = j
        elif len(d) < cap:
            lst = groups.get(d[-1])
            if lst is None:
                groups[d[-1]] = [[j, -1]]
            else:
                lst.append([j, -1])
    out: list = []
    if not groups and empty < 0:
        return out
    if bound is not None:
        runs, need, tube_runs = bound.runs, bound.need, bound.tube_runs
    bottoms = None
    prev = None
    i = -1
    for s in state:
        i += 1
        if not s or s == prev:
            prev = s
            continue
        prev = s
        c = s[-1]
        grp = groups.get(c)
        if grp is None and empty < 0:
            continue
        top = s[-1:]
        rest = s.rstrip(top)
        if grp is None and not rest:
            continue
        run = len(s) - len(rest)
        targets = []
        if grp is not None:
            for first, twin in grp:
                jj = twin if first == i else first
                if jj >= 0:
                    targets.append(jj)
        if empty >= 0 and rest:
            targets.append(empty)
        for jj in targets:
            d = state[jj]
            free = cap - len(d)
            k = run if run < free else free
            ns = s[: len(s) - k]
            nd = d + top * k
            new = list(state)
            new[i] = ns
            new[jj] = nd
            new.sort()
            child = tuple(new)
            if bound is None:
                out.append(child)
                continue
            hc = (
                hs
                + (runs.get(ns) or tube_runs(ns))
                + (runs.get(nd) or tube_runs(nd))
                - (runs.get(s) or tube_runs(s))
                - (runs.get(d) or tube_runs(d))
            )
            if not d or not ns:  # a bottom appears or disappears
                if bottoms is None:
                    bottoms = Counter(t[0] for t in state if t)
                m = 1 if need is None else need[c]
                if not d and bottoms[c] < m:  # a new usable bottom of color c
                    hc -= 1
                if not ns and bottoms[c] <= m:  # the source's bottom c was a usable one
                    hc += 1
            out.append((child, child, 1, hc))
    return out


def all_pours(tubes: Sequence[bytes], cap: int) -> Iterator[tuple[int, int, list[bytes]]]:
    """(i, j, tubes after the pour i -> j) for every legal pour, by the pour rule itself."""
    for i, s in enumerate(tubes):
        for j, d in enumerate(tubes):
            after = poured(s, d, cap) if i != j else None
            if after is not None:
                new = list(tubes)
                new[i], new[j] = after
                yield i, j, new


def children_reference(state: Code, cap: int) -> set[Code]:
    """Every canonical successor by the pour rule itself, without pruning (used in tests)."""
    return {canonical(new) for _, _, new in all_pours(state, cap)} - {state}


def is_goal(state: Code, cap: int) -> bool:
    """Every tube empty or full of one color (a fast `Level.is_solved` on bytes)."""
    return all(not t or (len(t) == cap and t.count(t[0]) == cap) for t in state)


# ---- mapping a canonical path back to labelled pours ----------------------------------------
def _labelled_pours(level: Level, path: list[Code]) -> list[Pour]:
    """Pours (i, j) in the level's tube numbering that follow the canonical `path`."""
    tubes, _ = encode(level)
    cap = level.capacity
    pours = []
    for nxt in path[1:]:
        pours.append(_labelled_step(tubes, nxt, cap))
        i, j = pours[-1]
        tubes[i], tubes[j] = poured(tubes[i], tubes[j], cap)
    return pours


def _labelled_step(tubes: list[bytes], nxt: Code, cap: int) -> Pour:
    """The first pour (i, j) by the pour rule that turns labelled `tubes` into `nxt`."""
    for i, j, new in all_pours(tubes, cap):
        if canonical(new) == nxt:
            return (i, j)
    raise RuntimeError("internal error: a canonical step has no labelled pour")


class WaterSortProblem(Problem):
    """The canonical state space as a `puzzlelab.search` problem (actions are successor states).

    `successors(state, h)` gives every successor with its bound in one call (the fast
    kernel `expand`), which `search.best_first` uses instead of `actions`/`result`/`h`.
    """

    def __init__(self, level: Level):
        tubes, index = encode(check_level(level))
        super().__init__(canonical(tubes))
        self.cap = level.capacity
        self._h = BoundKernel(level, index)

    def actions(self, state: Code) -> list[Code]:
        """The canonical successors."""
        return children(state, self.cap)

    def result(self, state: Code, action: Code) -> Code:
        """An action names the successor itself."""
        return action

    def is_goal(self, state: Code) -> bool:
        """Sorted?"""
        return is_goal(state, self.cap)

    def h(self, state: Code) -> int:
        """The admissible bound (`bounds.tubes_bound`, cached)."""
        return self._h(state)

    def successors(self, state: Code, hs: int) -> list:
        """(successor, successor, 1, its bound) for every canonical successor."""
        return expand(state, self.cap, hs, self._h)


# ---- the front door -------------------------------------------------------------------------
_BEST_FIRST = {"optimal": (1.0, True), "greedy": (0.0, False), "weighted": (1.0, False)}
PROVES_OPTIMAL = frozenset({"optimal", "bfs"})  # the methods whose answers are proven shortest


def check_level(level: object) -> Level:
    """`level` when it is a `Level`, else a PuzzleError saying how to make one."""
    if not isinstance(level, Level):
        raise PuzzleError(
            f"expected a Level (Level.parse / Level.make), got {type(level).__name__}"
        )
    return level


def solve(
    level: Level,
    method: str = "optimal",
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
    weight: float = 2.0,
    progress: bool = False,
) -> Solution:
    """Solve `level` with one of `METHODS`; the verdict says what the answer proves.

    Parameters
    ----------
    level : Level
        The position to sort.
    method : str
        - ``optimal``: A* with the admissible bound on canonical positions: shortest, or a
          proof that no solution exists (``unsolvable``) when the positions run out;
        - ``writeup``: the write-up's A* with its own overestimating estimate (``feasible``;
          see `writeup.solve_writeup`);
        - ``bfs`` (shortest; slow), ``dfs`` (fast, long answers), ``greedy`` (best-first
          on the bound alone), ``weighted`` (f = g + weight * h, each position expanded
          once: ``feasible`` even with weight 1, since only ``optimal`` and ``bfs`` prove
          an answer shortest).
    max_expanded, max_seconds : int or float, optional
        The budget, the same for every method (None = unlimited, 0 = stop at once); when
        it runs out the verdict is ``limit``.
    budget : results.Budget, optional
        A Budget made by the caller instead of the two limits (its clock keeps running).
    weight : float
        The weight of h for ``weighted`` (a number >= 1).
    progress : bool
        Show a tqdm counter of expanded positions (best-first methods).

    Returns
    -------
    Solution
        ``verdict``, ``moves`` (pours in the level's tube numbering), ``states`` (Levels),
        ``stats()`` with the shared keys and ``details()`` with the bound.

    Raises
    ------
    PuzzleError
        An unknown method (``seed`` is now ``writeup``), a bad budget or weight, or
        `level` not a `Level`.
    """
    if method not in METHODS:
        hint = "; the write-up's method is now called 'writeup'" if method == "seed" else ""
        raise InvalidPuzzleError(
            f"unknown method {method!r:.40}; expected one of {', '.join(METHODS)}{hint}"
        )
    level = check_level(level)
    limits = as_budget(budget, max_expanded, max_seconds)  # checked before any work
    weight = number(weight, "weight", minimum=1)
    if method == "writeup":
        from .writeup import solve_writeup  # the write-up's method builds the same Result

        return solve_writeup(level, budget=limits)
    t0 = time.perf_counter()
    sol = Solution(level=level, method=method, verdict="unsolvable")
    if not level.is_balanced:
        bad = [c for c, n in level.counts().items() if n % level.capacity]
        sol.note = f"color {bad[0]!r} cannot fill whole tubes (count not a multiple of capacity)"
        sol.seconds = time.perf_counter() - t0
        return sol
    problem = WaterSortProblem(level)
    sol.bound = problem.h(problem.initial)
    if level.is_solved():
        sol.verdict = "optimal"
    else:
        if method == "bfs":
            res = bfs(problem, budget=limits)
        elif method == "dfs":
            res = dfs(problem, budget=limits)
        else:
            g_weight, reopen = _BEST_FIRST[method]
            h_weight = weight if method == "weighted" else 1.0
            res = best_first(
                problem, h_weight, g_weight, method, budget=limits,
                ties="newest", reopen=reopen, progress=progress,
            )  # fmt: skip
        sol.verdict, sol.note = res.verdict, res.note
        if sol.verdict == "optimal" and method not in PROVES_OPTIMAL:
            sol.verdict = "feasible"  # e.g. weighted with weight 1: no proof of optimality
        sol.expanded, sol.generated = res.expanded, res.generated
        sol.max_frontier = res.max_frontier
        if res.solved:
            sol.moves = _labelled_pours(level, res.states)
    if sol.solved:
        sol.states = level.play(sol.moves)
    sol.seconds = time.perf_counter() - t0
    return sol


def optimal_length(
    level: Level,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
) -> int | None:
    """The fewest pours that sort `level`, or None when it is unsolvable.

    Raises `TooLargeError` when the budget runs out before the answer is known.
    """
    sol = solve(level, "optimal", max_expanded, max_seconds, budget=budget)
    if sol.verdict == "limit":
        raise TooLargeError(
            f"gave up after {sol.expanded} expansions: raise the budget, or use "
            "solve(level, 'greedy') for a (not necessarily shortest) answer"
        )
    return sol.length


__all__ = [
    "METHODS",
    "PROVES_OPTIMAL",
    "Solution",
    "WaterSortProblem",
    "children",
    "optimal_length",
    "solve",
]
