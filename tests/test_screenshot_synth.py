"""Style-randomised synthetic boards: the generator is sound and the reader, on looks it was
not built on, is exact or says it is unsure (a seeded sweep; the big one is in benchmarks/)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from puzzlelab.watersort.screenshot import (
    DEFAULT_PARAMS,
    RIM_REACH,
    RIM_UNITS,
    _add_top,
    _added_bounds,
    _afloat,
    _alike_tops,
    _as_glass,
    _beside_hidden,
    _blurred_runs,
    _bounds,
    _capped_hidden,
    _cell_colour,
    _cell_marked,
    _choose,
    _completed,
    _count_units,
    _counted,
    _drifts,
    _drop_corks,
    _faint_cells,
    _Glass,
    _glass,
    _glass_above,
    _glass_seams,
    _glass_top,
    _glass_tops,
    _held_tops,
    _hidden_fill,
    _is_glyph,
    _join_cell_pieces,
    _least_unit,
    _liquid_below,
    _liquid_floors,
    _mark_like,
    _marked_cells,
    _miscounted,
    _missed_floors,
    _no_arcs,
    _one_grid,
    _opaque_fit,
    _outline_free,
    _over_glass,
    _pick_unit,
    _plain_fill,
    _profile,
    _reclaimable,
    _rim,
    _rim_doubts,
    _rim_glass,
    _rival_units,
    _row_groups,
    _runs_below,
    _sandwiched,
    _see_through,
    _Segment,
    _segment_tubes,
    _short_rows,
    _split_glass,
    _split_marked,
    _split_mixed,
    _stack,
    _steps_off_glass,
    _tall_liquid,
    _tinted_rims,
    _top_unit,
    _tracks,
    _uncounted_unit,
    _under_headroom,
    _under_liquid,
    _unlike_beside,
    _varies,
    _walled,
    _whole_top,
    outcome,
    read_screenshot,
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
    """40 boards: no silent misreading (measured: none of 40; seed 17 was silent until its top
    unit near the glass was read), the rest exact or flagged.

    The issue's goal is 99 % exact; the reader is still short of it on these looks (measured
    39 of 40 exact; 95 of seeds 0-99), so the floor below sits just under today's figure and
    the gallery in notebook 07 shows the misses. A change that makes more readings silent, or
    fewer exact, fails here.
    """
    table = score_synth(range(40))
    counts = table.outcome.value_counts().to_dict()
    assert counts.get("silent", 0) == 0, table[table.outcome == "silent"]
    assert counts.get("exact", 0) >= 37, counts


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
        (1193, "a grey liquid on '?' cells of a like grey joined their run: a fifth '?'"),
        (27, "a '?' with a bold mark at a round bottom read as grey liquid"),
        (1031, "a short light run at a round bottom: the flattening made it look marked"),
        (1061, "a circled '?' at a round bottom filled its short window: taken for a glint"),
        (1072, "a '?' under black liquid at a round bottom, in a slot the spacing added"),
        (1118, "a round bottom's outline at the window's side taken for a '?' on black"),
        (10, "light '?' cells under liquid matched see-through glass: read as empty"),
        (18, "'?' cells under liquid on a photo board read as empty glass"),
        (1189, "no two found boxes' rims agreed (covers): the glass came from a cover"),
        (1124, "a circled '?' cut by a round bottom: a short grey run under the '?' run"),
        (82, "the bottom '?' cell, on a flat bottom, read as a grey liquid of one unit"),
        (1001, "circled '?' glyphs cut their cells into light and dark pieces: no one fill"),
        (1063, "a '?' at a flat bottom, in a slot the spacing added, read as grey liquid"),
        (56, "bottom '?' cells with circled marks read as a dark liquid: no one fill found"),
        (1048, "steps of one and two tubes: their median was no pitch, rows read 5 and 3"),
        (1084, "a second row of seven read as five, silently: two faint tubes at its end"),
        (1126, "a row of six read as five"),
        (1134, "a last row of three read as one: two faint tubes beside the tube found"),
        (1198, "two units read in the wrong colour"),
        (68, "a row of four read as three: a hole between two tubes, faint side edges"),
        (1032, "an empty tube between two others missed on a photo: its sides are faint"),
        (1089, "a circled '?' counted as two marks: units of half the height, capacity 8 of 4"),
        (1097, "a circled '?' cut into a '?' piece and a grey piece: capacity 7 of 3"),
        (1067, "a bold '?' at a round bottom cut in two: its lower piece read as a grey unit"),
        (2053, "yellow tops on a yellow gradient: headroom merged into them read as drift"),
        (1116, "a top unit with the headroom's glass merged on top read as drifting glass"),
        (2065, "a dark-grey liquid on two '?' cells of its shade: their marks read as a cover's"),
        (1006, "empty tubes the spacing added beside a short row over a photo, silently"),
        (80, "a faint empty tube where the photo changes colour across it: its walls show"),
        (2097, "two rows of two faint tubes read as one row: no rows' step to look at"),
        (2146, "a second row of faint round-bottomed tubes missed: one row read"),
        (2049, "a bottom unit like the glass under liquid: the whole tube read as empty"),
        (2152, "a bottom unit like the glass under three units: the tube read as empty"),
        (2198, "bottom units like the glass (a photo): four full tubes read as empty"),
        (1159, "a bottom unit like the glass under liquid: a full tube read as empty"),
        (2057, "a tube read as empty when its bottom unit looked like the glass: capacity 5"),
        (2012, "a row's faint glass tops missed, its boxes short: full tubes read as covered"),
        (1364, "two full tubes the spacing added read as covered: headroom read as a unit"),
        (1441, "a tube beside banners read as covered: its headroom read as one unit more"),
        (1462, "a tube among banners read as covered: its headroom read as a fifth unit"),
        (1498, "a full tube in a slot the spacing added read as covered: a unit too many"),
        (2017, "a tube read as covered: its halo-puffed box reaches below its round bottom"),
        (2119, "a tube on a photo read as covered: its headroom read as a seventh unit"),
        (2144, "a tube on a photo read as covered: its headroom read as a fifth unit"),
        (2153, "a tube read as covered: its box reaches below its round bottom"),
        (2172, "a full tube read as covered: its thin headroom read as a fifth unit"),
        (1244, "outlines puffed on a tiny picture: rows of 4, 2 and 2 for the comb's 7 and 7"),
        (1276, "doodles on the outlines: two rows of one tube, silently, for two rows of two"),
        (1317, "rows of 5 and 3 from the outlines for the comb's 5 and 5"),
        (1490, "outline rows of 1 and 6 that share image rows, for the comb's one row of 6"),
        (1153, "glass at a tube's rim over a photo read as a unit of its own: capacity 4 of 3"),
        (1161, "a top unit with the headroom's glass on it counted two units: capacity 5 of 4"),
        (1320, "a top unit and the glass above it up to the rim, two units: capacity 5 of 4"),
        (1437, "glass at a tube's rim over a photo read as a fifth unit: capacity 5 of 4"),
        (1474, "glass at the rims of two tubes over a photo read as liquid: capacity 7 of 6"),
        (1475, "glass at a tube's rim read as a fifth unit, silently (covers): capacity 5 of 4"),
        (2000, "full tubes up to the tops of short boxes: their top units are no glass"),
        (1416, "a liquid topping three full tubes taken for the glass, silently: 3 units lost"),
        (1076, "a liquid topping two tubes taken for the glass; two empty tubes show clear glass"),
        (1434, "a liquid topping tubes taken for the glass: three tubes a unit short, silently"),
        (1478, "a top unit read as glass (the glass came from a liquid), silently"),
        (2181, "the glass taken from a liquid: four tubes' counts wrong, silently"),
        (2106, "the glass taken from a liquid topping two tubes: each read a unit short"),
        (1342, "an empty tube of clear glass over a gradient read as four units"),
        (14, "tinted glass over a photo (rims a shade darker) taken for clear: capacity 4"),
        (1168, "a last row of outlined empty tubes with no tint: rows 3, 3 for 3, 3, 3"),
        (1411, "an ad banner's letters at the rows' step taken for a third row of two"),
        (1288, "a hole in a row of halo-puffed boxes, the tube's walls inside: 4, 2 for 4, 3"),
        (1453, "a hole in a row on a photo, walls inside the puffed box: 6, 4 for 6, 5"),
        (1491, "a row half a pitch off centre, its end tube's walls inside the box: 2 for 3"),
        (2096, "an outlined empty tube at a row's end, walls inside the box: 4 for 5"),
        (1235, "a row of two read as one: the hole's walls stood inside its box"),
        (1580, "an ad banner's letters outscored two rows of faint tubes: one row of 18"),
        (1147, "curtains whose badge sat off a box that missed their top read as liquids"),
        (1365, "a curtain read as three units: the box began at the liquids, under its top"),
        (2095, "a banner over a tube read as liquid: its icon off the box's centre"),
        (2189, "a banner read as liquid: its box missed the banner's top"),
        (2071, "a '?' mark between two grey cells is no cover's icon centred on them"),
        (2105, "a '?' mark between grey '?' cells taken for a cover's icon, silently"),
        (1362, "circled '?' marks cut their cells: half-height units fitted, capacity 8 of 4"),
        (1343, "liquid heights alone fitted half-height units on a photo: capacity 9 of 5"),
        (1184, "the second pass fitted liquid heights to a third of the unit: capacity 10 of 3"),
        (1301, "the second pass fitted liquid heights to a third of the unit: capacity 10 of 3"),
        (1507, "empty glass tinted like a liquid seen elsewhere read as it: capacity 5 of 4"),
        (1408, "a tiny low-quality JPEG: units of half the height fitted, capacity 7 of 3"),
        (1452, "a small picture with thick outlines: half-height units, capacity 9 of 4"),
        (1527, "faint glass on a photo, boxes cut short: half-height units, capacity 4 of 3"),
        (83, "half-height units a quarter of the tube's width kept the invariant: 10 of 5"),
        (17, "a top unit near the gradient behind clear glass read as glass, silently"),
        (1253, "a grey top unit ΔE 9 from the headroom above it merged into it, silently"),
        (1374, "one unit over a photo, under clear glass, read as glass: the tube empty, silently"),
        (1028, "a top unit read as glass in a slot the row's spacing added"),
        (1230, "an ad banner's letters as outlines: rows of 2 and 4 for the comb's 2 and 2"),
        (1248, "an ad banner's letters, a row of 12 outlines, for the comb's rows of 3 and 2"),
        (1430, "a faint empty tube at a row's end dropped as a ghost: a row of 2 for 3"),
        (1595, "a faint empty tube that centres its row dropped as a ghost, silently"),
        (1499, "a liquid unit over '?' cells of its shade read as a covered tube, silently"),
        (28, "thin '?' marks on a small picture: two '?' cells read as grey liquid"),
        (2006, "two bottom '?' cells at round bottoms, no mark seen: read as grey liquid"),
        (2103, "four bottom '?' cells at round bottoms, no mark seen: read as grey liquid"),
        (2143, "three '?' cells at a flat bottom read as three units of grey liquid"),
        (1482, "a bottom '?' cell under liquid, its plain mark missed: read as grey liquid"),
        (21, "a round bottom's curve under a green unit split off as a colour of its own"),
        (61, "one unit on a flat thick-outlined bottom over a photo read as a new colour"),
        (1476, "two round bottoms mixing dark green with the outline read as a new colour"),
        (1583, "background below a round bottom inside the box read as the bottom unit"),
        (1277, "a yellow unit in a round bottom with a light outline read 54 ΔE off"),
        (40, "a split colour left the invariant broken, so capacity 5 was taken for 4"),
        (1509, "a unit between two of one colour in a too-wide box taken for a lock, silently"),
        (1445, "outlines found two tubes of a row of three, the comb's evenly spaced row lost"),
        (1074, "outline boxes re-centred unevenly in a row: one slot read as a ghost, 6, 5, 4"),
        (2163, "a full tube read as covered: boxes from the outlines' unevenly stepped row"),
        (2011, "a tube of 5 read as empty: the outlines' uneven row put its box off the tube"),
        (1111, "a '?' cell misread: boxes from the outlines' uneven row for the comb's even"),
        (2027, "outlines of marks inside tubes, a fifth of a tube wide, read as a row of 7"),
        (1421, "a liquid topping three tubes cut at the liquid taken for tinted glass"),
        (1068, "a liquid topping three tubes taken for the glass: empty tubes read as liquid"),
        (1080, "a black topping two tubes taken for the glass: two empty tubes read as full"),
        (1366, "the glass taken from a liquid over a photo: three tubes a unit short"),
        (2156, "an empty tube's round bottom outline read as one unit of liquid"),
        (1242, "a row's boxes reached half a unit below its tubes: capacity 5 of 4"),
        (1377, "a row's boxes reached a unit below its tubes: capacity 6 of 5"),
        (74, "bottom '?' cells read as grey: a darker grey liquid sat within ΔE 12 of them"),
        (1125, "two '?' cells read as a grey liquid: a lighter grey liquid elsewhere"),
        (1204, "the lowest of three '?' cells read as a green liquid at a round bottom"),
        (1351, "a one-unit grey liquid alone on a tube's bottom read as a '?' cell"),
        (25, "the outline under a tube's lowest unit counted as a unit: capacity 3 of 4"),
        (51, "the round bottom under the lowest unit read as a unit of its own colour"),
        (70, "the round bottom under a '?' cell read as a unit, the cell as a grey liquid"),
        (1013, "the round bottom under two '?' cells read as a light olive unit"),
        (1568, "the round bottom under three '?' cells read as a light green unit"),
        (1054, "an ad banner's letters set the comb's tube size: no tube kept, refused"),
        (1114, "an ad banner's letters set the comb's tube size: rows of 2 and 6 for 3, 2"),
        (2137, "a row's boxes short of its tubes: four a unit short (comb pitch, grown boxes)"),
        (2158, "the comb's row took gaps for tubes at a median step like the outlines'"),
        (2080, "the comb's second row at half the first's pitch: a gap read as a tube"),
        (2082, "the comb's second row at half the first's pitch: 9 tubes for 4"),
        (1385, "a row of faint tubes whose sides show up to their liquid only: 5 for 5, 4"),
        (2089, "faint glass cut off the rows' tops at the liquid: capacity 4 of 6"),
        (1065, "faint glass cut off the rows' tops: a full tube read as 6 units of 5"),
        (1138, "faint glass cut off the rows' tops: a full tube read as 3 units of 4"),
        (2031, "faint glass cut off the rows' tops: two full tubes read as 3 units of 4"),
        (2174, "faint glass cut off the rows' tops: three full tubes read as 3 and 4 of 5"),
        (2173, "faint glass cut off the rows' tops: a tube of 3 units read as 5"),
        (1281, "faint glass cut off the rows' tops: two tubes read 3 and 1 units short"),
        (1283, "faint glass cut off the rows' tops: a full tube read as 5 units of 6"),
        (1004, "two '?' marks of a run counted as one: units of twice the height, 3 of 5"),
        (1058, "two '?' marks of a run counted as one: units of twice the height, 3 of 6"),
        (1304, "'?' marks of runs of 2 and 3 counted as one: twice the unit, capacity 3 of 6"),
        (2124, "a row's boxes ended above its tubes' bottom, then a '?' mark missed: silent"),
        (1573, "a top unit under the headroom of tinted glass over a photo read as glass"),
        (1043, "a row's boxes ended a unit above its tubes' bottom: 5 read as 4, 1 as 0"),
        (1379, "a row's boxes ended half a unit above its tubes' bottom: a tube of 1 read empty"),
        (3174, "a slot the spacing added over a tube's box read as one more empty tube: silent"),
        (3192, "a row of two faint empty tubes over a photo missed; all full tubes: silent"),
        (
            1829,
            "a colour topping two tubes over a photo, seen under liquid only in a slot read "
            "alone, was taken for glass: silent",
        ),
        (
            1280,
            "a tube's one unit taken for glass; its colour under liquid only in a slot read alone",
        ),
        (1033, "enlarged 3.3 times, the comb spaced one row at 1.5 pitches: 5 tubes for 7"),
        (1291, "enlarged 3.5 times, outline boxes two tubes wide: rows of 2 and 2 for 3 and 3"),
        (1358, "enlarged 2.7 times, the comb filled a faint row at half its pitch: 6 for 4"),
        (1450, "enlarged 2.8 times, the comb sat between thin-outlined tubes: 7 for 8"),
        (2070, "enlarged 2.7 times, the third row of faint glass lost: rows of 2, 2 for 2, 2, 2"),
        (2139, "enlarged 1.6 times, a tube missed over a photo: rows of 7 and 6 for 7 and 7"),
        (1333, "enlarged 2.8 times, no liquid found in any box: refused instead of read"),
        (1426, "enlarged 1.7 times, a covered tube read as 3 units of liquid"),
        (1395, "shrunk to 800 rows, thin outlines over a photo faded: one row of 2 for 2, 2"),
        (1511, "shrunk to 800 rows, the second row's faint glass faded: one row of 3 for 3, 2"),
        (1556, "shrunk to 800 rows, four tubes without outline faded: 2 tubes for 6"),
        # read at 800 rows these broke the colour counts; located at their own size, exact
        (26, "resized: capacity 7 of 6, colours short"),
        (44, "resized: capacity 7 of 5, colours short"),
        (67, "resized: capacity 6 of 5, units missing"),
        (1210, "resized: capacity 5 of 3"),
        (1270, "resized: capacity 3 of 4"),
        (1387, "resized: capacity 9 of 5"),
        (1427, "resized: the comb pitch refit read capacity 5 of 4"),
        (1469, "resized: capacity 4 of 3"),
        (2064, "resized: capacity 3 of 4"),
        (1019, "resized: units miscounted: 4 '?' cannot make up the colours"),
        (1066, "resized: units miscounted: five short of capacity 6"),
        (1590, "resized: units miscounted: five short of capacity 4"),
        (2043, "resized: units miscounted: colours seen 1 or 2 times of 4"),
        (2067, "resized: a tube a unit short: green-2 seen 3 times of 4"),
        (2100, "resized: a tube a unit over: yellow seen 7 times of 6"),
        (2159, "resized: a tube a unit short: dark-purple seen 3 times of 4"),
        (1146, "resized: '?' cells miscounted: four units missing, one '?' for them"),
        (1181, "resized: '?' cells miscounted: colours short of capacity 5"),
        (1428, "resized: colours misread: blue seen once, red and olive 3 times of 4"),
        (2051, "thin '?' marks on a small picture missed: '?' cells read as a grey liquid"),
        (1396, "thin '?' marks on a small picture missed: grey 13 times for capacity 5"),
        (1431, "thin '?' marks at round bottoms missed: '?' cells read as grey, capacity 3"),
        (1119, "a bold '?' mark too faint on a small picture: its cell read as a liquid"),
        (1148, "every run an even number of units at half the unit height: capacity 6 of 3"),
        (1617, "every run an even number of units at half the unit height: capacity 6 of 3"),
        (1619, "every run an even number of units at half the unit height: capacity 6 of 3"),
        (1693, "every run an even number of units at half the unit height: capacity 6 of 3"),
        (1776, "every run an even number of units at half the unit height: capacity 6 of 3"),
        (1908, "every run an even number of units at half the unit height: capacity 7 of 3"),
        (1415, "every run an even number of units at half the unit height: capacity 9 of 4"),
        (
            1666,
            "all runs even at half the unit, '?' cells lost on twice it: halved, 8 of 4",
        ),
        (
            1675,
            "all runs even at half the unit, '?' cells lost on twice it: halved, 6 of 3",
        ),
        (
            1691,
            "all runs even at half the unit, '?' cells lost on twice it: halved, 8 of 4",
        ),
        (1770, "a tube of unseen glass at a row's end, only its bottom unit shows: 5, 4 for 5, 5"),
        (1856, "a one-tube row spaced at the median of a pitch and its double: 3 tubes for 4"),
        (1925, "a one-tube row spaced at the median of a pitch and its double: 6, 7 for 8"),
        (1895, "a blue top unit over a gradient taken for glass: blue seen 4 times of 5"),
        (1971, "a dark blue of the glass's very colour under liquid: 3 tubes read 1 unit of 6"),
        (1651, "a '?' cell under a grey liquid of near its fill read as drifting glass"),
        (1586, "the headroom over a photo, near a liquid's colour, read as it: blue 7 of 6"),
        (10201, "a '?' cell's unmarked half split off as grey: read on half the unit, silently"),
        (10244, "a top liquid dropped as a cork under a capacity guess too small, silently"),
        (10246, "a unit 4/3 of the drawn one, boundaries off its grid: capacity 3 of 4"),
        (10419, "a unit 3/2 of the drawn one, boundaries off its grid: capacity 4 of 6"),
        (10658, "a second row over a photo, one tube showing only its bottom liquid: 2 for 2, 2"),
        (10187, "an empty tube tinting a flat background by 1.4 in a hole: 7, 6 for 7, 7"),
        (10064, "an empty tube faintly tinting a gradient at a row's short end: 8, 7 for 8, 8"),
        (10234, "a one-unit tube whose box reached below the floor read as covered"),
        (10752, "a grey liquid on ringed '?' cells (no one fill) read as '?' with ok True"),
        (11650, "bold '?' marks kept by the flattening: '?' cells read as blue, silently"),
        (11536, "a bold '?' in a run's top cell unseen: split off as grey, silently"),
        (11384, "a bold '?' in a run's top cell unseen: read as black, silently"),
        (11962, "a thick round bottom's outline taken for a '?' mark on grey, silently"),
        (11109, "a bold '?' in a run's top cell unseen: read as a grey liquid"),
        (10764, "a round bottom's outline, broken by JPEG, taken for a '?' on grey, silently"),
        (11364, "a glint down a grey unit, off the tube's middle, taken for a '?' mark"),
        (11756, "the inner edge of a round bottom's outline taken for a '?' on a grey unit"),
        (11600, "a grey under a light olive, their boundary lost, read as 2 units of olive"),
        (11557, "'?' marks in rings, whose lower arcs look like a round bottom's outline"),
        (11564, "a JPEG speck on a small liquid unit taken for a bold '?' against its fill"),
        (11757, "a photo's gradient behind glass cut into four liquids of its blues"),
        (12903, "ringed '?' marks, no one grey down the middle: bottom cells read as grey"),
        (12285, "ringed '?' cells' profile lighter than their fill: bottom '?' read as grey"),
        (1339, "a grey liquid's bottom cell, an outline across it, 21 dE off the '?' grey"),
        (1415, "a dark liquid's bottom cell, an outline across it, 24 dE off the '?' grey"),
        (10695, "bold '?' strokes kept by the flattening: grey liquid on '?' read as '?'"),
        (10021, "a second row over a photo seen only by one liquid floor: 3 for 3, 2"),
        (10248, "a second row over a photo, its one liquid at a floor, one empty: 3 for 3, 2"),
        (11276, "every colour run three units at a third of the unit: capacity 9 of 3, silently"),
        (11859, "'?' cells' plain thirds split off, runs of three at a third: 9 of 3, silently"),
        (11890, "one boundary height fit a stretch of units; a third's reading: 9 of 3, silently"),
        (11834, "one boundary height, a unit leaving 1.6 units of headroom: 5 of 3, silently"),
        (11015, "a row grown to a row of curtains' height, a unit more: capacity 6 of 5, silently"),
        (11467, "a top unit near the glass, its edge blurred, merged into the headroom: silent"),
        (11272, "two top units of clear glass's colour merged into the headroom, in added slots"),
        (11606, "a top unit of the glass's colour merged into the headroom: a colour seen 4 of 5"),
        (12136, "an empty tube's thin outline lost in JPEG between two tubes: read as a gap"),
        (12755, "an empty tube over a photo in a second row's middle: a row of 6 for 7"),
        (12642, "a bubble's ring outlined beside a tube, overlapping it: a row of 8 for 7"),
        (12855, "a photo's ring outlined beside a tube: 8 over 6 for 7 over 6"),
        (12037, "a grey curtain whose knob barely shows, read as a tube full of grey"),
        (12350, "two curtains with their knobs missed, read as full tubes of one colour"),
        (12412, "an empty tube's glass over a photo, far from the glass model: 5 units, silently"),
        (
            12169,
            "boxes cut at the liquid's top: a top unit of the glass's colour, 1.1 units of run",
        ),
        (12622, "a headroom of nearly a unit merged into a top run on the grid: 5 of 4"),
        (13906, "a glint cut a colour's even run in two: capacity 10 of 5, silently"),
        (13645, "a headroom merged into a top run on the grid, with '?' cells: 4 of 3"),
        (13387, "an overfull top run starting 0.2 units under its box's top: 6 of 5"),
        (13990, "a brown liquid 6.9 from the photo behind, a step the photo lacks: silent"),
        (13938, "a headroom merged into a shaded top unit, taken as drifting glass: 2 short"),
        (13017, "a unit boundary doubted at the resized size; own size reads it clean"),
        (13587, "a doubted capacity at the resized size; tubes located at own size read it"),
        (11620, "a ringed bottom '?' read right stopped the floor-row retry; the second look"),
        (12688, "a curtain in a hole read as an inferred empty tube; the second look"),
        (13358, "a grey curtain, its knob lost in its folds, read as an empty tube: silently"),
        (13420, "a curtain over a photo, its knob missed, read as an empty tube"),
        (13411, "a row of 7 over a row of 6: both end tubes cut by the other row's span"),
        (14080, "ringed '?' marks counted 4 for 3 cells pulled the unit: capacity 5 of 4, silent"),
        (14424, "two plain '?' marks counted as one pulled the unit: capacity 3 of 4, silent"),
        (14046, "a black run's round-bottom outline taken for a mark on a shaded '?': silent"),
        (14492, "a white bottom unit cut by a thick outline read as a '?' cell: silent"),
        (14107, "one '?' cell tinged by the picture under its box: a symbols board, silent"),
        (14001, "a grey liquid resting on '?' cells of its grey read as one more '?'"),
        (14811, "a lock whose faint icon ramps into its cover, read as an empty tube: silent"),
        (14239, "glass too faint for edges, the comb's band squat as the liquid: refused"),
        (14412, "a row half a pitch off centre, its end tube's glass over a gradient: 7 for 8"),
        (14847, "a row half a pitch off centre, its end tube's faint glass missed: 3 for 4"),
        (14347, "four tubes topped by one navy fitted as opaque glass past a clear rim: silent"),
        (15092, "a '?' drawn high in its cell: the grid's cell showed no mark, read as a liquid"),
        (15087, "a grey liquid on three '?' cells, its mark's pieces counted as a fourth mark"),
        (15339, "a surplus grey split in two runs by JPEG noise: not offered as '?' cells"),
        (15128, "units shifted off five colours joined each other: the counts could not balance"),
        (15727, "a 249 px thumbnail: capacity and rows read only with its JPEG blocks smoothed"),
        (15519, "a 199 px thumbnail: a row missed until its JPEG blocks were smoothed"),
        (15692, "a second row of 3 under a row found as every other tube: one row, silent"),
        (15586, "the one row's faint glass tops taken for a second row of 3: silent"),
        (15994, "two slots on a gradient's bubbles taken for a row of 2 under a row of 8"),
        (15104, "the unit over a doubtful slot's '?' cells near the glass, read as glass"),
        (15181, "the unit over '?' cells merged with the headroom's glass, read as glass"),
        (15036, "glass over a photo taken off two tubes' tops hid that every run was even: silent"),
        (15060, "a split round-bottom unit pulled the fit to half the unit: 9 for 4 with covers"),
        (15932, "half the unit broke the counts; the rival on twice it kept them (with covers)"),
        (16713, "a rival unit's reading counted as sound kept the own-size retry from a look"),
        (15258, "the same: a second row was missed until the own-size location read it"),
        (15801, "capacity 12 for 6 broke the counts; the own-size reading forced glass, exact"),
        (16595, "a thumbnail read sound but doubted, capacity 6 for 5: smoothed, exact"),
        (16948, "a thumbnail's last row read as 4 tubes for 2, sound but doubted; smoothed"),
        (16961, "a thumbnail's boundaries off the grid, capacity 4 for 6; smoothed, exact"),
        (16761, "a top unit near the glass in a slot read alone, its colour under liquid in one"),
        (16638, "a slot's box copied from a curtain's sat low: its top unit cut off, silently"),
        (15780, "boxes cut at the liquid's top 0.4 units short: four full tubes' top colour lost"),
        (16827, "a comb at half the pitch, no tube seen between its tubes: rows of 9 for 5"),
        (16331, "a row grown a unit into a photo's patch under one tube: capacity 6 of 4"),
        (16704, "a row grown a unit into a photo under its tubes' round bottoms: 5 of 4"),
        (17858, "a pale top unit on a '?' stack, blurred toward the glass, read as glass"),
        (17709, "a greyish top unit under the glass, its ends blurred (a drift), read as glass"),
        (17508, "a top unit stepping off the glass above it, not with the picture, read as glass"),
        (17543, "three top units read as glass, their ends blurred toward the glass (a drift)"),
        (17335, "capacity 3 of 4 on too tall a unit, its top units' drift read as glass"),
        (17404, "capacity 3 of 5 on too tall a unit, its top units' drift read as glass"),
        (17665, "two empty tubes' walls inside slots as wide as covers, dropped: 4 for 6, silent"),
        (17740, "a one-unit tube of faint glass showing the picture, read as a cover's body"),
        (16290, "the same: a one-unit tube in a slot the spacing added read as covered"),
        (18999, "a purple on a near purple, blurred on a 202 px JPEG: one run, 5 and 3 seen"),
        (18677, "the same, a dark green on a grey (248 px): dark green seen 5 times for 4"),
        (18386, "the same at a tube's bottom: a step of 14 ΔE, under twice the join (279 px)"),
        (17973, "an ad banner's letters set the bands' bar over faint tubes: refused"),
        (18425, "the same: a banner's letters set the bar, no row of tubes found, refused"),
        (18058, "a middle row of faint glass only the comb saw, dropped: [2, 2] for [2, 2, 2]"),
        (18545, "a row of two thin-outlined empty tubes only the comb saw, dropped, silent"),
        (18402, "faint glass under the bar an ad banner's letters set: [3] for [3, 2]"),
        (18866, "boxes as wide as curtains made the other row's pitch look too fine: 2 for 3"),
        (17147, "one row's boxes start at a full tube's liquid top: capacity 4 for 5, silent"),
        (18566, "the same, the boxes at the full tube's top, its glass above: capacity 3 for 4"),
        (17663, "a one-unit tube of tinted glass, its unit held back as glass, cyan short"),
        (17725, "a pink top read as glass in one tube, liquid in one over another picture, silent"),
        (18333, "a bold '?' covering its cell: the cell's colour off the '?' grey, read as grey"),
        (18002, "bold '?' cells whose colour, taken with the mark, was off the '?' grey"),
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


def test_an_empty_tube_of_clear_glass_outweighs_a_colour_topping_several_tubes():
    """Three full tubes topped by one yellow (their rims agree) and empty tubes the reader
    doubts, whose rims show the background beside them: the glass is clear, not yellow.
    Both empty rims a shade darker than the background beside them: tinted glass, not
    modelled as clear (one such rim alone may be noise)."""
    bg = np.array([40.0, 70.0, -55.0])
    lab = np.tile(bg, (200, 320, 1))
    every = [(20 + 60 * k, 40, 30, 120) for k in range(5)]
    for x, y, w, h in every[:3]:
        lab[y : y + h, x : x + w] = [60.0, -30.0, 10.0]  # liquid below
        lab[y : y + 40, x : x + w] = [95.0, -5.0, 80.0]  # a yellow unit up to the rim
    glass = _glass(lab, every[:3], every, bg)
    assert np.linalg.norm(glass.color - bg) < 1 and glass.fit[0] == 1.0  # clear: shows behind
    assert np.linalg.norm(_glass(lab, every[:3], every[:3], bg).color - bg) > 50  # no witness
    x, y, w, h = every[3]
    lab[y : y + h, x : x + w] = bg + [-6.0, 0.0, 0.0]  # darker than what is behind
    assert _glass(lab, every[:3], every[:4], bg).fit[0] == 1.0  # one such rim: noise
    x, y, w, h = every[4]
    lab[y : y + h, x : x + w] = bg + [-6.0, 0.0, 0.0]
    tinted = _glass(lab, every[:3], every, bg)
    assert np.linalg.norm(tinted.color - lab[y, x]) < 1 and tinted.fit is None


def _navy_topped() -> tuple:
    """(lab, boxes, navy, colours behind): six tubes over a photo (its colour differs tube to
    tube), the first four full of a liquid topped by a navy unit up to the rim, two empty."""
    navy = np.array([19.0, 20.0, -37.0])
    behind = [[65.0, -20, 45], [45.0, 0, 34], [22.0, 27, 14], [47.0, 43, -17]]
    behind += [[49.0, 19, 15], [53.0, -4, 45]]
    lab = np.zeros((200, 360, 3))
    every = [(60 * k + 15, 40, 30, 120) for k in range(6)]
    for k, (x, y, w, h) in enumerate(every):
        lab[:, 60 * k : 60 * k + 60] = behind[k]
        if k < 4:
            lab[y : y + h, x : x + w] = [60.0, -30.0, 10.0]  # liquid below
            lab[y : y + 40, x : x + w] = navy  # a navy unit up to the rim
    return lab, every, navy, behind


def test_a_fit_missing_the_clear_rim_is_a_liquid_topping_full_tubes():
    """Four full tubes topped by one navy (rims alike whatever the picture behind) and two
    empty tubes of clear glass: fitting the rims as see-through glass finds the navy (a
    glass letting nothing through); that fit misses the clear rim taken for the glass, so the
    glass is clear, and a navy run is far from it."""
    lab, every, navy, _ = _navy_topped()
    assert np.allclose(_see_through(*_rims_of(lab, every))[1], navy, atol=1)  # opaque "glass"
    got = _glass(lab, every[:4], every, np.array([42.0, 10.0, 5.0]))
    assert got.fit is not None and got.fit[0] == 1.0  # clear glass: it shows the picture
    run = _Segment(40, 80, navy)
    assert got.distance(run, every[0]) > 30


def test_a_fit_of_rims_alike_missing_a_clear_rim_is_no_glass_though_a_rim_is_near_the_bg():
    """As above, with the empty tubes read with the board and the board's background near
    one clear rim (so a shared rim near it is seen): the fit explains only the navy rims,
    alike whatever the picture behind, and misses a rim showing the picture: no glass, so a
    navy run is far from the glass."""
    lab, every, navy, behind = _navy_topped()
    got = _glass(lab, every, every, np.array(behind[4]) + 2.0)
    assert got.fit is None or got.fit[0] == 1.0  # no opaque navy "glass"
    assert got.distance(_Segment(40, 80, navy), every[0]) > 30
    rims = {b: _rim(lab, b, every, np.zeros(3)) for b in every}
    assert _opaque_fit((0.0, navy), rims, every[4:])
    assert not _opaque_fit((0.0, navy), rims, [])  # no rim shows the picture


def _rims_of(lab: np.ndarray, every: list[tuple]) -> tuple[np.ndarray, np.ndarray]:
    """(rim colours, backgrounds beside them) of `every` box, as `_glass` samples them."""
    pairs = [_rim(lab, b, every, np.zeros(3)) for b in every]
    return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])


def test_a_colour_topping_full_tubes_yields_to_tinted_glass_beside_the_picture():
    """Two full tubes topped by one purple, far from the picture beside them, and two empty
    tubes whose rims sit a tint off the photo behind them: the glass is the tinted rims (a
    fit of the background plus their tint), not the purple; with one tinted rim, or with the
    picked colour near the picture behind a rim showing it, nothing changes."""
    purple, tint = np.array([83.0, 22.0, -25.0]), np.array([-7.0, -5.0, 8.0])
    sides = [np.array(v) for v in ([36.0, 25.0, -12.0], [61.0, -6.0, 29.0], [58.0, 40, -23])]
    sides.append(np.array([56.0, 61.0, -42.0]))
    boxes = [(20 + 60 * k, 40, 30, 120) for k in range(4)]
    rims = {b: (purple, sides[k]) for k, b in enumerate(boxes[:2])}
    rims.update({b: (sides[k] + tint, sides[k]) for k, b in enumerate(boxes) if k >= 2})
    colour, ref, fit = _tinted_rims(rims, boxes[:2], purple)
    assert np.allclose(colour - ref, tint) and fit[0] == 1.0 and np.allclose(fit[1], tint)
    assert _tinted_rims(dict(list(rims.items())[:3]), boxes[:2], purple) is None  # one rim
    rims[boxes[0]] = (purple, purple + 10.0)  # the purple may be glass over the picture
    assert _tinted_rims(rims, boxes[:2], purple) is None
    assert _tinted_rims(rims, boxes[:2], np.array([0.0, 0.0, 0.0])) is None  # no rim shows it


def test_a_run_under_half_a_unit_at_the_bottom_is_no_liquid():
    """An empty tube's bottom outline read as a short run (0.4 units) holds no unit, and so
    does the same run under a liquid (the curve under its cell: the liquid reaches the
    bottom); a run of 0.6 units alone, or one reaching under half a unit up but as long as a
    unit (the grid sits off the tube's bottom), still counts one."""
    box, unit = (0, 0, 40, 100), 20.0
    lone = [_Segment(92, 100, np.zeros(3))]
    _count_units(lone, box, unit, 0.0)
    assert lone == []
    alone = [_Segment(88, 100, np.zeros(3))]
    _count_units(alone, box, unit, 0.0)
    assert [s.units for s in alone] == [1]
    stack = [_Segment(92, 100, np.zeros(3)), _Segment(60, 92, np.ones(3) * 50)]
    _count_units(stack, box, unit, 0.0)
    assert [(s.y0, s.units) for s in stack] == [(60, 2)]
    long = [_Segment(82, 100, np.zeros(3)), _Segment(60, 82, np.ones(3) * 50)]
    _count_units(long, box, unit, 9.5)  # the grid's zero 9.5 rows above the box's bottom
    assert [s.units for s in long] == [1, 1]


def test_a_question_runs_mark_count_decides_its_units_only_when_it_fits_its_length():
    """Off the unit grid, a '?' run's marks tell its units, unless the count is three
    quarters of a unit or more off the run's length (a mark missed): then the grid does."""
    box, unit = (0, 0, 40, 120), 20.0

    def units(y0: int, glyphs: int) -> list[int]:
        segs = [_Segment(y0, 120, np.zeros(3), "hidden", glyphs=glyphs)]
        _count_units(segs, box, unit, 3.0)  # the grid's zero 3 rows above the box's bottom
        return [s.units for s in segs]

    assert units(63, 2) == [3]  # 2.85 units long, its top 2.7 up: a mark missed, the grid's 3
    assert units(63, 3) == [3]
    assert units(70, 3) == [3]  # 2.5 units long, its top 2.35 up: the three marks decide
    assert units(70, 2) == [2]


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


def test_glass_under_a_tall_liquid_is_offered_as_liquid():
    """Liquid never floats: runs taken for glass under a tall liquid are offered as liquid
    (copies; the outline across the bottom left out); with none, no variant."""
    box = (0, 0, 20, 100)
    segs = [
        _seg(0, "empty", 1),
        _Segment(20, 40, np.array([40.0, 50, 20]), "liquid", glass=60),
        _Segment(40, 60, np.array([50.0, 0, 0]), "empty", glass=2),
        _Segment(60, 96, np.array([60.0, -40, 30]), "liquid", glass=70),
        _Segment(96, 100, np.array([50.0, 0, 0]), "empty", glass=2),
    ]
    alt = _afloat(segs, box)
    assert [s.kind for s in alt] == ["empty", "liquid", "liquid", "liquid", "empty"]
    assert segs[2].kind == "empty"  # the reading itself is left alone
    assert _afloat([segs[0], segs[3]], box) is None


def _blue_short_board() -> tuple:
    """Two tubes of 5 rows a unit (box 20 x 100): red and blue, and red alone; blue seen
    once of capacity 2. Returns box, red, blue, the runs per tube and the reading's tubes."""
    box, red, blue = (0, 0, 20, 100), np.array([50.0, 60, 40]), np.array([40.0, 10, -50])
    per_tube = [
        [_Segment(80, 100, red, units=1), _Segment(60, 80, blue, units=1)],
        [_Segment(80, 100, red, units=1)],
    ]
    return box, red, blue, per_tube, ([["red", "blue"], ["red"]], None, 2)


def test_a_run_taken_for_glass_in_a_short_colour_is_put_back_on_its_stack():
    """A run taken for glass right on a stack, on the unit grid, nearest a colour the
    reading saw too rarely, is offered as that top unit; not when its colour is complete or
    it is the glass's very colour."""
    box, red, blue, per_tube, out = _blue_short_board()
    run = _Segment(60, 80, blue + 3, "empty", glass=20)
    fuller, added = _completed(per_tube, {1: run}, out, [box, box], (20.0, 0.0))
    assert added == [1] and fuller[1][-1].kind == "liquid" and fuller[1][-1].units == 1
    assert len(per_tube[1]) == 1  # the reading itself is left alone
    assert _completed(per_tube, {1: replace(run, lab=red)}, out, [box, box], (20.0, 0.0))[1] == []
    glass = replace(run, glass=2)
    assert _completed(per_tube, {1: glass}, out, [box, box], (20.0, 0.0))[1] == []


def test_a_unit_held_back_as_tinted_glass_is_offered_to_the_counts():
    """A run on the floor of an empty tube of tinted glass, held back as glass by `_add_top`
    (the glass may step with the picture), in the board's pass or in a slot read alone, is
    offered as the top unit: blue seen too rarely takes it (17663)."""
    box, red, blue, per_tube, out = _blue_short_board()
    per_tube = [[_Segment(80, 100, red, units=1), _Segment(60, 80, blue, units=1)], []]
    out = ([["red", "blue"], []], None, 2)
    run = _Segment(80, 100, blue + 3, "empty", glass=6)
    for held in (_held_tops({1: run}, [1], {}), _held_tops({}, [], {"held": {1: run}})):
        fuller, added = _completed(per_tube, held, out, [box, box], (20.0, 0.0))
        assert added == [1] and (fuller[1][0].kind, fuller[1][0].units) == ("liquid", 1)
    assert _held_tops({1: run}, [], {}) == {}  # a run `_add_top` did not hold back: no offer


def test_a_run_taken_for_glass_alike_another_tubes_top_liquid_over_unlike_pictures_is_liquid():
    """Two tubes over unlike pictures (a red and a blue half): one's top run was taken for
    glass, the other's, of the same pink, read as liquid. See-through glass would differ with
    the picture, a liquid does not: the run goes back on its stack (17725). Not over alike
    pictures, not in another colour, and not a run surely glass."""
    lab = np.zeros((100, 100, 3))
    lab[:, :50] = [40.0, 50.0, 30.0]
    lab[:, 50:] = [40.0, 10.0, -50.0]
    boxes = [(15, 0, 20, 100), (65, 0, 20, 100)]
    pink, grey = np.array([60.0, 60.0, -20.0]), np.array([30.0, 0.0, 0.0])
    per_tube = [
        [_Segment(60, 100, grey, units=2)],
        [_Segment(60, 100, grey, units=2), _Segment(20, 60, pink, units=2)],
    ]
    run = _Segment(20, 60, pink + 1, "empty", glass=12.0)
    fuller, added = _alike_tops(lab, per_tube, {0: run}, boxes, (20.0, 0.0))
    assert added == [0] and (fuller[0][-1].kind, fuller[0][-1].units) == ("liquid", 2)
    assert len(per_tube[0]) == 1  # the reading itself is left alone
    flat = np.full_like(lab, 40.0)
    assert _alike_tops(flat, per_tube, {0: run}, boxes, (20.0, 0.0))[1] == []
    other = replace(run, lab=pink + [0.0, 0.0, 10.0])
    assert _alike_tops(lab, per_tube, {0: other}, boxes, (20.0, 0.0))[1] == []
    sure = replace(run, glass=5.0)
    assert _alike_tops(lab, per_tube, {0: sure}, boxes, (20.0, 0.0))[1] == []


def test_a_run_of_the_glass_colour_up_to_the_rim_gives_the_one_unit_a_stack_lacks():
    """A blue liquid the colour of clear glass merges into the headroom: the run taken for
    glass reaches from the rim to a stack one unit short, and blue was seen too rarely. The
    unit right on the stack is offered; not when the run is only that unit's height, nor
    when the stack is two units short (how many the run holds is unknown)."""
    box, red, blue, per_tube, out = _blue_short_board()
    run = _Segment(25, 80, blue + 2, "empty", glass=1)
    fuller, added = _completed(per_tube, {1: run}, out, [box, box], (20.0, 0.0))
    assert added == [1] and (fuller[1][-1].y0, fuller[1][-1].y1, fuller[1][-1].units) == (60, 80, 1)
    short = replace(run, y0=62)
    assert _completed(per_tube, {1: short}, out, [box, box], (20.0, 0.0))[1] == []
    cut = replace(run, y0=57)  # a box cut at the fullest tubes' liquid top (12169): 1.15 units
    assert _completed(per_tube, {1: cut}, out, [box, box], (20.0, 0.0))[1] == [1]
    three = ([["red", "blue", "blue"], ["red"]], None, 3)
    assert _completed(per_tube, {1: run}, three, [box, box], (20.0, 0.0))[1] == []


def test_glass_at_the_rim_read_as_a_colour_seen_too_often_is_dropped():
    """A top run at the rim, near the glass, in a colour seen once more than capacity: the
    headroom over a picture read as that liquid; not when it is off the rim, far from the
    glass, or more than the colour's surplus."""
    red, blue = np.array([50.0, 60, 40]), np.array([40.0, 10, -50])
    per_tube = [
        [_Segment(80, 100, red, units=1), _Segment(40, 80, blue, units=2)],
        [_Segment(80, 100, blue, units=1), _Segment(60, 80, red, units=1)],
        [_Segment(80, 100, blue, units=1), _Segment(60, 80, blue, units=1, glass=3)],
    ]
    per_tube[0][1].glass = 30
    out = ([["red", "blue", "blue"], ["blue", "red"], ["blue", "blue"]], None, 4)
    assert _over_glass(per_tube, out, [55.0] * 3)[1] == []  # blue 5 of 4, but off the rim
    fewer, dropped = _over_glass(per_tube, out, [60.0] * 3)
    assert dropped == [2] and len(fewer[2]) == 1 and len(per_tube[2]) == 2
    far = [per_tube[0], per_tube[1], [per_tube[2][0], replace(per_tube[2][1], glass=20)]]
    assert _over_glass(far, out, [60.0] * 3)[1] == []
    out3 = ([["red", "blue", "blue"], ["blue", "red"], ["blue", "blue"]], None, 3)
    assert _over_glass(per_tube, out3, [60.0] * 3)[1] == []  # blue 5 of 3: 2 too many


def test_a_marked_run_far_from_the_glass_does_not_drift_like_glass():
    """A run whose colour steps from top to bottom drifts like glass over a picture, unless
    it shows a mark and lies far from the glass: a '?' cell under a liquid of near its grey."""
    box = (0, 0, 20, 90)
    prof = np.tile([55.0, 0, 0], (90, 1))
    prof[60:] = [45.0, 0, 0]
    seg = _Segment(30, 90, np.array([50.0, 0, 0]), "hidden", glass=20)
    assert not _drifts(prof, seg, box)
    assert _drifts(prof, replace(seg, kind="liquid"), box)
    assert _drifts(prof, replace(seg, glass=10), box)


def _see_through_tube() -> tuple[np.ndarray, tuple, _Glass]:
    """A picture lightening down the image, a tube whose glass lets 70 % of it through (tinted
    green), and a glass model far from that tint (as when the rims sampled were liquids)."""
    rows = np.linspace(40.0, 80.0, 200)[:, None]
    lab = np.zeros((200, 200, 3))
    lab[..., 0], lab[..., 1] = rows, 20.0
    box = (80, 20, 30, 160)
    x, y, w, h = box
    lab[y : y + h, x : x + w, 0] = 0.7 * rows[y : y + h] + 10.0
    lab[y : y + h, x : x + w, 1] = -30.0
    far = np.array([90.0, 0.0, 0.0])
    return lab, box, _Glass(lab, far, np.array([60.0, 20, 0]), (box,), np.array([60.0, 20, 0]))


def test_a_run_following_the_picture_beside_it_is_glass_however_far_from_the_glass():
    """An empty tube whose see-through glass follows the picture behind it down the tube is
    empty, though the glass model is far from it (12412 read such a tube full of one colour);
    two near liquids read as one run step where they meet, which the picture's smooth
    change does not explain, even when they step the picture's way."""
    lab, box, glass = _see_through_tube()
    assert _segment_tubes((lab, lab), [(box, False)], glass, 6.0, DEFAULT_PARAMS) == [[]]
    x, y, w, h = box
    seg = _Segment(y, y + h, np.array([56.0, -30, 0]), glass=40)
    assert _tracks(lab, _profile(lab, box), seg, box, 40.0)
    lab[y : y + h, x : x + w, 0] = 50.0
    lab[y + h // 2 : y + h, x : x + w, 0] = 62.0  # two liquids, lighter below as the picture
    assert not _tracks(lab, _profile(lab, box), seg, box, 40.0)
    per_tube = _segment_tubes((lab, lab), [(box, False)], glass, 6.0, DEFAULT_PARAMS)
    assert [s.kind for s in per_tube[0]] == ["liquid", "liquid"]


def _glassy_top() -> _Segment:
    """A top run close to the glass whose top lies off the unit grid (headroom taken in)."""
    top = _seg(0, "liquid", 20)
    top.fit = 0.2
    return top


def test_a_rare_colour_seen_only_at_tube_tops_may_be_glass():
    """A colour seen fewer than capacity times, every unit of it a top run close to the glass,
    is offered as glass; a rare colour seen under other liquid is not."""
    bottom = [_seg(20, "liquid", 80, units=2)]
    tubes = [bottom + [_glassy_top()], bottom + [_glassy_top()], list(bottom)]
    names = [["a", "a", "x"], ["a", "a", "x"], ["a", "a"]]
    rims = [2.0] * 3
    (variant,) = _as_glass(tubes, names, 6, rims)
    assert [len(t) for t in variant] == [1, 1, 1]
    # glass of another colour above the runs (they begin below the rim): liquid, not glass
    assert _as_glass(tubes, names, 6, [-1.0] * 3) == []
    names[2] = ["x", "a"]  # x also under other liquid: a liquid, not glass
    assert _as_glass(tubes, names, 6, rims) == []


def test_a_top_unit_under_visible_glass_is_not_taken_for_glass():
    """Seed 2053: a green unit atop two '?' cells, with the glass's own headroom showing above
    it, had been dropped as glass (its colour near the gradient behind), and the nine '?'
    cells absorbed the loss, silently. The glass begins at the rim, so the unit stays."""
    board = synth_board(2053)
    got = outcome(board.tubes, board.capacity, board.layout, board.image)
    assert got["outcome"] in ("exact", "flagged"), got
    assert len(read_screenshot(board.image).tubes[0]) == 3


def test_a_top_run_ending_on_the_unit_grid_is_no_glass():
    """A top run whose top sits on the unit grid within the capacity is a whole unit: it is
    not offered as glass (seed 2053 lost such units silently, '?' cells hid the shortfall);
    one that ends on the grid above the tubes' capacity may still be glass."""
    bottom = [_seg(20, "liquid", 80, units=2)]
    tubes = [bottom + [_seg(0, "liquid", 20)], bottom + [_seg(0, "liquid", 20)], list(bottom)]
    names = [["a", "a", "x"], ["a", "a", "x"], ["a", "a"]]
    assert _whole_top(tubes[0], 3) and not _whole_top(tubes[0], 2)
    rims = [2.0] * 3
    assert _as_glass(tubes, names, 6, rims, geo=3) == []
    (variant,) = _as_glass(tubes, names, 6, rims, geo=2)
    assert [len(t) for t in variant] == [1, 1, 1]
    tubes[0][-1].fit = 0.2
    assert not _whole_top(tubes[0], 3)


def test_the_run_on_top_of_question_marks_is_a_unit():
    """Seeds 15104, 15181: the unit over a tube's '?' cells, near the glass over a picture,
    was read as glass, leaving a '?' on top. Games show every tube's top unit, so the run
    taken for glass right on the '?' cells is one when it ends on the unit grid, or holds a
    whole unit and more up to the rim; never when it is surely glass or the top is liquid."""
    lab = np.array([50.0, 0.0, 0.0])
    slots = [((0, 0, 20, 100), False)]

    def tube(top: str, run: tuple[int, float]) -> tuple[list, dict]:
        stack = [_Segment(60, 100, lab, top, 2)]
        return [stack], {0: _Segment(run[0], 60, lab, "empty", glass=run[1])}

    per_tube, lows = tube("hidden", (40, 12.0))
    assert _capped_hidden(per_tube, slots, lows, 20.0, 0.0) == [0]
    assert [(s.kind, s.units, s.y0) for s in per_tube[0]][-1] == ("liquid", 1, 40)
    per_tube, lows = tube("hidden", (12, 12.0))  # off the grid, up to the rim: one unit
    assert _capped_hidden(per_tube, slots, lows, 20.0, 0.0) == [0]
    assert (per_tube[0][-1].y0, per_tube[0][-1].units) == (40, 1)
    per_tube, lows = tube("hidden", (40, 5.0))  # surely glass
    assert _capped_hidden(per_tube, slots, lows, 20.0, 0.0) == []
    per_tube, lows = tube("liquid", (40, 12.0))  # a liquid on top: `_add_top`'s to judge
    assert _capped_hidden(per_tube, slots, lows, 20.0, 0.0) == []
    assert len(per_tube[0]) == 1


def test_a_top_run_at_the_rim_of_an_overfull_tube_holds_glass():
    """No liquid fills a tube to its rim: in a stack of more units than the tubes' height
    gives, a top run that starts at the rim with its top off the unit grid is cut down to
    the units left (a liquid with the headroom's glass on it); one on the grid is dropped
    when its colour is seen nowhere else (glass alone), kept when it is a liquid's. A run
    starting below the rim, or a stack within the capacity, is left as read. On a fully
    visible board the run dropped whole is offered too, for the invariant to judge."""
    bottom = [_seg(40, "liquid", 80, units=2)]
    top = _seg(0, "liquid", 20, units=2)
    top.fit = 0.3
    tubes = [bottom + [top], list(bottom), None]
    names = [["a", "a", "b", "b"], ["a", "a"], None]
    rims = [2.0, 2.0, 2.0]
    (cut,) = _rim_glass(tubes, names, 3, rims)
    assert [s.units for s in cut[0]] == [2, 1] and cut[1] is tubes[1] and cut[2] is None
    assert tubes[0][-1].units == 2  # the reading's own segments are left alone
    (dropped,) = _rim_glass(tubes, names, 2, rims)  # no unit left for it: glass alone
    assert [s.units for s in dropped[0]] == [2]
    names[1] = ["a", "b"]  # b is also seen below the rim: a liquid, kept (10244: the
    assert _rim_glass(tubes, names, 2, rims) == []  # capacity 2 was a guess too small)
    seen = [["a", "a", "b", "b"], ["a", "b"], []]  # fully visible: the invariant is exact
    visible = [*tubes[:2], []]
    (whole,) = _rim_glass(visible, seen, 2, rims)  # glass with a liquid's tint, maybe
    assert [s.units for s in whole[0]] == [2] and whole[1] is tubes[1]
    cut, whole = _rim_glass(visible, seen, 3, rims)  # cut down, or dropped whole
    assert [s.units for s in cut[0]] == [2, 1] and [s.units for s in whole[0]] == [2]
    top.fit = 0.9  # on the grid: a whole run, dropped only if it is glass alone ...
    (cut,) = _rim_glass(tubes, names, 3, rims)  # ... else offered cut down to the height
    assert [s.units for s in cut[0]] == [2, 1]
    assert _rim_glass(tubes, names, 3, [-1.0] * 3) == []  # the run starts below the rim
    assert _rim_glass(tubes, names, 4, rims) == []  # the stack fits the tubes
    tubes[1] = bottom + [top]  # every tube overflows at the rim: the boxes are short
    assert _rim_glass(tubes, [["a", "a", "b", "b"]] * 2 + [None], 3, rims) == []


def test_a_rim_run_longer_than_the_overflow_is_no_headroom_alone():
    """Seed 14027: a stack of one unit under three at the rim, one unit over the three the
    boxes' height gives: the headroom's glass alone overflows by one unit, so a run of three
    far from the glass holds a liquid and is not dropped whole (it was, silently, as the
    counts then held with the second row missed); near the glass it may be a tube's empty
    space, and a run of one is the headroom: both are dropped as before."""
    bottom = [_seg(60, "liquid", 80, units=1)]
    top = _seg(0, "liquid", 60, units=3)
    top.fit = 0.9
    tubes = [bottom + [top], list(bottom), None]
    names = [["a", "b", "b", "b"], ["a"], None]
    variants = _rim_glass(tubes, names, 3, [2.0] * 3)  # cut down to the height, maybe
    assert all(len(v[0]) == 2 for v in variants)
    top.glass = 13.0  # near the glass: a tube's empty space tinted like a liquid (1507)
    assert any(len(v[0]) == 1 for v in _rim_glass(tubes, names, 3, [2.0] * 3))
    top.units, top.glass = 1, 80.0
    (dropped,) = _rim_glass(tubes, [["a", "b"], ["a"], None], 1, [2.0] * 3)
    assert [s.units for s in dropped[0]] == [1]
    board = synth_board(14027)
    assert outcome(board.tubes, board.capacity, board.layout, board.image)["outcome"] == "flagged"


def test_a_rim_run_on_the_grid_is_also_offered_cut_down_on_a_visible_board():
    """A headroom near a unit tall, over a picture of nearly a liquid's colour, merges into
    that liquid's top run and lands on the grid (12622): on a fully visible board the run
    cut down to the units the tubes' height leaves is offered too, after the run dropped
    whole, for the invariant to judge; on a board with covers or '?' (13645) only the run
    cut down keeping a unit is, and `_rim_doubts` leaves a doubt on the whole unit it cut
    (none is dropped whole there: 10244's capacity guessed too small would lose a liquid)."""
    bottom = [_seg(40, "liquid", 80, units=2)]
    top = _seg(0, "liquid", 20, units=2)
    top.fit = 0.9  # on the grid: no glass by its top alone
    seen = [["a", "a", "b", "b"], ["a", "b"], []]
    visible = [bottom + [top], list(bottom), []]
    whole, cut = _rim_glass(visible, seen, 3, [2.0] * 3)
    assert [s.units for s in whole[0]] == [2] and [s.units for s in cut[0]] == [2, 1]
    assert cut[1] is visible[1] and visible[0][-1].units == 2  # the reading's own runs stay
    tubes = [bottom + [top], list(bottom), None]
    names = [["a", "a", "b", "b"], ["a", "b"], None]
    (cut,) = _rim_glass(tubes, names, 3, [2.0] * 3)
    assert [s.units for s in cut[0]] == [2, 1] and cut[2] is None
    assert _rim_doubts(tubes, cut, names) == [
        ("tube 0: the run at its rim was read as the headroom's glass: check it", [0])
    ]
    top.fit = 0.3  # off the grid: only the glass above the grid went, no doubt
    assert _rim_doubts(tubes, _rim_glass(tubes, names, 3, [2.0] * 3)[0], names) == []
    assert _rim_doubts(visible, cut, seen) == []  # fully visible: the invariant judged it
    top.fit = 0.9
    assert _rim_glass(tubes, names, 2, [2.0] * 3) == []  # no unit left: not dropped whole


def test_a_top_run_starting_just_under_the_box_top_is_at_the_rim():
    """An overfull stack's top run whose first rows read apart (13387: it starts 0.2 units
    under its box's top) still holds the headroom's glass: `_choose` takes the rim from
    `rimmed` (the box top plus `RIM_REACH` units), not from where glass may begin (`rims`,
    `RIM_UNITS`), and cuts the run down to the units the tubes' height leaves."""

    def seg(y0: int, y1: int, lab: tuple, units: int = 1, fit: float = 1.0) -> _Segment:
        return _Segment(y0, y1, np.array(lab, float), "liquid", units=units, fit=fit)

    red, green, blue = (50.0, 60.0, 40.0), (60.0, -50.0, 40.0), (40.0, 20.0, -60.0)
    top, unit = 100, 20.0
    per_tube = [
        [seg(160, 180, red), seg(140, 160, green), seg(104, 140, blue, 2, fit=0.3)],
        [seg(160, 180, blue), seg(140, 160, blue), seg(120, 140, red)],
        [seg(160, 180, green), seg(140, 160, green), seg(120, 140, red)],
        [],
    ]
    rims = [top + RIM_UNITS * unit] * 4  # 103: the run starts lower
    tubes, _, capacity, *_ = _choose(per_tube, 3, [], DEFAULT_PARAMS, rims)
    assert capacity == 4 and len(tubes[0]) == 4  # no rim: the stack is left overfull
    rimmed = [top + RIM_REACH * unit] * 4
    tubes, _, capacity, *_ = _choose(per_tube, 3, [], DEFAULT_PARAMS, rims, rimmed)
    assert capacity == 3 and [len(t) for t in tubes] == [3, 3, 3, 0]
    rimmed = [-np.inf] * 4  # glass shows above every box: their tops are no rims
    assert _choose(per_tube, 3, [], DEFAULT_PARAMS, rims, rimmed)[2] == 4


def test_glass_above_a_box_shows_its_top_is_no_rim():
    """Tinted glass going on above a box (its faint top cut off) is seen; a box whose top is
    the tube's top, or a picture that changes across the tube, is not taken for glass."""
    lab = np.zeros((100, 60, 3))
    lab[..., 0] = 50.0
    lab[20:90, 20:40] = [56.0, 4.0, 0.0]  # a tube of tinted glass from row 20 down
    assert _glass_above(lab, (20, 40, 20, 50), room=20)
    assert not _glass_above(lab, (20, 20, 20, 70), room=20)
    lab[:, 30:, 0] = 60.0  # the background changes across the tube: no evidence of glass
    lab[20:90, 20:40] = [50.0, 0.0, 0.0]
    assert not _glass_above(lab, (20, 40, 20, 50), room=20)


def test_a_row_cut_under_its_faint_glass_is_raised_to_the_glass_top():
    """Box tops under tinted glass go up to where the row's glass ends (the median of its
    tubes: one tube's top a little higher does not move the row); a box at its rim stays, so
    does one under less than a quarter unit of glass, a row where one tube's glass goes on
    far higher (the others' lost against the picture short of the top), and a row whose
    tubes disagree (a cover reaching above its tube, a photo behind them)."""
    lab = np.zeros((120, 160, 3))
    lab[..., 0] = 50.0
    for x in (20, 60, 100):
        lab[20:110, x : x + 20] = [56.0, 4.0, 0.0]  # tubes of tinted glass from row 20 down
    lab[17:20, 100:120] = [56.0, 4.0, 0.0]  # the third reaches a little higher (a glint)
    assert _glass_top(lab, (20, 50, 20, 60), room=20) == 20
    assert _glass_top(lab, (20, 20, 20, 90), room=20) == 20  # its rim: no glass above
    row = [((x, 50, 20, 60), False) for x in (20, 60, 100)]
    raised = [b for b, _ in _glass_tops(lab, row, [3], 20.0)]
    assert raised == [(x, 20, 20, 90) for x in (20, 60, 100)]
    kept = [((x, 20, 20, 90), False) for x in (20, 60, 100)]
    assert _glass_tops(lab, kept, [3], 20.0) == kept
    assert _glass_tops(lab, row, [3], 200.0) == row  # under a quarter unit: no raise
    lab[5:17, 100:120] = [56.0, 4.0, 0.0]  # its glass goes on 15 rows higher
    assert _glass_tops(lab, row, [3], 20.0) == row
    lab[20:35, 60:80] = [50.0, 0.0, 0.0]  # the second's glass ends at row 35
    lab[20:45, 20:40] = [50.0, 0.0, 0.0]  # the first's at row 45: rises 5, 15 and 45
    assert _glass_tops(lab, row, [3], 20.0) == row


def test_a_lone_row_cut_at_a_liquid_top_rises_to_that_tube_s_glass_top():
    """A board's one row whose boxes start at a tube's liquid top (games leave a headroom:
    the box cut it) rises to where that tube's glass ends above it, though the other tubes'
    glass shows no top; not when no tube's liquid starts at its box's top, when the glass
    top is farther than `CUT_REACH` units (the picture), or on a board of several rows."""
    lab = np.zeros((120, 160, 3))
    lab[..., 0] = 50.0
    lab[35:50, 60:80] = [56.0, 4.0, 0.0]  # the middle tube's tinted glass over its liquid
    row = [((x, 50, 20, 60), False) for x in (20, 60, 100)]
    stacks = [
        [_Segment(90, 110, np.array([40.0, 50, 20]), "liquid")],
        [_Segment(50, 110, np.array([60.0, -40, 30]), "liquid")],  # liquid from the box's top
        [_Segment(70, 110, np.array([40.0, 50, 20]), "liquid")],
    ]
    raised = [b for b, _ in _glass_tops(lab, row, [3], 20.0, stacks)]
    assert raised == [(x, 35, 20, 75) for x in (20, 60, 100)]
    assert _glass_tops(lab, row, [3], 20.0) == row  # no stacks given: no cut seen
    assert _glass_tops(lab, row, [3], 20.0, [stacks[0], stacks[2], stacks[0]]) == row
    assert _glass_tops(lab, row, [3], 8.0, stacks) == row  # 15 rows: past 1.5 units of 8
    two = row + [((x, 50, 20, 60), False) for x in (20, 60, 100)]  # rows side by side here
    assert _glass_tops(lab, two, [3, 3], 20.0, stacks + stacks) == two


def test_a_row_shorter_than_the_others_grows_where_its_tubes_go_on():
    """Every tube of a board is drawn alike: a row's boxes a unit shorter than the tallest
    row's grow to its height at the end where their tubes' glass goes on (tinted against the
    background beside them), and stay when neither end shows it."""
    lab = np.zeros((300, 200, 3))
    lab[..., 0] = 50.0
    for x in (40, 120):
        lab[20:120, x : x + 30, 0] = lab[150:250, x : x + 30, 0] = 70.0  # two rows of tubes
    tall = [((x, 20, 30, 100), False) for x in (40, 120)]
    cut_top = [((x, 190, 30, 60), False) for x in (40, 120)]
    got = _short_rows(lab, tall + cut_top, [2, 2], 20.0)
    assert got == tall + [((x, 150, 30, 100), False) for x in (40, 120)]
    liquid = [[], []]  # the tall row covered (11015): covers reach past their tubes
    assert _short_rows(lab, tall + cut_top, [2, 2], 20.0, [None, None, *liquid]) == tall + cut_top
    cut_bottom = [((x, 150, 30, 60), False) for x in (40, 120)]
    assert _short_rows(lab, tall + cut_bottom, [2, 2], 20.0) == tall + [
        ((x, 150, 30, 100), False) for x in (40, 120)
    ]
    lab[150:250, :, 0] = 50.0  # no glass beside the short boxes: nothing to grow into
    assert _short_rows(lab, tall + cut_top, [2, 2], 20.0) == tall + cut_top


def test_a_short_row_whose_liquid_rests_on_its_box_floors_grows_at_the_top():
    """A row's boxes `SHORT_ROW` units or more shorter than the tallest row's, neither end
    showing glass (faint glass over a photo), grow at the top when every liquid of the row
    reaches its box's bottom (liquid sinks to the floor); not when one ends above it, nor
    when the row is less short."""
    lab = np.zeros((300, 200, 3))
    lab[..., 0] = 50.0
    tall = [((x, 20, 30, 100), False) for x in (40, 120)]
    cut = [((x, 166, 30, 84), False) for x in (40, 120)]  # 16 rows: 0.8 units short
    floor = [[_Segment(230, 250, np.zeros(3), units=1)], []]
    got = _short_rows(lab, tall + cut, [2, 2], 20.0, [[], [], *floor])
    assert got == tall + [((x, 150, 30, 100), False) for x in (40, 120)]
    afloat = [[_Segment(200, 220, np.zeros(3), units=1)], []]
    assert _short_rows(lab, tall + cut, [2, 2], 20.0, [[], [], *afloat]) == tall + cut
    near = [((x, 162, 30, 88), False) for x in (40, 120)]  # 12 rows: 0.6 units
    assert _short_rows(lab, tall + near, [2, 2], 20.0, [[], [], *floor]) == tall + near


def test_a_short_row_whose_liquid_starts_at_its_box_top_grows_at_the_top():
    """A row's boxes 0.4 units shorter than the tallest row's (under `SHORT_ROW`), one of its
    tubes' liquid starting at its box's very top: games leave a headroom over the liquid, so
    the box cut the tube (15780: a colour topping full tubes then read as rim glass), and the
    row grows at the top; a liquid starting lower, under a headroom, leaves the row as it is,
    and so does a row less short than `CUT_ROW`."""
    lab = np.zeros((300, 200, 3))
    lab[..., 0] = 50.0
    tall = [((x, 20, 30, 100), False) for x in (40, 120)]
    cut = [((x, 158, 30, 92), False) for x in (40, 120)]  # 8 rows: 0.4 units short
    top = [[_Segment(230, 250, np.zeros(3), units=1), _Segment(158, 230, np.ones(3))], []]
    got = _short_rows(lab, tall + cut, [2, 2], 20.0, [[], [], *top])
    assert got == tall + [((x, 150, 30, 100), False) for x in (40, 120)]
    low = [[_Segment(230, 250, np.zeros(3), units=1), _Segment(170, 230, np.ones(3))], []]
    assert _short_rows(lab, tall + cut, [2, 2], 20.0, [[], [], *low]) == tall + cut
    near = [((x, 155, 30, 95), False) for x in (40, 120)]  # 5 rows: 0.25 units
    top[0][-1] = _Segment(155, 230, np.ones(3))
    assert _short_rows(lab, tall + near, [2, 2], 20.0, [[], [], *top]) == tall + near
    high = [((x, 4, 30, 92), False) for x in (40, 120)]  # at the picture's top: no room
    top[0][-1] = _Segment(4, 76, np.ones(3))
    top[0][0] = _Segment(76, 96, np.zeros(3), units=1)
    tall_low = [((x, 150, 30, 100), False) for x in (40, 120)]
    got = _short_rows(lab, high + tall_low, [2, 2], 20.0, [*top, [], []])
    assert all(b[1] >= 0 for b, _ in got)  # 15801: boxes grown to y -77 crashed a later step


def test_a_row_reaching_below_its_liquid_ends_where_the_liquid_ends():
    """A row's boxes end at its lowest liquid when that is half a unit and more than an
    outline above them; a row where one tube's liquid reaches the box bottom is kept."""
    low = [_Segment(60, 80, np.zeros(3), "liquid")]  # its last row is 80
    full = [_Segment(80, 99, np.zeros(3), "liquid")]
    deep = [_Segment(150, 179, np.zeros(3), "liquid")]
    slots = [((0, 20, 20, 80), False), ((40, 20, 20, 80), False), ((0, 120, 20, 60), False)]
    got = _liquid_floors(slots, [low, [], deep], [2, 1], unit=20.0)
    assert [b for b, _ in got] == [(0, 20, 20, 61), (40, 20, 20, 61), (0, 120, 20, 60)]
    assert _liquid_floors(slots, [low, full, deep], [2, 1], unit=20.0) == slots
    assert _liquid_floors(slots, [low, [], deep], [2, 1], unit=40.0) == slots  # half a unit


def test_a_slot_the_spacing_added_ends_where_its_rows_liquid_ends():
    """Slots read apart (the row's spacing added them) end at the row's lowest liquid, theirs
    or a tube's read with the board, when that is half a unit and more than an outline above
    their box; a slot in a row whose liquid reaches its box bottom keeps its box."""
    low = [_Segment(60, 80, np.zeros(3), "liquid")]  # its last row is 80
    deep = [_Segment(150, 179, np.zeros(3), "liquid")]
    slots = [((0, 20, 20, 80), True), ((40, 20, 20, 80), True), ((0, 120, 20, 60), True)]
    got = _missed_floors(slots, [[], [], []], [2, 1], {0: low, 1: [], 2: deep}, unit=20.0)
    assert got == {0: (0, 20, 20, 61), 1: (40, 20, 20, 61), 2: (0, 120, 20, 60)}
    seen = [[], low, []]  # the row's floor from a tube read with the board
    got = _missed_floors(slots, seen, [2, 1], {0: [], 2: deep}, unit=20.0)
    assert got == {0: (0, 20, 20, 61), 2: (0, 120, 20, 60)}
    got = _missed_floors(slots, [[], [], []], [2, 1], {0: low, 2: deep}, unit=40.0)
    assert got == {0: (0, 20, 20, 80), 2: (0, 120, 20, 60)}  # under half a unit: kept


def test_a_rim_run_read_as_glass_is_doubtful_when_the_invariant_is_weak():
    """A run dropped as glass at the rim is named for checking when '?' units or covered
    tubes could hold whatever it was; on a fully visible board the invariant confirms it,
    and a run cut down keeps its colour."""
    before = [[_seg(0, "liquid", 20)], [_seg(0, "liquid", 20)], None]
    after = [before[0], [], None]
    assert _rim_doubts(before, after, [["a"], [], ["b"]]) == []
    ((text, tubes),) = _rim_doubts(before, after, [["?"], [], ["b"]])
    assert tubes == [1] and "glass" in text
    assert _rim_doubts(before, after, [["a"], [], None])[0][1] == [1]
    cut = [before[0], [_seg(0, "liquid", 20)], None]
    assert _rim_doubts(before, cut, [["?"], ["a"], None]) == []


def test_glass_like_runs_under_tall_liquid_are_liquid():
    """Liquid never floats: a run taken for glass under a tall liquid run is liquid, the
    outline across the bottom and a run exactly the glass's colour excepted."""
    box = (0, 0, 10, 100)
    segs = [_seg(0, "empty", 1), _seg(12, "liquid", 60), _seg(22, "empty", 9), _seg(32, "empty", 2)]
    assert _tall_liquid(segs[1], box) and not _tall_liquid(segs[0], box)
    _under_liquid(segs, box)
    assert [s.kind for s in segs] == ["empty", "liquid", "liquid", "empty"]
    short = [_seg(0, "empty", 1), _Segment(12, 17, np.zeros(3), "liquid", glass=60)]
    short.append(_seg(17, "empty", 9))
    _under_liquid(short, box)
    assert short[2].kind == "empty"  # under a sliver (a glint), not under liquid


def test_glass_under_liquid_at_the_bottom_is_skipped():
    """A glass-coloured run under liquid at a tube's bottom ends no stack (liquid never
    floats); a tube of glass alone stays empty."""
    box = (0, 0, 10, 100)
    segs = [_seg(0, "empty", 1), _seg(30, "liquid", 60), _seg(60, "empty", 2)]
    segs[1].y1, segs[2].y1 = 60, 85  # a tall liquid on glass
    assert [s.y0 for s in _stack(segs, box)] == [30]
    assert _stack([_seg(0, "empty", 1), _seg(50, "empty", 2)], box) == []


def test_glass_under_a_run_of_hidden_cells_at_the_bottom_is_skipped():
    """'?' cells are units of liquid too: a glass-coloured run under a tall run of them at a
    tube's bottom (a box reaching under its tube) ends no stack (13574: read as empty)."""
    box = (0, 0, 10, 100)
    segs = [_seg(0, "liquid", 30), _seg(20, "hidden", 60), _seg(60, "empty", 1)]
    segs[1].y1, segs[2].y1 = 60, 80
    assert [s.kind for s in _stack(segs, box)] == ["hidden", "liquid"]


def test_a_bottom_piece_flatter_than_any_unit_is_the_bottom_edge():
    """A run at a tube's very bottom flatter than `MIN_UNIT_WIDTH` tube widths (a round
    bottom's curve mixing its liquid with the outline or the picture) is no unit: the stack
    starts above it. A run as tall as the flattest unit is a unit."""
    box = (0, 0, 50, 200)  # the flattest unit is 15 rows
    liquid = _Segment(100, 186, np.array([40.0, -40.0, 30.0]), "liquid", glass=40)
    curve = _Segment(186, 200, np.array([40.0, -25.0, 15.0]), "liquid", glass=45)
    assert [s.y0 for s in _stack([_seg(0, "empty", 1), liquid, curve], box)] == [100]
    liquid.y1, unit = 185, _Segment(185, 200, np.array([40.0, -25.0, 15.0]), "liquid", glass=45)
    assert [s.y0 for s in _stack([_seg(0, "empty", 1), liquid, unit], box)] == [185, 100]


def _headroom_tube(seam: int) -> list[_Segment]:
    """A tube (box (x, 0, 10, 100)) from the top: glass to row `seam`, a run of another
    colour further from the glass down to row 40, liquid below."""
    up = _Segment(0, seam, np.array([50.0, 0.0, 0.0]), "empty", glass=1.0)
    run = _Segment(seam, 40, np.array([62.0, 0.0, 0.0]), "empty", glass=12.0)
    return [up, run, _Segment(40, 100, np.array([50.0, 60.0, 0.0]), "liquid", glass=60.0)]


def test_a_step_inside_the_glass_is_a_top_unit_unless_other_tubes_show_it():
    """The glass is one colour from the rim down to the liquid: a run of another colour right
    on the liquid, under the headroom's glass, may be a liquid's top unit. When another tube
    of the row shows a step between two runs of glass at that height, the glass is drawn so
    (a neck band): no unit."""
    flat = np.zeros((100, 40, 3))
    flat[:, :, 0] = 50.0
    raw = [(0, (0, 0, 10, 100), _headroom_tube(15)), (1, (20, 0, 10, 100), _headroom_tube(15))]
    raw[1][2][1].glass = 5.0  # surely glass: the other tube's step is a glass seam
    assert _glass_seams(raw)[1] == ((20, 0, 10, 100), [15])
    glass = _Glass(flat, np.zeros(3), np.zeros(3), (), np.zeros(3))
    assert _under_headroom(raw, flat, glass, 9.0, 3.0, _glass_seams(raw)) == {}
    raw[1] = (1, (20, 0, 10, 100), _headroom_tube(25))  # its step elsewhere: a top unit
    raw[1][2][1].glass = 5.0
    found = _under_headroom(raw, flat, glass, 9.0, 3.0, _glass_seams(raw))
    assert list(found) == [0] and found[0].y0 == 15
    raw[0][2][0].glass = 20.0  # the run above is no nearer the glass: no headroom over it
    assert _under_headroom(raw, flat, glass, 9.0, 3.0, _glass_seams(raw)) == {}


def _picture_tube(side_step: float) -> tuple:
    """(flat image, box, tube's runs from the top): clear glass over a brown picture to row
    30, a liquid 6 ΔE off the picture from row 30 to 70, another liquid below; the picture
    beside the tube steps by `side_step` (ΔE) at row 30."""
    brown = np.array([51.0, -5.0, 23.0])
    flat = np.tile(brown, (100, 60, 1))
    flat[30:, :, 2] += side_step
    box = (20, 0, 20, 100)
    liquid = brown + [2.0, 6.0, 0.0]
    flat[30:70, 26:34] = liquid  # down the tube's centre only: the profile's 40 %
    flat[70:, 26:34] = [58.0, 81.0, -49.0]
    up = _Segment(0, 30, brown.copy(), "empty", glass=0.5)
    run = _Segment(30, 70, liquid, "empty", glass=6.3)
    low = _Segment(70, 100, np.array([58.0, 81.0, -49.0]), "liquid", glass=90.0)
    return flat, box, [up, run, low]


def test_a_step_the_picture_beside_does_not_make_is_a_liquids_surface():
    """A run nearer the clear glass than `SURE_GLASS` under the headroom is a liquid's top
    when the colour steps into it down the tube while the picture beside does not (13990: a
    brown liquid 6.9 from the photo behind, two units read as glass, silently); when the
    picture steps there too, the step is the picture's, seen through the glass."""
    flat, box, segs = _picture_tube(0.0)
    glass = _Glass(flat, flat[0, 0], flat[0, 0], (box,), flat[0, 0], (1.0, np.zeros(3)))
    found = _under_headroom([(0, box, segs)], flat, glass, 9.0, 3.0, [])
    assert list(found) == [0] and found[0].y0 == 30
    flat, box, segs = _picture_tube(6.3)
    glass = _Glass(flat, flat[0, 0], flat[0, 0], (box,), flat[0, 0], (1.0, np.zeros(3)))
    assert _under_headroom([(0, box, segs)], flat, glass, 9.0, 3.0, []) == {}


def test_a_headroom_merged_into_a_shaded_liquid_does_not_drift():
    """A headroom merged into the unit under it makes the run's top third differ by 29 ΔE;
    the liquid below is shaded by 2.2 (JPEG), over the 2 a flat colour allows: a step many
    times the shading is the headroom's edge, not glass drifting (13938). Glass drifting
    steadily down a picture still drifts."""
    prof = np.zeros((90, 3))
    prof[:22] = [52.0, 6.0, 11.0]
    prof[22:60] = [75.0, 0.0, -4.0]
    prof[60:] = [75.0, 1.0, -2.0]
    box = (0, 0, 10, 200)
    run = _Segment(0, 90, np.array([75.0, 0.0, -3.0]))
    assert not _varies(prof, run, box)
    prof[:, 0] = np.linspace(50.0, 70.0, 90)
    assert _varies(prof, run, box)


def test_a_top_run_of_the_glass_colour_that_drifts_is_looked_at_for_a_step():
    """The headroom's glass (rows 0-62) runs through a blurred edge (62-90, no step of a jump
    within the profile's lag) into a light olive unit ΔE 24 from it (90-110) on a liquid: one
    run whose median is the glass's very colour. It drifts, so it is cut at its step and the
    olive below is a run that may be the top unit."""
    g, olive, liquid = (
        np.array(c, dtype=float) for c in ([80, -40, 69], [77, -20, 56], [40, 29, -39])
    )
    flat = np.tile(g, (140, 10, 1))
    ramp = np.linspace(0, 1, 28)[:, None]
    flat[62:90] = (g + ramp * (olive - g))[:, None, :]
    flat[90:110], flat[110:] = olive, liquid
    box = (0, 0, 10, 140)
    run = _Segment(0, 110, g.copy(), "empty", glass=0.0)
    raw = [(0, box, [run, _Segment(110, 140, liquid, "liquid", glass=90.0)])]
    glass = _Glass(flat, g, g, (), g)
    found = _under_headroom(raw, flat, glass, 9.0, 3.0, [])
    assert list(found) == [0] and 80 <= found[0].y0 <= 95 and found[0].y1 == 110


def test_a_glass_run_is_cut_at_a_step_of_half_a_jump():
    """Clear glass over a brown background, and under it a grey unit ΔE 11 from the glass
    (less than the profile's jump of 9 row to row, at the rim's 8.8): cut at half a jump,
    the glass above stays near the glass and the grey below does not."""
    bg = np.array([41.0, 8.0, 4.0])
    lab = np.tile(bg, (100, 60, 1))
    box = (20, 0, 20, 100)
    lab[10:40, 20:40] = [44.6, 2.1, -4.3]
    lab[40:, 20:40] = [50.0, 60.0, 0.0]
    glass = _Glass(lab, bg, bg, (box,), bg, (1.0, np.zeros(3)))
    assert glass.clear
    prof = _profile(lab, box)
    run = _Segment(0, 40, np.array([44.6, 2.1, -4.3]), "empty")
    up, low = _split_glass(run, prof, box, glass, 9.0, 3.0)
    assert (up.y0, up.y1, low.y0, low.y1) == (0, 10, 10, 40)
    assert up.glass < 1 and low.glass > 10 and up.kind == low.kind == "empty"
    flat = _Segment(40, 100, np.array([50.0, 60.0, 0.0]), "empty")
    assert _split_glass(flat, prof, box, glass, 9.0, 3.0) == [flat]


def test_a_run_taken_for_glass_is_read_again_in_a_colour_seen_under_liquid_in_a_slot_read_alone():
    """A slot the row's spacing added is read alone after the board: a liquid under liquid
    there is a sure colour too, so a board tube whose run of that colour was taken for glass
    is read again; a run of another colour, or one in a slot read alone itself, is not."""
    mauve, red, brown = (np.array(c, dtype=float) for c in ([51, 15, 1], [50, 70, 50], [60, 5, 30]))
    missed = [_Segment(60, 100, mauve + 1, units=1), _Segment(20, 60, red, units=1)]
    slots = [((0, 0, 10, 100), False), ((20, 0, 10, 100), False), ((40, 0, 10, 100), True)]
    marks = {"sure": np.zeros((0, 3)), "glassy": {0: [brown, mauve], 1: [brown]}}
    assert _reclaimable(slots, [[], [], missed], marks) == [0]
    assert len(marks["sure"]) == 1 and np.allclose(marks["sure"][0], mauve + 1)
    marks = {"sure": np.zeros((0, 3)), "glassy": {0: [brown, mauve]}}
    assert _reclaimable(slots, [[], [], missed[:1]], marks) == []  # nothing above the mauve
    marks = {"sure": np.zeros((0, 3)), "glassy": {0: [brown, mauve], 2: [mauve]}}
    slots[0] = (slots[0][0], True)  # a slot read alone is not read again
    assert _reclaimable(slots, [[], [], missed], marks) == []


def test_a_slot_read_alone_is_read_again_for_a_colour_seen_under_liquid_in_another():
    """Two slots read alone: a liquid under liquid in one is a sure colour, so the other,
    whose top run of that colour was taken for glass, is read again; a slot left covered (a
    cover's icon: None) is not."""
    blue, purple = np.array([64.0, -4.0, -30.0]), np.array([36.0, 33.0, -44.0])
    below = [_Segment(60, 100, np.zeros(3), "hidden", units=1)]
    below += [_Segment(40, 60, blue + 1, units=1), _Segment(20, 40, purple, units=1)]
    slots = [((0, 0, 10, 100), True), ((20, 0, 10, 100), True)]
    marks = {"sure": np.zeros((0, 3)), "glassy": {}, "glassy_alone": {(0, 0, 10, 100): [blue]}}
    assert _reclaimable(slots, [[], below], marks) == [0]
    marks = {"sure": np.zeros((0, 3)), "glassy": {}, "glassy_alone": {(0, 0, 10, 100): [blue]}}
    assert _reclaimable(slots, [None, below], marks) == []  # left covered


def test_a_slot_read_alone_cut_at_its_top_slides_up_to_its_rows_floor():
    """A slot read alone whose box reaches below its row's liquid floor, while its own
    liquid starts at the box's very top (games leave a headroom, so the box cut the tube),
    slid down: it moves up to end at the floor, keeping its height, rather than being cut."""
    low = [_Segment(60, 80, np.zeros(3), "liquid")]  # the row's floor: its last row is 80
    cut = [_Segment(50, 80, np.zeros(3), "liquid"), _Segment(30, 50, np.ones(3), "liquid")]
    slots = [((0, 20, 20, 80), False), ((40, 30, 20, 80), True)]
    got = _missed_floors(slots, [low, None], [2], {1: cut}, unit=20.0)
    assert got == {1: (40, 1, 20, 80)}  # slid up, not cut to (40, 30, 20, 51)
    cut[-1] = _Segment(34, 50, np.ones(3), "liquid")  # a headroom over it: the box holds it
    assert _missed_floors(slots, [low, None], [2], {1: cut}, unit=20.0) == {1: (40, 30, 20, 51)}
    cut[-1] = _Segment(30, 50, np.ones(3), "liquid")
    tall = [((0, 20, 20, 80), False), ((40, 30, 20, 90), True)]  # sliding up leaves the picture
    assert _missed_floors(tall, [low, None], [2], {1: cut}, unit=20.0) == {1: (40, 30, 20, 51)}


def test_a_top_unit_sits_on_the_stack_and_on_the_unit_grid():
    """A run taken for glass is a top unit when it lies right on the stack, at least 0.6
    units tall, its top a whole unit or more above the stack on the unit grid."""
    box = (0, 0, 10, 125)
    stack = [_Segment(50, 125, np.zeros(3), "liquid", units=3)]
    top = _top_unit(stack, _Segment(25, 50, np.ones(3), "empty"), box, 25.0, 0.0)
    assert top is not None and (top.kind, top.units) == ("liquid", 1)
    assert _top_unit(stack, _Segment(38, 50, np.ones(3), "empty"), box, 25.0, 0.0) is None
    assert _top_unit(stack, _Segment(5, 30, np.ones(3), "empty"), box, 25.0, 0.0) is None
    assert _top_unit(None, _Segment(25, 50, np.ones(3), "empty"), box, 25.0, 0.0) is None


def test_a_top_unit_is_added_over_clear_glass_or_liquid_and_named_over_empty_tinted_glass():
    """Clear glass shows the background, so a step in it is a liquid: the unit goes on the
    stack. Over tinted glass a step one unit above liquid is one more unit too; on an empty
    tube, or two units up, it may be the glass over a picture: the stack stays, it is named."""
    box, run = (0, 0, 10, 125), _Segment(25, 50, np.ones(3), "empty")
    clear = _Glass(
        np.zeros((1, 1, 3)), np.zeros(3), np.zeros(3), (), np.zeros(3), (1.0, np.zeros(3))
    )
    tinted = replace(clear, fit=None)
    stack = [_Segment(50, 125, np.zeros(3), "liquid", units=3)]
    assert not _add_top(stack, run, box, 25.0, 0.0, clear) and len(stack) == 2
    stack = stack[:1]
    assert not _add_top(stack, run, box, 25.0, 0.0, tinted) and len(stack) == 2
    stack = stack[:1]
    assert not _add_top(stack, _Segment(38, 50, np.ones(3), "empty"), box, 25.0, 0.0, tinted)
    tall = _Segment(0, 50, np.ones(3), "empty")  # two units: the glass may step so
    assert _add_top(stack, tall, box, 25.0, 0.0, tinted) and len(stack) == 1
    empty: list = []
    low = _Segment(100, 125, np.ones(3), "empty")
    assert _add_top(empty, low, box, 25.0, 0.0, tinted) and empty == []
    assert not _add_top(empty, low, box, 25.0, 0.0, clear) and len(empty) == 1


def _bottoms(cut: int, low: int, width: int = 100) -> tuple:
    """A flat CIELAB picture (L 50) with two tubes of a row, 20 wide at x 10 and 50, holding
    liquid (L 80 over L 20 from row `cut`) from row 20 down to `low`, and clear glass."""
    flat = np.zeros((140, width, 3))
    flat[..., 0] = 50.0
    for x in (10, 50):
        flat[20:cut, x : x + 20, 0] = 80.0
        flat[cut:low, x : x + 20, 0] = 20.0
    glass = _Glass(flat, flat[0, 0], flat[0, 0], (), flat[0, 0], (1.0, np.zeros(3)))
    return flat, glass


def test_the_slots_the_spacing_added_show_their_colour_boundaries_to_the_unit_fit():
    """A slot the row's spacing added is read alone for the unit fit: its colour boundary
    counts (the stack's top does not), and a board with no such slot adds nothing."""
    flat, glass = _bottoms(60, 100)
    slots = [((10, 20, 20, 80), False), ((50, 20, 20, 80), True)]
    got = _added_bounds((flat, flat), slots, glass, 3.0, DEFAULT_PARAMS, {})
    assert got == [(40.0, 1.0, 0), (80.0, 0.0, 0)]
    assert _added_bounds((flat, flat), slots[:1], glass, 3.0, DEFAULT_PARAMS, {}) == []


def test_boundaries_count_for_the_unit_only_when_one_grid_holds_most_of_them():
    """Boundaries of slots read apart join the unit fit only when three or more are weighed
    and one grid holds three quarters of them (boxes reaching past their tube scatter them)."""

    def bounds(heights: list[float]) -> np.ndarray:
        return np.array([(p, 1.0, 0) for p in heights])

    assert _one_grid(bounds([20, 40, 60, 40]), 100.0)
    assert not _one_grid(bounds([20, 40]), 100.0)  # too few
    assert not _one_grid(bounds([20, 33, 47, 71, 58, 27]), 100.0)  # on no one grid


def test_a_unit_fitted_to_slots_read_apart_alone_leaves_the_capacity_a_guess():
    """Seed 1444: only a slot the row's spacing added shows colour boundaries, and the unit
    they give makes its tubes (a headroom of a whole unit) one unit taller than they are;
    with covered tubes the invariant cannot tell, so the reading must say it guessed."""
    reading = read_screenshot(synth_board(1444).image)
    assert not reading.ok and any("is a guess" in p for p in reading.problems)


def test_a_row_ending_on_liquid_reaches_down_to_where_the_liquid_ends():
    """Liquid rests on the tube's bottom: boxes ending on it grow by how far it goes on below
    them (a row's tubes share a bottom, so each must show it); boxes at the liquid's end, a
    row where one tube's liquid ends at its box, boxes whose liquid goes on past `LOW_UNITS`
    units, and boxes with no liquid at the bottom stay as they are."""
    flat, glass = _bottoms(60, 100)
    segs = [_Segment(20, 80, np.array([20.0, 0, 0]), "liquid")]
    slots = [((10, 20, 20, 60), False), ((50, 20, 20, 60), True)]
    got = _liquid_below(flat, slots, [segs, None], [2], glass, 20.0, 9.0)
    assert [b for b, _ in got] == [(10, 20, 20, 80), (50, 20, 20, 80)]
    assert [d for _, d in got] == [False, True]
    assert _runs_below(flat, (10, 20, 20, 60), segs, glass, 20.0, 9.0, 7.0) == 20
    assert _runs_below(flat, (10, 20, 20, 60), [], glass, 20.0, 9.0, 7.0) is None
    done = [((10, 20, 20, 80), False), ((50, 20, 20, 80), False)]
    assert _liquid_below(flat, done, [segs, segs], [2], glass, 20.0, 9.0) == done
    flat[80:100, 50:70, 0] = 50.0  # the second tube's liquid ends at its box: no bottom lower
    assert _liquid_below(flat, slots, [segs, segs], [2], glass, 20.0, 9.0) == slots
    assert _liquid_below(flat, slots, [segs, None], [2], glass, 10.0, 9.0) == slots  # too far
    prof = _profile(flat, (10, 20, 20, 100))
    assert _unlike_beside(flat, prof, (10, 20, 20, 60), 100, glass) == 20
    assert _unlike_beside(flat, prof, (10, 20, 20, 80), 110, glass) == 0  # the picture
    flat, glass = _bottoms(80, 100)  # another colour under the box's last liquid
    got = _liquid_below(flat, slots[:1], [segs], [1], glass, 20.0, 9.0)
    assert got == [((10, 20, 20, 80), False)]


def test_a_box_grows_below_only_where_the_tubes_walls_go_on():
    """A cyan bottom liquid in a box 40 wide over a blue picture, 30 rows of colour under the
    box: a patch of the picture as wide as the tube's surroundings shows no wall, so the box
    does not grow into it; liquid held between the walls below does. No bottom liquid to
    compare the walls with: left as it is."""
    flat = np.tile(np.array([60.0, -10.0, -30.0]), (200, 120, 1))  # the picture
    box = (40, 20, 40, 100)
    flat[60:120, 40:80] = [70.0, -45.0, 0.0]  # the bottom liquid, walls to the picture
    segs = [_Segment(60, 120, np.array([70.0, -45.0, 0.0]), "liquid")]
    flat[120:150, 20:100] = [65.0, -20.0, -20.0]  # a patch wider than the tube
    assert _walled(flat, box, segs, 30) == 0
    flat[120:150, 40:80] = [70.0, -45.0, 0.0]  # the liquid goes on between the walls
    flat[120:150, 20:40] = flat[120:150, 80:100] = [60.0, -10.0, -30.0]
    assert _walled(flat, box, segs, 30) == 30
    assert _walled(flat, box, [], 30) == 30 and _walled(flat, box, segs, None) is None


def _cells(marked: list[bool], unit: int = 30, width: int = 30, fill: float = 50.0) -> tuple:
    """CIELAB image and its flat copy of one tube of grey cells, bottom first, a block of
    other lightness drawn in the centre of each marked cell; and the tube's box."""
    n = len(marked)
    lab = np.zeros((n * unit, width, 3))
    lab[..., 0] = fill
    flat = lab.copy()
    for k, m in enumerate(marked):
        y1 = (n - k) * unit
        if m:
            mark = 5.0 if fill > 50 else 90.0
            lab[y1 - 2 * unit // 3 : y1 - unit // 3, width // 2 - 3 : width // 2 + 3, 0] = mark
    return (lab, flat), (0, 0, width, n * unit)


def test_unmarked_cells_atop_a_marked_run_are_liquid():
    """A grey liquid on '?' cells of the same grey is one run down the tube: cells with no
    mark at the run's top are liquid; a '?' cell with no mark seen lower down stays hidden."""
    images, box = _cells([False, True, True, False, False])
    run = _Segment(0, 150, np.array([50.0, 0.0, 0.0]), "hidden", units=5, glyphs=2)
    out = _split_marked(images, box, [run], 30.0, 0.0, np.array([50.0, 0.0, 0.0]))
    assert [(s.kind, s.units) for s in out] == [("hidden", 3), ("liquid", 2)]
    assert out[1].y1 == out[0].y0 == 60


def test_a_question_cell_whose_mark_sits_high_keeps_its_kind():
    """A '?' run's top cell whose mark is drawn high in it, the grid's trimmed window showing
    only its foot (seed 15092), stays a '?' cell: the mark shows a quarter of a unit up. With
    no mark at all the cell is a grey liquid resting on the cells."""
    fill = np.array([50.0, 0.0, 0.0])
    expected = {True: [("hidden", 2), ("liquid", 1)], False: [("hidden", 1), ("liquid", 2)]}
    for high, kinds in expected.items():
        images, box = _cells([True, False, False])
        for im in images:
            im[:30, :, 0] = 60.0  # a liquid on top of the two cells
        if high:
            images[0][30:36, 12:18, 0] = 90.0  # the mark, at the cell's top
        run = _Segment(30, 90, fill, "hidden", units=2, glyphs=2)
        top = _Segment(0, 30, np.array([60.0, 0.0, 0.0]), "liquid", units=1)
        out = _split_marked(images, box, [run, top], 30.0, 0.0, fill)
        got = [(s.kind, s.units) for s in out]
        assert got[0] == kinds[0] and sum(u for k, u in got if k == "liquid") == kinds[1][1]


def test_unmarked_top_cells_of_a_question_run_are_liquid_with_no_one_fill():
    """With no one '?' fill on the board (rings round the marks leave several greys), a
    '?' run's top cells that show no mark are still a grey liquid resting on the cells."""
    images, box = _cells([True, False])
    run = _Segment(0, 60, np.array([50.0, 0.0, 0.0]), "hidden", glyphs=1)
    out = _counted(images, box, [run], 30.0, 0.0, {"fill": None, "symbols": False})
    assert [(s.kind, s.units) for s in out] == [("hidden", 1), ("liquid", 1)]
    run = _Segment(0, 60, np.array([50.0, 0.0, 0.0]), "hidden", glyphs=1)
    out = _counted(images, box, [run], 30.0, 0.0, {"fill": None, "symbols": True})
    assert [(s.kind, s.units) for s in out] == [("hidden", 2)]  # symbols: marks on liquids


def test_a_plug_of_a_colour_seen_on_a_tube_not_full_is_no_cork():
    """A one-unit plug over a tube full of one colour is a cork only when its colour is seen
    nowhere else; another tube over the capacity guess, of several colours, shows liquid."""
    green, yellow, grey = (np.array(c) for c in ([80.0, -30, 10], [88.0, -25, 84], [30.0, 0, 0]))
    corked = [_Segment(60, 100, green, units=2), _Segment(40, 60, yellow, units=1)]
    mixed = [_Segment(80, 100, grey, units=1), _Segment(60, 80, green, units=1)]
    mixed.append(_Segment(40, 60, yellow + 2, units=1))
    tubes = [corked, mixed]
    _drop_corks(tubes, 2)
    assert [len(t) for t in tubes] == [2, 3]  # yellow is a liquid: kept
    alone = [list(corked), [_Segment(60, 100, grey, units=2)]]
    _drop_corks(alone, 2)
    assert [len(t) for t in alone] == [1, 1]  # a colour seen nowhere else: a cork


def test_a_marked_cell_in_a_dark_run_is_hidden_only_in_the_fill():
    """A black liquid run over a '?' cell: the marked cell is hidden when its own colour is
    the board's '?' fill, and stays liquid when it is not."""
    images, box = _cells([True, False], fill=20.0)
    for im in images:
        im[:30, :, 0] = 8.0  # the black liquid on top
    run = _Segment(0, 60, np.array([8.0, 0.0, 0.0]), "liquid", units=2)
    out = _split_marked(images, box, [run], 30.0, 0.0, np.array([20.0, 0.0, 0.0]))
    assert [(s.kind, s.units) for s in out] == [("hidden", 1), ("liquid", 1)]
    out = _split_marked(images, box, [run], 30.0, 0.0, np.array([45.0, 0.0, 0.0]))
    assert [(s.kind, s.units) for s in out] == [("liquid", 2)]


def test_marked_cells_of_the_question_grey_at_a_tubes_bottom_are_hidden():
    """A grey liquid run in '?' cells' place (at the bottom, or on '?' runs only) is cut
    cell by cell from the bottom: a cell with a mark on the '?' cells' plain grey is '?'. It
    joins a '?' run over it; cells of another grey, unmarked ones and runs above a liquid
    stay liquid."""
    images, box = _cells([True, True, False, True])
    grey = np.array([50.0, 0.0, 0.0])
    segs = [_Segment(60, 120, grey, "liquid", 2), _Segment(0, 60, grey, "liquid", 2)]
    out = _marked_cells(images, box, segs, 30.0, 0.0, grey)
    assert [(s.kind, s.units) for s in out] == [("hidden", 2), ("liquid", 2)]
    assert out[0].y0 == out[1].y1 == 60
    assert _marked_cells(images, box, segs, 30.0, 0.0, grey + 20)[0].kind == "liquid"
    images, box = _cells([True, True, True, False])
    low = [_Segment(90, 120, grey, "liquid", 1), _Segment(30, 90, grey, "hidden", 2, glyphs=2)]
    out = _marked_cells(images, box, [*low, _Segment(0, 30, grey, "liquid", 1)], 30.0, 0.0, grey)
    got = [(s.kind, s.units, s.y0, s.y1, s.glyphs) for s in out]
    assert got == [("hidden", 3, 30, 120, 3), ("liquid", 1, 0, 30, 0)]
    red = np.array([50.0, 40.0, 20.0])
    above = [_Segment(90, 120, red, "liquid", 1), _Segment(30, 90, grey, "liquid", 2)]
    assert _marked_cells(images, box, above, 30.0, 0.0, grey) == above


def test_a_bottom_cell_may_be_shaded_off_the_question_grey_a_little():
    """A round bottom shades its cell: the bottom cell may be up to `BOTTOM_SHADE` times
    `SAME_FILL` off the '?' cells' grey, a cell higher up only `SAME_FILL`; a grey farther
    off is a liquid (an outline's stroke marks a grey liquid's bottom cell too)."""
    grey = np.array([50.0, 0.0, 0.0])
    for shade, cell, hidden in [(15.0, 0, 2), (15.0, 1, 1), (20.0, 0, 0)]:
        images, box = _cells([True, True, False])  # rows 60-90 are the bottom cell
        for im in images:
            im[60 - 30 * cell : 90 - 30 * cell, :, 0] -= shade  # the mark stays 90
        segs = [_Segment(0, 90, grey, "liquid", 3)]
        if cell:  # a '?' run at the bottom, the shaded cell on it
            segs = [
                _Segment(60, 90, grey, "hidden", 1, glyphs=1),
                _Segment(0, 60, grey, "liquid", 2),
            ]
        out = _marked_cells(images, box, segs, 30.0, 0.0, grey)
        assert sum(s.units for s in out if s.kind == "hidden") == hidden, (shade, cell)


def test_a_bottom_cell_of_one_liquid_run_is_no_shaded_question_cell():
    """A bottom cell let in only by the round bottom's shading (`BOTTOM_SHADE`) is a liquid
    when the cell above it in its run is a nearer match to it than the '?' grey (a black
    run whose round bottom's outline marks its bottom cell, seed 14046), or when its upper
    half is far from the grey (a white liquid cut low down by a thick outline, seed 14492)."""
    grey = np.array([32.0, 0.0, 0.0])
    images, box = _cells([True, False, False], fill=18.0)  # a black run, 14 ΔE off the grey
    for im in images:
        im[:30, :, 0] = 60.0  # a liquid of another colour on top
    segs = [_Segment(30, 90, np.array([18.0, 0.0, 0.0]), "liquid", 2)]
    assert [(s.kind, s.units) for s in _marked_cells(images, box, segs, 30.0, 0.0, grey)] == [
        ("liquid", 2)
    ]
    images, box = _cells([False, False, False], fill=92.0)  # a white liquid
    for im in images:
        im[72:90, :, 0] = 45.0  # the outline's grey across the bottom cell's lower part
    images[0][74:84, 12:18, 0] = 90.0  # and the white between its strokes, a 'mark'
    segs = [_Segment(30, 90, np.array([92.0, 0.0, 0.0]), "liquid", 2)]
    got = _marked_cells(images, box, segs, 30.0, 0.0, grey)
    assert [(s.kind, s.units) for s in got] == [("liquid", 2)]


def test_the_question_cells_plain_grey_is_found_between_a_rings_strokes():
    """Rings round the marks leave no one grey down the tubes' middle (the runs' profile
    greys alternate), but the fill between the strokes is one grey."""
    images, box = _cells([True, True, True])
    light, dark = np.array([75.0, 0.0, 0.0]), np.array([50.0, 0.0, 0.0])
    runs = [_Segment(60, 90, light, "hidden"), _Segment(30, 60, dark, "hidden")]
    runs.append(_Segment(0, 30, light, "hidden"))
    assert _hidden_fill(runs) is None
    assert np.allclose(_plain_fill(images, [(box, r) for r in runs]), dark)
    red = [_Segment(0, 90, np.array([50.0, 40.0, 20.0]), "hidden")]
    assert _plain_fill(images, [(box, r) for r in red]) is None  # symbols on colours


def _faint_cells_tube(marked: list[bool], fill: float = 50.0, light: float = 28.0) -> tuple:
    """A tube of grey cells (see `_cells`) whose marks are `light` (a faint ΔL of 22 on a
    fill of 50: a thin stroke blurred by scaling a small picture up)."""
    (lab, flat), box = _cells(marked, fill=fill)
    lab[..., 0] = np.where(lab[..., 0] != fill, light, fill)
    return (lab, flat), box


def test_faint_marks_on_bottom_cells_of_one_grey_are_a_question_variant():
    """Bottom cells with a faint mark, all one grey, are offered as '?' cells (a variant the
    invariant decides); cells above a liquid are not, nor cells of a coloured fill."""
    images, box = _faint_cells_tube([True, True, False, True])
    grey = np.array([50.0, 0.0, 0.0])
    segs = [  # bottom first: two marked cells, an unmarked one, a marked one on top
        _Segment(60, 120, grey, "liquid", units=2),
        _Segment(30, 60, grey, "liquid", units=1),
        _Segment(0, 30, grey, "liquid", units=1),
    ]
    (variant,) = _faint_cells(images, [(box, False)], [segs], 30.0, 0.0, None)
    assert [(s.kind, s.units) for s in variant[0]] == [("hidden", 2), ("liquid", 1), ("liquid", 1)]
    lab, flat = images
    lab[..., 1] = flat[..., 1] = 40.0  # a red fill: no '?' cell
    assert _faint_cells((lab, flat), [(box, False)], [segs], 30.0, 0.0, None) == []


def test_a_mark_is_centred_and_not_a_narrow_streak():
    """A glyph in the middle counts; the same pixels at the window's side (a round bottom's
    outline) do not; a narrow streak down the whole run is a glint, a wide one a glyph; one
    down most of it is a '?' stem in the middle, a glint off it."""
    mark = np.zeros((20, 20), bool)
    mark[5:12, 8:12] = True
    assert _mark_like(mark, whole_height=False)
    assert not _mark_like(np.roll(mark, -7, axis=1), whole_height=False)
    streak = np.zeros((20, 20), bool)
    streak[:, 9:11] = True
    assert not _mark_like(streak, whole_height=False)
    glint = np.zeros((20, 20), bool)
    glint[2:18, 15:17] = True  # most of the rows, off the middle: light down the glass
    assert not _mark_like(glint, whole_height=False)
    assert _mark_like(np.roll(glint, -6, axis=1), whole_height=False)  # a '?' stem
    ring = np.zeros((20, 20), bool)
    ring[:, [4, 15]] = True
    ring[[0, 19], 4:16] = True
    assert _mark_like(ring, whole_height=False)


def _u_outline(rows: int = 20, width: int = 20) -> np.ndarray:
    """A map of a round bottom's outline seen through a window: two arms coming in from
    the sides lower down, meeting along the last row."""
    mark = np.zeros((rows, width), bool)
    for r in range(rows // 2, rows):
        reach = (r - rows // 2) * width // rows
        mark[r, : reach + 1] = mark[r, width - reach - 1 :] = True
    mark[-1] = True
    return mark


def test_a_round_bottoms_outline_is_no_mark_but_a_cut_hook_is():
    """A U reaching the window's lower corners (a thick round bottom's outline) is taken out
    of a mark map; a '?' hook cut by the window (a ∩, its legs running outward lower down),
    a ring round a '?' (widest half-way down) and a glyph in the middle stay."""
    u = _u_outline()
    assert _mark_like(u, whole_height=False)  # taken alone it looks like a glyph
    assert not _no_arcs(u).any()
    broken = u.copy()
    broken[:, ::3] = False  # JPEG breaks the line into pieces a pixel apart
    assert not _no_arcs(broken).any()
    bowl = np.zeros((20, 20), bool)  # only the outline's inner edge, deep in the bowl
    for r in range(12, 20):
        bowl[r, 2 + (r - 12) // 2] = bowl[r, 17 - (r - 12) // 2] = True
    bowl[-1, 5:15] = True
    assert not _no_arcs(bowl).any()
    question = np.zeros((20, 20), bool)  # a '?' whose stem the window cuts at the bottom
    question[4, 6:14] = True
    question[4:10, 13] = True
    question[5:7, 6] = True
    question[10:20, 9:11] = True
    question[9, 10:14] = True
    assert (_no_arcs(question) == question).all()
    box = (0, 0, 20, 100)  # a tube 20 wide: its round bottom curves in rows 90-100
    assert not _outline_free(u, box, 95).any()
    assert (_outline_free(u, box, 80) == u).all()  # higher up, a U is a ring round a '?'
    ring = np.zeros((10, 16), np.uint8)  # a circle round a '?', cut by the window's ends
    cv2.circle(ring, (8, 4), 6, 1, 1)
    ring[3:10, 7:9] = 1  # the '?' inside, touching it
    assert (_no_arcs(ring.astype(bool)) == ring.astype(bool)).all()
    hook = np.zeros((20, 20), bool)
    for r in range(8, 20):
        reach = min(9, 3 + (r - 8))
        hook[r, 10 - reach : 10 - reach + 3] = hook[r, 9 + reach - 2 : 9 + reach + 1] = True
    hook[8, 7:13] = True
    assert (_no_arcs(hook) == hook).all()
    glyph = np.zeros((20, 20), bool)
    glyph[5:12, 8:12] = True
    assert (_no_arcs(glyph | u) == glyph).all()


def _bold_cell(light: float = 46.0, mark: float = 6.0) -> tuple:
    """A grey '?' cell 40 rows tall, 40 wide, with a bold mark (strokes 8 pixels wide) that
    the flattening kept: its flat copy shows the mark too."""
    lab = np.zeros((40, 40, 3))
    lab[..., 0] = light
    lab[10:14, 14:26, 0] = mark  # the hook's top
    lab[10:22, 22:30, 0] = mark  # its right side
    lab[18:26, 16:24, 0] = mark  # its stem
    lab[30:36, 16:24, 0] = mark  # the dot
    return (lab, lab.copy()), (0, -60, 40, 120)  # the cell sits mid-tube


def test_a_cells_colour_leaves_out_a_bold_mark_the_flattening_kept():
    """A big bold '?' the flat copy kept covers most of its cell's middle: the cell's colour
    is its fill beside the mark, not the mark's (18333: a '?' cell under a grey liquid, its
    colour off the '?' grey, joined that liquid, silently). A liquid cell is its colour."""
    lab = np.zeros((40, 40, 3))
    lab[..., 0] = 30.0
    lab[8:32, 14:27, 0] = 90.0
    images, box = (lab, lab.copy()), (0, -60, 40, 120)
    assert _cell_colour(images, box, 0, 40)[0] == pytest.approx(30.0)
    plain = np.full((40, 40, 3), 55.0)
    assert _cell_colour((plain, plain.copy()), box, 0, 40) == pytest.approx([55.0] * 3)


def test_a_bold_mark_the_flattening_kept_is_seen_against_the_fill():
    """A bold '?' whose strokes survive the flattening shows no mark against the flat copy;
    against the run's own fill it does, in a run and in a unit cell. A plain grey does not,
    nor a neighbour's colour across whole rows at the window's edge."""
    images, box = _bold_cell()
    run = _Segment(0, 40, np.array([46.0, 0.0, 0.0]), "liquid")
    assert _is_glyph(images, box, run)
    assert _cell_marked(images, box, 0, 40)
    plain = (np.full((40, 40, 3), 46.0), np.full((40, 40, 3), 46.0))
    assert not _is_glyph(plain, box, run)
    assert not _cell_marked(plain, box, 0, 40)
    short = _Segment(28, 34, np.array([46.0, 0.0, 0.0]), "liquid")  # the dot in 4 rows
    assert not _is_glyph(images, box, short)
    speck = np.full((40, 40, 3), 46.0)
    speck[16:21, 19:21, 0] = 6.0  # a JPEG speck: 5 of the window's 24 rows
    assert not _is_glyph((speck, speck.copy()), box, run)
    band = np.full((40, 40, 3), 46.0)
    band[24:40, :, 0] = 80.0  # the run below, taken in past a misplaced boundary
    assert not _is_glyph((band, band.copy()), box, run)


def _painted(cells: list[list[float]], unit: int = 30, width: int = 30) -> tuple:
    """CIELAB image and its flat copy of one tube of unit cells in the given colours,
    bottom first; and the tube's box."""
    lab = np.zeros((len(cells) * unit, width, 3))
    for k, colour in enumerate(cells):
        lab[(len(cells) - k - 1) * unit : (len(cells) - k) * unit] = colour
    return (lab, lab.copy()), (0, 0, width, len(cells) * unit)


def test_a_run_of_two_near_colours_is_cut_between_its_cells():
    """A liquid run whose unit cells differ by more than the join distance is two runs (a
    blue on a purple whose boundary a small JPEG blurred); a bottom cell a round bottom
    shades by less than twice that stays in its run."""
    blue, purple = [48.0, 41.0, -70.0], [49.0, 42.0, -43.0]
    images, box = _painted([[23.0, 0.0, 0.0], blue, purple])
    segs = [
        _Segment(60, 90, np.array([23.0, 0.0, 0.0]), "hidden", units=1),
        _Segment(0, 60, np.array([48.0, 42.0, -52.0]), "liquid", units=2),
    ]
    out = _split_mixed(images, box, segs, 30.0, 0.0)
    assert [(s.kind, s.units, s.y0, s.y1) for s in out] == [
        ("hidden", 1, 60, 90),
        ("liquid", 1, 30, 60),
        ("liquid", 1, 0, 30),
    ]
    assert np.allclose(out[1].lab, blue) and np.allclose(out[2].lab, purple)
    shaded = [52.0, 69.0, 53.0]  # a red's bottom cell, 11 ΔE off in a round bottom
    images, box = _painted([shaded, [55.0, 64.0, 44.0], [55.0, 64.0, 44.0]])
    run = [_Segment(0, 90, np.array([55.0, 64.0, 44.0]), "liquid", units=3)]
    assert _split_mixed(images, box, run, 30.0, 0.0) == run
    images, box = _painted([[23.0, 0.0, 0.0], blue, purple])  # read on 20 rows, not 30:
    off = [_Segment(50, 90, np.array([30.0, 10.0, -15.0]), "liquid", units=2)]
    got = _split_mixed(images, box, off, 20.0, 0.0)
    assert got == off and len(got[0].cells) == 2  # a cell astride a boundary: kept for
    # `_blurred_runs`, with its cells' colours
    photo = [[43.0, 52.0, -89.0], [43.0, 51.0, -87.0], [44.0, 38.0, -78.0], [46.0, 19.0, -63.0]]
    images, box = _painted(photo)  # a photo's gradient behind glass: steps in a row
    run = [_Segment(0, 120, np.array([44.0, 45.0, -80.0]), "liquid", units=4)]
    assert _split_mixed(images, box, run, 30.0, 0.0) == run


def test_a_run_of_a_colour_seen_too_often_is_cut_where_its_blurred_cells_step():
    """Capacity 2, purple read three times and blue once: purple's two-unit run, whose cells
    were not each one colour (blurred), steps 27 ΔE from cell to cell, so it is cut; a run
    whose cells step less, or of a colour seen no more than capacity, is left whole. Next to
    the tube's bottom a step over the join is enough: its shading makes no second colour."""
    purple, blue = np.array([40.0, 45.0, -40.0]), np.array([45.0, 30.0, -60.0])
    cells = ((60, 90, purple), (30, 60, blue + [0, 5, -5]))
    run = _Segment(30, 90, purple, "liquid", units=2, cells=cells)
    per_tube = [
        [run],
        [_Segment(60, 90, purple, "liquid", units=1)],
        [],
        [_Segment(60, 90, blue, units=1)],
    ]
    tubes = [["purple", "purple"], ["purple"], [], ["blue"]]
    cut, changed = _blurred_runs(per_tube, (tubes, None, 2))
    assert changed == [0] and [(s.units, s.y0, s.y1) for s in cut[0]] == [(1, 60, 90), (1, 30, 60)]
    assert np.allclose(cut[0][1].lab, blue + [0, 5, -5]) and cut[1:] == per_tube[1:]
    near = ((60, 90, purple), (30, 60, purple + [0, 6, -6]))
    assert _blurred_runs([[replace(run, cells=near)], *per_tube[1:]], (tubes, None, 2))[1] == []
    step = ((60, 90, purple), (30, 60, purple + [0, -11, -11]))  # 15.6 ΔE, next to the bottom:
    shaded = [[replace(run, cells=step)], *per_tube[1:]]  # twice the join for `_split_mixed`
    assert _blurred_runs(shaded, (tubes, None, 2))[1] == [0]
    assert (
        _blurred_runs(per_tube, ([["blue", "blue"], ["purple"], [], ["purple"]], None, 2))[1] == []
    )


def _grey(y0: int, rows: int, light: float, kind: str = "hidden") -> _Segment:
    """A grey run of `rows` rows at lightness `light`."""
    return _Segment(y0, y0 + rows, np.array([light, 0.0, 1.0]), kind)


def test_the_question_fill_is_the_grey_of_most_marked_rows():
    """A big glyph's strokes leave short lighter pieces between '?' cells: the fill is the
    grey most (three quarters) of the marked rows share, and pieces beside a longer run of it
    are '?' too."""
    cells = [_grey(0, 22, 34.0), _grey(22, 6, 65.0), _grey(28, 22, 35.0), _grey(50, 6, 66.0)]
    fill = _hidden_fill(cells)
    assert fill is not None and abs(fill[0] - 34.5) < 1
    assert _beside_hidden(cells, fill, False) == {1, 3}
    assert _hidden_fill([_grey(0, 20, 34.0), _grey(20, 20, 66.0)]) is None  # two greys alike
    liquid_beside = [_grey(0, 22, 34.0), _grey(22, 30, 66.0)]  # longer than the '?' run
    assert _beside_hidden(liquid_beside, fill, False) == set()
    purple = _Segment(0, 20, np.array([38.0, 19.0, -15.0]), "hidden")  # took in a mark's edge
    assert _beside_hidden([purple, _grey(20, 60, 34.0)], fill, False) == set()


def test_parts_of_a_mark_side_by_side_are_one_mark():
    """A circle's two arcs beside each other are one '?'; marks one above the other are two."""
    arcs = [(0, 0, 22, 20), (23, 0, 11, 19)]
    assert _row_groups(arcs) == 1
    assert _row_groups(arcs + [(2, 30, 20, 18)]) == 2
    assert _row_groups([]) == 0


def test_a_circled_mark_cutting_its_cell_joins_the_cell():
    """A '?' piece over a piece of its grey fill, their boundary half a unit up, is one '?'
    cell; a grey liquid under a '?' run at a whole unit stays liquid, and so does one longer
    than a unit. The piece's top does not count for the unit height either."""
    grey = _Segment(85, 100, np.array([50.0, 0.0, 0.0]), "liquid")  # rows 85-100, bottom 100
    mark = _Segment(70, 85, np.array([30.0, 0.0, 0.0]), "hidden", glyphs=1)
    out = _join_cell_pieces([grey, mark], 100.0, 30.0)
    assert [(s.y0, s.y1, s.kind, s.glyphs) for s in out] == [(70, 100, "hidden", 1)]
    grey = _Segment(70, 100, np.array([50.0, 0.0, 0.0]), "liquid")
    mark = _Segment(40, 70, np.array([30.0, 0.0, 0.0]), "hidden")
    assert [s.kind for s in _join_cell_pieces([grey, mark], 100.0, 30.0)] == ["liquid", "hidden"]
    dark = _Segment(40, 80, np.array([20.0, 0.0, 0.0]), "liquid")  # over a unit: no piece
    low = _Segment(80, 100, np.array([50.0, 0.0, 0.0]), "hidden")
    assert [s.kind for s in _join_cell_pieces([low, dark], 100.0, 30.0)] == ["hidden", "liquid"]
    assert _bounds([grey, mark], (0, 0, 20, 100))[0][1] == 0.0
    red = _Segment(70, 100, np.array([50.0, 60.0, 30.0]), "liquid")
    assert _bounds([red, mark], (0, 0, 20, 100))[0][1] == 1.0


def test_the_second_pass_finds_no_finer_unit_than_the_first():
    """A half-height unit that fits best is passed over when the first pass found the whole
    one: the second pass sees fewer boundaries."""
    cands = np.arange(10.0, 40.0, 1.0)
    cover = np.where(np.isclose(cands, 16.0), 5.0, np.where(np.isclose(cands, 32.0), 4.0, 1.0))
    assert cands[_pick_unit(cands, cover, 130.0)[0]] == 16.0
    assert cands[_pick_unit(cands, cover, 130.0, _least_unit(33.0))[0]] == 32.0
    assert _least_unit(None) == 0.0


def test_the_uncounted_fit_ignores_the_marks_counted():
    """A '?' run whose marks were miscounted (one for its two cells) holds the fit to twice
    the unit; the fit without the counts finds the unit every boundary sits on. No count
    at all: no such fit."""
    bounds = np.array([(78.0, 1.0, 1), (118.0, 1.0, 0), (156.0, 1.0, 0), (196.0, 0.0, 0)])
    unit, offset = _uncounted_unit(bounds, 219.0, 0.0)
    assert abs(unit - 39.0) <= 1.0 and abs(offset) <= 2.0
    bounds[:, 2] = 0
    assert _uncounted_unit(bounds, 219.0, 0.0) is None


def test_a_counted_run_ending_off_its_count_is_miscounted():
    """Two '?' marks counted over a run whose top sits 2.7 units up (the grid from the other
    boundaries) disagree with it: the blind fit is then read too. A run ending on its count,
    or a board with no count at all, is not miscounted."""
    bounds = np.array([(134.0, 1.0, 2), (200.0, 1.0, 4), (266.0, 0.0, 0)])
    assert _miscounted(bounds, 50.0, 0.0)
    bounds[0, 0] = 103.0
    assert not _miscounted(bounds, 50.0, 0.0)  # 2.06 and 4.0 units: on their counts
    bounds[:, 2] = 0
    assert not _miscounted(bounds, 50.0, 0.0)
    assert not _miscounted(np.zeros((0, 3)), 50.0, 0.0)


def test_rival_units_are_the_other_peaks_of_the_fit():
    """The other unit heights that fit nearly as well as the chosen one, best first: peaks of
    the fit at least half the best, at two or three times the chosen unit or a half or a
    third of it."""
    cands = np.arange(10.0, 40.0, 1.0)
    cover = np.ones_like(cands)
    for height, fit in {12.0: 4.0, 16.0: 5.0, 17.0: 4.9, 24.0: 4.8, 33.0: 3.0, 36.0: 2.0}.items():
        cover[cands == height] = fit  # 36 is under half the best: no rival
    assert cands[_rival_units(cands, cover, 16.0)].tolist() == [33.0]  # 24: 1.5 times
    assert cands[_rival_units(cands, cover, 12.0)].tolist() == [24.0]  # 36 fits too little
    assert cands[_rival_units(cands, cover, 24.0)].tolist() == [12.0]
    assert cands[_rival_units(cands, cover, 8.0, most=1)].tolist() == [16.0]
    assert cands[_rival_units(cands, cover, 24.0, 13.0)].tolist() == []  # 12: too flat


def test_a_small_unsound_picture_is_read_again_with_its_jpeg_blocks_smoothed(monkeypatch):
    """A picture under `SMALL_PICTURE` px whose reading is unsound (here a colour seen more
    than `capacity` times) is read again with a `DEBLOCK` median at its own size, and that
    reading is taken only when it has no doubt and keeps every '?' cell (a median wipes marks
    out: seed 15930 lost one, silently); over a sound first reading with doubts, only when
    it reads another shape than colours (10419: the smoothed one read other colours,
    silently); a larger picture is read once."""
    from puzzlelab.watersort import screenshot

    seen, first, second = [], [["?", "a"], ["b", "b"], ["b"]], [["a", "a"], ["b", "b"], []]

    def fake(rgb, params):
        seen.append(rgb.copy())
        smooth = len(seen) > 1
        tubes = second if smooth else first
        return screenshot.Reading(
            tubes=[list(t) for t in tubes],
            capacities=[2, 2, 2],
            palette={},
            boxes=[(0, 0, 10, 40), (20, 0, 10, 40), (40, 0, 10, 40)],
            confidence=[[1.0] * len(t) for t in tubes],
            level=None,
            layout=[3],
            unit_height=20.0,
            problems=[] if smooth else ["doubt"],
        )

    monkeypatch.setattr(screenshot, "_read_picture", fake)
    rng = np.random.default_rng(0)
    small = rng.integers(0, 256, (screenshot.SMALL_PICTURE - 1, 120, 3), dtype=np.uint8)
    assert not read_screenshot(small).ok and len(seen) == 2  # a '?' lost: the first kept
    assert (seen[1] == cv2.medianBlur(small, screenshot.DEBLOCK)).all()
    seen.clear()
    second[:] = [["?", "a"], ["b", "b"], ["a"]]
    assert read_screenshot(small).tubes == second and len(seen) == 2
    seen.clear()
    large = rng.integers(0, 256, (400, screenshot.SMALL_PICTURE), dtype=np.uint8)
    assert not read_screenshot(large).ok and len(seen) == 1
    seen.clear()
    first[:] = [["a", "a"], ["b", "b"], []]  # sound, with a doubt: another shape is taken
    assert read_screenshot(small).tubes == second and len(seen) == 2
    seen.clear()
    second[:] = [["b", "b"], ["a", "a"], []]  # ... but not other colours alone (10419)
    assert read_screenshot(small).tubes == first and len(seen) == 2


def test_a_run_stepping_off_the_glass_above_it_where_the_picture_does_not_is_liquid():
    """A tube over a smooth picture: its glass, then a pale liquid 20 ΔE from it. The picture
    beside the tube hardly changes between them, so the liquid steps on its own. Where the
    picture beside steps as much (a photo's edge behind the glass), glass may step too."""
    lab = np.tile(np.array([70.0, -45.0, 30.0]), (200, 100, 1))
    box = (40, 20, 20, 160)
    lab[20:180, 40:60] = [72.0, -40.0, 28.0]  # the glass
    lab[80:120, 40:60] = [84.0, -22.0, 0.0]  # a pale liquid under it
    glass, liquid = _Segment(20, 80, lab[50, 50]), _Segment(80, 120, lab[100, 50])
    assert _steps_off_glass(lab, (glass, liquid), box, 30.0, DEFAULT_PARAMS.jump)
    lab[80:120] = [84.0, -20.0, 2.0]  # the picture steps beside the tube ...
    lab[80:120, 40:60] = [84.0, -22.0, 0.0]  # ... and behind its glass alike
    stepped = (glass, _Segment(80, 120, lab[100, 50]))
    assert not _steps_off_glass(lab, stepped, box, 30.0, DEFAULT_PARAMS.jump)
