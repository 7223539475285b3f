"""Pictures of what the extractors see: the write-up's "tracking" frames and change traces."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pandas as pd

from .. import checks
from ..errors import InvalidPuzzleError, ParseError, PuzzleError
from ..sliding import parse_board
from .extract import block_change, open_video, read_quietly, thumbnail
from .pictures import Rect, cell_box

TRACK_COLORS = [  # RGB, one per tile label 2..9 (after the write-up's palette)
    (255, 0, 0),
    (0, 255, 0),
    (0, 0, 255),
    (200, 200, 0),
    (200, 0, 200),
    (0, 200, 200),
    (200, 200, 200),
    (255, 255, 255),
]


def read_frame(video_path: str | Path, index: int) -> np.ndarray:
    """Frame `index` of a video as an RGB array."""
    index = checks.integer(index, "index", minimum=0)
    cap = open_video(video_path)
    try:
        cap.set(cv2.CAP_PROP_POS_FRAMES, int(index))
        ok, frame = cap.read()
    finally:
        cap.release()
    if not ok:
        raise PuzzleError(f"{video_path} has no frame {index}")
    return cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)


def annotate_frame(
    frame: np.ndarray, rect: Rect, state, *, picture: int | None = None, margin: float = 0.15
) -> np.ndarray:
    """A copy of an RGB frame with each tile's box and number drawn, as in the write-up."""
    state = _board(state)
    frame = np.asarray(frame)
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise InvalidPuzzleError("frame must be an RGB uint8 image (height, width, 3)")
    try:
        rect = tuple(checks.number(v, "rect") for v in rect)
    except TypeError:
        raise InvalidPuzzleError(f"rect must be (x, y, side), not {rect!r}") from None
    if len(rect) != 3 or rect[2] <= 0:
        raise InvalidPuzzleError(f"rect must be (x, y, side) with side > 0, not {rect!r}")
    h, w = frame.shape[:2]
    x, y, side = rect
    if side > 4 * max(h, w) or x >= w or y >= h or x + side <= 0 or y + side <= 0:
        raise InvalidPuzzleError(
            f"rect {rect!r} does not mark a board on a {w}x{h} frame: give (x, y, side) in "
            f"the frame's pixels, the board overlapping the frame"
        )
    out = np.ascontiguousarray(frame).copy()
    side = rect[2]
    thick = max(1, int(side // 150))
    scale = max(0.3, side / 500)
    for cell, tile in enumerate(state):
        x0, y0, x1, y1 = cell_box(rect, cell, margin)
        if tile == 0:
            cv2.putText(
                out, "B", (x0 + 2, y1 - 4), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 0), thick
            )
            continue
        color = TRACK_COLORS[(tile - 2) % len(TRACK_COLORS)]
        cv2.rectangle(out, (x0, y0), (x1, y1), color, thick + 1)
        cv2.putText(
            out,
            f"piece{tile}",
            (x0 + 2, y0 + int(18 * scale)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            color,
            thick,
        )
    if picture is not None:
        x, y = int(rect[0]), max(12, int(rect[1]) - 6)
        cv2.putText(
            out,
            f"picture {picture}",
            (x, y),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            (255, 255, 255),
            thick,
        )
    return out


def _board(state) -> tuple[int, ...]:
    """A 3x3 board from a pattern string or nine tiles; ParseError for anything else."""
    try:
        board = parse_board(state, (3, 3))
    except PuzzleError:
        raise
    except (TypeError, ValueError, IndexError) as exc:  # odd symbols the board parser misses
        raise ParseError(f"cannot read {state!r:.40} as a 3x3 board") from exc
    return board


def change_trace(
    video_path: str | Path, *, similarity: bool = True, max_frames: int | None = None
) -> pd.DataFrame:
    """Per frame: our block change (grey levels) and the write-up's whole-frame similarity.

    `similarity` is TM_CCOEFF_NORMED of each frame with the previous one in colour, the
    signal the write-up kept within 0.5-0.8; it is NaN for the first frame and where a frame
    is flat (the normalized score is 0/0 there).
    """
    if max_frames is not None:
        max_frames = checks.integer(max_frames, "max_frames", minimum=1)
    cap = open_video(video_path)
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    rows = []
    prev = prev_thumb = None
    try:
        while max_frames is None or len(rows) < max_frames:
            ok, frame = cap.read()
            if not ok:
                break
            thumb = thumbnail(frame)
            change = block_change(thumb, prev_thumb) if prev_thumb is not None else 0.0
            sim = np.nan
            if similarity and prev is not None:
                sim = _similarity(frame, prev)
            rows.append((len(rows), len(rows) / fps, change, sim))
            prev, prev_thumb = frame, thumb
    finally:
        cap.release()
    if not rows:
        raise PuzzleError(f"{video_path} has no frames that OpenCV can decode")
    return pd.DataFrame(rows, columns=["frame", "time", "change", "similarity"])


def _similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Whole-frame TM_CCOEFF_NORMED, NaN when either frame has no contrast."""
    if a.std() < 1e-6 or b.std() < 1e-6:
        return float("nan")
    return float(cv2.matchTemplate(a, b, cv2.TM_CCOEFF_NORMED)[0, 0])


def decode_only(video_path: str | Path, grey: bool = False) -> int:
    """Read every frame with OpenCV and do nothing else (the speed floor); the frame count.

    `grey=True` decodes as the reader does: the luma plane, with no conversion to BGR."""
    cap = open_video(video_path)
    n = 0
    try:
        if grey and cap.set(cv2.CAP_PROP_CONVERT_RGB, 0):
            while read_quietly(cap)[0]:
                n += 1
        else:
            while cap.read()[0]:
                n += 1
    finally:
        cap.release()
    return n
