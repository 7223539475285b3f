"""Every figure of the water-sort study: boards, solution animations (GIF, notebook HTML),
the corpus bound scatter and the census curves; and the registered step drawer, so
`plotting.draw_step(solution, i)`, `plotting.animate(solution)` and `widgets.stepper(solution)`
work on a `Solution`.

Tubes are laid out in a grid (at most 10 per row, rows balanced) so 30 tubes still read well.
Colors come from `puzzlelab.plotting.distinct_colors`, which stays distinct past 10 colors, or
from a `palette` the caller gives (a screenshot's own colors); every unit also carries a short
text label, so the picture works without color vision.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.patches import Patch, Rectangle

from .. import plotting
from ..errors import PuzzleError
from .level import Color, Level, Pour, show
from .screenshot import HIDDEN, Reading, load_image
from .solve import Solution

RGB = tuple[float, float, float]

MAX_PER_ROW = 10


def grid_shape(n_tubes: int, max_per_row: int = MAX_PER_ROW) -> tuple[int, int]:
    """(rows, columns) of the tube grid: balanced rows of at most `max_per_row` tubes."""
    rows = max(1, math.ceil(n_tubes / max_per_row))
    return rows, max(1, math.ceil(n_tubes / rows))


def palette(colors: Sequence[Color]) -> dict[Color, RGB]:
    """One distinct RGB color per color name."""
    return dict(zip(colors, plotting.distinct_colors(len(colors)), strict=True))


def _rgb(value: object, color: Color) -> RGB:
    """An RGB triple in 0..1 (or 0..255, scaled) from a palette entry; PuzzleError otherwise."""
    try:
        rgb = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        rgb = ()
    if len(rgb) == 4:
        rgb = rgb[:3]  # RGBA: the alpha is not drawn
    ok = len(rgb) == 3 and all(0 <= v <= 255 for v in rgb)
    if not ok:
        raise PuzzleError(
            f"palette[{color!r}] is {show(value)}; expected (r, g, b) in 0..1 or 0..255"
        )
    return tuple(v / 255 for v in rgb) if max(rgb) > 1 else rgb


def board_colors(
    colors: Sequence[Color], given: Mapping[Color, object] | None = None
) -> dict[Color, RGB]:
    """RGB per color: `given` where it names the color (a screenshot's palette), else distinct."""
    if given is not None and not isinstance(given, Mapping):
        raise PuzzleError(f"palette must map color names to RGB, not {type(given).__name__}")
    given = given or {}
    rest = [c for c in colors if c not in given]
    out = {c: _rgb(given[c], c) for c in colors if c in given}
    return {**out, **palette(rest)} if rest else out


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
    palette: Mapping[Color, object] | None = None,
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
    palette : mapping color name -> RGB, optional
        The colors to paint (RGB in 0..1 or 0..255, e.g. a screenshot's own colors); names
        it lacks get distinct colors.

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    PuzzleError
        `level` not a Level, or a palette entry that is not an RGB triple.
    """
    if not isinstance(level, Level):
        raise PuzzleError(f"draw_board needs a Level, not {type(level).__name__}")
    if ax is None:
        _, ax = plt.subplots(figsize=figure_size(level))
    colors = list(colors) if colors is not None else []
    colors += [c for c in level.colors if c not in colors]  # colors the given order lacks
    rgb, text = board_colors(colors, palette), short_labels(colors)
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


@plotting.draws_steps(Solution)
def draw_step(
    result: Solution, i: int, ax: plt.Axes, palette: Mapping[Color, object] | None = None
) -> plt.Axes:
    """Step i of a solution: the start (i = 0) or the position after pour i, outlined.

    `palette` (colour name -> RGB, e.g. a screenshot's `reading.palette`) draws the level in
    its own colours.
    """
    states, pours = result.states, result.moves
    pour = tuple(pours[i - 1]) if i else None
    title = "start" if i == 0 else f"pour {i}/{len(pours)}: {pour[0]} \u2192 {pour[1]}"
    colors = list(states[0].colors)
    return draw_board(states[i], ax, colors=colors, pour=pour, title=title, palette=palette)


def animate_solution(result: Solution, interval_ms: int = 500, size: float = 0.5):
    """A matplotlib animation of a solution: the start, then each pour (`size`: inches a tube)."""
    figsize = figure_size(result.level, unit=size)
    return plotting.animate(result, interval_ms=interval_ms, figsize=figsize)


def save_solution_gif(result: Solution, path: str | Path, fps: float = 2.0) -> Path:
    """Write the solution's animation as a GIF (atomically) and return its path."""
    return plotting.save_gif(animate_solution(result), path, fps=fps)


def solution_html(result: Solution, interval_ms: int = 500) -> str:
    """The solution's animation as self-contained HTML for a notebook."""
    return plotting.to_html(animate_solution(result, interval_ms))


def draw_bound_vs_optimum(table: pd.DataFrame, ax: plt.Axes | None = None) -> plt.Axes:
    """Scatter of the start bound against the optimum for the solvable levels of `table`."""
    if ax is None:
        _, ax = plt.subplots()
    solvable = table.dropna(subset=["length"]).astype({"length": float})
    ax.scatter(solvable.bound, solvable.length, s=14)
    lim = [0, solvable.length.max() + 2]
    ax.plot(lim, lim, color="0.6", lw=1, ls="--", label="bound = optimum")
    ax.set(xlabel="lower bound at the start", ylabel="optimal pours", title="corpus: bound")
    ax.legend()
    return ax


def draw_lengths(summary: pd.DataFrame, empty: int = 2, ax: plt.Axes | None = None) -> plt.Axes:
    """Mean (and range) of the census's solution lengths per color count, `empty` empty tubes."""
    if ax is None:
        _, ax = plt.subplots()
    part = summary[summary["empty"] == empty].dropna(subset=["mean_length"])
    mean = part["mean_length"]
    yerr = [mean - part["min_length"], part["max_length"] - mean]
    ax.errorbar(part["colors"], mean, yerr=yerr, fmt="o-", capsize=3)
    ax.set(xlabel="colors", ylabel="pours", title=f"solution length ({empty} empty tubes)")
    return ax


def draw_solvable_share(summary: pd.DataFrame, ax: plt.Axes | None = None) -> plt.Axes:
    """Share of solvable deals per color count, one curve per empty-tube count, interval shaded."""
    if ax is None:
        _, ax = plt.subplots()
    for empty, part in summary.groupby("empty"):
        label = f"{empty} empty tube" + ("s" if empty != 1 else "")
        ax.plot(part["colors"], part["share_solvable"], "o-", label=label)
        ax.fill_between(part["colors"], part["share_lo"], part["share_hi"], alpha=0.25)
    ax.set(xlabel="colors", ylabel="share of deals solvable", ylim=(-0.02, 1.02))
    ax.set_title("is one empty tube enough?")
    ax.legend(title="95% interval shaded")
    return ax


# ---- screenshots: what the reader saw, and the board in the screenshot's own colours ----------


def draw_reading(image: object, reading: Reading, ax=None, *, channels: str = "rgb"):
    """Overlay a reading on its screenshot: tube boxes, numbers and unit labels."""
    rgb = load_image(image, channels)
    if ax is None:
        _, ax = plt.subplots(figsize=(4, 4 * rgb.shape[0] / rgb.shape[1]))
    ax.imshow(rgb)
    u = reading.unit_height
    for k, (box, tube) in enumerate(zip(reading.boxes, reading.tubes, strict=True)):
        x, y, w, h = box
        edge = "tab:red" if tube is None else "yellow"
        ax.add_patch(Rectangle((x, y), w, h, fill=False, ec=edge, lw=1.2))
        ax.text(x + w / 2, y - 4, str(k), ha="center", va="bottom", color=edge, fontsize=7)
        for j, name in enumerate(tube or []):
            cy = y + h - (j + 0.5) * u - 0.05 * h
            ax.text(
                x + w + 1,
                cy,
                name[:6],
                fontsize=5,
                color="white",
                va="center",
                bbox={"fc": "black", "alpha": 0.5, "pad": 0.5, "lw": 0},
            )
    ax.set_axis_off()
    return ax


def draw_read_board(reading: Reading, ax=None, title: str | None = None):
    """Draw the tubes as read, in the screenshot's own colours (`reading.palette`).

    Units carry a number keyed to a legend of full colour names (so dark-blue and dark-green
    stay apart), '?' units are grey with a '?', covered tubes hatched, doubtful tubes red.
    """
    if not isinstance(reading, Reading):
        raise PuzzleError(f"expected a Reading from read_screenshot, not {type(reading).__name__}")
    names = list(reading.palette)
    n, cap = reading.n_tubes, max(1, reading.capacity)
    if ax is None:
        _, ax = plt.subplots(figsize=(0.55 * n + 2.2, 0.45 * cap + 1.2))
    for k, tube in enumerate(reading.tubes):
        edge = "tab:red" if k in reading.doubtful else "0.3"
        ax.add_patch(
            Rectangle(
                (k + 0.1, 0),
                0.8,
                cap,
                fill=tube is not None,
                fc="none",
                ec=edge,
                lw=1.5,
                hatch=None if tube is not None else "//",
            )
        )
        for j, name in enumerate(tube or []):
            rgb = np.array(reading.palette.get(name, (160, 160, 160))) / 255
            ax.add_patch(Rectangle((k + 0.15, j), 0.7, 1, fc=rgb, lw=0))
            label = HIDDEN if name == HIDDEN else str(names.index(name) + 1)
            ink = "black" if rgb @ [0.299, 0.587, 0.114] > 0.5 else "white"
            ax.text(k + 0.5, j + 0.5, label, ha="center", va="center", fontsize=7, color=ink)
        ax.text(k + 0.5, -0.35, str(k), ha="center", va="center", fontsize=7, color=edge)
    legend = [
        Patch(fc=np.array(reading.palette[c]) / 255, label=f"{i + 1} {c}")
        for i, c in enumerate(names)
    ]
    ax.legend(
        handles=legend, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7, frameon=False
    )
    ax.set_xlim(0, n)
    ax.set_ylim(-0.7, cap + 0.2)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title or ("read: ok" if reading.ok else "read: doubtful"), fontsize=9)
    return ax


__all__ = [
    "animate_solution",
    "board_colors",
    "draw_board",
    "draw_bound_vs_optimum",
    "draw_lengths",
    "draw_read_board",
    "draw_reading",
    "draw_solvable_share",
    "draw_step",
    "figure_size",
    "grid_shape",
    "palette",
    "save_solution_gif",
    "short_labels",
    "solution_html",
]
