"""Pictures: a grid with its clues, the solving steps as small multiples, and an animation."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap

from ..plotting import animate_frames
from .puzzle import EMPTY, FILLED, UNKNOWN, Puzzle
from .solver import NonogramResult, Step, solve_steps

# index = cell + 1: EMPTY (-1) white, UNKNOWN (0) grey, FILLED (1) black
CELL_COLORS = ListedColormap(["#ffffff", "#c8c8c8", "#111111"])


def as_cells(puzzle: Puzzle, grid: np.ndarray | None) -> np.ndarray:
    """Any grid (None, bool solution or int8 partial) as int8 FILLED / EMPTY / UNKNOWN."""
    if grid is None:
        return np.full(puzzle.shape, UNKNOWN, dtype=np.int8)
    g = np.asarray(grid)
    if g.dtype == bool:
        return np.where(g, FILLED, EMPTY).astype(np.int8)
    return g.astype(np.int8)


def _draw_cells(ax: plt.Axes, cells: np.ndarray) -> None:
    """The cells as an image with thin cell lines and thicker lines every five cells."""
    R, C = cells.shape
    ax.imshow(cells + 1, cmap=CELL_COLORS, vmin=0, vmax=2, interpolation="nearest")
    for x in range(C + 1):
        ax.vlines(x - 0.5, -0.5, R - 0.5, color="#888888", lw=1.2 if x % 5 == 0 else 0.4)
    for y in range(R + 1):
        ax.hlines(y - 0.5, -0.5, C - 0.5, color="#888888", lw=1.2 if y % 5 == 0 else 0.4)
    ax.grid(False)
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)


def draw_puzzle(
    puzzle: Puzzle,
    ax: plt.Axes | None = None,
    *,
    grid: np.ndarray | None = None,
    title: str | None = None,
    clues: bool = True,
) -> plt.Axes:
    """Draw a blank, partial or solved grid with row clues left and column clues on top.

    Parameters
    ----------
    puzzle : Puzzle
    ax : matplotlib Axes, optional
        Where to draw (a new figure sized to the puzzle when None).
    grid : array, optional
        None (blank), a boolean solution or an int8 partial grid (FILLED / EMPTY / UNKNOWN).
    title : str, optional
    clues : bool
        Write the clues beside the grid.

    Returns
    -------
    matplotlib Axes
    """
    R, C = puzzle.shape
    cells = as_cells(puzzle, grid)
    row_w = max((len(c) for c in puzzle.rows), default=1) if clues else 0
    col_h = max((len(c) for c in puzzle.cols), default=1) if clues else 0
    if ax is None:
        scale = 0.28
        fig, ax = plt.subplots(
            figsize=(max(3.0, (C + row_w * 0.9) * scale), max(3.0, (R + col_h * 0.8) * scale))
        )
    _draw_cells(ax, cells)
    size = max(5.0, min(9.0, 160 / max(R + col_h, C + row_w)))
    if clues:
        for i, clue in enumerate(puzzle.rows):
            text = " ".join(map(str, clue)) or "0"
            ax.text(-0.8, i, text, ha="right", va="center", fontsize=size)
        for j, clue in enumerate(puzzle.cols):
            text = "\n".join(map(str, clue)) or "0"
            ax.text(j, -0.8, text, ha="center", va="bottom", fontsize=size, linespacing=0.95)
        ax.set_xlim(-0.5 - row_w * 0.9 - 0.5, C - 0.5)
        ax.set_ylim(R - 0.5, -0.5 - col_h * 0.8 - 0.5)
    if title:
        ax.set_title(title)
    return ax


def draw_steps(
    steps: Sequence[Step] | NonogramResult,
    ax: np.ndarray | Sequence[plt.Axes] | None = None,
    *,
    ncols: int = 5,
    size: float = 1.6,
) -> plt.Figure:
    """The solving steps as small multiples (one panel per step, labelled with cells fixed).

    Parameters
    ----------
    steps : list of Step, or NonogramResult
        From `solve_steps`, or a result whose `states` and `moves` are drawn.
    ax : array of Axes, optional
        One Axes per step (a new figure with `ncols` columns when None).
    ncols, size : int, float
        Layout of the new figure: panels per row and inches per panel.

    Returns
    -------
    matplotlib Figure
    """
    if isinstance(steps, NonogramResult):
        steps = solve_steps(steps.puzzle, steps)
    n = len(steps)
    if ax is None:
        nrows = (n + ncols - 1) // ncols
        fig, axes = plt.subplots(nrows, ncols, figsize=(ncols * size, nrows * (size + 0.3)))
    else:
        axes = ax
    axes = np.atleast_1d(axes).ravel()
    fig = axes[0].figure
    for a, step in zip(axes, steps, strict=False):
        _draw_cells(a, np.asarray(step.grid, dtype=np.int8))
        extra = f"\n+{step.fixed} cells" if step.fixed else ""
        a.set_title(step.label + extra, fontsize=8)
    for a in axes[n:]:
        a.axis("off")
    if ax is None:
        fig.tight_layout()
    return fig


def animate_steps(puzzle: Puzzle, steps: Sequence[Step], interval_ms: int = 500):
    """An animation of the steps with the clues shown (use plotting.to_html or save_gif)."""
    ax = draw_puzzle(puzzle, grid=steps[0].grid)
    fig = ax.figure
    image = ax.images[0]

    def draw(i: int) -> None:
        image.set_data(as_cells(puzzle, steps[i].grid) + 1)
        ax.set_title(steps[i].label, fontsize=9)

    return animate_frames(fig, draw, len(steps), interval_ms=interval_ms)


def draw_density_study(table, ax: plt.Axes | None = None, *, title: str = "") -> plt.Axes:
    """Fractions unique and line-solvable against density, with their 95 % intervals."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.6))
    for col, lo, hi, label in [
        ("unique", "unique_lo", "unique_hi", "unique"),
        ("line_solvable", "line_lo", "line_hi", "line-solvable"),
    ]:
        ax.plot(table.density, table[col], marker="o", label=label)
        ax.fill_between(table.density, table[lo], table[hi], alpha=0.2)
    ax.set(xlabel="fill density p", ylabel="fraction of pictures", title=title)
    ax.legend()
    return ax


