"""Style-randomised synthetic boards: the generator is sound and the reader, on looks it was
not built on, is exact or says it is unsure (a seeded sweep; the big one is in benchmarks/)."""

from __future__ import annotations

import numpy as np
import pytest

from puzzlelab.watersort.screenshot import (
    _as_glass,
    _sandwiched,
    _see_through,
    _Segment,
    outcome,
    self_check,
)
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
    """40 boards: few silent misreadings (measured: 2 of 40), the rest exact or flagged.

    The issue's goal is 99 % exact; the reader is still far from it on these looks (measured
    27 of 40 exact; 63 of seeds 0-99), so the floor below sits just under today's figure and
    the gallery in notebook 07 shows the misses. A change that makes more readings silent, or
    fewer exact, fails here.
    """
    table = score_synth(range(40))
    counts = table.outcome.value_counts().to_dict()
    assert counts.get("silent", 0) <= 2, table[table.outcome == "silent"]
    assert counts.get("exact", 0) >= 25, counts


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
        (0, "the outline across a tube's bottom read as glass cut off every unit above it"),
        (98, "the outline across a round bottom is neither glass nor a unit"),
        (7, "a thin bottom outline read as one more unit made capacity 7 of 6"),
        (2, "a grey liquid like the glass under liquid; clear glass over a vivid photo"),
        (1046, "only every second tube of a row found: its spacing is half the step"),
        (1000, "a short last row found in part: the finer spacing matches the other rows'"),
        (1038, "one unit on a flat bottom: the outline is no drift like glass over a picture"),
        (1162, "one unit at the bottom of a tube, its outline below it"),
        (22, "a curtain whose badge sits off the slot's centre, on a gradient"),
        (95, "a banner whose badge crosses few rows of the profile"),
        (107, "two banners over tubes of a photo board"),
        (134, "a tube that was read as covered"),
        (111, "a tube next to a lock, read as covered"),
        (1048, "steps of one and two tubes: their median was no pitch, rows read 5 and 3"),
        (1084, "a second row of seven read as five, silently: two faint tubes at its end"),
        (1126, "a row of six read as five"),
        (1134, "a last row of three read as one: two faint tubes beside the tube found"),
        (1198, "two units read in the wrong colour"),
        (68, "a row of four read as three: a hole between two tubes, faint side edges"),
        (1032, "an empty tube between two others missed on a photo: its sides are faint"),
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


def _seg(y0: int, kind: str, glass: float, lab=(50.0, 0.0, 0.0), units: int = 1) -> _Segment:
    """A 10-row segment of one kind at its distance from the glass."""
    return _Segment(y0, y0 + 10, np.array(lab), kind, units, glass=glass)


def test_a_run_like_glass_between_liquids_is_liquid():
    """Empty space is only at a tube's top: a glass-like run with liquid above and below is
    liquid; at the top, or exactly the glass colour, it stays empty."""
    segs = [
        _seg(0, "empty", 1),
        _seg(10, "liquid", 60),
        _seg(20, "empty", 9),
        _seg(30, "hidden", 50),
    ]
    _sandwiched(segs)
    assert [s.kind for s in segs] == ["empty", "liquid", "liquid", "hidden"]
    same = [_seg(0, "liquid", 60), _seg(10, "empty", 1), _seg(20, "liquid", 60)]
    _sandwiched(same)
    assert same[1].kind == "empty"  # the glass's own colour: not evidence enough


def test_a_rare_colour_seen_only_at_tube_tops_may_be_glass():
    """A colour seen fewer than capacity times, every unit of it a top run close to the glass,
    is offered as glass; a rare colour seen under other liquid is not."""
    bottom = [_seg(20, "liquid", 80, units=2)]
    tubes = [bottom + [_seg(0, "liquid", 20)], bottom + [_seg(0, "liquid", 20)], list(bottom)]
    names = [["a", "a", "x"], ["a", "a", "x"], ["a", "a"]]
    (variant,) = _as_glass(tubes, names, 6)
    assert [len(t) for t in variant] == [1, 1, 1]
    names[2] = ["x", "a"]  # x also under other liquid: a liquid, not glass
    assert _as_glass(tubes, names, 6) == []
