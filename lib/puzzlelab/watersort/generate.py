"""Level generators: the write-up's random deals and levels of a chosen optimal length.

`random_deal` follows the write-up's `Board.reset`: `capacity` units of each of `n_colors`
colors are shuffled and dealt into full tubes in order, followed by `n_empty` empty tubes.

`reverse_play` walks backwards from the sorted position with *un-pours* (the exact inverse of
the pour rule, `unpours`), so every level it makes is solvable by construction; the walk's
length is only an upper bound on the optimum, so `level_with_optimum` re-solves each
candidate optimally and keeps the first whose optimum is exactly the target.
"""

from __future__ import annotations

import numpy as np

from ..checks import integer
from ..checks import rng as make_rng
from ..errors import InvalidPuzzleError, TooLargeError
from ..results import Budget, as_budget
from .level import Level, top_run
from .solve import solve

MAX_UNITS = 100_000  # units in a generated level (far beyond what any solver here can sort)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def color_names(n: int) -> list[str]:
    """`n` one-character color names (A, B, ...; then lower case and digits)."""
    if n > len(LETTERS):
        return [f"c{k}" for k in range(n)]
    return list(LETTERS[:n])


def _sizes(n_colors: object, n_empty: object, capacity: object) -> tuple[int, int, int]:
    """Checked level sizes (PuzzleError for floats, NaN, negatives, or too many units)."""
    n_colors = integer(n_colors, "n_colors", minimum=1)
    n_empty = integer(n_empty, "n_empty", minimum=0)
    capacity = integer(capacity, "capacity", minimum=1)
    if (n_colors + n_empty) * capacity > MAX_UNITS:
        raise TooLargeError(
            f"{n_colors} colors, {n_empty} empty tubes of capacity {capacity} exceed "
            f"{MAX_UNITS} units"
        )
    return n_colors, n_empty, capacity


def random_deal(
    n_colors: int, n_empty: int = 2, capacity: int = 4, rng: int | np.random.Generator = 0
) -> Level:
    """The write-up's deal: shuffled units dealt into `n_colors` full tubes, then empties.

    Parameters
    ----------
    n_colors, n_empty, capacity : int
        Colors (>= 1), empty tubes (>= 0) and units per tube (>= 1).
    rng : int or numpy.random.Generator
        The randomness (SPEC 7: an int seed >= 0, or a Generator to draw from).

    Returns
    -------
    Level

    Raises
    ------
    PuzzleError
        Sizes that are not whole numbers in range, a bad seed, or (`TooLargeError`) more
        than `MAX_UNITS` units.
    """
    n_colors, n_empty, capacity = _sizes(n_colors, n_empty, capacity)
    names = color_names(n_colors)
    units = np.repeat(np.arange(n_colors), capacity)
    make_rng(rng).shuffle(units)
    tubes = [
        tuple(names[u] for u in units[k * capacity : (k + 1) * capacity]) for k in range(n_colors)
    ]
    tubes += [()] * n_empty
    return Level(capacity, tuple(tubes), f"deal-{n_colors}c{n_empty}e")


def sorted_level(n_colors: int, n_empty: int = 2, capacity: int = 4) -> Level:
    """The solved position: one full tube per color, then the empty tubes."""
    n_colors, n_empty, capacity = _sizes(n_colors, n_empty, capacity)
    names = color_names(n_colors)
    return Level(capacity, tuple((c,) * capacity for c in names) + ((),) * n_empty, "sorted")


