"""Census of random pictures: how often are they unique, and line-solvable, by fill density?

One case is one random picture: each cell filled with probability ``density``, drawn from a
generator seeded by the case's picture columns (`puzzlelab.batch.case_rng` of rows, cols,
density, picture and seed; the search budget is left out, so raising it keeps the pictures).
Its clues are solved (`solve(..., max_solutions=2)`: line logic, probing, then SAT or DFS):
``unique`` or ``multiple`` are proofs, ``limit`` means the search budget (``max_nodes``: DFS
nodes or SAT conflicts) ran out first; line-solvability (line logic alone fills the grid) is
always decided.

`summarise` gives, per size and density, the unique and line-solvable shares with confidence
intervals; undecided pictures widen the unique share's interval instead of being dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from ..batch import case_rng, grid, run_batch
from ..checks import integer, number
from ..errors import PuzzleError
from ..stats import share_interval, tally
from .puzzle import from_grid
from .solver import solve

PICTURE_KEYS = ("rows", "cols", "density", "picture", "seed")


def cases(
    sizes: Iterable[Sequence[int]] = ((10, 10),),
    densities: Iterable[float] = (0.3, 0.4, 0.5, 0.6, 0.7),
    n_pictures: int = 20,
    *,
    seed: int = 0,
    max_nodes: int | None = 2_000,
) -> list[dict]:
    """One case per (size, density, picture number); raises `PuzzleError` for bad values."""
    shapes = []
    for i, size in enumerate(sizes):
        if not isinstance(size, Sequence) or isinstance(size, str) or len(size) != 2:
            raise PuzzleError(f"sizes[{i}] is {size!r}; give (rows, cols) pairs such as (10, 10)")
        shapes.append(tuple(integer(s, f"sizes[{i}]", minimum=1) for s in size))
    densities = [number(p, "density", minimum=0.0, maximum=1.0) for p in densities]
    n_pictures = integer(n_pictures, "n_pictures", minimum=0)
    seed = integer(seed, "seed", minimum=0)
    if max_nodes is not None:
        max_nodes = integer(max_nodes, "max_nodes", minimum=0)
    pictures = grid(
        density=densities, picture=range(n_pictures), seed=[seed], max_nodes=[max_nodes]
    )
    return [{"rows": r, "cols": c, **case} for r, c in shapes for case in pictures]


def picture(case: dict):
    """The random picture of a case (a boolean grid)."""
    rng = case_rng({k: case[k] for k in PICTURE_KEYS})
    return rng.random((case["rows"], case["cols"])) < case["density"]


def _solve(grid, max_nodes: int | None) -> tuple[str, bool, int]:
    """(verdict, line-solvable, search effort: DFS nodes or SAT conflicts) of a picture."""
    result = solve(from_grid(grid), max_solutions=2, max_nodes=max_nodes, progress=False)
    return result.verdict, bool(result.line_solvable), int(result.expanded)


def picture_row(case: dict) -> dict:
    """Solve one random picture: filled cells, verdict, line-solvability and search nodes."""
    grid = picture(case)
    verdict, line, nodes = _solve(grid, case["max_nodes"])
    return {"filled": int(grid.sum()), "verdict": verdict, "line_solvable": line, "nodes": nodes}


def census(
    sizes: Iterable[Sequence[int]] = ((10, 10),),
    densities: Iterable[float] = (0.3, 0.4, 0.5, 0.6, 0.7),
    n_pictures: int = 20,
    *,
    seed: int = 0,
    max_nodes: int | None = 2_000,
    **batch: Any,
) -> pd.DataFrame:
    """Run the picture census with `puzzlelab.batch.run_batch`: one row per picture.

    Parameters
    ----------
    sizes, densities, n_pictures, seed, max_nodes
        The cases (see `cases`).
    **batch
        Passed to `run_batch`: cluster (None: this process; "local": every core; an
        address), chunk_size, progress, resume, overwrite.

    Returns
    -------
    DataFrame
        The case columns, then filled, verdict, line_solvable, nodes and error.
    """
    todo = cases(sizes, densities, n_pictures, seed=seed, max_nodes=max_nodes)
    return run_batch(picture_row, todo, desc="random pictures", **batch)


def summarise(table: pd.DataFrame, confidence: float = 0.95, ci: str = "wilson") -> pd.DataFrame:
    """Per (rows, cols, density): unique and line-solvable shares with their intervals.

    ``unique_hi`` counts undecided (``limit``) pictures as unique; rows with an ``error``
    are counted in ``errors`` and left out of ``pictures``.
    """
    verdicts = {v: ("verdict", lambda s, v=v: s == v) for v in ("unique", "multiple", "limit")}
    counts = {**verdicts, "line_solvable": ("line_solvable", lambda s: s)}
    out = tally(table, ["rows", "cols", "density"], "pictures", counts)
    n = out["pictures"]
    unique = share_interval(out["unique"], n, confidence, ci, undecided=out["limit"])
    out["share_unique"], out["unique_lo"], out["unique_hi"] = unique
    out["share_line"], out["line_lo"], out["line_hi"] = share_interval(
        out["line_solvable"], n, confidence, ci
    )
    return out.reset_index()
