"""Covered tubes: a curtain, lock or banner over a tube is read as covered (None), and a tube
is not; small drawn tubes for each rule, and synthetic boards that showed a confusion."""

from __future__ import annotations

import numpy as np

from puzzlelab.watersort.screenshot import (
    DEFAULT_PARAMS,
    _cover_body,
    _cover_span,
    _covers_from_top,
    _covers_only,
    _fine,
    _Glass,
    _headroom_dropped,
    _icon,
    _merge_same,
    _merge_short,
    _on_cover,
    _profile,
    _ramp_cut,
    _read_missed,
    _repeated,
    _Segment,
    _segments,
    _striped_empties,
    outcome,
    read_screenshot,
)
from puzzlelab.watersort.synth import synth_board

BOX = (20, 20, 40, 160)  # x, y, w, h of the drawn tube


def _cover(marks: list[tuple], x0: int = 12, x1: int = 28) -> np.ndarray:
    """A CIELAB picture of a flat cover over BOX with light marks at rows (y0, y1) of the
    tube, columns x0 to x1 of it (narrow: the cover's colour stays at the tube's sides); a
    mark (y0, y1, x0, x1, colour) says its own columns and colour."""
    lab = np.zeros((200, 80, 3), np.float32)
    lab[:, :] = (50, 40, -20)
    x, y, w, h = BOX
    lab[y : y + h, x : x + w] = (35, 10, -45)
    for a, b, *rest in marks:
        c0, c1, colour = rest or (x0, x1, (90, 0, 0))
        lab[y + a : y + b, x + c0 : x + c1] = colour
    return lab


def test_a_small_badge_is_found_in_the_fine_segments():
    """A badge crossing the profile for 8 rows (a third of a unit or less) is merged away at
    the unit's scale, but the fine segments keep it, with the cover's body above and below."""
    lab = _cover([(76, 84)])
    prof = _profile(lab, BOX)
    cut = _segments(prof, BOX[1])
    coarse = _merge_same(_merge_short(cut, prof, BOX[1], 12))  # a third of a 36-row unit
    assert not _icon(lab, BOX, coarse)
    assert _icon(lab, BOX, _fine(cut, prof, BOX, 9.0), 0.25)


def test_marks_repeated_every_unit_are_no_badge():
    """'?' marks on every unit cell: no run above and below the middle one reaches a quarter
    of the tube, so the fine segments find no cover's icon."""
    lab = _cover([(12, 22), (44, 54), (76, 86), (108, 118), (140, 150)])
    prof = _profile(lab, BOX)
    cut = _segments(prof, BOX[1])
    assert not _icon(lab, BOX, _fine(cut, prof, BOX, 9.0), 0.25)


def test_a_mark_between_grey_runs_shorter_than_a_quarter_is_no_icon():
    """A '?' cell under a grey liquid of its fill: a mark at the middle between grey runs,
    but the run below it ends a quarter of the tube down at the next mark, so it is no
    cover's body (a cover hides the tube from its top to its bottom). With the next mark
    drawn like the first, the mark recurs down the tube (see `_repeated`): no icon at all."""
    lab = _cover([(70, 80), (117, 127, 12, 28, (60, -40, 30))])  # the next mark unlike it
    segs = _merge_same(_segments(_profile(lab, BOX), BOX[1]))
    assert _icon(lab, BOX, segs, 0.2)  # a body of a fifth would take it
    assert not _icon(lab, BOX, segs, 0.25)
    lab = _cover([(70, 80), (117, 127)])
    segs = _merge_same(_segments(_profile(lab, BOX), BOX[1]))
    assert not _icon(lab, BOX, segs, 0.2)


def test_a_lock_of_two_runs_is_an_icon():
    """A lock's shackle (thin, another colour) above its body: two runs at the middle, both
    narrower than the tube, between runs of the cover's colour."""
    lab = _cover([(66, 76, 14, 26, (70, -30, 30)), (76, 92, 10, 30, (90, 0, 0))])
    segs = _merge_same(_segments(_profile(lab, BOX), BOX[1]))
    assert len(segs) == 4
    assert _icon(lab, BOX, segs, 0.25)


