"""A model of the slide-puzzle game of the write-up: its goal, a shuffle pool, openings.

The game shows one of six pictures cut into a 3x3 puzzle whose solved state is `789456B23`
(tiles numbered like a numeric keypad, blank bottom-left). Each time the puzzle is opened it
draws a shuffle from a fixed pool of patterns with unequal frequencies. The recording study
films this model and the statistics study tries to recover the pool from samples of it.

`random_openings` is the lab's one way to draw openings from a pool (the synthetic game's, or
an abstract pool of N patterns with Dirichlet weights, as the pool-size explorer uses).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import checks
from .errors import InvalidPuzzleError, TooLargeError
from .sliding import State, parse_board, to_pattern

GAME_GOAL: State = parse_board("789456B23")
GAME_SHAPE = (3, 3)
N_PICTURES = 6
# The synthetic game is built like the write-up's: as many patterns as it found in 500 openings
# (patterns.data.SECOND_SURVEY) within its band of minimum moves (patterns.data.MOVE_RANGE).
POOL_SIZE = 80
MIN_MOVES, MAX_MOVES = 17, 28


@dataclass(frozen=True, kw_only=True)
class PatternPool:
    """The shuffles a game draws from, with their probabilities."""

    states: tuple[State, ...]
    weights: np.ndarray  # probabilities, summing to 1

    def __len__(self) -> int:
        """Number of patterns in the pool."""
        return len(self.states)

    @property
    def patterns(self) -> list[str]:
        """The patterns as the write-up's strings, e.g. '9B6358247'."""
        return [to_pattern(s) for s in self.states]


def make_pool(
    n_patterns: int = POOL_SIZE,
    *,
    min_moves: int = MIN_MOVES,
    max_moves: int = MAX_MOVES,
    concentration: float = 5.0,
    rng: int | np.random.Generator | None = 0,
) -> PatternPool:
    """A pool of distinct solvable shuffles `min_moves..max_moves` from the game's goal.

    Shuffles are drawn uniformly among the states in that distance band (the write-up's 500
    samples ranged from 17 to 28 moves); weights come from a Dirichlet(concentration)
    draw, so some patterns are several times more frequent than others. `rng` (an int seed or
    a Generator, SPEC 7) chooses the states and then the weights.
    """
    from .sliding import distance_table

    n_patterns = checks.integer(n_patterns, "n_patterns (a pool needs at least one)", minimum=1)
    min_moves = checks.integer(min_moves, "min_moves", minimum=0)
    max_moves = checks.integer(max_moves, "max_moves", minimum=min_moves)
    concentration = checks.number(
        concentration, "the Dirichlet concentration", minimum=0.0, maximum=1e6, open_interval=True
    )
    rng = checks.rng(rng)
    table = distance_table(GAME_SHAPE, GAME_GOAL, cache=False, progress=False)
    band = np.flatnonzero((table.depths >= min_moves) & (table.depths <= max_moves))
    if len(band) < n_patterns:
        raise InvalidPuzzleError(
            f"only {len(band)} states lie {min_moves}..{max_moves} moves from the goal, "
            f"fewer than the {n_patterns} patterns asked for"
        )
    chosen = np.sort(rng.choice(band, size=n_patterns, replace=False))
    weights = _dirichlet(rng, n_patterns, concentration)
    return PatternPool(states=tuple(table.states(chosen)), weights=weights)


def _dirichlet(rng: np.random.Generator, n_patterns: int, concentration: float) -> np.ndarray:
    """Pattern weights from a symmetric Dirichlet(concentration) draw."""
    return rng.dirichlet(np.full(n_patterns, float(concentration)))


def random_openings(
    pool: PatternPool | int,
    n_openings: int,
    *,
    concentration: float = 0.0,
    rng: int | np.random.Generator | None = 0,
) -> np.ndarray:
    """Indices of the patterns shown by `n_openings` random openings of a pool.

    Parameters
    ----------
    pool : PatternPool or int
        A pool from `make_pool` (its own weights), or a number N of abstract patterns 0..N-1
        whose weights are drawn here from a symmetric Dirichlet(concentration).
    n_openings : int
        Openings to draw.
    concentration : float
        For an int pool: 0 for equal weights, else the Dirichlet concentration (small = very
        unequal). Must be 0 for a PatternPool, which has its weights.
    rng : int, Generator or None
        Seed or generator (SPEC 7); the weights are drawn first, then the openings.

    Returns
    -------
    ndarray of int
        One pattern index per opening.

    Examples
    --------
    >>> random_openings(5, 8, rng=1).tolist()
    [2, 2, 3, 4, 0, 0, 4, 4]
    """
    rng = checks.rng(rng)
    n_openings = checks.integer(n_openings, "n_openings", minimum=0, maximum=10**8)
    concentration = checks.number(concentration, "concentration", minimum=0.0, maximum=1e6)
    if isinstance(pool, PatternPool):
        if concentration:
            raise InvalidPuzzleError("a PatternPool has its own weights: leave concentration 0")
        return rng.choice(len(pool), size=n_openings, p=pool.weights)
    n_patterns = checks.integer(pool, "pool (a PatternPool or a number of patterns)", minimum=1)
    if n_patterns > 10**7:
        raise TooLargeError(f"a pool of {n_patterns} patterns is more than this model draws from")
    weights = _dirichlet(rng, n_patterns, concentration) if concentration else None
    return rng.choice(n_patterns, size=n_openings, p=weights)


def sample_openings(
    pool: PatternPool,
    n_openings: int,
    *,
    n_pictures: int = N_PICTURES,
    picture_weights: np.ndarray | None = None,
    rng: int | np.random.Generator | None = 0,
) -> pd.DataFrame:
    """Simulate `n_openings` openings: columns opening, picture (1-based), state, pattern."""
    if not isinstance(pool, PatternPool):
        raise InvalidPuzzleError("pool must be a PatternPool (from make_pool)")
    n_openings = checks.integer(n_openings, "n_openings", minimum=0, maximum=10**8)
    n_pictures = checks.integer(n_pictures, "n_pictures", minimum=1, maximum=10**6)
    rng = checks.rng(rng)
    pw = np.full(n_pictures, 1.0 / n_pictures) if picture_weights is None else picture_weights
    try:
        pw = np.asarray(pw, dtype=float)
    except (TypeError, ValueError):
        pw = np.full(n_pictures, np.nan)
    bad = pw.shape != (n_pictures,) or not np.isfinite(pw).all()
    if bad or np.any(pw < 0) or not pw.sum() > 0:
        raise InvalidPuzzleError(
            f"picture_weights must be {n_pictures} non-negative numbers with a positive sum"
        )
    pw = pw / pw.sum()
    idx = random_openings(pool, n_openings, rng=rng)
    pictures = rng.choice(n_pictures, size=n_openings, p=pw) + 1
    states = [pool.states[i] for i in idx]
    return pd.DataFrame(
        {
            "opening": np.arange(n_openings),
            "picture": pictures,
            "state": states,
            "pattern": [to_pattern(s) for s in states],
        }
    )
