"""Every "over many boards" question of the sliding study, answered once.

- `random_board(shape, goal, rng)`: the one way the lab draws a uniformly random solvable
  board (census, notebooks, game and widgets use it).
- `census` / `summarise` / `length_distribution`: optimal lengths of random boards.
- `compare_methods`, `heuristic_values` / `heuristic_quality`: heuristics side by side.
- `solve_korf`, `korf_heuristics`: Korf's instances with the numba IDA*.

Census cases: one case is one board drawn uniformly from the positions that can reach the
goal: a random permutation from `puzzlelab.batch.case_rng` over the case keys (rows, cols,
board, seed), and when it lies in the other parity class its first two tiles are swapped
(a bijection between the classes, so the draw stays uniform). The goal is Korf's (blank
first: 0 1 2 ... n-1), so on 4x4 the cached 6-6-3 pattern databases of notebook 02 are
reused. Each board is solved optimally by the numba IDA* with additive pattern databases
(`solve_with_database`).

The databases are loaded once per process (`functools.cache`): on a Dask cluster each worker
reads them from ``cache/pdb`` the first time it needs them (and builds them if absent).

For random 15-puzzles the mean optimal length is about 52.6 moves (`data.MEAN_15`, from the
complete breadth-first search of the 15-puzzle, Korf & Schultze 2005); `summarise` puts our
sample's mean and its confidence interval beside it.
"""

from __future__ import annotations

import math
import time
from functools import cache
from typing import Any

import numpy as np
import pandas as pd

from ..batch import case_rng, grid, run_batch
from ..checks import integer
from ..checks import rng as make_rng
from ..errors import PuzzleError
from ..stats import mean_interval, proportion_ci
from .board import Shape, State, check_shape, manhattan_checked, read_board, solved_state
from .board import solvable_checked as _solvable
from .data import KORF_GOAL, KORF_SHAPE, PUBLISHED_MEAN, korf_goal
from .heuristics import linear_conflict_checked, misplaced_checked, pairwise_conflicts
from .pdb import PatternDatabase, kernel_h_many, pattern_database
from .solve import default_partition, solve, solve_with_database

BOARD_KEYS = ("rows", "cols", "board", "seed")


def random_board(shape: Shape, goal: State | str | None = None, rng: object = None) -> State:
    """A board drawn uniformly from those that can reach `goal` (default: tiles in order).

    Parameters
    ----------
    shape : (rows, cols)
    goal : board, optional
        Any form `read_board` reads; several blanks allowed.
    rng : int, Generator or None
        The randomness (SPEC 7: a seed, a Generator whose stream continues, or None).

    Returns
    -------
    tuple of int
        A random arrangement of the goal's tiles; one in the other parity class gets its
        first two tiles swapped (a bijection between the classes, so the draw stays
        uniform). On a 1 x n strip, where tiles keep their order, the blanks' cells are drawn.
    """
    shape = check_shape(shape)
    goal = solved_state(shape) if goal is None else read_board(goal, shape)[0]
    gen = make_rng(rng)
    if min(shape) == 1:  # tiles keep their order: choose the blanks' cells
        blanks = set(gen.choice(len(goal), goal.count(0), replace=False).tolist())
        tiles = iter(t for t in goal if t)
        return tuple(0 if i in blanks else next(tiles) for i in range(len(goal)))
    board = [goal[int(i)] for i in gen.permutation(len(goal))]
    if not _solvable(tuple(board), goal, shape):
        a, b = [i for i, t in enumerate(board) if t][:2]
        board[a], board[b] = board[b], board[a]
    return tuple(board)


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


def case_board(case: dict) -> State:
    """The census case's random board toward Korf's goal (seeded by the case's keys)."""
    rows, cols = case["rows"], case["cols"]
    rng = case_rng({k: case[k] for k in BOARD_KEYS})
    return random_board((rows, cols), korf_goal(rows, cols), rng)


@cache
def database(rows: int, cols: int, partition: str) -> PatternDatabase:
    """The pattern databases for Korf's goal, loaded (or built) once per process."""
    return pattern_database((rows, cols), korf_goal(rows, cols), partition, progress=False)


def board_row(case: dict) -> dict:
    """Solve one random board optimally: the board, its heuristic and optimal length."""
    board = case_board(case)
    db = database(case["rows"], case["cols"], case["partition"])
    result = solve_with_database(board, db, "pdb", max_expanded=case["max_expanded"])
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


SUMMARY_COLUMNS = [
    "rows", "cols", "boards", "solved", "limit", "errors", "mean_length", "sd", "mean_lo",
    "mean_hi", "min", "max", "published_mean",
]  # fmt: skip


