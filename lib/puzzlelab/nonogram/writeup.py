"""The write-up's method, kept as the comparison baseline (a Python rendering of its R loop).

What the R program does, pass by pass:
1. before the loop, list every arrangement of every row and column (compositions of the
   free cells into the gaps);
2. each pass: drop every arrangement that clashes with a known cell; then, row by row and
   column by column, mark a cell filled / empty when all remaining arrangements agree
   (else unknown); a line with no arrangement left is a contradiction;
3. finished when every line has exactly one arrangement left;
4. when a pass (after the first) removes nothing and no guess is pending, save the
   state and guess: the first unknown cell (row-major) is set filled ("one level": no
   guess inside a guess);
5. on a contradiction under the guess, restore the saved state and set the cell empty;
   when stuck again under the guess, do the same if at least `width` cells are still
   unknown, otherwise stop (the R code's rule; it can leave the grid unfinished);
6. save a picture after every pass.

Differences from the R code, on purpose: a contradiction with no pending guess ends the
run with outcome "none" (the R code would fail on an undefined variable), a contradiction
found in the rows is not forgotten by the column loop, and a cap on arrangements stops
the run with outcome "too_large" where enumeration explodes.

What the outcomes prove: "solved" is checked against every clue (verdict "feasible": the
method never proves uniqueness). "none" (verdict "unsolvable") is a proof only while every
cell set so far was deduced, or set empty because filled led to a contradiction. Step 5's
switch to empty when merely stuck is an assumption, not a deduction: a contradiction after it
ends the run with outcome "gave_up" (verdict "limit", with a note), since the puzzle may
still have solutions. "stuck" and "too_large" are "limit" too.

The result is the study's one `NonogramResult` (``method == "writeup"``): `states` are the
blank grid and the grid after every pass, `moves` one `Deduction` per pass.
"""

from __future__ import annotations

import time

import numpy as np

from ..checks import integer
from ..errors import InvalidPuzzleError
from ..results import Budget, as_budget
from .line import arrangements, count_arrangements
from .puzzle import EMPTY, FILLED, UNKNOWN, Puzzle, is_solution
from .solve import Deduction, NonogramResult

MAX_ARRANGEMENTS = 2_000_000  # total over all lines; enumeration beyond this is hopeless here

VERDICT_OF = {
    "solved": "feasible",
    "none": "unsolvable",
    "stuck": "limit",
    "gave_up": "limit",
    "too_large": "limit",
    "budget": "limit",
}
NOTE_OF = {
    "solved": "",
    "none": "a contradiction with no guess pending: no grid fits the clues",
    "stuck": "the write-up's method stopped without finishing the grid (its one-level guessing "
    "gave up, or max_passes ran out)",
    "gave_up": "the write-up's method met a contradiction after switching a guessed cell to "
    "empty without proof; that proves nothing, so no verdict (solve() decides)",
    "too_large": "the lines have more arrangements than max_arrangements; the write-up's "
    "method would list them all",
    "budget": "",  # filled in with the budget's own sentence
}


def _result(outcome, puzzle, grid, passes, guesses, total, t0, frames=None) -> NonogramResult:
    """Pack the loop's final state into the study's `NonogramResult`."""
    frames = frames or []
    states = [np.zeros_like(grid), *frames] if frames else []
    moves = []
    for i in range(len(frames)):
        fixed = int(np.count_nonzero((states[i] == UNKNOWN) & (states[i + 1] != UNKNOWN)))
        moves.append(Deduction("pass", f"write-up pass {i + 1}", fixed))
    return NonogramResult(
        method="writeup",
        verdict=VERDICT_OF[outcome],
        outcome=outcome,
        puzzle=puzzle,
        solutions=[grid == FILLED] if outcome == "solved" else [],
        grid=grid,
        guesses=guesses,
        states=states,
        moves=moves,
        expanded=passes,
        generated=total,
        seconds=time.perf_counter() - t0,
        note=NOTE_OF[outcome],
    )


def total_arrangements(puzzle: Puzzle) -> int:
    """The number of line arrangements the write-up enumerates up front."""
    if not isinstance(puzzle, Puzzle):
        raise InvalidPuzzleError(f"expected a nonogram Puzzle, got {type(puzzle).__name__}")
    return sum(count_arrangements(c, puzzle.width) for c in puzzle.rows) + sum(
        count_arrangements(c, puzzle.height) for c in puzzle.cols
    )


def _filter(lines: list[np.ndarray], known: np.ndarray, rows: bool) -> list[np.ndarray]:
    """Drop arrangements that clash with known cells (known is the puzzle grid)."""
    view = known if rows else known.T
    out = []
    for i, arr in enumerate(lines):
        line = view[i]
        mask = line != UNKNOWN
        keep = np.all(arr[:, mask] == line[mask], axis=1) if mask.any() else slice(None)
        out.append(arr[keep])
    return out


