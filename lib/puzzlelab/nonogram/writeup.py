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
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..results import Result
from .line import arrangements, count_arrangements
from .puzzle import EMPTY, FILLED, UNKNOWN, Puzzle, is_solution

MAX_ARRANGEMENTS = 2_000_000  # total over all lines; enumeration beyond this is hopeless here


VERDICT_OF = {"solved": "feasible", "none": "unsolvable", "stuck": "limit", "too_large": "limit"}


@dataclass(kw_only=True)
class WriteupResult(Result):
    """The write-up's outcome on the lab's protocol (`puzzlelab.results.Result`).

    `outcome` is the method's own word: solved (verdict "feasible": it never proves
    uniqueness), none ("unsolvable": a contradiction without a pending guess), stuck or
    too_large ("limit": it gave up, or enumeration would explode). `states` are the grids
    (blank, then after each pass when frames are kept), `moves` the pass labels.
    """

    outcome: str
    grid: np.ndarray = field(repr=False)  # int8, FILLED / EMPTY / UNKNOWN
    passes: int = 0
    guesses: int = 0
    arrangements: int = 0  # lines' arrangements enumerated at the start

    @property
    def frames(self) -> list[np.ndarray]:
        """The grid after each pass (the write-up's pictures): `states` without the blank."""
        return self.states[1:]

    def details(self) -> dict:
        """The method's outcome, passes, guesses and arrangements listed."""
        return {
            "outcome": self.outcome,
            "passes": self.passes,
            "guesses": self.guesses,
            "arrangements": self.arrangements,
        }


def _result(outcome, grid, passes, guesses, total, t0, frames=None) -> WriteupResult:
    """Pack the loop's final state into a `WriteupResult`."""
    frames = frames or []
    states = [np.zeros_like(grid), *frames] if frames else []
    return WriteupResult(
        method="writeup",
        verdict=VERDICT_OF[outcome],
        outcome=outcome,
        grid=grid,
        passes=passes,
        guesses=guesses,
        arrangements=total,
        states=states,
        moves=[f"pass {i + 1}" for i in range(len(frames))],
        expanded=passes,
        generated=total,
        seconds=time.perf_counter() - t0,
        note="" if outcome in ("solved", "none") else f"the write-up's method ended {outcome}",
    )


def total_arrangements(puzzle: Puzzle) -> int:
    """The number of line arrangements the write-up enumerates up front."""
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
) -> WriteupResult:
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

    Returns
    -------
    WriteupResult
        Verdict feasible / unsolvable / limit and the method's own `outcome`.
    """
    t0 = time.perf_counter()
    total = total_arrangements(puzzle)
    grid = np.zeros(puzzle.shape, dtype=np.int8)
    if total > max_arrangements:
        return _result("too_large", grid, 0, 0, total, t0)
    row_arr = [np.array(list(arrangements(c, puzzle.width))) for c in puzzle.rows]
    col_arr = [np.array(list(arrangements(c, puzzle.height))) for c in puzzle.cols]
    frames: list[np.ndarray] = []
    saved = None  # (row_arr, col_arr, grid, cell) while a guess is pending
    guesses = 0
    status = "stuck"
    passes = 0
    while passes < max_passes:
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
                status = "none"
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
                grid[ci, cj] = EMPTY
                saved = None
            else:
                break
    if status == "solved" and not is_solution(puzzle, grid):
        status = "stuck"
    return _result(status, grid, passes, guesses, total, t0, frames)