def summarise(table: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per shape: boards solved, the mean optimal length with a t interval, and the published mean.

    Boards stopped by the budget (``limit``) or failed (``error``) are counted, not averaged.
    An empty census gives an empty summary.
    """
    if table.empty or not {"rows", "cols"} <= set(table.columns):
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    rows = []
    for (r, c), group in table.groupby(["rows", "cols"]):
        ok = group[group["error"].isna() & (group["verdict"] == "optimal")]
        lengths = ok["length"].astype(float).to_numpy()
        n = lengths.size
        mean, lo, hi = mean_interval(lengths, confidence)
        rows.append(
            {
                "rows": r,
                "cols": c,
                "boards": len(group),
                "solved": n,
                "limit": int((group["verdict"] == "limit").sum()),
                "errors": int(group["error"].notna().sum()),
                "mean_length": mean,
                "sd": float(lengths.std(ddof=1)) if n > 1 else math.nan,
                "mean_lo": lo,
                "mean_hi": hi,
                "min": int(lengths.min()) if n else None,
                "max": int(lengths.max()) if n else None,
                "published_mean": PUBLISHED_MEAN.get((int(r), int(c))),
            }
        )
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


# ------------------------------------------------------------------ heuristics compared


def compare_methods(
    boards: list[State],
    goal: State,
    shape: Shape,
    methods: list[tuple[str, str]],
    table=None,
) -> pd.DataFrame:
    """Solve every board with every (algorithm, heuristic); one row per run.

    With a distance table, each row also holds the true length. `valid` is `verify()`.
    """
    rows = []
    for i, board in enumerate(boards):
        true = table.distance(board) if table is not None else None
        for algorithm, heuristic in methods:
            sol = solve(board, goal, shape, algorithm, heuristic, progress=False)
            row = {"board": i, **sol.row(), "valid": sol.verify()}
            if true is not None:
                row["true_length"] = true
            rows.append(row)
    return pd.DataFrame(rows)


def heuristic_values(boards: list[State], goal: State, shape: Shape, db) -> dict[str, np.ndarray]:
    """Every heuristic of notebook 02 on every board (the PDB through its numba lookup)."""

    def each(f):
        return np.array([f(b, goal, shape) for b in boards])

    def pairwise(b, goal, shape):
        return manhattan_checked(b, goal, shape) + pairwise_conflicts(b, goal, shape)

    return {
        "misplaced": each(misplaced_checked),
        "manhattan": each(manhattan_checked),
        "linear conflict": each(linear_conflict_checked),
        f"pdb {db.name} (+reflection)": kernel_h_many(db, np.array(boards)),
        "pairwise conflicts (inadmissible)": each(pairwise),
    }


def heuristic_quality(values: dict[str, np.ndarray], true: np.ndarray) -> pd.DataFrame:
    """Per heuristic: mean h, mean h / true distance, share exact, boards overestimated."""
    rows = []
    for name, h in values.items():
        rows.append(
            {
                "heuristic": name,
                "mean h": round(float(h.mean()), 3),
                "mean h / true": round(float((h / np.maximum(true, 1)).mean()), 3),
                "exact on": f"{(h == true).mean():.1%}",
                "overestimates": int((h > true).sum()),
            }
        )
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------ Korf's instances


def solve_korf(
    db: PatternDatabase, instances: pd.DataFrame, progress: bool = False
) -> pd.DataFrame:
    """Solve instances with the numba IDA* and database `db`; one row per instance."""
    from tqdm import tqdm

    rows = []
    t_cpu = time.process_time()
    for r in tqdm(instances.itertuples(), total=len(instances), disable=not progress):
        c0 = time.process_time()
        sol = solve_with_database(r.state, db, "pdb")
        rows.append(
            {
                "id": r.id,
                "optimal_length": r.optimal_length,
                "length": sol.length,
                "h0": db.h(r.state),
                "manhattan_h0": r.manhattan_h0,
                "expanded": sol.expanded,
                "generated": sol.generated,
                "seconds": sol.seconds,
                "cpu_seconds": time.process_time() - c0,
                "valid": sol.verify(),
            }
        )
    out = pd.DataFrame(rows)
    out.attrs["cpu_seconds"] = time.process_time() - t_cpu
    return out


def korf_heuristics(instances: pd.DataFrame, heuristics: list[str]) -> pd.DataFrame:
    """Solve each instance with the numba IDA* and each heuristic; one row per run."""
    rows = []
    for r in instances.itertuples():
        for h in heuristics:
            sol = solve(r.state, KORF_GOAL, KORF_SHAPE, "idastar", h, progress=False)
            rows.append({"id": r.id, "optimal": r.optimal_length, "heuristic": h,
                         "length": sol.length, "generated": sol.generated,
                         "seconds": sol.seconds})  # fmt: skip
    return pd.DataFrame(rows)
