"""The six pictures of the synthetic game and the tiles cut from them.

The game's art may not be used, so the lab plays with six public-domain photographs that
ship inside scikit-image (read straight from its data folder, no download). Tiles are
labelled like the write-up's: the solved board is `789456B23`, so the tile in the top-left
cell is 7 and the bottom-left cell is the blank.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from ..checks import integer
from ..errors import InvalidPuzzleError, ParseError
from ..game import GAME_GOAL

Picture = np.ndarray  # RGB uint8 array, shape (height, width, 3)
Rect = tuple[float, float, float]  # (x, y, side) of a square board, in pixels

# name -> file in skimage/data (all public domain or CC0; see the README's licence notes)
PICTURE_FILES: dict[str, str] = {
    "astronaut": "astronaut.png",
    "coffee": "coffee.png",
    "chelsea": "chelsea.png",
    "rocket": "rocket.jpg",
    "hubble_deep_field": "hubble_deep_field.jpg",
    "immunohistochemistry": "ihc.png",
}
PICTURE_NAMES: tuple[str, ...] = tuple(PICTURE_FILES)
TILE_LABELS: tuple[int, ...] = tuple(sorted(t for t in GAME_GOAL if t))  # 2..9
GOAL_CELL: dict[int, int] = {t: i for i, t in enumerate(GAME_GOAL)}  # label -> solved cell


def skimage_data_dir() -> Path:
    """The folder holding scikit-image's bundled sample images."""
    import skimage  # the top-level import is lazy and cheap

    return Path(skimage.__file__).parent / "data"


def square_crop(image: np.ndarray) -> np.ndarray:
    """The largest centred square of an image."""
    h, w = image.shape[:2]
    s = min(h, w)
    y, x = (h - s) // 2, (w - s) // 2
    return image[y : y + s, x : x + s]


@lru_cache(maxsize=8)
def _load_pictures(size: int) -> tuple[Picture, ...]:
    """Cached worker of `load_pictures`."""
    out = []
    for name, file in PICTURE_FILES.items():
        path = skimage_data_dir() / file
        bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if bgr is None:
            raise ParseError(f"picture {name!r}: cannot read {path} (is scikit-image installed?)")
        square = square_crop(bgr)
        small = cv2.resize(square, (size, size), interpolation=cv2.INTER_AREA)
        rgb = cv2.cvtColor(small, cv2.COLOR_BGR2RGB)
        rgb.setflags(write=False)
        out.append(rgb)
    return tuple(out)


def load_pictures(size: int = 360) -> list[Picture]:
    """The six game pictures as square RGB arrays of `size` x `size` pixels (9 to 4096)."""
    size = integer(size, "size (pixels a side; pictures need 9 to 4096)", minimum=9, maximum=4096)
    return list(_load_pictures(size))


def validate_pictures(pictures) -> list[Picture]:
    """Check that `pictures` is a non-empty list of RGB images; return them as uint8 arrays."""
    if isinstance(pictures, np.ndarray) and pictures.ndim == 3:
        raise InvalidPuzzleError("pass a list of pictures, not one picture: [picture]")
    if pictures is None or isinstance(pictures, (str, bytes)) or not hasattr(pictures, "__len__"):
        raise InvalidPuzzleError(f"pictures must be a list of RGB images, not {pictures!r:.60}")
    if len(pictures) == 0:
        raise InvalidPuzzleError("no pictures given: pass the solved images, e.g. load_pictures()")
    out = []
    for k, pic in enumerate(pictures, start=1):
        try:
            arr = np.asarray(pic)
        except (TypeError, ValueError):
            raise InvalidPuzzleError(f"picture {k} is not an image array") from None
        if arr.ndim != 3 or arr.shape[2] != 3:
            raise InvalidPuzzleError(
                f"picture {k} has shape {arr.shape}: expected an RGB image (height, width, 3)"
            )
        if min(arr.shape[:2]) < 9:
            raise InvalidPuzzleError(
                f"picture {k} is {arr.shape[1]}x{arr.shape[0]} pixels: it needs at least 9 "
                f"a side to be cut into 3x3 tiles"
            )
        if arr.dtype != np.uint8:
            if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
                raise InvalidPuzzleError(f"picture {k} holds {arr.dtype} values, not numbers")
            if not np.isfinite(arr).all():
                raise InvalidPuzzleError(f"picture {k} has NaN or infinite pixels")
            if np.issubdtype(arr.dtype, np.floating) and arr.max(initial=0) <= 1.0:
                arr = arr * 255.0
            arr = np.clip(arr, 0, 255).astype(np.uint8)
        out.append(arr)
    return out


