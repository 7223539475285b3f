"""Generic state-space search, after aima-python: one problem interface, many algorithms.

A puzzle describes itself as a `SearchProblem` (initial state, actions, result, goal test,
step cost and an optional heuristic `h`). Every algorithm returns a `SearchResult` with the
path, its cost, a verdict and statistics, so solvers for different puzzles are compared on
the same terms. States must be hashable; ties are broken deterministically (lower h first,
then first generated, or last generated with `ties="newest"`), so a run is reproducible.
Every algorithm takes a budget (`max_expanded`, `max_seconds`; None = unlimited, 0 = stop at
once) and reports an exhausted one as verdict `limit`.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, runtime_checkable

from .checks import choice, number
from .errors import PuzzleError
from .results import Budget, Result, as_budget

__all__ = [
    "ALGORITHMS",
    "Problem",
    "SearchProblem",
    "SearchResult",
    "astar",
    "best_first",
    "bfs",
    "check_problem",
    "dfs",
    "greedy",
    "idastar",
    "weighted_astar",
]

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


@dataclass(kw_only=True)
class SearchResult(Result):
    """What a generic search found (moves = the actions on the path) and its cost."""

    cost: float | None = None

    def details(self) -> dict:
        """The path cost (differs from the length when steps cost other than 1)."""
        return {"cost": self.cost}


def check_problem(problem: object) -> SearchProblem:
    """`problem` if it has what a search needs (initial, actions, result, is_goal), else a
    PuzzleError naming what is missing."""
    needs = ("initial", "actions", "result", "is_goal")
    missing = [name for name in needs if not hasattr(problem, name)]
    if missing:
        raise PuzzleError(
            f"a search problem needs {', '.join(needs)} (see search.Problem); "
            f"{type(problem).__name__} lacks {', '.join(missing)}"
        )
    return problem


def _path(parents: dict, state: State) -> tuple[list, list]:
    """Follow parent links back from `state`: (states, actions) from the start."""
    states, actions = [state], []
    while parents[state] is not None:
        state, action = parents[state]
        states.append(state)
        actions.append(action)
    return states[::-1], actions[::-1]


def _step_cost(problem: SearchProblem, state: State, action: Action, child: State) -> float:
    """One step's cost, refused when negative or not a number (searches need costs >= 0)."""
    cost = problem.action_cost(state, action, child)
    if not isinstance(cost, int | float) or not cost >= 0:  # catches NaN too
        _step_cost_error(action, cost)
    return cost


def _path_cost(problem: SearchProblem, states: list, actions: list) -> float:
    """The summed step costs along a path."""
    steps = zip(states, actions, states[1:], strict=False)
    return sum(_step_cost(problem, s, a, t) for s, a, t in steps)


def _finish(res: SearchResult, limits: Budget) -> SearchResult:
    """Stamp the time and explain a `limit` verdict."""
    res.seconds = limits.elapsed()
    if res.verdict == "limit" and not res.note:
        res.note = limits.why()
    return res


def bfs(
    problem: SearchProblem,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
) -> SearchResult:
    """Breadth-first graph search: fewest actions (optimal for unit costs)."""
    limits = as_budget(budget, max_expanded, max_seconds)
    start = check_problem(problem).initial
    res = SearchResult(method="bfs", verdict="unsolvable")
    parents: dict = {start: None}
    frontier = deque([start])
    if problem.is_goal(start):
        frontier.clear()
        res.verdict, res.states, res.cost = "optimal", [start], 0
    while frontier:
        if limits.exhausted(res.expanded):
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
                res.states, res.moves = _path(parents, child)
                res.verdict = "optimal"
                res.cost = _path_cost(problem, res.states, res.moves)
                frontier.clear()
                break
            frontier.append(child)
        res.max_frontier = max(res.max_frontier, len(frontier))
    return _finish(res, limits)