def test_a_badge_centred_on_a_cover_taller_than_its_box_is_an_icon():
    """A box fitted to the row's liquids that misses a cover's top 30 rows (seeds 1147,
    1365: no outline shows the headroom) puts the cover's badge off the box's centre; the
    cover's own rows, followed up past the box (see `_cover_span`), have it at their centre.
    A run of another colour over the box's top ends the cover there."""
    lab = _cover([(70, 90)])
    x, y, w, h = BOX
    box = (x, y + 30, w, h - 30)
    segs = _merge_same(_segments(_profile(lab, box), box[1]))
    assert len(segs) == 3
    assert _cover_span(lab, box, segs[0], segs[2]) == (y, y + h)
    assert _icon(lab, box, segs, 0.25)
    lab[y : y + 30, x : x + w] = (70, -40, 40)  # a liquid above: no cover runs up there
    assert _cover_span(lab, box, segs[0], segs[2]) == (y + 30, y + h)
    assert not _icon(lab, box, segs, 0.25)


def test_a_blurred_lock_two_thirds_of_the_tube_wide_is_an_icon():
    """A lock drawn half the tube wide and blurred by scaling spreads over two thirds of it
    (seed 1180): still an icon, as long as the cover shows beside it."""
    lab = _cover([(70, 90, 7, 33, (80, -45, 25))])
    segs = _merge_same(_segments(_profile(lab, BOX), BOX[1]))
    assert _icon(lab, BOX, segs, 0.25)


def test_a_unit_seen_through_a_box_off_the_tube_is_no_icon():
    """A liquid unit at the middle of a tube (side to side) in a box 8 pixels right of the
    tube: the box's right edge shows the background, unchanged, but its left edge shows the
    unit, so the run is not narrower than the tube."""
    lab = _cover([(68, 92, 0, 40, (60, -40, 40))])
    x, y, w, h = BOX
    off = (x + 8, y, w, h)
    segs = _merge_same(_segments(_profile(lab, off), y))
    assert len(segs) == 3
    assert not _icon(lab, off, segs, 0.25)
    assert _icon(_cover([(68, 92, 14, 26, (60, -40, 40))]), off, segs, 0.25)


def test_a_unit_between_walls_in_a_wide_box_is_no_icon():
    """A yellow unit between two purple units of a thick-walled tube, in a box half as wide
    again as the tube (seed 1509 read it as a lock, silently): the unit is narrower than the
    box, but the columns beside it are the tube's grey walls, not the purple drawn above it,
    so it sits on no cover (see `_on_cover`). On a cover the same run has the cover beside."""
    lab = _cover([])
    x, y, w, h = BOX
    lab[y : y + h, x + 8 : x + 32] = (20, 0, 0)  # the walls
    lab[y : y + h, x + 11 : x + 29] = (55, 25, -30)  # purple liquid inside them
    lab[y + 68 : y + 92, x + 11 : x + 29] = (95, -10, 70)  # a yellow unit between
    segs = _merge_same(_segments(_profile(lab, BOX), y))
    assert len(segs) == 3
    assert not _icon(lab, BOX, segs, 0.25)
    assert not _on_cover(lab[y + 80, x : x + w], lab[y + 50, x : x + w], 11, 28)
    lock = _cover([(68, 92)])
    assert _on_cover(lock[y + 80, x : x + w], lock[y + 50, x : x + w], 12, 27)


def test_a_tube_left_covered_without_an_icon_is_doubtful():
    """A slot the row's spacing added that reads taller than a full tube is left covered, but
    no cover's icon was seen there, so the reading says so (seed 61 was read so silently)."""
    board = synth_board(61)
    assert all(t is not None for t in board.tubes)
    reading = read_screenshot(board.image)
    lids = [k for k, t in enumerate(reading.tubes) if t is None]
    for k in lids:
        assert any(f"tube {k}: read as covered" in p for p in reading.problems)
    assert not reading.ok or not lids
    assert outcome(board.tubes, board.capacity, board.layout, board.image)["outcome"] != "silent"


