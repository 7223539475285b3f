"""Every "over many levels" question of the water-sort study, each answered once, by `run_batch`.

**Random deals** (`census`, `summarise`, `compare_summary`). One case is one write-up deal
(`random_deal`: shuffled units dealt into full tubes, then the empty tubes). Case keys:

- ``colors``, ``capacity``, ``deal`` (the deal's number), ``seed``: the *deal keys*. The deal's
  colored tubes come from `batch.case_rng` over these four only, so deal 17 with one empty
  tube and deal 17 with two have the same colored tubes, and a deal does not change with the
  method or the budget;
- ``empty``: empty tubes added to the deal;
- ``method``: the solver (``dfs`` by default: it decides solvability fastest; ``optimal``
  gives shortest answers as well as proofs; ``greedy`` for the 22-color boards);
- ``max_expanded``: the solver's budget (expansions; None = unlimited);
- ``writeup_max_expanded``: when not None, every deal the solver solved is also solved by the
  write-up's A* with this budget, for the comparison of lengths.

Outcomes are kept apart: ``optimal``/``feasible`` (solvable, with an answer), ``unsolvable``
(every reachable canonical position searched: a proof) and ``limit`` (budget spent:
undecided). `summarise` gives per (colors, empty) the solvable share with its interval from
`puzzlelab.stats` (undecided deals widen it: counted unsolvable for its lower end and solvable
for its upper end), the answer lengths, and the write-up's extra pours.

**The corpus** (`corpus_census`): one case per level of a `data.load_levels` table (keys
``name``, ``text`` - the level's round-tripping text form - and ``published``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from ..batch import case_rng, run_batch
from ..checks import choice, integer
from ..errors import PuzzleError
from ..results import SOLVED
from ..stats import share_interval, tally
from .generate import random_deal
from .level import Level
from .solve import METHODS, solve

CENSUS_METHODS = tuple(m for m in METHODS if m != "writeup")
DEAL_KEYS = ("seed", "colors", "capacity", "deal")  # what a deal's colored tubes depend on


def _budget(value: object, name: str) -> int | None:
    """A census budget: None (unlimited) or a whole number >= 0."""
    return None if value is None else integer(value, name, minimum=0)


def cases(
    colors: Iterable[int] = (4, 6, 8, 10, 12),
    n_deals: int = 10,
    empty: Iterable[int] = (1, 2),
    *,
    capacity: int = 4,
    seed: int = 0,
    method: str = "dfs",
    max_expanded: int | None = 100_000,
    writeup_max_expanded: int | None = None,
) -> list[dict]:
    """One case per (color count, deal number, empty tubes), empty tubes varying fastest.

    Raises `PuzzleError` for counts that are not whole numbers in range or an unknown method.
    """
    if isinstance(colors, str | bytes) or not isinstance(colors, Iterable):
        raise PuzzleError(f"colors must be a list of color counts, not {colors!r:.40}")
    if isinstance(empty, str | bytes) or not isinstance(empty, Iterable):
        raise PuzzleError(f"empty must be a list of empty-tube counts, not {empty!r:.40}")
    colors = [integer(c, "colors", minimum=1, maximum=60) for c in colors]
    empty = [integer(e, "empty", minimum=0, maximum=60) for e in empty]
    n_deals = integer(n_deals, "n_deals", minimum=0, maximum=10**7)
    capacity = integer(capacity, "capacity", minimum=1, maximum=1000)
    seed = integer(seed, "seed", minimum=0)
    method = choice(method, "method", CENSUS_METHODS)
    max_expanded = _budget(max_expanded, "max_expanded")
    writeup_max_expanded = _budget(writeup_max_expanded, "writeup_max_expanded")
    return [
        {
            "colors": c,
            "empty": e,
            "capacity": capacity,
            "deal": d,
            "seed": seed,
            "method": method,
            "max_expanded": max_expanded,
            "writeup_max_expanded": writeup_max_expanded,
        }
        for c in colors
        for d in range(n_deals)
        for e in empty
    ]


def deal_level(case: dict) -> Level:
    """The deal of a case: colored tubes from `case_rng` over the deal keys, then the empties."""
    rng = case_rng({k: case[k] for k in DEAL_KEYS})
    return random_deal(case["colors"], case["empty"], case["capacity"], rng)


def _timed_solve(level: Level, method: str, max_expanded: int | None):
    """(result, CPU seconds) of one solve."""
    t0 = time.process_time()
    result = solve(level, method, max_expanded)
    return result, time.process_time() - t0


def deal_row(case: dict) -> dict:
    """Solve one deal: verdict, length (None without an answer), expansions, CPU seconds;
    and the write-up's verdict and length when the case asks for them."""
    level = deal_level(case)
    result, cpu = _timed_solve(level, case["method"], case["max_expanded"])
    row = {
        "verdict": result.verdict,
        "length": result.length,
        "expanded": result.expanded,
        "cpu_s": cpu,
        "writeup_verdict": None,
        "writeup_length": None,
        "writeup_cpu_s": None,
    }
    wanted = case.get("writeup_max_expanded")
    if wanted is not None and result.solved:
        theirs, their_cpu = _timed_solve(level, "writeup", wanted)
        row["writeup_verdict"], row["writeup_length"] = theirs.verdict, theirs.length
        row["writeup_cpu_s"] = their_cpu
    return row


