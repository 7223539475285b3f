"""Hard nonograms: verdicts checked by means independent of the solver.

Two independent checks, neither using our line solver nor our CNF encoding:
* brute force over every grid of small boards (counting grids with the clues, up to 2);
* a different SAT model, block start positions (one variable per block and start, exactly one
  start per block, blocks in order with a gap, a cell filled exactly when a block covers it),
  solved by MiniSat with a blocking clause to count solutions up to 2.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import require_shared
from pysat.card import CardEnc
from pysat.solvers import Solver

from puzzlelab.nonogram import Puzzle, from_grid, is_solution, line_clue, solve
from puzzlelab.nonogram.census import random_puzzle, swapped_puzzle
from puzzlelab.nonogram.data import load_corpus

VERDICT = {0: "unsolvable", 1: "unique", 2: "multiple"}


def brute_count(p: Puzzle, cap: int = 2) -> int:
    """Grids whose clues are the puzzle's, counted up to `cap` (rows drawn from their fits)."""
    R, C = p.shape
    fits = [
        [r for r in itertools.product((0, 1), repeat=C) if line_clue(r) == clue] for clue in p.rows
    ]
    count = 0
    for rows in itertools.product(*fits):
        g = np.array(rows, dtype=bool)
        if all(line_clue(g[:, c]) == p.cols[c] for c in range(C)):
            count += 1
            if count >= cap:
                break
    return count


def _block_model(cells: list[int], clue: tuple, top: list[int]) -> list[list[int]]:
    """Block-start encoding of one line over cell variables `cells`."""
    n, k = len(cells), len(clue)
    if k == 0:
        return [[-v] for v in cells]
    out: list[list[int]] = []
    starts = []
    for j, a in enumerate(clue):
        lo = sum(clue[:j]) + j
        hi = n - (sum(clue[j:]) + k - j - 1)
        ids = {}
        for s in range(lo, hi + 1):
            top[0] += 1
            ids[s] = top[0]
        starts.append(ids)
        enc = CardEnc.equals(list(ids.values()), bound=1, top_id=top[0])
        top[0] = max(top[0], enc.nv)
        out += enc.clauses
        for s, b in ids.items():
            out += [[-b, cells[i]] for i in range(s, s + a)]
    for j in range(k - 1):
        for s, b in starts[j].items():
            out.append([-b] + [t for u, t in starts[j + 1].items() if u >= s + clue[j] + 1])
    for i, x in enumerate(cells):
        cover = [b for j, a in enumerate(clue) for s, b in starts[j].items() if s <= i < s + a]
        out.append([-x, *cover])
    return out


def sat_count(p: Puzzle, cap: int = 2) -> int:
    """Solutions of the block-start model, counted up to `cap` with MiniSat."""
    R, C = p.shape
    var = np.arange(1, R * C + 1).reshape(R, C)
    top = [R * C]
    clauses = []
    for r, clue in enumerate(p.rows):
        clauses += _block_model(var[r].tolist(), clue, top)
    for c, clue in enumerate(p.cols):
        clauses += _block_model(var[:, c].tolist(), clue, top)
    count = 0
    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        while count < cap and s.solve():
            model = s.get_model()[: R * C]
            g = (np.array(model) > 0).reshape(R, C)
            assert is_solution(p, g)  # the independent model itself is right
            count += 1
            s.add_clause([-v if v > 0 else -v for v in model])
    return count


def small_cases():
    """Random small boards of every density, and row-swapped variants."""
    rng = np.random.default_rng(12)
    for i in range(60):
        R, C = int(rng.integers(2, 5)), int(rng.integers(2, 6))
        g = rng.random((R, C)) < rng.uniform(0.1, 0.9)
        p = from_grid(g)
        yield p
        if R >= 2 and p.rows[0] != p.rows[1] and i % 2 == 0:
            yield Puzzle((p.rows[1], p.rows[0], *p.rows[2:]), p.cols)


@pytest.mark.parametrize("method", ["auto", "search"])
def test_small_boards_match_brute_force(method):
    for p in small_cases():
        res = solve(p, method=method, progress=False)
        assert res.verdict == VERDICT[brute_count(p)], (p.rows, p.cols)
        assert all(is_solution(p, s) for s in res.solutions)


def test_brute_force_and_block_model_agree():
    for p in itertools.islice(small_cases(), 40):
        assert brute_count(p) == sat_count(p), (p.rows, p.cols)


@pytest.mark.parametrize(
    "size, density, seed",
    [(15, 0.2, 1), (20, 0.3, 2), (20, 0.7, 3), (25, 0.5, 4), (30, 0.55, 5), (30, 0.6, 6)],
)
def test_random_pictures_match_an_independent_sat_model(size, density, seed):
    p = random_puzzle(size, density, seed)
    q = swapped_puzzle(size, density, seed, rows=(2, size - 3))
    for puzzle in (p, q):
        res = solve(puzzle, progress=False, max_seconds=60)
        assert res.verdict == VERDICT[sat_count(puzzle)], puzzle.title
        if res.verdict == "multiple":
            assert not np.array_equal(res.solutions[0], res.solutions[1])


def test_webpbn_hard_classes():
    require_shared("corpora", "nonogram", "webpbn-hard", "expected.tsv")
    entries = load_corpus("webpbn-hard")
    assert len(entries) == 4
    for e in entries.itertuples():
        res = solve(e.puzzle, progress=False)
        assert res.kind == e.expected, e.file
        assert np.array_equal(res.solution, e.puzzle.goal), e.file


def test_sat_limit_keeps_the_proven_cells():
    p = random_puzzle(30, 0.45, 7)
    full = solve(p, progress=False)
    # Glucose checks its conflict budget between restarts: it stops soon after, not at once
    res = solve(p, method="sat", probing=False, max_expanded=1, progress=False)
    assert res.verdict == "limit" and len(res.solutions) < 2
    assert solve(p, method="sat", max_expanded=0, progress=False).expanded == 0
    known = res.grid != 0
    if full.verdict == "unique":
        assert np.array_equal(res.grid[known] == 1, full.solution[known])
    assert np.array_equal(res.grid, full.propagated)
