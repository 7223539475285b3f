"""The fast IDA* kernel: compact additive databases, reflected lookup, children in f order.

One compiled loop, no Python inside it. Per move it updates, instead of recomputing:

* the Manhattan distance `md` (one table read for the moved tile),
* the stored nibble of the moved tile's pattern, and of its reflected twin's pattern;

so h = md + 2 * max(sum of nibbles, sum of reflected nibbles) (reflection keeps md). A
child is pruned on the plain sum before the reflected lookup is made (the larger bound is
only needed when the plain one does not already prune). The surviving children are tried
in order of f, smallest first, and the move that would undo the parent's is never made.

Counting: `expanded` = nodes whose children were generated (the root of each iteration
included); `generated` = children made (pruned ones included; the parent's undo move is
never made, so it is not counted). A goal is recognised when it is generated with f within
the bound (its f is then its length, the optimum).

`solve_compact` is the typed wrapper; `kernel_h` gives the kernel's h for a board (tested
against `CompactDatabase.h`, the slow obvious lookup).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from ..errors import InvalidPuzzleError
from ..results import Budget
from .board import State
from .pdb import (
    _BUDGET,
    _DEEP,
    NO_DEADLINE,
    CompactDatabase,
    IDAResult,
    PatternDatabase,
    _late,
    _neighbor_cells,
    cell_distances,
    compact_key,
    ida_result,
    multipliers,
    placements,
)

METHOD = "idastar-compact"


def _popcounts() -> np.ndarray:
    """Bits set in every 16-bit number (for the rank's "free cells below" counts)."""
    x = np.arange(1 << 16, dtype=np.uint32)
    out = np.zeros(1 << 16, dtype=np.uint8)
    for i in range(16):
        out += ((x >> i) & 1).astype(np.uint8)
    return out


POPCOUNT = _popcounts()


def compact_kernel_args(db: CompactDatabase) -> tuple:
    """(tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile, use_refl, mdist)."""
    n = len(db.goal)
    n_pat = len(db.patterns)
    kmax = max(len(p) for p in db.patterns)
    pat_tiles = np.zeros((n_pat, kmax), dtype=np.int64)
    pat_k = np.array([len(p) for p in db.patterns], dtype=np.int64)
    mults = np.zeros((n_pat, kmax), dtype=np.int64)
    offsets = np.zeros(n_pat, dtype=np.int64)
    pat_of = np.full(n, -1, dtype=np.int64)
    parts, off = [], 0
    for i, p in enumerate(db._ipatterns):
        pat_tiles[i, : len(p)] = p
        mults[i, : len(p)] = multipliers(n, len(p))
        offsets[i] = off
        parts.append(db.tables[i])
        off += 2 * db.tables[i].size  # entries; every table has an even number of slots
        for t in p:
            pat_of[t] = i
    tables = np.concatenate(parts)
    if db._refl is None:
        rcell, rtile, use_refl = np.arange(n), np.arange(n), False
    else:
        (rcell, rtile), use_refl = db._refl, True
    dist = cell_distances(db.shape)
    mdist = np.zeros((n, n), dtype=np.int64)
    for cell, t in enumerate(db._igoal):
        if t:
            mdist[t] = dist[cell]
    return tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile, use_refl, mdist


def to_compact(db: PatternDatabase) -> CompactDatabase:
    """The same databases in compact form (each byte value v stored as (v - md) / 2)."""
    from .pdb import _pattern_md

    n = len(db.goal)
    dist = cell_distances(db.shape)
    tables = []
    for pat, table in zip(db._ipatterns, db.tables, strict=True):
        k = len(pat)
        goal_pos = np.array([db._igoal.index(t) for t in pat], dtype=np.int64)
        md = _pattern_md(placements(n, k), k, multipliers(n, k), goal_pos, dist)
        diff = np.where(table == 255, 0, (table.astype(np.int64) - md) // 2)
        nib = np.zeros(2 * ((table.size + 1) // 2), dtype=np.uint8)
        nib[: table.size] = np.minimum(diff, 15)
        tables.append((nib[0::2] | (nib[1::2] << 4)).astype(np.uint8))
    facts = [{"converted_from": db.name, "key": compact_key(db.shape, db._igoal, p)}
             for p in db._ipatterns]  # fmt: skip
    return CompactDatabase(db.shape, db.goal, db.patterns, tables, db.seconds, db.reflected, facts)


@njit(cache=True, inline="always")
def _value(pos, p, tables, offsets, pat_tiles, pat_k, mults, pc):
    """The stored nibble of pattern p for tile cells `pos`."""
    used = 0
    r = 0
    for i in range(pat_k[p]):
        c = pos[pat_tiles[p, i]]
        below = used & ((1 << c) - 1)
        r += (c - pc[below & 0xFFFF] - pc[below >> 16]) * mults[p, i]
        used |= 1 << c
    idx = offsets[p] + r
    return (tables[idx >> 1] >> ((idx & 1) << 2)) & 15


@njit(cache=True)
def _root(cells, tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile, mdist, pc):
    """(md, plain nibbles per pattern, reflected nibbles per pattern, pos, rpos) of a board."""
    n = cells.shape[0]
    n_pat = pat_k.shape[0]
    pos = np.empty(n, dtype=np.int64)
    rpos = np.empty(n, dtype=np.int64)
    md = 0
    for c in range(n):
        t = cells[c]
        pos[t] = c
        rpos[rtile[t]] = rcell[c]
        md += mdist[t, c]
    hn = np.zeros(n_pat, dtype=np.int64)
    hr = np.zeros(n_pat, dtype=np.int64)
    for p in range(n_pat):
        hn[p] = _value(pos, p, tables, offsets, pat_tiles, pat_k, mults, pc)
        hr[p] = _value(rpos, p, tables, offsets, pat_tiles, pat_k, mults, pc)
    return md, hn, hr, pos, rpos


@njit(cache=True)
def _h_many(boards, tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile, use_refl,
            mdist, pc):  # fmt: skip
    """The kernel's h for every row of `boards` (internal labels)."""
    out = np.empty(boards.shape[0], dtype=np.int64)
    for i in range(boards.shape[0]):
        md, hn, hr, _, _ = _root(
            boards[i], tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile, mdist, pc
        )
        out[i] = md + 2 * (max(hn.sum(), hr.sum()) if use_refl else hn.sum())
    return out


@njit(cache=True)
def _search(
    cells0, rows, cols, tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile,
    use_refl, mdist, pc, max_depth, node_limit, deadline,
):  # fmt: skip
    """IDA* from cells0 (internal labels, one blank) to the goal (md = 0).

    Returns (status, blank cells along the path, expanded, generated, iterations); status
    is the length, `_DEEP` (nothing within max_depth) or `_BUDGET` (node limit/deadline).
    """
    n = rows * cols
    nbr = _neighbor_cells(rows, cols)
    cells = cells0.copy()
    md, hn, hr, pos, rpos = _root(
        cells, tables, offsets, pat_of, pat_tiles, pat_k, mults, rcell, rtile, mdist, pc
    )
    sn = hn.sum()
    sr = hr.sum() if use_refl else 0
    blank0 = 0
    for c in range(n):
        if cells[c] == 0:
            blank0 = c
    m = max_depth + 2
    path = np.empty(m, dtype=np.int64)
    path[0] = blank0
    expanded = 0
    generated = 0
    iterations = 0
    if md == 0:
        return 0, path[:1], expanded, generated, iterations
    # per depth: the surviving children (cell, plain nibble, reflected nibble) in f order,
    # the next one to try, and what the move into depth+1 replaced (for the undo)
    kc = np.zeros((m, 4), dtype=np.int64)
    kv = np.zeros((m, 4), dtype=np.int64)
    kr = np.zeros((m, 4), dtype=np.int64)
    kf = np.zeros((m, 4), dtype=np.int64)
    nk = np.zeros(m, dtype=np.int64)
    ki = np.zeros(m, dtype=np.int64)
    old_v = np.zeros(m, dtype=np.int64)
    old_r = np.zeros(m, dtype=np.int64)
    bound = md + 2 * max(sn, sr)
    while bound <= max_depth:
        iterations += 1
        next_bound = 1 << 30
        depth = 0
        fresh = True  # the node at `depth` still needs its children generated
        while True:
            if fresh:
                fresh = False
                if expanded >= node_limit or _late(expanded, deadline):
                    return _BUDGET, path[:1], expanded, generated, iterations
                expanded += 1
                b = path[depth]
                parent = path[depth - 1] if depth > 0 else -1
                cnt = 0
                g1 = depth + 1
                for d in range(4):
                    c = nbr[b, d]
                    if c < 0 or c == parent:
                        continue
                    generated += 1
                    t = cells[c]
                    md2 = md + mdist[t, b] - mdist[t, c]
                    p = pat_of[t]
                    pos[t] = b
                    v = _value(pos, p, tables, offsets, pat_tiles, pat_k, mults, pc)
                    pos[t] = c
                    sn2 = sn - hn[p] + v
                    f = g1 + md2 + 2 * sn2
                    if f > bound:
                        if f < next_bound:
                            next_bound = f
                        continue
                    vr = 0
                    if use_refl:
                        rt = rtile[t]
                        rp = pat_of[rt]
                        rpos[rt] = rcell[b]
                        vr = _value(rpos, rp, tables, offsets, pat_tiles, pat_k, mults, pc)
                        rpos[rt] = rcell[c]
                        sr2 = sr - hr[rp] + vr
                        if sr2 > sn2:
                            f = g1 + md2 + 2 * sr2
                            if f > bound:
                                if f < next_bound:
                                    next_bound = f
                                continue
                    if md2 == 0:  # the goal, within the bound: optimal
                        path[depth + 1] = c
                        return depth + 1, path[: depth + 2].copy(), expanded, generated, iterations
                    j = cnt  # insert in f order (stable: ties keep direction order)
                    while j > 0 and kf[depth, j - 1] > f:
                        kc[depth, j] = kc[depth, j - 1]
                        kv[depth, j] = kv[depth, j - 1]
                        kr[depth, j] = kr[depth, j - 1]
                        kf[depth, j] = kf[depth, j - 1]
                        j -= 1
                    kc[depth, j] = c
                    kv[depth, j] = v
                    kr[depth, j] = vr
                    kf[depth, j] = f
                    cnt += 1
                nk[depth] = cnt
                ki[depth] = 0
            if ki[depth] < nk[depth] and depth < max_depth:
                i = ki[depth]
                ki[depth] += 1
                b = path[depth]
                c = kc[depth, i]
                t = cells[c]
                cells[b] = t
                cells[c] = 0
                pos[t] = b
                md += mdist[t, b] - mdist[t, c]
                p = pat_of[t]
                old_v[depth] = hn[p]
                sn += kv[depth, i] - hn[p]
                hn[p] = kv[depth, i]
                if use_refl:
                    rt = rtile[t]
                    rp = pat_of[rt]
                    rpos[rt] = rcell[b]
                    old_r[depth] = hr[rp]
                    sr += kr[depth, i] - hr[rp]
                    hr[rp] = kr[depth, i]
                depth += 1
                path[depth] = c
                fresh = True
                continue
            if depth == 0:
                break
            depth -= 1  # undo the move from path[depth] into path[depth + 1]
            b = path[depth]
            c = path[depth + 1]
            t = cells[b]
            cells[c] = t
            cells[b] = 0
            pos[t] = c
            md += mdist[t, c] - mdist[t, b]
            p = pat_of[t]
            sn += old_v[depth] - hn[p]
            hn[p] = old_v[depth]
            if use_refl:
                rt = rtile[t]
                rp = pat_of[rt]
                rpos[rt] = rcell[c]
                sr += old_r[depth] - hr[rp]
                hr[rp] = old_r[depth]
        bound = next_bound
    return _DEEP, path[:1], expanded, generated, iterations


def kernel_h_many(db: CompactDatabase, boards: np.ndarray) -> np.ndarray:
    """The compiled h for many boards at once (rows of tiles in the goal's labels)."""
    return _h_many(db.internal_many(boards), *db.kernel_args(), POPCOUNT)


def kernel_h(db: CompactDatabase, state: State) -> int:
    """The compiled h of one board (tested against the slow `CompactDatabase.h`)."""
    return int(kernel_h_many(db, np.array([state]))[0])


def run(db: CompactDatabase, start: State, limits: Budget, max_depth: int = 1000) -> IDAResult:
    """The fast IDA* on a start already checked (same tiles as the goal, solvable)."""
    cells = np.array(db.internal(start), dtype=np.int64)
    deadline = NO_DEADLINE if limits.max_seconds is None else limits.started + limits.max_seconds
    found = _search(
        cells, db.shape[0], db.shape[1], *db.kernel_args(), POPCOUNT, max_depth,
        limits.kernel_nodes(), deadline,
    )  # fmt: skip
    return ida_result(METHOD, found, start, db.shape, limits, max_depth)


def solve_compact(
    db: CompactDatabase,
    state: State | str,
    max_depth: int = 1000,
    max_expanded: int | None = None,
    max_seconds: float | None = None,
) -> IDAResult:
    """The fast IDA* with compact databases `db` from `state` to `db.goal` (`pdb.ida_star`,
    which checks the board and dispatches here; compact databases only)."""
    from .pdb import ida_star

    if not isinstance(db, CompactDatabase):
        raise InvalidPuzzleError("solve_compact needs compact databases (compact_database)")
    return ida_star(db, state, max_depth, max_expanded, max_seconds)


def solve_all(db: PatternDatabase, states, max_seconds: float | None = None) -> pd.DataFrame:
    """Solve every board with `db` (the fast kernel for compact databases, else the present one).

    Returns one row per board: length, verdict, expanded, generated and cpu_seconds
    (process time of that search alone).
    """
    import time

    from .pdb import ida_star

    search = ida_star  # the fast kernel for compact databases, else the present one
    search(db, states[0], max_expanded=1)  # compile (or load) the kernel outside the timing
    rows = []
    for s in states:
        c0 = time.process_time()
        res = search(db, s, max_seconds=max_seconds)
        cpu = time.process_time() - c0
        rows.append({"length": res.length, "verdict": res.verdict, "expanded": res.expanded,
                     "generated": res.generated, "cpu_seconds": cpu})  # fmt: skip
    return pd.DataFrame(rows)


def scramble(goal: State, shape: tuple[int, int], moves: int, rng=None) -> State:
    """A board `moves` random slides from `goal` (no slide undoes the one before it)."""
    from ..checks import rng as make_rng

    gen = make_rng(rng)
    nbr = _neighbor_cells(*shape)
    board, blank, last = list(goal), goal.index(0), -1
    for _ in range(moves):
        options = [int(c) for c in nbr[blank] if c >= 0 and c != last]
        c = options[int(gen.integers(len(options)))]
        board[blank], board[c], last, blank = board[c], 0, blank, c
    return tuple(board)
