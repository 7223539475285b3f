"""Pattern databases: ranking, the 0-1 BFS, reflection, the numba IDA* and Korf's 15-puzzles."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from conftest import examples, require_shared
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import InvalidPuzzleError
from puzzlelab.sliding import (
    distance_table,
    is_solution,
    manhattan,
    parse_board,
    solve,
    solved_state,
)
from puzzlelab.sliding.pdb import (
    _rank,
    _unrank,
    build_pattern_table,
    default_patterns,
    ida_star,
    kernel_h,
    kernel_h_many,
    manhattan_database,
    multipliers,
    pattern_database,
    pdb_path,
    placements,
    rank_placement_py,
    reflect,
)

GAME_GOAL = parse_board("789456B23")

SHAPE3 = (3, 3)
GOAL3 = solved_state(SHAPE3, "first")
KORF_GOAL = tuple(range(16))


@pytest.fixture(scope="module")
def db3():
    """The 4-4 additive databases of the 3x3 board (no cache: built in a blink)."""
    return pattern_database(SHAPE3, GOAL3, "4-4", cache=False, progress=False)


@pytest.fixture(scope="session")
def db663():
    """Korf's goal with the 6-6-3 databases: built once per session, cached under cache/pdb."""
    return pattern_database((4, 4), KORF_GOAL, "6-6-3", progress=False)


def korf_rows() -> list[dict]:
    """Korf's 100 instances from ../shared, easiest first."""
    path = require_shared("reference", "sliding", "korf100.tsv")
    with path.open() as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return sorted(rows, key=lambda r: (int(r["optimal_length"]), int(r["id"])))


@examples(200)
@given(st.integers(1, 7).flatmap(lambda k: st.permutations(range(12)).map(lambda p: p[:k])))
def test_rank_matches_reference_and_round_trips(cells):
    n, k = 12, len(cells)
    mult = multipliers(n, k)
    pos = np.array(cells, dtype=np.int64)
    r = _rank(pos, k, mult)
    assert r == rank_placement_py(cells, n)
    assert 0 <= r < placements(n, k)
    back = np.empty(k, dtype=np.int64)
    _unrank(r, k, mult, back)
    assert tuple(back) == tuple(cells)


def test_one_tile_patterns_are_manhattan(all3):
    boards, _ = all3
    db = manhattan_database(SHAPE3, GOAL3)
    sample = boards[::997]
    got = kernel_h_many(db, sample)
    want = [manhattan(tuple(int(t) for t in b), GOAL3, SHAPE3) for b in sample]
    assert list(got) == want


def test_pdb_admissible_on_every_3x3_board_and_beats_manhattan(db3, all3):
    boards, depths = all3
    h = kernel_h_many(db3, boards)
    assert (h <= depths).all()
    assert h[depths == 0].tolist() == [0]
    man = kernel_h_many(manhattan_database(SHAPE3, GOAL3), boards)
    assert (h >= man).all() and h.mean() > man.mean()


def test_kernel_h_matches_python_lookup(db3, all3):
    boards, _ = all3
    rng = np.random.default_rng(3)
    for row in boards[rng.integers(0, len(boards), 300)]:
        s = tuple(int(t) for t in row)
        assert kernel_h(db3, s) == db3.h(s)
        assert db3.h(s) == max(
            sum(db3.pattern_values(s)), sum(db3.pattern_values(reflect(s, SHAPE3, GOAL3)))
        )


def test_reflection_keeps_goal_and_distance(table3, all3):
    boards, depths = all3
    assert reflect(GOAL3, SHAPE3, GOAL3) == GOAL3
    rng = np.random.default_rng(4)
    for i in rng.integers(0, len(boards), 200):
        s = tuple(int(t) for t in boards[i])
        r = reflect(s, SHAPE3, GOAL3)
        assert reflect(r, SHAPE3, GOAL3) == s
        assert table3.distance(r) == depths[i]


