"""Complete minimum-move tables by breadth-first search from the goal.

Every reachable state gets one byte (its distance; 255 = not reached) at its perfect-hash
index (see `ranking`). The search is level by level: each pass scans the table for the
states at depth d and marks their unseen neighbours d+1, so no queue is stored and a
12-cell board (239,500,800 states) needs 240 MB. The kernels run in numba; the plain
dictionary BFS `distance_counts_reference` is the slow, obvious version used to check them
(and as the benchmark baseline).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit, prange

from .. import cache as cachefile
from ..checks import integer
from ..errors import CacheError, InvalidPuzzleError, PuzzleError, TooLargeError, UnsolvableError
from ..paths import cache_dir
from . import ranking as rk
from .board import (
    Shape,
    State,
    check_same_tiles,
    check_shape,
    next_boards,
    read_board,
    require_solvable,
    solved_state,
    to_text,
)

UNSEEN = 255
MAX_CELLS = 12
PARALLEL_FROM = 5_000_000  # below this a level is too quick to be worth waking threads
QUEUE_BELOW = 5_000_000  # tables this small are searched with a queue (16 bytes a state)
FORMAT_VERSION = 2  # 2: puzzlelab.cache files; N x 1 boards fixed (version 1 had them wrong)
CACHE_KIND = "sliding-distance-table"


# ------------------------------------------------------------------------- BFS kernels


@njit(cache=True)
def _expand1(table, depth, lo, hi, rows, cols, half, want):
    """Expand the states at `depth` with index in [lo, hi) (one blank); return their number."""
    n = rows * cols
    cells = np.empty(n, dtype=np.int64)
    seq = np.empty(n, dtype=np.int64)
    count = 0
    for i in range(lo, hi):
        if table[i] != depth:
            continue
        count += 1
        b = rk.unrank1(i, n, half, want, cells, seq)
        low = i % half
        br = b // cols
        bc = b - br * cols
        if bc > 0:  # horizontal moves keep the tile sequence: O(1)
            j = (b - 1) * half + low
            if table[j] == UNSEEN:
                table[j] = depth + 1
        if bc < cols - 1:
            j = (b + 1) * half + low
            if table[j] == UNSEEN:
                table[j] = depth + 1
        for o in (b - cols, b + cols):  # vertical moves: one tile passes cols-1 others
            if o < 0 or o >= n:
                continue
            cells[b] = cells[o]
            cells[o] = 0
            j = rk.rank1(cells, n, half, seq)
            cells[o] = cells[b]
            cells[b] = 0
            if table[j] == UNSEEN:
                table[j] = depth + 1
    return count


@njit(cache=True)
def _step(b, br, bc, d, rows, cols):
    """The cell next to b = (br, bc) in direction d (0 up, 1 down, 2 left, 3 right), or -1."""
    if d == 0:
        return b - cols if br > 0 else -1
    if d == 1:
        return b + cols if br < rows - 1 else -1
    if d == 2:
        return b - 1 if bc > 0 else -1
    return b + 1 if bc < cols - 1 else -1


@njit(cache=True)
def _expandk(table, depth, lo, hi, rows, cols, k):
    """Expand the states at `depth` with index in [lo, hi) (k >= 2 blanks); return the count."""
    n = rows * cols
    cells = np.empty(n, dtype=np.int64)
    seq = np.empty(n, dtype=np.int64)
    count = 0
    for i in range(lo, hi):
        if table[i] != depth:
            continue
        count += 1
        rk.unrankk(i, n, k, cells, seq)
        for b in range(n):
            if cells[b] != 0:
                continue
            br = b // cols
            bc = b - br * cols
            for d in range(4):  # up, down, left, right (by index: on a 1-wide board
                o = _step(b, br, bc, d, rows, cols)  # b - 1 is also b - cols)
                if o < 0 or cells[o] == 0:
                    continue
                cells[b] = cells[o]
                cells[o] = 0
                j = rk.rankk(cells, n, k, seq)
                cells[o] = cells[b]
                cells[b] = 0
                if table[j] == UNSEEN:
                    table[j] = depth + 1
    return count


@njit(cache=True)
def _rank_packed(p, n, k, half):
    """Index of a state packed as 4-bit cells (cell c in bits 4c..4c+3)."""
    m = n - k
    seen = 0
    rank = 0
    pos = 0
    comb = 0
    kb = 0
    first_blank = -1
    for c in range(n):
        v = (p >> (4 * c)) & 15
        if v == 0:
            kb += 1
            comb += rk.BINOM[c, kb]
            if first_blank < 0:
                first_blank = c
            continue
        d = v - 1 - rk.POPCOUNT[seen & ((1 << v) - 1)]
        seen |= 1 << v
        rank += d * rk.FACT[m - 1 - pos]
        pos += 1
    if k == 1:
        return first_blank * half + (rank >> 1)
    return comb * rk.FACT[m] + rank


@njit(cache=True)
def _bfs_queue(table, goal_packed, rows, cols, k, half):
    """Whole BFS with a FIFO of (index, packed cells): for tables small enough to queue."""
    n = rows * cols
    size = table.shape[0]
    qi = np.empty(size, dtype=np.int64)
    qp = np.empty(size, dtype=np.int64)
    g = _rank_packed(goal_packed, n, k, half)
    table[g] = 0
    qi[0] = g
    qp[0] = goal_packed
    head = 0
    tail = 1
    while head < tail:
        i = qi[head]
        p = qp[head]
        head += 1
        nd = table[i] + 1
        for b in range(n):
            if (p >> (4 * b)) & 15 != 0:
                continue
            br = b // cols
            bc = b - br * cols
            for d in range(4):
                o = _step(b, br, bc, d, rows, cols)
                if o < 0:
                    continue
                t = (p >> (4 * o)) & 15
                if t == 0:
                    continue
                q = p & ~(15 << (4 * o))
                q |= t << (4 * b)
                if k == 1 and d >= 2:
                    j = o * half + i % half  # a horizontal move keeps the tile sequence
                else:
                    j = _rank_packed(q, n, k, half)
                if table[j] == UNSEEN:
                    table[j] = nd
                    qi[tail] = j
                    qp[tail] = q
                    tail += 1
    return tail


@njit(cache=True, parallel=True)
def _level_parallel(table, depth, rows, cols, half, want, k, nthreads):
    """One BFS level split over threads (states at depth+1 written by two threads agree)."""
    size = table.shape[0]
    chunk = (size + nthreads - 1) // nthreads
    found = np.zeros(nthreads, dtype=np.int64)
    for t in prange(nthreads):
        lo = t * chunk
        hi = min(size, lo + chunk)
        if k == 1:
            found[t] = _expand1(table, depth, lo, hi, rows, cols, half, want)
        else:
            found[t] = _expandk(table, depth, lo, hi, rows, cols, k)
    return found.sum()


def _level(table, depth, rows, cols, half, want, k, nthreads) -> int:
    """Expand one BFS level: serially for small tables, in parallel threads for large ones."""
    if nthreads > 1 and table.shape[0] >= PARALLEL_FROM:
        return int(_level_parallel(table, depth, rows, cols, half, want, k, nthreads))
    if k == 1:
        return int(_expand1(table, depth, 0, table.shape[0], rows, cols, half, want))
    return int(_expandk(table, depth, 0, table.shape[0], rows, cols, k))


@njit(cache=True)
def _rank_state(cells, n, k, half):
    """Index of one relabelled state (dispatch on the number of blanks)."""
    seq = np.empty(n, dtype=np.int64)
    if k == 1:
        return rk.rank1(cells, n, half, seq)
    return rk.rankk(cells, n, k, seq)


@njit(cache=True)
def _unrank_states(indices, n, k, half, want):
    """The relabelled states at these indices, one per row."""
    out = np.empty((indices.shape[0], n), dtype=np.int64)
    cells = np.empty(n, dtype=np.int64)
    seq = np.empty(n, dtype=np.int64)
    for r in range(indices.shape[0]):
        if k == 1:
            rk.unrank1(indices[r], n, half, want, cells, seq)
        else:
            rk.unrankk(indices[r], n, k, cells, seq)
        out[r, :] = cells
    return out


# ------------------------------------------------------------------------------ table


@dataclass
class DistanceTable:
    """The optimal number of moves from every reachable state to `goal`.

    Parameters
    ----------
    shape : (rows, cols)
        The board's shape.
    goal : tuple of int
        The goal board, row-major, 0 for a blank (one or several).
    depths : numpy.ndarray of uint8
        The distance of the state at every perfect-hash index (see `ranking`); 255 marks an
        index the search from the goal never reached.
    counts : numpy.ndarray of int64
        ``counts[d]`` = number of states at distance d.
    seconds : float
        Build time.
    """

    shape: Shape
    goal: State
    depths: np.ndarray = field(repr=False)  # uint8 per index, 255 = unreachable
    counts: np.ndarray  # counts[d] = states at distance d
    seconds: float = 0.0

    def __post_init__(self) -> None:
        """Precompute the hash's constants and the relabelling to 1..m."""
        self.counts = np.asarray(self.counts, dtype=np.int64)
        n = len(self.goal)
        self._n, self._k = n, self.goal.count(0)
        self._half = math.factorial(n - 1) // 2 if self._k == 1 else 0
        self._want = rk.want_parity(self.shape, self.goal.index(0))
        tiles = [t for t in self.goal if t]
        self._to_label = {t: i + 1 for i, t in enumerate(tiles)}  # goal order -> 1..m
        self._from_label = np.array([0, *tiles], dtype=np.int64)

    @property
    def n_states(self) -> int:
        """Number of states that can reach the goal."""
        return int(self.counts.sum())

    @property
    def max_depth(self) -> int:
        """The largest optimal distance (God's number for this board and goal)."""
        return len(self.counts) - 1

    @property
    def mean(self) -> float:
        """Mean optimal distance over all reachable states."""
        return float(np.dot(np.arange(len(self.counts)), self.counts) / self.n_states)

    def relabel(self, state: State) -> list[int]:
        """The state with tiles renamed 1..m in the goal's order (the hash's own labels)."""
        return [self._to_label.get(t, 0) for t in state]

    def index(self, state: State) -> int:
        """The perfect-hash index of a state (checked against the goal's tiles)."""
        check_same_tiles(state, self.goal)
        cells = np.array(self.relabel(state), dtype=np.int64)
        return int(_rank_state(cells, self._n, self._k, self._half))

    def states(self, indices: Sequence[int] | np.ndarray) -> list[State]:
        """The states at these perfect-hash indices, in the goal's own labels.

        Parameters
        ----------
        indices : sequence of int or integer numpy array
            Indices in ``0 .. len(depths) - 1`` (e.g. from ``np.flatnonzero(t.depths == d)``).

        Returns
        -------
        list of tuple of int
            One board per index (row-major, 0 = blank).

        Raises
        ------
        PuzzleError
            Indices that are not whole numbers or lie outside the table (checked before the
            compiled kernel runs).
        """
        idx = self._check_indices(indices)
        rows = _unrank_states(idx, self._n, self._k, self._half, self._want)
        return [tuple(int(t) for t in r) for r in self._from_label[rows]]

    def _check_indices(self, indices: object) -> np.ndarray:
        """Indices as an int64 array inside the table; `PuzzleError` for anything else."""
        size = self.depths.size
        if isinstance(indices, str | bytes | dict | set) or not isinstance(
            indices, Sequence | np.ndarray | range
        ):
            raise PuzzleError(f"indices must be a sequence of ints, not {indices!r}")
        arr = np.asarray(indices) if not isinstance(indices, range) else np.array(indices)
        if arr.size == 0:
            return np.zeros(0, dtype=np.int64)
        if arr.dtype.kind not in "iu":
            flat = arr.ravel().tolist() if arr.dtype.kind == "O" else None
            if flat is None:
                raise PuzzleError(f"indices must be whole numbers, not an array of {arr.dtype}")
            values = [integer(v, "index", minimum=0, maximum=size - 1) for v in flat]
            return np.array(values, dtype=np.int64)
        low, high = int(arr.min()), int(arr.max())
        if low < 0 or high >= size:
            bad = low if low < 0 else high
            raise PuzzleError(f"index {bad} is outside the table (0 .. {size - 1})")
        return arr.astype(np.int64).reshape(-1)

    def distance(self, state: State | str) -> int:
        """Minimum number of moves from `state` to the goal.

        Parameters
        ----------
        state : tuple of int, str, nested rows or array
            A board of this table's shape in any form `read_board` reads.

        Returns
        -------
        int

        Raises
        ------
        ParseError, InvalidPuzzleError
            An unreadable board, one of another shape or with other tiles than the goal.
        UnsolvableError
            The board cannot reach the goal (a helper that promises a number raises).
        """
        state = self._as_state(state)
        require_solvable(state, self.goal, self.shape)
        d = int(self.depths[self.index(state)])
        if d == UNSEEN:  # cannot happen when is_solvable is right; never answer silently
            raise UnsolvableError(f"{to_text(state)} was not reached by the search from the goal")
        return d

    def path(self, state: State | str) -> list[State]:
        """An optimal list of boards from `state` to the goal, each one move from the last.

        Raises as `distance`; a damaged table (no neighbour one move closer) gives a
        `CacheError` instead of looping.
        """
        state = self._as_state(state)
        d = self.distance(state)
        out = [state]
        while d > 0:
            nxt = next(
                (
                    t
                    for _, t in next_boards(out[-1], self.shape)
                    if self.depths[self.index(t)] == d - 1
                ),
                None,
            )
            if nxt is None:
                raise CacheError(
                    f"the table has no neighbour of {to_text(out[-1])} at distance {d - 1}: "
                    "it is damaged; rebuild it with distance_table(..., cache=False)"
                )
            out.append(nxt)
            d -= 1
        return out

    def farthest(self, limit: int | None = 100) -> list[State]:
        """The states at the maximum distance (at most `limit` of them, in index order)."""
        return self.states_at(self.max_depth, limit)

    def states_at(self, depth: int, limit: int | None = 100) -> list[State]:
        """States at exactly `depth` moves from the goal (at most `limit`, in index order)."""
        depth = integer(depth, "depth")
        limit = None if limit is None else integer(limit, "limit", minimum=0)
        idx = np.flatnonzero(self.depths == depth) if 0 <= depth < UNSEEN else np.zeros(0, int)
        return self.states(idx if limit is None else idx[:limit])

    def _as_state(self, state: State | str) -> State:
        """Read a board (any form) with this table's shape."""
        return read_board(state, self.shape)[0]

    # -------------------------------------------------------------------- persistence

    def save(self, path: str | Path) -> Path:
        """Write the table as a self-verifying cache file (atomic); `CacheError` if impossible."""
        path = Path(path)
        remove_stale_temporaries(path)
        ok = cachefile.save_array(
            path, CACHE_KIND, FORMAT_VERSION, _key(self.shape, self.goal), self.depths,
            {"counts": self.counts.tolist(), "seconds": self.seconds},
        )  # fmt: skip
        if not ok:
            raise CacheError(f"could not write {path}")
        return path

    @classmethod
    def load(cls, path: str | Path, shape: Shape, goal: State | str | None = None) -> DistanceTable:
        """Read the table of `shape` and `goal` written by `save`, verified in full.

        Raises
        ------
        CacheError
            A missing, damaged, truncated or tampered file, one of another format version, or
            one written for another board or goal.
        """
        shape, goal = _normalise(shape, goal)
        depths, meta = cachefile.load_array(
            Path(path), CACHE_KIND, FORMAT_VERSION, _key(shape, goal)
        )
        try:
            counts = np.array([integer(c, "count", minimum=0) for c in meta["counts"]])
            seconds = float(meta.get("seconds", 0.0))
        except (KeyError, TypeError, ValueError, PuzzleError) as exc:
            raise CacheError(f"{path}: damaged header ({exc})") from exc
        n, k = shape[0] * shape[1], goal.count(0)
        if depths.dtype != np.uint8 or depths.shape != (rk.n_indices(n, k),):
            raise CacheError(f"{path} holds an array of the wrong size or type")
        if counts.sum() != np.count_nonzero(depths != UNSEEN):
            raise CacheError(f"{path}: its counts do not match its table")
        return cls(shape, goal, depths, counts, seconds)


