"""Reading each opening's puzzle out of a recording: cut detection, location, tile assignment.

Per frame the extractor does almost nothing: it takes an 80x45 grey thumbnail (strided
subsampling plus area averaging, ~0.03 ms at 1280x720) and measures the largest change of
any of 16x9 screen blocks since the previous frame. A jump far above the recent noise floor
is a cut; the frames between two cuts form a scene. Only when a scene ends is its last
(stable) frame analysed: the board is found (first from what changed against the last
background scene, then refined by a small search and remembered), its nine cells are
compared in grey at 16x16 pixels with the tiles of every picture by normalized correlation,
and tiles are assigned to cells by the Hungarian method. The cell left over is the blank.
A scene showing the solved picture is the opening's preview; a scene showing any other
arrangement is a puzzle. Each opening (from its preview or from the screensaver to the
next) gives exactly one row: its last stable puzzle scene.
"""

from __future__ import annotations

import warnings
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment
from tqdm import tqdm

from .. import checks
from ..errors import ParseError, PuzzleError
from ..game import GAME_GOAL
from ..sliding import State, to_pattern
from .pictures import TILE_LABELS, Rect, cell_box, normalize_rows, tile_templates

COLUMNS = ["frame", "time", "picture", "state", "confidence", "score", "x", "y", "side"]
THUMB = (80, 45)  # thumbnail size for change detection (16:9 frames)
BLOCKS = (16, 9)  # blocks over which change is averaged
TEMPLATE = 16  # cells and tiles are compared at TEMPLATE x TEMPLATE pixels
CELL_MARGIN = 0.15  # fraction of a cell trimmed on each side (borders, misalignment)


@dataclass(kw_only=True)
class Reading:
    """What one frame shows inside one board rectangle."""

    rect: Rect
    picture: int  # 1-based
    state: State
    score: float  # mean correlation of the 8 assigned tiles (1 = perfect)
    confidence: float  # the weakest assigned tile's correlation
    runner_up: float  # best mean correlation of any other picture