def test_numba_idastar_is_optimal_on_3x3(db3, all3):
    boards, depths = all3
    rng = np.random.default_rng(5)
    for i in rng.integers(0, len(boards), 150):
        board = tuple(int(t) for t in boards[i])
        res = ida_star(db3, board)
        assert res.verdict == "optimal" and res.length == depths[i]
        assert res.blank_path[-1] == GOAL3.index(0) and len(res.blank_path) == res.length + 1
        assert is_solution(board, res.moves, GOAL3, SHAPE3) and res.states[-1] == GOAL3


def test_numba_idastar_node_limit(db3, table3):
    far = table3.farthest(1)[0]
    res = ida_star(db3, far, max_expanded=10)
    assert res.verdict == "limit" and res.length is None and res.expanded == 10
    assert "max_expanded=10" in res.note


def test_partitions_are_checked():
    with pytest.raises(InvalidPuzzleError):
        pattern_database(SHAPE3, GOAL3, [(1, 2, 3), (3, 4, 5, 6, 7, 8)], cache=False)
    with pytest.raises(InvalidPuzzleError):
        default_patterns(SHAPE3, GOAL3, "4-3")
    groups = default_patterns((4, 4), KORF_GOAL, "6-6-3")
    assert sorted(len(g) for g in groups) == [3, 6, 6]
    assert sorted(t for g in groups for t in g) == list(range(1, 16))


def test_cache_round_trip_and_damaged_file(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path))
    first = pattern_database(SHAPE3, GOAL3, "4-4", progress=False)
    path = pdb_path(SHAPE3, GOAL3, first.patterns[0])
    assert path.exists() and path.is_relative_to(tmp_path) and "-v2-" in path.name
    path.write_bytes(b"not a table")
    with pytest.warns(RuntimeWarning, match="rebuilding"):
        again = pattern_database(SHAPE3, GOAL3, "4-4", progress=False)
    for a, b in zip(first.tables, again.tables, strict=True):
        assert np.array_equal(a, b)


def test_pattern_table_of_all_tiles_equals_the_distance_table(all3):
    # with every tile in the pattern, the 0-1 BFS is the plain BFS: exact distances
    boards, depths = all3
    pattern = tuple(range(1, 9))
    table = build_pattern_table(SHAPE3, GOAL3, pattern)
    assert table.size == math.perm(9, 8)
    mult = multipliers(9, 8)
    ranks = [_rank(np.array([list(b).index(t) for t in pattern]), 8, mult) for b in boards]
    assert np.array_equal(table[np.array(ranks)], depths)
    assert np.count_nonzero(table != 255) == len(boards)  # the other parity class is unreached


def test_small_pattern_table_equals_a_dictionary_01_bfs():
    # an independent 0-1 BFS over (cells of tiles 1, 2, 3, blank cell) on the 3x3 board
    from collections import deque

    pattern = (1, 2, 3)
    table = build_pattern_table(SHAPE3, GOAL3, pattern)
    start = (tuple(GOAL3.index(t) for t in pattern), GOAL3.index(0))
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cells, blank = queue.popleft()
        for c in (
            blank - 3,
            blank + 3,
            blank - 1 if blank % 3 else -1,
            blank + 1 if blank % 3 < 2 else -1,
        ):
            if not 0 <= c < 9:
                continue
            moved = cells.index(c) if c in cells else -1
            nxt = (cells if moved < 0 else cells[:moved] + (blank,) + cells[moved + 1 :], c)
            d = dist[(cells, blank)] + (moved >= 0)
            if d < dist.get(nxt, 99):
                dist[nxt] = d
                (queue.appendleft if moved < 0 else queue.append)(nxt)
    best: dict = {}
    for (cells, _), d in dist.items():
        best[cells] = min(d, best.get(cells, 99))
    assert len(best) == table.size
    for cells, d in best.items():
        assert table[rank_placement_py(list(cells), 9)] == d


def test_korf_manhattan_column_matches():
    for r in korf_rows():
        s = tuple(int(t) for t in r["tiles"].split())
        assert manhattan(s, KORF_GOAL, (4, 4)) == int(r["manhattan_h0"])