def best_first(
    problem: SearchProblem,
    weight: float = 1.0,
    g_weight: float = 1.0,
    name: str = "astar",
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
    ties: str = "oldest",
    reopen: bool = True,
    progress: bool = False,
) -> SearchResult:
    """Best-first search on f = g_weight * g + weight * h.

    With g_weight = weight = 1 and an admissible h this is A* and the answer is optimal;
    other weights give weighted A* (weight > 1) or greedy search (g_weight = 0).

    Parameters
    ----------
    problem : SearchProblem
        The puzzle. If it has a method ``successors(state, h_state)`` returning
        ``(action, child, step_cost, h_child)`` tuples, that one call replaces `actions`,
        `result`, `action_cost` and `h` per child (puzzles that update h incrementally use
        it); step costs must still be numbers >= 0.
    weight, g_weight : float
        The weights of h and g in f (numbers >= 0).
    name : str
        The `method` recorded in the result.
    max_expanded, max_seconds : int or float, optional
        The budget (`results.Budget`: None = unlimited, 0 = stop at once).
    budget : Budget, optional
        A `Budget` made by the caller instead of the two limits (its clock keeps running).
    ties : {"oldest", "newest"}
        Among entries of equal f and h, expand the first generated (breadth-like) or the
        last generated (dives toward goals; what water sort uses).
    reopen : bool
        Re-open a state reached again more cheaply (keeps A* optimal with an inconsistent
        h). False expands each state once: right for a consistent h, and the usual choice
        for greedy and weighted search.
    progress : bool
        Show a tqdm counter of expanded states.

    Returns
    -------
    SearchResult
        Verdict `optimal` (unit weights with re-opening), `feasible` (other weights, or no
        re-opening), `unsolvable`
        (frontier exhausted) or `limit` (budget spent).

    Raises
    ------
    PuzzleError
        A bad weight, budget or tie rule, or a step cost that is negative or not a number.
    """
    weight = number(weight, "weight", minimum=0)
    g_weight = number(g_weight, "g_weight", minimum=0)
    step = -1 if choice(ties, "ties", ("oldest", "newest")) == "newest" else 1
    limits = as_budget(budget, max_expanded, max_seconds)
    start = check_problem(problem).initial
    res = SearchResult(method=name, verdict="unsolvable")
    # Without re-opening, A* is optimal only for a consistent h, which it cannot check: such a
    # run reports `feasible` (a proof needs reopen=True, or a search that says so itself).
    optimal = g_weight == 1.0 and weight <= 1.0 and reopen
    successors = getattr(problem, "successors", None)
    if successors is None:
        successors = partial(_successors, problem)
    best_g: dict = {start: 0}
    parents: dict = {start: None}
    h0 = problem.h(start)
    counter = 0
    frontier = [(weight * h0, h0, counter, 0, start)]
    bar = _bar(progress)
    expanded = generated = max_frontier = 0
    pop, push, is_goal = heapq.heappop, heapq.heappush, problem.is_goal
    max_nodes, timed = limits.kernel_nodes(), limits.max_seconds is not None
    while frontier:
        if expanded >= max_nodes or (timed and _out_of_time(limits, expanded)):
            res.verdict = "limit"
            break
        _, hs, _, g, state = pop(frontier)
        if g > best_g[state]:
            continue  # a stale entry: this state was reached more cheaply since
        if is_goal(state):
            res.states, res.moves = _path(parents, state)
            res.cost = g
            res.verdict = "optimal" if optimal else "feasible"
            break
        expanded += 1
        if bar is not None and expanded % 10_000 == 0:
            bar.update(10_000)
        for action, child, cost, h in successors(state, hs):
            generated += 1
            if not cost >= 0:  # catches NaN too
                _step_cost_error(action, cost)
            g2 = g + cost
            old = best_g.get(child)
            if old is not None and (old <= g2 or not reopen):
                continue
            best_g[child] = g2
            parents[child] = (state, action)
            counter += step
            push(frontier, (g_weight * g2 + weight * h, h, counter, g2, child))
        if len(frontier) > max_frontier:
            max_frontier = len(frontier)
    res.expanded, res.generated, res.max_frontier = expanded, generated, max_frontier
    if bar is not None:
        bar.close()
    return _finish(res, limits)


def _out_of_time(limits: Budget, expanded: int) -> bool:
    """The clock part of the budget, read every 64 expansions (and before the first)."""
    return expanded % 64 == 0 and limits.exhausted(expanded)


def _successors(problem: SearchProblem, state: State, h_state: float) -> Iterable[tuple]:
    """(action, child, step cost, h of child) for every action: the default `successors`."""
    for action in problem.actions(state):
        child = problem.result(state, action)
        yield action, child, _step_cost(problem, state, action, child), problem.h(child)


def _step_cost_error(action: Action, cost: object) -> None:
    """Refuse a negative or non-numeric step cost."""
    raise PuzzleError(
        f"action {action!r:.60} costs {cost!r}; search needs step costs that are numbers >= 0"
    )


def _bar(progress: bool):
    """A tqdm counter of expanded states, or None."""
    if not progress:
        return None
    from tqdm import tqdm

    return tqdm(desc="expanded", unit=" states", unit_scale=True)


