"""Pictures of water-sort positions and animations of solutions (GIF and notebook HTML).

Tubes are laid out in a grid (at most 10 per row, rows balanced) so 30 tubes still read well.
Colors come from `puzzlelab.plotting.distinct_colors`, which stays distinct past 10 colors;
every unit also carries a short text label, so the picture works without color vision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
from matplotlib.patches import Rectangle

from .. import plotting
from .level import Color, Level, Pour

MAX_PER_ROW = 10


def grid_shape(n_tubes: int, max_per_row: int = MAX_PER_ROW) -> tuple[int, int]:
    """(rows, columns) of the tube grid: balanced rows of at most `max_per_row` tubes."""
    rows = max(1, math.ceil(n_tubes / max_per_row))
    return rows, max(1, math.ceil(n_tubes / rows))


def palette(colors: Sequence[Color]) -> dict[Color, tuple[float, float, float]]:
    """One distinct RGB color per color name."""
    return dict(zip(colors, plotting.distinct_colors(len(colors)), strict=True))


def short_labels(colors: Sequence[Color]) -> dict[Color, str]:
    """A short, unique text label per color (the name if short, else a prefix or a number)."""
    if all(len(c) <= 2 for c in colors):
        return {c: c for c in colors}
    for width in (3, 4):
        labels = {c: c[:width] for c in colors}
        if len(set(labels.values())) == len(colors):
            return labels
    return {c: str(k + 1) for k, c in enumerate(colors)}


def figure_size(level: Level, unit: float = 0.55, max_width: float = 8.0) -> tuple[float, float]:
    """A figure size (inches) that fits the tube grid at about `unit` inches per tube."""
    rows, cols = grid_shape(level.n_tubes)
    scale = min(unit, max_width / (cols + 0.2))
    return (cols + 0.2) * scale + 0.2, rows * (level.capacity + 1.4) * scale + 0.5


def _ink(rgb: tuple[float, float, float]) -> str:
    """Black or white text, whichever reads better on `rgb`."""
    r, g, b = rgb[:3]
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white"


def draw_board(
    level: Level,
    ax: plt.Axes | None = None,
    colors: Sequence[Color] | None = None,
    labels: bool = True,
    pour: Pour | None = None,
    title: str | None = None,
) -> plt.Axes:
    """Draw `level` on `ax`: tubes in a grid, units colored and labelled, tube numbers below.

    Parameters
    ----------
    level : Level
    ax : matplotlib Axes, optional
        Where to draw (a new figure when None).
    colors : list of str, optional
        The color order (pass the start level's colors when drawing later positions so
        colors do not change); colors it lacks are appended.
    labels : bool
        Write each unit's short label on it.
    pour : (int, int), optional
        Outline this pour's source (dashed) and destination.
    title : str, optional

    Returns
    -------
    matplotlib Axes
    """
    if ax is None:
        _, ax = plt.subplots(figsize=figure_size(level))
    colors = list(colors) if colors is not None else []
    colors += [c for c in level.colors if c not in colors]  # colors the given order lacks
    rgb, text = palette(colors), short_labels(colors)
    rows, cols = grid_shape(level.n_tubes)
    cap = level.capacity
    height = cap + 1.4  # one row of the grid: the tube plus room for its number
    ax.clear()
    fig_w, fig_h = ax.figure.get_size_inches()
    box = ax.get_position()
    scale = min(fig_w * box.width / (cols + 0.2), fig_h * box.height / (rows * height))
    fontsize = max(5.0, min(11.0, 15 * scale))
    for k, tube in enumerate(level.tubes):
        r, c = divmod(k, cols)
        x0, y0 = c * 1.0, (rows - 1 - r) * height
        for u, color in enumerate(tube):
            ax.add_patch(Rectangle((x0 + 0.15, y0 + u), 0.7, 1, facecolor=rgb[color], lw=0))
            if labels:
                ax.text(
                    x0 + 0.5,
                    y0 + u + 0.5,
                    text[color],
                    ha="center",
                    va="center",
                    fontsize=fontsize,
                    color=_ink(rgb[color]),
                )
        edge, style, width = "0.35", "-", 1.2
        if pour is not None and k in pour:
            edge, width = ("tab:red", 2.2) if k == pour[1] else ("tab:red", 1.6)
            style = "--" if k == pour[0] else "-"
        ax.plot(
            [x0 + 0.12, x0 + 0.12, x0 + 0.88, x0 + 0.88],
            [y0 + cap + 0.15, y0 - 0.05, y0 - 0.05, y0 + cap + 0.15],
            color=edge,
            ls=style,
            lw=width,
        )
        ax.text(
            x0 + 0.5, y0 - 0.45, str(k), ha="center", va="center", fontsize=fontsize, color="0.3"
        )
    ax.set_xlim(-0.1, cols + 0.1)
    ax.set_ylim(-0.8, rows * height - 0.8)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax


def animate_solution(
    level: Level, pours: Sequence[Pour], interval_ms: int = 500, size: float | None = None
):  # size: inches per tube
    """A matplotlib animation: the start, then the position after each pour (outlined)."""
    states = level.play(pours)
    fig, ax = plt.subplots(figsize=figure_size(level, unit=size or 0.5))
    colors = list(level.colors)

    def draw(i: int) -> None:
        pour = pours[i - 1] if i else None
        title = "start" if i == 0 else f"pour {i}/{len(pours)}: tube {pour[0]} \u2192 {pour[1]}"
        draw_board(states[i], ax, colors=colors, pour=pour, title=title)

    draw(0)
    return plotting.animate_frames(fig, draw, len(states), interval_ms=interval_ms)


def save_solution_gif(
    level: Level, pours: Sequence[Pour], path: str | Path, fps: float = 2.0
) -> Path:
    """Write the solution's animation as a GIF (atomically) and return its path."""
    anim = animate_solution(level, pours)
    try:
        return plotting.save_gif(anim, path, fps=fps)
    finally:
        plt.close(anim._fig)  # noqa: SLF001


def solution_html(level: Level, pours: Sequence[Pour], interval_ms: int = 500) -> str:
    """The solution's animation as self-contained HTML for a notebook."""
    return plotting.to_html(animate_solution(level, pours, interval_ms))


__all__ = [
    "animate_solution",
    "draw_board",
    "figure_size",
    "grid_shape",
    "palette",
    "save_solution_gif",
    "short_labels",
    "solution_html",
]
