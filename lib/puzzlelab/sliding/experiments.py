"""The comparisons notebook 02 and the benchmark run: heuristics side by side, Korf's 100."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ..errors import ParseError
from ..paths import shared_dir
from .board import Shape, State
from .pdb import PatternDatabase
from .solve import is_solution, solve, solve_with_database

KORF_GOAL: State = tuple(range(16))
KORF_SHAPE: Shape = (4, 4)


def korf_instances(easiest: int | None = None) -> pd.DataFrame:
    """Korf's 100 15-puzzles (goal 0 1 ... 15) from ../shared, optionally the n easiest.

    Columns: id, state (tuple), optimal_length, manhattan_h0. "Easiest" sorts by optimal
    length, then by id.
    """
    path = shared_dir("reference", "sliding", "korf100.tsv")
    if path is None:
        raise FileNotFoundError("../shared/reference/sliding/korf100.tsv is absent")
    df = pd.read_csv(path, sep="\t")
    if list(df.columns[:4]) != ["id", "tiles", "optimal_length", "manhattan_h0"]:
        raise ParseError(f"{path}: expected columns id, tiles, optimal_length, manhattan_h0")
    df["state"] = [tuple(int(t) for t in s.split()) for s in df["tiles"]]
    df = df.drop(columns="tiles")
    if easiest is not None:
        df = df.sort_values(["optimal_length", "id"]).head(easiest)
    return df.reset_index(drop=True)


def random_boards(table, n: int, seed: int = 0) -> list[State]:
    """n distinct reachable boards drawn uniformly from a distance table (seeded)."""
    rng = np.random.default_rng(seed)
    return table.states(rng.choice(table.depths.size, n, replace=False))


def compare_methods(
    boards: list[State],
    goal: State,
    shape: Shape,
    methods: list[tuple[str, str]],
    table=None,
) -> pd.DataFrame:
    """Solve every board with every (algorithm, heuristic); one row per run.

    With a distance table, each row also holds the true length and whether it matched.
    """
    rows = []
    for i, board in enumerate(boards):
        true = table.distance(board) if table is not None else None
        for algorithm, heuristic in methods:
            sol = solve(board, goal, shape, algorithm, heuristic, progress=False)
            row = {"board": i, **sol.row()}
            row["valid"] = is_solution(board, sol.moves, goal, shape)
            if true is not None:
                row["true_length"] = true
            rows.append(row)
    return pd.DataFrame(rows)


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
                "valid": is_solution(r.state, sol.moves, db.goal, db.shape),
            }
        )
    out = pd.DataFrame(rows)
    out.attrs["cpu_seconds"] = time.process_time() - t_cpu
    return out
