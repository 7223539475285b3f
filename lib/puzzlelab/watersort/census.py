"""Census of random deals: how often is a deal solvable with one empty tube, and with two?

One case is one write-up deal (`random_deal`: shuffled units dealt into full tubes, then the
empty tubes). The deal's tubes come from ``(seed, colors, capacity, deal)`` only, so deal 17
with one empty tube and deal 17 with two empty tubes have the same colored tubes, and a
deal does not change with the budget. Each deal is searched by depth-first graph search
(`solve(level, "dfs")`) by default: it finds *a* solution fast, and exhausting the canonical
positions is a proof that none exists. The three outcomes are kept apart:

- ``feasible`` (or ``optimal`` with ``method="optimal"``): solvable, with an answer;
- ``unsolvable``: every reachable position was searched: a proof;
- ``limit``: the budget (``max_expanded`` expansions) ran out: undecided.

`summarise` turns the table into shares with confidence intervals; undecided deals widen the
interval of the solvable share (counted as unsolvable for its lower end, solvable for its
upper end) instead of being dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from ..batch import run_batch
from ..checks import choice, integer
from ..stats import share_interval, tally
from .generate import random_deal
from .solvers import solve

CENSUS_METHODS = ("dfs", "optimal", "greedy")
SOLVED_VERDICTS = ("optimal", "feasible")


def cases(
    colors: Iterable[int] = (4, 6, 8, 10, 12),
    n_deals: int = 10,
    empty: Iterable[int] = (1, 2),
    *,
    capacity: int = 4,
    seed: int = 0,
    method: str = "dfs",
    max_expanded: int | None = 100_000,
) -> list[dict]:
    """One case per (color count, empty tubes, deal number), deals varying slowest per count.

    Raises `PuzzleError` for counts that are not whole numbers in range or an unknown method.
    """
    colors = [integer(c, "colors", minimum=1) for c in colors]
    empty = [integer(e, "empty", minimum=0) for e in empty]
    n_deals = integer(n_deals, "n_deals", minimum=0)
    capacity = integer(capacity, "capacity", minimum=1)
    seed = integer(seed, "seed", minimum=0)
    method = choice(method, "method", CENSUS_METHODS)
    if max_expanded is not None:
        max_expanded = integer(max_expanded, "max_expanded", minimum=0)
    return [
        {
            "colors": c,
            "empty": e,
            "capacity": capacity,
            "deal": d,
            "seed": seed,
            "method": method,
            "max_expanded": max_expanded,
        }
        for c in colors
        for d in range(n_deals)
        for e in empty
    ]


def deal_level(case: dict):
    """The deal of a case (its tubes depend on seed, colors, capacity and deal only)."""
    rng = np.random.default_rng([case["seed"], case["colors"], case["capacity"], case["deal"]])
    return random_deal(case["colors"], case["empty"], case["capacity"], rng)


def _solve(level, method: str, max_expanded: int | None):
    """The solver's result for one deal (one place that knows the solver's signature)."""
    return solve(level, method, max_expanded=max_expanded)


def deal_row(case: dict) -> dict:
    """Solve one deal: verdict, answer length (None without one) and expansions."""
    result = _solve(deal_level(case), case["method"], case["max_expanded"])
    length = result.length if result.verdict in SOLVED_VERDICTS else None
    return {"verdict": result.verdict, "length": length, "expanded": result.expanded}


def census(
    colors: Iterable[int] = (4, 6, 8, 10, 12),
    n_deals: int = 10,
    empty: Iterable[int] = (1, 2),
    *,
    seed: int = 0,
    method: str = "dfs",
    max_expanded: int | None = 100_000,
    **batch: Any,
) -> pd.DataFrame:
    """Run the deal census with `puzzlelab.batch.run_batch`: one row per deal.

    Parameters
    ----------
    colors, n_deals, empty, seed, method, max_expanded
        The cases (see `cases`).
    **batch
        Passed to `run_batch`: cluster (None: this process; "local": every core; an
        address), chunk_size, progress, resume, overwrite.

    Returns
    -------
    DataFrame
        The case columns, then verdict, length, expanded and error.
    """
    todo = cases(colors, n_deals, empty, seed=seed, method=method, max_expanded=max_expanded)
    return run_batch(deal_row, todo, desc="water sort deals", **batch)


def summarise(table: pd.DataFrame, confidence: float = 0.95, ci: str = "wilson") -> pd.DataFrame:
    """Per (colors, empty): counts of each outcome and the solvable share with its interval.

    ``share_lo`` is the lower end of the interval for solvable/deals, ``share_hi`` the upper
    end for (solvable + limit)/deals, so undecided deals widen the interval. Rows with an
    ``error`` are counted in ``errors`` and left out of ``deals``.
    """
    counts = {
        "solvable": ("verdict", lambda v: v.isin(SOLVED_VERDICTS)),
        "unsolvable": ("verdict", lambda v: v == "unsolvable"),
        "limit": ("verdict", lambda v: v == "limit"),
    }
    out = tally(table, ["colors", "empty"], "deals", counts)
    out["share_solvable"], out["share_lo"], out["share_hi"] = share_interval(
        out["solvable"], out["deals"], confidence, ci, undecided=out["limit"]
    )
    out["share_unsolvable"] = out["unsolvable"] / out["deals"]
    return out.reset_index()
