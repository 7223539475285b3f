"""Generic search (puzzlelab.search): optimality, duplicate handling, limits and ties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse.csgraph import shortest_path

from puzzlelab.errors import PuzzleError
from puzzlelab.search import (
    Problem,
    SearchProblem,
    astar,
    best_first,
    bfs,
    dfs,
    greedy,
    idastar,
    weighted_astar,
)


class GraphProblem(Problem):
    """Walk a weighted directed graph from node 0 to `goal`; h given per node."""

    def __init__(self, weights: dict, goal: int, h: dict | None = None):
        super().__init__(0)
        self.weights, self.goal, self._h = weights, goal, h or {}

    def actions(self, state):
        return sorted(v for (u, v) in self.weights if u == state)

    def result(self, state, action):
        return action

    def is_goal(self, state):
        return state == self.goal

    def action_cost(self, state, action, result):
        return self.weights[state, result]

    def h(self, state):
        return self._h.get(state, 0)


class GridProblem(Problem):
    """4-connected walk on an open w x w grid from (0, 0) to the far corner (unit costs)."""

    def __init__(self, w: int, walls=frozenset()):
        super().__init__((0, 0))
        self.w, self.walls = w, walls

    def actions(self, state):
        x, y = state
        steps = [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        return [
            s for s in steps if 0 <= s[0] < self.w and 0 <= s[1] < self.w and s not in self.walls
        ]

    def result(self, state, action):
        return action

    def is_goal(self, state):
        return state == (self.w - 1, self.w - 1)

    def h(self, state):
        return (self.w - 1 - state[0]) + (self.w - 1 - state[1])


def dijkstra_cost(weights: dict, n: int, goal: int) -> float:
    """Reference optimum by scipy's shortest paths."""
    m = np.zeros((n, n))
    for (u, v), w in weights.items():
        m[u, v] = w
    return float(shortest_path(m, directed=True)[0, goal])


graphs = st.integers(3, 8).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.dictionaries(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] != e[1]),
            st.integers(1, 9),
            max_size=3 * n,
        ),
    )
)


@examples(60)
@given(graphs)
def test_astar_and_idastar_match_dijkstra(graph):
    n, weights = graph
    want = dijkstra_cost(weights, n, n - 1)
    for algo in (astar, idastar):
        res = algo(GraphProblem(weights, n - 1))
        if math.isinf(want):
            assert res.verdict == "unsolvable" and not res.solved and res.length is None
        else:
            assert res.verdict == "optimal" and res.cost == want
            assert res.states[0] == 0 and res.states[-1] == n - 1
            assert (
                sum(weights[a, b] for a, b in zip(res.states, res.states[1:], strict=False)) == want
            )
    wa = weighted_astar(GraphProblem(weights, n - 1), weight=2.0)
    if not math.isinf(want):
        assert wa.verdict == "feasible" and wa.cost >= want


def test_problem_satisfies_protocol():
    assert isinstance(GridProblem(3), SearchProblem)


def test_bfs_grid_is_shortest():
    res = bfs(GridProblem(5))
    assert res.verdict == "optimal" and res.length == 8 and res.cost == 8
    assert res.stats()["expanded"] == res.expanded > 0


def test_astar_reopens_with_inconsistent_h():
    # 0 -> 1 (1), 0 -> 2 (4), 1 -> 2 (1), 2 -> 3 (5); h(1) = 5 is admissible (true 6)
    # but inconsistent: A* first closes 2 via the direct edge and must re-open it.
    weights = {(0, 1): 1, (0, 2): 4, (1, 2): 1, (2, 3): 5}
    res = astar(GraphProblem(weights, 3, h={1: 5, 2: 0}))
    assert res.cost == 7 and res.states == [0, 1, 2, 3]


def test_limit_verdict():
    res = astar(GridProblem(30), max_expanded=5)
    assert res.verdict == "limit" and not res.solved and res.expanded == 5
    assert idastar(GridProblem(30, walls=frozenset({(1, 0), (1, 1)})), max_expanded=3).verdict == (
        "limit"
    )


def test_walled_off_goal_is_unsolvable():
    walls = frozenset({(3, 4), (4, 3)})
    for algo in (bfs, astar, greedy, idastar):
        assert algo(GridProblem(5, walls)).verdict == "unsolvable"


