"""The computations behind notebook 06 and the benchmark: corpus tables and random-deal studies."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..paths import shared_dir
from .generate import random_deal
from .level import Level
from .solvers import solve

CORPUS = ("corpora", "watersort", "levels.json")


def load_corpus() -> list[tuple[dict, Level]] | None:
    """The shared corpus as (entry, Level) pairs, or None when ../shared is absent."""
    path = shared_dir(*CORPUS)
    if path is None:
        return None
    entries = json.loads(path.read_text())["levels"]
    return [(e, Level.from_dict(e)) for e in entries]


def source_of(name: str) -> str:
    """The corpus source prefix of a level name (pkositsyn, octo, sortpuz, kuking, ito)."""
    return name.split("-")[0]


def corpus_table(
    corpus: Iterable[tuple[dict, Level]], max_expanded: int | None = None
) -> pd.DataFrame:
    """One row per corpus level: size, published optimum, our verdict, length, bound, effort."""
    rows = []
    for entry, level in corpus:
        t0 = time.process_time()
        sol = solve(level, "optimal", max_expanded=max_expanded)
        rows.append(
            {
                "level": entry["name"],
                "source": source_of(entry["name"]),
                "colours": level.n_colors,
                "tubes": level.n_tubes,
                "capacity": level.capacity,
                "published": entry["optimal_pours"],
                "verdict": sol.verdict,
                "pours": sol.length if sol.solved else None,
                "bound": sol.bound,
                "expanded": sol.expanded,
                "cpu_s": time.process_time() - t0,
                "matches": (sol.length if sol.solved else None) == entry["optimal_pours"],
            }
        )
    table = pd.DataFrame(rows)
    table["pours"] = table["pours"].astype("Int64")
    return table


def deal_row(level: Level, methods: Iterable[str], max_expanded: int | None = None) -> dict:
    """Solve one level with several methods: verdict, length, expansions and CPU seconds."""
    row: dict = {"colours": level.n_colors, "empty": level.n_empty}
    for method in methods:
        t0 = time.process_time()
        sol = solve(level, method, max_expanded=max_expanded)
        row[f"{method}_verdict"] = sol.verdict
        row[f"{method}_pours"] = sol.length if sol.solved else None
        row[f"{method}_expanded"] = sol.expanded
        row[f"{method}_cpu_s"] = time.process_time() - t0
    return row


def deal_study(
    colours: Iterable[int],
    n_deals: int,
    n_empty: Iterable[int] = (2,),
    methods: Iterable[str] = ("optimal",),
    capacity: int = 4,
    seed: int = 0,
    max_expanded: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Solve `n_deals` write-up deals for each colour count and empty-tube count.

    Deal d of a given colour count uses seed (seed, colours, d) for every empty-tube count, so
    the same coloured tubes are compared with 1, 2, ... empty tubes.
    """
    methods = tuple(methods)
    jobs = [(c, e, d) for c in colours for d in range(n_deals) for e in n_empty]
    if progress:
        from tqdm.auto import tqdm

        jobs = tqdm(jobs, desc="deals")
    rows = []
    for c, e, d in jobs:
        level = random_deal(c, e, capacity, np.random.default_rng([seed, c, d]))
        row = deal_row(level, methods, max_expanded)
        row["deal"] = d
        rows.append(row)
    table = pd.DataFrame(rows)
    for method in methods:
        table[f"{method}_pours"] = table[f"{method}_pours"].astype("Int64")
    return table
