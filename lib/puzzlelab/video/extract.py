"""Reading each opening's puzzle out of a recording: cut detection, location, tile assignment.

Per frame the extractor does almost nothing: it takes a grey thumbnail in the frame's own
shape (80x45 at 16:9, 45x80 for a portrait phone; strided subsampling plus area averaging,
~0.03 ms at 1280x720) and measures the largest change of any of its 144 or so blocks, each
about square on screen, since the previous frame. A jump far above the recent noise floor
is a cut; the frames between two cuts form a scene. Only when a scene ends is its last
(stable) frame analysed: the board is found (first from what changed against the last
background scene, then refined by a small search and remembered), its nine cells are
compared in grey at 16x16 pixels with the tiles of every picture by normalized correlation,
and tiles are assigned to cells by the Hungarian method. The cell left over is the blank.
A scene showing the solved picture is the opening's preview; a scene showing any other
arrangement is a puzzle. Each opening (from its preview or from the screensaver to the
next) gives exactly one row: its last stable puzzle scene.

Frames come from the decoder as their luma plane where it hands them out (`open_grey`), so
the reader skips the conversion to BGR that a plain decode pays on every frame.
"""

from __future__ import annotations

import itertools
import math
import os
import statistics
import warnings
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import pandas as pd
from numba import njit
from scipy.optimize import linear_sum_assignment
from tqdm import tqdm

from .. import checks
from ..errors import InvalidPuzzleError, ParseError, PuzzleError
from ..game import GAME_GOAL
from ..sliding import State
from .pictures import (
    TILE_LABELS,
    Rect,
    board_cells,
    board_image,
    sampling_grid,
    tile_templates,
)

COLUMNS = ["frame", "time", "picture", "state", "confidence", "score", "flag", "x", "y", "side"]
BLOCK = 5  # side in thumbnail pixels of the blocks over which change is averaged
N_BLOCKS = 144  # about this many blocks per thumbnail, each about square on screen
COARSE = 8  # ... and at COARSE x COARSE while searching for the board
TEMPLATE = 16  # cells and tiles are compared at TEMPLATE x TEMPLATE pixels
KEEP_BYTES = 256 * 2**20  # frames kept while looking for the board (read again, not decoded)
CELL_MARGIN = 0.15  # fraction of a cell trimmed on each side (borders, misalignment)
BLANK_CONTRAST = 12.0  # grey-level spread at which a cell stops looking like the flat blank


@dataclass(kw_only=True)
class Reading:
    """What one frame shows inside one board rectangle."""

    rect: Rect
    picture: int  # 1-based
    state: State
    score: float  # mean correlation of the 8 assigned tiles (1 = perfect)
    confidence: float  # the weakest assigned tile's correlation
    runner_up: float  # best mean correlation of any other picture
    corr: np.ndarray | None = field(default=None, repr=False)  # (pictures, tiles, cells)
    board: np.ndarray | None = field(default=None, repr=False)  # the grey board image read


def open_video(path: str | Path) -> cv2.VideoCapture:
    """Open a video file for reading, or raise a ParseError that says why not."""
    if not isinstance(path, (str, os.PathLike)):
        raise ParseError(f"a video is given by its file name, not {path!r:.60}")
    path = Path(path)
    if not path.is_file():
        raise ParseError(f"video file not found: {path}")
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        cap.release()
        raise ParseError(f"OpenCV cannot open {path} as a video (unknown container or codec?)")
    return cap


def open_grey(path: str | Path) -> tuple[cv2.VideoCapture, list, tuple[float, float]]:
    """Open a video for reading its luma plane straight from the decoder, when it can be.

    Converting each decoded frame to BGR costs a third of decoding's CPU at 960x540 (0.70 s
    against 0.46 s for the clean sweep file's 784 frames), and the reader looks only at grey
    levels. With OpenCV's
    conversion off, FFmpeg's planar YUV frames come back as their luma plane (OpenCV warns
    that it treats the format as one 8-bit channel; that warning is silenced here). Luma is
    grey up to a linear map (16-235 for most phone video, 0-255 for JPEG-style streams),
    told apart on the first frame against its BGR decoding (`luma_levels`). Returns
    (capture, [first frame], (gain, offset) from the frames' levels to grey); where the
    first frame cannot tell or its plane is no luma, the capture hands out BGR frames and
    levels are (1, 0)."""
    probe = open_video(path)
    ok, bgr = probe.read()
    probe.release()
    cap = open_video(path)
    if not ok:
        return cap, [], (1.0, 0.0)
    raw = cap.set(cv2.CAP_PROP_CONVERT_RGB, 0)
    ok, plane = read_quietly(cap)
    levels = luma_levels(plane, bgr) if raw and ok else None
    if levels is None:  # not luma: BGR frames as usual
        cap.release()
        cap = open_video(path)
        return cap, [], (1.0, 0.0)
    return cap, [plane], levels


def read_quietly(cap: cv2.VideoCapture) -> tuple[bool, np.ndarray | None]:
    """cap.read() with OpenCV's log held to errors: with conversion off it warns on every
    frame that it treats the decoder's format as one channel."""
    quiet = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    try:
        return cap.read()
    finally:
        cv2.utils.logging.setLogLevel(quiet)


LUMA_RANGES = ((255 / 219, -16 * 255 / 219), (1.0, 0.0))  # (gain, offset): video, full range


def luma_levels(plane: np.ndarray, bgr: np.ndarray) -> tuple[float, float] | None:
    """(gain, offset) with grey = gain x plane + offset, when a decoder's single-channel
    `plane` is the luma of the BGR frame `bgr` in video range (16-235) or full range (0-255):
    the one range that matches within 3 grey levels on average, the other at least 4 levels
    worse (a flat mid-grey frame could be either); else None."""
    if not (plane.dtype == np.uint8 and plane.ndim == 2 and plane.shape == bgr.shape[:2]):
        return None
    luma = plane[::4, ::4].astype(np.float32)
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)[::4, ::4].astype(np.float32)
    errors = [float(np.abs(gain * luma + offset - grey).mean()) for gain, offset in LUMA_RANGES]
    best = int(np.argmin(errors))
    if errors[best] > 3.0 or errors[1 - best] < errors[best] + 4.0:
        return None
    return LUMA_RANGES[best]


