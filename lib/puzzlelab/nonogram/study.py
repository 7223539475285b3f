"""Studies over many puzzles: the shared corpora, random grids, and exhaustive small sizes.

* `load_corpus(name)`: the puzzles of ../shared/corpora/nonogram/<name> with their expected
  class (LINE / BRANCH / MULT) from expected.tsv; `corpus_table` solves them into a table.
* `random_puzzle` / `swapped_puzzle`: the hard cases of issue 12 (random pictures, and
  pictures with two rows swapped, which usually have no solution).
* `random_study`: grids drawn cell by cell with a fill density; how many are unique and how
  many line-solvable (with Wilson 95% intervals).
* `exhaustive_counts`: every grid of a small size. A grid is unique exactly when no other
  grid has the same clues, so uniqueness is counted by sorting clue signatures; line
  solvability is checked by running the numba propagation on every grid.
"""

from __future__ import annotations

import csv
import io
import json
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from numba import njit
from tqdm import tqdm

from ..checks import read_text
from ..errors import CacheError, TooLargeError
from ..paths import atomic_write_text, cache_dir, data_dir, shared_dir
from .puzzle import Puzzle, from_grid, line_clue, read_puzzle
from .solver import _propagate, solve
from .writeup import total_arrangements

CORPORA = ("mikix", "jwilk", "webpbn")
HARD_CORPORA = ("webpbn-hard",)

# Published figures for 5x5 (all 2^25 grids): unique, and solvable by line logic alone.
PUBLISHED_5X5 = {"grids": 33_554_432, "unique": 25_309_575, "line_solvable": 24_976_511}


@dataclass(frozen=True)
class CorpusEntry:
    """One corpus puzzle with its expected class."""

    corpus: str
    file: str
    puzzle: Puzzle
    expected: str  # LINE / BRANCH / MULT


def corpus_dir(name: str) -> Path | None:
    """../shared/corpora/nonogram/<name>, or None when the shared data is absent."""
    return shared_dir("corpora", "nonogram", name)