def census(
    colors: Iterable[int] = (4, 6, 8, 10, 12),
    n_deals: int = 10,
    empty: Iterable[int] = (1, 2),
    *,
    capacity: int = 4,
    seed: int = 0,
    method: str = "dfs",
    max_expanded: int | None = 100_000,
    writeup_max_expanded: int | None = None,
    **batch: Any,
) -> pd.DataFrame:
    """Run the deal census with `puzzlelab.batch.run_batch`: one row per deal.

    Parameters
    ----------
    colors, n_deals, empty, capacity, seed, method, max_expanded, writeup_max_expanded
        The cases (see `cases` and the module's list of case keys).
    **batch
        Passed to `run_batch`: cluster (None: this process; "local": every core; an
        address), chunk_size, progress, resume, overwrite.

    Returns
    -------
    DataFrame
        The case columns, then verdict, length, expanded, cpu_s, writeup_verdict,
        writeup_length, writeup_cpu_s and error.
    """
    todo = cases(
        colors, n_deals, empty, capacity=capacity, seed=seed, method=method,
        max_expanded=max_expanded, writeup_max_expanded=writeup_max_expanded,
    )  # fmt: skip
    return run_batch(deal_row, todo, desc="water sort deals", **batch)


SUMMARY_COLUMNS = [
    "colors", "empty", "deals", "solvable", "unsolvable", "limit", "errors",
    "share_solvable", "share_lo", "share_hi", "share_unsolvable",
    "mean_length", "min_length", "max_length",
    "writeup_solved", "writeup_longer", "writeup_extra", "writeup_max_extra",
]  # fmt: skip


def _extra(table: pd.DataFrame) -> pd.Series:
    """The write-up's pours minus the census solver's, on deals both solved (indexed as table)."""
    if "writeup_length" not in table.columns or table.empty:
        return pd.Series(dtype=float)
    both = table.dropna(subset=["length", "writeup_length"])
    return (both["writeup_length"] - both["length"]).astype(float)


