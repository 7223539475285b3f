"""One figure style, the step-drawing registry and the animation helpers every study uses.

Each study's `plots.py` registers how to draw step i of its result type::

    @plotting.draws_steps(SlidingResult)
    def draw_step(result, i, ax): ...

and then `draw_step(result, i)`, `animate(result)` (a matplotlib animation: GIF or notebook
HTML) and `puzzlelab.widgets.stepper(result)` work for every study's results alike.
"""

from __future__ import annotations

import colorsys
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import animation
from matplotlib.figure import Figure

from .checks import as_path, integer, number
from .errors import PuzzleError
from .paths import atomic_path

__all__ = [
    "STYLE",
    "animate",
    "animate_frames",
    "distinct_colors",
    "draw_matrix",
    "draw_step",
    "draws_steps",
    "n_steps",
    "save_gif",
    "step_drawer",
    "step_size",
    "to_html",
    "use_style",
]

MAX_COLORS = 10_000  # distinct_colors beyond this would not be told apart anyway

StepDrawer = Callable[..., None]  # (result, i, ax, **options): draw step i of result on ax
StepSize = Callable[[Any], tuple[float, float]]  # result -> (width, height) in inches
_STEP_DRAWERS: dict[type, StepDrawer] = {}
_STEP_SIZES: dict[type, StepSize] = {}
STEP_SIZE = (3.0, 3.0)  # inches of one step's picture when the study registers no size

STYLE = {
    "figure.dpi": 80,
    "savefig.dpi": 80,
    "figure.figsize": (7.0, 3.6),
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.frameon": False,
    "animation.embed_limit": 30.0,
}


def use_style() -> None:
    """Apply the lab's figure style (small PNGs at modest DPI, light grid)."""
    plt.rcParams.update(STYLE)
    try:  # keep notebook figures small: PNG, not retina
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("png")
    except ImportError:  # pragma: no cover - outside IPython
        pass


def distinct_colors(n: int, seed_hue: float = 0.0) -> list[tuple[float, float, float]]:
    """`n` colours that stay apart: tab10/tab20 first, then golden-ratio hues at two lightnesses."""
    n = integer(n, "number of colours", minimum=0, maximum=MAX_COLORS)
    seed_hue = number(seed_hue, "seed_hue")
    base = list(plt.get_cmap("tab10").colors) + [
        c for i, c in enumerate(plt.get_cmap("tab20").colors) if i % 2 == 1
    ]
    colors = [tuple(c) for c in base[:n]]
    k = 0
    while len(colors) < n:
        hue = (seed_hue + k * 0.618033988749895) % 1.0
        light = 0.35 if k % 2 else 0.7
        colors.append(colorsys.hls_to_rgb(hue, light, 0.75))
        k += 1
    return colors


def draws_steps(
    result_type: type, size: StepSize | None = None
) -> Callable[[StepDrawer], StepDrawer]:
    """Decorator registering `fn(result, i, ax, **options)` as the way to draw step i of
    `result_type`; `size(result)`, if given, is the figure size (inches) one step needs.

    Options (e.g. water sort's ``palette=``) come from `draw_step`, `animate` and
    `widgets.stepper`; a drawer takes the ones that make sense for its study.
    """
    if not isinstance(result_type, type):
        raise PuzzleError(f"draws_steps needs a Result class, not {result_type!r}")

    def register(fn: StepDrawer) -> StepDrawer:
        _STEP_DRAWERS[result_type] = fn
        if size is not None:
            _STEP_SIZES[result_type] = size
        return fn

    return register


def _registered(result: Any, table: dict) -> Any:
    """The entry of `table` for `result`'s type (its study's `plots` module imported once)."""
    for _ in range(2):
        for cls in type(result).__mro__:
            if cls in table:
                return table[cls]
        package = type(result).__module__.rpartition(".")[0]
        if not package:
            break
        try:
            importlib.import_module(package + ".plots")
        except ImportError:
            break
    return None


def step_drawer(result: Any) -> StepDrawer:
    """The registered drawer of `result`'s type (its study's `plots` module is imported once)."""
    drawer = _registered(result, _STEP_DRAWERS)
    if drawer is None:
        raise PuzzleError(f"no figure is registered for {type(result).__name__} results")
    return drawer


def step_size(result: Any) -> tuple[float, float]:
    """The figure size (inches) of one step of `result`: its study's choice, else `STEP_SIZE`."""
    size = _registered(result, _STEP_SIZES)
    return STEP_SIZE if size is None else tuple(size(result))


def n_steps(result: Any) -> int:
    """How many steps a result can show (its states); PuzzleError when it has none."""
    states = getattr(result, "states", None)
    if not states:
        verdict = getattr(result, "verdict", "?")
        raise PuzzleError(f"this result ({verdict}) has no states to show: no answer was found")
    return len(states)


