"""One solution stepper for every study: `stepper(result)`.

Every solver result follows `puzzlelab.results`: `states` runs from the start to the end and
`moves[i]` leads from `states[i]` to `states[i + 1]`. Each study's `plots.py` registers how one
step of its Result type is drawn (`plotting.draws_steps`); the stepper asks the registry, so
a new study gets a stepper by registering its drawer, and nothing here names a puzzle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import plotting
from ..checks import integer, number
from ..errors import PuzzleError
from .core import Stepper


def describe_move(result: Any, move: Any) -> str:
    """A move in words: the result's `describe_move(move)` if it has one, else the move's
    `label` (a named deduction), else the move itself."""
    describe = getattr(result, "describe_move", None)
    if callable(describe):
        return str(describe(move))
    label = getattr(move, "label", None)
    return str(label) if label else str(move)


def step_caption(result: Any, i: int) -> str:
    """The caption under step `i`: the start and how far the end is, or which move led here."""
    last = plotting.n_steps(result) - 1
    noun = "move" if getattr(result, "HAS_MOVES", True) else "step"
    if i == 0:
        return f"start · {last} {noun}{'' if last == 1 else 's'} to go"
    moves = list(getattr(result, "moves", None) or [])
    text = f"{noun} {i} of {last}"
    return f"{text}: {describe_move(result, moves[i - 1])}" if i <= len(moves) else text


def stepper(
    result: Any,
    *,
    palette: Mapping | None = None,
    interval_ms: int = 500,
    size: tuple[float, float] | None = None,
) -> Stepper:
    """Play / pause / slider / next over any study's result, one picture per state.

    Parameters
    ----------
    result : Result
        A solver's result with `states` (and `moves`) whose type a study's `plots.py`
        registered with `plotting.draws_steps`.
    palette : dict, optional
        Colour name -> RGB, passed to the study's drawer (water sort: draw a level read
        from a screenshot in its own colours).
    interval_ms : int
        Milliseconds per step while playing.
    size : (float, float), optional
        Inches of one picture (default: the study's registered size).

    Returns
    -------
    Stepper

    Raises
    ------
    PuzzleError
        When the result has no states (no answer) or no study draws its type.

    Examples
    --------
    >>> from puzzlelab.sliding import solve                      # doctest: +SKIP
    >>> stepper(solve("4 3 _ / 5 1 6 / 7 2 _", goal="1 2 3 / 4 5 6 / 7 _ _"))  # doctest: +SKIP
    """
    draw = plotting.step_drawer(result)
    n = plotting.n_steps(result)
    interval_ms = integer(interval_ms, "interval_ms", minimum=10)
    if palette is not None and not isinstance(palette, Mapping):
        raise PuzzleError(f"palette must be a dict of colour name -> RGB, not {palette!r}")
    if size is None:
        size = plotting.step_size(result)
    elif not isinstance(size, tuple | list) or len(size) != 2:
        raise PuzzleError(f"size must be (width, height) in inches, not {size!r}")
    size = tuple(number(v, "size", minimum=0.5, maximum=40) for v in size)
    options = {} if palette is None else {"palette": palette}

    def draw_frame(ax: Any, i: int) -> None:
        draw(result, i, ax, **options)

    return Stepper(n, draw_frame, size, interval_ms, lambda i: step_caption(result, i))
