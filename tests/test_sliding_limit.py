"""Compact pattern databases (region BFS, 4-bit storage), the fast IDA* and heuristic='pdb:best'.

Small boards and patterns only: the 7-8 and 6-6-6-6 databases are exercised by the tests
marked `slow`, which use them only when they are already in the cache.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import pytest
from conftest import require_shared

from puzzlelab.errors import InvalidPuzzleError, TooLargeError
from puzzlelab.sliding import distance_table, ida, is_solution, solve, solved_state
from puzzlelab.sliding import pdb as pdbmod
from puzzlelab.sliding.ida import kernel_h, kernel_h_many, solve_compact, to_compact
from puzzlelab.sliding.pdb import (
    _rank,
    best_partition,
    build_compact_table,
    build_pattern_table,
    compact_database,
    compact_path,
    ida_star,
    multipliers,
    pattern_database,
    rank_placement_py,
    unpack_compact,
)
from puzzlelab.sliding.solve import solve_with_database

SHAPE3 = (3, 3)
GOAL3 = solved_state(SHAPE3, "first")
KORF_GOAL = tuple(range(16))


@pytest.fixture(scope="module")
def cdb3():
    """Compact 4-4 databases of the 3x3 board (no cache)."""
    return compact_database(SHAPE3, GOAL3, "4-4", cache=False, progress=False)


def dictionary_01_bfs(shape, goal, pattern) -> dict[tuple, int]:
    """Independent reference: a dict 0-1 BFS over (pattern cells, blank), min over blanks."""
    rows, cols = shape
    start = (tuple(goal.index(t) for t in pattern), goal.index(0))
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cells, blank = queue.popleft()
        r, q = divmod(blank, cols)
        steps = ((r > 0, -cols), (r < rows - 1, cols), (q > 0, -1), (q < cols - 1, 1))
        for ok, step in steps:
            if not ok:
                continue
            c = blank + step
            moved = cells.index(c) if c in cells else -1
            nxt = (cells if moved < 0 else cells[:moved] + (blank,) + cells[moved + 1 :], c)
            d = dist[(cells, blank)] + (moved >= 0)
            if d < dist.get(nxt, 10**9):
                dist[nxt] = d
                (queue.appendleft if moved < 0 else queue.append)(nxt)
    best: dict = {}
    for (cells, _), d in dist.items():
        best[cells] = min(d, best.get(cells, 10**9))
    return best


def test_all_tile_compact_pattern_equals_the_distance_table(all3):
    # every tile in the pattern: the regions are single cells, the values exact distances
    boards, depths = all3
    pattern = tuple(range(1, 9))
    table, facts = build_compact_table(SHAPE3, GOAL3, pattern)
    assert table.size == math.perm(9, 8) // 2 and facts["clipped"] == 0
    full = unpack_compact(table, SHAPE3, GOAL3, pattern)
    mult = multipliers(9, 8)
    ranks = [_rank(np.array([list(b).index(t) for t in pattern]), 8, mult) for b in boards]
    assert np.array_equal(full[np.array(ranks)], depths)
    assert facts["depth"] == depths.max() == 31 and facts["reached"] == len(boards)


@pytest.mark.parametrize(
    ("shape", "pattern"),
    [((3, 3), (1, 2, 3)), ((3, 4), (2, 3, 6, 7)), ((2, 5), (1, 2, 6, 7)), ((4, 4), (13, 14, 15))],
)
def test_compact_values_equal_an_independent_01_bfs(shape, pattern):
    goal = tuple(range(shape[0] * shape[1]))
    table, _ = build_compact_table(shape, goal, pattern)
    full = unpack_compact(table, shape, goal, pattern)
    ref = dictionary_01_bfs(shape, goal, pattern)
    assert len(ref) == math.perm(len(goal), len(pattern))
    rng = np.random.default_rng(7)
    keys = list(ref)
    for i in rng.choice(len(keys), min(len(keys), 600), replace=False):
        assert full[rank_placement_py(list(keys[i]), len(goal))] == ref[keys[i]], keys[i]


def test_compact_table_equals_the_byte_table_on_a_4x4_pattern():
    # tiles 1 and 4 can wall the blank's corner off: placements with several regions
    pattern = (1, 2, 4, 5)
    table, _ = build_compact_table((4, 4), KORF_GOAL, pattern)
    full = unpack_compact(table, (4, 4), KORF_GOAL, pattern)
    assert np.array_equal(full, build_pattern_table((4, 4), KORF_GOAL, pattern))


def test_compact_h_is_admissible_on_every_3x3_board_and_matches_the_byte_databases(cdb3, all3):
    boards, depths = all3
    h = kernel_h_many(cdb3, boards)
    assert (h <= depths).all() and h[depths == 0].tolist() == [0]
    byte_db = pattern_database(SHAPE3, GOAL3, "4-4", cache=False, progress=False)
    assert np.array_equal(h, pdbmod.kernel_h_many(byte_db, boards))
    assert np.array_equal(h, kernel_h_many(to_compact(byte_db), boards))
    rng = np.random.default_rng(3)
    for row in boards[rng.integers(0, len(boards), 200)]:
        s = tuple(int(t) for t in row)
        assert kernel_h(cdb3, s) == cdb3.h(s)


def test_fast_idastar_is_optimal_on_random_3x3_boards(cdb3, all3):
    boards, depths = all3
    rng = np.random.default_rng(5)
    for i in rng.integers(0, len(boards), 150):
        board = tuple(int(t) for t in boards[i])
        res = solve_compact(cdb3, board)
        assert res.verdict == "optimal" and res.length == depths[i]
        assert is_solution(board, res.moves, GOAL3, SHAPE3) and res.states[-1] == GOAL3
        assert res.expanded >= (res.length > 0) and res.generated >= res.length


def test_fast_idastar_is_optimal_on_2x5_with_any_labels():
    # a rectangular board (no reflection), keypad-style labels, the blank at the end
    shape = (2, 5)
    goal = (10, 20, 30, 40, 50, 60, 70, 80, 90, 0)
    table = distance_table(shape, goal)
    db = compact_database(shape, goal, "3-3-3", cache=False, progress=False)
    assert db._refl is None
    rng = np.random.default_rng(11)
    idx = rng.choice(table.depths.size, 60, replace=False)
    for board, d in zip(table.states(idx), table.depths[idx], strict=True):
        assert db.h(board) <= d
        res = solve_compact(db, board)
        assert res.verdict == "optimal" and res.length == d
        assert is_solution(board, res.moves, goal, shape)


def test_fast_idastar_budget_and_parity(cdb3, table3):
    far = table3.farthest(1)[0]
    res = solve_compact(cdb3, far, max_expanded=10)
    assert res.verdict == "limit" and res.length is None and res.expanded == 10
    assert "max_expanded=10" in res.note
    assert solve_compact(cdb3, far, max_seconds=0).verdict == "limit"
    swapped = list(GOAL3)
    swapped[1], swapped[2] = swapped[2], swapped[1]
    assert solve_compact(cdb3, tuple(swapped)).verdict == "unsolvable"
    assert solve_compact(cdb3, far, max_depth=5).verdict == "limit"


def test_compact_cache_round_trip_damage_and_label_free_names(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path))
    first = compact_database(SHAPE3, GOAL3, "4-4", progress=False)
    assert not any(f["loaded"] for f in first.facts)
    path = compact_path(SHAPE3, GOAL3, first.patterns[0])
    assert path.exists() and path.is_relative_to(tmp_path) and "-v1-" in path.name
    relabelled = tuple(0 if t == 0 else 10 * t for t in GOAL3)
    assert compact_path(SHAPE3, relabelled, tuple(10 * t for t in first.patterns[0])) == path
    again = compact_database(SHAPE3, GOAL3, "4-4", progress=False)
    assert all(f["loaded"] for f in again.facts)
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.warns(RuntimeWarning, match="rebuilding"):
        rebuilt = compact_database(SHAPE3, GOAL3, "4-4", progress=False)
    for a, b in zip(first.tables, rebuilt.tables, strict=True):
        assert np.array_equal(a, b)


def test_too_little_memory_is_refused_with_the_amount(monkeypatch):
    monkeypatch.setattr(pdbmod, "available_memory", lambda: 100 * 2**20)
    with pytest.raises(TooLargeError, match=r"needs about \d\.\d GiB .* only 0\.1 GiB"):
        pdbmod.check_memory(16, 8)
    with pytest.raises(TooLargeError, match="GiB"):
        compact_database((4, 4), KORF_GOAL, [tuple(range(1, 9)), tuple(range(9, 16))], cache=False)


def test_best_partitions_and_bad_input():
    assert best_partition((4, 4)) == "7-8" and best_partition((5, 5)) == "6-6-6-6"
    assert best_partition((3, 4)) == "6-5"
    groups = pdbmod.default_patterns((5, 5), tuple(range(25)), "6-6-6-6")
    assert sorted(t for g in groups for t in g) == list(range(1, 25))
    last = pdbmod.default_patterns((5, 5), solved_state((5, 5)), "6-6-6-6")
    assert [sorted(25 - t for t in g) for g in groups] == [sorted(g) for g in last]
    with pytest.raises(InvalidPuzzleError):
        compact_database(SHAPE3, GOAL3, [(1, 2, 3), (3, 4, 5, 6, 7, 8)], cache=False)
    with pytest.raises(InvalidPuzzleError):
        compact_database(SHAPE3, GOAL3, "4-4", cache="yes")


def test_solve_pdb_best_on_small_boards(tmp_path, monkeypatch, table3):
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path))
    board = table3.farthest(1)[0]
    sol = solve(board, GOAL3, SHAPE3, heuristic="pdb:best", progress=False)
    assert sol.verdict == "optimal" and sol.length == 31 and sol.heuristic == "pdb:best"
    assert sol.method == "idastar-compact" and is_solution(board, sol.moves, GOAL3, SHAPE3)
    capped = solve(board, GOAL3, SHAPE3, heuristic="pdb:best", max_expanded=5, progress=False)
    assert capped.verdict == "limit" and capped.expanded == 5
    db = compact_database(SHAPE3, GOAL3, best_partition(SHAPE3), progress=False)
    again = solve_with_database(board, db, "pdb:best")
    assert again.length == 31 and again.moves == sol.moves


def test_24_puzzle_message_tells_the_truth():
    board = tuple(range(1, 25)) + (0,)
    with pytest.raises(TooLargeError, match="pdb:best") as err:
        solve(board, shape=(5, 5))
    assert "hours to days of search per instance" not in str(err.value)


def test_korf_loaders_read_the_reference_tables():
    require_shared("reference", "sliding", "korf24.tsv")
    from puzzlelab.sliding.data import korf24, korf100

    k100, k24 = korf100(), korf24()
    assert len(k100) == 100 and k100.optimal_length.mean() == pytest.approx(53.05)
    assert len(k24) == 50 and k24.optimal_length.min() == 81
    easy = k24.set_index("id").loc[[38, 40, 25]]
    assert easy.optimal_length.tolist() == [96, 82, 81]


@pytest.mark.slow
def test_6_6_3_in_compact_form_solves_korf_easiest_with_no_more_nodes():
    from puzzlelab.sliding.data import korf100

    rows = korf100().sort_values(["optimal_length", "id"]).head(8)
    db = pattern_database((4, 4), KORF_GOAL, "6-6-3", progress=False)
    fast = to_compact(db)
    for r in rows.itertuples():
        old, new = ida_star(db, r.state), solve_compact(fast, r.state)
        assert old.length == new.length == r.optimal_length
        assert kernel_h(fast, r.state) == db.h(r.state)


def cached_or_skip(shape, partition):
    """The compact databases if all their tables are cached (never builds them in a test)."""
    goal = tuple(range(shape[0] * shape[1]))
    pats = pdbmod.default_patterns(shape, goal, partition)
    if not all((p := compact_path(shape, goal, pat)) and p.exists() for pat in pats):
        pytest.skip(f"the {partition} databases are not cached (build them with pdb:best)")
    return compact_database(shape, goal, partition, progress=False)


@pytest.mark.slow
def test_7_8_solves_all_of_korf_100_optimally():
    from puzzlelab.sliding.data import korf100

    db = cached_or_skip((4, 4), "7-8")
    total = 0
    for r in korf100().itertuples():
        res = solve_compact(db, r.state)
        assert res.verdict == "optimal" and res.length == r.optimal_length, r.id
        total += res.expanded
    assert total <= 2_000_000


@pytest.mark.slow
def test_6_6_6_6_solves_the_easiest_24_puzzle():
    from puzzlelab.sliding.data import korf24

    db = cached_or_skip((5, 5), "6-6-6-6")
    row = korf24().set_index("id").loc[40]
    assert db.h(row.state) == kernel_h(db, row.state) <= row.optimal_length
    res = solve_compact(db, row.state, max_seconds=600)
    assert res.verdict == "optimal" and res.length == row.optimal_length == 82
    assert is_solution(row.state, res.moves, tuple(range(25)), (5, 5))


def test_scramble_and_solve_all(cdb3, table3):
    start = ida.scramble(GOAL3, SHAPE3, 20, rng=4)
    assert start == ida.scramble(GOAL3, SHAPE3, 20, rng=4) and sorted(start) == sorted(GOAL3)
    assert table3.distance(start) <= 20 and table3.distance(start) % 2 == 0
    boards = [start, table3.farthest(1)[0]]
    runs = ida.solve_all(cdb3, boards)
    assert runs.length.tolist() == [table3.distance(b) for b in boards]
    assert (runs.verdict == "optimal").all() and (runs.cpu_seconds >= 0).all()
    byte_db = pattern_database(SHAPE3, GOAL3, "4-4", cache=False, progress=False)
    assert ida.solve_all(byte_db, boards).length.tolist() == runs.length.tolist()


def test_pdb_7_8_is_routed_to_compact_storage():
    from puzzlelab.sliding.pdb import needs_compact

    assert needs_compact((4, 4), KORF_GOAL, "7-8") and not needs_compact((4, 4), KORF_GOAL, "6-6-3")


def test_a_hard_24_puzzle_ends_in_limit_within_its_budget():
    require_shared("reference", "sliding", "korf24.tsv")
    from puzzlelab.sliding.data import korf24

    goal = tuple(range(25))
    db = compact_database((5, 5), goal, "4-4-4-4-4-4", cache=False, progress=False)
    hardest = korf24().sort_values("optimal_length").state.iloc[-1]
    assert db.h(hardest) == kernel_h(db, hardest) < 114
    for limits in ({"max_expanded": 2000}, {"max_seconds": 0.05}):
        sol = solve_with_database(hardest, db, "pdb:4-4-4-4-4-4", **limits)
        assert sol.verdict == "limit" and sol.length is None and not sol.moves
        assert next(iter(limits)) in sol.note
