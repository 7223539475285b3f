"""One result protocol for every study: each `solve` and `solve_writeup` on small puzzles.

Every entry point returns a `Result` whose verdict is in `VERDICTS`, whose `length` is None
exactly when there is no answer (or the steps are not moves), whose `stats()` has the same keys
in every study, whose `verify()` confirms its answers and never raises on junk, and which
honours one `Budget`: 0 stops at once (verdict ``limit``), and a Budget whose time is already
spent stops too (its clock is not restarted inside).
"""

from __future__ import annotations

import copy
import importlib
import inspect
import time
from dataclasses import dataclass
from typing import Any

import pytest

from puzzlelab.results import SOLVED, STATS_KEYS, VERDICTS, Budget, Result


@dataclass
class Case:
    """An entry point and the puzzles to try it on."""

    module: str
    name: str
    answerable: Any  # () -> arguments of a puzzle with an answer
    unsolvable: Any  # () -> arguments of a puzzle without one
    hard: Any  # () -> arguments of a puzzle that needs more than a few expansions
    proves_unsolvable: bool = True  # False for a method that may only say `limit`

    @property
    def id(self) -> str:
        return f"{self.module.removeprefix('puzzlelab.')}.{self.name}"

    def entry(self):
        """The entry point itself."""
        return getattr(importlib.import_module(self.module), self.name)


# ---------------------------------------------------------------------------- puzzles
# each returns the positional arguments of a call: (puzzle,) or, for sliding, (start, goal)

GOAL_8 = "1 2 3 / 4 5 6 / 7 8 _"


def sliding_easy():
    return "4 3 _ / 5 1 6 / 7 2 _", "1 2 3 / 4 5 6 / 7 _ _"  # the write-up's two-blank board


def sliding_parity():
    return "1 2 3 / 4 5 6 / 8 7 _", GOAL_8  # odd permutation: no answer


def sliding_hard():
    return "8 6 7 / 2 5 4 / 3 _ 1", GOAL_8  # 31 moves


def watersort_easy():
    from puzzlelab.watersort import Level

    return (Level.parse("BBA CBC CAA -"),)


def watersort_stuck():
    from puzzlelab.watersort import Level

    return (Level.parse("AB BA"),)  # full tubes, no empty one: no pour at all


def watersort_hard():
    from puzzlelab.watersort import Level

    return (Level.parse("RGBY YRGB BYRG GBYR - -"),)


def nonogram_easy():
    from puzzlelab.nonogram import Puzzle

    return (Puzzle([(1, 1), (1,)], [(1,), (1,), (1,)]),)


def nonogram_contradiction():
    from puzzlelab.nonogram import Puzzle

    return (Puzzle([(1, 1), ()], [(1,), (1,), ()]),)  # row 0 needs the empty column 2


def nonogram_hard():
    import numpy as np

    from puzzlelab.nonogram import from_grid

    return (from_grid(np.random.default_rng(4).random((8, 8)) < 0.5),)


SLIDING = (sliding_easy, sliding_parity, sliding_hard)
WATERSORT = (watersort_easy, watersort_stuck, watersort_hard)
NONOGRAM = (nonogram_easy, nonogram_contradiction, nonogram_hard)
CASES = [
    Case("puzzlelab.sliding.solve", "solve", *SLIDING),
    Case("puzzlelab.sliding.writeup", "solve_writeup", *SLIDING),
    Case("puzzlelab.watersort.solve", "solve", *WATERSORT),
    Case("puzzlelab.watersort.writeup", "solve_writeup", *WATERSORT, proves_unsolvable=False),
    Case("puzzlelab.nonogram.solve", "solve", *NONOGRAM),
    Case("puzzlelab.nonogram.writeup", "solve_writeup", *NONOGRAM, proves_unsolvable=False),
]


def call(fn, args: tuple, **options) -> Result:
    """`fn(*args, **options)` with progress bars off where the entry has them."""
    if "progress" in inspect.signature(fn).parameters:
        options["progress"] = False
    return fn(*args, **options)


def check_shape(result: Any, case: Case) -> None:
    """The protocol every result keeps, whatever the verdict."""
    assert isinstance(result, Result), f"{case.id} returned {type(result).__name__}"
    assert result.verdict in VERDICTS
    assert isinstance(result.moves, list) and isinstance(result.states, list)
    if result.verdict in SOLVED and result.HAS_MOVES:
        assert result.length == len(result.moves)
    else:
        assert result.length is None
    assert tuple(result.stats()) == STATS_KEYS
    assert isinstance(result.details(), dict)
    assert result.row() == {**result.stats(), **result.details()}


def spent_budget() -> Budget:
    """A budget whose time ran out before the call: only a clock started once sees it."""
    spent = Budget(max_seconds=0.05)
    time.sleep(0.1)
    return spent


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_every_solver_keeps_the_result_protocol(case):
    fn = case.entry()
    assert "budget" in inspect.signature(fn).parameters, f"{case.id} takes no budget="

    # an answer: verified, length as long as its moves
    answer = call(fn, case.answerable())
    check_shape(answer, case)
    assert answer.verdict in SOLVED, f"{case.id}: {answer.verdict} {answer.note}"
    assert answer.verify() is True

    # junk in place of the answer: verify() says False (or at least answers), never raises
    for junk in ([None], ["x", 1.5], [(-1, "up")], [[[[]]]]):
        bad = copy.copy(answer)
        bad.moves, bad.states = list(junk), list(junk)
        verdict = bad.verify()
        assert isinstance(verdict, bool)
        if answer.HAS_MOVES:
            assert verdict is False, f"{case.id} verified junk moves {junk}"

    # no answer: a verdict, not an exception; length None
    none = call(fn, case.unsolvable())
    check_shape(none, case)
    allowed = {"unsolvable", "limit"} if not case.proves_unsolvable else {"unsolvable"}
    assert none.verdict in allowed, f"{case.id}: {none.verdict} {none.note}"
    assert none.length is None and none.verify() is True

    # budgets: 0 stops at once; one Budget object, its clock started by the caller
    for budget in (Budget(max_expanded=0), Budget(max_seconds=0), spent_budget()):
        stopped = call(fn, case.hard(), budget=budget)
        check_shape(stopped, case)
        assert stopped.verdict == "limit", f"{case.id} with {budget}: {stopped.verdict}"
        assert stopped.length is None and stopped.verify() is True
