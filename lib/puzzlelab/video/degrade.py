"""What a phone does to a screen recording: a seeded, composable degradation generator.

A real recording of the game is rarely the clean stream `synthesize_recording` writes. Phones
draw touch indicators (Android's "show taps": a light disc, or a ripple, where the finger is),
change brightness and colour, record at half resolution with heavy compression, drop or
repeat frames when busy, keep a status bar on top and slide notifications over it, record
upright (portrait) and put the game into a frame of another shape (letterboxing).
`degrade_recording` applies any mix of these to a recording and returns the ground truth
moved along with the pixels and frames, so a reader can be scored on the result exactly as
on the clean file.

Each kind has a `strength` in (0, 1]; 1 is the harshest case the lab promises to read:

========== ==================================================================================
portrait   the phone held upright: a frame of the clean one's height by its width (540x960
           for 960x540) with the game's panel filling 70 % + 28 % x strength of the width
touch      discs and ripples of several sizes and colours on about 60 % x strength of the
           frames, anywhere (half of them over the board), still or dragged
colour     per-frame brightness flicker (up to +-30 %), a colour cast and gamma change
scale      downscaling by 1 - 0.5 x strength (0.5x at strength 1)
jpeg       JPEG compression of every frame at quality 95 - 65 x strength (30 at strength 1)
frames     a fraction 0.25 x strength of frames dropped and as many duplicated
statusbar  a status bar with a ticking clock, and notifications sliding over the top
letterbox  the frame padded to another aspect ratio (4:3 at 0.5, portrait 9:16 at 1)
========== ==================================================================================

Degradations compose in a fixed order whatever order they are given in (portrait,
letterbox, statusbar, touch, colour, scale, jpeg; frames acts on the stream), so a list of kinds
describes one recording.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pandas as pd

from .. import checks
from ..errors import InvalidPuzzleError, PuzzleError
from .extract import open_video
from .synth import check_codec, panel_margin, write_video

KINDS: tuple[str, ...] = (
    "portrait", "letterbox", "statusbar", "touch", "colour", "scale", "jpeg", "frames",
)  # fmt: skip
TOUCH_COLOURS = [(255, 255, 255), (200, 200, 200), (255, 200, 120), (120, 220, 255), (40, 40, 40)]


@dataclass(frozen=True)
class Degradation:
    """One kind of damage (see KINDS) at a strength in (0, 1]."""

    kind: str
    strength: float = 1.0

    def __post_init__(self) -> None:
        """Check kind and strength."""
        checks.choice(self.kind, "kind", KINDS)
        strength = checks.number(self.strength, "strength", minimum=0.0, maximum=1.0)
        if strength == 0:
            raise InvalidPuzzleError(f"strength of {self.kind!r} must lie in (0, 1], not 0")

    def __str__(self) -> str:
        return f"{self.kind} {self.strength:g}"


def as_degradations(spec) -> list[Degradation]:
    """Degradations from a Degradation, a kind name, a {kind: strength} dict or a list of these."""
    if isinstance(spec, (Degradation, str)):
        spec = [spec]
    elif isinstance(spec, dict):
        spec = [Degradation(k, v) for k, v in spec.items()]
    if spec is None or not isinstance(spec, (list, tuple)):
        raise InvalidPuzzleError(
            f"degradations must be a kind, a {{kind: strength}} dict or a list, not {spec!r:.60}"
        )
    out = []
    for item in spec:
        if isinstance(item, str):
            item = Degradation(item)
        elif isinstance(item, tuple) and len(item) == 2:
            item = Degradation(*item)
        if not isinstance(item, Degradation):
            raise InvalidPuzzleError(f"not a degradation: {item!r:.60} (use one of {KINDS})")
        out.append(item)
    kinds = [d.kind for d in out]
    if len(set(kinds)) != len(kinds):
        raise InvalidPuzzleError(f"each kind at most once, not {kinds}")
    return sorted(out, key=lambda d: KINDS.index(d.kind))


# ---- geometry: where the clean frame lands -------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Where the clean frame lands: portrait crop, letterbox padding, then scaling."""

    portrait: np.ndarray | None  # 2x3 affine map of clean pixels into the portrait frame
    upright: tuple[int, int]  # (width, height) after the portrait crop (clean size without it)
    padded: tuple[int, int]  # ... after letterboxing: the size touches and status bar see
    pad: tuple[int, int]  # (left, top) padding added by letterboxing
    out: tuple[int, int]  # the degraded file's size, after scaling

    @property
    def zoom(self) -> float:
        """Clean pixels to portrait pixels (1 without portrait)."""
        return 1.0 if self.portrait is None else float(self.portrait[0, 0])

    def to_padded(self, rect) -> tuple[float, float, float]:
        """A clean (x, y, side) in the padded frame's pixels."""
        x, y, side = rect
        z, (ox, oy) = self.zoom, self.pad
        if self.portrait is not None:
            x, y = x * z + self.portrait[0, 2], y * z + self.portrait[1, 2]
        return x + ox, y + oy, side * z

    def to_out(self, rect) -> tuple[float, float, float]:
        """A clean (x, y, side) in the degraded file's pixels."""
        f = self.out[0] / self.padded[0]
        return tuple(v * f for v in self.to_padded(rect))


