"""Nonograms by feature: the puzzle and its formats, line solvers, solve and the write-up's
method on the result protocol, figures, and the exhaustive counts."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError, TooLargeError
from puzzlelab.nonogram import (
    EMPTY,
    FILLED,
    UNKNOWN,
    Puzzle,
    arrangements,
    count_arrangements,
    format_non,
    format_writeup_csv,
    from_grid,
    is_line_solvable,
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
from puzzlelab.nonogram.census import exhaustive_counts, exhaustive_counts_reference
from puzzlelab.paths import data_dir
from puzzlelab.results import STATS_KEYS


def baseline_is_checked(p: Puzzle, res) -> bool:
    """A result whose solution is altered no longer verifies (verify is not a rubber stamp)."""
    bad = res.solutions[0].copy()
    bad[0, 0] = ~bad[0, 0]
    res.solutions[0], good = bad, res.solutions[0]
    try:
        return not res.verify()
    finally:
        res.solutions[0] = good


# the issue's listing of the write-up's 20x20 example
WRITEUP_ROWS = (
    "3|5|3 1|2 1|3 3 4|2 2 7|6 1 1|4 2 2|1 1|3 1|6|2 7|6 3 1|1 2 2 1 1|4 1 1 3"
    "|4 2 2|3 3 1|3 3|3|2 1"
)
WRITEUP_COLS = (
    "2|1 2|2 3|2 3|3 1 1|2 1 1|1 1 1 2 2|1 1 3 1 3|2 6 4|3 3 9 1|5 3 2|3 1 2 2|2 1 7|3 3 2|2 4"
    "|2 1 2|2 2 1|2 2|1|1"
)


def clues(text: str) -> list[list[int]]:
    """'3 1|2' -> [[3, 1], [2]] (the issue's listing)."""
    return [[int(v) for v in part.split()] for part in text.split("|")]


# ------------------------------------------------------------------- puzzle and formats


def test_writeup_csv_is_the_issue_puzzle():
    p = read_puzzle(data_dir("nonogram", "writeup_20x20.csv"))
    assert p.shape == (20, 20)
    assert p == Puzzle(clues(WRITEUP_ROWS), clues(WRITEUP_COLS))


def test_writeup_puzzle_is_solved_and_unique():
    p = read_puzzle(data_dir("nonogram", "writeup_20x20.csv"))
    res = solve(p)
    assert res.verdict == "unique" and res.length is None  # deductions are not moves
    assert res.details()["deductions"] == len(res.moves) == len(res.states) - 1
    assert res.verify() and baseline_is_checked(p, res)
    assert is_solution(p, res.solution)
    assert not res.line_solvable  # line logic stalls; probing finishes it
    baseline = solve_writeup(p)
    assert baseline.outcome == "solved" and baseline.verdict == "feasible"
    assert type(baseline) is type(res) and baseline.method == "writeup" and baseline.verify()
    assert len(baseline.states) == len(baseline.moves) + 1 == baseline.details()["passes"] + 1
    assert tuple(baseline.stats()) == STATS_KEYS == tuple(res.stats())
    assert res.details()["class"] == "BRANCH" and baseline.details()["guesses"] == 4
    assert np.array_equal(baseline.grid == FILLED, res.solution)


def test_validation_names_the_line():
    with pytest.raises(InvalidPuzzleError, match="row 2: clue 3 2 needs 6 cells"):
        Puzzle([[1], [3, 2]], [[1]] * 5)
    with pytest.raises(InvalidPuzzleError, match="column 1"):
        Puzzle([[1], [1]], [[1, 1, 1], [1]])
    with pytest.raises(InvalidPuzzleError, match="row clues fill 2 cells but column clues fill 1"):
        Puzzle([[1], [1]], [[1], []])
    with pytest.raises(InvalidPuzzleError, match="empty puzzle"):
        Puzzle([], [])
    with pytest.raises(InvalidPuzzleError, match="row 1"):
        Puzzle([[-1]], [[1]])


def test_zero_means_empty_line():
    assert Puzzle([[0], [1]], [[1], [0]]).rows == ((), (1,))


def test_parse_errors():
    with pytest.raises(ParseError, match="missing"):
        parse_non("width 2\nheight 2\nrows\n1\n1\n")
    with pytest.raises(ParseError, match="before width"):
        parse_non("rows\n1\n")
    with pytest.raises(ParseError, match="goal has 3 cells"):
        parse_non('width 2\nheight 1\nrows\n2\ncolumns\n1\n1\ngoal "111"\n')
    with pytest.raises(ParseError, match=".nin line 1"):
        parse_nin("2\n1\n1\n")
    with pytest.raises(ParseError, match="clue lines"):
        parse_nin("2 2\n1\n1\n1\n")
    with pytest.raises(ParseError, match="line 2"):
        parse_writeup_csv("2\nx\n1\n1\n1\n")
    with pytest.raises(ParseError):
        parse_writeup_csv("")
    # issue 10: clue inf / 1.7 in a file are refused, as they are from Python
    for bad in ("inf", "1.7", "nan", "-1"):
        with pytest.raises(PuzzleError):
            parse_nin(f"1 1\n{bad}\n1\n")
        with pytest.raises(PuzzleError):
            parse_non(f"width 1\nheight 1\nrows\n{bad}\ncolumns\n1\n")
        with pytest.raises(PuzzleError):
            Puzzle([[float(bad)]], [[1]])
    assert issubclass(ParseError, PuzzleError)


def test_nin_ignores_repeats_and_accepts_zero():
    p = parse_nin("2 2\n1\n0\n1\n0\n2 2\n9\n9\n9\n9\n")
    assert p.rows == ((1,), ()) and p.cols == ((1,), ())


def test_nin_blank_line_is_an_empty_clue():
    # issue 10 item 5: the old reader dropped the blank line and read rows (1), (1) and
    # columns (1), () from this text, a different (and valid) puzzle
    p = parse_nin("2 2\n1\n\n1\n\n1\n")
    assert p.rows == ((1,), ()) and p.cols == ((1,), ())
    q = parse_nin("\n3 2\n\n1 1\n1\n\n1\n")  # blank line before the header is skipped
    assert q.rows == ((), (1, 1)) and q.cols == ((1,), (), (1,))
    with pytest.raises(ParseError, match="blank line counts"):
        parse_nin("2 2\n1\n1\n1\n")


def test_non_blank_and_zero_lines_goal_and_metadata():
    text = (
        'title "T"\nby "me"\nwidth 3\nheight 2\n\nrows\n\n1 1\n\ncolumns\n1\n0\n1\ngoal "000101"\n'
    )
    p = parse_non(text)
    assert p.rows == ((), (1, 1)) and p.cols == ((1,), (), (1,))
    assert p.title == "T" and p.meta["by"] == "me"
    assert p.goal.tolist() == [[False, False, False], [True, False, True]]
    assert is_solution(p, p.goal) and solve(p).verdict == "unique"
    assert parse_non(format_non(p)) == p
    # a goal that contradicts the clues is refused (it was accepted and silently wrong)
    with pytest.raises(InvalidPuzzleError, match="goal contradicts row 2"):
        parse_non(text.replace("1 1", "2"))
    assert solve(Puzzle([[], [2]], [[1], [], [1]])).verdict == "unsolvable"


def test_non_roundtrip_file(tmp_path):
    p = read_puzzle(data_dir("nonogram", "writeup_20x20.csv"))
    path = write_non(p, tmp_path / "w.non")
    assert read_puzzle(path) == p
    assert write_non(p, path) == path  # same content: fine
    other = Puzzle([[1]], [[1]])
    with pytest.raises(PuzzleError, match="overwrite=True"):
        write_non(other, path)
    assert read_puzzle(write_non(other, path, overwrite=True)) == other
    # a newline in the title wrote a file its own reader could not read (issue 10 item 14)
    with pytest.raises(InvalidPuzzleError, match="title"):
        Puzzle([[1]], [[1]], title="two\nlines")
    meta = Puzzle([[1]], [[1]], meta={"by": "a\rb"})
    with pytest.raises(InvalidPuzzleError, match="by"):
        write_non(meta, tmp_path / "m.non")
    assert not (tmp_path / "m.non").exists()
    assert parse_writeup_csv(format_writeup_csv(p)) == p


def test_unknown_extension(tmp_path):
    (tmp_path / "a.txt").write_text("1\n")
    with pytest.raises(ParseError, match="unknown puzzle format"):
        read_puzzle(tmp_path / "a.txt")


grids = st.integers(1, 7).flatmap(
    lambda r: st.integers(1, 7).flatmap(
        lambda c: st.lists(st.lists(st.booleans(), min_size=c, max_size=c), min_size=r, max_size=r)
    )
)


@examples(150)
@given(grids)
def test_from_grid_is_solved_to_a_grid_with_the_same_clues(g):
    grid = np.array(g, dtype=bool)
    p = from_grid(grid)
    assert is_solution(p, grid)
    res = solve(p)
    assert res.verdict in ("unique", "multiple")
    for s in res.solutions:
        assert from_grid(s) == p
    if res.verdict == "unique":
        assert np.array_equal(res.solution, grid)
    else:
        assert not np.array_equal(res.solutions[0], res.solutions[1])


@examples(100)
@given(grids)
def test_formats_roundtrip(g):
    p = from_grid(np.array(g, dtype=bool))
    assert parse_non(format_non(p)) == p
    assert parse_writeup_csv(format_writeup_csv(p)) == p


# ------------------------------------------------------------------------ line solvers


def test_count_arrangements_matches_enumeration():
    for clue, n in [((), 4), ((1,), 5), ((2, 1), 7), ((1, 1, 1), 9), ((3, 3), 6)]:
        arrs = list(arrangements(clue, n))
        assert len(arrs) == count_arrangements(clue, n)
        assert all(line_clue(a == FILLED) == clue for a in arrs)
        assert len({a.tobytes() for a in arrs}) == len(arrs)
    assert count_arrangements((5,), 4) == 0


def test_line_solver_textbook_cases():
    # the overlap rule: a 7 in 10 cells fixes the middle 4
    assert line_solve((7,), n=10).tolist() == [0, 0, 0, 1, 1, 1, 1, 0, 0, 0]
    assert line_solve((), n=3).tolist() == [EMPTY] * 3
    assert line_solve((3,), n=3).tolist() == [FILLED] * 3
    assert line_solve((1,), [FILLED, UNKNOWN, UNKNOWN]).tolist() == [1, -1, -1]
    assert line_solve((2,), [EMPTY, UNKNOWN, FILLED, EMPTY]).tolist() == [-1, 1, 1, -1]
    assert line_solve((2,), [EMPTY, FILLED, EMPTY, UNKNOWN]) is None
    assert line_solve((1, 1), [UNKNOWN, FILLED, UNKNOWN]) is None


lines = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(1, 4), max_size=4),
        st.lists(st.sampled_from([FILLED, EMPTY, UNKNOWN, UNKNOWN]), min_size=n, max_size=n),
    )
)


