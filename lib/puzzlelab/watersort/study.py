"""The computations behind notebook 06 and the benchmark: parameters, corpus and deal tables, plots.

Notebook 06 narrates; everything it computes or draws in more than a few lines lives here, so
the same functions serve the notebook, the benchmark and the tests.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..batch import check_cluster, run_folder
from ..checks import integer, read_text
from ..checks import seed as check_seed
from ..errors import ParseError, PuzzleError
from .generate import random_deal
from .level import Level
from .solvers import METHODS, Solution, solve

CORPUS = ("corpora", "watersort", "levels.json")

# The notebook's parameters and their defaults (small and fast, for CI).
DEFAULTS = {
    "seed": 0,
    "colors": [4, 6, 8, 10, 12],
    "n_deals": 12,
    "n_compare": 12,
    "writeup_max_expanded": 100_000,
    "greedy_colors": 22,
    "n_greedy": 3,
    "targets": [5, 10, 15],
    "cluster": None,
    "census_colors": [4, 6, 8, 10, 12],
    "census_deals": 20,
    "census_resume": None,
}


def check_params(**params: object) -> dict:
    """Notebook 06's parameters, checked: unknown names and out-of-range values are refused.

    Parameters
    ----------
    **params
        The names of `DEFAULTS` (all of them): ``seed`` (int >= 0), ``colors`` (list of
        ints in 1..60), ``n_deals``, ``n_compare``, ``n_greedy`` (ints >= 0),
        ``writeup_max_expanded`` (int >= 0 or None), ``greedy_colors`` (int in 1..60),
        ``targets`` (list of ints in 0..200), ``cluster`` (None, ``"local"``, a scheduler
        address or a ``distributed.Client``), ``census_colors`` (list of ints in 1..60),
        ``census_deals`` (int in 0..1,000,000), ``census_resume`` (None or a run name or folder).

    Returns
    -------
    dict
        The checked values (plain Python ints and lists).

    Raises
    ------
    PuzzleError
        An unknown or missing name, or a value of the wrong type or range.
    """
    unknown = sorted(set(params) - set(DEFAULTS))
    missing = sorted(set(DEFAULTS) - set(params))
    if unknown or missing:
        raise PuzzleError(f"notebook 06 parameters: unknown {unknown}, missing {missing}")
    out = {"seed": check_seed(params["seed"])}
    out["colors"] = _int_list(params["colors"], "colors", 1, 60)
    for name in ("n_deals", "n_compare", "n_greedy"):
        out[name] = integer(params[name], name, minimum=0, maximum=10_000)
    cap = params["writeup_max_expanded"]
    out["writeup_max_expanded"] = (
        None if cap is None else integer(cap, "writeup_max_expanded", minimum=0)
    )
    out["greedy_colors"] = integer(params["greedy_colors"], "greedy_colors", minimum=1, maximum=60)
    out["targets"] = _int_list(params["targets"], "targets", 0, 200)
    check_cluster(params["cluster"])
    out["cluster"] = params["cluster"]
    out["census_colors"] = _int_list(params["census_colors"], "census_colors", 1, 60)
    out["census_deals"] = integer(params["census_deals"], "census_deals", minimum=0, maximum=10**6)
    if params["census_resume"] is not None:
        run_folder(params["census_resume"])  # refuses what is neither a run name nor a folder
    out["census_resume"] = params["census_resume"]
    return out


def _int_list(values: object, name: str, low: int, high: int) -> list[int]:
    """A non-empty list of whole numbers in [low, high]."""
    if not isinstance(values, list | tuple) or not values:
        raise PuzzleError(f"{name} must be a non-empty list of whole numbers, not {values!r:.60}")
    return [integer(v, f"{name}[{k}]", minimum=low, maximum=high) for k, v in enumerate(values)]


# ---- the shared corpus ----------------------------------------------------------------------
def load_corpus(path: str | os.PathLike) -> list[tuple[dict, Level]]:
    """The corpus file as (entry, Level) pairs (entries keep `name`, `optimal_pours`, ...).

    Raises `ParseError` for a missing, non-UTF-8 or non-JSON file or entries without a name.
    """
    text = read_text(path, "corpus file")
    try:
        entries = json.loads(text)["levels"]
    except (json.JSONDecodeError, TypeError, KeyError) as err:
        raise ParseError(f"corpus file {path} is not JSON with a 'levels' list: {err}") from None
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and "name" in e for e in entries
    ):
        raise ParseError(f"corpus file {path}: every level needs a 'name'")
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
                "colors": level.n_colors,
                "tubes": level.n_tubes,
                "capacity": level.capacity,
                "published": entry.get("optimal_pours"),
                "verdict": sol.verdict,
                "pours": sol.length,
                "bound": sol.bound,
                "expanded": sol.expanded,
                "cpu_s": time.process_time() - t0,
                "matches": sol.length == entry.get("optimal_pours"),
            }
        )
    table = pd.DataFrame(rows)
    table["pours"] = table["pours"].astype("Int64")
    return table


def corpus_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per source: levels, most colors, optima matched, longest optimum, most expansions."""
    return table.groupby("source").agg(
        levels=("level", "size"),
        colors=("colors", "max"),
        matched=("matches", "sum"),
        longest=("pours", "max"),
        max_expanded=("expanded", "max"),
    )


