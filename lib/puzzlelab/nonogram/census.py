"""Every "over many puzzles" question of the nonogram study, each answered once.

All of them run through `puzzlelab.batch.run_batch` (in this process, on every core, or on a
Dask cluster) and draw random numbers only from their case (`batch.case_rng`):

* `census` / `summarise`: random pictures by size and fill density. One case is one picture
  (case keys rows, cols, density, picture, seed; each cell filled with probability
  ``density``, drawn from `case_rng` of exactly those keys, so raising the search budget
  ``max_expanded`` keeps the pictures). Its clues are solved (`solve(..., max_solutions=2)`):
  ``unique`` or ``multiple`` are proofs, ``limit`` means the search budget (DFS nodes or SAT
  conflicts) ran out first; line-solvability is always decided. `summarise` gives the unique
  and line-solvable shares with `puzzlelab.stats` intervals (undecided pictures widen the
  unique share's interval).
* `hard_study`: random square pictures and the same pictures with two row clues swapped
  (usually no solution): verdict, share of cells line logic fixes, effort and CPU (case keys
  size, density, seed, variant; the picture from `case_rng` of size, density and seed).
* `corpus_table`: every puzzle of the shared corpora against its expected class.
* `exhaustive_counts`: every grid of a small size, counted exactly (no sampling): a grid is
  unique exactly when no other grid has the same clues, so uniqueness is counted by sorting
  clue signatures; line-solvability by running the numba propagation on every grid.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numba import njit
from tqdm import tqdm

from ..batch import case_rng, grid, run_batch
from ..cache import cache_file, load_or_build
from ..checks import choice, fraction, integer, number
from ..checks import rng as as_rng
from ..errors import PuzzleError, TooLargeError
from ..stats import share_interval, tally
from .data import CORPORA, HARD_CORPORA, corpus_dir
from .puzzle import Puzzle, from_grid, line_clue, read_puzzle
from .solve import METHODS, _propagate, solve
from .writeup import total_arrangements

PICTURE_KEYS = ("rows", "cols", "density", "picture", "seed")
SUMMARY_COUNTS = ("pictures", "unique", "multiple", "limit", "line_solvable", "errors")


# ----------------------------------------------------------------------- random pictures


def random_grid(shape: tuple[int, int], density: float, rng: object = None) -> np.ndarray:
    """A random picture: each cell filled with probability `density` (`rng`: seed/Generator)."""
    rows = integer(shape[0], "rows", minimum=1, maximum=2000)
    cols = integer(shape[1], "cols", minimum=1, maximum=2000)
    return as_rng(rng).random((rows, cols)) < fraction(density, "density")


def random_puzzle(size: int, density: float, rng: object = None) -> Puzzle:
    """The puzzle of a random size x size picture (`rng`: an int seed or a Generator)."""
    size = integer(size, "size", minimum=1, maximum=2000)
    label = f" rng={rng}" if isinstance(rng, int) else ""
    picture = random_grid((size, size), density, rng)
    return from_grid(picture, title=f"random {size}x{size} p={density:.2f}{label}")


def swapped_puzzle(
    size: int, density: float, rng: object = None, rows: tuple[int, int] = (0, 1)
) -> Puzzle:
    """A random picture's puzzle with two row clues swapped (usually no solution)."""
    p = random_puzzle(size, density, rng)
    a, b = (integer(r, "rows", minimum=0, maximum=p.height - 1) for r in rows)
    clues = list(p.rows)
    clues[a], clues[b] = clues[b], clues[a]
    return Puzzle(clues, p.cols, title=f"{p.title}, rows {a + 1} and {b + 1} swapped")


def _line_known(result) -> float:
    """The share of cells line logic fixed before any probing or search."""
    return 0.0 if result.propagated is None else float(np.mean(result.propagated != 0))


# ------------------------------------------------------------------ the picture census