@examples(400)
@given(lines)
def test_dp_line_solver_agrees_with_enumeration(case):
    clue, cells = tuple(case[0]), np.array(case[1], dtype=np.int8)
    slow = line_solve_enumerate(clue, cells)
    ref = line_solve_reference(clue, cells)
    fast = line_solve(clue, cells)
    if slow is None:
        assert ref is None and fast is None
    else:
        assert np.array_equal(slow, ref) and np.array_equal(slow, fast)
        assert np.all(slow[cells != UNKNOWN] == cells[cells != UNKNOWN])


def test_enumeration_explodes():
    # a clue of ten 1s in 60 cells: C(51, 10) arrangements, too many to list
    with pytest.raises(TooLargeError, match="arrangements"):
        line_solve_enumerate((1,) * 10, n=60)
    assert line_solve((1,) * 10, n=60).tolist() == [UNKNOWN] * 60


# ------------------------------------------------------------------------------ solver


def test_verdicts_on_tiny_puzzles():
    checker = Puzzle([[1], [1]], [[1], [1]])  # two diagonals
    res = solve(checker)
    assert res.verdict == "multiple" and len(res.solutions) == 2
    assert res.kind == "MULT" and not res.line_solvable and res.verify()
    assert res.length is None and res.stats()["verdict"] == "multiple"
    for bad in (0, None, 1.5, "2"):
        with pytest.raises(PuzzleError, match="max_solutions"):
            solve(checker, max_solutions=bad)
    assert solve(checker, max_solutions=1).verdict == "feasible"
    # totals agree (2 = 2) but row 1 needs both cells while column 2 must stay empty
    none = Puzzle([[2], [0]], [[2], [0]])
    res = solve(none)
    assert res.verdict == "unsolvable" and res.kind == "NONE"
    assert res.length is None and res.solution is None
    # the write-up stops when every line has one arrangement left, without a cross-check
    assert solve_writeup(none).outcome in ("none", "stuck")


