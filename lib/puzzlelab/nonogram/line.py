"""Line solvers: which cells of one row or column are forced, given its clue and known cells.

Three versions that must agree (tests check it):
* `line_solve_enumerate`: the write-up's method. List every arrangement of the blocks (the
  gaps are a composition of the free cells), drop those that clash with known cells, keep
  the cells on which all survivors agree. Exponential: `count_arrangements` shows how fast.
* `line_solve_reference`: dynamic programming in plain Python, O(n * k).
* `line_solve`: the same DP compiled with numba (`_solve_line` is the kernel used by the
  propagation, probing and search in `solver`).

The DP: fw[i, j] says the first i cells can hold exactly the first j blocks; bw[i, j] says
cells i.. can hold exactly blocks j..k-1. A cell can be empty if some split j has
fw[c, j] and bw[c + 1, j]; it can be filled if some block j can be placed over it with a
valid prefix on its left and a valid suffix on its right. Cells that can be only one of
the two are forced; a cell that can be neither means the line is contradictory. Every
arrangement consistent with the known cells is accounted for, so the solver is complete.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from itertools import combinations

import numpy as np
from numba import njit

from ..checks import integer
from ..errors import InvalidPuzzleError, TooLargeError
from .puzzle import EMPTY, FILLED, UNKNOWN, Clue, _normalise_clue, min_length

Line = np.ndarray  # int8 cells: FILLED = 1, EMPTY = -1, UNKNOWN = 0


MAX_DP_CELLS = 2 * 10**8  # (n + 1) x (k + 1) cells per DP table: 200 MB each, seconds of work
MAX_REFERENCE_CELLS = 10**7  # the same for the pure-Python reference (seconds, not hours)


def _line_length(n: object) -> int:
    """A line length: a whole number >= 0."""
    return integer(n, "n", minimum=0)


def count_arrangements(clue: Clue, n: int) -> int:
    """How many ways the blocks of `clue` fit in a line of n cells: C(free + k, k)."""
    clue = _normalise_clue(clue, "clue")
    free = _line_length(n) - min_length(clue)
    if free < 0:
        return 0
    return math.comb(free + len(clue), len(clue))


def arrangements(clue: Clue, n: int) -> Iterator[np.ndarray]:
    """Every arrangement of the clue's blocks in n cells, as int8 lines of FILLED/EMPTY."""
    clue = _normalise_clue(clue, "clue")
    n = _line_length(n)
    k = len(clue)
    free = n - min_length(clue)
    if free < 0:
        return
    # choose the k block positions among free + k slots (stars and bars)
    for slots in combinations(range(free + k), k):
        line = np.full(n, EMPTY, dtype=np.int8)
        pos = 0
        prev = -1
        for b, s in enumerate(slots):
            pos += s - prev - 1  # extra empties before this block
            line[pos : pos + clue[b]] = FILLED
            pos += clue[b] + 1
            prev = s
        yield line


def _as_line(line: Sequence | np.ndarray | None, n: int | None) -> np.ndarray:
    """Normalise a partial line (None = all unknown of length n)."""
    if line is None:
        if n is None:
            raise InvalidPuzzleError("give the line or its length n")
        return np.zeros(integer(n, "n", minimum=0, maximum=10**7), dtype=np.int8)
    try:
        arr = np.asarray(line)
    except (TypeError, ValueError) as exc:
        raise InvalidPuzzleError(f"a line must be 1-D with cells in {{1, -1, 0}}: {exc}") from exc
    if (
        arr.ndim != 1
        or arr.dtype.kind not in "biu"
        or np.any((arr != FILLED) & (arr != EMPTY) & (arr != UNKNOWN))
    ):
        raise InvalidPuzzleError(f"a line must be 1-D with cells in {{1, -1, 0}}, got {line!r}")
    if n is not None and integer(n, "n", minimum=0) != len(arr):
        raise InvalidPuzzleError(f"the line has {len(arr)} cells but n = {n}; give one of them")
    return arr.astype(np.int8)


