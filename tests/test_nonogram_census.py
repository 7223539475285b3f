"""Many puzzles at once: exact counts over every small grid, and the random-picture census."""

from __future__ import annotations

import pytest

from puzzlelab.errors import TooLargeError
from puzzlelab.nonogram.census import exhaustive_counts, exhaustive_counts_reference


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


@pytest.mark.slow  # make test runs it (test-fast stays under 3 minutes)
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
