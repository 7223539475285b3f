"""Generic state-space search, after aima-python: one problem interface, many algorithms.

A puzzle describes itself as a `SearchProblem` (initial state, actions, result, goal test,
step cost and an optional heuristic `h`). Every algorithm returns a `SearchResult` with the
path, its cost, a verdict and statistics, so solvers for different puzzles are compared on
the same terms. States must be hashable; ties are broken deterministically (lower h first,
then first generated), so a run is reproducible.
"""

from __future__ import annotations

import heapq
import math
import time
from collections import deque
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

State = Hashable
Action = Any


@runtime_checkable
class SearchProblem(Protocol):
    """What a search algorithm needs to know about a puzzle."""

    initial: State

    def actions(self, state: State) -> Iterable[Action]:
        """The actions available in `state`."""
        ...

    def result(self, state: State, action: Action) -> State:
        """The state reached by doing `action` in `state`."""
        ...

    def is_goal(self, state: State) -> bool:
        """Is `state` a goal?"""
        ...

    def action_cost(self, state: State, action: Action, result: State) -> float:
        """The cost of one step (1 for unit-cost puzzles)."""
        ...

    def h(self, state: State) -> float:
        """A lower bound on the cost from `state` to a goal (0 if unknown)."""
        ...


class Problem:
    """A convenient base class: unit costs and h = 0 unless overridden."""

    def __init__(self, initial: State):
        self.initial = initial

    def actions(self, state: State) -> Iterable[Action]:
        """The actions available in `state`."""
        raise NotImplementedError

    def result(self, state: State, action: Action) -> State:
        """The state reached by doing `action` in `state`."""
        raise NotImplementedError

    def is_goal(self, state: State) -> bool:
        """Is `state` a goal?"""
        raise NotImplementedError

    def action_cost(self, state: State, action: Action, result: State) -> float:
        """Unit step cost."""
        return 1

    def h(self, state: State) -> float:
        """No estimate: plain uniform-cost search."""
        return 0


SOLVED = ("optimal", "feasible")  # verdicts that come with an answer


class Verdict:
    """Shared by every solver's result: `solved` and `length` follow from the verdict.

    A result class names the list that holds its steps in `steps_field` (actions, moves, pours).
    """

    verdict: str
    steps_field = "actions"

    @property
    def solved(self) -> bool:
        """Did the search reach a goal?"""
        return self.verdict in SOLVED

    @property
    def length(self) -> int:
        """Number of steps on the path (-1 when unsolved)."""
        return len(getattr(self, self.steps_field)) if self.solved else -1


@dataclass
class SearchResult(Verdict):
    """What a search found and what it cost to find it."""

    algorithm: str
    verdict: str  # "optimal", "feasible", "unsolvable" or "limit" (gave up: max_expanded reached)
    states: list = field(default_factory=list)  # initial ... goal, empty unless solved
    actions: list = field(default_factory=list)
    cost: float = math.inf
    expanded: int = 0
    generated: int = 0
    max_frontier: int = 0
    seconds: float = 0.0

    def stats(self) -> dict:
        """The statistics as a flat dict (one table row)."""
        return {
            "algorithm": self.algorithm,
            "verdict": self.verdict,
            "cost": self.cost,
            "length": self.length,
            "expanded": self.expanded,
            "generated": self.generated,
            "max_frontier": self.max_frontier,
            "seconds": self.seconds,
        }


def _path(parents: dict, state: State) -> tuple[list, list]:
    """Follow parent links back from `state`: (states, actions) from the start."""
    states, actions = [state], []
    while parents[state] is not None:
        state, action = parents[state]
        states.append(state)
        actions.append(action)
    return states[::-1], actions[::-1]


def bfs(problem: SearchProblem, max_expanded: int | None = None) -> SearchResult:
    """Breadth-first graph search: fewest actions (optimal for unit costs)."""
    t0 = time.perf_counter()
    start = problem.initial
    res = SearchResult("bfs", "unsolvable")
    parents: dict = {start: None}
    frontier = deque([start])
    if problem.is_goal(start):
        frontier.clear()
        res.verdict, res.states, res.cost = "optimal", [start], 0
    while frontier:
        if max_expanded is not None and res.expanded >= max_expanded:
            res.verdict = "limit"
            break
        state = frontier.popleft()
        res.expanded += 1
        for action in problem.actions(state):
            child = problem.result(state, action)
            res.generated += 1
            if child in parents:
                continue
            parents[child] = (state, action)
            if problem.is_goal(child):
                res.states, res.actions = _path(parents, child)
                res.verdict = "optimal"
                res.cost = sum(
                    problem.action_cost(s, a, t)
                    for s, a, t in zip(res.states, res.actions, res.states[1:], strict=False)
                )
                frontier.clear()
                break
            frontier.append(child)
        res.max_frontier = max(res.max_frontier, len(frontier))
    res.seconds = time.perf_counter() - t0
    return res


