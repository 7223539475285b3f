"""Fuzz the nonogram entry points: only a PuzzleError or a correct result comes back.

Random text and bytes to the readers, random clues (NaN, inf, negative, huge, floats,
strings) to `Puzzle`, random small grids to `solve` with a budget, and garbage to
`is_solution` (which must return False, never raise). Each call has a deadline.
"""

from __future__ import annotations

import inspect
import itertools
import math

import numpy as np
from conftest import examples, fuzz_call
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import PuzzleError
from puzzlelab.nonogram import (
    Puzzle,
    count_arrangements,
    from_grid,
    is_solution,
    line_clue,
    line_solve,
    line_solve_enumerate,
    line_solve_reference,
    parse_nin,
    parse_non,
    parse_writeup_csv,
    read_puzzle,
    solve,
    solve_writeup,
    write_non,
)

call = fuzz_call()

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


@examples(150)
@given(text)
def test_parsers_give_a_puzzle_or_a_puzzle_error(t):
    for parse in (parse_non, parse_nin, parse_writeup_csv):
        p = call(parse, t)
        assert p is None or (p.height >= 1 and p.width >= 1)


@examples(60)
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


@examples(150)
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


@examples(150)
@given(small, st.booleans(), st.sampled_from(["auto", "sat", "search"]))
def test_small_solves_are_correct(grid, swap, method):
    p = from_grid(grid)
    if swap and p.height > 1:
        p = Puzzle((p.rows[-1], *p.rows[1:-1], p.rows[0]), p.cols)
    res = solve(p, method=method, max_seconds=5, progress=False)
    assert res.verdict == brute_verdict(p)
    assert all(is_solution(p, s) for s in res.solutions)


@examples(150)
@given(small, st.one_of(st.none(), st.integers(0, 3)), st.sampled_from([None, 0, 0.01]))
def test_budgets_end_in_a_verdict(grid, nodes, seconds):
    res = solve(from_grid(grid), max_expanded=nodes, max_seconds=seconds, progress=False)
    assert res.verdict in ("unique", "multiple", "limit")
    assert res.length is None and res.verify()  # deductions are not moves
    assert (res.solutions == []) == (res.verdict == "limit")


@examples(150)
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


@examples(150)
@given(numbers, st.sampled_from(["max_expanded", "max_seconds", "max_solutions", "method"]))
def test_solve_parameters(value, name):
    res = call(solve, Puzzle([[1], [1]], [[1], [1]]), progress=False, **{name: value})
    assert res is None or res.verdict in ("multiple", "feasible", "limit")


@examples(150)
@given(clue, st.lists(st.sampled_from([-1, 0, 1, 2]), max_size=8))
def test_line_solve_random_input(c, cells):
    try:
        out = line_solve(c, cells)
    except PuzzleError:
        return
    assert out is None or (len(out) == len(cells) and set(out.tolist()) <= {-1, 0, 1})


@examples(40)
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


# ------------------------------------------------------- every export on odd input

ODD_ARGS = [
    (),
    (None,),
    ("x",),
    (1.5,),
    (object(),),
    ([[1], [1, 2]],),  # ragged
    (None, None),
    ((1,), "x"),
    ((1,), -1),
    (("a",), 3),
    ([1.5], 3),
    (Puzzle([[1]], [[1]]), "junk"),
    (Puzzle([[1]], [[1]]), [[1, 1], [1]]),
    (Puzzle([[1]], [[1]]), None, "x"),
    ([[True]], 5),
]
RECORDS = ("NonogramResult", "Deduction")  # result records the solvers build, not entry points


def test_every_export_gives_a_result_or_a_puzzle_error(tmp_path, monkeypatch):
    import puzzlelab.nonogram as nonogram

    monkeypatch.chdir(tmp_path)  # write_non("x", ...) must not litter the checkout
    names = [n for n in nonogram.__all__ if callable(getattr(nonogram, n)) and n not in RECORDS]
    names = [n for n in names if n != "Clue"]  # a type alias (tuple[int, ...]), not a function
    assert {"count_arrangements", "read_puzzle", "parse_non", "from_grid", "solve"} <= set(names)
    tried = 0
    for name in names:
        fn = getattr(nonogram, name)
        for args in ODD_ARGS:
            try:  # wrong types and values, not a wrong number of arguments
                inspect.signature(fn).bind(*args)
            except TypeError:
                continue
            call(fn, *args)
            tried += 1
    assert tried > 3 * len(names)