def layout(size: tuple[int, int], degradations: list[Degradation], board=None) -> Layout:
    """The Layout of `degradations` on a clean frame of `size` whose board is `board`.

    portrait: the phone held upright, a frame of the clean frame's height by its width (540x960
    for 960x540) in which the game's panel fills 70 % (strength 0) to 98 % (strength 1) of the
    width; what lies beyond the clean frame is its screensaver mirrored.
    """
    w, h = size
    strength = {d.kind: d.strength for d in degradations}
    portrait = None
    if "portrait" in strength:
        if board is None:
            raise InvalidPuzzleError("a portrait recording needs the board's place (truth)")
        bx, by, side = board
        panel = side + 2 * panel_margin(int(side))
        w, h = h - h % 2, w - w % 2
        zoom = (0.7 + 0.28 * strength["portrait"]) * w / panel
        cx, cy = bx + side / 2, by + side / 2
        portrait = np.array([[zoom, 0.0, w / 2 - cx * zoom], [0.0, zoom, h / 2 - cy * zoom]])
    upright = (w, h)
    ox = oy = 0
    if "letterbox" in strength:
        s = strength["letterbox"]
        aspect = np.interp(s, [0.0, 0.5, 1.0], [w / h, 4 / 3, 9 / 16])  # width / height
        if aspect < w / h:  # taller: bars above and below
            new_h = 2 * int(round(w / aspect / 2))
            oy = (new_h - h) // 2
            h = new_h
        else:
            new_w = 2 * int(round(h * aspect / 2))
            ox = (new_w - w) // 2
            w = new_w
    factor = 1.0 - 0.5 * strength.get("scale", 0.0)
    out = (max(16, 2 * int(round(w * factor / 2))), max(16, 2 * int(round(h * factor / 2))))
    return Layout(portrait=portrait, upright=upright, padded=(w, h), pad=(ox, oy), out=out)


# ---- the per-frame painters ----------------------------------------------------------------


def _touch_events(n_frames: int, size, board, strength: float, rng) -> list[dict]:
    """Touch events covering about 60 % x strength of the frames."""
    w, h = size
    events, covered, target = [], 0, 0.6 * strength * n_frames
    while covered < target and n_frames:
        length = int(rng.integers(2, 16))
        start = int(rng.integers(0, n_frames))
        if board is not None and rng.random() < 0.5:  # over the puzzle
            bx, by, side = board
            x0, y0 = bx + rng.random() * side, by + rng.random() * side
        else:
            x0, y0 = rng.random() * w, rng.random() * h
        drag = rng.random() < 0.4
        events.append(
            dict(
                start=start,
                end=start + length,
                xy0=(x0, y0),
                xy1=(x0 + rng.normal(0, 0.1 * w), y0 + rng.normal(0, 0.1 * h))
                if drag
                else (x0, y0),
                radius=float(h * rng.uniform(0.025, 0.09)),
                colour=TOUCH_COLOURS[int(rng.integers(len(TOUCH_COLOURS)))],
                alpha=float(rng.uniform(0.35, 0.8)),
                ripple=bool(rng.random() < 0.4),
            )
        )
        covered += length
    return events


