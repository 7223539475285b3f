"""solve and the write-up's method on the result protocol, budgets, and the figures."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import PuzzleError
from puzzlelab.nonogram import (
    FILLED,
    UNKNOWN,
    Puzzle,
    from_grid,
    is_line_solvable,
    is_solution,
    read_puzzle,
    solve,
    solve_writeup,
)
from puzzlelab.paths import data_dir
from puzzlelab.results import STATS_KEYS


def baseline_is_checked(p: Puzzle, res) -> bool:
    """A result whose solution is altered no longer verifies (verify is not a rubber stamp)."""
    bad = res.solutions[0].copy()
    bad[0, 0] = ~bad[0, 0]
    res.solutions[0], good = bad, res.solutions[0]
    try:
        return not res.verify()
    finally:
        res.solutions[0] = good


def test_writeup_puzzle_is_solved_and_unique():
    p = read_puzzle(data_dir("nonogram", "writeup_20x20.csv"))
    res = solve(p)
    assert res.verdict == "unique" and res.length is None  # deductions are not moves
    assert res.details()["deductions"] == len(res.moves) == len(res.states) - 1
    assert res.verify() and baseline_is_checked(p, res)
    assert is_solution(p, res.solution)
    assert not res.line_solvable  # line logic stalls; probing finishes it
    baseline = solve_writeup(p)
    assert baseline.outcome == "solved" and baseline.verdict == "feasible"
    assert type(baseline) is type(res) and baseline.method == "writeup" and baseline.verify()
    assert len(baseline.states) == len(baseline.moves) + 1 == baseline.details()["passes"] + 1
    assert tuple(baseline.stats()) == STATS_KEYS == tuple(res.stats())
    assert res.details()["class"] == "BRANCH" and baseline.details()["guesses"] == 4
    assert np.array_equal(baseline.grid == FILLED, res.solution)


grids = st.integers(1, 7).flatmap(
    lambda r: st.integers(1, 7).flatmap(
        lambda c: st.lists(st.lists(st.booleans(), min_size=c, max_size=c), min_size=r, max_size=r)
    )
)


@examples(150)
@given(grids)
def test_from_grid_is_solved_to_a_grid_with_the_same_clues(g):
    grid = np.array(g, dtype=bool)
    p = from_grid(grid)
    assert is_solution(p, grid)
    res = solve(p)
    assert res.verdict in ("unique", "multiple")
    for s in res.solutions:
        assert from_grid(s) == p
    if res.verdict == "unique":
        assert np.array_equal(res.solution, grid)
    else:
        assert not np.array_equal(res.solutions[0], res.solutions[1])


def test_verdicts_on_tiny_puzzles():
    checker = Puzzle([[1], [1]], [[1], [1]])  # two diagonals
    res = solve(checker)
    assert res.verdict == "multiple" and len(res.solutions) == 2
    assert res.kind == "MULT" and not res.line_solvable and res.verify()
    assert res.length is None and res.stats()["verdict"] == "multiple"
    for bad in (0, None, 1.5, "2"):
        with pytest.raises(PuzzleError, match="max_solutions"):
            solve(checker, max_solutions=bad)
    assert solve(checker, max_solutions=1).verdict == "feasible"
    # totals agree (2 = 2) but row 1 needs both cells while column 2 must stay empty
    none = Puzzle([[2], [0]], [[2], [0]])
    res = solve(none)
    assert res.verdict == "unsolvable" and res.kind == "NONE"
    assert res.length is None and res.solution is None
    # the write-up stops when every line has one arrangement left, without a cross-check
    assert solve_writeup(none).outcome in ("none", "stuck")


def test_probing_off_gives_the_same_verdicts():
    rng = np.random.default_rng(3)
    for _ in range(30):
        p = from_grid(rng.random((6, 7)) < 0.5)
        a, b = solve(p), solve(p, probing=False)
        c = solve(p, method="search")
        assert a.verdict == b.verdict == c.verdict and a.line_solvable == b.line_solvable
        if a.verdict == "unique":
            assert np.array_equal(a.solution, c.solution)
            assert np.array_equal(a.solution, b.solution)


def test_is_line_solvable_and_states():
    full = from_grid(np.ones((3, 4), dtype=bool))
    assert is_line_solvable(full)
    res = solve(full)
    assert [m.label for m in res.moves] == ["pass 1 rows"]
    assert np.all(res.states[-1] == FILLED)
    p = read_puzzle(data_dir("nonogram", "writeup_20x20.csv"))
    res = solve(p)
    assert np.all(res.states[0] == UNKNOWN) and len(res.states) == len(res.moves) + 1
    assert res.moves[-1].label in ("probing", "sat: first solution")
    assert np.array_equal(res.states[-1] == FILLED, res.solution)
    assert is_line_solvable(p) == res.line_solvable
    assert sum(m.cells for m in res.moves) == 400


def test_budgets_give_limit_with_the_partial_grid():
    # a puzzle line logic and probing cannot finish (multiple solutions): a search is needed
    p = from_grid(np.eye(6, dtype=bool))
    for method in ("sat", "search"):
        free = solve(p, method=method)
        assert free.verdict == "multiple" and free.expanded > 0, method
        for limits in ({"max_expanded": 0}, {"max_seconds": 0}):
            res = solve(p, method=method, **limits)
            assert res.verdict == "limit" and res.length is None, (method, limits)
            assert "budget" in res.note and res.solutions == []
            assert np.array_equal(res.grid, free.propagated) or res.grid is not None
    deep = solve(from_grid(np.eye(12, dtype=bool)), method="search", probing=False, max_expanded=3)
    assert deep.verdict == "limit" and deep.expanded == 3
    # line-solvable puzzles need no search node: a zero budget still solves them
    assert solve(from_grid(np.ones((3, 3))), max_expanded=0).verdict == "unique"


def test_solve_takes_one_budget_and_refuses_two():
    from puzzlelab.results import Budget

    p = from_grid(np.eye(8, dtype=bool))
    budget = Budget(max_expanded=0)
    assert solve(p, budget=budget).verdict == "limit"
    with pytest.raises(PuzzleError, match="not both"):
        solve(p, budget=budget, max_expanded=3)


def test_large_trivial_and_permutation_puzzles_finish():
    # a 500x500 of (1)-clues ran over a minute (probing every cell)
    stripes = np.zeros((500, 500), dtype=bool)
    stripes[:, 7] = True  # every row (1), one full column: line logic alone
    res = solve(from_grid(stripes), progress=False)
    assert res.verdict == "unique" and res.line_solvable
    eye = solve(from_grid(np.eye(300, dtype=bool)), progress=False)
    assert eye.verdict == "multiple" and len(eye.solutions) == 2
    big = from_grid(np.eye(500, dtype=bool))
    stopped = solve(big, max_expanded=10, progress=False)
    assert (stopped.verdict, stopped.expanded, stopped.method) == ("limit", 10, "auto")
    assert stopped.grid.shape == (500, 500) and stopped.solutions == []
    assert solve(big, max_seconds=0, progress=False).verdict == "limit"


def test_one_by_one():
    assert solve(Puzzle([[1]], [[1]])).solution.tolist() == [[True]]
    assert solve(Puzzle([[]], [[]])).solution.tolist() == [[False]]
    assert solve(Puzzle([[]], [[]])).line_solvable


def test_figures_draw_clues_steps_and_animation():
    import matplotlib.pyplot as plt

    from puzzlelab import plotting
    from puzzlelab.nonogram import plots

    p = read_puzzle(data_dir("nonogram", "writeup_20x20.csv"))
    res = solve(p)
    ax = plots.draw_puzzle(p, grid=res.solution, title="solved")
    texts = {t.get_text() for t in ax.texts}
    assert "6 3 1" in texts and "3\n3\n9\n1" in texts  # row 13 and column 10 clues
    image = ax.images[0].get_array()
    assert np.array_equal(image == 2, res.solution)  # filled cells drawn black
    fig = plots.draw_steps(res, ncols=3)
    titles = [a.get_title() for a in fig.axes if a.get_title()]
    assert titles[0] == "blank" and len(titles) == len(res.states)
    # the registered drawer: any step through plotting, the last one is the solution
    last = plotting.draw_step(res, len(res.states) - 1)
    assert np.array_equal(last.images[0].get_array() == 2, res.solution)
    assert last.get_title() == res.moves[-1].label
    html = plotting.to_html(plotting.animate(res))
    assert "<script" in html and html.count("data:image/png") >= len(res.states)
    writeup = solve_writeup(p)
    short = plotting.to_html(plots.animate(writeup, every=20))
    assert 4 <= short.count("data:image/png") < len(writeup.states)
    with pytest.raises(PuzzleError, match="every"):
        plots.animate(writeup, every=0)
    plt.close("all")
