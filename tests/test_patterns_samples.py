"""The samples file: the optional `flag` column, and writing into odd places."""

from __future__ import annotations

import os

import pandas as pd
import pytest

from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError
from puzzlelab.patterns import format_samples, parse_samples, read_samples, unflagged, write_samples

ROWS = "1,9B6358247\n2,8734B9265\n3,789456B23\n"


def test_files_without_a_flag_read_as_confident():
    table = parse_samples("picture,pattern\n" + ROWS)
    assert table["flag"].tolist() == ["", "", ""]
    assert unflagged(table).equals(table)


def test_flag_column_by_header_or_third_field():
    text = "picture,pattern,flag\n1,9B6358247,\n2,8734B9265,blurred\n3,789456B23,\n"
    table = parse_samples(text)
    assert table["flag"].tolist() == ["", "blurred", ""]
    headerless = parse_samples("1,9B6358247\n2,8734B9265,blurred\n")
    assert headerless["flag"].tolist() == ["", "blurred"]
    reordered = parse_samples("flag,pattern,picture\nlow-light,9B6358247,4\n")
    assert reordered["flag"].tolist() == ["low-light"] and reordered["picture"].tolist() == [4]


def test_unflagged_keeps_the_confident_rows_renumbered():
    table = parse_samples("picture,pattern,flag\n1,9B6358247,\n2,8734B9265,blurred\n3,789456B23,\n")
    kept = unflagged(table)
    assert kept["pattern"].tolist() == ["9B6358247", "789456B23"]
    assert kept["opening"].tolist() == [0, 1] and kept["line"].tolist() == [2, 4]


@pytest.mark.parametrize("flag", ["two words", "x" * 40, "é", "1abc"])
def test_a_flag_is_one_short_word(flag):
    with pytest.raises(ParseError, match="flag"):
        parse_samples(f"picture,pattern,flag\n1,9B6358247,{flag}\n")


def test_flags_round_trip_through_the_writer(tmp_path):
    table = pd.DataFrame(
        {"picture": [1, 2], "pattern": ["9B6358247", "8734B9265"], "flag": ["", "blurred"]}
    )
    text = format_samples(table)
    assert text.splitlines()[0] == "picture,pattern,flag"
    back = read_samples(write_samples(table, tmp_path / "s.csv"))
    assert back["flag"].tolist() == ["", "blurred"]
    plain = format_samples(table.drop(columns="flag"))
    assert plain.splitlines()[0] == "picture,pattern"
    with pytest.raises(InvalidPuzzleError, match="flag"):
        format_samples(table.assign(flag=["", "not one word"]))


def test_a_huge_picture_number_is_refused_clearly():
    """A 30-digit picture number overflowed int64 (OverflowError) with n_pictures=None."""
    with pytest.raises(PuzzleError, match="outside"):
        parse_samples("1" + "0" * 30 + ",9B6358247\n", n_pictures=None)
    with pytest.raises(PuzzleError, match="outside"):
        parse_samples("9" * 5000 + ",9B6358247\n")
    assert parse_samples("000004,9B6358247\n")["picture"].tolist() == [4]


def _table() -> pd.DataFrame:
    return pd.DataFrame({"picture": [1], "pattern": ["9B6358247"]})


def test_writing_to_a_folder_path_is_refused(tmp_path):
    """An existing directory as the output path gave IsADirectoryError."""
    with pytest.raises(PuzzleError, match="folder"):
        write_samples(_table(), tmp_path)
    with pytest.raises(PuzzleError, match="folder"):
        write_samples(_table(), tmp_path, overwrite=True)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a non-root POSIX user")
def test_writing_into_a_read_only_folder_is_refused(tmp_path):
    """A read-only folder gave PermissionError."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(PuzzleError, match="cannot write"):
            write_samples(_table(), folder / "samples.csv")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


@pytest.mark.parametrize("path", [123, b"bytes", ["a"], ""])
def test_path_arguments_of_the_wrong_type(path):
    with pytest.raises(PuzzleError, match="path"):
        write_samples(_table(), path)
    with pytest.raises(PuzzleError, match="path"):
        read_samples(path)


def test_an_unwritable_place_gives_a_puzzle_error(tmp_path, monkeypatch):
    """Any OSError of the write (read-only folder, full disk) becomes a PuzzleError."""
    from puzzlelab.patterns import samples

    def refuse(path, text):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(samples, "atomic_write_text", refuse)
    with pytest.raises(PuzzleError, match="cannot write .*Permission denied"):
        write_samples(_table(), tmp_path / "samples.csv")