def _draw_touches(frame: np.ndarray, t: int, events: list[dict]) -> np.ndarray:
    """Blend the touch indicators active at frame t into the frame."""
    active = [e for e in events if e["start"] <= t < e["end"]]
    if not active:
        return frame
    overlay = frame.copy()
    for e in active:
        u = (t - e["start"]) / max(1, e["end"] - e["start"] - 1)
        x = int(round(e["xy0"][0] + u * (e["xy1"][0] - e["xy0"][0])))
        y = int(round(e["xy0"][1] + u * (e["xy1"][1] - e["xy0"][1])))
        if e["ripple"]:
            r = int(round(e["radius"] * (0.5 + 1.5 * u)))
            cv2.circle(overlay, (x, y), r, e["colour"], max(2, r // 6), cv2.LINE_AA)
        else:
            cv2.circle(overlay, (x, y), int(round(e["radius"])), e["colour"], -1, cv2.LINE_AA)
    alpha = float(np.mean([e["alpha"] for e in active]))
    return cv2.addWeighted(overlay, alpha, frame, 1 - alpha, 0)


def _notifications(n_frames: int, fps: float, strength: float, rng) -> list[tuple[int, int, float]]:
    """(start, end, height fraction) of notifications, about one per 4 s at strength 1."""
    out, t = [], int(rng.integers(0, max(1, int(2 * fps))))
    while t < n_frames:
        length = int(fps * rng.uniform(1.0, 2.5))
        out.append((t, t + length, float(rng.uniform(0.08, 0.08 + 0.1 * strength))))
        t += length + int(fps * rng.exponential(4.0 / strength))
    return out


def _draw_statusbar(frame: np.ndarray, t: int, fps: float, notes, strength: float) -> np.ndarray:
    """A status bar with a clock ticking each second, and any notification sliding in or out."""
    h, w = frame.shape[:2]
    bar = max(6, int(0.045 * h))
    frame[:bar] = (30, 30, 30)
    scale = bar / 30
    clock = f"12:{(t // max(1, int(fps))) % 60:02d}"
    cv2.putText(frame, clock, (bar, bar - bar // 4), cv2.FONT_HERSHEY_SIMPLEX, scale, (230,) * 3)
    for k in range(3):  # signal, wifi, battery
        x = w - bar * (2 + 2 * k)
        cv2.rectangle(frame, (x, bar // 4), (x + bar, bar - bar // 4), (200, 200, 200), -1)
    slide = max(2, int(0.25 * fps))
    for start, end, height in notes:
        if not start <= t < end:
            continue
        card = int(height * h)
        shown = min(t - start + 1, end - t, slide) / slide  # slides down, then back up
        bottom = bar + int(shown * card)
        x0, x1 = int(0.15 * w), int(0.85 * w)
        top = max(0, bottom - card)
        frame[top:bottom, x0:x1] = (245, 245, 245)
        cv2.putText(
            frame,
            "New message",
            (x0 + card // 4, max(top, bottom - card // 2)),
            cv2.FONT_HERSHEY_SIMPLEX,
            card / 60,
            (40, 40, 40),
            max(1, card // 30),
        )
    return frame


def _colour(frame: np.ndarray, t: int, gains: np.ndarray, flicker, gamma: float) -> np.ndarray:
    """Brightness flicker at frame t, a colour cast and a gamma change."""
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma * flicker[t], 0, 255)
    out = np.empty_like(frame)
    for c in range(3):
        out[..., c] = cv2.LUT(frame[..., c], np.clip(lut * gains[c], 0, 255).astype(np.uint8))
    return out


def _jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    """The frame after a JPEG round trip."""
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else frame


# ---- the generator -------------------------------------------------------------------------


def frame_plan(n_frames: int, strength: float, rng) -> np.ndarray:
    """Source frame index of each output frame after dropping and duplicating frames."""
    keep = rng.random(n_frames) >= 0.25 * strength
    keep[0] = True
    repeat = 1 + (rng.random(n_frames) < 0.25 * strength)
    return np.repeat(np.arange(n_frames), np.where(keep, repeat, 0))


def degrade_frames(
    frames, n_frames: int, size, degradations, *, fps: float = 30.0, board=None, rng=None
):
    """Yield (source index, degraded BGR frame) for an iterable of clean BGR frames.

    `n_frames` and `size` (width, height) describe the clean stream; `board` (x, y, side), when
    known, lets half the touches land on the puzzle.
    """
    degradations = as_degradations(degradations)
    rng = checks.rng(rng)
    strength = {d.kind: d.strength for d in degradations}
    where = layout(size, degradations, board)
    padded, (ox, oy) = where.padded, where.pad
    if board is not None:
        board = where.to_padded(board)
    plan = frame_plan(n_frames, strength.get("frames", 0.0), rng)
    events = _touch_events(len(plan), padded, board, strength.get("touch", 0.0), rng)
    notes = _notifications(len(plan), fps, strength.get("statusbar", 1.0), rng)
    s = strength.get("colour", 0.0)
    gains = 1.0 + rng.uniform(-0.15, 0.15, 3) * s
    flicker = 1.0 + 0.3 * s * np.clip(rng.normal(0, 0.5, len(plan)), -1, 1)
    gamma = float(2.0 ** rng.uniform(-0.4 * s, 0.4 * s))
    quality = int(round(95 - 65 * strength.get("jpeg", 0.0)))
    wanted = iter(enumerate(plan))
    t, source = next(wanted, (None, None))
    for index, frame in enumerate(frames):
        while t is not None and source == index:
            out = frame
            if where.portrait is not None:
                out = cv2.warpAffine(
                    out, where.portrait, where.upright, flags=cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REFLECT,
                )  # fmt: skip
            if "letterbox" in strength:
                out = cv2.copyMakeBorder(
                    out, oy, padded[1] - oy - where.upright[1], ox,
                    padded[0] - ox - where.upright[0], cv2.BORDER_CONSTANT, value=(0, 0, 0),
                )  # fmt: skip
            elif where.portrait is None:
                out = out.copy()
            if "statusbar" in strength:
                out = _draw_statusbar(out, t, fps, notes, strength["statusbar"])
            if "touch" in strength:
                out = _draw_touches(out, t, events)
            if "colour" in strength:
                out = _colour(out, t, gains, flicker, gamma)
            if out.shape[1::-1] != where.out:  # scaled (or an odd size made even)
                out = cv2.resize(out, where.out, interpolation=cv2.INTER_AREA)
            if "jpeg" in strength:
                out = _jpeg(out, quality)
            yield int(source), out
            t, source = next(wanted, (None, None))


def remap_truth(truth: pd.DataFrame, sources: np.ndarray, where: Layout) -> pd.DataFrame:
    """The ground truth after frames moved (sources[i] = clean index of output frame i) and
    the board with the pixels (`where`)."""
    out = truth.copy()
    first = np.searchsorted(sources, truth["answer_frame"].to_numpy(), side="left")
    appear = np.searchsorted(sources, truth["frame"].to_numpy(), side="left")
    last = np.searchsorted(sources, truth["end_frame"].to_numpy(), side="right") - 1
    out["answer_frame"], out["frame"], out["end_frame"] = first, appear, last
    out.attrs = dict(truth.attrs)
    out.attrs.update(
        board=where.to_out(truth.attrs["board"]),
        size=tuple(where.out),
        n_frames=len(sources),
    )
    return out


def degrade_recording(
    source: str | Path,
    target: str | Path,
    truth: pd.DataFrame,
    degradations,
    *,
    rng=None,
    codec: str = "mp4v",
    overwrite: bool = False,
) -> pd.DataFrame:
    """Write a degraded copy of a recording; return its ground truth (frames and board moved).

    Parameters
    ----------
    source : str or Path
        A recording of `synthesize_recording` (or `cached_recording`).
    target : str or Path
        The degraded video to write (refused if it exists, unless `overwrite`).
    truth : DataFrame
        The source's ground truth (attrs board, fps, size, n_frames).
    degradations : kind, {kind: strength}, Degradation or a list of them
        What to do (see KINDS); strengths in (0, 1].
    rng : int, Generator or None
        Seed of every random choice (SPEC 7).
    codec : str
        OpenCV FourCC of the output.
    overwrite : bool
        Replace an existing `target`.

    Returns
    -------
    DataFrame
        The ground truth of the degraded recording.

    Raises
    ------
    PuzzleError
        Unknown kinds, strengths outside (0, 1], a truth without its attrs, an unreadable
        source or an unwritable target.
    """
    degradations = as_degradations(degradations)
    rng = checks.rng(rng)
    codec = check_codec(codec)
    needed = {"answer_frame", "frame", "end_frame"}
    if (
        not isinstance(truth, pd.DataFrame)
        or not {"board", "fps", "size"} <= set(truth.attrs)
        or not needed <= set(truth.columns)
    ):
        raise InvalidPuzzleError("truth must be the DataFrame synthesize_recording returned")
    size, fps, board = truth.attrs["size"], truth.attrs["fps"], truth.attrs["board"]
    cap = open_video(source)
    n_frames = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))

    def frames():
        try:
            while True:
                ok, frame = cap.read()
                if not ok:
                    return
                if frame.shape[1::-1] != tuple(size):
                    raise PuzzleError(f"{source} is not the recording `truth` describes")
                yield frame
        finally:
            cap.release()

    where = layout(size, degradations, board)
    stream = degrade_frames(frames(), n_frames, size, degradations, fps=fps, board=board, rng=rng)
    sources: list[int] = []

    def track():
        for source_index, frame in stream:
            sources.append(source_index)
            yield frame

    write_video(Path(target), track(), where.out, fps, codec, overwrite=overwrite)
    return remap_truth(truth, np.asarray(sources), where)


def describe(degradations) -> str:
    """A short label such as 'touch 1 + jpeg 0.5' ('clean' for none)."""
    items = as_degradations(degradations) if degradations else []
    return " + ".join(map(str, items)) or "clean"