def thumb_size(size: tuple[int, int]) -> tuple[int, int]:
    """(width, height) of the change-detection thumbnail of a frame of `size` (width, height):
    about N_BLOCKS blocks of BLOCK x BLOCK pixels, each about square on screen whatever the
    frame's shape (80x45 for 16:9 landscape, 45x80 for a portrait phone, 70x50 for 4:3)."""
    aspect = size[0] / size[1]
    blocks = (
        max(1, round(float(np.sqrt(N_BLOCKS * aspect)))),
        max(1, round(float(np.sqrt(N_BLOCKS / aspect)))),
    )
    return BLOCK * blocks[0], BLOCK * blocks[1]


def thumbnail(frame: np.ndarray, levels: tuple[float, float] = (1.0, 0.0)) -> np.ndarray:
    """A small grey-ish (green channel) thumbnail of the frame's shape (`thumb_size`): cheap
    enough to take of every frame. A grey frame is taken as is, its levels mapped to grey
    by `levels` (gain, offset: see `open_grey`) after shrinking."""
    h, w = frame.shape[:2]
    tw, th = thumb_size((w, h))
    step = max(1, min(w // (tw * 4), h // (th * 4)))
    sub = frame[::step, ::step, 1] if frame.ndim == 3 else frame[::step, ::step]
    thumb = cv2.resize(sub, (tw, th), interpolation=cv2.INTER_AREA)
    if levels != (1.0, 0.0):
        thumb = cv2.convertScaleAbs(thumb, alpha=levels[0], beta=levels[1])
    return thumb


def block_change(a: np.ndarray, b: np.ndarray) -> float:
    """Largest mean absolute difference of two thumbnails over any of their BLOCK x BLOCK
    blocks."""
    blocks = (a.shape[1] // BLOCK, a.shape[0] // BLOCK)
    return float(cv2.resize(cv2.absdiff(a, b), blocks, interpolation=cv2.INTER_AREA).max())


def blank_likeness(contrast: np.ndarray) -> np.ndarray:
    """How much each cell looks like the flat blank: 1 for no contrast, -1 for a textured tile."""
    return np.clip(1.0 - contrast / BLANK_CONTRAST, -1.0, 1.0).astype(np.float32)


def assign(corr: np.ndarray) -> np.ndarray:
    """The cell of each row (tile, or blank) maximizing the total score (Hungarian method).

    When every row's best cell is a different one, that is already the optimum (the sum of
    row maxima bounds every assignment), and the solver is skipped.
    """
    best = corr.argmax(axis=1)
    if len(np.unique(best)) == len(best):
        return best
    return linear_sum_assignment(-corr)[1]


def arrangement(corr: np.ndarray) -> tuple[State, np.ndarray]:
    """The state that best explains one picture's (tiles + blank) x cells scores, and each
    tile's score in it."""
    where = assign(corr)
    state = [0] * 9
    for tile, cell in zip(TILE_LABELS, where, strict=False):
        state[cell] = tile
    n = len(TILE_LABELS)
    return tuple(state), corr[np.arange(n), where[:n]]


def cell_correlations(board: np.ndarray, trim: int, templates: np.ndarray) -> np.ndarray:
    """Correlation of every picture's tiles with the nine cells of a grey board image,
    (pictures, tiles, 9): the numpy reference of `_correlations`."""
    size = math.isqrt(templates.shape[2])
    cells = board_cells(board, size, trim)
    n_pictures, n_tiles, k = templates.shape
    return (templates.reshape(-1, k) @ cells.T).reshape(n_pictures, n_tiles, 9)


@njit(cache=True, fastmath=True)
def _correlations(board, trim: int, templates, corr, best, values) -> None:
    """Kernel of `cell_correlations` (into `corr`), with each tile's best cell (`best`, the
    first on a tie) and its correlation (`values`): one call per reading instead of a dozen
    numpy calls on tiny arrays."""
    n_pictures, n_tiles, k = templates.shape
    cells = np.empty((9, k), np.float32)
    _cells_into(board, trim, cells)
    for p in range(n_pictures):
        for t in range(n_tiles):
            top, arg = np.float32(-2.0), 0
            for q in range(9):
                c = _dot(templates[p, t], cells[q])
                corr[p, t, q] = c
                if c > top:
                    top, arg = c, q
            best[p, t], values[p, t] = arg, top


def read_image(board: np.ndarray, trim: int, templates: np.ndarray, rect: Rect) -> Reading:
    """`read_cells` of a grey board image, its correlations from one compiled call."""
    n_pictures, n_tiles, _ = templates.shape
    corr = np.empty((n_pictures, n_tiles, 9), np.float32)
    best = np.empty((n_pictures, n_tiles), np.int64)
    values = np.empty((n_pictures, n_tiles), np.float32)
    _correlations(board, trim, templates, corr, best, values)
    out = choose(corr, best, values, rect)
    out.board = board
    return out


def read_cells(cells: np.ndarray, templates: np.ndarray, rect: Rect) -> Reading:
    """Assign tiles to the nine cells (normalized, `board_cells`) for every picture; keep the
    best picture (see `choose`)."""
    n_pictures, n_tiles, k = templates.shape
    corr = (templates.reshape(-1, k) @ cells.T).reshape(n_pictures, n_tiles, 9)
    return choose(corr, corr.argmax(axis=2), corr.max(axis=2), rect)


def choose(corr: np.ndarray, best: np.ndarray, values: np.ndarray, rect: Rect) -> Reading:
    """The best picture's reading from its tiles' correlations with the cells, given each
    tile's best cell and correlation there (`best` and `values` are overwritten).

    The score of a picture is the mean correlation of its 8 tiles in their assigned cells.
    Each tile's best cell gives an upper bound of that score (exact when the best cells are
    all different); the assignment (Hungarian method) is solved only for the pictures whose
    bound could still make them the best or the runner-up, most promising first.
    """
    n_tiles = corr.shape[1]
    bound = (values.sum(axis=1) / n_tiles).tolist()
    rows = best.tolist()
    scores: dict[int, float] = {}
    second = -np.inf  # the second best score so far
    for p in sorted(range(len(bound)), key=lambda q: -bound[q]):  # stable, as argsort's
        if len(scores) >= 2 and bound[p] <= second:
            break  # neither this picture nor any after it can be in the top two
        if len(set(rows[p])) < n_tiles:  # two tiles want one cell: assign
            best[p] = linear_sum_assignment(-corr[p])[1]
            values[p] = corr[p, np.arange(n_tiles), best[p]]
            rows[p] = best[p].tolist()
            scores[p] = float(values[p].sum()) / n_tiles
        else:
            scores[p] = bound[p]
        if len(scores) >= 2:
            second = sorted(scores.values())[-2]
    p = max(scores, key=scores.get)
    state = [0] * 9
    for tile, cell in zip(TILE_LABELS, rows[p], strict=True):
        state[cell] = tile
    return Reading(
        rect=rect,
        picture=p + 1,
        state=tuple(state),
        score=scores[p],
        confidence=float(values[p].min()),
        runner_up=max((v for q, v in scores.items() if q != p), default=0.0),
        corr=corr,
    )


def check_rect(rect: object) -> Rect:
    """(x, y, side) as three finite numbers with side > 0, or an InvalidPuzzleError."""
    try:
        rect = tuple(checks.number(v, "rect") for v in rect)
    except (TypeError, PuzzleError):
        raise InvalidPuzzleError(f"rect must be (x, y, side) in pixels, not {rect!r:.60}") from None
    if len(rect) != 3 or not rect[2] > 0:
        raise InvalidPuzzleError(f"rect must be (x, y, side) with side > 0, not {rect!r:.60}")
    return rect


def check_frame(frame: object) -> np.ndarray:
    """A BGR (or grey) uint8 image, or an InvalidPuzzleError."""
    ok = isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    if not ok or not (frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] == 3)):
        raise InvalidPuzzleError("frame must be a uint8 image, (height, width, 3) or grey")
    return frame


def read_board(frame: np.ndarray, rect: Rect, templates: np.ndarray) -> Reading | None:
    """Read the board in `rect`: tiles by correlation, the blank as the flattest cell left.

    `templates` come from `tile_templates`; None when the board leaves the frame.
    """
    frame, rect = check_frame(frame), check_rect(rect)
    if not (
        isinstance(templates, np.ndarray)
        and templates.ndim == 3
        and templates.shape[1] == len(TILE_LABELS)
        and round(np.sqrt(templates.shape[2])) ** 2 == templates.shape[2] > 0
    ):
        raise InvalidPuzzleError("templates must come from tile_templates(pictures)")
    return _read_board(frame, rect, templates)


def _read_board(frame: np.ndarray, rect: Rect, templates: np.ndarray) -> Reading | None:
    """`read_board` without checking its arguments (the extractor's inner loop)."""
    size = math.isqrt(templates.shape[2])
    cell, trim = sampling_grid(size, CELL_MARGIN)
    board = board_image(frame, rect, 3 * cell)
    return None if board is None else read_image(board, trim, templates, rect)


def fit(reading: Reading, picture: int, state: State) -> float:
    """How well a frame still shows `state` of `picture`: median correlation of its 8 tiles.

    The median ignores a few cells hidden by a finger or a touch indicator.
    """
    corr = reading.corr[picture - 1]
    values = sorted(corr[t, state.index(label)] for t, label in enumerate(TILE_LABELS))
    return float(values[3] + values[4]) / 2


def change_boxes(thumb: np.ndarray, background: np.ndarray, level: float = 20.0, top: int = 3):
    """Boxes (x0, x1, y0, y1), in thumbnail pixels, around the largest changed regions.

    Regions are connected patches of changed pixels, largest bounding box first: a dark
    picture may differ little from the screensaver, but its frame or a few bright tiles still
    enclose it; a notification or a touch indicator is another region, tried after it. When
    a region is far from square (a notification touching the board's frame, say), the largest
    square inside it comes first: that is where a board would be.
    """
    mask = (cv2.absdiff(thumb, background) > level).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    order = np.argsort(-(stats[1:, cv2.CC_STAT_WIDTH] * stats[1:, cv2.CC_STAT_HEIGHT])) + 1
    out = []
    for k in order[:top]:
        x, y, w, h = (int(v) for v in stats[k, :4])
        if w < 3 or h < 3:
            continue
        if max(w, h) > 1.15 * min(w, h):
            inside = cv2.distanceTransform((labels == k).astype(np.uint8), cv2.DIST_C, 3)
            cy, cx = np.unravel_index(int(np.argmax(inside)), inside.shape)
            half = int(inside[cy, cx])
            if half >= 2:
                out.append((cx - half + 1, cx + half, cy - half + 1, cy + half))
        out.append((x, x + w, y, y + h))
    return out


def quick_scores(grey: np.ndarray, rects: list, templates: np.ndarray) -> np.ndarray:
    """A cheap stand-in for the assignment score of each rectangle: the best picture's mean
    of per-tile best cells (-1 off the frame). Each board is sampled alone (`board_image`),
    then all are scored in one compiled call: one matrix product of many boards would run
    threaded in BLAS, whose idle workers spin (more CPU, not less), and one product per
    board costs more in numpy's overhead than in arithmetic."""
    size = math.isqrt(templates.shape[2])
    cell, trim = sampling_grid(size, CELL_MARGIN)
    boards = [board_image(grey, r, 3 * cell) for r in rects]
    inside = [k for k, b in enumerate(boards) if b is not None]
    out = np.full(len(rects), -1.0)
    if inside:
        out[inside] = _board_scores(np.stack([boards[k] for k in inside]), trim, templates)
    return out


@njit(cache=True, fastmath=True)
def _cells_into(board, trim: int, out) -> None:
    """Kernel of `board_cells`: the nine trimmed cells of a board image, zero-mean and unit
    norm (a flat cell all zeros), into `out` (9, size * size)."""
    size = int(np.sqrt(out.shape[1]))
    c = size + 2 * trim
    for q in range(9):
        r0, c0 = (q // 3) * c + trim, (q % 3) * c + trim
        total = np.float32(0.0)
        for i in range(size):
            for j in range(size):
                out[q, i * size + j] = board[r0 + i, c0 + j]
                total += out[q, i * size + j]
        out[q] -= total / np.float32(out.shape[1])
        norm = np.sqrt(_dot(out[q], out[q]))
        out[q] *= np.float32(1.0) / norm if norm >= 1e-3 * np.sqrt(out.shape[1]) else 0.0


@njit(cache=True, fastmath=True)
def _dot(a, b) -> float:
    """Dot product of two float32 vectors, without numba's temporary array or BLAS call."""
    total = np.float32(0.0)
    for i in range(len(a)):
        total += a[i] * b[i]
    return total


@njit(cache=True, fastmath=True)
def _board_scores(boards, trim: int, templates) -> np.ndarray:
    """Kernel of `quick_scores`: per board image, the best picture's mean over its tiles of
    each tile's best correlation with the nine cells (-2 stands for minus infinity, which
    fastmath does not allow)."""
    n_pictures, n_tiles, k = templates.shape
    out = np.empty(len(boards))
    cells = np.empty((9, k), np.float32)
    for m in range(len(boards)):
        _cells_into(boards[m], trim, cells)
        best = -2.0
        for p in range(n_pictures):
            total = 0.0
            for t in range(n_tiles):
                top = np.float32(-2.0)
                for q in range(9):
                    top = max(top, _dot(templates[p, t], cells[q]))
                total += top
            best = max(best, total / n_tiles)
        out[m] = best
    return out


def locate_board(
    frame: np.ndarray,
    box: tuple[int, int, int, int],
    templates: np.ndarray,
    coarse: np.ndarray | None = None,
) -> Reading | None:
    """Search board rectangles inside a changed region (thumbnail box); best reading or None.

    A grid of positions and sizes is scored with `coarse` templates (8x8 cells, a quarter
    of the work) when given, then the best is refined by hill-climbing with `templates`.
    """
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    h, w = grey.shape
    tw, th = thumb_size((w, h))
    sx, sy = w / tw, h / th
    x0, x1, y0, y1 = box[0] * sx, box[1] * sx, box[2] * sy, box[3] * sy
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s0 = min(x1 - x0, y1 - y0)
    candidates = [  # the board lies within a frame of unknown width
        (cx - s / 2 + dx * s, cy - s / 2 + dy * s, s)
        for s in (s0 * np.linspace(0.60, 1.10, 11)).tolist()  # floats: round() is fast
        for dx in (-0.08, 0.0, 0.08)
        for dy in (-0.08, 0.0, 0.08)
    ]
    grid = templates if coarse is None else coarse
    scores = quick_scores(grey, candidates, grid).tolist()
    x, y, s = candidates[int(np.argmax(scores))]
    # the coarse score falls from 1 to 0.7 a tenth of a cell off: look halfway between too
    candidates += [
        (x + dx * s, y + dy * s, s) for dx in (-0.04, 0.0, 0.04) for dy in (-0.04, 0.0, 0.04)
    ]
    scores += quick_scores(grey, candidates[len(scores) :], grid).tolist()
    best_rect = candidates[int(np.argmax(scores))]
    if max(scores) < HOPELESS:  # nothing here looks like tiles: not worth refining
        return None
    best_rect = climb(grey, best_rect, templates, max(1.0, best_rect[2] / 40))
    return read_board(grey, best_rect, templates)


AXES = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
DIAGONALS = [
    (dx, dy, ds)
    for dx in (-1, 0, 1)
    for dy in (-1, 0, 1)
    for ds in (-1, 0, 1)
    if abs(dx) + abs(dy) + abs(ds) > 1
]


def climb(grey: np.ndarray, rect: Rect, templates: np.ndarray, step: float) -> Rect:
    """Hill-climb `quick_scores` over position and size: moves along the axes, the step halved
    when stuck; at a step of one pixel the diagonal moves get a try too (6 moves a round
    instead of 26: a third of the reads of a search over every direction)."""
    seen: dict[tuple, float] = {}  # a step back leads where the climb has been: not again

    def scores(rects: list[Rect]) -> list[float]:
        """Each rectangle's score; those not seen before are sampled together."""
        keys = [tuple(round(v, 3) for v in r) for r in rects]
        new = {k: r for k, r in zip(keys, rects, strict=True) if k not in seen}
        values = quick_scores(grey, list(new.values()), templates).tolist()
        seen.update(zip(new, values, strict=True))
        return [seen[k] for k in keys]

    best = scores([rect])[0]
    moves = AXES
    for _ in range(200):
        x, y, s = rect
        near = [(x + dx * step, y + dy * step, s + ds * step) for dx, dy, ds in moves]
        near_scores = scores(near)
        k = int(np.argmax(near_scores))
        if near_scores[k] > best + 1e-6:
            rect, best, moves = near[k], near_scores[k], AXES
        elif step > 1.0:
            step = max(1.0, step / 2)
        elif moves is AXES:
            moves = DIAGONALS
        else:
            break
    return rect


def plausible(box: tuple[int, int, int, int], size: tuple[int, int]) -> bool:
    """Whether a changed region (thumbnail pixels) of a frame of `size` could hold a board:
    roughly square on screen (not a notification banner) and not a dot."""
    w, h = box[1] - box[0], box[3] - box[2]
    tw, th = thumb_size(size)
    wide, tall = w * size[0] / tw, h * size[1] / th
    return min(w / tw, h / th) >= 0.08 and 0.5 <= wide / tall <= 2.0


def find_board(
    frames,
    templates: np.ndarray,
    coarse: np.ndarray,
    good,
    min_cut: float,
    fps: float,
    levels: tuple[float, float] = (1.0, 0.0),
):
    """Scan a recording's frames for the board: (Reading or None, per-frame change trace).

    Per frame only a thumbnail and its largest block change are computed. At each cut the
    scene that ended (two frames or more) is compared with the last background scene, and
    the board is searched for in its largest changed regions. A board found once is a
    candidate; it counts as found when a later scene reads well at the same place (so a
    piece of the solved picture that happens to look like a board is not taken for it).
    Each region is searched once: when it comes back (the board's frame does, every
    opening; so does a notification), its earlier best rectangle is simply read again.
    """
    trace: list[float] = []
    recent: deque[float] = deque(maxlen=int(2 * fps))
    background = prev_frame = prev_thumb = candidate = None
    tried: dict[tuple, Rect | None] = {}
    start = n = 0
    floor = 0.0

    def clear(r: Reading | None) -> bool:
        """A confident reading in which every tile was seen (none hidden, none a near miss)."""
        return good(r) and r.confidence >= HIDDEN

    def look(frame, thumb):
        nonlocal background, candidate
        if candidate is not None:
            reading = _read_board(frame, candidate.rect, templates)
            if clear(reading):
                return reading
        if background is None:
            background = thumb
            return None
        boxes = [
            b
            for b in change_boxes(background_gain(thumb, background), background)
            if plausible(b, frame.shape[1::-1])
        ]
        if not boxes:  # nothing stands out: this is the screensaver
            background = thumb
            return None
        for box in boxes:
            key = tuple(v // 3 for v in box)
            if key in tried:
                reading = _read_board(frame, tried[key], templates) if tried[key] else None
            else:
                reading = locate_board(frame, box, templates, coarse)
                tried[key] = reading.rect if reading is not None else None
            if clear(reading):
                candidate = reading
                return None
        return None

    while True:
        frame = next(frames, None)
        end = frame is None
        thumb = None if end else thumbnail(frame, levels)
        if prev_thumb is not None and not end:
            d = block_change(same_gain(thumb, prev_thumb), prev_thumb)
        else:
            d = 0.0
        if n % 8 == 0 and len(recent) > 4:  # the noise floor moves slowly
            floor = statistics.median(recent)
        cut = end or d > max(min_cut, 4 * floor)
        if cut and prev_frame is not None and (n - 1 - start >= 1 or background is None):
            found = look(prev_frame, prev_thumb)
            if found is not None:
                return found, trace
        if end:
            return candidate, trace  # a single good scene is all this recording offers
        if cut:
            start = n
        elif prev_thumb is not None:
            recent.append(d)
        trace.append(d)
        prev_frame, prev_thumb = frame, thumb
        n += 1


def same_gain(thumb: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """`thumb` scaled to the mean brightness of `ref` (a flicker of the whole screen is no cut)."""
    return cv2.convertScaleAbs(thumb, alpha=(cv2.mean(ref)[0] + 1.0) / (cv2.mean(thumb)[0] + 1.0))


def background_gain(thumb: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """`thumb` scaled so that its darker quarter matches that of the background `ref`.

    The mean will not do here: a board filling the width of a portrait frame covers over half
    of it, and scaling its frame down to the screensaver's mean brightness hid the board's
    own frame and its darker tiles, so that no changed region enclosed the board. The lower
    quartile stays on the background while a board covers less than three quarters.
    """
    k = thumb.size // 4
    low = float(np.partition(thumb.ravel(), k)[k]) + 1.0
    return cv2.convertScaleAbs(thumb, alpha=(float(np.partition(ref.ravel(), k)[k]) + 1.0) / low)


GATE = 24  # side of the per-frame board signature
STILL = 1.0  # largest cell change (grey levels) of a board that did not change at all
SAMPLES = 3  # ... each value the mean of SAMPLES x SAMPLES samples (4 x 4 for 8-pixel blocks)
HOPELESS = 0.7  # best coarse score below which a region is not searched further
HIDDEN = 0.45  # an opening whose weakest tile correlates less than this is flagged
UNSURE = 0.6  # ... 'doubtful' below this (correct rows: 0.85 or more, clean or degraded)
CLEAR = 0.8  # weakest tile of a reading that saw every tile clearly (nothing over the board)
CHANCE = 0.5  # boards score above this; the screensaver (plus touches) below
FIT = 0.5  # median tile correlation above which a disturbed frame still shows the puzzle
SAME_PREVIEW = 0.15  # seconds within which the solved picture seen again is the same preview
PREVIEW = 0.8  # ... above which a frame shows the solved picture (the preview), disturbed


def signature(frame: np.ndarray, rect: Rect) -> np.ndarray:
    """A 24x24 view of the board (green channel, float32): each value the mean of 3x3 samples
    (4x4 at most) spread over its block, so pixel noise and compression artefacts average out."""
    x, y, n, sub = signature_grid(rect)
    view = frame[y : y + GATE * n * sub : sub, x : x + GATE * n * sub : sub]
    view = view[..., 1] if view.ndim == 3 else view
    if n > 1:
        view = cv2.resize(view, (GATE, GATE), interpolation=cv2.INTER_AREA)
    return view.astype(np.float32)


def cell_change(a: np.ndarray, b: np.ndarray) -> float:
    """Largest mean absolute difference of two signatures over the nine cells."""
    return float(cv2.resize(cv2.absdiff(a, b), (3, 3), interpolation=cv2.INTER_AREA).max())


def cell_changes(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """(largest, third smallest) mean absolute difference of two signatures over the nine
    cells: the change, and the noise (a finger or a touch ripple moves fewer than 7 cells).

    A change of overall brightness within +-35 % (a phone's flicker) is taken out first; a
    larger one (the screensaver giving way to a bright puzzle) is a change in itself.
    """
    ratio = (cv2.mean(a)[0] + 1.0) / (cv2.mean(b)[0] + 1.0)
    if 1 / 1.35 < ratio < 1.35:
        b = b * ratio
    cells = cv2.resize(cv2.absdiff(a, b), (3, 3), interpolation=cv2.INTER_AREA).ravel()
    return float(cells.max()), float(np.partition(cells, 2)[2])


@njit(cache=True)
def _signature_into(plane, x: int, y: int, n: int, sub: int, out) -> None:
    """Kernel of `signature`: out[i, j] = mean of the n x n samples (every `sub` pixels of the
    grey or green `plane`) of signature block (i, j) of the board at (x, y). Samples beyond
    the plane's edge repeat its last row or column (a board smaller than 24 pixels)."""
    h, w = plane.shape
    last = (GATE * n - 1) * sub
    inside = x >= 0 and y >= 0 and x + last < w and y + last < h
    cols = np.empty(GATE * n, np.int64)
    for c in range(GATE * n):
        cols[c] = min(max(x + c * sub, 0), w - 1)
    scale = 1.0 / (n * n)
    acc = np.zeros(GATE, np.int32)
    for i in range(GATE):
        acc[:] = 0
        for a in range(n):
            row = min(max(y + (i * n + a) * sub, 0), h - 1)
            if inside:  # the usual case: consecutive samples, no look-up
                col = x
                for j in range(GATE):
                    total = 0
                    for _ in range(n):
                        total += plane[row, col]
                        col += sub
                    acc[j] += total
            else:
                c = 0
                for j in range(GATE):
                    total = 0
                    for _ in range(n):
                        total += plane[row, cols[c]]
                        c += 1
                    acc[j] += total
        for j in range(GATE):
            out[i, j] = acc[j] * scale


@njit(cache=True)
def _changes(a, b) -> tuple[float, float]:
    """Kernel of `cell_changes`: (largest, third smallest) per-cell mean absolute difference."""
    ratio = (a.mean() + 1.0) / (b.mean() + 1.0)
    gain = ratio if 1 / 1.35 < ratio < 1.35 else 1.0
    cells = np.zeros(9)
    side = GATE // 3
    for i in range(GATE):
        for j in range(GATE):
            cells[(i // side) * 3 + j // side] += abs(a[i, j] - b[i, j] * gain)
    cells = np.sort(cells) / (side * side)
    return cells[8], cells[2]


@njit(cache=True)
def _frame_step(plane, x: int, y: int, n: int, sub: int, gain, offset, out, prev, last):
    """One frame's work at a known board: its signature (into `out`, levels mapped to grey by
    `gain` and `offset`), (largest, median) cell change since `prev` and largest cell change
    since `last` (the last frame read)."""
    _signature_into(plane, x, y, n, sub, out)
    if gain != 1.0 or offset != 0.0:
        for i in range(GATE):
            for j in range(GATE):
                out[i, j] = out[i, j] * gain + offset
    d, noise = _changes(out, prev)
    return d, noise, _changes(out, last)[0]


def signature_grid(rect: Rect) -> tuple[int, int, int, int]:
    """(x, y, n, sub) of `signature`'s sampling: n x n samples every `sub` pixels per value.

    Blocks of 4 or 5 pixels are sampled 3 x 3 (every pixel, or every second one), not 4 x 4
    or 5 x 5: up to 2.8x the samples cost a small board's file ~10 us a frame (a tenth of the
    reader's own work there) and averaged no noise away that mattered."""
    x, y, s = (int(round(v)) for v in rect)
    k = max(1, s // GATE)  # pixels per signature value along each axis
    if k < 2 * SAMPLES:
        sub = max(1, (k - 1) // (SAMPLES - 1))
        return x, y, min(SAMPLES, (k - 1) // sub + 1), sub
    sub = k // SAMPLES
    return x, y, k // sub, sub


@dataclass
class _Opening:
    """What has been seen of one opening: its preview, and the frames showing its puzzle."""

    start: int
    answer: int | None = None  # picture of the preview, when it was seen
    frames: list = field(default_factory=list)  # [weight, Reading] of frames of the puzzle
    confident: int = 0  # how many of them were read confidently on their own
    clear: bool = False  # whether one of them saw every tile clearly (confidence >= CLEAR)
    first: int | None = None  # first frame showing the puzzle
    last: tuple | None = None  # (picture, state) of the latest confident reading
    gone: int = 0  # frames since the puzzle was last seen

    def add(self, i: int, reading: Reading) -> list:
        """Count frame i as showing the puzzle; returns its tally [weight, reading]."""
        entry = [1, reading]
        self.frames.append(entry)
        self.first = i if self.first is None else self.first
        return entry


class _Reader:
    """Turns per-frame readings at a known board into one row per opening.

    The puzzle stands still while an opening lasts and what passes over it does not, so an
    opening is read once, when it closes, from the per-pixel median of its frames' board
    images (each weighted by the frames it stands for): a touch indicator or a finger that
    covers a cell in fewer than half of the frames vanishes from the median.
    """

    def __init__(self, good, templates: np.ndarray, fps: float = 30.0):
        self.good = good
        self.templates = templates
        self.glance = max(2, int(round(SAME_PREVIEW * fps)))  # frames of one preview
        self.opening: _Opening | None = None
        self.rows: list[tuple[int, Reading, str]] = []
        self.unread = 0  # openings whose preview was seen but not their puzzle
        self.unseen: list[tuple[int, int]] = []  # (first, last) frames of unread openings
        self.last: tuple[str, list | None] = ("background", None)

    def read(self, i: int, r: Reading) -> str:
        """Classify frame i from its reading; returns its kind."""
        o = self.opening
        good = self.good(r)
        # the solved picture, or (not read confidently) most of it: a touch over the preview;
        # a confident reading of another state is a puzzle, even one with half its tiles home
        if (good and r.state == GAME_GOAL) or (
            not good and fit(r, r.picture, GAME_GOAL) >= PREVIEW
        ):
            if o is not None and o.answer in (None, r.picture) and i - o.start <= self.glance:
                # the preview again, or at last: what came just before was a touch passing
                # over the solved picture, not a puzzle (puzzles show far longer)
                self.opening = _Opening(start=o.start if o.answer else i, answer=r.picture)
            elif o is None or o.frames:
                self.close()
                self.opening = _Opening(start=i, answer=r.picture)
            return self._log("answer", None)
        if self.good(r):
            key = (r.picture, r.state)
            if o is None or (o.gone and o.last is not None and key != o.last):
                self.close()  # a new puzzle after the last one went away
                o = self.opening = _Opening(start=i)
            o.last, o.gone = key, 0
            o.confident += 1
            o.clear = o.clear or r.confidence >= CLEAR
            return self._log("puzzle", o.add(i, r))
        if o is not None:
            if o.last is not None and fit(r, *o.last) >= FIT:  # the puzzle, partly hidden
                o.gone = 0
                return self._log("disturbed", o.add(i, r))
            if o.last is None and o.answer and _best_state(r, o.answer) != GAME_GOAL:
                return self._log("doubtful", o.add(i, r))  # perhaps the puzzle, not clearly
            if r.score >= CHANCE:  # something board-like, hidden: not proof the puzzle left
                return self._log("unclear", None)
            o.gone += 1
            return self._log("gone", None)
        return self._log("background", None)

    def least_change(self, min_cut: float) -> float:
        """The board change since the last frame read that makes the next frame worth reading:
        `min_cut`, or while the current puzzle has been seen only partly hidden (a touch on
        the frame read first), any change beyond a still board's (the touch moving off)."""
        o = self.opening
        return min_cut if o is None or o.clear or not o.frames else min(min_cut, 2 * STILL)

    def repeat(self, i: int) -> None:
        """Frame i looks like the last frame read: count it the same way."""
        kind, entry = self.last
        if entry is not None:
            entry[0] += 1
        elif kind == "gone" and self.opening is not None:
            self.opening.gone += 1

    def _log(self, kind: str, entry) -> str:
        """Remember the last frame's kind (and the tally it added to)."""
        self.last = (kind, entry)
        return kind

    def close(self) -> None:
        """Close the current opening: its puzzle becomes a row, flagged when not confident."""
        o, self.opening = self.opening, None
        if o is None:
            return
        if not o.frames:
            self.unread += o.answer is not None
            return
        pictures = {}
        for weight, r in o.frames:
            pictures[r.picture] = pictures.get(r.picture, 0) + weight * self.good(r)
        picture = max(pictures, key=pictures.get) if any(pictures.values()) else o.answer
        states = {(r.picture, r.state) for _, r in o.frames if self.good(r)}
        if len(states) == 1 and o.confident == len(o.frames):  # every frame agrees: done
            reading = max((r for _, r in o.frames), key=lambda r: r.score)
        else:  # the composite of the clearest views, unless one frame alone reads better
            reading = clearest_reading(o.frames, picture or o.frames[0][1].picture, self.templates)
            alone = [r for _, r in o.frames if self.good(r) and r.picture == reading.picture]
            reading = max([reading, *alone], key=lambda r: r.score)
        if reading.state == GAME_GOAL:
            self.unread += 1
            return
        key = (reading.picture, reading.state)
        seen = any(self.good(r) and (r.picture, r.state) == key for _, r in o.frames)
        if reading.confidence < HIDDEN:
            flag = "hidden"  # some tile was never seen clearly: its cell is a guess
        elif not (self.good(reading) and seen) or reading.confidence < UNSURE:
            flag = "doubtful"  # no frame alone read this arrangement confidently, or some
            # tile only faintly (a touch resting on it: two tiles could be swapped)
        else:
            flag = ""
        self.rows.append((o.first, reading, flag))


OPENING_KINDS = ("answer", "puzzle", "disturbed", "doubtful")  # kinds of frames of an opening
SHOWN = 30.0  # grey-level change from the screensaver, on 5 of 9 cells, of a board on screen


def screen_change(sig: np.ndarray, screen: np.ndarray) -> float:
    """Median of the nine cells' mean absolute change from the screensaver's signature, after
    a change of brightness within a factor of 2 (a phone's flicker, up to +-30 % each way) is
    taken out: a board, brighter by more, still stands out from it.

    Measured on degraded recordings (480x270 and 960x540, 1,373 screensaver frames read under
    touches, flicker, notifications and compression): at most 26 grey levels; boards of the
    five brighter pictures 39 or more. The darkest picture (night sky) changes the board by
    only 5-12 levels: an opening of it that cannot be read at all goes unnoticed."""
    ratio = (cv2.mean(sig)[0] + 1.0) / (cv2.mean(screen)[0] + 1.0)
    ref = screen * np.float32(ratio) if 0.5 < ratio < 2.0 else screen
    cells = cv2.resize(cv2.absdiff(sig, ref), (3, 3), interpolation=cv2.INTER_AREA).ravel()
    return float(np.partition(cells, 4)[4])


class _Unseen:
    """Stretches of frames where something stood at the board that no opening accounts for.

    The screensaver at the board is remembered from the frames read as background; a stretch
    begins at a frame that differs from it in at least 5 of the 9 cells by SHOWN (so not a
    touch or a notification passing over the screensaver) and is counted when it ends on the
    screensaver again, lasted at least `glance` frames and no frame of it was read as part of
    an opening: an opening whose preview and puzzle were both unreadable (covered, say),
    which would otherwise leave no trace at all.
    """

    def __init__(self, glance: int):
        self.glance = glance
        self.screen: np.ndarray | None = None  # the board's signature showing the screensaver
        self.state = "screen"  # or "stretch" (something unread shown) or "busy" (an opening)
        self.start = 0
        self.stretches: list[tuple[int, int]] = []  # (first, last) frame of each

    def see(self, i: int, kind: str, sig: np.ndarray) -> None:
        """Account for frame i (read as `kind`, board signature `sig`)."""
        if kind in OPENING_KINDS:
            self.state = "busy"
            return
        if self.screen is not None and screen_change(sig, self.screen) > SHOWN:
            if self.state == "screen":
                self.state, self.start = "stretch", i
            return
        self.end(i)
        self.screen, self.state = sig.copy(), "screen"

    def end(self, i: int) -> None:
        """The screensaver is back at frame i (or the recording ended before it)."""
        if self.state == "stretch" and i - self.start >= self.glance:
            self.stretches.append((self.start, i - 1))


def clearest_reading(frames: list, picture: int, templates: np.ndarray) -> Reading:
    """Read one board built cell by cell from the frames that show each cell most clearly.

    A cell's clarity in a frame is its best correlation with any tile of `picture`; each cell
    of the composite is the per-pixel median (weighted by the frames each reading stands
    for) of the frames within 0.1 of its clearest view. A touch indicator lowers a cell's
    clarity, so it is left out even when it covers the cell most of the time; noise and
    compression, which vary from frame to frame, are averaged away by the median.
    """
    weights = np.array([w for w, _ in frames])
    boards = np.stack([r.board for _, r in frames])
    clarity = np.stack([r.corr[picture - 1].max(axis=0) for _, r in frames])  # (frames, 9)
    size = math.isqrt(templates.shape[2])
    c, trim = sampling_grid(size, CELL_MARGIN)
    board = np.empty_like(boards[0])
    for cell in range(9):
        keep = clarity[:, cell] >= clarity[:, cell].max() - 0.1
        r, q = divmod(cell, 3)
        block = np.repeat(boards[keep, r * c : (r + 1) * c, q * c : (q + 1) * c], weights[keep], 0)
        board[r * c : (r + 1) * c, q * c : (q + 1) * c] = np.median(block, axis=0)
    return read_image(board, trim, templates, frames[0][1].rect)


def _best_state(r: Reading, picture: int) -> State:
    """The arrangement of `picture`'s tiles that best explains a reading."""
    return arrangement(r.corr[picture - 1])[0]


def read_openings(
    frames,
    rect: Rect,
    templates,
    good,
    min_cut: float,
    fps: float,
    levels: tuple[float, float] = (1.0, 0.0),
):
    """Read the board at `rect` in every frame that changed: (reader, per-frame trace, log).

    Per frame one compiled call takes the board's signature and its change since the previous
    frame and since the last frame read; only frames where the board changed are read. While
    the current puzzle has been seen only with some tile unclear (a touch over the frame read
    first), a smaller change is enough: a touch leaving a tile changes its cell by only 2-4
    grey levels, and the clear frames after it must not go unread (`_Reader.least_change`).
    """
    reader = _Reader(good, templates, fps)
    unseen = _Unseen(reader.glance)
    trace: list[float] = []
    log: list[tuple] = []
    recent: deque[float] = deque(maxlen=int(2 * fps))
    floor = 0.0
    x, y, n, sub = signature_grid(rect)
    gain, offset = levels
    sig = prev = last = None
    settle = False
    i = 0
    for frame in frames:
        plane = frame[:, :, 1] if frame.ndim == 3 else frame
        sig, prev = np.empty((GATE, GATE), np.float32), sig
        d, noise, since = _frame_step(
            plane, x, y, n, sub, gain, offset, sig, sig if prev is None else prev,
            sig if last is None else last,
        )  # fmt: skip
        trace.append(d)
        if i % 8 == 0 and len(recent) > 4:
            floor = statistics.median(recent)
        if settle and since <= max(STILL, 2 * floor):  # no transition: it read the same
            settle = False
        if last is None or settle or since > max(reader.least_change(min_cut), 4 * floor):
            reading = _read_board(frame, rect, templates)
            kind = reader.read(i, reading)
            unseen.see(i, kind, sig)
            log.append((i, kind, reading.picture, reading.state, reading.score, reading.runner_up))
            # a frame that could not be read confidently may be a transition: read the next too
            settle, last = not settle and not good(reading), sig
        else:
            reader.repeat(i)
        recent.append(noise)  # the quiet cells' change: a ripple over most cells is no noise
        i += 1
    reader.close()
    unseen.end(i)
    reader.unseen = unseen.stretches
    return reader, trace, log, i


class Replay:
    """An iterator over frames that keeps what it hands out (up to `limit` bytes), so the
    frames decoded while looking for the board can be read again without decoding them twice.
    """

    def __init__(self, frames, limit: int = KEEP_BYTES):
        self.source, self.limit = frames, limit
        self.frames: list[np.ndarray] = []
        self.complete = True  # every frame handed out so far is kept
        self.size = 0

    def __iter__(self):
        return self

    def __next__(self) -> np.ndarray:
        frame = next(self.source)
        if self.complete:
            self.size += frame.nbytes
            self.complete = self.size <= self.limit
            if self.complete:
                self.frames.append(frame)
            else:
                self.frames = []
        return frame


def frames_of(cap):
    """Every frame a capture still has, in order (quietly when it hands out luma planes)."""
    read = cap.read if cap.get(cv2.CAP_PROP_CONVERT_RGB) else lambda: read_quietly(cap)
    while True:
        ok, frame = read()
        if not ok:
            return
        yield frame


def _pattern(state: State) -> str:
    """`sliding.to_pattern` without its checks (the reader's own states, tiles 0-9): '789456B23'."""
    return "".join("B" if t == 0 else str(t) for t in state)


def extract_states(
    video_path: str | Path,
    pictures,
    *,
    progress: bool = True,
    accept: float = 0.6,
    margin: float = 0.25,
    min_cut: float = 8.0,
) -> pd.DataFrame:
    """One row per opening: frame, time, picture (1-based), state ('789456B23'), flag, ...

    The board is found once (the first stable scene that stands out from the screensaver
    and reads as a board); from then on only the board's region is looked at: a 24x24
    signature per frame, and a full reading (nine cells against every picture's tiles,
    Hungarian assignment) only of frames where the board changed. Each opening, from its
    preview (the solved picture) or from the screensaver, gives one row: the arrangement
    most of its confident frames showed. Frames where something hides part of the board
    (a finger, a touch indicator) are recognised as the same puzzle and skipped.

    `flag` is empty for a confident row; otherwise it says why not: 'hidden' (some tile was
    never seen clearly, e.g. a finger rested on it the whole time: its cell is a guess),
    'doubtful' (no single frame read this arrangement confidently; the row combines the
    clearest view of each cell). Use only rows with an empty flag for statistics.
    `confidence` is the weakest assigned tile's correlation, `score` the mean; x, y, side
    give the board in pixels; `frame` is the first frame showing the puzzle. A reading is
    confident when its mean correlation is at least `accept` and beats every other picture
    by `margin` (true boards score 0.8-1.0 with a lead of 0.5 or more; chance alignments
    reach about 0.55 with a lead below 0.25). A board change counts when it exceeds
    `min_cut` grey levels (brightness flicker taken out) and 4x the recent
    median. `attrs`: trace (per-frame board change), log (every frame read: frame, kind,
    picture, state, score, lead), unread (previews whose puzzle was never seen), unseen
    ((first, last) frames of each stretch where the board showed something that was neither
    the screensaver nor readable: an opening of which nothing could be read; with a warning),
    board_frames (frames decoded to find the board).

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

    def good(r: Reading | None) -> bool:
        return r is not None and r.score >= accept and r.score - r.runner_up >= margin

    cap, first, levels = open_grey(video_path)
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) or None
    bar = tqdm(total=total, disable=not progress, desc="extract", unit="frame", mininterval=0.5)
    kept = Replay(itertools.chain(first, frames_of(cap)))
    try:
        coarse = tile_templates(pictures, COARSE, CELL_MARGIN)
        found, trace = find_board(kept, templates, coarse, good, min_cut, fps, levels)
        board_frames = len(trace) + 1
        rows, log, unread, unseen = [], [], 0, []
        if found is not None:
            if kept.complete:  # the frames seen so far, then the rest of the recording
                frames = itertools.chain(kept.frames, frames_of(cap))
            else:  # too many to keep: decode them again (the same way: same levels)
                cap.release()
                cap, first, levels = open_grey(video_path)
                frames = itertools.chain(first, frames_of(cap))
            kept.frames = []
            reader, trace, log, n = read_openings(
                frames, found.rect, templates, good, min_cut, fps, levels
            )
            rows, unread, unseen = reader.rows, reader.unread, reader.unseen
        else:
            n = len(trace)
        bar.update(n)
    finally:
        bar.close()
        cap.release()
    if n == 0:
        raise PuzzleError(f"{video_path} has no frames that OpenCV can decode")
    table = pd.DataFrame(
        [
            (f, f / fps, r.picture, _pattern(r.state), r.confidence, r.score, flag, *r.rect)
            for f, r, flag in rows
        ],
        columns=COLUMNS,
    )
    if table.empty:
        warnings.warn(
            f"no puzzle found in {video_path} ({n} frames): no scene showed a board whose "
            "every tile read clearly (too small, covered, or not this game's pictures?)",
            stacklevel=2,
        )
    if unread:
        warnings.warn(
            f"{unread} opening(s) in {video_path} showed the solved picture but no readable "
            "puzzle: they have no row",
            stacklevel=2,
        )
    if unseen:
        spans = ", ".join(f"{a / fps:.1f}-{b / fps:.1f} s" for a, b in unseen[:5])
        warnings.warn(
            f"{len(unseen)} opening(s) in {video_path} could not be read at all: something "
            f"stood at the board at {spans}{' ...' if len(unseen) > 5 else ''}, but neither "
            "the solved picture nor a puzzle could be read (covered?): they have no row",
            stacklevel=2,
        )
    log = pd.DataFrame(log, columns=["frame", "kind", "picture", "state", "score", "lead"])
    log["state"] = [_pattern(state) for state in log["state"]]
    log["lead"] = log["score"] - log["lead"]
    table.attrs.update(
        trace=np.asarray(trace, np.float32),
        fps=fps,
        n_frames=n,
        log=log,
        unread=unread,
        unseen=unseen,
        board_frames=board_frames,
    )
    return table