def load_corpus(name: str) -> list[CorpusEntry]:
    """Every puzzle of a shared corpus with the class from its expected.tsv ([] if absent)."""
    base = corpus_dir(name)
    if base is None:
        return []
    with open(base / "expected.tsv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [CorpusEntry(name, r["file"], read_puzzle(base / r["file"]), r["class"]) for r in rows]


def corpus_table(entries: Iterable[CorpusEntry], **solve_args) -> pd.DataFrame:
    """One row per corpus puzzle: size, expected class, ours, effort and CPU seconds.

    Parameters
    ----------
    entries : iterable of CorpusEntry
        From `load_corpus`.
    **solve_args
        Passed to `solve` (e.g. ``max_seconds``, ``method``).

    Returns
    -------
    pandas.DataFrame
        Columns corpus, file, size, cells, expected, ours, agree, verdict, line_known
        (fraction of cells line logic fixes), probes, guesses, expanded, cpu_s and
        writeup_arrangements (what the write-up's method would list).
    """
    rows = []
    for e in entries:
        t0 = time.process_time()
        res = solve(e.puzzle, max_solutions=2, progress=False, **solve_args)
        cpu = time.process_time() - t0
        known = 0.0 if res.propagated is None else float(np.mean(res.propagated != 0))
        rows.append(
            {
                "corpus": e.corpus,
                "file": e.file,
                "size": f"{e.puzzle.width}x{e.puzzle.height}",
                "cells": e.puzzle.width * e.puzzle.height,
                "expected": e.expected,
                "ours": res.kind,
                "agree": res.kind == e.expected,
                "verdict": res.verdict,
                "line_known": known,
                "probes": res.probes,
                "guesses": res.guesses,
                "expanded": res.expanded,
                "cpu_s": cpu,
                "writeup_arrangements": total_arrangements(e.puzzle),
            }
        )
    return pd.DataFrame(rows)


def random_puzzle(size: int, density: float, seed: int) -> Puzzle:
    """The puzzle of a seeded random size x size picture (each cell filled with `density`)."""
    rng = np.random.default_rng(seed)
    grid = random_grid((size, size), density, rng)
    return from_grid(grid, title=f"random {size}x{size} p={density:.2f} seed={seed}")


def swapped_puzzle(size: int, density: float, seed: int, rows: tuple[int, int] = (0, 1)) -> Puzzle:
    """A random picture's puzzle with two row clues swapped (usually no solution)."""
    p = random_puzzle(size, density, seed)
    clues = list(p.rows)
    a, b = rows
    clues[a], clues[b] = clues[b], clues[a]
    return Puzzle(clues, p.cols, title=f"{p.title}, rows {a + 1} and {b + 1} swapped")


def hard_timings(path: str | Path | None = None) -> pd.DataFrame:
    """The committed per-puzzle timings of ours vs CP-SAT (data/nonogram/hard_timings.csv).

    Written by `benchmarks/bench_nonogram.py --hard`, since CP-SAT is a benchmark-only
    dependency; the notebook plots it.
    """
    target = Path(path) if path is not None else data_dir("nonogram", "hard_timings.csv")
    return pd.read_csv(io.StringIO(read_text(target, "timings table")))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def random_grid(shape: tuple[int, int], density: float, rng: np.random.Generator) -> np.ndarray:
    """A random picture: each cell filled with probability `density`."""
    return rng.random(shape) < density


def random_study(
    shape: tuple[int, int],
    densities: Sequence[float],
    n_samples: int,
    seed: int = 0,
    progress: bool = True,
) -> pd.DataFrame:
    """For each density: the fraction of random grids that are unique and line-solvable."""
    rng = np.random.default_rng(seed)
    rows = []
    total = len(densities) * n_samples
    with tqdm(total=total, disable=not progress, desc=f"random {shape[0]}x{shape[1]}") as bar:
        for p in densities:
            unique = line = 0
            for _ in range(n_samples):
                grid = random_grid(shape, p, rng)
                if not grid.any():  # an all-empty grid is trivially unique and line-solvable
                    unique += 1
                    line += 1
                    bar.update()
                    continue
                res = solve(from_grid(grid), max_solutions=2, progress=False)
                unique += res.verdict == "unique"
                line += res.line_solvable
                bar.update()
            lo_u, hi_u = wilson(unique, n_samples)
            lo_l, hi_l = wilson(line, n_samples)
            rows.append(
                {
                    "density": p,
                    "samples": n_samples,
                    "unique": unique / n_samples,
                    "unique_lo": lo_u,
                    "unique_hi": hi_u,
                    "line_solvable": line / n_samples,
                    "line_lo": lo_l,
                    "line_hi": hi_l,
                }
            )
    return pd.DataFrame(rows)


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


CACHE_VERSION = 1


def exhaustive_counts(
    shape: tuple[int, int],
    max_cells: int = 25,
    chunk: int = 1 << 20,
    progress: bool = True,
    cache: bool = True,
) -> ExhaustiveCounts:
    """Count, over all 2^(R*C) grids, the unique and the line-solvable ones (exactly).

    Sizes of 20 cells or more are cached under cache/nonogram/ (5x5 takes minutes).
    """
    R, C = shape
    if R * C > max_cells:
        raise TooLargeError(f"{R}x{C} has 2^{R * C} grids; the limit is 2^{max_cells}")
    path = cache_dir("nonogram") / f"exhaustive_v{CACHE_VERSION}_{R}x{C}.json"
    if cache and R * C >= 20 and path.exists():
        try:
            data = json.loads(path.read_text())
            return ExhaustiveCounts((R, C), *(int(data[k]) for k in _COUNT_KEYS))
        except (ValueError, KeyError, TypeError) as exc:
            raise CacheError(f"{path}: damaged exhaustive-count cache ({exc}); delete it") from exc
    counts = _exhaustive_counts(R, C, chunk, progress)
    if cache and R * C >= 20:
        atomic_write_text(path, json.dumps({k: getattr(counts, k) for k in _COUNT_KEYS}))
    return counts


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