def test_probing_off_gives_the_same_verdicts():
    rng = np.random.default_rng(3)
    for _ in range(30):
        p = from_grid(rng.random((6, 7)) < 0.5)
        a, b = solve(p), solve(p, probing=False)
        c = solve(p, method="search")
        assert a.verdict == b.verdict == c.verdict and a.line_solvable == b.line_solvable
        if a.verdict == "unique":
            assert np.array_equal(a.solution, c.solution)
            assert np.array_equal(a.solution, b.solution)


def test_is_line_solvable_and_states():
    full = from_grid(np.ones((3, 4), dtype=bool))
    assert is_line_solvable(full)
    res = solve(full)
    assert [m.label for m in res.moves] == ["pass 1 rows"]
    assert np.all(res.states[-1] == FILLED)
    p = read_puzzle(data_dir("nonogram", "writeup_20x20.csv"))
    res = solve(p)
    assert np.all(res.states[0] == UNKNOWN) and len(res.states) == len(res.moves) + 1
    assert res.moves[-1].label in ("probing", "sat: first solution")
    assert np.array_equal(res.states[-1] == FILLED, res.solution)
    assert is_line_solvable(p) == res.line_solvable
    assert sum(m.cells for m in res.moves) == 400


def test_budgets_give_limit_with_the_partial_grid():
    # a puzzle line logic and probing cannot finish (multiple solutions): a search is needed
    p = from_grid(np.eye(6, dtype=bool))
    for method in ("sat", "search"):
        free = solve(p, method=method)
        assert free.verdict == "multiple" and free.expanded > 0, method
        for limits in ({"max_expanded": 0}, {"max_seconds": 0}):
            res = solve(p, method=method, **limits)
            assert res.verdict == "limit" and res.length is None, (method, limits)
            assert "budget" in res.note and res.solutions == []
            assert np.array_equal(res.grid, free.propagated) or res.grid is not None
    deep = solve(from_grid(np.eye(12, dtype=bool)), method="search", probing=False, max_expanded=3)
    assert deep.verdict == "limit" and deep.expanded == 3
    # line-solvable puzzles need no search node: a zero budget still solves them
    assert solve(from_grid(np.ones((3, 3))), max_expanded=0).verdict == "unique"


