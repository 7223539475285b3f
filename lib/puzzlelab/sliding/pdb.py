"""Additive disjoint pattern databases and a numba IDA* that searches with them.

A pattern is a set of tiles. Its database stores, for every placement of those tiles on
the board, the fewest moves *of pattern tiles* needed to bring them home, found by a
0-1 breadth-first search from the goal over (pattern placement, blank cell): a blank step
into a cell of a non-pattern tile costs 0, sliding a pattern tile costs 1. Every move
slides exactly one tile, so for disjoint patterns the values add up and the sum is still
a lower bound (Korf & Felner 2002). Storing the minimum over blank cells keeps one byte
per placement: a 6-tile pattern on 16 cells has 16!/10! = 5,765,760 entries.

Reflecting the board about its main diagonal (and relabelling tiles so that the goal maps
onto itself) turns every solution into a solution of the reflected board, so the same
databases give a second lower bound; the heuristic uses the larger of the two.

`PatternDatabase.h` is the slow, obvious Python lookup; `_ida_search` is the numba IDA*
that updates only the pattern of the tile that moved (tested against the Python lookup).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit, objmode

from .. import cache as cachefile
from ..checks import integer
from ..errors import CacheError, InvalidPuzzleError, PuzzleError, TooLargeError
from ..results import Budget, Result, as_budget
from .board import (
    DIRECTIONS,
    Move,
    Shape,
    State,
    check_same_tiles,
    check_shape,
    read_board,
    solvable_checked,
    to_text,
)

PDB_VERSION = 2  # 2: puzzlelab.cache files (size, SHA-256, version and key checked on read)
PDB_KIND = "sliding-pattern-database"
UNSEEN = 255
Pattern = tuple[int, ...]  # tiles of one pattern, in the goal's labels

# Patterns for the 15-puzzle with the blank top-left (Korf's goal 0 1 ... 15), by goal cell.
# The 6-6-3 split keeps each pattern compact (two left columns, two middle columns, the
# bottom-right corner); 5-5-5 is small enough for quick tests.
CELL_PARTITIONS_4X4 = {
    "6-6-3": ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15)),
    "5-5-5": ((1, 4, 5, 8, 9), (2, 3, 6, 7, 10), (11, 12, 13, 14, 15)),
    "7-7-1": ((1, 4, 5, 8, 9, 12, 13), (2, 3, 6, 7, 10, 11, 14), (15,)),
    "7-8": ((1, 4, 5, 8, 9, 12, 13), (2, 3, 6, 7, 10, 11, 14, 15)),
}
# Korf & Felner's 6-6-6-6 split of the 24-puzzle (blank top-left): the irregular group around
# the blank and three 2x3 blocks; the reflected lookup reuses the same four tables.
CELL_PARTITIONS_5X5 = {
    "6-6-6-6": (
        (1, 2, 5, 6, 7, 12),
        (3, 4, 8, 9, 13, 14),
        (10, 11, 15, 16, 20, 21),
        (17, 18, 19, 22, 23, 24),
    ),
}
CELL_PARTITIONS = {(4, 4): CELL_PARTITIONS_4X4, (5, 5): CELL_PARTITIONS_5X5}
MAX_BUILD_STATES = 1_500_000_000  # bytes of the (placement, blank) BFS array we allow
# (a 7-tile pattern needs 16!/9! * 16 = 922 MB; an 8-tile one 8.3 GB, so 7-8 is refused)


# --------------------------------------------------------------------------- ranking


def placements(n: int, k: int) -> int:
    """How many ways k distinct tiles can sit on n cells: n!/(n-k)!."""
    return math.perm(n, k)


def multipliers(n: int, k: int) -> np.ndarray:
    """Mixed-radix weights of the k-permutation rank: (n-1-i)!/(n-k)! for i < k."""
    return np.array([math.perm(n - 1 - i, k - 1 - i) for i in range(k)], dtype=np.int64)


def rank_placement_py(cells: Sequence[int], n: int) -> int:
    """Rank of distinct cells (one per pattern tile, in pattern order): the obvious way."""
    k = len(cells)
    rank = 0
    free = list(range(n))
    for i, c in enumerate(cells):
        rank += free.index(c) * math.perm(n - 1 - i, k - 1 - i)
        free.remove(c)
    return rank


@njit(cache=True)
def _rank(pos, k, mult):
    """Rank of pos[:k] (distinct cells): digit i counts the free cells below pos[i]."""
    r = 0
    for i in range(k):
        p = pos[i]
        less = 0
        for j in range(i):
            if pos[j] < p:
                less += 1
        r += (p - less) * mult[i]
    return r


@njit(cache=True)
def _unrank(r, k, mult, pos):
    """Write the placement with rank r into pos[:k]."""
    used = 0
    for i in range(k):
        d = r // mult[i]
        r -= d * mult[i]
        c = -1
        seen = -1
        while seen < d:
            c += 1
            if not (used >> c) & 1:
                seen += 1
        used |= 1 << c
        pos[i] = c


@njit(cache=True)
def _neighbor_cells(rows, cols):
    """nbr[c] = the cells next to c (up, down, left, right), -1 off the board."""
    n = rows * cols
    nbr = np.full((n, 4), -1, dtype=np.int64)
    for c in range(n):
        r, q = c // cols, c % cols
        if r > 0:
            nbr[c, 0] = c - cols
        if r < rows - 1:
            nbr[c, 1] = c + cols
        if q > 0:
            nbr[c, 2] = c - 1
        if q < cols - 1:
            nbr[c, 3] = c + 1
    return nbr


# ------------------------------------------------------------------------------ build


@njit(cache=True)
def _grow(a, size):
    """A copy of `a` with room for at least `size` entries."""
    b = np.empty(max(size, 2 * a.shape[0]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True)
def _bfs_level(dist, cur, ncur, depth, k, n, mult, nbr):
    """Close level `depth` (0-cost blank steps), collect level depth+1: (next level, count).

    `dist` is indexed by placement_rank * n + blank cell.
    """
    nxt = np.empty(max(1024, ncur), dtype=np.int32)
    nn = 0
    pos = np.empty(k, dtype=np.int64)
    occ = np.full(n, -1, dtype=np.int64)
    i = 0
    done = 0
    while i < ncur:
        s = cur[i]
        i += 1
        if dist[s] != depth:
            continue
        done += 1
        pr = s // n
        b = s - pr * n
        _unrank(pr, k, mult, pos)
        for j in range(k):
            occ[pos[j]] = j
        for d in range(4):
            c = nbr[b, d]
            if c < 0:
                continue
            slot = occ[c]
            if slot < 0:  # the blank swaps with a non-pattern tile: free
                t = pr * n + c
                if dist[t] > depth:
                    dist[t] = depth
                    if ncur == cur.shape[0]:
                        cur = _grow(cur, ncur + 1)
                    cur[ncur] = t
                    ncur += 1
            else:  # a pattern tile slides into the blank: one move
                pos[slot] = b
                t = _rank(pos, k, mult) * n + c
                pos[slot] = c
                if dist[t] == 255:
                    dist[t] = depth + 1
                    if nn == nxt.shape[0]:
                        nxt = _grow(nxt, nn + 1)
                    nxt[nn] = t
                    nn += 1
        for j in range(k):
            occ[pos[j]] = -1
    return nxt[:nn], done


@njit(cache=True)
def _min_over_blank(dist, size, n):
    """h[placement] = min over blank cells of dist[placement * n + blank]."""
    out = np.empty(size, dtype=np.uint8)
    for p in range(size):
        m = 255
        for b in range(n):
            v = dist[p * n + b]
            if v < m:
                m = v
        out[p] = m
    return out


def build_pattern_table(
    shape: Shape, goal: State, pattern: Pattern, progress: bool = False
) -> np.ndarray:
    """The database of one pattern: uint8 per placement, by 0-1 BFS from the goal."""
    from tqdm import tqdm

    rows, cols = shape
    n, k = rows * cols, len(pattern)
    size = placements(n, k)
    if size * n > MAX_BUILD_STATES:
        raise TooLargeError(
            f"a {k}-tile pattern on {n} cells needs a {size * n:,}-byte search array; "
            f"the limit is {MAX_BUILD_STATES:,} (use patterns of at most 7 tiles on 4x4 here, "
            "or compact_database for 7-8: 4 bits per placement)"
        )
    mult = multipliers(n, k)
    nbr = _neighbor_cells(rows, cols)
    goal_pos = np.array([goal.index(t) for t in pattern], dtype=np.int64)
    dist = np.full(size * n, UNSEEN, dtype=np.uint8)
    start = int(_rank(goal_pos, k, mult)) * n + goal.index(0)
    dist[start] = 0
    cur = np.array([start], dtype=np.int32)  # queues of int32 indices (< 2**31 states)
    name = "-".join(map(str, pattern))
    bar = tqdm(total=size * (n - k), disable=not progress, desc=f"PDB {name}", unit="state")
    depth = 0
    while cur.shape[0]:
        cur, done = _bfs_level(dist, cur, cur.shape[0], depth, k, n, mult, nbr)
        bar.update(int(done))
        bar.set_postfix(depth=depth, refresh=False)
        depth += 1
    bar.close()
    return _min_over_blank(dist, size, n)


# ----------------------------------------------------------------------------- database


def default_patterns(shape: Shape, goal: State, partition: str = "6-6-3") -> list[Pattern]:
    """Disjoint patterns covering every tile: the named 4x4 split or row-major chunks."""
    n = shape[0] * shape[1]
    blank = goal.index(0)
    named = CELL_PARTITIONS.get(tuple(shape), {})
    if partition in named and blank in (0, n - 1):
        cells = named[partition]
        if blank == n - 1:  # the same split turned half a turn
            cells = tuple(tuple(n - 1 - c for c in group) for group in cells)
        return [tuple(goal[c] for c in group) for group in cells]
    if not isinstance(partition, str) or not re.fullmatch(r"[1-9][0-9]*(-[1-9][0-9]*)*", partition):
        raise InvalidPuzzleError(f"partition {partition!r} is not like '6-6-3' (sizes >= 1)")
    sizes = [int(s) for s in partition.split("-")]
    if sum(sizes) != n - 1:
        raise InvalidPuzzleError(
            f"partition {partition} covers {sum(sizes)} tiles but the board has {n - 1}"
        )
    tiles = [t for t in goal if t]
    out, i = [], 0
    for s in sizes:
        out.append(tuple(tiles[i : i + s]))
        i += s
    return out


def reflection(shape: Shape, goal: State) -> tuple[np.ndarray, np.ndarray] | None:
    """(cell map, tile map) of the reflection about the main diagonal, or None if unusable.

    Usable on square boards with one blank on the diagonal: the tile relabelling
    t -> goal[reflected goal cell of t] maps the goal onto itself and moves onto moves.
    """
    rows, cols = shape
    if rows != cols or goal.count(0) != 1:
        return None
    b = goal.index(0)
    if b // cols != b % cols:
        return None
    rcell = np.array([(c % cols) * cols + c // cols for c in range(rows * cols)], dtype=np.int64)
    rtile = np.zeros(rows * cols, dtype=np.int64)
    for c, t in enumerate(goal):
        rtile[t] = goal[rcell[c]]
    return rcell, rtile


def reflect(state: State, shape: Shape, goal: State) -> State:
    """The board reflected about its main diagonal with tiles relabelled (same distance).

    Tile t at cell c goes to the reflected cell and takes the label of the goal tile at the
    reflection of t's goal cell, so the goal maps onto itself (any tile labels).
    """
    rows, cols = shape
    b = goal.index(0) if 0 in goal else -1
    if rows != cols or goal.count(0) != 1 or b // cols != b % cols:
        raise InvalidPuzzleError(
            "reflection needs a square board with the goal blank on the diagonal"
        )
    rcell = [(c % cols) * cols + c // cols for c in range(rows * cols)]
    home = {t: i for i, t in enumerate(goal)}
    out = [0] * len(state)
    for c, t in enumerate(state):
        out[rcell[c]] = goal[rcell[home[t]]]
    return tuple(out)


def pdb_path(shape: Shape, goal: State, pattern: Pattern) -> Path | None:
    """The cache file of one pattern database (versioned name); None if the cache is unusable."""
    key = json.dumps({"goal": list(goal), "pattern": list(pattern)})  # labels may be huge:
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]  # the name is a hash of them
    name = f"pdb-v{PDB_VERSION}-{shape[0]}x{shape[1]}-{digest}.bin"
    return cachefile.cache_file("pdb", name)


@dataclass
class PatternDatabase:
    """Additive disjoint pattern databases for one board and goal (optionally reflected).

    Tile labels are free (the game's keypad numbering, labels 10..80, ...): the lookups and
    the numba kernel work on internal labels 1..n-1 given by the goal's reading order.

    Parameters
    ----------
    shape : (rows, cols)
    goal : tuple of int
        The goal board (row-major, one blank 0), in the user's labels.
    patterns : list of tuple of int
        Disjoint tile groups covering every tile (user labels).
    tables : list of numpy.ndarray of uint8
        Per pattern, the moves of its tiles needed from each placement (k-permutation rank).
    seconds : float
        Build or load time.
    reflected : bool
        Also look up the board reflected about the main diagonal (square boards with the
        blank home on the diagonal) and take the larger sum.
    """

    shape: Shape
    goal: State
    patterns: list[Pattern]
    tables: list[np.ndarray] = field(repr=False)
    seconds: float = 0.0  # build (or load) time
    reflected: bool = True

    def __post_init__(self) -> None:
        """Internal labels, multipliers and the reflection maps."""
        n = len(self.goal)
        tiles = [t for t in self.goal if t]
        self._code = {0: 0, **{t: i + 1 for i, t in enumerate(tiles)}}
        self._labels = np.array(sorted(self._code), dtype=np.int64)
        self._codes = np.array([self._code[t] for t in self._labels], dtype=np.int64)
        self._igoal = tuple(self._code[t] for t in self.goal)
        self._ipatterns = [tuple(self._code[t] for t in p) for p in self.patterns]
        self._mults = [multipliers(n, len(p)) for p in self.patterns]
        self._refl = reflection(self.shape, self._igoal) if self.reflected else None

    @property
    def name(self) -> str:
        """The partition as sizes, e.g. '6-6-3'."""
        return "-".join(str(len(p)) for p in self.patterns)

    @property
    def n_entries(self) -> int:
        """Total entries (bytes) over all patterns."""
        return int(sum(t.size for t in self.tables))

    def internal(self, state: State) -> State:
        """The board in internal labels 1..n-1 (`InvalidPuzzleError` if its tiles differ)."""
        check_same_tiles(tuple(state), self.goal)
        return tuple(self._code[t] for t in state)

    def internal_many(self, boards: np.ndarray) -> np.ndarray:
        """Rows of boards in internal labels (`InvalidPuzzleError` for a foreign tile)."""
        boards = np.asarray(boards, dtype=np.int64)
        at = np.clip(np.searchsorted(self._labels, boards), 0, len(self._labels) - 1)
        if boards.ndim != 2 or boards.shape[1] != len(self.goal):
            raise InvalidPuzzleError(f"boards must be rows of {len(self.goal)} tiles")
        if not np.array_equal(self._labels[at], boards):
            raise InvalidPuzzleError("the boards hold tiles that are not in the goal")
        return np.ascontiguousarray(self._codes[at])

    def _values(self, cells: State) -> list[int]:
        """One database value per pattern for a board in internal labels."""
        n = len(cells)
        where = {t: i for i, t in enumerate(cells)}
        return [
            int(table[rank_placement_py([where[t] for t in pat], n)])
            for pat, table in zip(self._ipatterns, self.tables, strict=True)
        ]

    def pattern_values(self, state: State) -> list[int]:
        """One database value per pattern for `state` (no reflection)."""
        return self._values(self.internal(state))

    def h(self, state: State) -> int:
        """The heuristic: sum over patterns, max with the reflected board's sum."""
        cells = self.internal(state)
        value = sum(self._values(cells))
        if self._refl is not None:
            rcell, rtile = self._refl
            mirrored = [0] * len(cells)
            for c, t in enumerate(cells):
                mirrored[rcell[c]] = int(rtile[t])
            value = max(value, sum(self._values(tuple(mirrored))))
        return value

    def kernel_args(self) -> tuple:
        """The arrays the numba search needs (concatenated tables and pattern layout)."""
        n = len(self.goal)
        kmax = max(len(p) for p in self.patterns)
        n_pat = len(self.patterns)
        pat_tiles = np.zeros((n_pat, kmax), dtype=np.int64)
        pat_k = np.array([len(p) for p in self.patterns], dtype=np.int64)
        mults = np.zeros((n_pat, kmax), dtype=np.int64)
        offsets = np.zeros(n_pat, dtype=np.int64)
        pat_of = np.full(n, -1, dtype=np.int64)
        off = 0
        for i, p in enumerate(self._ipatterns):
            pat_tiles[i, : len(p)] = p
            mults[i, : len(p)] = self._mults[i]
            offsets[i] = off
            off += self.tables[i].size
            for t in p:
                pat_of[t] = i
        tables = np.concatenate(self.tables)
        if self._refl is None:
            rcell, rtile, use_refl = np.arange(n), np.arange(n), False
        else:
            (rcell, rtile), use_refl = self._refl, True
        return tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile, use_refl


def _check_patterns(goal: State, patterns: object) -> list[Pattern]:
    """Patterns must be disjoint groups of whole-number tiles covering the goal's tiles once."""
    if isinstance(patterns, str | bytes) or not isinstance(patterns, Sequence):
        raise InvalidPuzzleError(
            f"patterns must be a partition name or tile groups, not {patterns!r}"
        )
    groups = []
    for group in patterns:
        if (
            isinstance(group, str | bytes)
            or not isinstance(group, Sequence | np.ndarray)
            or not len(group)
        ):
            raise InvalidPuzzleError(f"pattern {group!r} is not a non-empty group of tiles")
        try:
            groups.append(tuple(integer(t, "pattern tile") for t in group))
        except PuzzleError as exc:
            raise InvalidPuzzleError(str(exc)) from None
    tiles = sorted(t for t in goal if t)
    if sorted(t for g in groups for t in g) != tiles:
        raise InvalidPuzzleError(
            f"patterns {groups} must split the tiles {tiles} into disjoint groups"
        )
    return groups


def _database_inputs(shape, goal, patterns, cache, progress, reflected) -> tuple:
    """(shape, goal, patterns) of a database request, checked (PuzzleError otherwise)."""
    shape = check_shape(shape)
    goal = read_board(goal, shape)[0]
    if goal.count(0) != 1:
        raise InvalidPuzzleError("pattern databases need a goal with exactly one blank")
    if len(goal) < 3:
        raise InvalidPuzzleError("pattern databases need a board of at least 3 cells")
    for name, flag in (("cache", cache), ("progress", progress), ("reflected", reflected)):
        if not isinstance(flag, bool | np.bool_):
            raise InvalidPuzzleError(f"{name} must be True or False, not {flag!r}")
    if isinstance(patterns, str):
        patterns = default_patterns(shape, goal, patterns)
    patterns = _check_patterns(goal, patterns)
    return shape, goal, patterns


def pattern_database(
    shape: Shape,
    goal: State | str,
    patterns: str | Sequence[Pattern] = "6-6-3",
    *,
    cache: bool = True,
    progress: bool = True,
    reflected: bool = True,
) -> PatternDatabase:
    """Load (or build and cache) the additive databases of `patterns` for this goal.

    Parameters
    ----------
    shape : (rows, cols)
        The board's shape.
    goal : tuple of int or str
        The goal in any form `read_board` reads: row-major, exactly one blank (0), any
        distinct tile labels.
    patterns : str or sequence of tuple of int
        A partition name ('6-6-3', '5-5-5', '7-7-1' on 4x4, or sizes such as '4-4'
        elsewhere, taken in the goal's reading order) or explicit disjoint tile groups.
    cache : bool
        Keep each table under cache/pdb. Every read is verified (size, SHA-256, version,
        board, goal and pattern); a bad file is rebuilt. Best effort: an unusable cache
        folder gives one warning.
    progress : bool
        A progress bar per pattern while building.
    reflected : bool
        Use the reflected lookup where the board allows it.

    Returns
    -------
    PatternDatabase
        One uint8 table per pattern, indexed by the k-permutation rank of the cells of the
        pattern's tiles (in pattern order).

    Raises
    ------
    InvalidPuzzleError, ParseError
        A malformed shape, goal or partition, or a goal without exactly one blank.
    TooLargeError
        A pattern too large to build (8+ tiles on 4x4).
    """
    shape, goal, patterns = _database_inputs(shape, goal, patterns, cache, progress, reflected)
    t0 = time.perf_counter()
    tables = [_pattern_table(shape, goal, pat, bool(cache), bool(progress)) for pat in patterns]
    return PatternDatabase(shape, goal, patterns, tables, time.perf_counter() - t0, bool(reflected))


def _pattern_table(shape: Shape, goal: State, pat: Pattern, cache: bool, progress: bool):
    """One pattern's table: read verified from the cache, else built (and cached)."""
    if not cache:
        return build_pattern_table(shape, goal, pat, progress=progress)
    key = {"shape": list(shape), "goal": list(goal), "pattern": list(pat)}
    path = pdb_path(shape, goal, pat)
    if path is not None and path.exists():
        try:
            table, _ = cachefile.load_array(path, PDB_KIND, PDB_VERSION, key)
            if table.dtype != np.uint8 or table.shape != (placements(len(goal), len(pat)),):
                raise CacheError(f"{path} holds an array of the wrong size or type")
            return table
        except CacheError as exc:
            cachefile.warn_once(f"{exc}; rebuilding it")
    table = build_pattern_table(shape, goal, pat, progress=progress)
    cachefile.save_array(path, PDB_KIND, PDB_VERSION, key, table)
    return table


def manhattan_database(shape: Shape, goal: State) -> PatternDatabase:
    """Manhattan distance as a database of one-tile patterns (built in milliseconds)."""
    pats = [(t,) for t in goal if t]
    tables = [build_pattern_table(shape, goal, p) for p in pats]
    return PatternDatabase(shape, goal, pats, tables, 0.0, reflected=False)


# ------------------------------------------------------------------------------ IDA*


@njit(cache=True)
def _lookup(pos, p, tables, offsets, pat_tiles, pat_k, mults, tmp):
    """Database value of pattern p for tile positions `pos`."""
    k = pat_k[p]
    for i in range(k):
        tmp[i] = pos[pat_tiles[p, i]]
    return tables[offsets[p] + _rank(tmp, k, mults[p])]


@njit(cache=True)
def _h_values(cells, tables, offsets, pat_tiles, pat_k, mults, rcell, rtile, use_refl):
    """(sum over patterns, reflected sum) for a board; the kernel's view of h."""
    n = cells.shape[0]
    pos = np.empty(n, dtype=np.int64)
    rpos = np.empty(n, dtype=np.int64)
    tmp = np.empty(n, dtype=np.int64)
    for c in range(n):
        pos[cells[c]] = c
        rpos[rtile[cells[c]]] = rcell[c]
    hn = 0
    hr = 0
    for p in range(pat_k.shape[0]):
        hn += _lookup(pos, p, tables, offsets, pat_tiles, pat_k, mults, tmp)
        if use_refl:
            hr += _lookup(rpos, p, tables, offsets, pat_tiles, pat_k, mults, tmp)
    return hn, hr


_DEEP = -1  # kernel status: no solution within max_depth
_BUDGET = -2  # kernel status: node limit or deadline reached
NO_DEADLINE = 1e300


@njit(cache=True)
def _late(expanded, deadline):
    """Every 65,536 expansions: has the perf_counter clock passed `deadline`?"""
    if deadline >= NO_DEADLINE or (expanded & 0xFFFF) != 0:
        return False
    with objmode(now="float64"):
        now = time.perf_counter()
    return now >= deadline


@njit(cache=True)
def _ida_search(
    cells0,
    rows,
    cols,
    tables,
    offsets,
    pat_of,
    pat_tiles,
    pat_k,
    mults,
    rcell,
    rtile,
    use_refl,
    max_depth,
    node_limit,
    deadline,
):
    """IDA* from cells0 (one blank, internal labels) to the goal the databases describe.

    Returns (status, blank cells along the path, expanded, generated, iterations); status
    is the length found, `_DEEP` when no solution is within max_depth or `_BUDGET` when
    `node_limit` expansions were made or `deadline` (a perf_counter time) passed. Only the
    pattern of the moved tile is looked up again after a move (and its reflected twin); the
    goal is the board whose pattern sum is 0.
    """
    n = rows * cols
    n_pat = pat_k.shape[0]
    nbr = _neighbor_cells(rows, cols)
    cells = cells0.copy()
    pos = np.empty(n, dtype=np.int64)
    rpos = np.empty(n, dtype=np.int64)
    tmp = np.empty(n, dtype=np.int64)
    blank0 = 0
    for c in range(n):
        pos[cells[c]] = c
        rpos[rtile[cells[c]]] = rcell[c]
        if cells[c] == 0:
            blank0 = c
    hn = np.zeros(n_pat, dtype=np.int64)
    hr = np.zeros(n_pat, dtype=np.int64)
    for p in range(n_pat):
        hn[p] = _lookup(pos, p, tables, offsets, pat_tiles, pat_k, mults, tmp)
        if use_refl:
            hr[p] = _lookup(rpos, p, tables, offsets, pat_tiles, pat_k, mults, tmp)
    sn = hn.sum()
    sr = hr.sum()
    path = np.empty(max_depth + 2, dtype=np.int64)
    path[0] = blank0
    expanded = 0
    generated = 0
    iterations = 0
    if sn == 0:
        return 0, path[:1], expanded, generated, iterations
    bound = max(sn, sr)
    # per-depth stacks: next direction to try, and what to restore on undo
    dir_at = np.zeros(max_depth + 2, dtype=np.int64)
    s_p = np.zeros(max_depth + 2, dtype=np.int64)
    s_rp = np.zeros(max_depth + 2, dtype=np.int64)
    s_hn = np.zeros(max_depth + 2, dtype=np.int64)
    s_hr = np.zeros(max_depth + 2, dtype=np.int64)
    rt = 0
    rp = 0
    while bound <= max_depth:
        iterations += 1
        next_bound = 1 << 30
        depth = 0
        dir_at[0] = 0
        if expanded >= node_limit or _late(expanded, deadline):
            return _BUDGET, path[:1], expanded, generated, iterations
        expanded += 1
        while depth >= 0:
            if dir_at[depth] == 4:  # children done: undo the move that led here
                if depth == 0:
                    break
                depth -= 1
                b = path[depth]  # the moved tile sits here now
                c = path[depth + 1]  # and came from here, where the blank is
                t = cells[b]
                cells[c] = t
                cells[b] = 0
                pos[t] = c
                p = s_p[depth]
                sn += s_hn[depth] - hn[p]
                hn[p] = s_hn[depth]
                if use_refl:
                    rt = rtile[t]
                    rpos[rt] = rcell[c]
                    rp = s_rp[depth]
                    sr += s_hr[depth] - hr[rp]
                    hr[rp] = s_hr[depth]
                continue
            d = dir_at[depth]
            dir_at[depth] += 1
            b = path[depth]
            c = nbr[b, d]
            if c < 0 or (depth > 0 and c == path[depth - 1]):
                continue
            # the tile at c slides into the blank at b
            t = cells[c]
            cells[b] = t
            cells[c] = 0
            pos[t] = b
            generated += 1
            p = pat_of[t]
            s_p[depth] = p
            s_hn[depth] = hn[p]
            v = _lookup(pos, p, tables, offsets, pat_tiles, pat_k, mults, tmp)
            sn += v - hn[p]
            hn[p] = v
            if use_refl:
                rt = rtile[t]
                rpos[rt] = rcell[b]
                rp = pat_of[rt]
                s_rp[depth] = rp
                s_hr[depth] = hr[rp]
                v = _lookup(rpos, rp, tables, offsets, pat_tiles, pat_k, mults, tmp)
                sr += v - hr[rp]
                hr[rp] = v
            f = depth + 1 + max(sn, sr)
            path[depth + 1] = c
            if f <= bound and sn == 0:
                return depth + 1, path[: depth + 2].copy(), expanded, generated, iterations
            if f <= bound and depth + 1 <= max_depth:
                if expanded >= node_limit or _late(expanded, deadline):
                    return _BUDGET, path[:1], expanded, generated, iterations
                depth += 1
                dir_at[depth] = 0
                expanded += 1
                continue
            if f < next_bound:
                next_bound = f
            # undo at once (a pruned child)
            cells[c] = t
            cells[b] = 0
            pos[t] = c
            sn += s_hn[depth] - hn[p]
            hn[p] = s_hn[depth]
            if use_refl:
                rpos[rt] = rcell[c]
                sr += s_hr[depth] - hr[rp]
                hr[rp] = s_hr[depth]
        bound = next_bound
    return _DEEP, path[:1], expanded, generated, iterations


@dataclass(kw_only=True)
class IDAResult(Result):
    """What the numba IDA* found: the usual result plus the blank's path and iterations."""

    blank_path: list[int] = field(default_factory=list, repr=False)
    iterations: int = 0

    def details(self) -> dict:
        """IDA* iterations (one per f bound)."""
        return {"iterations": self.iterations}


def ida_star(
    db: PatternDatabase,
    state: State | str,
    max_depth: int = 1000,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    *,
    budget: Budget | None = None,
) -> IDAResult:
    """Run the numba IDA* with `db` (compact databases: the fast kernel) from `state` to its goal.

    Parameters
    ----------
    db : PatternDatabase
        The databases (their goal is the target; any tile labels).
    state : tuple of int or str
        The start in any form `read_board` reads, with the goal's tiles.
    max_depth : int
        Give up (verdict ``limit``) when no solution is at most this long.
    max_expanded, max_seconds : optional
        The budget (`puzzlelab.results.Budget`: None unlimited, 0 = stop at once).
    budget : Budget, optional
        A running Budget instead of the two limits.

    Returns
    -------
    IDAResult
        Verdict ``optimal`` with the moves and boards, ``unsolvable`` (parity, with a note,
        no search) or ``limit``; `length` is None without an answer.

    Raises
    ------
    ParseError, InvalidPuzzleError
        A malformed board or one with other tiles than the goal.
    """
    limits = as_budget(budget, max_expanded, max_seconds)
    max_depth = integer(max_depth, "max_depth", minimum=0)
    start = read_board(state, db.shape)[0]
    check_same_tiles(start, db.goal)
    if not solvable_checked(start, db.goal, db.shape):
        note = f"{to_text(start)} is in the other parity class than the goal"
        return IDAResult(method="idastar-numba", verdict="unsolvable", note=note)
    if isinstance(db, CompactDatabase):  # the fast kernel (sliding/ida.py)
        from .ida import run

        return run(db, start, limits, max_depth)
    return run_ida(db, start, limits, max_depth)


def run_ida(db: PatternDatabase, start: State, limits: Budget, max_depth: int = 1000) -> IDAResult:
    """The numba IDA* on a start already checked (same tiles as the goal, solvable)."""
    cells = np.array([db._code[t] for t in start], dtype=np.int64)
    deadline = NO_DEADLINE if limits.max_seconds is None else limits.started + limits.max_seconds
    found = _ida_search(
        cells, db.shape[0], db.shape[1], *_ida_args(db), max_depth, limits.kernel_nodes(),
        deadline,
    )  # fmt: skip
    return ida_result("idastar-numba", found, start, db.shape, limits, max_depth)


def ida_result(
    method: str, found: tuple, start: State, shape: Shape, limits: Budget, max_depth: int
) -> IDAResult:
    """An `IDAResult` from a kernel's (status, blank path, expanded, generated, iterations)."""
    status, path, expanded, generated, iterations = found
    res = IDAResult(method=method, verdict="unsolvable")
    res.expanded, res.generated, res.iterations = int(expanded), int(generated), int(iterations)
    res.blank_path = [int(c) for c in path]
    if status >= 0:
        res.verdict = "optimal"
        res.states, res.moves = blank_path_moves(start, res.blank_path, shape)
        res.max_frontier = len(res.states)
    elif status == _BUDGET:
        res.verdict, res.note = "limit", limits.why()
    else:
        res.verdict = "limit"
        res.note = f"no solution of at most max_depth={max_depth} moves; raise max_depth"
    res.seconds = limits.elapsed()
    return res


def blank_path_moves(start: State, blank_path: list[int], shape: Shape) -> tuple[list, list]:
    """(boards, moves) of a path given as the blank's cells: each step slides a tile into it."""
    cols = shape[1]
    states: list[State] = [start]
    moves: list[Move] = []
    for b, c in zip(blank_path, blank_path[1:], strict=False):
        s = list(states[-1])
        tile = s[c]
        s[b], s[c] = tile, 0
        moves.append((tile, DIRECTIONS[b // cols - c // cols, b % cols - c % cols]))
        states.append(tuple(s))
    return states, moves


def _ida_args(db: PatternDatabase) -> tuple:
    """kernel_args in the order _ida_search takes them (pat_of after offsets)."""
    tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile, use_refl = db.kernel_args()
    return tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile, use_refl


def kernel_h(db: PatternDatabase, state: State) -> int:
    """The numba kernel's h for one board (tested against `PatternDatabase.h`)."""
    tables, offsets, _, pat_tiles, pat_k, mults, rcell, rtile, use_refl = db.kernel_args()
    hn, hr = _h_values(
        np.array(db.internal(state), dtype=np.int64),
        tables,
        offsets,
        pat_tiles,
        pat_k,
        mults,
        rcell,
        rtile,
        use_refl,
    )
    return int(max(hn, hr))


@njit(cache=True)
def _h_many(boards, tables, offsets, pat_tiles, pat_k, mults, rcell, rtile, use_refl):
    """The kernel's h for every row of `boards`."""
    out = np.empty(boards.shape[0], dtype=np.int64)
    for i in range(boards.shape[0]):
        hn, hr = _h_values(
            boards[i], tables, offsets, pat_tiles, pat_k, mults, rcell, rtile, use_refl
        )
        out[i] = max(hn, hr)
    return out


def kernel_h_many(db: PatternDatabase, boards: np.ndarray) -> np.ndarray:
    """The numba h for many boards at once (rows of tiles, 0 = blank)."""
    tables, offsets, _, pat_tiles, pat_k, mults, rcell, rtile, use_refl = db.kernel_args()
    boards = db.internal_many(boards)
    return _h_many(boards, tables, offsets, pat_tiles, pat_k, mults, rcell, rtile, use_refl)


# ------------------------------------------------------------------ compact databases
#
# The large databases (7-8 on 4x4, 6-6-6-6 on 5x5) cannot afford a byte per (placement,
# blank cell). Two observations make them small:
#
# * The blank moves for free among the cells no pattern tile occupies, so within a
#   placement the blank only matters up to its *region* (a connected set of free cells).
#   The search keeps, per placement, a bit mask of the free cells the blank has reached
#   (a union of regions): 2 bytes per placement on 4x4, 4 on 5x5, plus one "frontier" bit.
# * A pattern's value minus the Manhattan distance of its tiles is even and small (every
#   pattern move changes that distance by one), so the database stores (value - md) / 2
#   in 4 bits: 16!/8! = 518,918,400 placements of the 8-tile pattern take 259 MB.
#   A difference above 15 would be stored as 15 (still a lower bound; counted in `clipped`).

COMPACT_VERSION = 1
COMPACT_KIND = "sliding-compact-pattern-database"
NIBBLE_MAX = 15


def compact_bytes(n: int, k: int) -> dict[str, int]:
    """Memory (bytes) the region BFS needs for a k-tile pattern on n cells, by part."""
    size = placements(n, k)
    return {
        "reached masks": size * (2 if n <= 16 else 4),
        "frontier bits": 2 * (size // 8 + 8),
        "table": (size + 1) // 2,
    }


def available_memory() -> int | None:
    """Bytes of memory available to a new build (Linux MemAvailable), or None if unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def check_memory(n: int, k: int, needed_extra: int = 0) -> int:
    """The bytes a compact build needs; `TooLargeError` naming them when memory is short."""
    need = sum(compact_bytes(n, k).values()) + needed_extra
    have = available_memory()
    if have is not None and need * 1.25 > have:
        raise TooLargeError(
            f"building a {k}-tile pattern database on {n} cells needs about "
            f"{need / 2**30:.1f} GiB of memory but only {have / 2**30:.1f} GiB is available; "
            "free memory or use a smaller partition (e.g. 'pdb:6-6-3' on 4x4)"
        )
    return need


@njit(cache=True)
def _spread(m, cols, full, not_first_col, not_last_col):
    """Cells next to the cells of mask m (m itself not included unless adjacent)."""
    return (
        ((m << cols) & full) | (m >> cols) | ((m << 1) & not_first_col) | ((m >> 1) & not_last_col)
    )


@njit(cache=True)
def _region(seed, free, cols, full, nf, nl):
    """The connected set of free cells containing the cells of `seed`."""
    r = seed
    while True:
        r2 = (r | _spread(r, cols, full, nf, nl)) & free
        if r2 == r:
            return r
        r = r2


@njit(cache=True)
def _region_bfs_level(reached, front, nxt, table, depth, k, n, cols, mult, goal_pos, dist, stats):
    """Expand every placement in `front` (depth `depth`); mark depth+1 in `nxt`.

    reached[p] : mask of free cells the blank has reached in placement p (union of regions)
    table      : packed nibbles, (value - md) / 2, written when p is first reached
    stats      : [placements first reached, regions added, clipped]

    Every region of a placement lies at a depth of the parity of the placement's md (each
    pattern move changes md by one), so a placement of this frontier never gains a region
    of depth+1 during the scan: expanding all its reached regions expands only regions of
    depth <= `depth` (the older ones again, which adds nothing new).
    """
    size = reached.shape[0]
    full = (1 << n) - 1
    nf = 0
    nl = 0
    for c in range(n):
        if c % cols != 0:
            nf |= 1 << c
        if c % cols != cols - 1:
            nl |= 1 << c
    pos = np.empty(k, dtype=np.int64)
    for w in range(front.shape[0]):
        word = front[w]
        while word:
            low = word & (~word + np.uint64(1))
            bit = 0
            while (low >> np.uint64(bit)) != np.uint64(1):
                bit += 1
            word ^= low
            p = w * 64 + bit
            if p >= size:
                break
            _unrank(p, k, mult, pos)
            occ = 0
            md = 0
            for j in range(k):
                occ |= 1 << pos[j]
                md += dist[pos[j], goal_pos[j]]
            free = full & ~occ
            todo = np.int64(reached[p])
            while todo:
                seed = todo & -todo
                reg = _region(seed, free, cols, full, nf, nl)
                todo &= ~reg
                for j in range(k):
                    c = pos[j]
                    adj = _spread(np.int64(1) << c, cols, full, nf, nl) & reg
                    while adj:
                        lowb = adj & -adj
                        adj ^= lowb
                        b = 0
                        while (lowb >> b) != 1:
                            b += 1
                        pos[j] = b
                        q = _rank(pos, k, mult)
                        pos[j] = c
                        old = np.int64(reached[q])
                        if (old >> c) & 1:
                            continue
                        free2 = (free & ~lowb) | (np.int64(1) << c)
                        reg2 = _region(np.int64(1) << c, free2, cols, full, nf, nl)
                        if old == 0:
                            md2 = md - dist[c, goal_pos[j]] + dist[b, goal_pos[j]]
                            e = (depth + 1 - md2) // 2
                            if e > NIBBLE_MAX:
                                e = NIBBLE_MAX
                                stats[2] += 1
                            table[q >> 1] |= np.uint8(e << ((q & 1) * 4))
                            stats[0] += 1
                        reached[q] = old | reg2
                        nxt[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
                        stats[1] += 1


def cell_distances(shape: Shape) -> np.ndarray:
    """dist[a, b] = Manhattan distance between cells a and b."""
    rows, cols = shape
    r, c = np.divmod(np.arange(rows * cols), cols)
    return (np.abs(r[:, None] - r[None, :]) + np.abs(c[:, None] - c[None, :])).astype(np.int64)


def build_compact_table(
    shape: Shape, goal: State, pattern: Pattern, progress: bool = False
) -> tuple[np.ndarray, dict]:
    """One pattern's compact database: (packed nibbles of (value - md) / 2, build facts).

    The region BFS from the goal (see the section comment); `TooLargeError` naming the
    memory needed when the machine has too little. Facts: seconds, cpu_seconds, depth,
    clipped (entries above 15 stored as 15), peak_bytes.
    """
    from tqdm import tqdm

    rows, cols = shape
    n, k = rows * cols, len(pattern)
    if n > 32:
        raise TooLargeError(f"compact databases need at most 32 cells, not {n}")
    size = placements(n, k)
    need = check_memory(n, k)
    t0, c0 = time.perf_counter(), time.process_time()
    mult = multipliers(n, k)
    goal_pos = np.array([goal.index(t) for t in pattern], dtype=np.int64)
    dist = cell_distances(shape)
    reached = np.zeros(size, dtype=np.uint16 if n <= 16 else np.uint32)
    words = size // 64 + 1
    front = np.zeros(words, dtype=np.uint64)
    nxt = np.zeros(words, dtype=np.uint64)
    table = np.zeros((size + 1) // 2, dtype=np.uint8)
    start = int(_rank(goal_pos, k, mult))
    occ = sum(1 << int(c) for c in goal_pos)
    full = (1 << n) - 1
    reg = _region_py(1 << goal.index(0), full & ~occ, shape)
    reached[start] = reg
    front[start >> 6] |= np.uint64(1) << np.uint64(start & 63)
    stats = np.zeros(3, dtype=np.int64)
    name = "-".join(map(str, pattern))
    bar = tqdm(total=size, disable=not progress, desc=f"PDB {name}", unit="placement")
    bar.update(1)
    depth = 0
    while front.any():
        before = int(stats[0])
        _region_bfs_level(
            reached, front, nxt, table, depth, k, n, cols, mult, goal_pos, dist, stats
        )
        bar.update(int(stats[0]) - before)
        bar.set_postfix(depth=depth, refresh=False)
        front, nxt = nxt, front
        nxt[:] = 0
        depth += 1
    bar.close()
    del reached, front, nxt
    facts = {
        "seconds": round(time.perf_counter() - t0, 2),
        "cpu_seconds": round(time.process_time() - c0, 2),
        "depth": depth - 1,
        "reached": int(stats[0]) + 1,
        "clipped": int(stats[2]),
        "peak_bytes": int(need),
    }
    return table, facts


def _region_py(seed: int, free: int, shape: Shape) -> int:
    """The free region around `seed` (bit masks), the obvious way."""
    rows, cols = shape
    region, todo = 0, [c for c in range(rows * cols) if seed >> c & 1]
    while todo:
        c = todo.pop()
        if region >> c & 1 or not free >> c & 1:
            continue
        region |= 1 << c
        r, q = divmod(c, cols)
        todo += [x for x, ok in ((c - cols, r > 0), (c + cols, r < rows - 1),
                                 (c - 1, q > 0), (c + 1, q < cols - 1)) if ok]  # fmt: skip
    return region


def unpack_compact(table: np.ndarray, shape: Shape, goal: State, pattern: Pattern) -> np.ndarray:
    """The full values (uint8 per placement) of a compact table: md + 2 * nibble."""
    n, k = shape[0] * shape[1], len(pattern)
    size = placements(n, k)
    nib = np.empty(2 * table.size, dtype=np.uint8)
    nib[0::2] = table & 15
    nib[1::2] = table >> 4
    goal_pos = np.array([goal.index(t) for t in pattern], dtype=np.int64)
    return (_pattern_md(size, k, multipliers(n, k), goal_pos, cell_distances(shape))
            + 2 * nib[:size]).astype(np.uint8)  # fmt: skip


@njit(cache=True)
def _pattern_md(size, k, mult, goal_pos, dist):
    """Manhattan distance of the pattern's tiles for every placement."""
    out = np.empty(size, dtype=np.uint8)
    pos = np.empty(k, dtype=np.int64)
    for p in range(size):
        _unrank(p, k, mult, pos)
        m = 0
        for j in range(k):
            m += dist[pos[j], goal_pos[j]]
        out[p] = m
    return out


def compact_key(shape: Shape, goal: State, pattern: Pattern) -> dict:
    """What a compact table depends on: the board, the goal's blank and the pattern's goal cells."""
    return {
        "shape": list(shape),
        "blank": goal.index(0),
        "cells": [goal.index(t) for t in pattern],
    }


def compact_path(shape: Shape, goal: State, pattern: Pattern) -> Path | None:
    """The cache file of one compact table: a versioned name with a digest of its key.

    The name does not carry tile labels (any labels with the same goal cells share it);
    the full key sits in the file's header and is checked on every read.
    """
    import hashlib
    import json

    key = compact_key(shape, goal, pattern)
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    name = f"cpdb-v{COMPACT_VERSION}-{shape[0]}x{shape[1]}-k{len(pattern)}-{digest}.bin"
    return cachefile.cache_file("pdb", name)


def compact_table(
    shape: Shape, goal: State, pattern: Pattern, cache: bool = True, progress: bool = True
) -> tuple[np.ndarray, dict]:
    """One compact table and its build facts: read verified from the cache, else built."""
    size = (placements(shape[0] * shape[1], len(pattern)) + 1) // 2
    key = compact_key(shape, goal, pattern)
    path = compact_path(shape, goal, pattern) if cache else None
    if path is not None and path.exists():
        try:
            table, meta = cachefile.load_array(path, COMPACT_KIND, COMPACT_VERSION, key)
            if table.dtype != np.uint8 or table.shape != (size,):
                raise CacheError(f"{path} holds an array of the wrong size or type")
            return table, {**meta.get("facts", {}), "loaded": True}
        except CacheError as exc:
            cachefile.warn_once(f"{exc}; rebuilding it")
    table, facts = build_compact_table(shape, goal, pattern, progress=progress)
    if cache:
        cachefile.save_array(path, COMPACT_KIND, COMPACT_VERSION, key, table, {"facts": facts})
    return table, {**facts, "loaded": False}


@dataclass
class CompactDatabase(PatternDatabase):
    """Additive databases stored as 4-bit differences from the pattern's Manhattan distance.

    Same interface as `PatternDatabase`; `tables` hold packed nibbles (two placements per
    byte) and `facts` one dict of build facts per pattern (seconds, cpu_seconds, depth,
    clipped, peak_bytes, loaded). The fast IDA* in `puzzlelab.sliding.ida` reads them.
    """

    facts: list[dict] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        """Labels and maps as `PatternDatabase`, plus each pattern's goal cells."""
        super().__post_init__()
        self._dist = cell_distances(self.shape)
        self._goal_cells = [[self._igoal.index(t) for t in p] for p in self._ipatterns]

    @property
    def n_entries(self) -> int:
        """Total entries (placements) over all patterns."""
        n = len(self.goal)
        return int(sum(placements(n, len(p)) for p in self.patterns))

    @property
    def nbytes(self) -> int:
        """Bytes the tables take in memory."""
        return int(sum(t.nbytes for t in self.tables))

    def _values(self, cells: State) -> list[int]:
        """One database value per pattern (md + 2 * stored nibble), board in internal labels."""
        n = len(cells)
        where = {t: i for i, t in enumerate(cells)}
        out = []
        for pat, home, table in zip(self._ipatterns, self._goal_cells, self.tables, strict=True):
            at = [where[t] for t in pat]
            r = rank_placement_py(at, n)
            nib = (int(table[r >> 1]) >> (4 * (r & 1))) & 15
            out.append(sum(int(self._dist[a, g]) for a, g in zip(at, home, strict=True)) + 2 * nib)
        return out

    def kernel_args(self) -> tuple:
        """The arrays `ida.py`'s kernel reads (see `ida.compact_kernel_args`), made once.

        The tables are joined into one array on the first call and kept: joining 275 MiB
        per search would cost more than the search.
        """
        from .ida import compact_kernel_args

        if getattr(self, "_kernel_args", None) is None:
            self._kernel_args = compact_kernel_args(self)
        return self._kernel_args


def compact_database(
    shape: Shape,
    goal: State | str,
    patterns: str | Sequence[Pattern] = "7-8",
    *,
    cache: bool = True,
    progress: bool = True,
    reflected: bool = True,
) -> CompactDatabase:
    """Load (or build and cache) compact additive databases, e.g. 7-8 or 6-6-6-6.

    Parameters as `pattern_database`; the tables are built by the region BFS (4 bits per
    placement) and cached under cache/pdb with names that carry no tile labels.

    Raises
    ------
    InvalidPuzzleError, ParseError
        A malformed shape, goal or partition.
    TooLargeError
        Too little memory for a build (the message names what is needed), or a board of
        more than 32 cells.
    """
    shape, goal, patterns = _database_inputs(shape, goal, patterns, cache, progress, reflected)
    n = len(goal)
    if n > 32 or any(len(p) > n - 1 for p in patterns):
        raise TooLargeError(f"compact databases need at most 32 cells, not {n}")
    t0 = time.perf_counter()
    tables, facts = [], []
    for pat in sorted(patterns, key=len):  # small first: a refusal comes before long work
        if not (cache and (path := compact_path(shape, goal, pat)) and path.exists()):
            check_memory(n, len(pat), sum(t.nbytes for t in tables))
        table, fact = compact_table(shape, goal, pat, bool(cache), bool(progress))
        tables.append(table)
        facts.append(fact)
    order = sorted(range(len(patterns)), key=lambda i: len(patterns[i]))
    by_pattern = dict(zip(order, zip(tables, facts, strict=True), strict=True))
    tables = [by_pattern[i][0] for i in range(len(patterns))]
    facts = [by_pattern[i][1] for i in range(len(patterns))]
    return CompactDatabase(
        shape, goal, patterns, tables, time.perf_counter() - t0, bool(reflected), facts
    )


BEST_PARTITIONS = {(4, 4): "7-8", (5, 5): "6-6-6-6"}
"""The strongest split the lab knows per board (others: the near-equal default split)."""


def best_partition(shape: Shape) -> str:
    """The split behind heuristic="pdb:best": 7-8 on 4x4, 6-6-6-6 on 5x5, else groups of <= 6."""
    if tuple(shape) in BEST_PARTITIONS:
        return BEST_PARTITIONS[tuple(shape)]
    m = shape[0] * shape[1] - 1
    parts = math.ceil(m / 6)
    return "-".join(str(m // parts + (1 if i < m % parts else 0)) for i in range(parts))


def best_database(shape: Shape, goal: State | str, progress: bool = True) -> CompactDatabase:
    """The compact databases of `best_partition(shape)` with the reflected lookup (cached)."""
    shape = check_shape(shape)
    return compact_database(shape, goal, best_partition(shape), progress=progress)


# Measured on this lab's 2-core machine (CPU seconds per placement of the region BFS).
BUILD_CPU_PER_PLACEMENT = {16: 1.3e-6, 25: 1.0e-6}  # 8 tiles: 708 s; 6-6-6-6: 508 s


def compact_cost(shape: Shape, goal: State | str, patterns: str | Sequence[Pattern]) -> dict:
    """What `compact_database` will cost before it starts: cached?, CPU, memory, disk.

    Returns
    -------
    dict
        cached (all tables in the cache), build_cpu_minutes (estimate for the missing
        tables; 0 when cached), peak_gib (largest single build), table_mib (all tables).
    """
    shape = check_shape(shape)
    goal = read_board(goal, shape)[0]
    if isinstance(patterns, str):
        patterns = default_patterns(shape, goal, patterns)
    patterns = _check_patterns(goal, patterns)
    n = len(goal)
    rate = BUILD_CPU_PER_PLACEMENT.get(n, 1.3e-6)
    missing = [p for p in patterns if not ((f := compact_path(shape, goal, p)) and f.exists())]
    return {
        "cached": not missing,
        "build_cpu_minutes": round(sum(placements(n, len(p)) for p in missing) * rate / 60, 1),
        "peak_gib": round(max(sum(compact_bytes(n, len(p)).values()) for p in patterns) / 2**30, 2),
        "table_mib": round(sum(compact_bytes(n, len(p))["table"] for p in patterns) / 2**20, 1),
    }


def needs_compact(shape: Shape, goal: State, partition: str) -> bool:
    """Is a pattern of this split too large for the byte builder (so: compact storage)?"""
    n = shape[0] * shape[1]
    patterns = default_patterns(shape, goal, partition)
    return any(placements(n, len(p)) * n > MAX_BUILD_STATES for p in patterns)