def _memory_bytes() -> int | None:
    """The machine's physical memory in bytes (None when the OS does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _check_work(clue: Clue, n: int, bytes_per_cell: int, max_cells: int = MAX_DP_CELLS) -> None:
    """Refuse, before allocating, a line whose DP tables the machine cannot hold (or finish)."""
    cells = (n + 1) * (len(clue) + 1)
    need = cells * bytes_per_cell
    memory = _memory_bytes()
    if cells > max_cells or (memory is not None and need > memory // 4):
        raise TooLargeError(
            f"a line of {n:,} cells with {len(clue):,} blocks needs DP tables of {cells:,} "
            f"cells ({need / 2**30:.1f} GiB); the limit is {max_cells:,} cells and a "
            "quarter of this machine's memory: use a shorter line or fewer blocks"
        )


def line_solve_enumerate(
    clue: Clue, line: Sequence | np.ndarray | None = None, n: int | None = None, limit: int = 10**6
) -> np.ndarray | None:
    """The write-up's line logic: cells common to every arrangement that fits (None = none fit)."""
    cells = _as_line(line, n)
    clue = _normalise_clue(clue, "clue")
    limit = integer(limit, "limit", minimum=0)
    total = count_arrangements(clue, len(cells))
    if total > limit:
        raise TooLargeError(
            f"clue {clue} in {len(cells)} cells has {total:,} arrangements (limit {limit:,})"
        )
    known = cells != UNKNOWN
    can_fill = np.zeros(len(cells), dtype=bool)
    can_empty = np.zeros(len(cells), dtype=bool)
    fits = False
    for arr in arrangements(tuple(clue), len(cells)):
        if np.array_equal(arr[known], cells[known]):
            fits = True
            can_fill |= arr == FILLED
            can_empty |= arr == EMPTY
    if not fits:  # also a line of 0 cells that cannot hold the clue
        return None
    return _combine(can_fill, can_empty)


def _combine(can_fill: np.ndarray, can_empty: np.ndarray) -> np.ndarray:
    """FILLED where only filled is possible, EMPTY where only empty, else UNKNOWN."""
    out = np.zeros(len(can_fill), dtype=np.int8)
    out[can_fill & ~can_empty] = FILLED
    out[can_empty & ~can_fill] = EMPTY
    return out


def line_solve_reference(
    clue: Clue, line: Sequence | np.ndarray | None = None, n: int | None = None
) -> np.ndarray | None:
    """The complete line solver by DP in plain Python (None when no arrangement fits)."""
    arr = _as_line(line, n)
    clue = _normalise_clue(clue, "clue")
    _check_work(clue, len(arr), bytes_per_cell=16, max_cells=MAX_REFERENCE_CELLS)
    cells = [int(v) for v in arr]
    n, k = len(cells), len(clue)
    can_e = [c != FILLED for c in cells]
    empties = [0]
    for c in cells:
        empties.append(empties[-1] + (c == EMPTY))

    def fits(s: int, e: int) -> bool:  # cells s..e-1 can all be filled
        return 0 <= s and e <= n and empties[e] == empties[s]

    fw = [[False] * (k + 1) for _ in range(n + 1)]
    fw[0][0] = True
    for i in range(1, n + 1):
        for j in range(k + 1):
            ok = can_e[i - 1] and fw[i - 1][j]
            if not ok and j > 0:
                s = i - clue[j - 1]
                if fits(s, i):
                    ok = fw[s][0] if j == 1 else (s >= 1 and can_e[s - 1] and fw[s - 1][j - 1])
            fw[i][j] = ok
    bw = [[False] * (k + 1) for _ in range(n + 1)]
    bw[n][k] = True
    for i in range(n - 1, -1, -1):
        for j in range(k, -1, -1):
            ok = can_e[i] and bw[i + 1][j]
            if not ok and j < k:
                e = i + clue[j]
                if fits(i, e):
                    ok = bw[e][k] if j == k - 1 else (e < n and can_e[e] and bw[e + 1][j + 1])
            bw[i][j] = ok
    if not fw[n][k]:
        return None
    can_fill = np.zeros(n, dtype=bool)
    can_empty = np.zeros(n, dtype=bool)
    for c in range(n):
        can_empty[c] = can_e[c] and any(fw[c][j] and bw[c + 1][j] for j in range(k + 1))
    for j, length in enumerate(clue):
        for s in range(n - length + 1):
            e = s + length
            if not fits(s, e):
                continue
            left = fw[s][0] if j == 0 else (s >= 1 and can_e[s - 1] and fw[s - 1][j])
            right = bw[e][k] if j == k - 1 else (e < n and can_e[e] and bw[e + 1][j + 1])
            if left and right:
                can_fill[s:e] = True
    return _combine(can_fill, can_empty)