def test_large_trivial_and_permutation_puzzles_finish():
    # issue 10 item 12: a 500x500 of (1)-clues ran over a minute (probing every cell)
    stripes = np.zeros((500, 500), dtype=bool)
    stripes[:, 7] = True  # every row (1), one full column: line logic alone
    res = solve(from_grid(stripes), progress=False)
    assert res.verdict == "unique" and res.line_solvable
    eye = solve(from_grid(np.eye(300, dtype=bool)), progress=False)
    assert eye.verdict == "multiple" and len(eye.solutions) == 2
    big = from_grid(np.eye(500, dtype=bool))
    stopped = solve(big, max_expanded=10, progress=False)
    assert (stopped.verdict, stopped.expanded, stopped.method) == ("limit", 10, "auto")
    assert stopped.grid.shape == (500, 500) and stopped.solutions == []
    assert solve(big, max_seconds=0, progress=False).verdict == "limit"


# ------------------------------------------------------------------------- random study


def test_exhaustive_counts_small_sizes_agree_with_reference():
    for shape in [(2, 2), (2, 3), (3, 3)]:
        assert exhaustive_counts(shape, progress=False) == exhaustive_counts_reference(shape)


def test_exhaustive_unique_counts_match_oeis():
    # OEIS A242876: n x n grids determined by their clues: 14, 384, 52362 for n = 2, 3, 4
    assert exhaustive_counts((3, 3), progress=False).unique == 384
    c4 = exhaustive_counts((4, 4), progress=False)
    assert (c4.grids, c4.unique) == (65536, 52362)
    assert c4.line_solvable <= c4.unique
    with pytest.raises(TooLargeError):
        exhaustive_counts((6, 6))


# ---------------------------------------------------------------------------- rendering