def test_named_odd_inputs_are_puzzle_errors():
    for fn, args in [
        (count_arrangements, ("x", 3)),
        (count_arrangements, ((1,), None)),
        (read_puzzle, (None,)),
        (parse_non, (None,)),
        (parse_nin, (b"1 1",)),
        (parse_writeup_csv, (3,)),
        (from_grid, ([[1, 0], [1]],)),
        (from_grid, ([["#", "."]],)),
        (line_clue, (None,)),
        (line_solve, ((1,), [0, 0], 5)),
    ]:
        try:
            fn(*args)
        except PuzzleError:
            continue
        raise AssertionError(f"{fn.__name__}{args!r} gave no PuzzleError")


def test_from_grid_reads_text_cells_as_digits():
    p = from_grid([["0", "1"], ["1", "0"]])
    assert p.rows == ((1,), (1,)) and p.cols == ((1,), (1,))  # not four filled cells
    assert from_grid(np.array([[1, -1], [-1, 1]])) == from_grid([[1, 0], [0, 1]])
    assert from_grid([[1.0, 0.0]]).rows == ((1,),)


def test_huge_lines_are_refused_before_allocating():
    from puzzlelab.errors import TooLargeError

    for solver in (line_solve, line_solve_reference):
        try:
            solver([1] * 2000, n=5_000_000)
        except TooLargeError as exc:
            assert "GiB" in str(exc)
        else:
            raise AssertionError(f"{solver.__name__} accepted a 10^10-cell table")


def test_line_solvers_agree_on_a_line_too_short():
    for n in (0, 1):
        assert line_solve((2,), n=n) is None
        assert line_solve_reference((2,), n=n) is None
        assert line_solve_enumerate((2,), n=n) is None
    assert line_solve_enumerate((), n=0).tolist() == line_solve((), n=0).tolist() == []


def test_write_non_into_a_folder_or_a_read_only_folder(tmp_path, monkeypatch):
    import puzzlelab.paths

    p = Puzzle([[1]], [[1]])
    (tmp_path / "dir.non").mkdir()
    for target in (tmp_path, tmp_path / "dir.non"):
        try:
            write_non(p, target)
        except PuzzleError as exc:
            assert "folder" in str(exc)
        else:
            raise AssertionError("wrote over a folder")

    def refuse(target, text):  # what a read-only folder does (even to root on some mounts)
        raise PermissionError(13, "Permission denied", str(target))

    monkeypatch.setattr(puzzlelab.paths, "atomic_write_text", refuse)
    try:
        write_non(p, tmp_path / "p.non")
    except PuzzleError as exc:
        assert "cannot write" in str(exc) and "Permission denied" in str(exc)
    else:
        raise AssertionError("no PuzzleError from a folder that refuses writes")


@examples(150)
@given(small, st.booleans())
def test_writeup_unsolvable_is_a_proof(grid, swap):
    p = from_grid(grid)
    if swap and p.height > 1:
        p = Puzzle((p.rows[-1], *p.rows[1:-1], p.rows[0]), p.cols)
    res = solve_writeup(p)
    truth = brute_verdict(p)
    if res.verdict == "unsolvable":
        assert truth == "unsolvable"
    if res.verdict == "feasible":
        assert truth != "unsolvable" and res.verify()


def test_writeup_gives_up_instead_of_a_false_unsolvable():
    p = Puzzle([(1, 2), (3,), (1,)], [(), (1,), (1,), (2,), (2,), (1,)])
    assert brute_verdict(p) == "multiple"
    res = solve_writeup(p)
    assert res.verdict == "limit" and res.outcome == "gave_up" and "proves nothing" in res.note
    assert res.verify() and res.solutions == []
