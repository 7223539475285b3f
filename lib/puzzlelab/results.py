"""One result protocol for every solver in the lab, and one meaning of a search budget.

Every solver (sliding, water sort, nonogram, the generic `search` algorithms) returns a
subclass of `Result`:

- `verdict`: one word from `VERDICTS`
  (`optimal`, `feasible`, `unique`, `multiple`, `unsolvable`, `limit`);
- `length`: the number of moves of the answer, or None when there is no answer;
- `moves` and `states`: lists (attributes, never methods); `states` runs from the start to
  the end position and is one longer than `moves` when the puzzle has moves;
- `stats()`: one table row with the same keys in every study (`STATS_KEYS`);
  puzzle-specific counters (probes, bounds, heuristic, ...) are in `details()`, and `row()`
  joins the two for tables. Each study's docstring of `details()` says what its `expanded`
  and `generated` count;
- `verify()`: True when the answer checks out against the puzzle with the study's own rule
  (a solved result's moves replayed from the start reach a solution); it never raises.

Results whose steps are not moves (a nonogram's deduction passes) set `HAS_MOVES = False`:
their `length` is None.

Budgets: `Budget` is made once, at the entry point (`as_budget`), and the same object is passed
down to every layer, so its clock starts once.

Unsolvable input is reported (`verdict == "unsolvable"`), not raised; only helpers that
promise a number (a distance, a length) raise `UnsolvableError`. An exhausted budget is
reported as `verdict == "limit"`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .checks import integer, number
from .errors import PuzzleError

__all__ = [
    "Budget",
    "Result",
    "SOLVED",
    "STATS_KEYS",
    "VERDICTS",
    "as_budget",
    "budget",
]

VERDICTS = ("optimal", "feasible", "unique", "multiple", "unsolvable", "limit")
SOLVED = frozenset({"optimal", "feasible", "unique", "multiple"})  # verdicts with an answer
STATS_KEYS = ("method", "verdict", "length", "expanded", "generated", "max_frontier", "seconds")


@dataclass(kw_only=True)
class Result:
    """What a solver concluded, the answer it found and what finding it cost.

    Parameters
    ----------
    method : str
        The solver that ran (``"astar"``, ``"optimal"``, ``"dfs"``, ``"writeup"``, ...).
    verdict : str
        One of `VERDICTS`.
    moves : list
        The moves of the answer, in order (empty when there is none).
    states : list
        The positions from the start to the end of the answer (empty when there is none).
    expanded, generated, max_frontier : int
        Nodes expanded, nodes generated, largest frontier (or depth) held at once.
    seconds : float
        Wall-clock time of the search.
    note : str
        A sentence of explanation (why unsolvable, which budget ran out).
    """

    method: str
    verdict: str
    moves: list = field(default_factory=list, repr=False)
    states: list = field(default_factory=list, repr=False)
    expanded: int = 0
    generated: int = 0
    max_frontier: int = 0
    seconds: float = 0.0
    note: str = ""

    HAS_MOVES = True  # class constant: False where the steps are not moves (length is None)

    def __post_init__(self) -> None:
        """Refuse a verdict outside the one vocabulary."""
        if not isinstance(self.verdict, str) or self.verdict not in VERDICTS:
            raise PuzzleError(f"verdict {self.verdict!r} is not one of {', '.join(VERDICTS)}")

    @property
    def solved(self) -> bool:
        """Does the result come with an answer?"""
        return self.verdict in SOLVED

    @property
    def length(self) -> int | None:
        """Number of moves of the answer (None when there is no answer)."""
        return len(self.moves) if self.solved and self.HAS_MOVES else None

    def verify(self) -> bool:
        """Does the answer check out against the puzzle (the study's rule)? Never raises.

        A result without an answer verifies when it carries no moves; a solved one when
        `_check()` (each study's replay of its moves) confirms it.
        """
        try:
            if not self.solved:
                return not self.moves
            return bool(self._check())
        except Exception:  # a verifier answers, it never raises
            return False

    def _check(self) -> bool:
        """The study's check of a solved result (subclasses override)."""
        raise NotImplementedError(f"{type(self).__name__} has no verifier")

    def stats(self) -> dict[str, Any]:
        """One table row with the keys every study shares (`STATS_KEYS`)."""
        return {key: getattr(self, key) for key in STATS_KEYS}

    def details(self) -> dict[str, Any]:
        """Puzzle-specific statistics (empty here; subclasses add theirs)."""
        return {}

    def row(self) -> dict[str, Any]:
        """`stats()` followed by `details()`: one row of a results table."""
        return {**self.stats(), **self.details()}


# ------------------------------------------------------------------------------ budgets


@dataclass
class Budget:
    """How much work a search may do; None means unlimited, 0 means stop at once.

    The same meaning holds in the Python searches and the numba kernels (which get
    `kernel_nodes()`, a plain integer with no "unlimited" code).
    """

    max_expanded: int | None = None
    max_seconds: float | None = None
    started: float = field(default_factory=time.perf_counter, repr=False)

    def __post_init__(self) -> None:
        """Check the limits once, with clear errors."""
        if self.max_expanded is not None:
            self.max_expanded = integer(self.max_expanded, "max_expanded", minimum=0)
        if self.max_seconds is not None:
            self.max_seconds = number(self.max_seconds, "max_seconds", minimum=0)

    def exhausted(self, expanded: int) -> bool:
        """Has the budget run out after `expanded` expansions?"""
        if self.max_expanded is not None and expanded >= self.max_expanded:
            return True
        return self.max_seconds is not None and self.elapsed() >= self.max_seconds

    def elapsed(self) -> float:
        """Seconds since the budget started."""
        return time.perf_counter() - self.started

    def seconds_left(self) -> float | None:
        """Seconds the budget still allows (None: no time limit; never negative)."""
        if self.max_seconds is None:
            return None
        return max(0.0, self.max_seconds - self.elapsed())

    def kernel_nodes(self, unlimited: int = 2**62) -> int:
        """The node limit as one integer for a compiled kernel (a huge number for None)."""
        return unlimited if self.max_expanded is None else self.max_expanded

    def why(self) -> str:
        """A sentence naming the limit that stopped the search."""
        parts = []
        if self.max_expanded is not None:
            parts.append(f"max_expanded={self.max_expanded}")
        if self.max_seconds is not None:
            parts.append(f"max_seconds={self.max_seconds:g}")
        return "budget reached (" + ", ".join(parts) + "); raise it to search further"


def budget(max_expanded: int | None = None, max_seconds: float | None = None) -> Budget:
    """A checked `Budget` (None = unlimited, 0 = stop at once)."""
    return Budget(max_expanded, max_seconds)


def as_budget(
    budget: Budget | None = None,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
) -> Budget:
    """The one `Budget` of a call: `budget` itself (its clock keeps running) or a new one.

    Entry points take ``budget=`` or the two limits; inner layers get the object. Giving
    both a `Budget` and limits is refused, since one of them would be ignored.
    """
    if budget is None:
        return Budget(max_expanded, max_seconds)
    if not isinstance(budget, Budget):
        raise PuzzleError(f"budget must be a puzzlelab.results.Budget, not {type(budget)}")
    if max_expanded is not None or max_seconds is not None:
        raise PuzzleError("give either budget= or max_expanded/max_seconds, not both")
    return budget
