"""Synthetic screen recordings of the slide-puzzle game, with their ground truth.

The model follows the write-up's description of the game: a dark, slowly drifting
screensaver; on each opening a panel appears with the solved picture alone for a few
frames, then the shuffled 3x3 puzzle (8 tiles with thin borders, one flat blank cell) for
about half a second, then the panel closes. Shuffles are drawn from a `PatternPool`, so the
statistics study can test whether it recovers the pool from what the video shows.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pandas as pd
from tqdm import tqdm

from .. import cache, checks
from ..errors import CacheError, InvalidPuzzleError, PuzzleError
from ..game import PatternPool, make_pool, sample_openings
from ..paths import atomic_path
from ..sliding import State, parse_board
from .pictures import GOAL_CELL, Picture, Rect, cell_box, load_pictures, validate_pictures

SYNTH_VERSION = 2  # 2: ground truth in a self-verifying cache file
MAX_OPENINGS = 100_000
PANEL_BGR = (92, 88, 84)  # the game window's frame
BLANK_BGR = (58, 54, 50)  # the empty cell
BORDER_BGR = (24, 24, 24)  # thin lines around each tile
CODEC_SUFFIX = {"mp4v": ".mp4", "MJPG": ".avi", "XVID": ".avi"}

# seconds: pause before an opening, solved picture alone, shuffled puzzle on screen
GAP_SECONDS = (0.2, 0.4)
ANSWER_SECONDS = 0.1
PUZZLE_SECONDS = (0.33, 0.53)


def board_rect(size: tuple[int, int], scale: float = 1.0) -> Rect:
    """Where the synthetic game draws its board: (x, y, side), centred, side = H/2 * scale."""
    w, h = check_size(size)
    scale = checks.number(scale, "scale", minimum=0.0, open_interval=True, maximum=1e3)
    side = 3 * int(round(h * 0.5 * scale / 3))
    if side < 9 or side + 2 * panel_margin(side) > min(w, h):
        raise InvalidPuzzleError(
            f"a board scaled by {scale} does not fit a {w}x{h} frame: use a scale in (0, 1.7]"
        )
    return ((w - side) // 2, (h - side) // 2, side)


def check_codec(codec: object) -> str:
    """An OpenCV FourCC: four ASCII characters."""
    if not isinstance(codec, str) or len(codec) != 4 or not codec.isascii():
        raise InvalidPuzzleError(f"codec must be a FourCC such as 'mp4v' or 'MJPG', not {codec!r}")
    return codec


def check_size(size: object) -> tuple[int, int]:
    """A frame size (width, height) in whole pixels, 16..8192 each."""
    if isinstance(size, (str, bytes)) or not hasattr(size, "__len__") or len(size) != 2:
        raise InvalidPuzzleError(f"size must be (width, height) in pixels, not {size!r}")
    return tuple(
        checks.integer(v, f"size[{i}]", minimum=16, maximum=8192) for i, v in enumerate(size)
    )


def panel_margin(side: int) -> int:
    """Width of the game window's frame around the board."""
    return max(3, side // 12)


def screensaver(size: tuple[int, int], n_frames: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A dark smooth canvas and per-frame (x, y) offsets: crop it to get a slow drift."""
    w, h = size
    rng = np.random.default_rng(seed)
    pad = 64
    small = rng.random((max(2, (h + 2 * pad) // 48), max(2, (w + 2 * pad) // 48), 3))
    canvas = cv2.resize(small.astype(np.float32), (w + 2 * pad, h + 2 * pad))
    canvas = cv2.GaussianBlur(canvas, (0, 0), sigmaX=12)
    canvas = (8 + 36 * (canvas - canvas.min()) / max(1e-6, np.ptp(canvas))).astype(np.uint8)
    t = np.arange(n_frames)
    period = max(n_frames, 2 * 30 * 20)
    xs = (pad + (pad - 1) * np.sin(2 * np.pi * t / period)).astype(int)
    ys = (pad + (pad - 1) * np.sin(2 * np.pi * t / (period * 1.37) + 1.0)).astype(int)
    return canvas, np.stack([xs, ys], axis=1)


def render_board(picture_bgr: np.ndarray, state: State | None, side: int) -> np.ndarray:
    """The panel's content: the solved picture (state None) or the shuffled tiles with borders."""
    full = cv2.resize(picture_bgr, (side, side), interpolation=cv2.INTER_AREA)
    if state is None:
        return full
    board = np.empty_like(full)
    rect = (0, 0, side)
    line = max(1, side // 120)
    for cell, tile in enumerate(state):
        x0, y0, x1, y1 = cell_box(rect, cell)
        if tile == 0:
            board[y0:y1, x0:x1] = BLANK_BGR
            continue
        sx0, sy0, sx1, sy1 = cell_box(rect, GOAL_CELL[tile])
        board[y0:y1, x0:x1] = full[sy0:sy1, sx0:sx1]
        cv2.rectangle(board, (x0, y0), (x1 - 1, y1 - 1), BORDER_BGR, line)
    return board


def _timeline(n_openings: int, fps: float, rng: np.random.Generator) -> list[tuple[int, int, int]]:
    """Per opening: (gap frames, answer frames, puzzle frames)."""
    out = []
    for _ in range(n_openings):
        gap = max(3, round(rng.uniform(*GAP_SECONDS) * fps))
        answer = max(2, round(ANSWER_SECONDS * fps))
        puzzle = max(4, round(rng.uniform(*PUZZLE_SECONDS) * fps))
        out.append((gap, answer, puzzle))
    return out


def check_target(path: str | Path, overwrite: bool) -> Path:
    """A file path that may be written: not a folder, and not an existing file unless asked."""
    if isinstance(path, bytes) or not isinstance(path, (str, Path)) or not str(path):
        raise InvalidPuzzleError(f"path must be a file name, not {path!r:.60}")
    path = Path(path)
    if path.is_dir():
        raise PuzzleError(f"{path} is a folder: give a file name such as {path / 'game.mp4'}")
    if path.exists() and not overwrite:
        raise PuzzleError(f"{path} exists: pass overwrite=True to replace it, or another name")
    return path


def write_video(
    path: Path, frames, size: tuple[int, int], fps: float, codec: str, *, overwrite: bool = False
) -> Path:
    """Write BGR frames of `size` to `path` atomically; PuzzleError when that is impossible."""
    path = check_target(path, overwrite)
    suffix = path.suffix or CODEC_SUFFIX.get(codec, ".avi")
    try:
        with atomic_path(path, suffix=suffix) as tmp:
            writer = cv2.VideoWriter(str(tmp), cv2.VideoWriter_fourcc(*codec), float(fps), size)
            if not writer.isOpened():
                raise PuzzleError(
                    f"OpenCV cannot write codec {codec!r} into a {suffix} file here: "
                    f"try codec='mp4v' with .mp4 or 'MJPG' with .avi"
                )
            try:
                for frame in frames:
                    if frame.shape[1::-1] != tuple(size):  # VideoWriter drops these silently
                        raise PuzzleError(f"frame of {frame.shape[1::-1]} in a {size} video")
                    writer.write(frame)
            finally:
                writer.release()
    except OSError as exc:  # read-only folder, a folder in the way, disk full
        raise PuzzleError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return path


def seed_of(rng: object) -> int:
    """An int seed from a SPEC 7 `rng`: an int is used as it is, a Generator or None draws one."""
    if rng is None or isinstance(rng, (np.random.Generator, np.random.SeedSequence)):
        return int(checks.rng(rng).integers(2**32))
    return checks.integer(rng, "rng", minimum=0)


def synthesize_recording(
    path: str | Path,
    pictures: list[Picture],
    n_openings: int,
    *,
    pattern_pool: PatternPool,
    fps: float = 30,
    size: tuple[int, int] = (1280, 720),
    rng=0,
    noise: float = 0.0,
    scale: float = 1.0,
    brightness: float = 0.0,
    codec: str = "mp4v",
    overwrite: bool = False,
    progress: bool = False,
) -> pd.DataFrame:
    """Film `n_openings` openings of the game into `path`; return the ground truth.

    Columns: opening, answer_frame (solved picture appears), frame (shuffled puzzle appears),
    end_frame (its last frame), picture (1-based), state, pattern. `noise` is the standard
    deviation of Gaussian pixel noise in grey levels, `brightness` a relative change (+0.2 =
    20 % brighter), `scale` resizes the board. The file is written atomically; an existing
    file is only replaced with `overwrite=True`. For what phones do to recordings (touches,
    compression, notifications, ...) see `degrade_recording`.

    Parameters
    ----------
    path : str or Path
        The video file to write (suffix .mp4 for mp4v, .avi for MJPG).
    pictures : list of RGB uint8 arrays
        The solved pictures (`load_pictures()`).
    n_openings : int
        Openings to film (0 .. 100,000).
    pattern_pool : PatternPool
        Shuffles to draw from (`game.make_pool()`).
    fps : float
        Frames per second, 1..240.
    size : (int, int)
        Frame width and height in pixels, 16..8192.
    rng : int, Generator or None
        Seed of shuffles, pictures, timing, screensaver and noise (SPEC 7; an int gives the
        same film every time).
    noise, scale, brightness, codec, progress
        As above; `codec` is an OpenCV FourCC.
    overwrite : bool
        Replace an existing file at `path`.

    Returns
    -------
    DataFrame
        The ground truth, with attrs board, fps, size, n_frames.

    Raises
    ------
    PuzzleError
        Bad arguments, an existing file (without `overwrite`), a folder or a read-only
        place at `path`, or a codec OpenCV cannot write here.
    """
    pictures = validate_pictures(pictures)
    n_openings = checks.integer(n_openings, "n_openings", minimum=0, maximum=MAX_OPENINGS)
    fps = checks.number(fps, "fps", minimum=1.0, maximum=240.0)
    seed = seed_of(rng)
    noise = checks.number(noise, "noise (grey levels)", minimum=0.0, maximum=255.0)
    brightness = checks.number(brightness, "brightness", minimum=-1.0, maximum=10.0)
    codec = check_codec(codec)
    if not isinstance(pattern_pool, PatternPool):
        raise InvalidPuzzleError("pattern_pool must be a game.PatternPool (e.g. game.make_pool())")
    w, h = check_size(size)
    x, y, side = board_rect(size, scale)
    path = check_target(path, overwrite)
    m = panel_margin(side)
    rng = np.random.default_rng(seed)
    truth = sample_openings(pattern_pool, n_openings, n_pictures=len(pictures), rng=seed)
    timeline = _timeline(n_openings, fps, rng)
    lead_in, lead_out = max(3, round(0.5 * fps)), max(3, round(0.3 * fps))
    n_frames = lead_in + lead_out + sum(sum(t) for t in timeline)
    canvas, offsets = screensaver((w, h), n_frames, seed)
    bgr_pictures = [cv2.cvtColor(p, cv2.COLOR_RGB2BGR) for p in pictures]
    rows = []

    def frames():
        """Every frame of the film, in order (ground-truth rows logged on the way)."""
        frame_no = 0

        def emit(panel: np.ndarray | None, count: int):
            nonlocal frame_no
            for _ in range(count):
                ox, oy = offsets[frame_no]
                frame = canvas[oy : oy + h, ox : ox + w].copy()
                if panel is not None:
                    frame[y - m : y + side + m, x - m : x + side + m] = PANEL_BGR
                    frame[y : y + side, x : x + side] = panel
                yield _effects(frame, noise, brightness, rng)
                frame_no += 1

        yield from emit(None, lead_in)
        for (gap, answer, puzzle), row in zip(timeline, truth.itertuples(), strict=True):
            pic = bgr_pictures[row.picture - 1]
            yield from emit(None, gap)
            answer_frame = frame_no
            yield from emit(render_board(pic, None, side), answer)
            first = frame_no
            yield from emit(render_board(pic, row.state, side), puzzle)
            rows.append((row.opening, answer_frame, first, frame_no - 1))
        yield from emit(None, lead_out)

    stream = tqdm(frames(), total=n_frames, disable=not progress, desc="synthesize", unit="frame")
    write_video(path, stream, (w, h), fps, codec, overwrite=overwrite)
    frames_ = pd.DataFrame(rows, columns=["opening", "answer_frame", "frame", "end_frame"])
    out = frames_.merge(truth, on="opening") if n_openings else _empty_truth()
    out.attrs.update(board=(x, y, side), fps=float(fps), size=(w, h), n_frames=n_frames)
    return out


def _empty_truth() -> pd.DataFrame:
    """A ground-truth table without rows."""
    cols = ["opening", "answer_frame", "frame", "end_frame", "picture", "state", "pattern"]
    return pd.DataFrame({c: [] for c in cols})


def _effects(frame: np.ndarray, noise: float, brightness: float, rng) -> np.ndarray:
    """Apply brightness change and Gaussian noise to one BGR frame."""
    if not noise and not brightness:
        return frame
    out = frame.astype(np.float32)
    if brightness:
        out *= 1.0 + brightness
    if noise:
        out += rng.normal(0.0, noise, size=out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def cached_recording(
    n_openings: int,
    *,
    size: tuple[int, int] = (1280, 720),
    rng=0,
    codec: str = "mp4v",
    picture_size: int = 360,
    pool: PatternPool | None = None,
    progress: bool = False,
    **effects,
) -> tuple[Path, pd.DataFrame]:
    """A recording of the default game (six pictures, `make_pool()`), cached under cache/video.

    The ground truth is kept in a self-verifying cache file (`puzzlelab.cache`) that also
    records the video's size and SHA-256; both are checked on every call, and anything that
    fails (damaged truth, truncated or replaced video) is rebuilt, never trusted.

    Parameters
    ----------
    n_openings, size, codec
        As for `synthesize_recording`.
    rng : int, Generator or None
        Seed of the film (SPEC 7); a Generator or None draws an int seed, which names the
        cache entry.
    picture_size : int
        Side in pixels of the pictures filmed.
    pool : PatternPool, optional
        The shuffle pool (default `make_pool()`).
    progress : bool
        Show a progress bar while filming.
    **effects
        `noise`, `scale`, `brightness` or `fps`, passed on to `synthesize_recording`.

    Returns
    -------
    (Path, DataFrame)
        The video file and its ground truth.

    Raises
    ------
    PuzzleError
        Bad arguments (checked before anything is filmed).
    """
    unknown = set(effects) - {"noise", "scale", "brightness", "fps"}
    if unknown:
        raise InvalidPuzzleError(
            f"unknown effects {sorted(unknown)}: use noise, scale, brightness, fps"
        )
    pool = make_pool() if pool is None else pool
    if not isinstance(pool, PatternPool):
        raise InvalidPuzzleError("pool must be a game.PatternPool (e.g. game.make_pool())")
    n_openings = checks.integer(n_openings, "n_openings", minimum=0, maximum=MAX_OPENINGS)
    size = check_size(size)
    codec = check_codec(codec)
    seed = seed_of(rng)
    picture_size = checks.integer(picture_size, "picture_size", minimum=9, maximum=4096)
    effects = {k: checks.number(v, k) for k, v in effects.items()}
    key = dict(
        n=n_openings,
        size=list(size),
        seed=seed,
        codec=codec,
        pic=picture_size,
        pool=[list(map(int, s)) for s in pool.states],
        w=np.round(pool.weights, 12).tolist(),
        **effects,
    )
    digest = hashlib.sha1(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]
    stem = f"game_v{SYNTH_VERSION}_{n_openings}x{size[0]}x{size[1]}_{digest}"
    truth_file = cache.cache_file("video", stem + ".truth")
    folder = truth_file.parent if truth_file is not None else Path(tempfile.mkdtemp())
    video = folder / (stem + CODEC_SUFFIX.get(codec, ".avi"))
    if truth_file is not None and truth_file.exists() and video.exists():
        try:
            return video, _read_truth(truth_file, video, key)
        except CacheError as exc:
            cache.warn_once(f"{exc}; filming the recording again")
    truth = synthesize_recording(
        video,
        load_pictures(picture_size),
        n_openings,
        pattern_pool=pool,
        size=size,
        rng=seed,
        codec=codec,
        overwrite=True,  # a stale or damaged cache entry
        progress=progress,
        **effects,
    )
    rows = truth.drop(columns="state").to_dict(orient="records")
    info = {k: list(v) if isinstance(v, tuple) else v for k, v in truth.attrs.items()}
    payload = json.dumps({"attrs": info, "rows": rows}, default=int).encode("utf-8")
    size_, sha = _file_digest(video)
    cache.write(truth_file, TRUTH_KIND, SYNTH_VERSION, key, payload, {"video": [size_, sha]})
    return video, truth


TRUTH_KIND = "video-truth"


def _file_digest(path: Path) -> tuple[int, str]:
    """(size, SHA-256 hex) of a file, read in 1 MB blocks."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


def _read_truth(truth_file: Path, video: Path, key: dict) -> pd.DataFrame:
    """The cached ground truth, after checking it and the video it describes; else CacheError."""
    meta, payload = cache.read(truth_file, TRUTH_KIND, SYNTH_VERSION, key)
    try:
        recorded = list(meta["video"])
        info = json.loads(payload.decode("utf-8"))
        truth = pd.DataFrame(info["rows"])
        attrs = dict(info["attrs"])
        truth["state"] = [parse_board(p) for p in truth["pattern"]] if len(truth) else []
    except (KeyError, TypeError, ValueError) as exc:
        raise CacheError(f"{truth_file}: damaged ground truth ({exc})") from exc
    try:
        actual = list(_file_digest(video))
    except OSError as exc:
        raise CacheError(f"cannot read cached video {video}: {exc}") from exc
    if actual != recorded:
        raise CacheError(f"cached video {video} does not match its ground truth (size or SHA-256)")
    truth.attrs.update(attrs)
    truth.attrs["board"] = tuple(truth.attrs["board"])
    truth.attrs["size"] = tuple(truth.attrs["size"])
    return truth
