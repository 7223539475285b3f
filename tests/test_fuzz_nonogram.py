"""Fuzz the nonogram entry points (issue 10): only a PuzzleError or a correct result comes back.

Random text and bytes to the readers, random clues (NaN, inf, negative, huge, floats,
strings) to `Puzzle`, random small grids to `solve` with a budget, and garbage to
`is_solution` (which must return False, never raise). Each call has a deadline.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from conftest import fuzz_call
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlelab.errors import PuzzleError
from puzzlelab.nonogram import (
    Puzzle,
    from_grid,
    is_solution,
    line_clue,
    line_solve,
    parse_nin,
    parse_non,
    parse_writeup_csv,
    read_puzzle,
    solve,
    write_non,
)

call = fuzz_call()
FAST = settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])

numbers = st.one_of(
    st.integers(-3, 12),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1.7, 2.0, math.inf, -math.inf, math.nan, True, None, "1", np.int64(2)]),
)
clue = st.lists(numbers, max_size=4)
words = ["inf", "nan", "1.7", "width 2", "height 2", "rows", "columns", "goal ", "\n", " ", ","]
text = st.lists(
    st.one_of(st.sampled_from(words), st.text(alphabet='0123456789 ,;-.\n\r\t"#xe')),
    max_size=30,
).map("".join)


@FAST
@given(text)
def test_parsers_give_a_puzzle_or_a_puzzle_error(t):
    for parse in (parse_non, parse_nin, parse_writeup_csv):
        p = call(parse, t)
        assert p is None or (p.height >= 1 and p.width >= 1)


@settings(max_examples=60, deadline=2000)
@given(st.binary(max_size=120), st.sampled_from([".non", ".nin", ".csv", ".txt"]))
def test_read_puzzle_on_random_bytes(tmp_path_factory, data, suffix):
    path = tmp_path_factory.mktemp("fuzz") / f"p{suffix}"
    path.write_bytes(data)
    call(read_puzzle, path)


def test_non_utf8_and_missing_files(tmp_path):
    bad = tmp_path / "latin.non"
    bad.write_bytes(b'title "caf\xe9"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n')
    for path in (bad, tmp_path / "missing.nin"):
        try:
            read_puzzle(path)
        except PuzzleError as exc:
            assert path.name in str(exc)
        else:
            raise AssertionError("no error")


@FAST
@given(st.lists(clue, min_size=0, max_size=4), st.lists(clue, min_size=0, max_size=4))
def test_puzzle_from_random_clues(rows, cols):
    p = call(Puzzle, rows, cols)
    if p is None:
        return
    assert all(isinstance(v, int) and v > 0 for c in p.rows + p.cols for v in c)
    for c, raw in zip(p.rows, rows, strict=True):
        assert list(c) == [int(v) for v in raw if v != 0]  # nothing truncated or dropped


def test_floats_and_non_integers_are_refused():
    for bad in ([1.7], [math.inf], [math.nan], [2.0], ["1"], [None], [True], "12", 5):
        try:
            Puzzle([bad], [[1]])
        except PuzzleError:
            continue
        raise AssertionError(f"clue {bad!r} accepted")


def brute_verdict(p: Puzzle) -> str:
    """unsolvable / unique / multiple by trying every grid (tiny boards only)."""
    R, C = p.shape
    found = 0
    for bits in itertools.product((False, True), repeat=R * C):
        g = np.array(bits).reshape(R, C)
        if all(line_clue(g[r]) == p.rows[r] for r in range(R)) and all(
            line_clue(g[:, c]) == p.cols[c] for c in range(C)
        ):
            found += 1
            if found == 2:
                return "multiple"
    return ["unsolvable", "unique"][found]


small = st.integers(1, 4).flatmap(
    lambda r: st.integers(1, 4).flatmap(
        lambda c: st.lists(st.booleans(), min_size=r * c, max_size=r * c).map(
            lambda v: np.array(v, dtype=bool).reshape(r, c)
        )
    )
)


@FAST
@given(small, st.booleans(), st.sampled_from(["auto", "sat", "search"]))
def test_small_solves_are_correct(grid, swap, method):
    p = from_grid(grid)
    if swap and p.height > 1:
        p = Puzzle((p.rows[-1], *p.rows[1:-1], p.rows[0]), p.cols)
    res = solve(p, method=method, max_seconds=5, progress=False)
    assert res.verdict == brute_verdict(p)
    assert all(is_solution(p, s) for s in res.solutions)


@FAST
@given(small, st.one_of(st.none(), st.integers(0, 3)), st.sampled_from([None, 0, 0.01]))
def test_budgets_end_in_a_verdict(grid, nodes, seconds):
    res = solve(from_grid(grid), max_nodes=nodes, max_seconds=seconds, progress=False)
    assert res.verdict in ("unique", "multiple", "limit")
    assert (res.length is None) == (res.verdict == "limit")


@FAST
@given(
    st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=5),
        st.lists(st.lists(numbers, max_size=3), max_size=3),
        small,
    )
)
def test_is_solution_never_raises(grid):
    p = Puzzle([[1], [1]], [[1], [1]])
    assert is_solution(p, grid) in (True, False)
    assert is_solution("not a puzzle", grid) is False


@FAST
@given(numbers, st.sampled_from(["max_nodes", "max_seconds", "max_solutions", "method"]))
def test_solve_parameters(value, name):
    res = call(solve, Puzzle([[1], [1]], [[1], [1]]), progress=False, **{name: value})
    assert res is None or res.verdict in ("multiple", "feasible", "limit")


@FAST
@given(clue, st.lists(st.sampled_from([-1, 0, 1, 2]), max_size=8))
def test_line_solve_random_input(c, cells):
    try:
        out = line_solve(c, cells)
    except PuzzleError:
        return
    assert out is None or (len(out) == len(cells) and set(out.tolist()) <= {-1, 0, 1})


@settings(max_examples=40, deadline=2000)
@given(st.text(max_size=20))
def test_write_non_output_reads_back(tmp_path_factory, title):
    path = tmp_path_factory.mktemp("w") / "t.non"
    try:
        p = Puzzle([[1]], [[1]], title=title)
        write_non(p, path, overwrite=True)
    except PuzzleError:
        assert title.splitlines() != [title] or any(ord(ch) < 32 or ord(ch) == 127 for ch in title)
        return
    back = read_puzzle(path)
    assert back == p and back.title == (title or "t")
