"""Colour helpers for screenshot reading: CIELAB conversion, per-image clustering, names."""

from __future__ import annotations

import cv2
import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.optimize import linear_sum_assignment

JOIN_DELTA_E = 12.0  # CIELAB distance under which two unit colours are one colour


def rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (L 0-100, a/b about -128..127) of an RGB uint8 image or (N, 3) array."""
    a = np.asarray(rgb, dtype=np.float32) / 255.0
    flat = a.reshape(-1, 1, 3)
    return cv2.cvtColor(flat, cv2.COLOR_RGB2Lab).reshape(a.shape)


def lab_to_rgb(lab: np.ndarray) -> tuple[int, int, int]:
    """One CIELAB colour as an RGB tuple of ints 0-255."""
    px = np.asarray(lab, dtype=np.float32).reshape(1, 1, 3)
    rgb = cv2.cvtColor(px, cv2.COLOR_Lab2RGB).reshape(3)
    return tuple(int(v) for v in np.clip(np.round(rgb * 255), 0, 255))


def _balanced(labels: np.ndarray, n: int | None, size: int | None) -> bool:
    """True when there are `n` clusters of `size` members each (or no requirement)."""
    if n is None or size is None:
        return True
    counts = np.bincount(labels)
    counts = counts[counts > 0]
    return len(counts) == n and bool(np.all(counts == size))


def cluster_colors(
    samples: np.ndarray,
    n_clusters: int | None = None,
    size: int | None = None,
    join: float = JOIN_DELTA_E,
) -> tuple[np.ndarray, np.ndarray]:
    """Cluster CIELAB samples (N, 3) into colours; return (labels 0..k-1, margin per sample).

    Average-linkage clusters closer than `join` (ΔE) are one colour. When the board is fully
    visible (`n_clusters` colours of `size` units expected) and the threshold does not give
    that, the tree is cut at `n_clusters` instead, kept only if it balances. The margin in
    [0, 1] says how much closer a sample is to its own colour than to the next one.
    """
    samples = np.asarray(samples, dtype=float).reshape(-1, 3)
    if len(samples) == 0:
        return np.zeros(0, dtype=int), np.zeros(0)
    if len(samples) == 1:
        return np.zeros(1, dtype=int), np.ones(1)
    tree = linkage(samples, method="average")
    labels = fcluster(tree, join, criterion="distance") - 1
    if not _balanced(labels, n_clusters, size) and n_clusters:
        alt = fcluster(tree, n_clusters, criterion="maxclust") - 1
        if not _balanced(alt, n_clusters, size) and size:
            alt = _join_short(samples, labels, size)
        if not _balanced(alt, n_clusters, size) and size:
            alt = _refill_short(samples, labels, size, 2 * join)
        if _balanced(alt, n_clusters, size):
            labels = alt
    labels = _renumber(labels)
    return labels, _margins(samples, labels)


def _join_short(samples: np.ndarray, labels: np.ndarray, size: int) -> np.ndarray:
    """`labels` with colours seen fewer than `size` times joined in pairs, the nearest first,
    while two such fit in one colour: on a fully visible board a unit whose colour a round
    bottom or a glint shifted past `join` splits its colour in two short ones."""
    labels = labels.copy()
    while True:
        short = [c for c in np.unique(labels) if (labels == c).sum() < size]
        centre = {c: samples[labels == c].mean(axis=0) for c in short}
        pairs = [
            (float(np.linalg.norm(centre[a] - centre[b])), a, b)
            for i, a in enumerate(short)
            for b in short[i + 1 :]
            if (labels == a).sum() + (labels == b).sum() <= size
        ]
        if not pairs:
            return labels
        _, a, b = min(pairs)
        labels[labels == b] = a


def _refill_short(samples: np.ndarray, labels: np.ndarray, size: int, reach: float) -> np.ndarray:
    """`labels` with the samples of colours seen fewer than `size` times dealt out afresh to
    the fewest such colours that can hold them, the largest ones (each filled to `size`, the
    nearest samples first as a whole: an optimal assignment), or `labels` when that choice is
    not clear or a sample would move farther than `reach` ΔE. Units shifted past `join` in
    two tubes can join each other rather than their own colours, which joining whole colours
    in pairs (see `_join_short`) cannot undo."""
    ids, counts = np.unique(labels, return_counts=True)
    seen = {int(c): int(n) for c, n in zip(ids, counts, strict=True) if n < size}
    short = sorted(seen, key=lambda c: -seen[c])
    loose = np.flatnonzero(np.isin(labels, short))
    need = len(loose) // size
    if counts.max() > size or not need or len(loose) % size:
        return labels
    if need < len(short) and seen[short[need - 1]] == seen[short[need]]:  # no clear cores
        return labels
    cores = short[:need]
    centre = np.array([samples[labels == c].mean(axis=0) for c in cores])
    cost = np.linalg.norm(samples[loose][:, None, :] - centre[None, :, :], axis=2)
    rows, slots = linear_sum_assignment(np.repeat(cost, size, axis=1))
    if cost[rows, slots // size].max() > reach:
        return labels
    out = labels.copy()
    out[loose[rows]] = np.array(cores)[slots // size]
    return out


def _renumber(labels: np.ndarray) -> np.ndarray:
    """Labels 0..k-1 in order of first appearance."""
    order: dict[int, int] = {}
    return np.array([order.setdefault(int(v), len(order)) for v in labels], dtype=int)


def _margins(samples: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """(d_other - d_own) / (d_other + d_own) per sample, 1 when there is one colour."""
    k = labels.max() + 1
    centers = np.array([samples[labels == c].mean(axis=0) for c in range(k)])
    d = np.linalg.norm(samples[:, None, :] - centers[None, :, :], axis=2)
    own = d[np.arange(len(samples)), labels]
    if k == 1:
        return np.ones(len(samples))
    d[np.arange(len(samples)), labels] = np.inf
    other = d.min(axis=1)
    return np.clip((other - own) / (other + own + 1e-9), 0, 1)


_HUES = [  # (upper bound of the CIELAB hue angle in degrees, name)
    (20, "pink"),
    (45, "red"),
    (70, "orange"),
    (100, "yellow"),
    (135, "olive"),
    (170, "green"),
    (215, "cyan"),
    (310, "blue"),  # pure blue sits at 306 degrees in CIELAB
    (335, "purple"),
    (350, "magenta"),
    (360, "pink"),
]


def color_name(rgb: tuple[int, int, int]) -> str:
    """A plain English name for an RGB colour (hue, with dark/light for lightness)."""
    L, a, b = rgb_to_lab(np.array(rgb, dtype=np.uint8).reshape(1, 3))[0]
    chroma = float(np.hypot(a, b))
    if chroma < 12:
        return "black" if L < 20 else "white" if L > 90 else "grey"
    hue = float(np.degrees(np.arctan2(b, a))) % 360
    name = next(n for top, n in _HUES if hue < top)
    if L < 40:
        return f"dark-{name}"
    if L > 75 and name not in ("yellow",):
        return f"light-{name}"
    return name


def color_names(rgbs: dict[int, tuple[int, int, int]]) -> dict[int, str]:
    """Unique names for cluster colours: the plain name, numbered when two share it."""
    base = {c: color_name(v) for c, v in rgbs.items()}
    seen: dict[str, int] = {}
    out = {}
    for c, name in base.items():
        seen[name] = seen.get(name, 0) + 1
        out[c] = name if seen[name] == 1 else f"{name}-{seen[name]}"
    return out


__all__ = ["cluster_colors", "color_name", "color_names", "lab_to_rgb", "rgb_to_lab"]