# -------------------------------------------------------------------------- builders


def _key(shape: Shape, goal: State) -> dict:
    """What a cached table is for (checked on every read)."""
    return {"shape": list(shape), "goal": list(goal)}


def _normalise(shape: Shape, goal: State | str | None) -> tuple[Shape, State]:
    """Check the shape and goal of a table request."""
    rows, cols = check_shape(shape)
    if rows * cols > MAX_CELLS:
        raise TooLargeError(
            f"a {rows}x{cols} board has {rows * cols} cells; complete tables stop at "
            f"{MAX_CELLS} cells (3x4 and 2x6 = 239,500,800 states). For 4x4 use "
            "puzzlelab.sliding.solve, which searches with pattern databases instead"
        )
    if rows * cols < 2:
        raise InvalidPuzzleError("a board needs at least two cells")
    goal = solved_state((rows, cols)) if goal is None else read_board(goal, (rows, cols))[0]
    return (rows, cols), goal


def table_path(shape: Shape, goal: State, create: bool = True) -> Path | None:
    """Where the cached table for this board and goal lives (versioned file name).

    None (after one warning when `create`) when the cache folder cannot be used.
    """
    digest = hashlib.sha256(json.dumps(list(goal)).encode()).hexdigest()[:24]  # not labels
    name = f"sliding-v{FORMAT_VERSION}-{shape[0]}x{shape[1]}-{digest}.bin"
    if create:
        return cachefile.cache_file("tables", name)
    try:
        return cache_dir("tables", create=False) / name
    except OSError:
        return None