def cases(
    sizes: Iterable[Sequence[int]] = ((10, 10),),
    densities: Iterable[float] = (0.3, 0.4, 0.5, 0.6, 0.7),
    n_pictures: int = 20,
    *,
    seed: int = 0,
    max_expanded: int | None = 2_000,
) -> list[dict]:
    """One case per (size, density, picture number); raises `PuzzleError` for bad values."""
    shapes = []
    for i, size in enumerate(sizes):
        if not isinstance(size, Sequence) or isinstance(size, str) or len(size) != 2:
            raise PuzzleError(f"sizes[{i}] is {size!r}; give (rows, cols) pairs such as (10, 10)")
        shapes.append(tuple(integer(s, f"sizes[{i}]", minimum=1) for s in size))
    densities = [number(p, "density", minimum=0.0, maximum=1.0) for p in densities]
    n_pictures = integer(n_pictures, "n_pictures", minimum=0)
    seed = integer(seed, "seed", minimum=0)
    if max_expanded is not None:
        max_expanded = integer(max_expanded, "max_expanded", minimum=0)
    pictures = grid(
        density=densities, picture=range(n_pictures), seed=[seed], max_expanded=[max_expanded]
    )
    return [{"rows": r, "cols": c, **case} for r, c in shapes for case in pictures]


def picture(case: dict) -> np.ndarray:
    """The random picture of a case (a boolean grid), from `case_rng` of its picture keys."""
    rng = case_rng({k: case[k] for k in PICTURE_KEYS})
    return rng.random((case["rows"], case["cols"])) < case["density"]


def picture_row(case: dict) -> dict:
    """Solve one random picture: filled cells, verdict, line-solvability and search effort."""
    grid_ = picture(case)
    result = solve(
        from_grid(grid_), max_solutions=2, max_expanded=case["max_expanded"], progress=False
    )
    return {
        "filled": int(grid_.sum()),
        "verdict": result.verdict,
        "line_solvable": bool(result.line_solvable),
        "expanded": int(result.expanded),
    }


def census(
    sizes: Iterable[Sequence[int]] = ((10, 10),),
    densities: Iterable[float] = (0.3, 0.4, 0.5, 0.6, 0.7),
    n_pictures: int = 20,
    *,
    seed: int = 0,
    max_expanded: int | None = 2_000,
    **batch: Any,
) -> pd.DataFrame:
    """Run the picture census with `puzzlelab.batch.run_batch`: one row per picture.

    Parameters
    ----------
    sizes, densities, n_pictures, seed, max_expanded
        The cases (see `cases`); `seed` is a case key choosing another set of pictures.
    **batch
        Passed to `run_batch`: cluster (None: this process; "local": every core; an
        address), chunk_size, progress, resume, overwrite.

    Returns
    -------
    DataFrame
        The case columns, then filled, verdict, line_solvable, expanded (DFS nodes or SAT
        conflicts) and error.
    """
    todo = cases(sizes, densities, n_pictures, seed=seed, max_expanded=max_expanded)
    return run_batch(picture_row, todo, desc="random pictures", **batch)


def summarise(table: pd.DataFrame, confidence: float = 0.95, ci: str = "wilson") -> pd.DataFrame:
    """Per (rows, cols, density): unique and line-solvable shares with their intervals.

    ``unique_hi`` counts undecided (``limit``) pictures as unique; rows with an ``error``
    are counted in ``errors`` and left out of ``pictures``. An empty census gives an empty
    table with the same columns.
    """
    keys = ["rows", "cols", "density"]
    columns = keys + list(SUMMARY_COUNTS)
    shares = ["share_unique", "unique_lo", "unique_hi", "share_line", "line_lo", "line_hi"]
    if not isinstance(table, pd.DataFrame):
        raise PuzzleError(f"summarise needs a census table, got {type(table).__name__}")
    if table.empty:
        return pd.DataFrame(columns=columns + shares)
    verdicts = {v: ("verdict", lambda s, v=v: s == v) for v in ("unique", "multiple", "limit")}
    counts = {**verdicts, "line_solvable": ("line_solvable", lambda s: s.astype(bool))}
    out = tally(table, keys, "pictures", counts)
    n = out["pictures"]
    unique = share_interval(out["unique"], n, confidence, ci, undecided=out["limit"])
    out["share_unique"], out["unique_lo"], out["unique_hi"] = unique
    out["share_line"], out["line_lo"], out["line_hi"] = share_interval(
        out["line_solvable"], n, confidence, ci
    )
    return out.reset_index()


