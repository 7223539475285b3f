"""Style-randomised synthetic boards: the generator is sound and the reader, on looks it was
not built on, is exact or says it is unsure (a seeded sweep; the big one is in benchmarks/)."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlelab.watersort.screenshot import _see_through, outcome, self_check
from puzzlelab.watersort.synth import score_synth, synth_board


def test_same_seed_same_board():
    """A board is reproduced exactly by its seed."""
    a, b = synth_board(7), synth_board(7)
    assert np.array_equal(a.image, b.image) and a.tubes == b.tubes and a.style == b.style


@pytest.mark.parametrize("seed", range(12))
def test_synthetic_truth_keeps_the_rules(seed):
    """The true board keeps the invariant, fits its layout and stays in the promised ranges."""
    board = synth_board(seed)
    assert self_check(board.tubes, board.capacity) == []
    assert sum(board.layout) == len(board.tubes) and 1 <= len(board.layout) <= 3
    assert 3 <= len(board.tubes) <= 16 and 2 <= board.capacity <= 6
    assert 190 <= board.image.shape[0] <= 3000 and 30 <= board.style["quality"] <= 95


@pytest.mark.slow  # make test runs it (test-fast stays under 3 minutes)
def test_seeded_sweep_is_exact_or_flagged():
    """40 boards: few silent misreadings (measured: 1 of 40), the rest exact or flagged.

    The issue's goal is 99 % exact; the reader is still far from it on these looks (measured
    21 of 40 exact; 51 of seeds 0-99), so the floor below sits just under today's figure and
    the gallery in notebook 07 shows the misses. A change that makes more readings silent, or
    fewer exact, fails here.
    """
    table = score_synth(range(40))
    counts = table.outcome.value_counts().to_dict()
    assert counts.get("silent", 0) <= 2, table[table.outcome == "silent"]
    assert counts.get("exact", 0) >= 20, counts


@pytest.mark.parametrize("seed", [13, 16, 20, 29, 36, 47, 53, 75, 79, 94, 97])
def test_synthetic_boards_of_each_kind_read_exactly(seed):
    """Boards with '?' cells (plain, bold, circled; dark and light grey), covered tubes, a
    photographic background and no outline at all read back exactly, reading.ok."""
    board = synth_board(seed)
    got = outcome(board.tubes, board.capacity, board.layout, board.image)
    assert got["outcome"] == "exact", (board.style, got["problems"])


@pytest.mark.parametrize(
    "seed, why",
    [
        (4, "a dark liquid at a tube's top matches the photo beside it"),
        (34, "vivid photo behind see-through glass: liquids are not glass"),
        (37, "a faint empty tube with no outline at a row's end (the row is off-centre)"),
        (38, "the row's spacing added a tube that is not there (the row is off-centre)"),
        (52, "curtains with a badge over tubes of a photo board"),
        (55, "a whole row of locked tubes"),
        (78, "a photo beside a short row is not tubes"),
        (11, "every outline odd: the tubes are read all the same"),
    ],
)
def test_hard_synthetic_boards_read_exactly(seed, why):
    """Boards that each showed one way of misreading (see `why`) now read back exactly."""
    board = synth_board(seed)
    got = outcome(board.tubes, board.capacity, board.layout, board.image)
    assert got["outcome"] == "exact", (board.style, got["problems"])


def test_see_through_glass_is_fitted_past_full_tubes():
    """Rims of glass that lets 60 % of the background through, and two rims that are liquid
    (full tubes): the fit finds the glass and ignores the liquid."""
    rng = np.random.default_rng(0)
    sides = rng.uniform([20, -30, -30], [90, 30, 30], (8, 3))
    rims = 0.6 * sides + np.array([30.0, 2.0, -3.0])
    rims[[2, 5]] = [[50, 70, 40], [80, -60, 60]]
    a, b = _see_through(rims, sides)
    assert a == pytest.approx(0.6, abs=0.02) and b == pytest.approx([30, 2, -3], abs=1.0)
    assert _see_through(rims[:2], sides[:2]) is None  # two tubes cannot show the glass