def summarise(table: pd.DataFrame, confidence: float = 0.95, ci: str = "wilson") -> pd.DataFrame:
    """Per (colors, empty): outcomes, the solvable share with its interval, lengths, write-up.

    ``share_lo`` is the lower end of the interval for solvable/deals, ``share_hi`` the upper
    end for (solvable + limit)/deals, so undecided deals widen the interval. Rows with an
    ``error`` are counted in ``errors`` and left out of ``deals``. ``writeup_extra`` is the
    mean of the write-up's pours minus the census solver's (the optimum with ``optimal``)
    over the deals both solved. An empty table gives an empty summary.
    """
    if table.empty or "verdict" not in table.columns:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    counts = {
        "solvable": ("verdict", lambda v: v.isin(SOLVED)),
        "unsolvable": ("verdict", lambda v: v == "unsolvable"),
        "limit": ("verdict", lambda v: v == "limit"),
    }
    keys = ["colors", "empty"]
    out = tally(table, keys, "deals", counts)
    out["share_solvable"], out["share_lo"], out["share_hi"] = share_interval(
        out["solvable"], out["deals"], confidence, ci, undecided=out["limit"]
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        out["share_unsolvable"] = out["unsolvable"] / out["deals"].where(out["deals"] > 0)
    ok = table[table["error"].isna()]
    if "length" not in ok.columns:
        ok = ok.assign(length=np.nan)
    lengths = ok.dropna(subset=["length"]).astype({"length": float}).groupby(keys)["length"]
    out["mean_length"] = lengths.mean()
    out["min_length"] = lengths.min()
    out["max_length"] = lengths.max()
    extra = _extra(ok)
    grouped = extra.groupby([ok.loc[extra.index, k] for k in keys])
    out["writeup_solved"] = grouped.size().reindex(out.index, fill_value=0).astype("int64")
    out["writeup_longer"] = grouped.apply(lambda e: int((e > 0).sum())).reindex(
        out.index, fill_value=0
    )
    out["writeup_extra"] = grouped.mean()
    out["writeup_max_extra"] = grouped.max()
    return out.reset_index()[SUMMARY_COLUMNS]


def compare_summary(table: pd.DataFrame) -> dict:
    """The write-up's A* against the census solver over a whole table: how often longer,
    equal or shorter, and by how many pours (on the deals both solved)."""
    extra = _extra(table[table["error"].isna()] if "error" in table.columns else table)
    asked = table.dropna(subset=["writeup_verdict"]) if "writeup_verdict" in table else table
    return {
        "compared": len(asked),
        "writeup_solved": len(extra),
        "longer": int((extra > 0).sum()),
        "equal": int((extra == 0).sum()),
        "shorter": int((extra < 0).sum()),
        "mean_extra": round(float(extra.mean()), 2) if len(extra) else None,
        "max_extra": int(extra.max()) if len(extra) else None,
    }


# ---- the corpus ---------------------------------------------------------------------------------
def corpus_cases(levels: pd.DataFrame, max_expanded: int | None = None) -> list[dict]:
    """One case per row of a `data.load_levels` table: name, text form, published optimum."""
    max_expanded = _budget(max_expanded, "max_expanded")
    return [
        {
            "name": row.name,
            "text": row.level.to_text(),
            "published": None if pd.isna(row.optimal_pours) else int(row.optimal_pours),
            "max_expanded": max_expanded,
        }
        for row in levels.itertuples()
    ]


def corpus_row(case: dict) -> dict:
    """Solve one corpus level optimally: verdict, length, bound, expansions, CPU, match."""
    level = Level.parse(case["text"])
    result, cpu = _timed_solve(level, "optimal", case["max_expanded"])
    return {
        "source": case["name"].split("-")[0],
        "colors": level.n_colors,
        "tubes": level.n_tubes,
        "capacity": level.capacity,
        "verdict": result.verdict,
        "length": result.length,
        "bound": result.bound,
        "expanded": result.expanded,
        "cpu_s": cpu,
        "matches": result.length == case["published"],
    }


def corpus_census(
    levels: pd.DataFrame, max_expanded: int | None = None, **batch: Any
) -> pd.DataFrame:
    """Every level of a `data.load_levels` table solved optimally (`run_batch`), one row each."""
    todo = corpus_cases(levels, max_expanded)
    return run_batch(corpus_row, todo, desc="water sort corpus", **batch)


def corpus_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per source: levels, most colors, optima matched, longest optimum, most expansions."""
    return table.groupby("source").agg(
        levels=("name", "size"),
        colors=("colors", "max"),
        matched=("matches", "sum"),
        longest=("length", "max"),
        max_expanded=("expanded", "max"),
    )


__all__ = [
    "CENSUS_METHODS",
    "DEAL_KEYS",
    "cases",
    "census",
    "compare_summary",
    "corpus_cases",
    "corpus_census",
    "corpus_row",
    "corpus_summary",
    "deal_level",
    "deal_row",
    "summarise",
]
