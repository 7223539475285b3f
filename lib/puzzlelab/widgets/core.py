"""The pieces every widget shares: PNG frames from the study renderers, and a panel that
degrades to a static picture where no live kernel is attached.

A `Panel` is an ipywidgets `VBox` whose display bundle carries, next to the widget view,
an ``image/png`` of what it shows and a one-line ``text/plain`` summary. JupyterLab with a
kernel renders the widget; papermill reports, nbconvert HTML (after the widget state is
dropped, as `make reports` does) and untrusted notebooks fall back to the PNG.
"""

from __future__ import annotations

import base64
import io
import struct
from collections.abc import Callable
from typing import Any

import ipywidgets as W
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..checks import integer, number
from ..errors import PuzzleError

DPI = 72
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

Draw = Callable[[Any, int], None]  # draw(ax, index): one frame on a matplotlib Axes


def figure_png(fig: Figure) -> bytes:
    """The figure as PNG bytes (Agg, modest DPI, tight box)."""
    if not isinstance(fig, Figure):
        raise PuzzleError(f"figure_png needs a matplotlib Figure, not {type(fig).__name__}")
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", pad_inches=0.05)
    return buf.getvalue()


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) in pixels, read from the PNG header."""
    return struct.unpack(">II", bytes(png[16:24]))


def image_widget(png: bytes = b"") -> W.Image:
    """An Image widget shown at the PNG's own size (not stretched to the cell's width)."""
    image = W.Image(format="png")
    show(image, png)
    return image


def show(image: W.Image, png: bytes) -> None:
    """Put `png` in `image` and size the widget to it."""
    if png:
        width, height = png_size(png)
        image.layout.width, image.layout.height = f"{width}px", f"{height}px"
        image.value = png


def frame_png(draw: Draw, index: int, size: tuple[float, float]) -> bytes:
    """One frame drawn by `draw(ax, index)` on a fresh figure of `size` inches, as PNG."""
    fig = Figure(figsize=size, dpi=DPI)
    draw(fig.add_subplot(), index)
    return figure_png(fig)


STRIP_WIDTH = 10.0  # inches: the widest row of the static strip
MIN_SCALE = 0.6  # frames shrink to this share of their size before the strip wraps


def strip_indices(n: int, k: int = 8) -> list[int]:
    """At most `k` frame indices spread evenly over 0..n-1, always the first and the last."""
    n = integer(n, "n", minimum=0)
    k = integer(k, "k", minimum=2)
    if n <= k:
        return list(range(n))
    step = (n - 1) / (k - 1)
    return sorted({round(i * step) for i in range(k)})


def strip_png(draw: Draw, n: int, size: tuple[float, float], k: int = 8) -> bytes:
    """Up to `k` frames (first, evenly spaced, last), in rows at most `STRIP_WIDTH` inches wide
    with frames shrunk at most to `MIN_SCALE` (wide boards wrap instead): the static
    stand-in."""
    picks = strip_indices(n, k)
    w, h = size
    per_row = max(1, min(len(picks), int(STRIP_WIDTH // max(MIN_SCALE * w, 1e-9))))
    rows = -(-len(picks) // per_row)
    scale = min(1.0, STRIP_WIDTH / (w * per_row))
    fig = Figure(figsize=(w * scale * per_row, (h * scale + 0.2) * rows), dpi=DPI)
    for j, i in enumerate(picks):
        draw(fig.add_subplot(rows, per_row, j + 1), i)
    fig.tight_layout()
    return figure_png(fig)


class Panel(W.VBox):
    """A VBox that also displays as a static PNG (`fallback_png`) and a text summary."""

    def fallback_png(self) -> bytes:
        """The static picture shown where widgets cannot render (subclasses override)."""
        raise NotImplementedError

    def summary(self) -> str:
        """One line saying what the panel shows (the text/plain of its display)."""
        return type(self).__name__

    def _repr_mimebundle_(self, **kwargs) -> dict:
        """The widget view, plus image/png and text/plain for places without a kernel."""
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["image/png"] = base64.b64encode(self.fallback_png()).decode("ascii")
        data["text/plain"] = self.summary()
        return data


class Stepper(Panel):
    """Play / pause / slider / prev / next over a list of frames drawn on demand.

    Parameters
    ----------
    n_frames : int
        Number of frames (states) to step through.
    draw : callable
        ``draw(ax, i)`` draws frame `i` on a matplotlib Axes.
    size : (float, float)
        Figure size of one frame, in inches.
    interval_ms : int
        Milliseconds per frame while playing.
    label : callable, optional
        ``label(i)`` is the caption under frame `i` (default ``"i / n-1"``).
    """

    def __init__(
        self,
        n_frames: int,
        draw: Draw,
        size: tuple[float, float] = (3.0, 3.0),
        interval_ms: int = 500,
        label: Callable[[int], str] | None = None,
    ):
        n_frames = integer(n_frames, "n_frames", minimum=1, maximum=10**6)
        interval_ms = integer(interval_ms, "interval_ms", minimum=10)
        if not callable(draw):
            raise PuzzleError(f"draw must be a function draw(ax, i), not {draw!r}")
        if label is not None and not callable(label):
            raise PuzzleError(f"label must be a function label(i), not {label!r}")
        if not isinstance(size, tuple | list) or len(size) != 2:
            raise PuzzleError(f"size must be (width, height) in inches, not {size!r}")
        size = tuple(number(v, "size", minimum=0.5, maximum=40) for v in size)
        self.n_frames, self.draw, self.size = n_frames, draw, size
        self._label = label or (lambda i: f"{i} / {n_frames - 1}")
        self._frames: dict[int, bytes] = {}
        last = n_frames - 1
        self.play = W.Play(value=0, min=0, max=last, step=1, interval=interval_ms)
        self.slider = W.IntSlider(value=0, min=0, max=last, readout=True, description="state")
        W.jslink((self.play, "value"), (self.slider, "value"))
        self.prev_button = W.Button(description="prev", icon="step-backward", tooltip="previous")
        self.next_button = W.Button(description="next", icon="step-forward", tooltip="next")
        self.next_button.add_class("puzzlelab-next")
        self.prev_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(+1))
        self.caption = W.Label(value=self._label(0))
        self.image = image_widget(self.frame(0))
        self.slider.observe(self._on_value, names="value")
        controls = W.HBox([self.play, self.prev_button, self.next_button, self.slider])
        super().__init__([self.image, self.caption, controls])
        self.add_class("puzzlelab-stepper")

    @property
    def index(self) -> int:
        """The frame shown now."""
        return int(self.slider.value)

    def frame(self, i: int) -> bytes:
        """Frame `i` as PNG bytes (drawn once, then cached)."""
        if i not in self._frames:
            self._frames[i] = frame_png(self.draw, i, self.size)
        return self._frames[i]

    def step(self, delta: int) -> None:
        """Move `delta` frames (clamped to the first and last)."""
        self.slider.value = min(self.n_frames - 1, max(0, self.index + delta))

    def _on_value(self, change: dict) -> None:
        """Show the frame the slider (or play, or a button) selected."""
        i = int(change["new"])
        show(self.image, self.frame(i))
        self.caption.value = self._label(i)

    def fallback_png(self) -> bytes:
        """A strip of up to eight frames, first to last."""
        return strip_png(self.draw, self.n_frames, self.size)

    def summary(self) -> str:
        """What is being stepped through."""
        return f"stepper over {self.n_frames} states: {self._label(self.n_frames - 1)}"
