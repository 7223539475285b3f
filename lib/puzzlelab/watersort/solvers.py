"""Solvers: optimal A*, the write-up's A* (baseline), BFS, DFS, greedy and weighted A*.

The fast solvers work on a compact canonical state: colours become small integers, each tube
a `bytes` string (bottom to top) and a position the *sorted* tuple of its tubes, because tubes
are unlabelled - any permutation of tubes is the same position. Pour sequences are mapped
back to the level's own tube numbers at the end (`_labelled_pours`).

Pruning in the successor function (each rule only drops successors that are duplicates of
ones kept, or the state itself, so the search graph keeps every distinct neighbour and every
shortest path; this is why exhausting it proves a level unsolvable):
1. Identical tubes: with tubes sorted, equal tubes are adjacent. Pouring from (or onto) a
   tube equal to the previous one gives the same canonical successor as using the previous
   one, so only the first of a group is used as source (and as destination).
2. One empty destination: all empty tubes are identical (rule 1 applied to empties).
3. A source that holds a single colour is never poured into an empty tube: the whole tube
   moves (an empty tube has room for it), so the canonical position is unchanged - a self-
   loop, which no shortest path (and no search) needs.
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from dataclasses import dataclass, field

from ..errors import InvalidPuzzleError, TooLargeError
from ..search import Problem, Verdict, bfs
from .level import Level, Pour, is_solution

Code = tuple[bytes, ...]  # canonical encoded position: sorted tubes, colours as bytes 1..C

METHODS = ("optimal", "seed", "bfs", "dfs", "greedy", "weighted")


@dataclass
class Solution(Verdict):
    """A solver's answer: the pours, a verdict and what it cost to find them."""

    steps_field = "pours"

    level: Level
    method: str
    verdict: str  # "optimal", "feasible", "unsolvable", "limit" (gave up) or "unknown"
    pours: list[Pour] = field(default_factory=list)
    expanded: int = 0
    generated: int = 0
    seconds: float = 0.0
    bound: int = 0  # the admissible lower bound at the start
    note: str = ""

    def states(self) -> list[Level]:
        """The positions along the solution, from the level to the sorted position."""
        return self.level.play(self.pours)

    def is_valid(self) -> bool:
        """Do the pours solve the level (checked by replaying them)?"""
        return self.solved and is_solution(self.level, self.pours)

    def stats(self) -> dict:
        """One table row of statistics."""
        return {
            "level": self.level.name,
            "method": self.method,
            "verdict": self.verdict,
            "length": self.length,
            "bound": self.bound,
            "expanded": self.expanded,
            "generated": self.generated,
            "seconds": self.seconds,
        }


# ---- encoding ---------------------------------------------------------------------------
def encode(level: Level) -> tuple[list[bytes], dict[str, int]]:
    """The level's tubes as bytes (colour k of `level.colors` -> byte k+1), labelled order."""
    index = {c: k + 1 for k, c in enumerate(level.colors)}
    if len(index) > 254:
        raise InvalidPuzzleError(f"{len(index)} colours; at most 254 are supported")
    return [bytes(index[c] for c in t) for t in level.tubes], index


def canonical(tubes: list[bytes] | tuple[bytes, ...]) -> Code:
    """Tubes sorted: one key per position up to renumbering tubes."""
    return tuple(sorted(tubes))


