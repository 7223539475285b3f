"""Drawing sliding-puzzle boards, strips of boards along a path, and animated solutions."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch, Rectangle

from ..plotting import animate_frames
from .board import Shape, State

TILE_COLOR = "#5b8e7d"
MOVED_COLOR = "#f4a259"
FRAME_COLOR = "#e9e9e9"


def _draw_tiles(
    ax: plt.Axes, state: State, shape: Shape, x0: float, y0: float, moved: int, fontsize: float
) -> None:
    """Draw the tiles of one board with its top-left corner at (x0, y0) in data units."""
    cols = shape[1]
    for i, t in enumerate(state):
        if t == 0:
            continue
        r, c = divmod(i, cols)
        ax.add_patch(
            FancyBboxPatch(
                (x0 + c + 0.06, y0 + r + 0.06),
                0.88,
                0.88,
                boxstyle="round,pad=0,rounding_size=0.12",
                facecolor=MOVED_COLOR if moved and t == moved else TILE_COLOR,
                edgecolor="white",
            )
        )
        ax.text(x0 + c + 0.5, y0 + r + 0.52, str(t), ha="center", va="center", color="white",
                fontsize=fontsize, fontweight="bold")  # fmt: skip


def _blank_axes(ax: plt.Axes, width: float, height: float) -> None:
    """Clear `ax` and set it up as a y-down drawing area of width x height cells."""
    ax.clear()
    ax.set_xlim(-0.05, width + 0.05)
    ax.set_ylim(height + 0.05, -0.05)
    ax.set_aspect("equal")
    ax.axis("off")


def draw_board(
    state: State, shape: Shape, ax: plt.Axes | None = None, title: str = "", moved: int = 0
) -> plt.Axes:
    """Draw one board (tiles as rounded squares, tile `moved` highlighted); returns the axes.

    Parameters
    ----------
    state : tuple of int
        The board in row-major order, 0 for a blank.
    shape : (rows, cols)
        The board's shape.
    ax : matplotlib Axes, optional
        Where to draw (a new figure when None).
    title : str
        Title above the board.
    moved : int
        A tile to highlight (0: none).
    """
    rows, cols = shape
    if ax is None:
        _, ax = plt.subplots(figsize=(0.6 * cols + 0.4, 0.6 * rows + 0.4))
    _blank_axes(ax, cols, rows)
    _draw_tiles(ax, state, shape, 0, 0, moved, 16 if rows * cols <= 16 else 11)
    if title:
        ax.set_title(title)
    return ax


def draw_path(
    states: Sequence[State],
    shape: Shape,
    ax: plt.Axes | None = None,
    *,
    per_row: int = 10,
    moves: Sequence | None = None,
    labels: bool = True,
    title: str = "",
    cell_inches: float = 0.3,
) -> plt.Axes:
    """Draw a strip of boards along a path (row after row of `per_row` boards); returns the axes.

    Parameters
    ----------
    states : sequence of tuple of int
        The boards in order (row-major, 0 for a blank), e.g. `Solution.states` or
        `DistanceTable.path(...)`.
    shape : (rows, cols)
        The shape of every board.
    ax : matplotlib Axes, optional
        Where to draw (a new figure sized to the strip when None).
    per_row : int
        Boards per row of the strip.
    moves : sequence of (tile, direction), optional
        The moves between the boards (`Solution.moves`); the tile that just moved is
        highlighted. Without them the moved tile is found by comparing boards.
    labels : bool
        Write the step number above each board.
    title : str
        Title of the whole strip.
    cell_inches : float
        Size of one cell in inches when a new figure is made.
    """
    rows, cols = shape
    n = len(states)
    per_row = max(1, min(per_row, n)) if n else 1
    lines = max(1, -(-n // per_row))
    gap_x, gap_y = 0.4, 0.9 if labels else 0.4
    width = per_row * cols + (per_row - 1) * gap_x
    height = lines * rows + (lines - 1) * gap_y + (0.6 if labels else 0)
    if ax is None:
        _, ax = plt.subplots(figsize=(width * cell_inches + 0.2, height * cell_inches + 0.3))
    _blank_axes(ax, width, height)
    font = max(5.0, min(11.0, 110 * cell_inches / max(rows, cols)))
    for i, state in enumerate(states):
        x0 = (i % per_row) * (cols + gap_x)
        y0 = (i // per_row) * (rows + gap_y) + (0.6 if labels else 0)
        ax.add_patch(Rectangle((x0, y0), cols, rows, facecolor=FRAME_COLOR, edgecolor="none"))
        _draw_tiles(ax, state, shape, x0, y0, _moved_tile(states, moves, i), font)
        if labels:
            ax.text(x0 + cols / 2, y0 - 0.15, str(i), ha="center", va="bottom", fontsize=font)
    if title:
        ax.set_title(title)
    return ax


def _moved_tile(states: Sequence[State], moves: Sequence | None, i: int) -> int:
    """The tile that moved into board i (0 for the first board or when unknown)."""
    if i == 0:
        return 0
    if moves is not None and i - 1 < len(moves):
        return int(moves[i - 1][0])
    changed = [t for t, u in zip(states[i], states[i - 1], strict=False) if t != u and t]
    return int(changed[0]) if len(changed) == 1 else 0


def animate_solution(
    states: list[State],
    shape: Shape,
    moves: list | None = None,
    interval_ms: int = 350,
    size: float = 2.6,
):
    """A matplotlib animation stepping through `states` (one frame per board)."""
    fig, ax = plt.subplots(figsize=(size * shape[1] / max(shape), size * shape[0] / max(shape)))

    def draw(i: int) -> None:
        moved = moves[i - 1][0] if moves and i > 0 else 0
        draw_board(states[i], shape, ax, f"move {i} of {len(states) - 1}", moved)

    draw(0)
    return animate_frames(fig, draw, len(states), interval_ms)
