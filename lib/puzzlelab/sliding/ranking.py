"""Perfect hashing of sliding-puzzle states: every reachable state gets one index 0..N-1.

Tiles are first relabelled 1..m by their goal cell (so the goal's tile sequence is sorted).

* One blank (N = n!/2): a state is (blank cell b, the tiles read row-major skipping the
  blank). For a fixed b only one parity class of tile sequences is reachable, and the
  lexicographic ranks 2k and 2k+1 differ by swapping the last two tiles, which flips the
  parity. So index = b * (m!/2) + lexrank(seq) // 2 is a bijection onto the reachable states.
  A horizontal move keeps the sequence, so its index is found in O(1); a vertical move
  moves one tile past cols-1 others, which flips the parity when cols is even.
* k >= 2 blanks (N = n!/k!): index = colex rank of the blank cells * m! + lexrank(seq).

The numba kernels work on int8 cell arrays; `*_py` functions are the slow, obvious
references used in tests.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
from numba import njit

FACT = np.array([math.factorial(i) for i in range(21)], dtype=np.int64)
BINOM = np.array([[math.comb(n, k) for k in range(21)] for n in range(21)], dtype=np.int64)


POPCOUNT = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.int64)
# The values 1..15 packed as nibbles, value v in nibble v-1: the "unused" list of lexunrank.
PACKED = sum(v << (4 * (v - 1)) for v in range(1, 16))


@njit(cache=True)
def lexrank(seq: np.ndarray, m: int) -> tuple[int, int]:
    """(lexicographic rank, parity) of a permutation of 1..m (m <= 15) held in seq[:m]."""
    seen = 0
    rank = 0
    parity = 0
    for i in range(m):
        v = seq[i]
        d = v - 1 - POPCOUNT[seen & ((1 << v) - 1)]  # smaller values not used yet
        seen |= 1 << v
        rank += d * FACT[m - 1 - i]
        parity += d
    return rank, parity & 1


@njit(cache=True)
def lexunrank(rank: int, m: int, out: np.ndarray) -> int:
    """Write the permutation of 1..m with lexicographic rank `rank` into out[:m]; its parity.

    The unused values sit in one int as 4-bit nibbles, so taking the d-th one and closing the
    gap is two shifts instead of a scan.
    """
    avail = PACKED
    parity = 0
    for i in range(m):
        f = FACT[m - 1 - i]
        d = rank // f
        rank -= d * f
        parity += d
        shift = 4 * d
        out[i] = (avail >> shift) & 15
        low = avail & ((1 << shift) - 1)
        avail = low | ((avail >> (shift + 4)) << shift)
    return parity & 1


@njit(cache=True)
def rank1(cells: np.ndarray, n: int, half: int, seq: np.ndarray) -> int:
    """Index of a one-blank state given as cells (0 = blank, tiles 1..n-1)."""
    j = 0
    b = 0
    for i in range(n):
        if cells[i] == 0:
            b = i
        else:
            seq[j] = cells[i]
            j += 1
    r, _ = lexrank(seq, n - 1)
    return b * half + r // 2


@njit(cache=True)
def unrank1(index: int, n: int, half: int, want: np.ndarray, cells: np.ndarray, seq: np.ndarray):
    """Write the one-blank state with this index into cells; returns the blank cell."""
    b = index // half
    m = n - 1
    p = lexunrank(2 * (index % half), m, seq)
    if p != want[b]:
        seq[m - 2], seq[m - 1] = seq[m - 1], seq[m - 2]
    j = 0
    for i in range(n):
        if i == b:
            cells[i] = 0
        else:
            cells[i] = seq[j]
            j += 1
    return b


@njit(cache=True)
def rankk(cells: np.ndarray, n: int, k: int, seq: np.ndarray) -> int:
    """Index of a state with k >= 2 blanks: colex rank of blank cells * m! + lexrank(tiles)."""
    comb = 0
    kb = 0
    j = 0
    for i in range(n):
        if cells[i] == 0:
            kb += 1
            comb += BINOM[i, kb]
        else:
            seq[j] = cells[i]
            j += 1
    r, _ = lexrank(seq, n - k)
    return comb * FACT[n - k] + r


@njit(cache=True)
def unrankk(index: int, n: int, k: int, cells: np.ndarray, seq: np.ndarray) -> None:
    """Write the state with this index (k >= 2 blanks) into cells."""
    m = n - k
    comb = index // FACT[m]
    lexunrank(index % FACT[m], m, seq)
    for i in range(n):
        cells[i] = 1
    c = n - 1
    for kb in range(k, 0, -1):  # colex unranking: largest blank cell first
        while BINOM[c, kb] > comb:
            c -= 1
        cells[c] = 0
        comb -= BINOM[c, kb]
        c -= 1
    j = 0
    for i in range(n):
        if cells[i] != 0:
            cells[i] = seq[j]
            j += 1


def want_parity(shape: tuple[int, int], goal_blank: int) -> np.ndarray:
    """Parity of the reachable tile sequences for each blank cell (one-blank boards)."""
    rows, cols = shape
    g_row = goal_blank // cols
    return np.array(
        [((b // cols - g_row) * (cols - 1)) & 1 for b in range(rows * cols)], dtype=np.int64
    )


def n_indices(n: int, k: int) -> int:
    """Size of the index space: n!/2 for one blank, n!/k! for k >= 2 blanks."""
    return math.factorial(n) // (2 if k == 1 else math.factorial(k))


# ---------------------------------------------------------------- pure-Python references


def lexrank_py(seq: list[int]) -> int:
    """Lexicographic rank of a permutation of 1..m, the obvious way (reference for tests)."""
    rank = 0
    for i, v in enumerate(seq):
        smaller = sum(1 for w in seq[i + 1 :] if w < v)
        rank += smaller * math.factorial(len(seq) - 1 - i)
    return rank


def colex_rank_py(cells: list[int]) -> int:
    """Colex rank of a set of cells, by listing all sets of that size in colex order."""
    n_max = max(cells) + 1
    every = sorted(combinations(range(n_max), len(cells)), key=lambda c: tuple(reversed(c)))
    return every.index(tuple(sorted(cells)))