def draw_step(result: Any, i: int, ax: plt.Axes | None = None, **options) -> plt.Axes:
    """Draw step `i` of any study's result (0 = the start) and return the axes.

    `options` go to the study's drawer (e.g. ``palette=`` for water sort).
    """
    draw = step_drawer(result)
    i = integer(i, "step")
    if not 0 <= i < n_steps(result):
        raise PuzzleError(f"step {i} is outside 0..{n_steps(result) - 1}")
    if ax is None:
        _, ax = plt.subplots(figsize=step_size(result))
    draw(result, i, ax, **options)
    return ax


def animate(
    result: Any, interval_ms: int = 400, figsize: tuple[float, float] | None = None, **options
) -> animation.FuncAnimation:
    """An animation of any study's result, one frame a step (save with `save_gif`).

    `options` go to the study's drawer (e.g. ``palette=`` for water sort).
    """
    draw = step_drawer(result)
    n = n_steps(result)
    interval_ms = integer(interval_ms, "interval_ms", minimum=1)
    fig, ax = plt.subplots(figsize=figsize or step_size(result))

    def frame(i: int) -> None:
        ax.clear()
        draw(result, i, ax, **options)

    anim = animate_frames(fig, frame, n, interval_ms)
    plt.close(fig)
    return anim


def animate_frames(
    fig: plt.Figure, draw: Callable[[int], object], n_frames: int, interval_ms: int = 400
) -> animation.FuncAnimation:
    """A matplotlib animation calling `draw(i)` for frame i (draw updates `fig` in place)."""
    if not isinstance(fig, Figure):
        raise PuzzleError(f"animate_frames needs a matplotlib Figure, not {type(fig).__name__}")
    if not callable(draw):
        raise PuzzleError(f"draw must be a function of the frame number, not {draw!r}")
    n_frames = integer(n_frames, "n_frames", minimum=1, maximum=10**6)
    interval_ms = integer(interval_ms, "interval_ms", minimum=1)
    return animation.FuncAnimation(
        fig, lambda i: draw(i) or [], frames=n_frames, interval=interval_ms, blit=False
    )


def save_gif(anim: animation.Animation, path: str | Path, fps: float = 2.5) -> Path:
    """Write an animation as a GIF (Pillow), atomically."""
    if not isinstance(anim, animation.Animation):
        raise PuzzleError(f"save_gif needs a matplotlib animation, not {type(anim).__name__}")
    path = as_path(path, "GIF path")
    fps = number(fps, "fps", minimum=0.01, maximum=100)
    with atomic_path(path, suffix=".gif") as tmp:
        anim.save(tmp, writer=animation.PillowWriter(fps=fps))
    return path


def to_html(anim: animation.Animation) -> str:
    """The animation as self-contained JavaScript HTML for a notebook (`IPython.display.HTML`)."""
    if not isinstance(anim, animation.Animation):
        raise PuzzleError(f"to_html needs a matplotlib animation, not {type(anim).__name__}")
    html = anim.to_jshtml(default_mode="once")
    plt.close(anim._fig)  # noqa: SLF001 - the figure would otherwise also render as a still
    return html


def draw_matrix(
    matrix,
    ax: plt.Axes | None = None,
    *,
    labels=None,
    vmin: float | None = None,
    vmax: float | None = None,
    fmt: str = "{:.0f}",
    cmap: str = "viridis",
    title: str = "",
):
    """Draw a matrix as an image with every entry written on it; returns the image (for colorbars).

    Parameters
    ----------
    matrix : 2-D array
        The values.
    ax : Axes, optional
        Where to draw (a new figure when omitted).
    labels : sequence, optional
        Tick labels of rows and columns (default 1..n).
    vmin, vmax : float, optional
        Colour range (default the matrix's).
    fmt : str
        Format of the numbers written in the cells.
    cmap : str
        Colour map; numbers are white on the darker 60 % of the range, black elsewhere.
    title : str
        Axes title.

    Returns
    -------
    AxesImage
    """
    try:
        m = np.asarray(matrix, dtype=float)
    except (TypeError, ValueError) as exc:
        raise PuzzleError(f"draw_matrix needs a 2-D matrix of numbers ({exc})") from None
    if m.ndim != 2 or m.size == 0:
        raise PuzzleError(f"draw_matrix needs a 2-D matrix, not shape {m.shape}")
    if ax is None:
        _, ax = plt.subplots()
    lo = np.nanmin(m) if vmin is None else vmin
    hi = np.nanmax(m) if vmax is None else vmax
    im = ax.imshow(m, cmap=cmap, vmin=lo, vmax=hi)
    for (i, j), v in np.ndenumerate(m):
        dark = v < lo + 0.6 * (hi - lo)
        ax.text(
            j, i, fmt.format(v), ha="center", va="center", fontsize=8, color="w" if dark else "k"
        )
    rows = list(range(1, m.shape[0] + 1)) if labels is None else list(labels)
    cols = list(range(1, m.shape[1] + 1)) if labels is None else list(labels)
    ax.set(xticks=range(m.shape[1]), yticks=range(m.shape[0]), title=title)
    ax.set_xticklabels(cols)
    ax.set_yticklabels(rows)
    ax.grid(False)
    return im
