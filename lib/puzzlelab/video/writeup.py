"""The write-up's extractor (`extract_states_writeup`), kept for comparison.

Its method, step by step: compare every frame with the previous one by whole-frame colour
`matchTemplate(TM_CCOEFF_NORMED)`; analyse a frame only when that similarity lies strictly
between 0.5 and 0.8 (the preview flashes first, then the puzzle appears "half-changed").
Find the picture by searching the frame for each picture's tile 2 and taking the first
whose best match exceeds 0.95; then locate tiles 3..9 of that picture (best match, no
threshold) and bin their x and y positions into three groups each (within `sensitivity`
pixels of the smallest or largest coordinate, else the middle) to write e.g. '789456B23'.

The templates are the central part of each tile at the on-screen size (the write-up cut
them out of a screenshot of the same recording), so this function is told the board's side
in pixels. One deviation: where the write-up's code would crash (no picture's tile 2 above
threshold leaves 7 positions for 8 tiles), the frame is skipped and counted in
`attrs["skipped"]`. Two tiles binned into the same cell give a malformed pattern such as
'B11...', which is kept as read (it counts as a wrong state).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import cv2
import numpy as np
import pandas as pd
from tqdm import tqdm

from .. import checks
from ..errors import InvalidPuzzleError, PuzzleError
from .extract import open_video
from .pictures import TILE_LABELS, tile_image, validate_pictures

WRITEUP_COLUMNS = ["frame", "time", "picture", "state", "confidence"]


def writeup_templates(pictures, board_side: int, keep: float = 0.5) -> list[list[np.ndarray]]:
    """Per picture, BGR centre crops (fraction `keep` of a tile) of tiles 2..9 at screen size."""
    out = []
    cell = board_side // 3
    for pic in validate_pictures(pictures):
        bgr = cv2.cvtColor(pic, cv2.COLOR_RGB2BGR)
        pieces = []
        for label in TILE_LABELS:
            tile = cv2.resize(tile_image(bgr, label), (cell, cell), interpolation=cv2.INTER_AREA)
            m = int(round(cell * (1 - keep) / 2))
            pieces.append(np.ascontiguousarray(tile[m : cell - m, m : cell - m]))
        out.append(pieces)
    return out


def bin_positions(positions: list[tuple[int, int]], sensitivity: float) -> str:
    """The write-up's binning of 8 tile positions (tiles 2..9) into a pattern string."""
    xs = [p[0] for p in positions]
    ys = [p[1] for p in positions]
    cells = [0] * 9
    for n, (x, y) in enumerate(zip(xs, ys, strict=True)):
        if min(ys) <= y <= min(ys) + sensitivity:
            pos = 0
        elif max(ys) - sensitivity <= y <= max(ys):
            pos = 6
        else:
            pos = 3
        if min(xs) <= x <= min(xs) + sensitivity:
            pos += 0
        elif max(xs) - sensitivity <= x <= max(xs):
            pos += 2
        else:
            pos += 1
        cells[pos] += n + 2
    text = [str(c) for c in cells]
    if "0" in text:
        text[text.index("0")] = "B"
    return "".join(text)


def extract_states_writeup(
    video_path: str | Path,
    pictures,
    *,
    board_side: int,
    band: tuple[float, float] = (0.5, 0.8),
    piece_threshold: float = 0.95,
    sensitivity: float | None = None,
    max_frames: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """The write-up's method: one row per analysed frame (frame, time, picture, state, confidence).

    `sensitivity` defaults to a sixth of the board (60 px for a 360 px board, the write-up's
    value). `confidence` is the tile-2 match score that identified the picture. The
    whole-frame similarity of every frame to its predecessor is in `attrs["trace"]`.
    `max_frames` stops early (the method costs ~0.1 s of CPU per 1280x720 frame).
    """
    board_side = checks.integer(board_side, "board_side", minimum=9, maximum=8192)
    try:
        low, high = (checks.number(b, "band", minimum=-1.0, maximum=1.0) for b in band)
    except (TypeError, ValueError):
        raise InvalidPuzzleError(f"band must be (low, high) similarities, not {band!r}") from None
    piece_threshold = checks.number(piece_threshold, "piece_threshold", minimum=-1.0, maximum=1.0)
    if sensitivity is None:
        sensitivity = board_side / 6
    sensitivity = checks.number(sensitivity, "sensitivity", minimum=0.0)
    if max_frames is not None:
        max_frames = checks.integer(max_frames, "max_frames", minimum=1)
    validate_pictures(pictures)
    cap = open_video(video_path)
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) or None
    rows, trace, skipped = [], [], 0
    bar = tqdm(total=total, disable=not progress, desc="baseline", unit="frame", mininterval=0.5)
    ok, previous = cap.read()
    if not ok:
        cap.release()
        bar.close()
        raise PuzzleError(f"{video_path} has no frames that OpenCV can decode")
    h, w = previous.shape[:2]
    if board_side > min(h, w):
        cap.release()
        bar.close()
        raise InvalidPuzzleError(
            f"board_side {board_side} is larger than the {w}x{h} frames of {video_path}: "
            f"give the board's side in the video's pixels"
        )
    templates = writeup_templates(pictures, board_side)
    trace.append(np.nan)
    n = 1
    try:
        while max_frames is None or n < max_frames:
            ok, frame = cap.read()
            if not ok:
                break
            similarity = float(cv2.matchTemplate(frame, previous, cv2.TM_CCOEFF_NORMED)[0, 0])
            trace.append(similarity)
            if low < similarity < high:
                row = _analyse(frame, templates, piece_threshold, sensitivity)
                if row is None:
                    skipped += 1
                else:
                    rows.append((n, n / fps, *row))
            previous = frame
            n += 1
            bar.update(1)
    finally:
        bar.close()
        cap.release()
    table = pd.DataFrame(rows, columns=WRITEUP_COLUMNS)
    if table.empty:
        warnings.warn(f"the write-up's method found no puzzle in {video_path}", stacklevel=2)
    table.attrs.update(trace=np.asarray(trace, np.float32), fps=fps, n_frames=n, skipped=skipped)
    return table


def _analyse(frame, templates, threshold: float, sensitivity: float):
    """Picture by tile 2, then positions of tiles 3..9 binned into a pattern; None if no picture."""
    for p, pieces in enumerate(templates):
        _, best, _, loc = cv2.minMaxLoc(cv2.matchTemplate(frame, pieces[0], cv2.TM_CCOEFF_NORMED))
        if best > threshold:
            positions = [loc]
            for piece in pieces[1:]:
                res = cv2.matchTemplate(frame, piece, cv2.TM_CCOEFF_NORMED)
                positions.append(cv2.minMaxLoc(res)[3])
            return p + 1, bin_positions(positions, sensitivity), float(best)
    return None