def test_a_mark_repeated_down_the_tube_is_no_cover_icon():
    """A mark whose colour recurs in a run as short elsewhere down the tube is a '?' on
    every cell, not a cover's one icon (seed 2065: a dark-grey liquid on two dark '?' cells
    of its shade read as a covered tube); a long run of that colour is no mark."""
    mark = [_Segment(100, 110, np.array([90.0, 0, 0]))]
    again = _Segment(150, 160, np.array([92.0, 1, 0]))
    other = _Segment(150, 160, np.array([40.0, 30, 0]))
    tall = _Segment(120, 170, np.array([90.0, 0, 0]))
    assert _repeated(mark, [other, again])
    assert not _repeated(mark, [other])
    assert not _repeated(mark, [tall])


def test_a_cover_body_runs_from_the_slot_top_over_two_thirds_of_it():
    """A flat cover with a badge at its middle shows its colour from the slot's top over most
    of its rows: a cover's body. A full tube of one-unit runs whose headroom reads as one more
    unit (the same colour as the gaps) shows no such body, even with the background again
    below its bottom (a box reaching below the tube)."""
    flat = _cover([(70, 86)])
    assert _cover_body(flat, BOX, 9.0, 6.0)
    tube = np.zeros((200, 80, 3), np.float32)
    tube[:, :] = (50, 40, -20)
    x, y, w, h = BOX
    colours = [(30, 60, 40), (80, -40, 60), (60, 0, -50), (40, 30, 30)]
    for k, colour in enumerate(colours):  # four units of 34 rows under 14 rows of headroom
        tube[y + 14 + 34 * k : y + 48 + 34 * k, x : x + w] = colour
    tube[y + h - 10 : y + h, x : x + w] = (50, 40, -20)  # the background under the bottom
    assert not _cover_body(tube, BOX, 9.0, 6.0)


def test_faint_glass_showing_the_picture_beside_it_is_no_cover_body():
    """A slot of glass too faint to see, one unit at its bottom: the picture shows through it
    from the slot's top over most of its rows, as a cover's colour would, but it is the
    picture's own colour beside the slot (seed 17740: a one-unit tube read as covered). A
    cover of its own colour over that picture stays a cover's body."""
    x, y, w, h = BOX
    glass = np.zeros((200, 80, 3), np.float32)
    glass[:, :] = (55, 5, 12)  # the picture, through the glass and beside the slot alike
    glass[y + h - 34 : y + h, x : x + w] = (50, -14, -17)  # the one unit
    assert not _cover_body(glass, BOX, 9.0, 6.0)
    glass[y : y + h - 34, x : x + w] = (40, 50, 30)  # a cover's own colour over the slot
    assert _cover_body(glass, BOX, 9.0, 6.0)


def test_a_slot_overfull_by_its_top_run_at_the_rim_drops_it():
    """A slot read one unit over what a tube holds, its top run starting at the slot's top:
    that run is the headroom's glass read as a unit, and is dropped. A top run that starts
    lower, or a stack still overfull without it, is kept for the invariant to judge."""
    x, y, w, h = BOX
    stack = [_Segment(y + 40 * (3 - k), y + 40 * (4 - k), np.zeros(3), units=1) for k in range(4)]
    assert _headroom_dropped(stack, BOX, 40.0, 3) == stack[:3]
    assert _headroom_dropped(stack, BOX, 40.0, 4) == stack
    low = stack[:3] + [_Segment(y + 20, y + 40, np.zeros(3), units=1)]
    assert _headroom_dropped(low, BOX, 40.0, 3) == low
    assert _headroom_dropped(stack, BOX, 40.0, 2) == stack