def distance_table(
    shape: Shape,
    goal: State | str | None = None,
    *,
    cache: bool | None = None,
    progress: bool | None = None,
    threads: int | None = None,
) -> DistanceTable:
    """Complete BFS table for a rows x cols board (up to 12 cells) and any goal.

    Parameters
    ----------
    shape : (rows, cols)
        Whole numbers >= 1, at most 12 cells (N x 1 and 1 x N strips included).
    goal : tuple of int or str, optional
        Any board `read_board` reads (row-major, 0 = blank, one or several blanks, any
        distinct labels); default tiles 1..n-1 with the blank last.
    cache : bool, optional
        Keep the table under cache/tables and load it next time (default: boards of 10+
        cells). Every read is verified (size, SHA-256, version, board and goal); a bad file
        is rebuilt. Caching is best effort: an unusable cache folder gives one warning.
    progress : bool, optional
        A progress bar per BFS level (default: boards of 10+ cells).
    threads : int, optional
        Threads for the level-by-level kernel (default: numba's).

    Returns
    -------
    DistanceTable
        ``depths`` holds one uint8 per perfect-hash index (255 = unreachable).

    Raises
    ------
    InvalidPuzzleError, ParseError
        A malformed shape or goal, or a board with nothing to slide.
    TooLargeError
        More than 12 cells.
    """
    shape, goal = _normalise(shape, goal)
    n = shape[0] * shape[1]
    big = n >= 10
    cache = big if cache is None else _flag(cache, "cache")
    progress = big if progress is None else _flag(progress, "progress")
    threads = None if threads is None else integer(threads, "threads", minimum=1)
    if not cache:
        return build_table(shape, goal, progress=progress, threads=threads)
    path = table_path(shape, goal)
    if path is not None and path.exists():
        try:
            return _remember(DistanceTable.load(path, shape, goal), path)
        except CacheError as exc:
            cachefile.warn_once(f"{exc}; rebuilding it")
    table = build_table(shape, goal, progress=progress, threads=threads)
    key = _key(shape, goal)
    if path is not None:
        remove_stale_temporaries(path)
    if cachefile.write(path, CACHE_KIND, FORMAT_VERSION, key, *_payload_meta(table)):
        _remember(table, path)
    return table