class _Bound:
    """The admissible bound on encoded positions, with per-tube run counts cached."""

    def __init__(self, level: Level):
        _, index = encode(level)
        need = {index[c]: n // level.capacity for c, n in level.counts().items()}
        self.need = None if all(v == 1 for v in need.values()) else need
        self.runs: dict[bytes, int] = {}

    def tube_runs(self, t: bytes) -> int:
        """Runs in one tube (cached)."""
        r = self.runs.get(t)
        if r is None:
            r = sum(1 for k in range(len(t)) if k == 0 or t[k] != t[k - 1])
            self.runs[t] = r
        return r

    def __call__(self, state: Code) -> int:
        """h = runs - usable bottoms (see bounds.lower_bound for the proof)."""
        runs = self.runs
        b = 0
        for t in state:
            r = runs.get(t)
            if r is None:
                r = self.tube_runs(t)
            b += r
        if self.need is None:
            bottoms = {t[0] for t in state if t}
            return b - len(bottoms)
        cnt = Counter(t[0] for t in state if t)
        return b - sum(min(v, self.need[c]) for c, v in cnt.items())


def children(state: Code, cap: int) -> list[Code]:
    """Canonical successors of `state` under the pour rule, with the safe pruning above."""
    return [child for child, _ in expand(state, cap)]


def expand(state: Code, cap: int, hs: int = 0, bound: _Bound | None = None) -> list:
    """(successor, its bound) pairs; the bound is updated incrementally from `hs` when given.

    Destinations are looked up by top colour (plus the first empty tube), so a position costs
    time in proportion to its tubes and successors rather than to all tube pairs.
    """
    groups: dict[int, list] = {}  # top colour -> [first, twin] indices of destination groups
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
                out.append((child, 0))
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
                if not d and bottoms[c] < m:  # a new usable bottom of colour c
                    hc -= 1
                if not ns and bottoms[c] <= m:  # the source's bottom c was a usable one
                    hc += 1
            out.append((child, hc))
    return out


def children_reference(state: Code, cap: int) -> set[Code]:
    """Every canonical successor, without pruning (slow, obvious; used in tests)."""
    out = set()
    for i, s in enumerate(state):
        for j, d in enumerate(state):
            if i == j or not s or len(d) >= cap or (d and d[-1] != s[-1]):
                continue
            run = len(s) - len(s.rstrip(s[-1:]))
            k = min(run, cap - len(d))
            new = list(state)
            new[i], new[j] = s[: len(s) - k], d + s[len(s) - k :]
            out.add(canonical(new))
    out.discard(state)
    return out


def is_goal(state: Code, cap: int) -> bool:
    """Every tube empty or full of one colour."""
    return all(not t or (len(t) == cap and t.count(t[0]) == cap) for t in state)


# ---- mapping a canonical path back to labelled pours ----------------------------------------
def _labelled_pours(level: Level, path: list[Code]) -> list[Pour]:
    """Pours (i, j) in the level's tube numbering that follow the canonical `path`."""
    tubes, _ = encode(level)
    cap = level.capacity
    pours = []
    for nxt in path[1:]:
        for i, s in enumerate(tubes):
            found = False
            for j, d in enumerate(tubes):
                if i == j or not s or len(d) >= cap or (d and d[-1] != s[-1]):
                    continue
                run = len(s) - len(s.rstrip(s[-1:]))
                k = min(run, cap - len(d))
                new = list(tubes)
                new[i], new[j] = s[: len(s) - k], d + s[len(s) - k :]
                if canonical(new) == nxt:
                    pours.append((i, j))
                    tubes, found = new, True
                    break
            if found:
                break
        else:
            raise RuntimeError("internal error: a canonical step has no labelled pour")
    return pours


def _path(parent: dict, state: Code) -> list[Code]:
    """Follow parent links back to the start."""
    path = [state]
    while (state := parent[state]) is not None:
        path.append(state)
    return path[::-1]


# ---- the search engines ---------------------------------------------------------------------
@dataclass
class _Run:
    verdict: str
    path: list[Code]
    expanded: int
    generated: int


def _best_first(
    start: Code,
    cap: int,
    h: _Bound,
    g_weight: float,
    h_weight: float,
    max_expanded: int | None,
    progress: bool,
) -> _Run:
    """Best-first search on f = g_weight*g + h_weight*h; A* (optimal) when both weights are 1.

    With a consistent h, A* never needs to re-open a closed state, so each state is expanded
    once. Ties go to the smaller h, then to the newest entry (dives toward goals).
    """
    optimal = g_weight == 1 and h_weight <= 1
    h0 = h(start)
    best = {start: 0}
    parent: dict = {start: None}
    closed: set = set()
    count = 0
    heap = [(h_weight * h0, h0, 0, 0, start)]
    expanded = generated = 0
    bar = _bar(progress)
    while heap:
        _, hs, _, g, state = heapq.heappop(heap)
        if state in closed or g > best[state]:
            continue
        if hs == 0:  # h = 0 exactly at goals
            _close(bar)
            return _Run(
                "optimal" if optimal else "feasible", _path(parent, state), expanded, generated
            )
        if max_expanded is not None and expanded >= max_expanded:
            _close(bar)
            return _Run("limit", [], expanded, generated)
        closed.add(state)
        expanded += 1
        if bar is not None and expanded % 10000 == 0:
            bar.update(10000)
        g2 = g + 1
        for child, hc in expand(state, cap, hs, h):
            generated += 1
            if child in closed:
                continue
            old = best.get(child)
            if old is not None and (old <= g2 or not optimal):
                continue
            best[child] = g2
            parent[child] = state
            count -= 1
            heapq.heappush(heap, (g_weight * g2 + h_weight * hc, hc, count, g2, child))
    _close(bar)
    return _Run("unsolvable", [], expanded, generated)


def _dfs(start: Code, cap: int, max_expanded: int | None) -> _Run:
    """Depth-first graph search: first successor first, each state visited once."""
    parent: dict = {start: None}
    stack = [start]
    expanded = generated = 0
    while stack:
        state = stack.pop()
        if is_goal(state, cap):
            return _Run("feasible", _path(parent, state), expanded, generated)
        if max_expanded is not None and expanded >= max_expanded:
            return _Run("limit", [], expanded, generated)
        expanded += 1
        kids = children(state, cap)
        generated += len(kids)
        for child in reversed(kids):
            if child not in parent:
                parent[child] = state
                stack.append(child)
    return _Run("unsolvable", [], expanded, generated)


class WaterSortProblem(Problem):
    """The canonical state space as a `puzzlelab.search` problem (actions are successor states)."""

    def __init__(self, level: Level):
        tubes, _ = encode(level)
        super().__init__(canonical(tubes))
        self.cap = level.capacity
        self._h = _Bound(level)

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
        """The admissible bound."""
        return self._h(state)


def _bar(progress: bool):
    """A tqdm counter of expanded states, or None."""
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(desc="expanded", unit=" states", unit_scale=True)


def _close(bar) -> None:
    if bar is not None:
        bar.close()


# ---- the front door -------------------------------------------------------------------------
def solve(
    level: Level,
    method: str = "optimal",
    max_expanded: int | None = None,
    weight: float = 2.0,
    progress: bool = False,
) -> Solution:
    """Solve `level` with one of METHODS; the verdict says what the answer proves.

    - optimal: A* with the admissible bound on canonical states: shortest, or a proof that
      no solution exists ("unsolvable") when the reachable positions are exhausted.
    - seed: the write-up's A* with its own (overestimating) estimate: "feasible" answers.
    - bfs: breadth-first (shortest; slow); dfs: depth-first (fast, long answers);
      greedy: best-first on the bound alone; weighted: A* with f = g + weight*h.
    `max_expanded` caps the work (verdict "limit" when reached).
    """
    if method not in METHODS:
        raise InvalidPuzzleError(f"unknown method {method!r}; expected one of {', '.join(METHODS)}")
    if not isinstance(level, Level):
        raise TypeError(f"expected a Level, got {type(level).__name__}")
    t0 = time.perf_counter()
    hfun = _Bound(level)
    tubes, _ = encode(level)
    start = canonical(tubes)
    bound = hfun(start) if level.is_balanced else 0
    sol = Solution(level, method, "unsolvable", bound=bound)
    if not level.is_balanced:
        bad = [c for c, n in level.counts().items() if n % level.capacity]
        sol.note = f"colour {bad[0]!r} cannot fill whole tubes (count not a multiple of capacity)"
    elif level.is_solved():
        sol.verdict = "optimal"
    elif method == "seed":
        from .seed import seed_solve

        sol = seed_solve(level, max_expanded=max_expanded)
        sol.bound = bound
        return sol
    else:
        if method == "bfs":
            res = bfs(WaterSortProblem(level), max_expanded=max_expanded)
            run = _Run(res.verdict, res.states, res.expanded, res.generated)
        elif method == "dfs":
            run = _dfs(start, level.capacity, max_expanded)
        else:
            gw, hw = {"optimal": (1, 1), "greedy": (0, 1), "weighted": (1, weight)}[method]
            run = _best_first(start, level.capacity, hfun, gw, hw, max_expanded, progress)
        sol.verdict, sol.expanded, sol.generated = run.verdict, run.expanded, run.generated
        if run.path:
            sol.pours = _labelled_pours(level, run.path)
    sol.seconds = time.perf_counter() - t0
    return sol


def optimal_length(level: Level, max_expanded: int | None = None) -> int | None:
    """The fewest pours that sort `level`, or None when it is unsolvable."""
    sol = solve(level, "optimal", max_expanded=max_expanded)
    if sol.verdict == "limit":
        raise TooLargeError(
            f"gave up after {sol.expanded} expansions: raise max_expanded, or use "
            "solve(level, 'greedy') for a (not necessarily shortest) answer"
        )
    return sol.length if sol.solved else None


__all__ = ["METHODS", "Solution", "WaterSortProblem", "children", "solve", "optimal_length"]