def cell_box(rect: Rect, cell: int, margin: float = 0.0) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1) of board cell `cell` (row-major), shrunk by `margin` of a cell."""
    x, y, side = rect
    c = side / 3
    r, q = divmod(cell, 3)
    m = margin * c
    return (
        int(round(x + q * c + m)),
        int(round(y + r * c + m)),
        int(round(x + (q + 1) * c - m)),
        int(round(y + (r + 1) * c - m)),
    )


def tile_image(picture: Picture, label: int) -> np.ndarray:
    """The tile `label` (2..9) cut from a solved picture (any size)."""
    h, w = picture.shape[:2]
    r, q = divmod(GOAL_CELL[label], 3)
    return picture[r * h // 3 : (r + 1) * h // 3, q * w // 3 : (q + 1) * w // 3]


def normalize_rows(vectors: np.ndarray) -> np.ndarray:
    """Zero-mean, unit-norm rows; a flat row (no contrast) becomes all zeros, never NaN."""
    v = np.asarray(vectors, np.float32)
    n = v.shape[-1]
    v = v - v.sum(axis=-1, keepdims=True) / np.float32(n)
    norm = np.sqrt(np.einsum("...i,...i->...", v, v))[..., None]
    norm[norm < 1e-3 * np.sqrt(n)] = np.inf  # the TM_CCOEFF_NORMED 0/0 case: zeros
    return v / norm


def sampling_grid(size: int = 16, margin: float = 0.15) -> tuple[int, int]:
    """(cell side, trim on each side) in pixels: cells of `size` px after trimming `margin`."""
    trim = int(round(margin * size / (1 - 2 * margin)))
    return size + 2 * trim, trim


def board_image(image: np.ndarray, rect: Rect, side: int) -> np.ndarray | None:
    """The square `rect` of a BGR (or grey) image in grey at side x side; None if off the image.

    Large boards are first shrunk bilinearly to twice the size, then area-averaged: the same
    result as one area resize at a fraction of the cost.
    """
    h, w = image.shape[:2]
    x, y, s = (float(v) for v in rect)  # round() of a numpy float costs ten times more
    x0, y0 = int(round(x)), int(round(y))
    x1, y1 = int(round(x + s)), int(round(y + s))
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h or min(x1 - x0, y1 - y0) < 9:
        return None
    crop = image[y0:y1, x0:x1]
    if crop.ndim == 3:
        crop = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)  # one channel to resize, not three
    if min(crop.shape[:2]) > 2 * side:
        crop = cv2.resize(crop, (2 * side, 2 * side), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)


def board_cells(board: np.ndarray, size: int, trim: int) -> np.ndarray:
    """The nine trimmed cells (row-major) of a grey board image of side 3 * (size + 2 trim)."""
    c = size + 2 * trim
    cells = board.reshape(3, c, 3, c)[:, trim : c - trim, :, trim : c - trim]
    return normalize_rows(cells.transpose(0, 2, 1, 3).reshape(9, size * size))


def cell_contrast(board: np.ndarray, size: int, trim: int) -> np.ndarray:
    """Standard deviation (grey levels) of each of the nine trimmed cells of a board image."""
    c = size + 2 * trim
    cells = board.reshape(3, c, 3, c)[:, trim : c - trim, :, trim : c - trim]
    return cells.transpose(0, 2, 1, 3).reshape(9, -1).std(axis=1)


def tile_templates(pictures, size: int = 16, margin: float = 0.15) -> np.ndarray:
    """Grey tile templates, (n_pictures, 8, size*size), normalized; tiles in TILE_LABELS order.

    Each solved picture is sampled exactly as a board on screen is (`board_image`,
    `board_cells`), so a perfect screen gives correlations of 1.
    """
    pictures = validate_pictures(pictures)
    cell, trim = sampling_grid(size, margin)
    out = np.zeros((len(pictures), len(TILE_LABELS), size * size), np.float32)
    for p, pic in enumerate(pictures):
        grey = cv2.cvtColor(pic, cv2.COLOR_RGB2GRAY)
        h, w = grey.shape
        side = min(h, w)
        if h != w:  # a non-square picture fills the square board
            grey = cv2.resize(grey, (side, side), interpolation=cv2.INTER_AREA)
        cells = board_cells(board_image(grey, (0, 0, side), 3 * cell), size, trim)
        out[p] = cells[[GOAL_CELL[label] for label in TILE_LABELS]]
    check_distinguishable(out)
    return out


def check_distinguishable(templates: np.ndarray, same: float = 0.98) -> None:
    """Refuse pictures whose tiles cannot be told apart: a flat tile, or two alike pictures."""
    flat = np.flatnonzero(~templates.any(axis=2).all(axis=1))
    if len(flat):
        raise InvalidPuzzleError(
            f"picture {flat[0] + 1} has flat tiles (no contrast): its tiles cannot be recognised"
        )
    for p in range(len(templates)):
        for q in range(p):
            if np.mean(np.sum(templates[p] * templates[q], axis=1)) > same:
                raise InvalidPuzzleError(
                    f"pictures {q + 1} and {p + 1} are the same: a reader cannot tell them apart"
                )
