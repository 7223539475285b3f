"""Drawing sliding-puzzle boards and animating solutions with matplotlib."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

from ..plotting import animate
from .board import Shape, State


def draw_board(ax: plt.Axes, state: State, shape: Shape, title: str = "", moved: int = 0) -> None:
    """Draw one board on `ax` (tiles as rounded squares, the tile just moved highlighted)."""
    rows, cols = shape
    ax.clear()
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    for i, t in enumerate(state):
        if t == 0:
            continue
        r, c = divmod(i, cols)
        color = "#f4a259" if t == moved else "#5b8e7d"
        ax.add_patch(
            FancyBboxPatch(
                (c + 0.06, r + 0.06),
                0.88,
                0.88,
                boxstyle="round,pad=0,rounding_size=0.12",
                facecolor=color,
                edgecolor="white",
            )
        )
        ax.text(
            c + 0.5,
            r + 0.52,
            str(t),
            ha="center",
            va="center",
            color="white",
            fontsize=16 if rows * cols <= 16 else 11,
            fontweight="bold",
        )
    if title:
        ax.set_title(title)


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
        draw_board(ax, states[i], shape, f"move {i} of {len(states) - 1}", moved)

    draw(0)
    return animate(fig, draw, len(states), interval_ms)
