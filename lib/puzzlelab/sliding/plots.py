"""Every figure of the sliding study: boards, paths, solutions step by step, distributions.

`draw_board` and `draw_path` draw boards; `draw_step` is registered with
`puzzlelab.plotting.draws_steps` for `Solution`, so `plotting.animate(solution)`,
`plotting.draw_step(solution, i)` and `widgets.stepper(solution)` show any sliding answer.
`draw_counts`, `draw_fractions` and `draw_rescaled` draw the distance distributions of
notebook 01; `draw_tightness`, `draw_expanded`, `draw_generated` and `draw_lengths` the
search figures of notebook 02.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.patches import FancyBboxPatch, Rectangle

from ..plotting import draws_steps
from .board import Shape, State
from .solve import Solution
from .tables import DistanceTable

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


@draws_steps(Solution)
def draw_step(result: Solution, i: int, ax: plt.Axes) -> None:
    """Board i of a solution (0 = the start), the tile that just moved highlighted."""
    moved = result.moves[i - 1][0] if i > 0 and result.moves else 0
    draw_board(result.states[i], result.shape, ax, f"move {i} of {len(result.states) - 1}", moved)


def draw_counts(table: DistanceTable, ax: plt.Axes | None = None, title: str = "") -> plt.Axes:
    """Bar chart of states per minimum number of moves, with the mean marked."""
    if ax is None:
        _, ax = plt.subplots()
    ax.bar(np.arange(len(table.counts)), table.counts, color="tab:blue")
    ax.axvline(table.mean, color="k", ls="--", lw=1, label=f"mean {table.mean:.2f}")
    ax.set(xlabel="minimum moves", ylabel="states", title=title)
    ax.legend()
    return ax


def draw_fractions(tables: dict[str, DistanceTable], ax: plt.Axes | None = None) -> plt.Axes:
    """Fraction of states per distance, one line per table (the legend gives max and mean)."""
    if ax is None:
        _, ax = plt.subplots()
    for name, t in tables.items():
        label = f"{name}: max {t.max_depth}, mean {t.mean:.3f}"
        ax.plot(np.arange(len(t.counts)), t.counts / t.n_states, marker="o", ms=3, label=label)
    ax.set(xlabel="minimum moves", ylabel="fraction of states")
    ax.legend()
    return ax


def draw_rescaled(tables: dict[Shape, DistanceTable], ax: plt.Axes | None = None) -> plt.Axes:
    """Distance distributions rescaled to God's number and the largest layer."""
    if ax is None:
        _, ax = plt.subplots()
    for (r, c), t in tables.items():
        if t.n_states > 12:
            x = np.arange(len(t.counts)) / t.max_depth
            ax.plot(x, t.counts / t.counts.max(), label=f"{r}x{c} (max {t.max_depth})")
    ax.set(xlabel="moves / God's number", ylabel="states / largest layer",
           title="Distance distributions, rescaled")  # fmt: skip
    ax.legend(ncol=2, fontsize=8)
    return ax


def draw_tightness(
    values: dict[str, np.ndarray], true: np.ndarray, ax: plt.Axes | None = None
) -> plt.Axes:
    """Mean heuristic value per true distance, one line per heuristic, and the diagonal."""
    if ax is None:
        _, ax = plt.subplots()
    depth = np.arange(int(true.max()) + 1)
    for name, h in values.items():
        ax.plot(depth, [h[true == d].mean() for d in depth], marker="o", ms=3, label=name)
    ax.plot(depth, depth, "k--", lw=1, label="true distance")
    ax.set(xlabel="true distance (moves)", ylabel="mean heuristic value",
           title="3×3: how tight is each lower bound?")  # fmt: skip
    ax.legend(fontsize=8)
    return ax


def draw_expanded(runs: pd.DataFrame, ax: plt.Axes | None = None) -> plt.Axes:
    """Boards expanded against optimal length, one colour per heuristic (log scale)."""
    if ax is None:
        _, ax = plt.subplots()
    for name, g in runs.groupby("heuristic", sort=False):
        ax.scatter(g["true_length"], g["expanded"], s=14, label=name)
    ax.set_yscale("log")
    ax.set(xlabel="optimal length", ylabel="boards expanded (log)", title="A* on random 3×3 boards")
    ax.legend(fontsize=8)
    return ax


def draw_generated(wide: pd.DataFrame, ax: plt.Axes | None = None) -> plt.Axes:
    """Boards generated per instance (rows) and heuristic (columns), grouped bars, log scale."""
    if ax is None:
        _, ax = plt.subplots()
    x = np.arange(len(wide))
    width = 0.8 / max(1, len(wide.columns))
    for i, name in enumerate(wide.columns):
        ax.bar(x + (i - (len(wide.columns) - 1) / 2) * width, wide[name], width=width, label=name)
    ax.set_yscale("log")
    ax.set_xticks(x, [f"#{i}" for i in wide.index])
    ax.set(xlabel="Korf instance", ylabel="boards generated (log)",
           title="IDA* on the easiest 15-puzzles")  # fmt: skip
    ax.legend(fontsize=8)
    return ax


def draw_lengths(
    dist: pd.DataFrame, mean: float, published: float, ax: plt.Axes | None = None
) -> plt.Axes:
    """Share of random boards per optimal length with intervals, our mean and the published."""
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3))
    err = [dist["share"] - dist["share_lo"], dist["share_hi"] - dist["share"]]
    ax.bar(dist["length"], dist["share"], yerr=err, capsize=2, color="tab:blue", alpha=0.7)
    ax.axvline(published, color="k", ls="--", label=f"published mean {published}")
    ax.axvline(mean, color="tab:red", label="this sample's mean")
    ax.set(xlabel="optimal moves", ylabel="share of random boards")
    ax.legend()
    return ax
