"""Perfect hashing: the numba kernels against the obvious references, and bijectivity."""

from __future__ import annotations

import itertools
import math

import numpy as np
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.sliding import (
    is_solvable,
    solved_state,
)
from puzzlelab.sliding import ranking as rk


@examples(200)
@given(st.permutations(list(range(1, 12))))
def test_lexrank_matches_reference_and_unrank_inverts(perm):
    seq = np.array(perm + [0], dtype=np.int64)
    r, parity = rk.lexrank(seq, len(perm))
    assert r == rk.lexrank_py(perm)
    out = np.zeros(12, dtype=np.int64)
    assert rk.lexunrank(r, len(perm), out) == parity
    assert out[: len(perm)].tolist() == perm


@examples(100)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n - 1))))
def test_colex_rank_matches_reference(nk):
    n, k = nk
    for cells in itertools.islice(itertools.combinations(range(n), k), 50):
        board = np.ones(n, dtype=np.int64)
        board[list(cells)] = 0
        board[board != 0] = np.arange(1, n - k + 1)
        index = rk.rankk(board, n, k, np.zeros(n, dtype=np.int64))
        assert index // math.factorial(n - k) == rk.colex_rank_py(list(cells))


def all_indices_one_blank(shape, goal_blank):
    """Unrank every index of a one-blank board: (states, all solvable, all distinct)."""
    n = shape[0] * shape[1]
    half = math.factorial(n - 1) // 2
    want = rk.want_parity(shape, goal_blank)
    cells, seq = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    goal = solved_state(shape, goal_blank)
    states = set()
    for i in range(rk.n_indices(n, 1)):
        rk.unrank1(i, n, half, want, cells, seq)
        state = tuple(cells.tolist())
        assert rk.rank1(cells, n, half, seq) == i
        assert is_solvable(state, goal, shape)
        states.add(state)
    return states


def test_one_blank_hash_is_a_bijection_on_the_reachable_class():
    for shape, blank in [((2, 3), 5), ((2, 3), 1), ((3, 3), 4), ((2, 4), 0)]:
        n = shape[0] * shape[1]
        if n <= 8:
            assert len(all_indices_one_blank(shape, blank)) == math.factorial(n) // 2


def test_several_blanks_hash_is_a_bijection():
    n, k = 7, 3
    cells, seq = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    seen = set()
    for i in range(rk.n_indices(n, k)):
        rk.unrankk(i, n, k, cells, seq)
        assert rk.rankk(cells, n, k, seq) == i
        seen.add(tuple(cells.tolist()))
    assert len(seen) == math.factorial(7) // math.factorial(3)