STALE_SECONDS = 600.0  # a temporary cache file untouched this long belongs to a dead writer


def remove_stale_temporaries(path: Path, older_than: float = STALE_SECONDS) -> list[Path]:
    """Delete temporaries of `path` (``.<name>.*`` beside it) left by a killed writer.

    An atomic write goes through a temporary file that a `kill -9` leaves behind (tens to
    hundreds of MB). Writing a table takes seconds, so a temporary not modified for
    `older_than` seconds is stale; younger ones may belong to a live writer and stay.
    Returns the files removed; never raises.
    """
    removed = []
    now = time.time()
    try:
        candidates = list(Path(path).parent.glob(f".{Path(path).name}.*"))
    except OSError:
        return removed
    for tmp in candidates:
        try:
            if tmp.is_file() and now - tmp.stat().st_mtime > older_than:
                tmp.unlink()
                removed.append(tmp)
        except OSError:
            continue
    return removed


def _payload_meta(table: DistanceTable) -> tuple[bytes, dict]:
    """The cache payload and meta of a table."""
    payload, meta = cachefile.array_payload(table.depths)
    return payload, {**meta, "counts": table.counts.tolist(), "seconds": table.seconds}


def _flag(value: object, name: str) -> bool:
    """A yes/no option: a bool (or numpy bool), nothing else."""
    if not isinstance(value, bool | np.bool_):
        raise InvalidPuzzleError(f"{name} must be True or False, not {value!r}")
    return bool(value)


