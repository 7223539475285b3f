"""Line solvers: enumeration (the write-up), the DP reference and the numba DP agree."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import TooLargeError
from puzzlelab.nonogram import (
    EMPTY,
    FILLED,
    UNKNOWN,
    arrangements,
    count_arrangements,
    line_clue,
    line_solve,
    line_solve_enumerate,
    line_solve_reference,
)


def test_count_arrangements_matches_enumeration():
    for clue, n in [((), 4), ((1,), 5), ((2, 1), 7), ((1, 1, 1), 9), ((3, 3), 6)]:
        arrs = list(arrangements(clue, n))
        assert len(arrs) == count_arrangements(clue, n)
        assert all(line_clue(a == FILLED) == clue for a in arrs)
        assert len({a.tobytes() for a in arrs}) == len(arrs)
    assert count_arrangements((5,), 4) == 0


def test_line_solver_textbook_cases():
    # the overlap rule: a 7 in 10 cells fixes the middle 4
    assert line_solve((7,), n=10).tolist() == [0, 0, 0, 1, 1, 1, 1, 0, 0, 0]
    assert line_solve((), n=3).tolist() == [EMPTY] * 3
    assert line_solve((3,), n=3).tolist() == [FILLED] * 3
    assert line_solve((1,), [FILLED, UNKNOWN, UNKNOWN]).tolist() == [1, -1, -1]
    assert line_solve((2,), [EMPTY, UNKNOWN, FILLED, EMPTY]).tolist() == [-1, 1, 1, -1]
    assert line_solve((2,), [EMPTY, FILLED, EMPTY, UNKNOWN]) is None
    assert line_solve((1, 1), [UNKNOWN, FILLED, UNKNOWN]) is None


lines = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(1, 4), max_size=4),
        st.lists(st.sampled_from([FILLED, EMPTY, UNKNOWN, UNKNOWN]), min_size=n, max_size=n),
    )
)


@examples(400)
@given(lines)
def test_dp_line_solver_agrees_with_enumeration(case):
    clue, cells = tuple(case[0]), np.array(case[1], dtype=np.int8)
    slow = line_solve_enumerate(clue, cells)
    ref = line_solve_reference(clue, cells)
    fast = line_solve(clue, cells)
    if slow is None:
        assert ref is None and fast is None
    else:
        assert np.array_equal(slow, ref) and np.array_equal(slow, fast)
        assert np.all(slow[cells != UNKNOWN] == cells[cells != UNKNOWN])


def test_enumeration_explodes():
    # a clue of ten 1s in 60 cells: C(51, 10) arrangements, too many to list
    with pytest.raises(TooLargeError, match="arrangements"):
        line_solve_enumerate((1,) * 10, n=60)
    assert line_solve((1,) * 10, n=60).tolist() == [UNKNOWN] * 60
