"""Playable boards: a sliding puzzle you click, a water-sort level you pour.

Both keep their state in plain Python (`state` / `level`, `history`) and expose the same
actions as methods (`click`, `select`, `pour`, `hint`, `undo`, `reset`) that the buttons call,
so tests drive them without a browser. After every move they say how far the goal is:
the sliding board from a complete distance table (exact), the water-sort board from the
optimal solver under a budget (exact, "now unsolvable", or "unknown" past the budget).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as W
from matplotlib.figure import Figure

from ..checks import integer
from ..errors import InvalidPuzzleError, PuzzleError
from .core import Panel, figure_png, image_widget, show

CELL = "3.2em"


class _Game(Panel):
    """A board to play: a status line and buttons calling `show_hint`, `undo` and `reset`."""

    def _controls(self) -> W.HBox:
        """Make the status label and the hint/undo/reset buttons; return the row of buttons."""
        self.status = W.Label()
        self.status.add_class("puzzlelab-status")
        self.hint_button = W.Button(description="hint", icon="lightbulb-o")
        self.undo_button = W.Button(description="undo", icon="undo")
        self.reset_button = W.Button(description="reset", icon="refresh")
        self.hint_button.on_click(lambda _: self.show_hint())
        self.undo_button.on_click(lambda _: self.undo())
        self.reset_button.on_click(lambda _: self.reset())
        return W.HBox([self.hint_button, self.undo_button, self.reset_button])


# ---------------------------------------------------------------------------- sliding


class SlidingBoard(_Game):
    """A sliding puzzle to play: click a tile next to the blank to slide it.

    Parameters
    ----------
    start : State, str or array
        The board to start from (e.g. ``"9B6358247"``, ``"4 3 _ / 5 1 6 / 7 2 _"``, or a 2-D
        array, whose shape is the board's).
    goal : State or str, optional
        The goal (default: tiles in order, blank last).
    shape : (rows, cols), optional
        The shape, when `start` does not say it (rows in text, a 2-D array or nested rows).
    table : DistanceTable, optional
        The distance table for this shape and goal (default: built, ≤ 12 cells; pass
        `puzzlelab.patterns.game_table()` for the game's 3×3 goal ``789456B23``).

    Raises
    ------
    PuzzleError
        For a bad board, a table of another shape or goal, or an unsolvable start.
    """

    def __init__(self, start: Any, goal: Any = None, shape: Any = None, table: Any = None):
        from ..sliding.board import (
            check_same_tiles,
            parse_board,
            read_board,
            require_solvable,
            solved_state,
        )
        from ..sliding.tables import distance_table

        self.start, self.shape = read_board(start, shape)
        self.goal = solved_state(self.shape) if goal is None else parse_board(goal, self.shape)
        check_same_tiles(self.start, self.goal)
        require_solvable(self.start, self.goal, self.shape)
        self.table = table if table is not None else distance_table(self.shape, self.goal)
        if tuple(self.table.shape) != self.shape or tuple(self.table.goal) != self.goal:
            raise PuzzleError(
                f"the table is for {self.table.shape} with goal {self.table.goal}; "
                f"this board is {self.shape} with goal {self.goal}"
            )
        self.state = self.start
        self.history: list[Any] = []  # (tile, direction) of each move made
        self.trail = [self.start]  # the boards so far (for undo)
        self.minimum = self.table.distance(self.start)
        self.message = ""
        rows, cols = self.shape
        self.buttons = [W.Button(layout=W.Layout(width=CELL, height=CELL)) for _ in self.start]
        for cell, button in enumerate(self.buttons):
            button.on_click(lambda _, cell=cell: self.click(cell))
            button.add_class("puzzlelab-tile")
        grid = W.GridBox(
            self.buttons, layout=W.Layout(grid_template_columns=f"repeat({cols}, {CELL})")
        )
        actions = self._controls()
        super().__init__([grid, self.status, actions])
        self.add_class("puzzlelab-sliding-board")
        self._refresh()

    @property
    def moves_left(self) -> int:
        """The minimum number of moves from the current board to the goal."""
        return self.table.distance(self.state)

    @property
    def solved(self) -> bool:
        """Is the current board the goal?"""
        return self.state == self.goal

    def choices(self, cell: int) -> list[tuple[Any, tuple]]:
        """The moves (tile, direction) of the tile in `cell` with the boards they lead to,
        best first (fewest moves left; the hinted move leads when it is this tile's)."""
        from ..sliding.board import neighbors

        cell = integer(cell, "cell", minimum=0, maximum=len(self.state) - 1)
        tile = self.state[cell]
        if tile == 0:
            return []
        options = [(m, nxt) for m, nxt in neighbors(self.state, self.shape) if nxt[cell] == 0]
        return sorted(options, key=lambda option: self.table.distance(option[1]))

    def click(self, cell: int, direction: str | None = None) -> bool:
        """Slide the tile in `cell` into a next blank; False (with a message) if it cannot.

        A tile beside two blanks slides the best way (the hinted move when the hint is this
        tile); pass `direction` ("up", "down", "left", "right") to choose.
        """
        options = self.choices(cell)
        tile = self.state[cell]
        if direction is not None:
            options = [(m, nxt) for m, nxt in options if m[1] == direction]
        if not options:
            if tile == 0:
                self.message = "that is a blank"
            elif direction is not None:
                self.message = f"tile {tile} cannot slide {direction}"
            else:
                self.message = f"tile {tile} is not next to a blank"
            self._refresh()
            return False
        move, nxt = options[0]
        others = [m[1] for m, _ in self.choices(cell) if m != move]
        self.state = nxt
        self.history.append(move)
        self.trail.append(nxt)
        self.message = (
            f"tile {tile} slid {move[1]} (it could also slide {others[0]})"
            if (others and direction is None)
            else ""
        )
        self._refresh()
        return True

    def hint(self) -> Any:
        """An optimal next move (tile, direction), or None when the board is solved."""
        from ..sliding.board import neighbors

        d = self.moves_left
        best = [m for m, nxt in neighbors(self.state, self.shape) if self.table.distance(nxt) < d]
        return best[0] if d > 0 and best else None

    def show_hint(self) -> Any:
        """Say (and highlight) an optimal next move; returns it."""
        move = self.hint()
        self.message = "solved: no move needed" if move is None else "hint: slide tile {} {}"
        if move is not None:
            self.message = self.message.format(*move)
        self._refresh(highlight=None if move is None else move[0])
        return move

    def undo(self) -> bool:
        """Take the last move back (False when there is none)."""
        if not self.history:
            return False
        self.history.pop()
        self.trail.pop()
        self.state, self.message = self.trail[-1], ""
        self._refresh()
        return True

    def reset(self) -> None:
        """Back to the start."""
        self.state, self.history, self.trail, self.message = self.start, [], [self.start], ""
        self._refresh()

    def text(self) -> str:
        """The status line: moves made and the minimum left (or solved)."""
        made = len(self.history)
        if self.solved:
            line = f"solved in {_count(made, 'move')} (minimum from the start: {self.minimum})"
        else:
            line = f"{_count(made, 'move')} made · minimum moves left: {self.moves_left}"
        return f"{line} · {self.message}" if self.message else line

    def _refresh(self, highlight: int | None = None) -> None:
        """Relabel the buttons and the status line."""
        for button, tile in zip(self.buttons, self.state, strict=True):
            button.description = str(tile) if tile else "\u00a0"  # "" would not clear it
            button.disabled = tile == 0
            button.button_style = "warning" if tile and tile == highlight else ""
            if tile and not highlight:
                button.button_style = "success" if self.solved else "info"
        self.status.value = self.text()

    def fallback_png(self) -> bytes:
        """The current board, drawn by the sliding renderer."""
        from ..sliding.plots import draw_board

        rows, cols = self.shape
        fig = Figure(figsize=(2.2 * cols / max(rows, cols), 2.2 * rows / max(rows, cols) + 0.3))
        draw_board(self.state, self.shape, ax=fig.add_subplot(), title=f"{self.moves_left} to go")
        return figure_png(fig)

    def summary(self) -> str:
        """The status line."""
        return "sliding board: " + self.text()


def _count(n: int, noun: str) -> str:
    """'1 move', '2 moves'."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# ---------------------------------------------------------------------------- water sort


class WaterSortBoard(_Game):
    """A water-sort level to play: click a tube, then another, to pour.

    After every pour the optimal solver says how many pours are left, or that the position
    is now unsolvable; past its budget it says the number is unknown.

    Parameters
    ----------
    level : Level
        The level to play.
    max_expanded : int
        Search budget per position (expanded nodes) for the pours-left count and hints.
    palette : dict, optional
        Colour name -> RGB for the drawing (e.g. the colours a screenshot was read in).

    Raises
    ------
    PuzzleError
        For something that is not a Level or a bad budget.
    """

    def __init__(self, level: Any, max_expanded: int = 200_000, palette: Mapping | None = None):
        from ..watersort.level import Level

        if not isinstance(level, Level):
            raise PuzzleError(f"expected a watersort Level, got {type(level).__name__}")
        if palette is not None and not isinstance(palette, Mapping):
            raise PuzzleError(f"palette must be a dict of colour name -> RGB, not {palette!r}")
        self.palette = palette
        self.start = self.level = level
        self.max_expanded = integer(max_expanded, "max_expanded", minimum=0)
        self.history: list[tuple[int, int]] = []
        self.selected: int | None = None
        self.message = ""
        self._analysis: dict[Any, Any] = {}
        self.colors = list(level.colors)
        self.image = image_widget()
        self.tube_buttons = [
            W.Button(description=str(k), layout=W.Layout(width="3em")) for k in range(level.n_tubes)
        ]
        for k, button in enumerate(self.tube_buttons):
            button.on_click(lambda _, k=k: self.select(k))
            button.add_class("puzzlelab-tube")
        tubes = W.HBox(self.tube_buttons, layout=W.Layout(flex_flow="row wrap"))
        actions = self._controls()
        super().__init__([self.image, tubes, self.status, actions])
        self.add_class("puzzlelab-watersort-board")
        self.minimum = self.analyse(level)
        self._refresh()

    # ---- analysis -----------------------------------------------------------------------
    def analyse(self, level: Any = None) -> Any:
        """The optimal solver's result for `level` (default: the current one), cached."""
        from ..watersort import solve

        level = self.level if level is None else level
        key = level.tubes
        if key not in self._analysis:
            self._analysis[key] = solve(level, "optimal", max_expanded=self.max_expanded)
        return self._analysis[key]

    @property
    def verdict(self) -> str:
        """The solver's verdict on the current position: optimal, unsolvable or limit."""
        return self.analyse().verdict

    @property
    def pours_left(self) -> int | None:
        """The fewest pours that sort the current position (None: unsolvable or unknown)."""
        result = self.analyse()
        return result.length if result.verdict == "optimal" else None

    # ---- actions ------------------------------------------------------------------------
    def select(self, tube: int) -> bool:
        """A click on `tube`: pick the source, or pour the picked source onto it.

        Returns True when the click poured.
        """
        tube = integer(tube, "tube", minimum=0, maximum=self.level.n_tubes - 1)
        if self.selected is None:
            if not self.level.tubes[tube]:
                self.message = f"tube {tube} is empty: pick a tube to pour from"
            else:
                self.selected, self.message = tube, f"pour tube {tube} onto ...?"
            self._refresh()
            return False
        src, self.selected = self.selected, None
        if src == tube:
            self.message = ""
            self._refresh()
            return False
        return self.pour(src, tube)

    def pour(self, src: int, dst: int) -> bool:
        """Pour tube `src` onto tube `dst`; False (with the reason shown) when illegal."""
        try:
            self.level = self.level.pour(src, dst)
        except InvalidPuzzleError as err:
            self.message = str(err)
            self._refresh()
            return False
        self.history.append((src, dst))
        self.selected, self.message = None, ""
        self._refresh()
        return True

    def hint(self) -> tuple[int, int] | None:
        """An optimal next pour, or None (sorted, unsolvable, or past the budget)."""
        result = self.analyse()
        moves = list(result.moves)
        return tuple(moves[0]) if result.verdict == "optimal" and moves else None

    def show_hint(self) -> tuple[int, int] | None:
        """Say an optimal next pour; returns it."""
        pour = self.hint()
        if pour is not None:
            self.message = f"hint: pour tube {pour[0]} onto tube {pour[1]}"
        elif self.level.is_solved():
            self.message = "sorted: no pour needed"
        else:
            self.message = "no hint: " + (
                "unsolvable" if self.verdict == "unsolvable" else "budget"
            )
        self._refresh(pour)
        return pour

    def undo(self) -> bool:
        """Take the last pour back (False when there is none)."""
        if not self.history:
            return False
        self.history.pop()
        self.level = self.start.play(self.history)[-1]
        self.selected, self.message = None, ""
        self._refresh()
        return True

    def reset(self) -> None:
        """Back to the start."""
        self.level, self.history, self.selected, self.message = self.start, [], None, ""
        self._refresh()

    # ---- display ------------------------------------------------------------------------
    def text(self) -> str:
        """The status line: pours made and the optimal number left (or unsolvable)."""
        made = len(self.history)
        result = self.analyse()
        if self.level.is_solved():
            best = self.minimum.length if self.minimum.verdict == "optimal" else "unknown"
            line = f"sorted in {_count(made, 'pour')} (optimal from the start: {best})"
        elif result.verdict == "unsolvable":
            line = f"{_count(made, 'pour')} made · now unsolvable: no pours can sort this (undo)"
        elif result.verdict == "limit":
            line = (
                f"{_count(made, 'pour')} made · pours left unknown (over {self.max_expanded} nodes)"
            )
        else:
            line = f"{_count(made, 'pour')} made · optimal pours left: {self.pours_left}"
        return f"{line} · {self.message}" if self.message else line

    def _picture(self, highlight: tuple[int, int] | None = None) -> bytes:
        """The current position as PNG (the last pour, or a hint, outlined)."""
        from ..watersort.plots import draw_board, figure_size

        fig = Figure(figsize=figure_size(self.level, unit=0.45))
        pour = highlight or (self.history[-1] if self.history else None)
        options = {} if self.palette is None else {"palette": self.palette}
        draw_board(self.level, fig.add_subplot(), colors=self.colors, pour=pour, **options)
        return figure_png(fig)

    def _refresh(self, highlight: tuple[int, int] | None = None) -> None:
        """Redraw the picture, the tube buttons and the status line."""
        show(self.image, self._picture(highlight))
        for k, button in enumerate(self.tube_buttons):
            button.button_style = "info" if k == self.selected else ""
        self.status.value = self.text()

    def fallback_png(self) -> bytes:
        """The current position."""
        return self._picture()

    def summary(self) -> str:
        """The status line."""
        return "water-sort board: " + self.text()
