"""Figures of the video study (notebook 03): pictures, frames, change traces, a tracked board."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import checks
from ..errors import InvalidPuzzleError
from ..game import GAME_GOAL
from .annotate import annotate_frame, read_frame
from .pictures import PICTURE_NAMES, validate_pictures


def _axes(ax, n: int, size: tuple[float, float]):
    """`ax` as a list of n axes, or a new row of n."""
    if ax is None:
        _, ax = plt.subplots(1, n, figsize=size)
    return list(np.atleast_1d(ax))


def _need(table, name: str, columns) -> None:
    """Refuse anything but a DataFrame with these columns."""
    if not isinstance(table, pd.DataFrame) or not set(columns) <= set(table.columns):
        raise InvalidPuzzleError(f"{name} must be a DataFrame with columns {', '.join(columns)}")


def draw_pictures(pictures, ax=None, *, names=PICTURE_NAMES):
    """The game's pictures in a row, each tile labelled as in the solved board (B = blank)."""
    pictures = validate_pictures(pictures)
    axes = _axes(ax, len(pictures), (2 * len(pictures), 2.4))
    for k, (a, pic) in enumerate(zip(axes, pictures, strict=False), start=1):
        a.imshow(pic)
        side = pic.shape[0]
        for cell, tile in enumerate(GAME_GOAL):
            r, c = divmod(cell, 3)
            label = str(tile) if tile else "B"
            x, y = (c + 0.5) * side / 3, (r + 0.5) * side / 3
            a.text(x, y, label, color="white", ha="center", va="center", fontsize=9, weight="bold")
        a.set_title(f"{k}: {names[k - 1] if k <= len(names) else ''}", fontsize=8)
        a.set_axis_off()
    return axes


def draw_frames(video: str | Path, frames: dict[str, int], ax=None):
    """Frames of a video side by side, titled 'frame i: <key>'."""
    if not isinstance(frames, dict) or not frames:
        raise InvalidPuzzleError("frames must be a non-empty dict {title: frame index}")
    images = {title: read_frame(video, index) for title, index in frames.items()}
    axes = _axes(ax, len(frames), (4 * len(frames), 2.6))
    for a, (title, index) in zip(axes, frames.items(), strict=False):
        a.imshow(images[title])
        a.set_title(f"frame {index}: {title}", fontsize=9)
        a.set_axis_off()
    return axes


def draw_change_traces(
    truth: pd.DataFrame, ours: pd.DataFrame, writeup: pd.DataFrame, ax=None, *, n_show: int = 8
):
    """The write-up's similarity with its 0.5-0.8 band (top) and our block change (bottom).

    Dotted lines mark each opening's solved picture (grey) and shuffled puzzle (red).
    """
    _need(truth, "truth", ("answer_frame", "frame", "end_frame"))
    for name, table in (("ours", ours), ("writeup", writeup)):
        if not isinstance(table, pd.DataFrame) or "trace" not in table.attrs:
            raise InvalidPuzzleError(f"{name} must be a table an extractor returned (attrs trace)")
    n_show = checks.integer(n_show, "n_show", minimum=0)
    if ax is None:
        _, ax = plt.subplots(2, 1, figsize=(12, 4.5), sharex=True)
    top, bottom = ax
    n_show = min(len(truth), n_show)
    last = int(truth.iloc[n_show - 1]["end_frame"]) + 10 if n_show else len(ours.attrs["trace"])
    similarity = writeup.attrs["trace"][:last]
    top.plot(np.arange(len(similarity)), similarity, lw=1)
    top.axhspan(0.5, 0.8, color="tab:orange", alpha=0.2, label="write-up's band 0.5-0.8")
    top.set_ylabel("similarity to\nprevious frame")
    top.legend(loc="lower right", fontsize=8)
    change = np.maximum(ours.attrs["trace"][:last], 0.1)
    bottom.semilogy(np.arange(len(change)), change, lw=1, color="tab:green")
    bottom.axhline(8, color="k", lw=0.8, ls="--", label="cut (at least 8 grey levels)")
    bottom.set(ylabel="block change\n(grey levels)", xlabel="frame")
    bottom.legend(loc="upper right", fontsize=8)
    for a in (top, bottom):
        for _, row in truth.head(n_show).iterrows():
            a.axvline(row["answer_frame"], color="grey", ls=":", lw=0.8)
            a.axvline(row["frame"], color="tab:red", ls=":", lw=0.8)
    return top, bottom