_memo: dict[Path, tuple[tuple, DistanceTable]] = {}


def _stamp(path: Path) -> tuple | None:
    """What identifies a file's current content cheaply (inode, size, mtime), or None."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _remember(table: DistanceTable, path: Path) -> DistanceTable:
    """Keep the last verified table in memory while its file is unchanged on disk."""
    _memo.clear()
    stamp = _stamp(path)
    if stamp is not None:
        _memo[path] = (stamp, table)
    return table


def cached_table(shape: Shape, goal: State | str | None = None) -> DistanceTable | None:
    """The table for this board and goal if a valid one is cached on disk, else None.

    Never builds. The file is verified in full (a damaged one is reported with one warning
    and ignored, so callers search or rebuild instead of trusting it); the last table read
    is kept in memory while its file is unchanged.
    """
    shape, goal = _normalise(shape, goal)
    path = table_path(shape, goal, create=False)
    stamp = None if path is None else _stamp(path)
    if stamp is None:
        return None
    held = _memo.get(path)
    if held is not None and held[0] == stamp and held[1].goal == goal:
        return held[1]
    try:
        return _remember(DistanceTable.load(path, shape, goal), path)
    except CacheError as exc:
        cachefile.warn_once(f"{exc}; ignoring it (distance_table(..., cache=True) rebuilds it)")
        return None


def build_table(
    shape: Shape, goal: State, progress: bool = False, threads: int | None = None
) -> DistanceTable:
    """Run the BFS (no cache): one scan of the table per level."""
    import numba
    from tqdm import tqdm

    rows, cols = shape
    n, k = rows * cols, goal.count(0)
    if k == n:
        raise InvalidPuzzleError("the goal has no tiles: nothing to slide")
    if k == 1 and n < 3:
        raise InvalidPuzzleError(
            f"a {rows}x{cols} board with one blank has a single tile, which just slides back "
            "and forth (2 states): use at least 3 cells"
        )
    size = rk.n_indices(n, k)
    depths = np.full(size, UNSEEN, dtype=np.uint8)
    tmp = DistanceTable(shape, goal, depths, np.zeros(1))
    depths[tmp.index(goal)] = 0
    nthreads = threads or numba.get_num_threads()
    t0 = time.perf_counter()
    if size < QUEUE_BELOW:  # small enough to keep a queue of every state: no scans
        depths[:] = UNSEEN
        goal_packed = sum(int(v) << (4 * c) for c, v in enumerate(tmp.relabel(goal)))
        _bfs_queue(depths, goal_packed, rows, cols, k, tmp._half)
        counts = np.bincount(depths[depths != UNSEEN])
        return DistanceTable(shape, goal, depths, counts, time.perf_counter() - t0)
    counts = []
    bar = tqdm(
        total=size, unit="state", disable=not progress, desc=f"BFS {rows}x{cols}", mininterval=1.0
    )
    depth = 0
    while True:
        found = _level(depths, depth, rows, cols, tmp._half, tmp._want, k, nthreads)
        if found == 0:
            break
        counts.append(int(found))
        bar.update(int(found))
        bar.set_postfix(depth=depth)
        depth += 1
        if depth >= UNSEEN - 1:
            raise TooLargeError("distances above 253 do not fit the one-byte table")
    bar.close()
    return DistanceTable(shape, goal, depths, np.array(counts), time.perf_counter() - t0)


def distance_counts_reference(shape: Shape, goal: State | None = None) -> np.ndarray:
    """States per distance by a plain dictionary BFS (slow reference and benchmark baseline)."""
    shape, goal = _normalise(shape, goal)
    seen = {goal: 0}
    frontier = deque([goal])
    while frontier:
        s = frontier.popleft()
        d = seen[s] + 1
        for _, t in next_boards(s, shape):
            if t not in seen:
                seen[t] = d
                frontier.append(t)
    return np.bincount(np.fromiter(seen.values(), dtype=np.int64))