def test_a_slot_reaching_below_its_rows_floor_shows_no_liquid_afloat():
    """A slot the spacing added, its box 30 rows below the row's floor (where a found tube's
    liquid ends), holds one red unit at the tube's bottom under clear glass: cut at the floor
    it is a tube of one unit, not a liquid floating on the picture below it, so no cover
    (seed 10234 read such a tube as covered with no icon)."""
    bg = np.array([40.0, 30.0, -30.0])
    lab = np.tile(bg, (260, 160, 1)).astype(np.float32)
    lab[40:200, 20:60] = (60.0, -40.0, 40.0)  # the found tube: four green units
    lab[160:200, 100:140] = (45.0, 60.0, 40.0)  # one red unit at the added slot's bottom
    found, added = (20, 40, 40, 160), (100, 40, 40, 190)
    glass = _Glass(lab, bg, bg, (found, added), bg, (1.0, np.zeros(3)))
    green = [_Segment(40, 200, np.array([60.0, -40.0, 40.0]), "liquid", units=4)]
    per_tube = [green, None]
    slots = [(found, False), (added, True)]
    unsure = _read_missed((lab, lab), slots, per_tube, glass, 40.0, 0.0, 4, DEFAULT_PARAMS, {}, [2])
    assert unsure == [] and [s.units for s in per_tube[1]] == [1]


def test_a_full_tube_coloured_from_its_top_is_a_cover():
    """Boxes 160 tall holding 3 units of 40 (a headroom of 40 over them): on a board with a
    covered tube, a tube full of one colour from its box's top is a cover (liquid fills from
    the bottom, so a full tube shows its glass over the top unit); one whose colour starts
    at the headroom's foot is a full tube; with a headroom of 8 the two are too close to
    tell, and with no covered tube on the board nothing is judged."""
    boxes = [(20 + 60 * k, 20, 40, 160) for k in range(3)]
    blue = np.array([40.0, 10.0, -50.0])

    def run(y0: int) -> list[_Segment]:
        return [_Segment(y0, 180, blue, units=3)]

    glass = _Segment(20, 60, np.array([80.0, 0, 0]), kind="empty")
    per_tube = [run(20), [glass] + run(60), None]
    tubes = [["b"] * 3, ["c"] * 3, None]
    assert _covers_from_top(per_tube, boxes, tubes, 3, (40.0, 0.0)) == [0]
    assert _covers_from_top(per_tube, boxes, tubes, 3, (50.67, 0.0)) == []  # headroom 8
    assert _covers_from_top(per_tube[:2], boxes[:2], tubes[:2], 3, (40.0, 0.0)) == []


def test_a_cover_whose_icon_is_lost_in_its_colour_is_read_as_covered():
    """Seed 12037: a grey curtain whose grey knob barely shows was read as a tube full of
    grey; its grey starts at the box's top, over the headroom, so it is a cover (doubted:
    no icon was seen)."""
    board = synth_board(12037)
    got = outcome(board.tubes, board.capacity, board.layout, board.image)
    assert got["outcome"] == "exact"
    reading = read_screenshot(board.image)
    assert reading.tubes[3] is None and not reading.ok


def _stripes(fold: float, glint: bool = False, drift: float = 0.0) -> np.ndarray:
    """A CIELAB picture of three 40-wide tubes on a grey background: the first with upright
    stripes swinging `fold` in lightness every 6 columns (a curtain), or a glint down its
    middle; its lightness drifting by `drift` from its top to its bottom half (a photo)."""
    lab = np.zeros((200, 200, 3), np.float32)
    lab[:] = (50, 2, -2)
    cols = np.arange(40)
    shade = 50 + fold * np.sin(np.pi * cols / 6) if not glint else 50 + 30 * (abs(cols - 20) < 2)
    lab[20:180, 20:60, 0] = shade[None, :]
    lab[100:180, 20:60, 0] += drift * np.sin(np.pi * cols / 10)[None, :]
    return lab


