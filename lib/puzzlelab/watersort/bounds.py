"""Estimates of the pours still needed: our admissible bound and the write-up's estimate.

`lower_bound` (admissible and consistent). Let B be the number of maximal one-color runs
over all tubes, and for each color c let bot(c) be the number of tubes with c at the
bottom and m(c) = count(c) / capacity the number of tubes c fills when sorted. Then

    h = B - sum_c min(bot(c), m(c))

Proof that no pour lowers h by more than 1 (consistency), and that h = 0 exactly at goals:
- A pour moves k units of color c from the top run of a source onto an empty tube or onto
  a c-topped tube. It never creates a new run in the destination except when the
  destination was empty; it removes a run from the source only when the whole run leaves.
- Onto a c-topped tube: B falls by 1 if the whole run leaves and is unchanged otherwise;
  bottoms change only if the source becomes empty, which lowers bot(c) and so can only
  raise h. Net change of h is -1, 0 or +1.
- Onto an empty tube: the run lands as one new run (B unchanged, or +1 if the run was split);
  bot(c) rises by at most 1 (by 0 if the source was c alone and becomes empty). So h falls
  by at most 1.
- At a goal every non-empty tube is one full run, so B = sum_c m(c) = sum_c bot(c) and h = 0.
  Conversely h = 0 forces every non-empty tube to be a single run (B >= number of non-empty
  tubes >= sum min(bot, m)) and each color to sit in exactly m(c) tubes, i.e. full ones.
Hence h(s) <= 1 + h(s') for every pour s -> s', h(goal) = 0: consistent, so admissible.

`writeup_estimate` is the write-up's estimate: tubes + color switches - sorted tubes - empty
tubes. It counts every tube that is not yet sorted, so it overestimates: a level one pour
from solved with three unfinished tubes scores 2 or more. A* with it is not guaranteed
shortest.

Both are defined once here, on plain sequences of tubes (tuples of color names or `bytes`
of color codes), so the write-up's baseline (`writeup.py`) and the fast solvers use the same
definitions; `BoundKernel` is the solvers' cached version of `tubes_bound`, tested against it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..errors import PuzzleError
from .level import Level, is_complete, n_runs


def _level(level: object, what: str) -> Level:
    """`level` when it is a Level, else a PuzzleError naming the function."""
    if not isinstance(level, Level):
        kind = type(level).__name__
        raise PuzzleError(f"{what} needs a Level (Level.parse / Level.make), not {kind}")
    return level


def tubes_bound(tubes: Sequence[Sequence], capacity: int) -> int:
    """The admissible bound of a position given as tubes: runs minus usable bottoms."""
    runs = sum(n_runs(t) for t in tubes)
    counts = Counter(c for t in tubes for c in t)
    bottoms = Counter(t[0] for t in tubes if t)
    return runs - sum(min(b, counts[c] // capacity) for c, b in bottoms.items())


def lower_bound(level: Level) -> int:
    """Admissible, consistent bound on the pours still needed (see the module's proof).

    Parameters
    ----------
    level : Level

    Returns
    -------
    int
        Runs minus the tubes' bottoms each color can use; 0 exactly at sorted positions.
    """
    level = _level(level, "lower_bound")
    return tubes_bound(level.tubes, level.capacity)


def tubes_estimate(tubes: Sequence[Sequence], capacity: int) -> int:
    """The write-up's estimate of a position given as tubes: tubes + switches - sorted - empty."""
    switches = sum(n_runs(t) - 1 for t in tubes if t)
    done = sum(1 for t in tubes if is_complete(t, capacity))
    empty = sum(1 for t in tubes if not t)
    return len(tubes) + switches - done - empty


def writeup_estimate(level: Level) -> int:
    """The write-up's estimate (not admissible): tubes + switches - sorted - empty.

    Parameters
    ----------
    level : Level

    Returns
    -------
    int
        0 at sorted positions; may exceed the pours still needed.
    """
    level = _level(level, "writeup_estimate")
    return tubes_estimate(level.tubes, level.capacity)


class BoundKernel:
    """`tubes_bound` on canonical `bytes` positions, with per-tube run counts cached.

    `need` maps color code -> count // capacity (None when every color fills one tube,
    the common case, where the bottoms term is just the number of distinct bottom colors).
    """

    def __init__(self, level: Level, index: dict[str, int]):
        need = {index[c]: n // level.capacity for c, n in level.counts().items()}
        self.need = None if all(v == 1 for v in need.values()) else need
        self.runs: dict[bytes, int] = {}

    def tube_runs(self, t: bytes) -> int:
        """Runs in one tube (cached)."""
        r = self.runs.get(t)
        if r is None:
            r = n_runs(t)
            self.runs[t] = r
        return r

    def __call__(self, state: Sequence[bytes]) -> int:
        """h of a canonical position (equal to `tubes_bound`)."""
        runs = self.runs
        b = 0
        for t in state:
            r = runs.get(t)
            if r is None:
                r = self.tube_runs(t)
            b += r
        if self.need is None:
            return b - len({t[0] for t in state if t})
        cnt = Counter(t[0] for t in state if t)
        return b - sum(min(v, self.need[c]) for c, v in cnt.items())