def draw_bound_vs_optimum(table: pd.DataFrame, ax: plt.Axes | None = None) -> plt.Axes:
    """Scatter of the start bound against the optimum for the solvable levels of `table`."""
    if ax is None:
        _, ax = plt.subplots()
    solvable = table.dropna(subset=["pours"]).astype({"pours": float})
    ax.scatter(solvable.bound, solvable.pours, s=14)
    lim = [0, solvable.pours.max() + 2]
    ax.plot(lim, lim, color="0.6", lw=1, ls="--", label="bound = optimum")
    ax.set(xlabel="lower bound at the start", ylabel="optimal pours", title="corpus: bound")
    ax.legend()
    return ax


# ---- random deals -----------------------------------------------------------------------------
def method_runs(
    level: Level, methods: Sequence[str] = METHODS, max_expanded: int | None = None
) -> dict[str, Solution]:
    """`level` solved by each method; only `optimal` runs without the budget."""
    return {
        m: solve(level, m, max_expanded=None if m == "optimal" else max_expanded) for m in methods
    }


def runs_table(runs: dict[str, Solution]) -> pd.DataFrame:
    """One row per run: the shared statistics followed by the water-sort details."""
    return pd.DataFrame([r.row() for r in runs.values()]).drop(columns=["level", "note"])


def deal_row(level: Level, methods: Iterable[str], max_expanded: int | None = None) -> dict:
    """Solve one level with several methods: verdict, length, expansions and CPU seconds."""
    row: dict = {"colors": level.n_colors, "empty": level.n_empty}
    for method in methods:
        t0 = time.process_time()
        sol = solve(level, method, max_expanded=max_expanded)
        row[f"{method}_verdict"] = sol.verdict
        row[f"{method}_pours"] = sol.length
        row[f"{method}_expanded"] = sol.expanded
        row[f"{method}_cpu_s"] = time.process_time() - t0
    return row