def draw_tracked(video: str | Path, row: pd.Series, ax=None):
    """The write-up's "tracking" picture: each tile's box and number on the frame read for `row`."""
    if isinstance(row, dict):
        row = pd.Series(row)
    if not isinstance(row, pd.Series):
        raise InvalidPuzzleError("row must be one row of extract_states (a Series)")
    _need(row.to_frame().T, "row", ("frame", "x", "y", "side", "state", "picture"))
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 5))
    frame = read_frame(video, checks.integer(row["frame"], "row frame", minimum=0) + 2)
    rect = (row["x"], row["y"], row["side"])
    tracked = annotate_frame(frame, rect, row["state"], picture=int(row["picture"]))
    x, y, s = (int(v) for v in rect)
    pad = s // 6
    ax.imshow(tracked[max(0, y - pad) : y + s + pad, max(0, x - pad) : x + s + pad])
    ax.set_title(f"picture {row['picture']}, state {row['state']}")
    ax.set_axis_off()
    return ax


def draw_robustness(table: pd.DataFrame, ax=None):
    """Per degradation: openings read right (left) and reading speed vs decoding (right).

    `table` is what `evaluate.robustness` returns. Right: CPU time of decoding alone over
    CPU time of reading, with the targets 0.5 (degraded) and 0.8 (clean) dotted.
    """
    _need(table, "table", ("degradation", "openings", "states_right", "flagged", "cpu speed"))
    if ax is None:
        _, ax = plt.subplots(1, 2, figsize=(11, 0.35 * len(table) + 1.2), sharey=True)
    left, right = ax
    y = np.arange(len(table))
    right_share = table["states_right"] / table["openings"].clip(lower=1)
    left.barh(y, right_share, color="tab:green", label="state right")
    left.barh(y, table["flagged"] / table["openings"].clip(lower=1), color="tab:orange",
              label="flagged")  # fmt: skip
    left.set(xlim=(0, 1.05), xlabel="share of openings", yticks=y)
    left.set_yticklabels(table["degradation"], fontsize=8)
    left.invert_yaxis()
    left.legend(loc="lower left", fontsize=8)
    right.barh(y, table["cpu speed"], color="tab:blue")
    for target in (0.5, 0.8):
        right.axvline(target, color="k", ls=":", lw=1)
    right.set(xlabel="speed vs decoding alone (CPU)")
    return left, right


def draw_reader_view(clean: str | Path, degraded: str | Path, index: tuple[int, int], row, ax=None):
    """A degraded frame (right, with what the reader read drawn on it) beside its clean original.

    `index` is (frame in the clean file, same frame in the degraded file); `row` the
    reader's row for the opening (extract_states on the degraded file).
    """
    if not isinstance(index, (tuple, list)) or len(index) != 2:
        raise InvalidPuzzleError("index must be (frame in the clean file, frame in the degraded)")
    index = tuple(checks.integer(i, "frame index", minimum=0) for i in index)
    row = pd.Series(row) if isinstance(row, dict) else row
    if not isinstance(row, pd.Series):
        raise InvalidPuzzleError("row must be one row of extract_states (a Series)")
    _need(row.to_frame().T, "row", ("x", "y", "side", "state", "picture"))
    if ax is None:
        _, ax = plt.subplots(1, 2, figsize=(11, 3.6))
    left, right = ax
    left.imshow(read_frame(clean, index[0]))
    left.set_title(f"clean, frame {index[0]}", fontsize=9)
    frame = read_frame(degraded, index[1])
    rect = (row["x"], row["y"], row["side"])
    right.imshow(annotate_frame(frame, rect, row["state"], picture=int(row["picture"])))
    flag = row.get("flag", "") or "confident"
    right.set_title(f"degraded, frame {index[1]}: read {row['state']} ({flag})", fontsize=9)
    for a in ax:
        a.set_axis_off()
    return left, right
