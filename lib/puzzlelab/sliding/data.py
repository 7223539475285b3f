"""Published sliding-puzzle benchmark sets as DataFrames (read from ../shared/reference)."""

from __future__ import annotations

import pandas as pd

from ..errors import ParseError
from ..paths import shared_dir

KORF100_COLUMNS = ["id", "tiles", "optimal_length", "manhattan_h0"]
KORF24_COLUMNS = [
    "id",
    "tiles",
    "optimal_length",
    "expansions_korf_felner_2002",
    "expansions_doebbelin_2013_max_of",
]


def _read(name: str, columns: list[str], cells: int) -> pd.DataFrame:
    """One reference table with a `state` column of tuples (the `tiles` text parsed)."""
    path = shared_dir("reference", "sliding", name)
    if path is None or not path.exists():
        raise FileNotFoundError(f"../shared/reference/sliding/{name} is absent")
    df = pd.read_csv(path, sep="\t")
    if list(df.columns[: len(columns)]) != columns:
        raise ParseError(f"{path}: expected columns {', '.join(columns)}")
    df["state"] = [tuple(int(t) for t in s.split()) for s in df["tiles"]]
    bad = [i for i, s in zip(df["id"], df["state"], strict=True) if sorted(s) != list(range(cells))]
    if bad:
        raise ParseError(f"{path}: instances {bad} are not permutations of 0..{cells - 1}")
    return df.drop(columns="tiles")


def korf100() -> pd.DataFrame:
    """Korf's 100 random 15-puzzles (Korf 1985): id, state, optimal_length, manhattan_h0.

    Goal 0 1 ... 15 (blank top-left, tile k in cell k).
    """
    return _read("korf100.tsv", KORF100_COLUMNS, 16)


def korf24() -> pd.DataFrame:
    """Korf & Felner's 50 random 24-puzzles (2002): id, state, optimal_length and expansions.

    `expansions_korf_felner_2002`: IDA* with 6-6-6-6 databases and their reflection;
    `expansions_doebbelin_2013_max_of`: the max of 8-8-8, 9-8-7 and 9-9-6 databases.
    Goal 0 1 ... 24 (blank top-left, tile k in cell k).
    """
    return _read("korf24.tsv", KORF24_COLUMNS, 25)
