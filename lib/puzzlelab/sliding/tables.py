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
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit, prange

from ..errors import CacheError, InvalidPuzzleError, TooLargeError, UnsolvableError
from ..paths import atomic_path, cache_dir
from . import ranking as rk
from .board import (
    Shape,
    State,
    check_same_tiles,
    neighbors,
    parse_board,
    require_solvable,
    solved_state,
    to_text,
)

UNSEEN = 255
MAX_CELLS = 12
PARALLEL_FROM = 5_000_000  # below this a level is too quick to be worth waking threads
QUEUE_BELOW = 5_000_000  # tables this small are searched with a queue (16 bytes a state)
FORMAT_VERSION = 1
MAGIC = b"PUZZLELAB-DISTANCE-TABLE\n"


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
            for o in (b - cols, b + cols, b - 1, b + 1):
                if o < 0 or o >= n or cells[o] == 0:
                    continue
                if (o == b - 1 and bc == 0) or (o == b + 1 and bc == cols - 1):
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
            for o in (b - cols, b + cols, b - 1, b + 1):
                if o < 0 or o >= n:
                    continue
                if (o == b - 1 and bc == 0) or (o == b + 1 and bc == cols - 1):
                    continue
                t = (p >> (4 * o)) & 15
                if t == 0:
                    continue
                q = p & ~(15 << (4 * o))
                q |= t << (4 * b)
                if k == 1 and (o == b - 1 or o == b + 1):
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
    """The optimal number of moves from every reachable state to `goal`."""

    shape: Shape
    goal: State
    depths: np.ndarray = field(repr=False)  # uint8 per index, 255 = unreachable
    counts: np.ndarray  # counts[d] = states at distance d
    seconds: float = 0.0

    def __post_init__(self) -> None:
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
        """The states at these indices, in the goal's own labels."""
        idx = np.asarray(indices, dtype=np.int64).reshape(-1)
        rows = _unrank_states(idx, self._n, self._k, self._half, self._want)
        return [tuple(int(t) for t in r) for r in self._from_label[rows]]

    def distance(self, state: State | str) -> int:
        """Minimum number of moves from `state` to the goal (UnsolvableError if none)."""
        state = self._as_state(state)
        require_solvable(state, self.goal, self.shape)
        d = int(self.depths[self.index(state)])
        if d == UNSEEN:  # cannot happen when is_solvable is right; never answer silently
            raise UnsolvableError(f"{to_text(state)} was not reached by the search from the goal")
        return d

    def path(self, state: State | str) -> list[State]:
        """An optimal list of states from `state` to the goal, each one move from the last."""
        state = self._as_state(state)
        d = self.distance(state)
        out = [state]
        while d > 0:
            for _, nxt in neighbors(out[-1], self.shape):
                if self.depths[self.index(nxt)] == d - 1:
                    out.append(nxt)
                    d -= 1
                    break
        return out

    def farthest(self, limit: int | None = 100) -> list[State]:
        """The states at the maximum distance (at most `limit` of them, in index order)."""
        return self.states_at(self.max_depth, limit)

    def states_at(self, depth: int, limit: int | None = 100) -> list[State]:
        """States at exactly `depth` moves from the goal (at most `limit`, in index order)."""
        idx = np.flatnonzero(self.depths == depth)
        return self.states(idx if limit is None else idx[:limit])

    def _as_state(self, state: State | str) -> State:
        """Parse text boards with this table's shape."""
        if isinstance(state, str | list | np.ndarray):
            return parse_board(state, self.shape)
        return tuple(state)

    # -------------------------------------------------------------------- persistence

    def save(self, path: str | Path) -> Path:
        """Write the table (header with checksum + raw bytes) atomically."""
        path = Path(path)
        header = {
            "version": FORMAT_VERSION,
            "shape": list(self.shape),
            "goal": list(self.goal),
            "counts": self.counts.tolist(),
            "size": int(self.depths.size),
            "sha256": hashlib.sha256(self.depths.data).hexdigest(),
            "seconds": self.seconds,
        }
        with atomic_path(path) as tmp, open(tmp, "wb") as fh:
            fh.write(MAGIC)
            fh.write(json.dumps(header).encode() + b"\n")
            fh.write(self.depths.data)
        return path

    @classmethod
    def load(cls, path: str | Path, verify: bool = True) -> DistanceTable:
        """Read a table written by `save`; CacheError if it is damaged or of another version."""
        path = Path(path)
        with open(path, "rb") as fh:
            if fh.readline() != MAGIC:
                raise CacheError(f"{path} is not a puzzlelab distance table")
            try:
                header = json.loads(fh.readline())
            except json.JSONDecodeError as exc:
                raise CacheError(f"{path}: damaged header; delete the file to rebuild") from exc
            if header.get("version") != FORMAT_VERSION:
                raise CacheError(
                    f"{path} has format version {header.get('version')}, this code reads "
                    f"{FORMAT_VERSION}: delete it to rebuild"
                )
            depths = np.fromfile(fh, dtype=np.uint8)
        if depths.size != header["size"]:
            raise CacheError(f"{path} is truncated ({depths.size} of {header['size']} bytes)")
        if verify and hashlib.sha256(depths.data).hexdigest() != header["sha256"]:
            raise CacheError(f"{path} fails its checksum: delete it to rebuild")
        return cls(
            tuple(header["shape"]),
            tuple(header["goal"]),
            depths,
            np.array(header["counts"]),
            header.get("seconds", 0.0),
        )


