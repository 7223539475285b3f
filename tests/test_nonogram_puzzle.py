"""The nonogram puzzle: clues and their validation, pictures, and the file formats."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError
from puzzlelab.nonogram import (
    Puzzle,
    format_non,
    format_writeup_csv,
    from_grid,
    is_solution,
    parse_nin,
    parse_non,
    parse_writeup_csv,
    read_puzzle,
    solve,
    write_non,
)
from puzzlelab.paths import data_dir

WRITEUP_ROWS = (
    "3|5|3 1|2 1|3 3 4|2 2 7|6 1 1|4 2 2|1 1|3 1|6|2 7|6 3 1|1 2 2 1 1|4 1 1 3"
    "|4 2 2|3 3 1|3 3|3|2 1"
)

WRITEUP_COLS = (
    "2|1 2|2 3|2 3|3 1 1|2 1 1|1 1 1 2 2|1 1 3 1 3|2 6 4|3 3 9 1|5 3 2|3 1 2 2|2 1 7|3 3 2|2 4"
    "|2 1 2|2 2 1|2 2|1|1"
)


def clues(text: str) -> list[list[int]]:
    """'3 1|2' -> [[3, 1], [2]] (the write-up's listing)."""
    return [[int(v) for v in part.split()] for part in text.split("|")]


def test_writeup_csv_is_the_writeup_puzzle():
    p = read_puzzle(data_dir("nonogram", "writeup_20x20.csv"))
    assert p.shape == (20, 20)
    assert p == Puzzle(clues(WRITEUP_ROWS), clues(WRITEUP_COLS))


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
    # clue inf / 1.7 in a file are refused, as they are from Python
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
    # the old reader dropped the blank line and read rows (1), (1) and
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
    # a newline in the title wrote a file its own reader could not read
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


@examples(100)
@given(grids)
def test_formats_roundtrip(g):
    p = from_grid(np.array(g, dtype=bool))
    assert parse_non(format_non(p)) == p
    assert parse_writeup_csv(format_writeup_csv(p)) == p


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