def deal_study(
    colors: Iterable[int],
    n_deals: int,
    n_empty: Iterable[int] = (2,),
    methods: Iterable[str] = ("optimal",),
    capacity: int = 4,
    seed: int = 0,
    max_expanded: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Solve `n_deals` write-up deals for each color count and empty-tube count.

    Deal d of a given color count uses seed (seed, colors, d) for every empty-tube count, so
    the same colored tubes are compared with 1, 2, ... empty tubes. The budget applies to
    every method (None = unlimited).
    """
    methods = tuple(methods)
    jobs = [(c, e, d) for c in colors for d in range(n_deals) for e in n_empty]
    if progress:
        from tqdm import tqdm

        jobs = tqdm(jobs, desc="deals")
    rows = []
    for c, e, d in jobs:
        level = random_deal(c, e, capacity, np.random.default_rng([seed, c, d]))
        row = deal_row(level, methods, max_expanded)
        row["deal"] = d
        rows.append(row)
    columns = ["colors", "empty", "deal"]
    for m in methods:
        columns += [f"{m}_verdict", f"{m}_pours", f"{m}_expanded", f"{m}_cpu_s"]
    table = pd.DataFrame(rows, columns=columns)
    for method in methods:
        table[f"{method}_pours"] = table[f"{method}_pours"].astype("Int64")
    return table


def extra_pours(table: pd.DataFrame) -> pd.Series:
    """The write-up's pours minus the optimum, on deals where both answered."""
    both = table.dropna(subset=["writeup_pours", "optimal_pours"])
    return (both.writeup_pours - both.optimal_pours).astype(int)


def compare_summary(table: pd.DataFrame) -> dict:
    """Write-up against optimal on one deal table: how often longer, equal, shorter, by how much."""
    extra = extra_pours(table)
    return {
        "deals": len(table),
        "writeup_finished": int(table.writeup_pours.notna().sum()),
        "longer": int((extra > 0).sum()),
        "equal": int((extra == 0).sum()),
        "shorter": int((extra < 0).sum()),
        "mean_extra": round(float(extra.mean()), 2) if len(extra) else None,
        "max_extra": int(extra.max()) if len(extra) else None,
    }


def _share(verdicts: pd.Series) -> float:
    """Share of `optimal` verdicts."""
    return float((verdicts == "optimal").mean())


def by_color_table(one: pd.DataFrame, two: pd.DataFrame) -> pd.DataFrame:
    """Per color count: share solvable with 1 and 2 empty tubes, optimum, write-up's extra."""
    two = two.assign(extra=two.writeup_pours - two.optimal_pours)
    g1, g2 = one.groupby("colors"), two.groupby("colors")
    return pd.DataFrame(
        {
            "solvable, 1 empty": g1.optimal_verdict.apply(_share),
            "solvable, 2 empty": g2.optimal_verdict.apply(_share),
            "optimal pours (2 empty)": g2.optimal_pours.mean(),
            "write-up extra pours": g2.extra.mean(),
            "write-up longer (share)": g2.extra.apply(lambda e: float((e > 0).mean())),
        }
    )


def draw_optimal_lengths(two: pd.DataFrame, ax: plt.Axes | None = None) -> plt.Axes:
    """Mean (and range) of the optimal pours per color count, over the solvable deals."""
    if ax is None:
        _, ax = plt.subplots()
    solved = two[two.optimal_verdict == "optimal"]
    g = solved.optimal_pours.astype(float).groupby(solved.colors)
    mean = g.mean()
    ax.errorbar(mean.index, mean, yerr=[mean - g.min(), g.max() - mean], fmt="o-", capsize=3)
    ax.set(xlabel="colors", ylabel="optimal pours", title="optimal length (2 empty tubes)")
    return ax


def draw_solvable_share(by_color: pd.DataFrame, ax: plt.Axes | None = None) -> plt.Axes:
    """Share of solvable deals per color count with one and with two empty tubes."""
    if ax is None:
        _, ax = plt.subplots()
    ax.plot(by_color.index, by_color["solvable, 1 empty"], "o-", label="1 empty tube")
    ax.plot(by_color.index, by_color["solvable, 2 empty"], "s-", label="2 empty tubes")
    ax.set(xlabel="colors", ylabel="share solvable", ylim=(-0.05, 1.05))
    ax.set_title("is one empty tube enough?")
    ax.legend()
    return ax


def greedy_runs(n_colors: int, n_deals: int, seed: int = 0) -> list[Solution]:
    """Greedy search on `n_deals` write-up deals of `n_colors` colors (deal k uses seed + k)."""
    return [solve(random_deal(n_colors, 2, 4, seed=seed + k), "greedy") for k in range(n_deals)]