# -------------------------------------------------------------------------- builders


def _normalise(shape: Shape, goal: State | str | None) -> tuple[Shape, State]:
    """Check the shape and goal of a table request."""
    rows, cols = int(shape[0]), int(shape[1])
    if rows < 1 or cols < 1:
        raise InvalidPuzzleError(f"shape {shape} needs at least one row and one column")
    if rows * cols > MAX_CELLS:
        raise TooLargeError(
            f"a {rows}x{cols} board has {rows * cols} cells; complete tables stop at "
            f"{MAX_CELLS} cells (3x4 and 2x6 = 239,500,800 states). For 4x4 use "
            "puzzlelab.sliding.solve, which searches with pattern databases instead"
        )
    if rows * cols < 2:
        raise InvalidPuzzleError("a board needs at least two cells")
    goal = solved_state((rows, cols)) if goal is None else parse_board(goal, (rows, cols))
    return (rows, cols), goal


def table_path(shape: Shape, goal: State) -> Path:
    """Where the cached table for this board and goal lives (versioned file name)."""
    name = "-".join(str(t) for t in goal)
    return cache_dir("tables") / f"sliding-v{FORMAT_VERSION}-{shape[0]}x{shape[1]}-{name}.bin"


def distance_table(
    shape: Shape,
    goal: State | str | None = None,
    *,
    cache: bool | None = None,
    progress: bool | None = None,
    threads: int | None = None,
) -> DistanceTable:
    """Complete BFS table for a rows x cols board (up to 12 cells) and any goal.

    `goal` defaults to tiles 1..n-1 with the blank last; several blanks are allowed.
    `cache` (default: boards of 10+ cells) stores the table under cache/tables and loads it
    next time; `progress` (default: the same boards) shows a bar per BFS level.
    """
    shape, goal = _normalise(shape, goal)
    n = shape[0] * shape[1]
    big = n >= 10
    cache = big if cache is None else cache
    path = table_path(shape, goal)
    if cache and path.exists():
        try:
            return DistanceTable.load(path)
        except CacheError:
            path.unlink()
    table = build_table(
        shape, goal, progress=big if progress is None else progress, threads=threads
    )
    if cache:
        table.save(path)
    return table


def cached_table(shape: Shape, goal: State) -> DistanceTable | None:
    """The table for this board and goal if one is cached on disk, else None (no building)."""
    path = table_path(shape, goal)
    if path.exists():
        try:
            return DistanceTable.load(path, verify=False)
        except CacheError:
            return None
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
        for _, t in neighbors(s, shape):
            if t not in seen:
                seen[t] = d
                frontier.append(t)
    return np.bincount(np.fromiter(seen.values(), dtype=np.int64))