def test_figures_draw_clues_steps_and_animation():
    import matplotlib.pyplot as plt

    from puzzlelab import plotting
    from puzzlelab.nonogram import plots

    p = read_puzzle(data_dir("nonogram", "writeup_20x20.csv"))
    res = solve(p)
    ax = plots.draw_puzzle(p, grid=res.solution, title="solved")
    texts = {t.get_text() for t in ax.texts}
    assert "6 3 1" in texts and "3\n3\n9\n1" in texts  # row 13 and column 10 clues
    image = ax.images[0].get_array()
    assert np.array_equal(image == 2, res.solution)  # filled cells drawn black
    fig = plots.draw_steps(res, ncols=3)
    titles = [a.get_title() for a in fig.axes if a.get_title()]
    assert titles[0] == "blank" and len(titles) == len(res.states)
    # the registered drawer: any step through plotting, the last one is the solution
    last = plotting.draw_step(res, len(res.states) - 1)
    assert np.array_equal(last.images[0].get_array() == 2, res.solution)
    assert last.get_title() == res.moves[-1].label
    html = plotting.to_html(plotting.animate(res))
    assert "<script" in html and html.count("data:image/png") >= len(res.states)
    writeup = solve_writeup(p)
    short = plotting.to_html(plots.animate(writeup, every=20))
    assert 4 <= short.count("data:image/png") < len(writeup.states)
    with pytest.raises(PuzzleError, match="every"):
        plots.animate(writeup, every=0)
    plt.close("all")


# ------------------------------------------------------------------------ parser fuzzing

junk = st.text(alphabet=st.sampled_from(list('0123456789 ,-\n"abgoalrowscolumnswidtheight')))


@examples(300)
@given(junk)
def test_parsers_fail_only_with_puzzle_errors(text):
    for parse in (parse_non, parse_nin, parse_writeup_csv):
        try:
            p = parse(text)
        except PuzzleError:
            continue
        assert p.height >= 1 and p.width >= 1


@examples(200)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_non_text_with_keys_in_any_order(width, height, data):
    grid = np.array(
        data.draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    ).reshape(height, width)
    p = from_grid(grid)
    body = format_non(p).split("\n\n")  # header, rows block, columns block, goal
    head = body[0].splitlines()
    order = data.draw(st.permutations(body[1:]))
    text = "\n".join(data.draw(st.permutations(head))) + "\n\n" + "\n\n".join(order)
    q = parse_non(text)
    assert q == p and np.array_equal(q.goal, grid)


def test_one_by_one():
    assert solve(Puzzle([[1]], [[1]])).solution.tolist() == [[True]]
    assert solve(Puzzle([[]], [[]])).solution.tolist() == [[False]]
    assert solve(Puzzle([[]], [[]])).line_solvable


def test_exhaustive_counts_are_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path))
    first = exhaustive_counts((4, 5), progress=False)
    (path,) = (tmp_path / "nonogram").glob("exhaustive_v*_4x5.bin")
    assert exhaustive_counts((4, 5), progress=False) == first
    assert first.unique <= first.distinct_clues <= first.grids == 2**20
    # a tampered count (same length) fails the checksum and is rebuilt, never trusted
    raw = path.read_bytes()
    digits = str(first.unique).encode()
    path.write_bytes(raw.replace(digits, str(first.unique + 1).encode()[: len(digits)]))
    with pytest.warns(RuntimeWarning, match="checksum|rebuilding"):
        assert exhaustive_counts((4, 5), progress=False) == first
    path.write_text("{")
    with pytest.warns(RuntimeWarning, match="rebuilding"):
        assert exhaustive_counts((4, 5), progress=False) == first


# ------------------------------------------------------------------------------- census


def test_census_of_nothing_summarises_to_an_empty_table():
    from puzzlelab.nonogram import census

    table = census.census([(5, 5)], [0.5], 0, progress=False)
    summary = census.summarise(table)
    assert summary.empty and {"share_unique", "unique_lo", "errors"} <= set(summary.columns)


def test_random_5x5_census_brackets_the_published_fractions():
    from puzzlelab.nonogram import census, data

    share = census.summarise(census.census([(5, 5)], [0.5], 300, progress=False)).iloc[0]
    grids = data.PUBLISHED_5X5["grids"]
    assert share.unique_lo <= data.PUBLISHED_5X5["unique"] / grids <= share.unique_hi
    assert share.line_lo <= data.PUBLISHED_5X5["line_solvable"] / grids <= share.line_hi


def test_solve_takes_one_budget_and_refuses_two():
    from puzzlelab.results import Budget

    p = from_grid(np.eye(8, dtype=bool))
    budget = Budget(max_expanded=0)
    assert solve(p, budget=budget).verdict == "limit"
    with pytest.raises(PuzzleError, match="not both"):
        solve(p, budget=budget, max_expanded=3)