def unpours(level: Level) -> list[tuple[int, int, int]]:
    """Every (j, i, k): taking k units off tube j onto tube i undoes some legal pour i -> j.

    A pour i -> j of k units leaves j with a top run of at least k; if j's run is longer than
    k, j had that color on top before, otherwise j was empty. If the source i still shows the
    same color on top afterwards, the pour was stopped by a full destination (j is full).
    """
    cap = level.capacity
    out = []
    for j, d in enumerate(level.tubes):
        if not d:
            continue
        run = top_run(d)
        for k in range(1, run + 1):
            if k == run and run != len(d):
                continue  # j would have shown another color: it could not receive c
            for i, s in enumerate(level.tubes):
                if i == j or len(s) + k > cap:
                    continue
                if s and s[-1] == d[-1] and len(d) != cap:
                    continue  # i kept color c on top, so the pour must have filled j
                out.append((j, i, k))
    return out


def unpour(level: Level, j: int, i: int, k: int) -> Level:
    """Move k units from the top of tube j onto tube i (the inverse of a pour i -> j)."""
    tubes = list(level.tubes)
    d = tubes[j]
    tubes[i] = tubes[i] + d[len(d) - k :]
    tubes[j] = d[: len(d) - k]
    return Level(level.capacity, tuple(tubes), level.name)


def reverse_play(
    n_colors: int,
    n_steps: int,
    n_empty: int = 2,
    capacity: int = 4,
    rng: int | np.random.Generator = 0,
) -> Level:
    """A solvable level: `n_steps` random un-pours from the sorted position.

    Raises `InvalidPuzzleError` for `n_empty` = 0 with steps to make: from the sorted
    position with every tube full no pour can be undone.
    """
    n_steps = integer(n_steps, "n_steps", minimum=0, maximum=10**6)
    rng = make_rng(rng)
    level = sorted_level(n_colors, n_empty, capacity)
    if n_steps and level.n_empty == 0:
        raise InvalidPuzzleError(
            "reverse play needs at least one empty tube (n_empty >= 1): with every tube "
            "full no pour can be undone"
        )
    seen = {level.canonical()}
    for _ in range(n_steps):
        moves = unpours(level)
        if not moves:
            break  # a dead end (no pour leads here): the walk stops early
        rng.shuffle(moves)
        for j, i, k in moves:  # prefer positions not visited yet
            nxt = unpour(level, j, i, k)
            if nxt.canonical() not in seen:
                break
        level = nxt
        seen.add(level.canonical())
    return Level(capacity, level.tubes, f"reverse-{n_colors}c-{n_steps}")


def level_with_optimum(
    target: int,
    n_colors: int,
    n_empty: int = 2,
    capacity: int = 4,
    rng: int | np.random.Generator = 0,
    max_tries: int = 200,
    *,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    budget: Budget | None = None,
) -> Level:
    """A level whose fewest pours is exactly `target`, found by reverse play and re-solving.

    One budget (`max_expanded` counts expansions per candidate; `max_seconds` the whole
    call) bounds the optimal searches. Raises `InvalidPuzzleError` when `max_tries`
    candidates miss the target or there is no empty tube, `TooLargeError` when the budget
    runs out first.
    """
    target = integer(target, "target", minimum=0, maximum=10_000)
    max_tries = integer(max_tries, "max_tries", minimum=1)
    limits = as_budget(budget, max_expanded, max_seconds)
    rng = make_rng(rng)
    steps = target
    for _ in range(max_tries):
        level = reverse_play(n_colors, steps, n_empty, capacity, rng)
        sol = solve(
            level, "optimal", limits.max_expanded, limits.seconds_left()
        )  # each candidate gets max_expanded; the clock is the call's
        if sol.verdict == "limit":
            raise TooLargeError(f"level_with_optimum: {sol.note}")
        best = sol.length
        if best == target:
            return Level(capacity, level.tubes, f"optimum-{target}")
        steps += 1 if best < target else -1  # walk longer when the optimum falls short
        steps = max(steps, target)
    raise InvalidPuzzleError(
        f"no level with optimum {target} for {n_colors} colors after {max_tries} tries; "
        "the target may exceed what this many colors allow"
    )


__all__ = [
    "color_names",
    "level_with_optimum",
    "random_deal",
    "reverse_play",
    "sorted_level",
    "unpour",
    "unpours",
]