def best_first(
    problem: SearchProblem,
    weight: float = 1.0,
    g_weight: float = 1.0,
    name: str = "astar",
    max_expanded: int | None = None,
) -> SearchResult:
    """Best-first search on f = g_weight * g + weight * h, re-opening states reached more cheaply.

    With g_weight = weight = 1 and an admissible h this is A* and the answer is optimal;
    other weights give weighted A* (weight > 1) or greedy search (g_weight = 0).
    """
    t0 = time.perf_counter()
    start = problem.initial
    res = SearchResult(name, "unsolvable")
    optimal = g_weight == 1.0 and weight <= 1.0
    best_g: dict = {start: 0}
    parents: dict = {start: None}
    h0 = problem.h(start)
    counter = 0
    frontier = [(weight * h0, h0, counter, 0, start)]
    while frontier:
        if max_expanded is not None and res.expanded >= max_expanded:
            res.verdict = "limit"
            break
        _, _, _, g, state = heapq.heappop(frontier)
        if g > best_g[state]:
            continue  # a stale entry: this state was reached more cheaply since
        if problem.is_goal(state):
            res.states, res.actions = _path(parents, state)
            res.cost = g
            res.verdict = "optimal" if optimal else "feasible"
            break
        res.expanded += 1
        for action in problem.actions(state):
            child = problem.result(state, action)
            res.generated += 1
            g2 = g + problem.action_cost(state, action, child)
            if g2 < best_g.get(child, math.inf):
                best_g[child] = g2
                parents[child] = (state, action)
                h = problem.h(child)
                counter += 1
                heapq.heappush(frontier, (g_weight * g2 + weight * h, h, counter, g2, child))
        res.max_frontier = max(res.max_frontier, len(frontier))
    res.seconds = time.perf_counter() - t0
    return res


def astar(problem: SearchProblem, max_expanded: int | None = None) -> SearchResult:
    """A* search: optimal when h is admissible (re-opening keeps it so if h is inconsistent)."""
    return best_first(problem, 1.0, 1.0, "astar", max_expanded)


def weighted_astar(
    problem: SearchProblem, weight: float = 2.0, max_expanded: int | None = None
) -> SearchResult:
    """Weighted A* (f = g + w*h): faster, cost at most w times the optimum for admissible h."""
    return best_first(problem, weight, 1.0, f"wastar(w={weight:g})", max_expanded)


def greedy(problem: SearchProblem, max_expanded: int | None = None) -> SearchResult:
    """Greedy best-first search on h alone: a feasible answer, usually quickly."""
    return best_first(problem, 1.0, 0.0, "greedy", max_expanded)


def idastar(problem: SearchProblem, max_expanded: int | None = None) -> SearchResult:
    """Iterative-deepening A*: optimal with admissible h, memory linear in the depth."""
    t0 = time.perf_counter()
    start = problem.initial
    res = SearchResult("idastar", "unsolvable")
    bound = problem.h(start)
    path_states = [start]
    path_actions: list = []
    on_path = {start}

    def dfs(g: float, bound: float) -> float:
        """Depth-first search below `bound`; returns the smallest f that exceeded it."""
        state = path_states[-1]
        f = g + problem.h(state)
        if f > bound:
            return f
        if problem.is_goal(state):
            return -1.0
        if max_expanded is not None and res.expanded >= max_expanded:
            raise _Limit
        res.expanded += 1
        smallest = math.inf
        for action in problem.actions(state):
            child = problem.result(state, action)
            res.generated += 1
            if child in on_path:
                continue
            path_states.append(child)
            path_actions.append(action)
            on_path.add(child)
            res.max_frontier = max(res.max_frontier, len(path_states))
            t = dfs(g + problem.action_cost(state, action, child), bound)
            if t < 0:
                return t
            on_path.discard(child)
            path_states.pop()
            path_actions.pop()
            smallest = min(smallest, t)
        return smallest

    try:
        while True:
            t = dfs(0, bound)
            if t < 0:
                res.verdict = "optimal"
                res.states, res.actions = list(path_states), list(path_actions)
                res.cost = sum(
                    problem.action_cost(s, a, u)
                    for s, a, u in zip(res.states, res.actions, res.states[1:], strict=False)
                )
                break
            if t == math.inf:
                break
            bound = t
    except _Limit:
        res.verdict = "limit"
    res.seconds = time.perf_counter() - t0
    return res


class _Limit(Exception):
    """Raised inside IDA* when max_expanded is reached."""


ALGORITHMS = {
    "bfs": bfs,
    "astar": astar,
    "idastar": idastar,
    "weighted_astar": weighted_astar,
    "greedy": greedy,
}
