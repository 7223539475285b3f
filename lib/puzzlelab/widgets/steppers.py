"""Solution steppers for the three puzzles, drawn with each study's own renderer.

Every solver result follows `puzzlelab.results`: `states` runs from the start to the end
and `moves[i]` leads from `states[i]` to `states[i + 1]`. `stepper(result)` picks the right
drawing from the kind of state (sliding tuple, water-sort `Level`, nonogram grid).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import PuzzleError
from .core import Stepper


def result_states(result: Any) -> list:
    """`result.states` as a list (a list of states is accepted as it is)."""
    if isinstance(result, list | tuple):
        return list(result)
    states = getattr(result, "states", None)
    if states is None:
        raise PuzzleError(f"expected a solver result with states, got {type(result).__name__}")
    return list(states)


def result_moves(result: Any) -> list:
    """`result.moves` as a list (empty for a bare list of states)."""
    if isinstance(result, list | tuple):
        return []
    return list(getattr(result, "moves", None) or [])


def _nonempty(states: list, what: str) -> list:
    """Refuse a result without states (an unsolved puzzle has nothing to step through)."""
    if not states:
        raise PuzzleError(f"the {what} result has no states to step through (no answer found)")
    return states


# ---------------------------------------------------------------------------- sliding


def sliding_stepper(
    result: Any, shape: tuple[int, int] | None = None, interval_ms: int = 400, size: float = 2.4
) -> Stepper:
    """Step through a sliding solution (a `Solution`, or a list of boards with `shape`).

    Parameters
    ----------
    result : Solution or list of State
        The solver's result (its `states` and `moves`), or the boards of a path.
    shape : (rows, cols), optional
        The board shape; taken from `result.shape`, else assumed square.
    interval_ms, size : int, float
        Play speed, and the board's figure size in inches.

    Returns
    -------
    Stepper
    """
    from ..sliding.board import move_between
    from ..sliding.plots import draw_board

    states = [tuple(s) for s in _nonempty(result_states(result), "sliding")]
    shape = tuple(shape or getattr(result, "shape", None) or _square(len(states[0])))
    moves = result_moves(result) or [
        move_between(a, b, shape) for a, b in zip(states, states[1:], strict=False)
    ]
    last = len(states) - 1

    def label(i: int) -> str:
        if i == 0:
            return f"start · {last} moves to go"
        tile, direction = moves[i - 1]
        return f"move {i} of {last}: tile {tile} {direction}"

    def draw(ax, i: int) -> None:
        moved = moves[i - 1][0] if i else 0
        draw_board(states[i], shape, ax=ax, title=f"move {i} of {last}", moved=moved)

    rows, cols = shape
    box = (size * cols / max(shape), size * rows / max(shape) + 0.3)
    return Stepper(len(states), draw, box, interval_ms, label)


def _square(n: int) -> tuple[int, int]:
    """The square shape with `n` cells (PuzzleError if `n` is not a square)."""
    side = round(n**0.5)
    if side * side != n:
        raise PuzzleError(f"a board of {n} cells is not square: pass shape=(rows, cols)")
    return side, side


# ---------------------------------------------------------------------------- water sort


def watersort_stepper(result: Any, interval_ms: int = 600, unit: float = 0.45) -> Stepper:
    """Step through a water-sort solution: the start, then the position after each pour.

    Parameters
    ----------
    result : Solution or list of Level
        The solver's result (its `states` and `moves`, the pours), or a list of positions.
    interval_ms, unit : int, float
        Play speed, and inches per tube.

    Returns
    -------
    Stepper
    """
    from ..watersort.render import draw_board, figure_size

    states = _nonempty(result_states(result), "water-sort")
    pours = result_moves(result)
    colors = list(states[0].colors)
    last = len(states) - 1

    def label(i: int) -> str:
        if i == 0:
            return f"start · {last} pours to go"
        src, dst = pours[i - 1] if pours else ("?", "?")
        return f"pour {i} of {last}: tube {src} \u2192 {dst}"

    def draw(ax, i: int) -> None:
        pour = tuple(pours[i - 1]) if i and pours else None
        draw_board(states[i], ax, colors=colors, pour=pour, title=f"pour {i} of {last}")

    return Stepper(len(states), draw, figure_size(states[0], unit=unit), interval_ms, label)


# ---------------------------------------------------------------------------- nonogram


def nonogram_stepper(
    puzzle: Any, result: Any = None, interval_ms: int = 700, size: float = 3.6
) -> Stepper:
    """Step through the passes of a nonogram solve: each grid after a line-logic pass or a
    search step, with the clues, and how many cells are known.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle (for its clues).
    result : solver result, list of grids or list of steps, optional
        The solver's result (its `states`, the grids after each pass, labelled by its `moves`);
        a list of grids; or a list of `Step` (anything with `.grid` and `.label`).
        Default: ``solve(puzzle)``.
    interval_ms, size : int, float
        Play speed, and the figure size in inches.

    Returns
    -------
    Stepper
    """
    from ..nonogram.puzzle import UNKNOWN
    from ..nonogram.render import as_cells, draw_puzzle

    if result is None:
        from ..nonogram import solve

        result = solve(puzzle, progress=False)
    items = _nonempty(result_states(result), "nonogram")
    grids = [as_cells(puzzle, getattr(s, "grid", s)) for s in items]
    moves = result_moves(result)  # Deductions (with a label) between the states
    names = [getattr(s, "label", None) for s in items]
    if len(moves) == len(items) - 1 and not any(names):
        names = ["blank"] + [getattr(m, "label", None) for m in moves]
    total = int(np.prod(puzzle.shape))
    last = len(grids) - 1

    def label(i: int) -> str:
        known = int(np.sum(grids[i] != UNKNOWN))
        name = names[i] or ("start" if i == 0 else f"step {i} of {last}")
        return f"{name}: {known} of {total} cells known"

    def draw(ax, i: int) -> None:
        draw_puzzle(puzzle, ax, grid=grids[i], title=names[i] or f"step {i} of {last}")

    rows, cols = puzzle.shape
    box = (size, size * (rows + 4) / (cols + 6))
    return Stepper(len(grids), draw, box, interval_ms, label)


# ---------------------------------------------------------------------------- dispatch


def stepper(result: Any, puzzle: Any = None, **options) -> Stepper:
    """The stepper for any solver result: sliding, water sort or nonogram (by its states).

    Parameters
    ----------
    result : solver result or list of states
        Anything with `states` (and `moves`) as in `puzzlelab.results`.
    puzzle : Puzzle, optional
        The nonogram puzzle (default: `result.puzzle`); unused for the other puzzles.
    **options
        Passed on to `sliding_stepper`, `watersort_stepper` or `nonogram_stepper`.

    Returns
    -------
    Stepper

    Raises
    ------
    PuzzleError
        When the result has no states or they are of no known kind.
    """
    from ..watersort.level import Level

    states = _nonempty(result_states(result), "solver")
    first = states[0]
    if isinstance(first, Level):
        return watersort_stepper(result, **options)
    if isinstance(first, np.ndarray) or hasattr(first, "grid"):
        puzzle = puzzle if puzzle is not None else getattr(result, "puzzle", None)
        if puzzle is None:
            raise PuzzleError("a nonogram stepper needs the puzzle (for its clues): pass puzzle=")
        return nonogram_stepper(puzzle, result, **options)
    if isinstance(first, Sequence) and all(isinstance(t, int | np.integer) for t in first):
        return sliding_stepper(result, **options)
    raise PuzzleError(f"cannot step through states of type {type(first).__name__}")
