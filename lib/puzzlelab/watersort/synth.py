"""Style-randomised water-sort screenshots with their true boards, to test the reader on
looks it was not designed on.

`synth_board(rng)` draws one board the way some game might: a flat, gradient or photographic
background (with doodles), thick, thin or no tube outlines, round or flat bottoms, curtains,
locks and banners over some tubes, '?' marks in several styles (on grey cells, dark or
light), palettes that include greys, whites, blacks and colours close to the background,
1-3 rows of 3-16 tubes, capacity 3-6 (2 on request: such a board cannot tell capacity 2
from 4 when every run is one unit),
a status bar and an ad banner, 200-3000 pixels tall, saved as JPEG at quality 30-95.
Every board is legible to a player, as a game's must be: a unit is at least MIN_UNIT_PX
tall and a tube MIN_TUBE_PX wide (a small picture of a big board is drawn taller), and no
liquid is within ΔE 20 of the background or the empty glass.
Everything comes from one seeded `rng`, so a failing board is reproduced by its seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from ..checks import rng as make_rng
from ..errors import PuzzleError
from .colors import rgb_to_lab

HIDDEN = "?"


@dataclass(frozen=True)
class SynthBoard:
    """A drawn board: the RGB image, the true tubes (bottom to top, '?' hidden, None covered),
    capacity, tubes per row and the style it was drawn in."""

    image: np.ndarray
    tubes: list[list[str] | None]
    capacity: int
    layout: list[int]
    style: dict = field(default_factory=dict)


# ---- the board ------------------------------------------------------------------------------
def _deal(rng: np.random.Generator, n_tubes: int, capacity: int) -> list[list[str]]:
    """A random start: colours dealt into full tubes, 1-2 empties, a few random pours."""
    n_empty = int(rng.integers(1, 3)) if n_tubes > 3 else 1
    n_colors = max(2, n_tubes - n_empty)
    units = np.repeat(np.arange(n_colors), capacity)
    rng.shuffle(units)
    tubes = [[f"c{u}" for u in units[k * capacity : (k + 1) * capacity]] for k in range(n_colors)]
    tubes += [[] for _ in range(n_tubes - n_colors)]
    for _ in range(int(rng.integers(0, 4))):  # partly filled tubes, as in a game under way
        src = [k for k, t in enumerate(tubes) if t]
        dst = [k for k, t in enumerate(tubes) if len(t) < capacity]
        a, b = int(rng.choice(src)), int(rng.choice(dst))
        if a != b:
            tubes[b].append(tubes[a].pop())
    return tubes


def _palette(rng: np.random.Generator, n: int, avoid: np.ndarray) -> list[tuple[int, int, int]]:
    """`n` colours at least ΔE 22 apart: saturated hues plus greys, white, black and shades
    near the background (never closer than ΔE 20 to it or to the empty glass, rows of `avoid`
    in CIELAB: a player could not tell such a liquid from empty space)."""
    pool = []
    for _ in range(400):
        kind = rng.random()
        if kind < 0.15:
            v = int(rng.integers(15, 245))
            c = (v, v, v + int(rng.integers(-6, 7)))
        else:
            c = tuple(int(v) for v in rng.integers(0, 256, 3))
        pool.append(tuple(int(np.clip(v, 0, 255)) for v in c))
    out: list[tuple[int, int, int]] = []
    labs: list[np.ndarray] = []
    for c in pool:
        lab = rgb_to_lab(np.array([c], dtype=np.uint8))[0]
        if np.linalg.norm(avoid - lab, axis=1).min() < 20:
            continue
        if all(np.linalg.norm(lab - o) >= 22 for o in labs):
            out.append(c)
            labs.append(lab)
        if len(out) == n:
            return out
    raise RuntimeError("palette pool exhausted")  # pragma: no cover - 400 draws always suffice


# ---- drawing --------------------------------------------------------------------------------
def _background(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, str]:
    """Flat, gradient or photographic (blurred blobs) background, with doodles sometimes."""
    kind = str(rng.choice(["flat", "gradient", "photo"]))
    base = rng.integers(0, 256, 3).astype(float)
    if kind == "flat":
        img = np.broadcast_to(base, (h, w, 3)).copy()
    elif kind == "gradient":
        other = rng.integers(0, 256, 3).astype(float)
        t = np.linspace(0, 1, h)[:, None, None]
        img = np.broadcast_to(base * (1 - t) + other * t, (h, w, 3)).copy()
    else:
        small = rng.integers(0, 256, (int(rng.integers(3, 8)), int(rng.integers(2, 6)), 3))
        img = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        img = cv2.GaussianBlur(img, (0, 0), max(1.0, w / 40)).astype(float)
        img = 0.6 * img + 0.4 * base
    if rng.random() < 0.35:  # line doodles
        ink = np.clip(img.mean(axis=(0, 1)) + rng.choice([-60, 60]), 0, 255).astype(int)
        for _ in range(int(rng.integers(10, 60))):
            p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            r = int(rng.integers(3, max(4, w // 25)))
            thick = max(1, w // 400)
            if rng.random() < 0.5:
                cv2.circle(img, p, r, ink.tolist(), thick, cv2.LINE_AA)
            else:
                cv2.line(img, p, (p[0] + r, p[1] + r // 2), ink.tolist(), thick, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8), kind


def _bars(rng: np.random.Generator, img: np.ndarray) -> tuple[int, int]:
    """A status bar on top and (sometimes) an ad banner at the bottom: (top, bottom) margins."""
    h, w = img.shape[:2]
    top = int(h * rng.uniform(0.02, 0.05))
    img[:top] = rng.integers(0, 60) if rng.random() < 0.5 else (img[:top] * 0.7).astype(np.uint8)
    cv2.putText(
        img,
        "12:34",
        (w // 20, int(top * 0.8)),
        cv2.FONT_HERSHEY_SIMPLEX,
        max(0.2, top / 40),
        (255, 255, 255),
        1,
        cv2.LINE_AA,
    )
    bottom = 0
    if rng.random() < 0.5:
        bottom = int(h * rng.uniform(0.06, 0.12))
        img[h - bottom :] = rng.integers(0, 256, 3)
        cv2.putText(
            img,
            "PLAY NOW",
            (w // 10, h - bottom // 3),
            cv2.FONT_HERSHEY_SIMPLEX,
            max(0.3, bottom / 40),
            rng.integers(0, 256, 3).tolist(),
            2,
            cv2.LINE_AA,
        )
    return top, bottom


def _tube_mask(h: int, w: int, round_bottom: bool) -> np.ndarray:
    """Boolean mask (h, w) of a tube's inside: a rectangle, its bottom rounded or not."""
    mask = np.zeros((h, w), np.uint8)
    if round_bottom:
        r = w // 2
        cv2.rectangle(mask, (0, 0), (w - 1, h - r - 1), 1, -1)
        cv2.circle(mask, (w // 2, h - r - 1), r, 1, -1)
    else:
        cv2.rectangle(mask, (0, 0), (w - 1, h - 1), 1, -1)
    return mask.astype(bool)


def _question(img, x, y, w, h, style: str, fg) -> None:
    """A '?' mark in a unit cell (x, y, w, h): plain glyph, glyph in a circle, or bold."""
    scale = max(0.25, min(w, h) / 30)
    thick = max(1, int(scale * (3 if style == "bold" else 2)))
    (tw, th), _ = cv2.getTextSize("?", cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    org = (x + (w - tw) // 2, y + (h + th) // 2)
    if style == "circle":
        cv2.circle(
            img, (x + w // 2, y + h // 2), int(min(w, h) * 0.4), fg, max(1, thick // 2), cv2.LINE_AA
        )
    cv2.putText(img, "?", org, cv2.FONT_HERSHEY_SIMPLEX, scale, fg, thick, cv2.LINE_AA)


def _cover(rng, img, x, y, w, h, kind: str) -> None:
    """Draw a curtain, lock or banner over a tube slot (wider than the tube, tube-high)."""
    pad = max(2, w // 6)
    col = rng.integers(0, 256, 3)
    x0, x1 = max(0, x - pad), min(img.shape[1], x + w + pad)
    if kind == "curtain":
        for k, xx in enumerate(range(x0, x1)):
            shade = 0.75 + 0.25 * np.sin(k / max(1, pad) * 2.5)
            img[y - pad // 2 : y + h, xx] = col * shade
    else:
        img[y - pad // 2 : y + h, x0:x1] = col
        cv2.rectangle(
            img, (x0, y - pad // 2), (x1 - 1, y + h - 1), (col // 2).tolist(), max(1, pad // 3)
        )
    cx, cy = x + w // 2, y + h // 2
    icon = (255 - col).astype(int).tolist()
    if kind == "lock":
        cv2.rectangle(img, (cx - w // 4, cy), (cx + w // 4, cy + w // 3), icon, -1)
        cv2.ellipse(img, (cx, cy), (w // 6, w // 5), 0, 180, 360, icon, max(1, w // 12))
    else:
        cv2.circle(img, (cx, cy), max(2, w // 4), icon, -1, cv2.LINE_AA)


MIN_UNIT_PX = 10  # a unit drawn smaller than this is not legible on a phone
MIN_TUBE_PX = 12  # nor a tube narrower than this


def _legible_height(height: int, layout: list[int], units: float, shape: tuple) -> int:
    """`height`, raised (up to 3000) until a unit is MIN_UNIT_PX tall and a tube MIN_TUBE_PX
    wide with the worst status bar and ad banner; `units` is capacity plus headroom and
    `shape` the (width / height, tube width / pitch, tube height / width) draws."""
    ratio, fill, aspect = shape
    tube = min(ratio * fill / (max(layout) + 0.6), 0.83 * 0.75 / (len(layout) * aspect))
    need = max(MIN_UNIT_PX * units / (aspect * tube), MIN_TUBE_PX / tube)
    return int(min(3000, max(height, np.ceil(need) + 2)))


def _layout(rng: np.random.Generator, n_tubes: int) -> list[int]:
    """Tubes per row: 1-3 rows, at most 8 per row, balanced top-heavy like the games."""
    rows = max(int(np.ceil(n_tubes / 8)), int(rng.integers(1, 4)))
    rows = min(rows, n_tubes // 2) or 1
    base, extra = divmod(n_tubes, rows)
    return [base + (1 if r < extra else 0) for r in range(rows)]


def _hidden_style(rng: np.random.Generator, avoid: np.ndarray) -> tuple[np.ndarray, tuple]:
    """A '?' cell's grey fill (dark or light, ΔE 20 or more from the `avoid` colours in
    CIELAB when one of 50 draws is) and its mark's colour, in contrast."""
    dark = rng.random() < 0.6
    for _ in range(50):
        grey = int(rng.integers(30, 90)) if dark else int(rng.integers(110, 170))
        fill = np.clip(grey + rng.integers(-4, 5, 3), 0, 255)
        lab = rgb_to_lab(fill.astype(np.uint8).reshape(1, 3))[0]
        if np.linalg.norm(avoid - lab, axis=1).min() >= 20:
            break
    return fill, (235, 235, 235) if grey < 100 else (20, 20, 20)


def synth_board(rng: object = None, *, capacity: int | None = None) -> SynthBoard:
    """Draw one random board in a random style (see the module docstring)."""
    rng = make_rng(rng)
    if capacity is not None and (
        isinstance(capacity, bool) or not isinstance(capacity, int) or not 2 <= capacity <= 6
    ):
        raise PuzzleError(
            f"capacity must be a whole number from 2 to 6 (or None), not {capacity!r}"
        )
    capacity = int(capacity or rng.choice([3, 4, 4, 4, 5, 6]))
    n_tubes = int(rng.integers(3, 17))
    tubes = _deal(rng, n_tubes, capacity)
    layout = _layout(rng, n_tubes)
    ratio, fill = rng.uniform(0.45, 0.8), rng.uniform(0.5, 0.72)
    aspect = rng.uniform(2.6, 5.0)  # tube height / width, as games draw them
    headroom = float(rng.uniform(0.25, 1.0))
    height = _legible_height(
        int(np.exp(rng.uniform(np.log(200), np.log(3000)))),
        layout,
        capacity + headroom,
        (ratio, fill, aspect),
    )
    width = int(height * ratio)
    img, bg_kind = _background(rng, height, width)
    top, bottom = _bars(rng, img)
    style = {
        "background": bg_kind,
        "outline": str(rng.choice(["thick", "thin", "none"])),
        "bottom": str(rng.choice(["round", "flat"])),
        "question": str(rng.choice(["plain", "circle", "bold"])),
        "cover": str(rng.choice(["curtain", "lock", "banner"])),
        "headroom": headroom,
        "quality": int(rng.integers(30, 96)),
        "size": (width, height),
    }
    glass = np.clip(img.mean(axis=(0, 1)) + rng.choice([-25, 25]), 0, 255)
    bg_mid = img[height // 2, width // 2].astype(float)
    avoid = np.array([bg_mid, bg_mid * 0.6 + glass * 0.4]).astype(np.uint8)
    n_colors = len({u for t in tubes for u in t})
    colors = dict(
        zip(
            [f"c{k}" for k in range(n_colors)],
            _palette(rng, n_colors, rgb_to_lab(avoid)),
            strict=True,
        )
    )
    # geometry: rows share the play area between the bars
    per_row = max(layout)
    area_h = height - top - bottom
    pitch = width / (per_row + 0.6)
    tw = pitch * fill
    th_max = area_h / len(layout) * 0.75
    tw = int(min(tw, th_max / aspect))
    unit = max(3.0, aspect * tw / (capacity + style["headroom"]))
    th = int(unit * (capacity + style["headroom"]))
    row_gap = (area_h - len(layout) * th) / (len(layout) + 1)
    outline = {"thick": max(2, tw // 10), "thin": 1, "none": 0}[style["outline"]]
    hidden_style = _hidden_style(rng, rgb_to_lab(avoid))
    stroke = (230, 230, 230) if rng.random() < 0.5 else (90, 90, 90)
    tint = style["outline"] == "none" or rng.random() < 0.5
    truth: list[list[str] | None] = []
    k = 0
    any_hidden = rng.random() < 0.35
    any_cover = rng.random() < 0.25 and n_tubes > 4
    for r, n in enumerate(layout):
        y = int(top + row_gap * (r + 1) + th * r)
        x_start = (width - n * pitch) / 2 + (pitch - tw) / 2
        for j in range(n):
            x = int(x_start + j * pitch)
            t = tubes[k]
            k += 1
            mask = _tube_mask(th, tw, style["bottom"] == "round")
            cell = img[y : y + th, x : x + tw]
            if tint:
                cell[mask] = cell[mask] * 0.6 + glass * 0.4
            n_hide = 0
            if any_hidden and len(t) > 1 and rng.random() < 0.5:
                n_hide = int(rng.integers(1, len(t)))
            for u, name in enumerate(t):
                y0 = th - int(round((u + 1) * unit))
                y1 = th - int(round(u * unit))
                sub = mask[y0:y1]
                fill = hidden_style[0] if u < n_hide else np.array(colors[name])
                cell[y0:y1][sub] = fill
                if u < n_hide:
                    _question(cell, 0, y0, tw, y1 - y0, style["question"], hidden_style[1])
            if outline:
                inner = cv2.erode(
                    mask.astype(np.uint8),
                    np.ones((3, 3), np.uint8),
                    iterations=outline,
                    borderType=cv2.BORDER_CONSTANT,
                    borderValue=0,
                ).astype(bool)
                edge = mask & ~inner
                edge[: outline + 1, outline : tw - outline] = False  # open at the top
                cell[edge] = stroke
            covered = any_cover and t and rng.random() < 0.3
            if covered:
                _cover(rng, img, x, y, tw, th, style["cover"])
                truth.append(None)
            else:
                truth.append([HIDDEN] * n_hide + t[n_hide:])
    rgb = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", rgb[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, style["quality"]])
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)[:, :, ::-1].copy()
    return SynthBoard(image, truth, capacity, layout, style)


def score_synth(seeds: range | list[int], progress: bool = False):
    """One row per seed: how the reader did on `synth_board(seed)` and the board's style.

    `outcome` is exact / flagged (wrong or unsure, and the reading says so) / silent (wrong
    with `reading.ok`) / error (a PuzzleError saying what could not be read).
    """
    import pandas as pd
    from tqdm.auto import tqdm

    from .screenshot import outcome

    rows = []
    for seed in tqdm(list(seeds), disable=not progress, desc="synthetic boards"):
        board = synth_board(int(seed))
        got = outcome(board.tubes, board.capacity, board.layout, board.image)
        style = {k: v for k, v in board.style.items() if k != "size"}
        rows.append(
            {
                "seed": int(seed),
                **got,
                **style,
                "height": board.style["size"][1],
                "tubes": len(board.tubes),
                "rows": len(board.layout),
                "capacity": board.capacity,
                "hidden": sum(t.count(HIDDEN) for t in board.tubes if t),
                "covered": sum(t is None for t in board.tubes),
            }
        )
    return pd.DataFrame(rows)


__all__ = ["SynthBoard", "score_synth", "synth_board"]
