"""Reference data of the sliding study: loaders returning DataFrames, published constants.

The files live in ``../shared/reference/sliding`` (beside the clone; never copied into the
project): Korf's 100 15-puzzles (`korf100`), Korf & Felner's 50 24-puzzles (`korf24`) and
the published distance distributions (`distributions`). Each loader raises
`FileNotFoundError` when the file is absent (notebooks ask `paths.shared_or_skip` first,
tests `conftest.require_shared`) and `ParseError` for a file not in the documented form.

Every published number the study compares with is defined here once, with its source.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..errors import ParseError
from ..paths import shared_dir
from .board import Shape, State

# -------------------------------------------------------------------- published constants

# The game's goal 789456B23 is `puzzlelab.game.GAME_GOAL`; its published figures:
GAME_STATES = 181_440  # reachable 3x3 boards, 9!/2 (the slide-puzzle write-up; OEIS A089473)
GAME_GODS_NUMBER = 31  # the hardest 3x3 board, corner blank (write-up; OEIS A089473, A151944)
GAME_MEAN = 21.97  # mean minimum moves of a random 3x3 board, corner blank (write-up; A089473)
GAME_HARDEST_EXAMPLE = "9B6358247"  # the hardest pattern the write-up saw in the game (27 moves)


def korf_goal(rows: int, cols: int) -> State:
    """The goal with the blank first: 0 1 2 ... (Korf's convention on any shape)."""
    return tuple(range(rows * cols))


KORF_SHAPE: Shape = (4, 4)
KORF_GOAL: State = korf_goal(4, 4)
"""Korf's 15-puzzle goal: blank top-left, tile k in cell k (Korf 1985)."""

KORF24_SHAPE: Shape = (5, 5)
KORF24_GOAL: State = korf_goal(5, 5)
"""Korf & Felner's 24-puzzle goal (2002), the same convention on 5x5."""

MEAN_15 = 52.59
"""Mean optimal length of a uniformly random 15-puzzle: complete BFS (Korf & Schultze 2005)."""

PUBLISHED_MEAN = {(4, 4): MEAN_15, (3, 3): GAME_MEAN}
"""Mean optimal length of a random board by shape (corner blank, as Korf's goal)."""


# ----------------------------------------------------------------------------- loaders


def _reference(name: str) -> Path:
    """A file of ../shared/reference/sliding (FileNotFoundError when absent)."""
    path = shared_dir("reference", "sliding", name)
    if path is None:
        raise FileNotFoundError(f"../shared/reference/sliding/{name} is absent")
    return path


def _instances(name: str, columns: list[str], n_tiles: int, easiest: int | None) -> pd.DataFrame:
    """A tab-separated instance file with a `tiles` column, read as a DataFrame of tuples."""
    path = _reference(name)
    df = pd.read_csv(path, sep="\t")
    if list(df.columns[: len(columns)]) != columns:
        raise ParseError(f"{path}: expected columns {', '.join(columns)}")
    df["state"] = [tuple(int(t) for t in s.split()) for s in df["tiles"]]
    if any(len(s) != n_tiles for s in df["state"]):
        raise ParseError(f"{path}: every instance needs {n_tiles} tiles")
    df = df.drop(columns="tiles")
    if easiest is not None:
        df = df.sort_values(["optimal_length", "id"]).head(easiest)
    return df.reset_index(drop=True)


def korf100(easiest: int | None = None) -> pd.DataFrame:
    """Korf's 100 15-puzzles (goal `KORF_GOAL`), optionally the n easiest.

    Columns: id, optimal_length, manhattan_h0, state (tuple). "Easiest" sorts by optimal
    length, then by id.
    """
    columns = ["id", "tiles", "optimal_length", "manhattan_h0"]
    return _instances("korf100.tsv", columns, 16, easiest)


def korf24(easiest: int | None = None) -> pd.DataFrame:
    """Korf & Felner's 50 24-puzzles (goal `KORF24_GOAL`), optionally the n easiest.

    Columns: id, optimal_length, expansions_korf_felner_2002,
    expansions_doebbelin_2013_max_of, state (tuple).
    """
    columns = ["id", "tiles", "optimal_length"]
    return _instances("korf24.tsv", columns, 25, easiest)


def distributions() -> pd.DataFrame:
    """The published distance distributions, one row per board and goal (OEIS).

    Index: the key ('3x3_corner', '2x5', ...). Columns: rows, cols, oeis, partial, counts
    (list: counts[d] states at distance d), max_depth, total_states, mean.
    """
    path = _reference("distributions.json")
    try:
        entries = json.loads(path.read_text())["distributions"]
        rows = {
            key: {name: e.get(name) for name in ("rows", "cols", "oeis", "partial", "counts",
                                                 "max_depth", "total_states", "mean")}
            for key, e in entries.items()
        }  # fmt: skip
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ParseError(f"{path}: not the documented distributions file ({exc})") from exc
    return pd.DataFrame.from_dict(rows, orient="index")
