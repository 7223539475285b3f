"""Census of random boards: the distribution of optimal solution lengths.

One case is one board drawn uniformly from the positions that can reach the goal: a random
permutation from `puzzlelab.batch.case_rng` (rows, cols, board, seed), and when it lies in
the other parity class its first two tiles are swapped (a bijection between the classes, so
the draw stays uniform). The goal is Korf's (blank first: 0 1 2 ... n-1), so on 4x4 the
cached 6-6-3 pattern databases of notebook 02 are reused. Each board is solved optimally by
the numba IDA* with additive pattern databases (`solve_with_database`).

The databases are loaded once per process (`functools.cache`): on a Dask cluster each worker
reads them from ``cache/pdb`` the first time it needs them (and builds them if absent).

For random 15-puzzles the mean optimal length is about 52.6 moves (52.59 from the complete
breadth-first search of the 15-puzzle, Korf & Schultze 2005); `summarise` puts our sample's
mean and its confidence interval beside it.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ..batch import case_rng, grid, run_batch
from ..checks import integer
from ..errors import PuzzleError
from ..stats import proportion_ci
from .board import is_solvable
from .pdb import PatternDatabase, pattern_database
from .solve import default_partition, solve_with_database

# Mean optimal length of a uniformly random board: 15-puzzle from Korf & Schultze (2005);
# 3x3 from the complete table of notebook 01 (a corner blank, like Korf's goal).
PUBLISHED_MEAN = {(4, 4): 52.59, (3, 3): 21.97}
BOARD_KEYS = ("rows", "cols", "board", "seed")


def korf_goal(rows: int, cols: int) -> tuple[int, ...]:
    """The goal with the blank first: 0 1 2 ... (Korf's convention)."""
    return tuple(range(rows * cols))


def cases(
    n_boards: int = 20,
    shape: tuple[int, int] = (3, 3),
    *,
    partition: str | None = None,
    seed: int = 0,
    max_expanded: int | None = None,
) -> list[dict]:
    """One case per board number; `partition` defaults to the solver's choice for the shape."""
    if not isinstance(shape, tuple | list) or len(shape) != 2:
        raise PuzzleError(f"shape must be (rows, cols), not {shape!r}")
    rows = integer(shape[0], "rows", minimum=2, maximum=4)
    cols = integer(shape[1], "cols", minimum=2, maximum=4)
    n_boards = integer(n_boards, "n_boards", minimum=0)
    seed = integer(seed, "seed", minimum=0)
    if partition is None:
        partition = default_partition((rows, cols))
    if not isinstance(partition, str):
        raise PuzzleError(f"partition must be a name such as '6-6-3', not {partition!r}")
    if max_expanded is not None:
        max_expanded = integer(max_expanded, "max_expanded", minimum=0)
    return grid(
        rows=[rows],
        cols=[cols],
        board=range(n_boards),
        seed=[seed],
        partition=[partition],
        max_expanded=[max_expanded],
    )


def random_board(case: dict) -> tuple[int, ...]:
    """A uniformly random board that can reach Korf's goal, drawn from the case."""
    rows, cols = case["rows"], case["cols"]
    goal = korf_goal(rows, cols)
    tiles = case_rng({k: case[k] for k in BOARD_KEYS}).permutation(rows * cols)
    board = [int(t) for t in tiles]
    if not is_solvable(tuple(board), goal, (rows, cols)):
        a, b = [i for i, t in enumerate(board) if t][:2]
        board[a], board[b] = board[b], board[a]
    return tuple(board)


@cache
def database(rows: int, cols: int, partition: str) -> PatternDatabase:
    """The pattern databases for Korf's goal, loaded (or built) once per process."""
    return pattern_database((rows, cols), korf_goal(rows, cols), partition, progress=False)


def board_row(case: dict) -> dict:
    """Solve one random board optimally: the board, its heuristic and optimal length."""
    board = random_board(case)
    db = database(case["rows"], case["cols"], case["partition"])
    result = solve_with_database(board, db, "pdb", case["max_expanded"])
    length = result.length if result.verdict == "optimal" else None
    return {
        "start": " ".join(map(str, board)),
        "h0": int(db.h(board)),
        "verdict": result.verdict,
        "length": length,
        "expanded": int(result.expanded),
    }


def census(
    n_boards: int = 20,
    shape: tuple[int, int] = (3, 3),
    *,
    partition: str | None = None,
    seed: int = 0,
    max_expanded: int | None = None,
    **batch: Any,
) -> pd.DataFrame:
    """Run the board census with `puzzlelab.batch.run_batch`: one row per random board.

    Parameters
    ----------
    n_boards, shape, partition, seed, max_expanded
        The cases (see `cases`); (4, 4) is the 15-puzzle with the 6-6-3 databases.
    **batch
        Passed to `run_batch`: cluster (None: this process; "local": every core; an
        address), chunk_size, progress, resume, overwrite.

    Returns
    -------
    DataFrame
        The case columns, then start, h0, verdict, length, expanded and error.
    """
    todo = cases(n_boards, shape, partition=partition, seed=seed, max_expanded=max_expanded)
    if todo:
        database(todo[0]["rows"], todo[0]["cols"], todo[0]["partition"])  # build before fanning out
    return run_batch(board_row, todo, desc="random boards", **batch)


def length_distribution(
    table: pd.DataFrame, confidence: float = 0.95, ci: str = "wilson"
) -> pd.DataFrame:
    """Per optimal length: how many boards, their share and its confidence interval."""
    solved = table[table["error"].isna() & (table["verdict"] == "optimal")]
    counts = solved["length"].astype(int).value_counts().sort_index()
    out = pd.DataFrame({"length": counts.index, "boards": counts.to_numpy()})
    n = int(counts.sum())
    out["share"] = out["boards"] / n if n else np.nan
    out["share_lo"], out["share_hi"] = proportion_ci(out["boards"], n, confidence, ci)
    return out


def summarise(table: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per shape: boards solved, the mean optimal length with a t interval, and the published mean.

    Boards stopped by the budget (``limit``) or failed (``error``) are counted, not averaged.
    """
    rows = []
    for (r, c), group in table.groupby(["rows", "cols"]):
        ok = group[group["error"].isna() & (group["verdict"] == "optimal")]
        lengths = ok["length"].astype(float).to_numpy()
        n = lengths.size
        mean = float(lengths.mean()) if n else math.nan
        sd = float(lengths.std(ddof=1)) if n > 1 else math.nan
        half = stats.t.ppf(0.5 + confidence / 2, n - 1) * sd / math.sqrt(n) if n > 1 else math.nan
        rows.append(
            {
                "rows": r,
                "cols": c,
                "boards": len(group),
                "solved": n,
                "limit": int((group["verdict"] == "limit").sum()),
                "errors": int(group["error"].notna().sum()),
                "mean_length": mean,
                "sd": sd,
                "mean_lo": mean - half,
                "mean_hi": mean + half,
                "min": int(lengths.min()) if n else None,
                "max": int(lengths.max()) if n else None,
                "published_mean": PUBLISHED_MEAN.get((int(r), int(c))),
            }
        )
    return pd.DataFrame(rows)