def _common(arr: np.ndarray) -> np.ndarray | None:
    """Cells on which every remaining arrangement agrees (None when none remain)."""
    if len(arr) == 0:
        return None
    filled = np.all(arr == FILLED, axis=0)
    empty = np.all(arr == EMPTY, axis=0)
    return np.where(filled, FILLED, np.where(empty, EMPTY, UNKNOWN)).astype(np.int8)


def solve_writeup(
    puzzle: Puzzle,
    max_arrangements: int = MAX_ARRANGEMENTS,
    max_passes: int = 10_000,
    keep_frames: bool = True,
    *,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    budget: Budget | None = None,
) -> NonogramResult:
    """Run the write-up's enumerate-and-eliminate loop with its one-level guessing.

    Parameters
    ----------
    puzzle : Puzzle
    max_arrangements : int
        Give up ("too_large", verdict "limit") when the lines have more arrangements.
    max_passes : int
        Give up ("stuck") after this many passes.
    keep_frames : bool
        Keep the grid after every pass in `states`.
    max_expanded, max_seconds, budget : optional
        The search budget (`puzzlelab.results`); one pass counts as one expansion. When it
        runs out the outcome is "budget" (verdict "limit").

    Returns
    -------
    NonogramResult
        ``method == "writeup"``; verdict feasible / unsolvable / limit and the method's own
        word in `outcome` (solved / none / stuck / gave_up / too_large); `states` the grid
        after each pass when `keep_frames`.
    """
    t0 = time.perf_counter()
    limits = as_budget(budget, max_expanded, max_seconds)
    total = total_arrangements(puzzle)
    max_arrangements = integer(max_arrangements, "max_arrangements", minimum=0)
    max_passes = integer(max_passes, "max_passes", minimum=1)
    grid = np.zeros(puzzle.shape, dtype=np.int8)
    if total > max_arrangements:
        return _result("too_large", puzzle, grid, 0, 0, total, t0)
    row_arr = [np.array(list(arrangements(c, puzzle.width))) for c in puzzle.rows]
    col_arr = [np.array(list(arrangements(c, puzzle.height))) for c in puzzle.cols]
    frames: list[np.ndarray] = []
    saved = None  # (row_arr, col_arr, grid, cell) while a guess is pending
    assumed = False  # a cell was set empty without proof (step 5 when stuck)
    guesses = 0
    status = "stuck"
    passes = 0
    while passes < max_passes:
        if limits.exhausted(passes):
            status = "budget"
            break
        passes += 1
        before = sum(map(len, row_arr)) + sum(map(len, col_arr))
        row_arr = _filter(row_arr, grid, rows=True)
        col_arr = _filter(col_arr, grid, rows=False)
        after = sum(map(len, row_arr)) + sum(map(len, col_arr))
        clash = False
        for i, arr in enumerate(row_arr):
            common = _common(arr)
            if common is None:
                clash = True
                break
            grid[i] = common
        if not clash:
            for j, arr in enumerate(col_arr):
                common = _common(arr)
                if common is None:
                    clash = True
                    break
                known = common != UNKNOWN
                grid[known, j] = common[known]
        if keep_frames:
            frames.append(grid.copy())
        if clash:
            if saved is None:
                status = "gave_up" if assumed else "none"
                break
            row_arr, col_arr, grid, (ci, cj) = saved
            grid = grid.copy()
            grid[ci, cj] = EMPTY
            saved = None
            continue
        if all(len(a) == 1 for a in row_arr) and all(len(a) == 1 for a in col_arr):
            status = "solved"
            break
        if after == before and passes > 1:  # the pass removed nothing (pass 1 never does)
            if saved is None:
                cells = np.argwhere(grid == UNKNOWN)
                if len(cells) == 0:
                    break
                ci, cj = (int(v) for v in cells[0])
                saved = (row_arr, col_arr, grid.copy(), (ci, cj))
                grid[ci, cj] = FILLED
                guesses += 1
            elif np.sum(grid == UNKNOWN) >= puzzle.width:
                row_arr, col_arr, grid, (ci, cj) = saved
                grid = grid.copy()
                grid[ci, cj] = EMPTY  # an assumption: "filled" was never refuted
                saved = None
                assumed = True
            else:
                break
    if status == "solved" and not is_solution(puzzle, grid):
        status = "stuck"
    result = _result(status, puzzle, grid, passes, guesses, total, t0, frames)
    if status == "budget":
        result.note = limits.why()
    return result
