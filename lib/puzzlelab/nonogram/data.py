"""The study's data: the shared corpora, the benchmark's committed timings, published counts.

* `load_corpus(name)`: the puzzles of ../shared/corpora/nonogram/<name> with the class of its
  expected.tsv (LINE / BRANCH / MULT), one row per puzzle.
* `hard_timings()`: ours vs OR-Tools CP-SAT per hard puzzle, written by
  `benchmarks/bench_nonogram.py --hard --csv` (CP-SAT is a benchmark-only dependency).
* Published constants, each with its source, defined here once.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd

from ..checks import choice, read_text
from ..errors import ParseError
from ..paths import data_dir, shared_dir
from .puzzle import read_puzzle

CORPORA = ("mikix", "jwilk", "webpbn")
HARD_CORPORA = ("webpbn-hard",)
CORPUS_COLUMNS = ("corpus", "file", "expected", "puzzle")

# All 2^25 grids of 5x5: how many are determined by their clues, and how many of those line
# logic alone solves.
PUBLISHED_5X5 = {"grids": 33_554_432, "unique": 25_309_575, "line_solvable": 24_976_511}
PUBLISHED_5X5_SOURCE = {
    "unique": "OEIS A242876",
    "line_solvable": "pixelogic.app, Every 5x5 Nonogram (2025)",
}
# n x n grids determined by their clues, n = 2..5 (OEIS A242876).
KNOWN_UNIQUE = {"2x2": 14, "3x3": 384, "4x4": 52_362, "5x5": 25_309_575}
KNOWN_UNIQUE_SOURCE = "OEIS A242876"


def corpus_dir(name: str) -> Path | None:
    """../shared/corpora/nonogram/<name>, or None when the shared data is absent."""
    return shared_dir("corpora", "nonogram", name)


def load_corpus(name: str) -> pd.DataFrame:
    """One row per puzzle of a shared corpus: corpus, file, expected class, puzzle.

    An empty table (with those columns) when ../shared is absent.
    """
    name = choice(name, "corpus", CORPORA + HARD_CORPORA)
    base = corpus_dir(name)
    if base is None:
        return pd.DataFrame(columns=list(CORPUS_COLUMNS))
    text = read_text(base / "expected.tsv", "corpus index")
    rows = list(csv.DictReader(io.StringIO(text), delimiter="\t"))
    if rows and not {"file", "class"} <= set(rows[0]):
        raise ParseError(f"{base / 'expected.tsv'}: expected the columns 'file' and 'class'")
    table = [
        {"corpus": name, "file": r["file"], "expected": r["class"]}
        | {"puzzle": read_puzzle(base / r["file"])}
        for r in rows
    ]
    return pd.DataFrame(table, columns=list(CORPUS_COLUMNS))


def load_corpora(names: tuple[str, ...] | list[str] = CORPORA) -> pd.DataFrame:
    """`load_corpus` of several corpora as one table."""
    tables = [t for t in (load_corpus(n) for n in names) if len(t)]
    if not tables:
        return pd.DataFrame(columns=list(CORPUS_COLUMNS))
    return pd.concat(tables, ignore_index=True)


def hard_timings(path: str | Path | None = None) -> pd.DataFrame:
    """The committed per-puzzle timings of ours vs CP-SAT (data/nonogram/hard_timings.csv)."""
    target = Path(path) if path is not None else data_dir("nonogram", "hard_timings.csv")
    return pd.read_csv(io.StringIO(read_text(target, "timings table")))