# -------------------------------------------------------------------------- hard puzzles


def hard_row(case: dict) -> dict:
    """Solve one random picture (or its row-swapped variant): verdict, line share, effort."""
    size = case["size"]
    rng = case_rng({k: case[k] for k in ("size", "density", "seed")})
    if case["variant"] == "picture":
        p = random_puzzle(size, case["density"], rng)
    else:
        p = swapped_puzzle(size, case["density"], rng, rows=(1, size // 2))
    t0 = time.process_time()
    res = solve(p, max_seconds=case["max_seconds"], progress=False)
    return {
        "verdict": res.verdict,
        "line_known": _line_known(res),
        "probes": res.probes,
        "expanded": res.expanded,
        "cpu_s": time.process_time() - t0,
    }


def hard_study(
    sizes: Sequence[int],
    densities: Sequence[float],
    seeds: Sequence[int],
    *,
    max_seconds: float | None = 120,
    **batch: Any,
) -> pd.DataFrame:
    """Random pictures and their row-swapped variants: verdict, line logic share, effort, CPU.

    One row per (size, density, seed, variant) with columns verdict, line_known (fraction
    of cells line logic fixes), probes, expanded (SAT conflicts or DFS nodes) and cpu_s.
    """
    sizes = [integer(s, "size", minimum=2, maximum=2000) for s in sizes]
    densities = [fraction(d, "density") for d in densities]
    seeds = [integer(s, "seed", minimum=0) for s in seeds]
    todo = grid(
        size=sizes,
        density=densities,
        seed=seeds,
        variant=["picture", "swapped"],
        max_seconds=[max_seconds],
    )
    batch.setdefault("progress", False)
    return run_batch(hard_row, todo, desc="hard pictures", **batch)


# ------------------------------------------------------------------------------ corpora


def corpus_row(case: dict) -> dict:
    """Solve one corpus puzzle: size, our class, effort, CPU and what the write-up would list."""
    base = corpus_dir(case["corpus"])
    if base is None:
        raise PuzzleError("../shared/corpora/nonogram is absent")
    p = read_puzzle(base / case["file"])
    t0 = time.process_time()
    res = solve(p, max_solutions=2, method=case["method"], progress=False)
    cpu = time.process_time() - t0
    return {
        "size": f"{p.width}x{p.height}",
        "cells": p.width * p.height,
        "ours": res.kind,
        "agree": res.kind == case["expected"],
        "verdict": res.verdict,
        "line_known": _line_known(res),
        "probes": res.probes,
        "guesses": res.guesses,
        "expanded": res.expanded,
        "cpu_s": cpu,
        "writeup_arrangements": total_arrangements(p),
    }


def corpus_table(entries: pd.DataFrame, method: str = "auto", **batch: Any) -> pd.DataFrame:
    """One row per corpus puzzle (`data.load_corpus` rows): ours against the expected class.

    Returns the case columns corpus, file, expected, method, then size, cells, ours, agree,
    verdict, line_known (fraction of cells line logic fixes), probes, guesses, expanded,
    cpu_s, writeup_arrangements (what the write-up's method would list) and error.
    """
    method = choice(method, "method", METHODS)
    if not isinstance(entries, pd.DataFrame) or not {"corpus", "file"} <= set(entries.columns):
        raise PuzzleError("corpus_table needs the table of data.load_corpus")
    bad = set(entries["corpus"]) - set(CORPORA + HARD_CORPORA)
    if bad:
        raise PuzzleError(f"unknown corpus {sorted(bad)[0]!r}")
    todo = [
        {"corpus": c, "file": f, "expected": e, "method": method}
        for c, f, e in zip(entries["corpus"], entries["file"], entries["expected"], strict=True)
    ]
    batch.setdefault("progress", False)
    return run_batch(corpus_row, todo, desc="corpus puzzles", **batch)


# --------------------------------------------------------------------- exhaustive counts


def _clue_table(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """For every n-bit line: its clue id, and per id the clue values (padded) and length."""
    clues: dict[tuple[int, ...], int] = {}
    ids = np.empty(1 << n, dtype=np.int64)
    for mask in range(1 << n):
        clue = line_clue([(mask >> i) & 1 for i in range(n)])
        ids[mask] = clues.setdefault(clue, len(clues))
    kmax = (n + 1) // 2
    values = np.zeros((len(clues), max(kmax, 1)), dtype=np.int64)
    lengths = np.zeros(len(clues), dtype=np.int64)
    for clue, i in clues.items():
        values[i, : len(clue)] = clue
        lengths[i] = len(clue)
    return ids, values, lengths, len(clues)


@njit(cache=True)
def _signatures(R, C, rid, cid, nr, nc, lo, hi, out):
    """Clue signature (mixed-radix clue ids of rows then columns) of grids lo..hi-1."""
    rmask = (1 << C) - 1
    for g in range(lo, hi):
        sig = 0
        for r in range(R):
            sig = sig * nr + rid[(g >> (r * C)) & rmask]
        for c in range(C):
            bits = 0
            for r in range(R):
                bits |= ((g >> (r * C + c)) & 1) << r
            sig = sig * nc + cid[bits]
        out[g - lo] = sig


@njit(cache=True)
def _count_line_solvable(R, C, rid, rval, rlen, cid, cval, clen, lo, hi) -> int:
    """How many grids lo..hi-1 are solved by propagation alone."""
    rmask = (1 << C) - 1
    k = max(rval.shape[1], cval.shape[1])
    rcl = np.zeros(R * k, dtype=np.int64)
    ccl = np.zeros(C * k, dtype=np.int64)
    roff = np.zeros(R + 1, dtype=np.int64)
    coff = np.zeros(C + 1, dtype=np.int64)
    n = max(R, C) + 1
    fw = np.zeros((n, k + 1), dtype=np.uint8)
    bw = np.zeros((n, k + 1), dtype=np.uint8)
    grid = np.zeros((R, C), dtype=np.int8)
    dirty = np.zeros(R + C, dtype=np.bool_)
    stats = np.zeros(2, dtype=np.int64)
    count = 0
    for g in range(lo, hi):
        pos = 0
        for r in range(R):
            i = rid[(g >> (r * C)) & rmask]
            for t in range(rlen[i]):
                rcl[pos] = rval[i, t]
                pos += 1
            roff[r + 1] = pos
        pos = 0
        for c in range(C):
            bits = 0
            for r in range(R):
                bits |= ((g >> (r * C + c)) & 1) << r
            i = cid[bits]
            for t in range(clen[i]):
                ccl[pos] = cval[i, t]
                pos += 1
            coff[c + 1] = pos
        grid[:, :] = 0
        dirty[:] = True
        if _propagate(grid, rcl, roff, ccl, coff, dirty, fw, bw, stats):
            solved = True
            for r in range(R):
                for c in range(C):
                    if grid[r, c] == 0:
                        solved = False
            if solved:
                count += 1
    return count


@dataclass(frozen=True)
class ExhaustiveCounts:
    """Counts over every grid of one size."""

    shape: tuple[int, int]
    grids: int
    unique: int
    line_solvable: int
    distinct_clues: int


CACHE_VERSION = 2  # 2: self-verifying puzzlelab.cache files (1 was bare JSON)


def exhaustive_counts(
    shape: tuple[int, int],
    max_cells: int = 25,
    chunk: int = 1 << 20,
    progress: bool = True,
    cache: bool = True,
) -> ExhaustiveCounts:
    """Count, over all 2^(R*C) grids, the unique and the line-solvable ones (exactly).

    Sizes of 20 cells or more are cached under cache/nonogram/ (5x5 takes minutes) in a
    self-verifying file (`puzzlelab.cache`): a damaged file is rebuilt, never trusted.
    """
    R = integer(shape[0], "rows", minimum=1)
    C = integer(shape[1], "columns", minimum=1)
    if R * C > max_cells:
        raise TooLargeError(f"{R}x{C} has 2^{R * C} grids; the limit is 2^{max_cells}")
    if not (cache and R * C >= 20):
        return _exhaustive_counts(R, C, chunk, progress)
    path = cache_file("nonogram", f"exhaustive_v{CACHE_VERSION}_{R}x{C}.bin")

    def build() -> tuple[bytes, dict]:
        counts = _exhaustive_counts(R, C, chunk, progress)
        return json.dumps({k: getattr(counts, k) for k in _COUNT_KEYS}).encode(), {}

    _, payload = load_or_build(path, "nonogram-exhaustive", CACHE_VERSION, {"shape": [R, C]}, build)
    data = json.loads(payload)
    return ExhaustiveCounts((R, C), *(int(data[k]) for k in _COUNT_KEYS))


_COUNT_KEYS = ("grids", "unique", "line_solvable", "distinct_clues")


def _exhaustive_counts(R: int, C: int, chunk: int, progress: bool) -> ExhaustiveCounts:
    """The exhaustive count itself (no cache)."""
    total = 1 << (R * C)
    rid, rval, rlen, nr = _clue_table(C)
    cid, cval, clen, nc = _clue_table(R)
    if R * math.log2(nr) + C * math.log2(nc) >= 63:
        raise TooLargeError(f"{R}x{C}: clue signatures do not fit in 64 bits")
    sigs = np.empty(total, dtype=np.int64)
    line = 0
    with tqdm(total=total, disable=not progress, desc=f"all {R}x{C} grids", unit="grid") as bar:
        for lo in range(0, total, chunk):
            hi = min(total, lo + chunk)
            _signatures(R, C, rid, cid, nr, nc, lo, hi, sigs[lo:hi])
            line += _count_line_solvable(R, C, rid, rval, rlen, cid, cval, clen, lo, hi)
            bar.update(hi - lo)
    sigs.sort()
    starts = np.flatnonzero(np.r_[True, sigs[1:] != sigs[:-1]])
    counts = np.diff(np.r_[starts, total])
    return ExhaustiveCounts((R, C), total, int(np.sum(counts == 1)), line, len(starts))


def exhaustive_counts_reference(shape: tuple[int, int]) -> ExhaustiveCounts:
    """The same counts by calling `solve` on every grid (slow; for tiny sizes in tests)."""
    R, C = shape
    total = 1 << (R * C)
    seen: dict = {}
    line = 0
    for g in range(total):
        grid = np.array([(g >> i) & 1 for i in range(R * C)], dtype=bool).reshape(R, C)
        key = (tuple(line_clue(r) for r in grid), tuple(line_clue(c) for c in grid.T))
        seen[key] = seen.get(key, 0) + 1
        if grid.any():
            line += solve(from_grid(grid), progress=False).line_solvable
        else:
            line += 1
    unique = sum(1 for v in seen.values() if v == 1)
    return ExhaustiveCounts(shape, total, unique, line, len(seen))


def exhaustive_table(sizes: Sequence[tuple[int, int]], progress: bool = False) -> pd.DataFrame:
    """`exhaustive_counts` for several sizes as one table (size, grids, unique, ...)."""
    rows = []
    for shape in sizes:
        c = exhaustive_counts(tuple(shape), progress=progress)
        rows.append({"size": f"{shape[0]}x{shape[1]}", **{k: getattr(c, k) for k in _COUNT_KEYS}})
    return pd.DataFrame(rows)