def test_ties_are_deterministic():
    a, b = astar(GridProblem(6)), astar(GridProblem(6))
    assert a.states == b.states and a.expanded == b.expanded
    assert greedy(GridProblem(6)).length == 10


# ---- negative costs refused, one meaning of a zero budget ----------------------------------
class NegativeCycle(Problem):
    """Two states with an edge of cost -1 back and forth: without a check A* runs forever."""

    def __init__(self):
        super().__init__(0)

    def actions(self, state):
        return [1 - state]

    def result(self, state, action):
        return action

    def is_goal(self, state):
        return False

    def action_cost(self, state, action, result):
        return -1


def test_negative_or_nan_step_cost_is_refused():
    """A negative cost once made astar grow memory without bound: now a PuzzleError."""
    for algo in (astar, greedy, idastar, weighted_astar):
        with pytest.raises(PuzzleError, match="costs -1"):
            algo(NegativeCycle(), max_expanded=10_000)
    nan_graph = GraphProblem({(0, 1): math.nan}, 1)
    with pytest.raises(PuzzleError, match="nan"):
        astar(nan_graph)


ALL = (bfs, dfs, astar, greedy, idastar, weighted_astar)


@pytest.mark.parametrize("algo", ALL)
def test_zero_budget_means_stop_at_once(algo):
    """max_expanded=0 and max_seconds=0 stop before any expansion (0 once meant unlimited)."""
    for budget in (dict(max_expanded=0), dict(max_seconds=0)):
        res = algo(GridProblem(4), **budget)
        assert (res.verdict, res.expanded, res.length) == ("limit", 0, None)
        assert "budget" in res.note
    assert algo(GridProblem(4), max_expanded=None).solved


@pytest.mark.parametrize("bad", [-1, 1.5, math.nan, "3", True])
def test_bad_budgets_are_refused(bad):
    """Budgets are checked (floats where counts are meant, NaN, strings, negatives)."""
    with pytest.raises(PuzzleError):
        astar(GridProblem(3), max_expanded=bad)


def test_dfs_finds_a_path_and_proves_unsolvable():
    """Depth-first graph search: a legal path (not the shortest), or exhaustion."""
    res = dfs(GridProblem(5))
    assert res.verdict == "feasible" and res.states[-1] == (4, 4) and res.length >= 8
    steps = zip(res.states, res.states[1:], strict=False)
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in steps)
    assert dfs(GridProblem(5, frozenset({(3, 4), (4, 3)}))).verdict == "unsolvable"


class CountingGrid(GridProblem):
    """A grid that supplies successors with their h in one call, counting the calls."""

    calls = 0

    def successors(self, state, h_state):
        self.calls += 1
        return [(a, a, 1, self.h(a)) for a in self.actions(state)]


def test_best_first_uses_successors_hook_and_tie_rules():
    """`successors` replaces actions/result/h; ties='newest' dives, 'oldest' spreads."""
    grid = CountingGrid(6)
    res = best_first(grid)
    assert res.verdict == "optimal" and res.length == 10 and grid.calls == res.expanded
    diamond = {(0, 1): 1, (0, 2): 1, (1, 3): 1, (2, 3): 1}  # two equal paths to 3, h = 0
    oldest = best_first(GraphProblem(diamond, 3), ties="oldest")
    newest = best_first(GraphProblem(diamond, 3), ties="newest")
    assert oldest.states == [0, 1, 3] and newest.states == [0, 2, 3]
    with pytest.raises(PuzzleError, match="ties"):
        best_first(GridProblem(3), ties="random")


def test_reopen_false_expands_each_state_once():
    """Without re-opening, an inconsistent h can cost optimality (so A* keeps reopen=True)."""
    weights = {(0, 1): 1, (0, 2): 4, (1, 2): 1, (2, 3): 5}
    problem = GraphProblem(weights, 3, h={1: 5, 2: 0})
    assert best_first(problem).cost == 7 and best_first(problem).verdict == "optimal"
    unproven = best_first(problem, reopen=False)
    assert unproven.cost == 9 and unproven.verdict == "feasible"  # no proof: not `optimal`
