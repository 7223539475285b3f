"""How hard are the openings? Minimum moves from the complete 3x3 table, against all states."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .. import checks
from ..errors import InvalidPuzzleError
from ..game import GAME_GOAL, GAME_SHAPE
from ..sliding import DistanceTable, distance_table, parse_board
from .samples import Pattern


def game_table() -> DistanceTable:
    """The complete 3x3 distance table toward the game's goal 789456B23."""
    return distance_table(GAME_SHAPE, GAME_GOAL, progress=False)


def minimum_moves(
    patterns: Iterable[Pattern], table: DistanceTable | None = None
) -> dict[Pattern, int]:
    """Optimal moves to the game's goal for each distinct pattern."""
    table = game_table() if table is None else table
    return {p: table.distance(parse_board(p, GAME_SHAPE)) for p in dict.fromkeys(patterns)}


@dataclass(frozen=True, kw_only=True)
class Difficulty:
    """How many moves an opening needs, weighted by how often it appears, against all states."""

    n_samples: int
    n_patterns: int
    mean: float  # mean over openings = frequency-weighted mean over patterns
    se: float  # its standard error (openings are independent draws)
    pattern_mean: float  # unweighted mean over the distinct patterns seen
    min: int
    max: int
    uniform_mean: float  # mean over every solvable 3x3 state (a uniformly random shuffle)
    uniform_sd: float
    z: float  # (mean - uniform_mean) / se
    p_value: float  # two-sided
    conclusion: str  # 'harder', 'easier' or 'no detectable difference' than a random shuffle


def difficulty(
    samples: pd.DataFrame, table: DistanceTable | None = None, alpha: float = 0.05
) -> Difficulty:
    """Frequency-weighted mean of minimum moves with its standard error, against all states.

    Parameters
    ----------
    samples : DataFrame
        A samples table with a `pattern` column (at least two rows).
    table : DistanceTable, optional
        The game's table (`game_table()` when omitted).
    alpha : float
        Level of the two-sided z-test, strictly between 0 and 1.

    Returns
    -------
    Difficulty

    Raises
    ------
    PuzzleError
        Fewer than two samples, unreadable patterns, or a bad alpha.
    """
    alpha = checks.fraction(alpha, "alpha")
    table = game_table() if table is None else table
    moves_of = minimum_moves(samples["pattern"], table)
    moves = np.array([moves_of[p] for p in samples["pattern"]], dtype=float)
    if len(moves) < 2:
        raise InvalidPuzzleError("need at least two samples for a standard error")
    depth = np.arange(len(table.counts))
    w = table.counts / table.counts.sum()
    u_mean = float(depth @ w)
    u_sd = float(np.sqrt(((depth - u_mean) ** 2) @ w))
    mean, se = float(moves.mean()), float(moves.std(ddof=1) / np.sqrt(len(moves)))
    z = (mean - u_mean) / se if se > 0 else math.copysign(math.inf, mean - u_mean)
    p = float(2 * stats.norm.sf(abs(z)))
    return Difficulty(
        n_samples=len(moves),
        n_patterns=len(moves_of),
        mean=mean,
        se=se,
        pattern_mean=float(np.mean(list(moves_of.values()))),
        min=int(moves.min()),
        max=int(moves.max()),
        uniform_mean=u_mean,
        uniform_sd=u_sd,
        z=float(z),
        p_value=p,
        conclusion="no detectable difference" if p >= alpha else ("harder" if z > 0 else "easier"),
    )


def hardest_pattern(
    samples: pd.DataFrame | Iterable[Pattern], table: DistanceTable | None = None
) -> tuple[Pattern, int]:
    """The pattern needing the most moves (first in sorted order among ties)."""
    patterns = samples["pattern"] if isinstance(samples, pd.DataFrame) else samples
    moves_of = minimum_moves(sorted(set(patterns)), table)
    if not moves_of:
        raise InvalidPuzzleError("no patterns given")
    best = max(moves_of, key=lambda p: (moves_of[p], [-ord(ch) for ch in p]))
    return best, moves_of[best]