def test_a_striped_tube_read_empty_among_covers_is_a_curtain():
    """Seed 13358: a grey curtain whose grey knob was lost in its folds read as an empty
    tube, silently (the other covers' unknown units kept every count); its stripes, alike
    down its height, make it covered. Glass with a glint, faint folds, a picture changing
    down the tube, or a board with no cover (where the counts judge) are left alone."""
    boxes = [(20 + 60 * k, 20, 40, 160) for k in range(3)]
    tubes = [[], ["a"], None]
    assert _striped_empties(_stripes(12.0), tubes, boxes) == [0]
    assert _striped_empties(_stripes(3.0), tubes, boxes) == []
    assert _striped_empties(_stripes(0.0, glint=True), tubes, boxes) == []
    assert _striped_empties(_stripes(12.0, drift=20.0), tubes, boxes) == []
    assert _striped_empties(_stripes(12.0), [[], ["a"], ["b"]], boxes) == []
    board = synth_board(13358)
    got = outcome(board.tubes, board.capacity, board.layout, board.image)
    assert got["outcome"] == "exact"
    assert read_screenshot(board.image).tubes[13] is None


def test_a_short_piece_absorbed_into_a_run_leaves_its_colour():
    """A run at the box's end that absorbed a short piece there (the picture under a box
    reaching below its tube) keeps its own colour when it absorbs another: the colour is not
    taken again over rows that hold the absorbed piece (seed 14107, a '?' cell read green)."""
    grey, edge, green = [48.0, 0.0, -2.0], [60.0, -40.0, 40.0], [74.0, -70.0, 66.0]
    profile = np.array([grey] * 13 + [grey] * 10 + [edge] * 8 + [green] * 9)
    segs = [
        _Segment(0, 13, np.array(grey)),
        _Segment(13, 31, np.median(profile[13:31], axis=0)),
        _Segment(31, 40, np.array(green)),
    ]
    (run,) = _merge_short(segs, profile, 0, 14)
    assert (run.y0, run.y1) == (0, 40)
    assert np.linalg.norm(run.lab - np.array(grey)) < 3


def test_a_faint_icon_ramping_into_its_cover_is_found_by_the_ramp_cut():
    """Seed 14811: a lock's icon blurred over 30 rows into its cover (under 1 ΔE a row) never
    jumps from the rows just above it, so the segments miss it and the covered tube read as
    an empty tube, silently; cut where the profile leaves its run's colour, it shows."""
    lab = _cover([])
    x, y, w, h = BOX
    cover, mark = np.array((35.0, 10.0, -45.0)), np.array((60.0, 10.0, -45.0))
    rise = np.linspace(0, 1, 30)[:, None]
    lab[y + 47 : y + 77, x + 12 : x + 28] = (cover + rise * (mark - cover))[:, None, :]
    lab[y + 77 : y + 83, x + 12 : x + 28] = mark
    lab[y + 83 : y + 113, x + 12 : x + 28] = (mark + rise * (cover - mark))[:, None, :]
    prof = _profile(lab, BOX)
    cut = _segments(prof, y)
    assert not _icon(lab, BOX, cut, 0.25) and not _icon(lab, BOX, _fine(cut, prof, BOX, 9.0), 0.25)
    assert _icon(lab, BOX, _fine(_ramp_cut(prof, y), prof, BOX, 9.0), 0.25)
    board = synth_board(14811)
    got = outcome(board.tubes, board.capacity, board.layout, board.image)
    assert got["outcome"] == "exact"


def test_a_board_of_covers_and_empty_tubes_is_read_with_its_capacity_doubted():
    """Seed 14557: four covers and one empty tube show no liquid, so nothing tells the unit;
    the covers found say the tubes were, so the board is read (capacity guessed from the
    tubes' height, doubted) instead of refused. A board read empty is no board."""
    assert _covers_only([None, [], None]) and not _covers_only([[], []])
    assert not _covers_only([None, [_Segment(0, 10, np.zeros(3))]])
    reading = read_screenshot(synth_board(14557).image)
    assert reading.tubes == [None, None, None, [], None] and not reading.ok
    assert any("guess" in p for p in reading.problems)
