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
FORMAT_VERSION = 1
MAGIC = b"PUZZLELAB-DISTANCE-TABLE\n"


# ------------------------------------------------------------------------- BFS kernels


@njit(cache=True, parallel=True)
def _level1(table, depth, rows, cols, half, want, nthreads):
    """Expand every state at `depth` (one blank); return how many there were."""
    n = rows * cols
    size = table.shape[0]
    chunk = (size + nthreads - 1) // nthreads
    found = np.zeros(nthreads, dtype=np.int64)
    for t in prange(nthreads):
        cells = np.empty(n, dtype=np.int64)
        seq = np.empty(n, dtype=np.int64)
        lo = t * chunk
        hi = min(size, lo + chunk)
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
            if br > 0:
                o = b - cols
                cells[b] = cells[o]
                cells[o] = 0
                j = rk.rank1(cells, n, half, want, seq)
                cells[o] = cells[b]
                cells[b] = 0
                if table[j] == UNSEEN:
                    table[j] = depth + 1
            if br < rows - 1:
                o = b + cols
                cells[b] = cells[o]
                cells[o] = 0
                j = rk.rank1(cells, n, half, want, seq)
                cells[o] = cells[b]
                cells[b] = 0
                if table[j] == UNSEEN:
                    table[j] = depth + 1
        found[t] = count
    return found.sum()


@njit(cache=True, parallel=True)
def _levelk(table, depth, rows, cols, k, nthreads):
    """Expand every state at `depth` on a board with k >= 2 blanks; return the count."""
    n = rows * cols
    size = table.shape[0]
    chunk = (size + nthreads - 1) // nthreads
    found = np.zeros(nthreads, dtype=np.int64)
    for t in prange(nthreads):
        cells = np.empty(n, dtype=np.int64)
        seq = np.empty(n, dtype=np.int64)
        lo = t * chunk
        hi = min(size, lo + chunk)
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
                for d in range(4):
                    if d == 0:
                        if br == 0:
                            continue
                        o = b - cols
                    elif d == 1:
                        if br == rows - 1:
                            continue
                        o = b + cols
                    elif d == 2:
                        if bc == 0:
                            continue
                        o = b - 1
                    else:
                        if bc == cols - 1:
                            continue
                        o = b + 1
                    if cells[o] == 0:
                        continue
                    cells[b] = cells[o]
                    cells[o] = 0
                    j = rk.rankk(cells, n, k, seq)
                    cells[o] = cells[b]
                    cells[b] = 0
                    if table[j] == UNSEEN:
                        table[j] = depth + 1
        found[t] = count
    return found.sum()


@njit(cache=True)
def _rank_state(cells, n, k, half, want):
    """Index of one relabelled state (dispatch on the number of blanks)."""
    seq = np.empty(n, dtype=np.int64)
    if k == 1:
        return rk.rank1(cells, n, half, want, seq)
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

    def index(self, state: State) -> int:
        """The perfect-hash index of a state (checked against the goal's tiles)."""
        check_same_tiles(state, self.goal)
        cells = np.array([self._to_label.get(t, 0) for t in state], dtype=np.int64)
        return int(_rank_state(cells, self._n, self._k, self._half, self._want))

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
    from tqdm.auto import tqdm

    rows, cols = shape
    n, k = rows * cols, goal.count(0)
    if k == n:
        raise InvalidPuzzleError("the goal has no tiles: nothing to slide")
    size = rk.n_indices(n, k)
    depths = np.full(size, UNSEEN, dtype=np.uint8)
    tmp = DistanceTable(shape, goal, depths, np.zeros(1))
    depths[tmp.index(goal)] = 0
    nthreads = threads or numba.get_num_threads()
    t0 = time.perf_counter()
    counts = []
    bar = tqdm(
        total=size, unit="state", disable=not progress, desc=f"BFS {rows}x{cols}", mininterval=1.0
    )
    depth = 0
    while True:
        if k == 1:
            found = _level1(depths, depth, rows, cols, tmp._half, tmp._want, nthreads)
        else:
            found = _levelk(depths, depth, rows, cols, k, nthreads)
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