def dfs(
    problem: SearchProblem,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
) -> SearchResult:
    """Depth-first graph search: first action first, each state visited once.

    Usually quick and far from shortest: the verdict is `feasible` (`optimal` only when the
    start is a goal), `unsolvable` when every reachable state was visited, `limit` when the
    budget (None = unlimited, 0 = stop at once) ran out.
    """
    limits = as_budget(budget, max_expanded, max_seconds)
    start = check_problem(problem).initial
    res = SearchResult(method="dfs", verdict="unsolvable")
    parents: dict = {start: None}
    stack = [start]
    result, push = problem.result, stack.append
    expanded = generated = max_frontier = 0
    max_nodes, timed = limits.kernel_nodes(), limits.max_seconds is not None
    while stack:
        if expanded >= max_nodes or (timed and _out_of_time(limits, expanded)):
            res.verdict = "limit"
            break
        state = stack.pop()
        if problem.is_goal(state):
            res.states, res.moves = _path(parents, state)
            res.cost = _path_cost(problem, res.states, res.moves)
            res.verdict = "feasible" if res.moves else "optimal"
            break
        expanded += 1
        kids = [(action, result(state, action)) for action in problem.actions(state)]
        generated += len(kids)
        for action, child in reversed(kids):
            if child not in parents:
                parents[child] = (state, action)
                push(child)
        if len(stack) > max_frontier:
            max_frontier = len(stack)
    res.expanded, res.generated, res.max_frontier = expanded, generated, max_frontier
    return _finish(res, limits)


def astar(
    problem: SearchProblem,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
) -> SearchResult:
    """A* search: optimal when h is admissible (re-opening keeps it so if h is inconsistent)."""
    return best_first(problem, 1.0, 1.0, "astar", max_expanded, max_seconds, budget=budget)


def weighted_astar(
    problem: SearchProblem,
    weight: float = 2.0,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
) -> SearchResult:
    """Weighted A* (f = g + w*h): faster, cost at most w times the optimum for admissible h."""
    weight = number(weight, "weight", minimum=1)
    return best_first(
        problem, weight, 1.0, f"wastar(w={weight:g})", max_expanded, max_seconds, budget=budget
    )


def greedy(
    problem: SearchProblem,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
) -> SearchResult:
    """Greedy best-first search on h alone: a feasible answer, usually quickly."""
    return best_first(problem, 1.0, 0.0, "greedy", max_expanded, max_seconds, budget=budget)


def idastar(
    problem: SearchProblem,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
) -> SearchResult:
    """Iterative-deepening A*: optimal with admissible h, memory linear in the depth.

    The depth-first part runs on an explicit stack (no recursion), so goals thousands of
    moves deep are fine.
    """
    limits = as_budget(budget, max_expanded, max_seconds)
    start = check_problem(problem).initial
    res = SearchResult(method="idastar", verdict="unsolvable")
    bound = problem.h(start)
    while res.verdict == "unsolvable":
        found, smallest = _bounded_dfs(problem, bound, res, limits)
        if found is not None:
            res.verdict = "optimal"
            res.states, res.moves = found
            res.cost = _path_cost(problem, res.states, res.moves)
        elif smallest == math.inf:
            break  # nothing beyond the bound: no goal is reachable
        else:
            bound = smallest
    return _finish(res, limits)


def _bounded_dfs(problem, bound, res: SearchResult, limits: Budget):
    """One IDA* iteration: (path, _) if a goal has f <= bound, else (None, smallest f above it).

    Sets `res.verdict = "limit"` and returns (None, inf) when the budget runs out.
    """
    start = check_problem(problem).initial
    states, actions, costs = [start], [], [0.0]
    on_path = {start}
    stack = [None]  # per depth: an iterator over the remaining actions (None = not expanded)
    smallest = math.inf
    while stack:
        state, g = states[-1], costs[-1]
        if stack[-1] is None:
            f = g + problem.h(state)
            if f > bound or problem.is_goal(state):
                if f <= bound:
                    return (list(states), list(actions)), bound
                smallest = min(smallest, f)
                stack.pop()
                _pop(states, actions, costs, on_path)
                continue
            if limits.exhausted(res.expanded):
                res.verdict = "limit"
                return None, math.inf
            res.expanded += 1
            stack[-1] = iter(list(problem.actions(state)))
        for action in stack[-1]:
            child = problem.result(state, action)
            res.generated += 1
            if child in on_path:
                continue
            states.append(child)
            actions.append(action)
            costs.append(g + _step_cost(problem, state, action, child))
            on_path.add(child)
            stack.append(None)
            res.max_frontier = max(res.max_frontier, len(states))
            break
        else:
            stack.pop()
            _pop(states, actions, costs, on_path)
    return None, smallest


def _pop(states: list, actions: list, costs: list, on_path: set) -> None:
    """Leave the deepest state of the IDA* path."""
    on_path.discard(states.pop())
    costs.pop()
    if actions:
        actions.pop()


ALGORITHMS = {
    "bfs": bfs,
    "dfs": dfs,
    "astar": astar,
    "idastar": idastar,
    "weighted_astar": weighted_astar,
    "greedy": greedy,
}