def draw_arrangements(counts, ax: plt.Axes | None = None) -> np.ndarray:
    """Arrangements per line of a puzzle (bars) and C(f + k, k) growth for k blocks of 1."""
    from .line import count_arrangements

    if ax is None:
        _, ax = plt.subplots(1, 2, figsize=(11, 3.4))
    axes = np.atleast_1d(ax)
    counts.plot.bar(ax=axes[0], logy=True, width=0.8)
    axes[0].set(title="arrangements per line", ylabel="arrangements")
    n = np.arange(10, 101, 5)
    for k in (1, 3, 5, 10):
        counts_k = [count_arrangements((1,) * k, int(m)) for m in n]
        axes[1].semilogy(n, counts_k, label=f"{k} blocks of 1")
    axes[1].set(title="C(f + k, k) for k blocks of 1", xlabel="line length n")
    axes[1].legend()
    axes[0].figure.tight_layout()
    return axes


def draw_hard_timings(table, ax: plt.Axes | None = None, *, cpsat=None) -> plt.Axes:
    """CPU seconds against density for random pictures: ours (by size), and CP-SAT if given.

    `table` has columns size, density, cpu_s (from `study.hard_study`); `cpsat` is the
    benchmark's CSV (`study.hard_timings`, columns group, size, density, ours_cpu, cpsat_cpu).
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7.5, 3.8))
    for size, group in table.groupby("size"):
        mean = group.groupby("density").cpu_s.mean()
        ax.plot(mean.index, mean.values, marker="o", label=f"ours {size}x{size} (this run)")
    if cpsat is not None:
        bench = cpsat[cpsat.group == "random"]
        ax.scatter(bench.density, bench.ours_cpu, marker="x", color="k", label="ours (benchmark)")
        ax.scatter(bench.density, bench.cpsat_cpu, marker="^", color="C3", label="CP-SAT (bench)")
    ax.set(yscale="log", xlabel="fill density p", ylabel="CPU seconds")
    ax.set_title("random pictures: time to classify (unique / multiple / unsolvable)")
    ax.legend(fontsize=8)
    return ax
