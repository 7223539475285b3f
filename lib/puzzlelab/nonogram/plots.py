"""Every figure of the nonogram study: a grid with its clues, the solving steps, the census.

`draw_step` is registered for `NonogramResult` (`plotting.draws_steps`), so
`plotting.draw_step(result, i)`, `plotting.animate(result)` and `widgets.stepper(result)`
show any solve (ours or the write-up's) step by step.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap

from .. import plotting
from ..errors import PuzzleError
from .line import count_arrangements
from .puzzle import EMPTY, FILLED, UNKNOWN, Puzzle
from .solve import NonogramResult

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


def step_label(result: NonogramResult, i: int) -> str:
    """What step i of a solve was: "blank", then each deduction's label."""
    return "blank" if i == 0 else result.moves[i - 1].label


@plotting.draws_steps(NonogramResult)
def draw_step(result: NonogramResult, i: int, ax: plt.Axes) -> None:
    """Step i of a solve: the grid with its clues, titled by the deduction that made it."""
    draw_puzzle(result.puzzle, ax, grid=result.states[i], title=step_label(result, i))


def draw_steps(
    result: NonogramResult,
    ax: np.ndarray | Sequence[plt.Axes] | None = None,
    *,
    ncols: int = 5,
    size: float = 1.6,
) -> plt.Figure:
    """The states of a solve as small multiples (one panel per step, with the cells it fixed).

    Parameters
    ----------
    result : NonogramResult
        From `solve` or `solve_writeup` (its `states` and `moves` are drawn).
    ax : array of Axes, optional
        One Axes per state (a new figure with `ncols` columns when None).
    ncols, size : int, float
        Layout of the new figure: panels per row and inches per panel.

    Returns
    -------
    matplotlib Figure
    """
    n = plotting.n_steps(result)
    if ax is None:
        nrows = (n + ncols - 1) // ncols
        fig, axes = plt.subplots(nrows, ncols, figsize=(ncols * size, nrows * (size + 0.3)))
    else:
        axes = ax
    axes = np.atleast_1d(axes).ravel()
    fig = axes[0].figure
    for i, a in zip(range(n), axes, strict=False):
        _draw_cells(a, as_cells(result.puzzle, result.states[i]))
        fixed = result.moves[i - 1].cells if i else 0
        a.set_title(step_label(result, i) + (f"\n+{fixed} cells" if fixed else ""), fontsize=8)
    for a in axes[n:]:
        a.axis("off")
    if ax is None:
        fig.tight_layout()
    return fig


def animate(result: NonogramResult, every: int = 1, interval_ms: int = 500):
    """`plotting.animate` over every `every`-th step of a solve (and always its last)."""
    n = plotting.n_steps(result)
    if not isinstance(every, int) or every < 1:
        raise PuzzleError(f"every must be a whole number >= 1, got {every!r}")
    shown = sorted(set(range(0, n, every)) | {n - 1})
    ax = draw_puzzle(result.puzzle, grid=result.states[0])
    fig = ax.figure

    def frame(k: int) -> None:
        ax.clear()
        draw_step(result, shown[k], ax)

    anim = plotting.animate_frames(fig, frame, len(shown), interval_ms)
    plt.close(fig)
    return anim


def draw_density(share, ax: plt.Axes | None = None, *, title: str = "") -> plt.Axes:
    """Shares unique (band: interval) and line-solvable (dashed) against density, per size.

    `share` is `census.summarise` of a picture census.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.6))
    for (rows, cols), part in share.groupby(["rows", "cols"]):
        line = ax.plot(part["density"], part["share_unique"], "o-", label=f"{rows}×{cols} unique")
        color = line[0].get_color()
        ax.fill_between(part["density"], part["unique_lo"], part["unique_hi"], alpha=0.2)
        ax.plot(part["density"], part["share_line"], "s--", color=color, label="line-solvable")
        ax.fill_between(
            part["density"], part["line_lo"], part["line_hi"], color=color, alpha=0.1, hatch="//"
        )
    ax.set(xlabel="fill density p", ylabel="share of random pictures", ylim=(-0.02, 1.02))
    ax.set_title(title)
    ax.legend(fontsize=7, ncols=2)
    return ax


def draw_corpus_effort(table, ax: plt.Axes | None = None) -> plt.Axes:
    """Our CPU seconds per corpus puzzle against the arrangements the write-up would list."""
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.4))
    for cls, group in table.groupby("expected"):
        ax.scatter(group.writeup_arrangements, group.cpu_s, label=cls, s=14)
    ax.set(xscale="log", yscale="log", xlabel="arrangements the write-up would list")
    ax.set(ylabel="our CPU seconds", title="corpus puzzles: size of enumeration vs our time")
    ax.legend()
    return ax


def draw_arrangements(counts, ax: plt.Axes | None = None) -> np.ndarray:
    """Arrangements per line of a puzzle (bars) and C(f + k, k) growth for k blocks of 1."""
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

    `table` has columns size, density, cpu_s (from `census.hard_study`); `cpsat` is the
    benchmark's CSV (`data.hard_timings`, columns group, size, density, ours_cpu, cpsat_cpu).
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