def open_video(path: str | Path) -> cv2.VideoCapture:
    """Open a video file for reading, or raise a ParseError that says why not."""
    path = Path(path)
    if not path.is_file():
        raise ParseError(f"video file not found: {path}")
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        cap.release()
        raise ParseError(f"OpenCV cannot open {path} as a video (unknown container or codec?)")
    return cap


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """An 80x45 grey-ish (green channel) thumbnail: cheap enough to take of every frame."""
    h, w = frame.shape[:2]
    step = max(1, min(w // (THUMB[0] * 4), h // (THUMB[1] * 4)))
    sub = frame[::step, ::step, 1] if frame.ndim == 3 else frame[::step, ::step]
    return cv2.resize(sub, THUMB, interpolation=cv2.INTER_AREA)


def block_change(a: np.ndarray, b: np.ndarray) -> float:
    """Largest mean absolute difference of two thumbnails over any of the 16x9 blocks."""
    return float(cv2.resize(cv2.absdiff(a, b), BLOCKS, interpolation=cv2.INTER_AREA).max())


def sample_cells(frame: np.ndarray, rect: Rect, size: int = TEMPLATE) -> np.ndarray | None:
    """The nine cells of `rect` in grey at size x size, normalized; None if off the frame."""
    h, w = frame.shape[:2]
    out = np.empty((9, size * size), np.float32)
    for cell in range(9):
        x0, y0, x1, y1 = cell_box(rect, cell, CELL_MARGIN)
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h or x1 - x0 < 6 or y1 - y0 < 6:
            return None
        crop = frame[y0:y1, x0:x1]
        if crop.ndim == 3:
            crop = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        out[cell] = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA).ravel()
    return normalize_rows(out)


def read_board(frame: np.ndarray, rect: Rect, templates: np.ndarray) -> Reading | None:
    """Assign tiles to the nine cells of `rect` for every picture; keep the best picture."""
    cells = sample_cells(frame, rect, int(round(np.sqrt(templates.shape[2]))))
    if cells is None:
        return None
    corr = templates @ cells.T  # (pictures, 8 tiles, 9 cells)
    best = None
    scores = []
    for p in range(len(templates)):
        tiles, cells_ = linear_sum_assignment(-corr[p])
        c = corr[p, tiles, cells_]
        scores.append(float(c.mean()))
        if best is None or scores[-1] > best[0]:
            best = (scores[-1], p, tiles, cells_, float(c.min()))
    score, p, tiles, cells_, weakest = best
    state = [0] * 9
    for t, c in zip(tiles, cells_, strict=True):
        state[c] = TILE_LABELS[t]
    others = [s for q, s in enumerate(scores) if q != p]
    return Reading(
        rect=rect,
        picture=p + 1,
        state=tuple(state),
        score=score,
        confidence=weakest,
        runner_up=max(others, default=0.0),
    )


def change_box(thumb: np.ndarray, background: np.ndarray, level: float = 20.0):
    """Bounding box (x0, x1, y0, y1) in thumbnail pixels of the largest changed region, or None.

    The largest region is the connected patch of changed pixels with the largest bounding
    box: a dark picture may differ little from the screensaver, but its frame or a few
    bright tiles still enclose it.
    """
    mask = (cv2.absdiff(thumb, background) > level).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 2:
        return None
    boxes = stats[1:]
    k = int(np.argmax(boxes[:, cv2.CC_STAT_WIDTH] * boxes[:, cv2.CC_STAT_HEIGHT]))
    x, y, w, h = (int(v) for v in boxes[k, :4])
    if w < 3 or h < 3:
        return None
    return x, x + w, y, y + h


def quick_score(frame: np.ndarray, rect: Rect, templates: np.ndarray) -> float:
    """A cheap stand-in for the assignment score: best picture's mean of per-tile best cells."""
    cells = sample_cells(frame, rect, int(round(np.sqrt(templates.shape[2]))))
    if cells is None:
        return -1.0
    return float((templates @ cells.T).max(axis=2).mean(axis=1).max())


def locate_board(
    frame: np.ndarray, box: tuple[int, int, int, int], templates: np.ndarray
) -> Reading | None:
    """Search board rectangles inside a changed region (thumbnail box); best reading or None."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    h, w = grey.shape
    sx, sy = w / THUMB[0], h / THUMB[1]
    x0, x1, y0, y1 = box[0] * sx, box[1] * sx, box[2] * sy, box[3] * sy
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s0 = min(x1 - x0, y1 - y0)
    candidates = [  # the board lies within a frame of unknown width
        (cx - s / 2 + dx * s, cy - s / 2 + dy * s, s)
        for s in s0 * np.linspace(0.60, 1.10, 21)
        for dx in (-0.08, 0.0, 0.08)
        for dy in (-0.08, 0.0, 0.08)
    ]
    scores = [quick_score(grey, r, templates) for r in candidates]
    best_rect, best = candidates[int(np.argmax(scores))], max(scores)
    if best < 0:
        return None
    step = max(1.0, best_rect[2] / 90)
    moves = [(dx, dy, ds) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for ds in (-1, 0, 1)]
    for _ in range(40):  # hill-climb on position and size
        x, y, s = best_rect
        near = [(x + dx * step, y + dy * step, s + ds * step) for dx, dy, ds in moves]
        near_scores = [quick_score(grey, r, templates) for r in near]
        k = int(np.argmax(near_scores))
        if near_scores[k] <= best + 1e-6:
            break
        best_rect, best = near[k], near_scores[k]
    return read_board(grey, best_rect, templates)


@dataclass
class _Extractor:
    """State of one pass over a recording (scene bookkeeping and remembered board)."""

    templates: np.ndarray
    accept: float
    margin: float
    rect: Rect | None = None
    background: np.ndarray | None = None
    pending: tuple[int, Reading] | None = None  # the opening's latest puzzle reading
    rows: list = field(default_factory=list)
    scenes: list = field(default_factory=list)

    def good(self, reading: Reading | None) -> bool:
        """A reading that clearly shows one picture's tiles (not chance correlation)."""
        return (
            reading is not None
            and reading.score >= self.accept
            and reading.score - reading.runner_up >= self.margin
        )

    def scene(self, start: int, end: int, frame: np.ndarray, thumb: np.ndarray) -> str:
        """Classify the scene [start, end] from its last frame and log it."""
        kind, reading = self._classify(start, end, frame, thumb)
        score, lead = (
            (reading.score, reading.score - reading.runner_up) if reading else (np.nan,) * 2
        )
        self.scenes.append((start, end, kind, score, lead))
        return kind

    def _classify(self, start: int, end: int, frame: np.ndarray, thumb: np.ndarray):
        """The scene's kind and reading; a puzzle reading becomes the opening's pending row."""
        box = change_box(thumb, self.background) if self.background is not None else None
        if box is None:  # nothing stands out from the screensaver: any opening has closed
            self.background = thumb
            self.flush()
            return "background", None
        reading = read_board(frame, self.rect, self.templates) if self.rect else None
        if not self.good(reading):
            reading = locate_board(frame, box, self.templates)
            if not self.good(reading):
                return "other", reading
            self.rect = reading.rect
        if reading.state == GAME_GOAL:  # the preview that starts a new opening
            self.flush()
            return "answer", reading
        if end - start < 1:  # a single frame is no stable screen
            return "transient", reading
        self.pending = (start, reading)  # the last stable puzzle screen of an opening wins
        return "puzzle", reading

    def flush(self) -> None:
        """Close the current opening: its pending reading becomes a row."""
        if self.pending is not None:
            self.rows.append(self.pending)
            self.pending = None


def extract_states(
    video_path: str | Path,
    pictures,
    *,
    progress: bool = True,
    accept: float = 0.6,
    margin: float = 0.25,
    min_cut: float = 8.0,
) -> pd.DataFrame:
    """One row per opening: frame, time, picture (1-based), state ('789456B23'), confidence.

    `confidence` is the weakest assigned tile's correlation, `score` the mean; x, y, side
    give the board in pixels; `frame` is the first frame of the puzzle's last stable scene.
    A board is read when its mean correlation is at least `accept` and beats every other
    picture by `margin` (true boards score 0.8-1.0 with a lead of 0.5 or more; chance
    alignments reach about 0.55 with a lead below 0.25). A cut is a block change above
    `min_cut` grey levels and above 4x the recent median change. The per-frame change trace
    is in `table.attrs["trace"]`, the scene log in `table.attrs["scenes"]`.

    Parameters
    ----------
    video_path : str or Path
        A video OpenCV can decode.
    pictures : list of RGB arrays
        The game's solved pictures, distinct and not flat (any size of at least 9 pixels).
    progress : bool
        Show a progress bar.
    accept, margin, min_cut : float
        Thresholds as above.

    Returns
    -------
    DataFrame
        One row per opening; empty (with a warning) when the video shows no puzzle.

    Raises
    ------
    ParseError
        A missing file, or one OpenCV cannot open or decode.
    InvalidPuzzleError
        Pictures that are not RGB images, are NaN, flat or duplicated; bad thresholds.
    """
    accept = checks.number(accept, "accept", minimum=-1.0, maximum=1.0)
    margin = checks.number(margin, "margin", minimum=0.0, maximum=2.0)
    min_cut = checks.number(min_cut, "min_cut", minimum=0.0, maximum=255.0)
    templates = tile_templates(pictures, TEMPLATE, CELL_MARGIN)
    cap = open_video(video_path)
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) or None
    ex = _Extractor(templates=templates, accept=accept, margin=margin)
    trace: list[float] = []
    recent: deque[float] = deque(maxlen=int(2 * fps))
    prev_frame = prev_thumb = None
    start = n = 0
    floor = 0.0
    bar = tqdm(total=total, disable=not progress, desc="extract", unit="frame", mininterval=0.5)
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            thumb = thumbnail(frame)
            if prev_thumb is not None:
                d = block_change(thumb, prev_thumb)
                if n % 8 == 0 and len(recent) > 4:  # the noise floor moves slowly
                    floor = float(np.median(recent))
                if d > max(min_cut, 4 * floor):
                    ex.scene(start, n - 1, prev_frame, prev_thumb)
                    start = n
                else:
                    recent.append(d)
                trace.append(d)
            else:
                trace.append(0.0)
            prev_frame, prev_thumb = frame, thumb
            n += 1
            if n % 256 == 0:
                bar.update(256)
        if prev_frame is not None:
            ex.scene(start, n - 1, prev_frame, prev_thumb)
            ex.flush()
    finally:
        bar.close()
        cap.release()
    if n == 0:
        raise PuzzleError(f"{video_path} has no frames that OpenCV can decode")
    table = pd.DataFrame(
        [
            (f, f / fps, r.picture, to_pattern(r.state), r.confidence, r.score, *r.rect)
            for f, r in ex.rows
        ],
        columns=COLUMNS,
    )
    if table.empty:
        warnings.warn(f"no puzzle found in {video_path} ({n} frames)", stacklevel=2)
    scenes = pd.DataFrame(ex.scenes, columns=["start", "end", "kind", "score", "lead"])
    table.attrs.update(trace=np.asarray(trace, np.float32), fps=fps, n_frames=n, scenes=scenes)
    return table