def test_pdb_solves_the_easiest_korf_instances_to_their_published_lengths():
    db = pattern_database((4, 4), KORF_GOAL, "5-5-5", progress=False)
    rows = sorted(korf_rows(), key=lambda r: (int(r["optimal_length"]), int(r["id"])))[:2]
    for r in rows:
        s = tuple(int(t) for t in r["tiles"].split())
        sol = solve(s, KORF_GOAL, (4, 4), "idastar", "pdb:5-5-5", progress=False)
        assert sol.verdict == "optimal" and sol.length == int(r["optimal_length"]), r["id"]
        assert sol.verify() and db.h(s) <= sol.length


@pytest.mark.slow
def test_pdb_solves_ten_korf_instances(db663):
    rows = korf_rows()[:10]
    for r in rows:
        s = tuple(int(t) for t in r["tiles"].split())
        want = int(r["optimal_length"])
        h0 = db663.h(s)
        assert kernel_h(db663, s) == h0
        assert int(r["manhattan_h0"]) <= h0 <= want
        res = ida_star(db663, s)
        assert res.verdict == "optimal" and res.length == want, r["id"]


@pytest.mark.slow
def test_pdb_lower_bound_on_all_korf_instances(db663):
    rows = korf_rows()
    boards = np.array([[int(t) for t in r["tiles"].split()] for r in rows])
    h = kernel_h_many(db663, boards)
    assert (h <= np.array([int(r["optimal_length"]) for r in rows])).all()
    assert (h >= np.array([int(r["manhattan_h0"]) for r in rows])).all()


def test_blank_last_goal_uses_the_turned_split():
    goal = solved_state((4, 4))
    groups = default_patterns((4, 4), goal, "6-6-3")
    assert sorted(t for g in groups for t in g) == list(range(1, 16))
    # turning Korf's split half a turn maps tile t to 16 - t
    korf = default_patterns((4, 4), KORF_GOAL, "6-6-3")
    assert [sorted(16 - t for t in g) for g in korf] == [sorted(g) for g in groups]


def test_eight_tile_pattern_is_refused_with_reason():
    from puzzlelab.errors import TooLargeError

    with pytest.raises(TooLargeError, match="at most 7 tiles"):
        build_pattern_table((4, 4), KORF_GOAL, tuple(range(1, 9)))


@pytest.fixture()
def cache_in(tmp_path, monkeypatch):
    """A private cache folder."""
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_pdb_idastar_with_the_game_goal_and_large_labels():
    table = distance_table((3, 3), GAME_GOAL, cache=False)
    board = parse_board("9B6358247")
    sol = solve(board, GAME_GOAL, (3, 3), algorithm="idastar", heuristic="pdb", progress=False)
    assert sol.verdict == "optimal" and sol.length == table.distance(board) == 27
    assert is_solution(board, sol.moves, GAME_GOAL, (3, 3))
    big = {t: 10 * t for t in range(2, 10)}  # labels 20..90 on nine cells
    goal10 = tuple(big.get(t, 0) for t in GAME_GOAL)
    board10 = tuple(big.get(t, 0) for t in board)
    for heuristic in ("pdb", "manhattan", "pdb-noreflect"):
        sol = solve(board10, goal10, (3, 3), "idastar", heuristic, progress=False)
        assert sol.length == 27 and is_solution(board10, sol.moves, goal10, (3, 3)), heuristic


def test_a_tampered_pattern_database_is_rebuilt(cache_in):
    shape, goal = (3, 3), solved_state((3, 3))
    db = pattern_database(shape, goal, "4-4", progress=False)
    path = pdb_path(shape, goal, db.patterns[0])
    raw = bytearray(path.read_bytes())
    raw[-100] = 99  # a value far above the truth would make IDA* miss the optimum
    path.write_bytes(bytes(raw))
    with pytest.warns(RuntimeWarning, match="checksum"):
        again = pattern_database(shape, goal, "4-4", progress=False)
    assert np.array_equal(again.tables[0], build_pattern_table(shape, goal, db.patterns[0]))