@njit(cache=True)
def _solve_line(cells, clue, out, fw, bw) -> int:
    """DP kernel: write the forced line into out; return #cells newly fixed, or -1 if none fit.

    cells: int8[n] (1/-1/0); clue: int64[k]; fw, bw: uint8 work arrays of at least
    (n + 1, k + 1).
    """
    n = cells.shape[0]
    k = clue.shape[0]
    empties = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        empties[i + 1] = empties[i] + (1 if cells[i] == -1 else 0)
    for i in range(n + 1):
        for j in range(k + 1):
            fw[i, j] = 0
            bw[i, j] = 0
    fw[0, 0] = 1
    for i in range(1, n + 1):
        ce = cells[i - 1] != 1
        for j in range(k + 1):
            ok = ce and fw[i - 1, j] == 1
            if not ok and j > 0:
                s = i - clue[j - 1]
                if s >= 0 and empties[i] == empties[s]:
                    if j == 1:
                        ok = fw[s, 0] == 1
                    else:
                        ok = s >= 1 and cells[s - 1] != 1 and fw[s - 1, j - 1] == 1
            fw[i, j] = 1 if ok else 0
    if fw[n, k] == 0:
        return -1
    bw[n, k] = 1
    for i in range(n - 1, -1, -1):
        ce = cells[i] != 1
        for j in range(k, -1, -1):
            ok = ce and bw[i + 1, j] == 1
            if not ok and j < k:
                e = i + clue[j]
                if e <= n and empties[e] == empties[i]:
                    if j == k - 1:
                        ok = bw[e, k] == 1
                    else:
                        ok = e < n and cells[e] != 1 and bw[e + 1, j + 1] == 1
            bw[i, j] = 1 if ok else 0
    cover = np.zeros(n + 1, dtype=np.int64)  # difference array of "can be filled"
    for j in range(k):
        length = clue[j]
        for s in range(n - length + 1):
            e = s + length
            if empties[e] != empties[s]:
                continue
            if j == 0:
                left = fw[s, 0] == 1
            else:
                left = s >= 1 and cells[s - 1] != 1 and fw[s - 1, j] == 1
            if not left:
                continue
            if j == k - 1:
                right = bw[e, k] == 1
            else:
                right = e < n and cells[e] != 1 and bw[e + 1, j + 1] == 1
            if right:
                cover[s] += 1
                cover[e] -= 1
    changed = 0
    run = 0
    for c in range(n):
        run += cover[c]
        can_fill = run > 0
        can_empty = False
        if cells[c] != 1:
            for j in range(k + 1):
                if fw[c, j] == 1 and bw[c + 1, j] == 1:
                    can_empty = True
                    break
        if can_fill and not can_empty:
            out[c] = 1
        elif can_empty and not can_fill:
            out[c] = -1
        elif can_fill and can_empty:
            out[c] = 0
        else:
            return -1
        if out[c] != cells[c]:
            changed += 1
    return changed


def line_solve(
    clue: Clue, line: Sequence | np.ndarray | None = None, n: int | None = None
) -> np.ndarray | None:
    """The complete line solver (numba DP): the forced line, or None when no arrangement fits."""
    cells = _as_line(line, n)
    clue = _normalise_clue(clue, "clue")
    if min_length(clue) > len(cells):
        return None
    _check_work(clue, len(cells), bytes_per_cell=2)
    c = np.asarray(clue, dtype=np.int64).reshape(-1)
    size = (len(cells) + 1, len(c) + 1)
    out = np.zeros(len(cells), dtype=np.int8)
    fw = np.zeros(size, dtype=np.uint8)
    bw = np.zeros(size, dtype=np.uint8)
    if _solve_line(cells, c, out, fw, bw) < 0:
        return None
    return out
