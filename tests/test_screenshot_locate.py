"""Finding the tubes of a water-sort screenshot: outlined, thinly outlined, or drawn only as a
faint tint of the background, every tube of every row is found, at the row's pitch."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from puzzlelab.watersort.screenshot import (
    WORK_HEIGHT,
    _between,
    _centre,
    _comb,
    _common_step,
    _even,
    _fill_row,
    _ghosts,
    _glass_raised,
    _holes,
    _icon,
    _inner_walls,
    _lattice_offset,
    _liquid_floor,
    _merge_same,
    _more_rows,
    _off_gradient,
    _off_pitch_dropped,
    _peaks,
    _pitch,
    _pitch_hint,
    _plug_holes,
    _profile,
    _segments,
    _shared,
    _sided,
    _span,
    _stacked,
    _tinted,
    _walls_inside,
    find_tubes,
    read_screenshot,
)
from puzzlelab.watersort.synth import synth_board

BG = (96, 60, 170)  # a flat purple background


def _board(outline: int, layout: tuple[int, ...], tint: float = 0.12) -> tuple[np.ndarray, list]:
    """An 800-pixel board: tubes of faint glass (`tint` lighter than the background), some
    liquid at the bottom, an outline `outline` pixels thick (0: none); with the true boxes."""
    img = np.zeros((800, 480, 3), np.uint8)
    img[:] = BG
    truth, pitch, w, h = [], 480 / (max(layout) + 0.6), 40, 180
    colours = [(220, 40, 40), (40, 180, 60), (240, 200, 30), (30, 120, 230), (250, 250, 250)]
    for r, n in enumerate(layout):
        y = 120 + r * 300
        row = []
        for j in range(n):
            x = int((480 - n * pitch) / 2 + (pitch - w) / 2 + j * pitch)
            cell = img[y : y + h, x : x + w].astype(float)
            img[y : y + h, x : x + w] = (cell + tint * (255 - cell)).astype(np.uint8)
            for u in range(j % 4):  # 0-3 units of liquid, the first tube empty
                img[y + h - 40 * (u + 1) : y + h - 40 * u, x : x + w] = colours[(j + u) % 5]
            if outline:
                cv2.rectangle(img, (x, y), (x + w - 1, y + h - 1), (235, 235, 235), outline)
            row.append((x, y, w, h))
        truth.append(row)
    return img, truth


@pytest.mark.parametrize("outline", [0, 1, 4])
@pytest.mark.parametrize("layout", [(5,), (4, 3)])
def test_every_tube_is_found_whatever_its_outline(outline, layout):
    """Empty tubes of faint glass count too: the count per row and each box are right."""
    img, truth = _board(outline, layout)
    rows = find_tubes(img)
    assert [len(r) for r in rows] == list(layout)
    for got, want in zip((b for r in rows for b in r), (b for r in truth for b in r), strict=True):
        # a drawn outline straddles the tube's edge, so a box may hold its outer half
        assert abs(got[0] - want[0]) <= 3 + outline and abs(got[2] - want[2]) <= 4 + outline
        assert abs(got[1] - want[1]) <= 6 and abs(got[1] + got[3] - want[1] - want[3]) <= 6


def test_a_blank_picture_has_no_tubes():
    """Nothing tube-like: no rows at all (the reader then says no tubes were found)."""
    img = np.full((800, 480, 3), BG, np.uint8)
    assert find_tubes(img) == []


# seeds of the style-randomised generator whose tubes only the side-finding locator finds,
# two per outline style (none, thin, thick)
@pytest.mark.parametrize("seed", [6, 23, 11, 30, 44, 166])
def test_synthetic_boards_tube_count_and_layout(seed):
    """Every slot of the board is found (covered ones included), row by row."""
    board = synth_board(seed)
    height, width = board.image.shape[:2]
    scale = WORK_HEIGHT / height
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    img = cv2.resize(board.image, (round(width * scale), WORK_HEIGHT), interpolation=interp)
    assert [len(row) for row in find_tubes(img)] == board.layout


def test_pitch_counts_the_tubes_a_step_spans():
    """Two well-matched boxes two tubes apart, an odd one between: the pitch is one step."""
    row = [((0, 0, 30, 90), False), ((52, 0, 30, 90), True), ((100, 0, 30, 90), False)]
    assert _pitch(row) == pytest.approx(50)
    assert _pitch([((0, 0, 30, 90), False), ((48, 0, 30, 90), False)]) == pytest.approx(48)


def test_common_step_is_the_pitch_every_step_is_a_multiple_of():
    """Steps of one and two tubes, and a box a little off: the pitch is the common step (the
    median of the steps would be neither); steps no pitch of tubes that do not touch explains
    give 0."""
    assert _common_step(np.array([100, 150])) == pytest.approx(50)
    assert _common_step(np.array([73, 151, 62, 147])) == pytest.approx(433 / 6)
    assert _common_step(np.array([100, 135]), least=40) == 0.0
    assert _common_step(np.array([], dtype=float)) == 0.0
    row = [((x, 0, 44, 180), x == 294) for x in (70, 143, 294, 356, 503)]  # 294 is a box off
    assert _pitch(row) == pytest.approx(433 / 6)


def _lab_board(slots: list[tuple], tint: float = 4.0, size: tuple = (800, 480)) -> np.ndarray:
    """A flat CIELAB picture with faint glass (`tint` ΔE lighter) in the boxes `slots`."""
    lab = np.zeros((*size, 3), np.float32)
    lab[:] = (50.0, 10.0, -20.0)
    for x, y, w, h in slots:
        lab[y : y + h, x : x + w, 0] += tint
    return lab


def test_faint_glass_is_tinted_a_changing_background_is_not():
    """A slot a little lighter than the background on both sides is faint glass; plain
    background is not, nor a slot between two sides that differ (a gradient, a photo)."""
    box = (200, 100, 40, 180)
    assert _tinted(_lab_board([box]), box, 80)
    assert not _tinted(_lab_board([]), box, 80)
    ramp = _lab_board([])
    ramp[:, :, 0] += np.linspace(-20, 20, ramp.shape[1])[None, :]
    assert not _tinted(ramp, box, 80)
    assert not _tinted(_lab_board([box]), (460, 100, 40, 180), 80)  # off the picture


def test_a_row_off_centre_by_a_pitch_gets_its_faint_tubes_back():
    """Games centre their rows: three tubes found one pitch left of the centre leave two
    faint empty tubes at the right end; found at the centre, the row stays as it is."""
    pitch, w, h, y = 80, 40, 180, 100
    xs = [round(240 + (j - 2) * pitch - w / 2) for j in range(5)]
    lab = _lab_board([(x, y, w, h) for x in xs[3:]])
    slots = [((x, y, w, h), False) for x in xs[:3]]
    got = _centre(list(slots), set(), pitch, lab, gaps := [], 0)
    assert [b[0] for b, _ in got] == xs and gaps == []
    centred = [((round(240 + (j - 1) * pitch - w / 2), y, w, h), False) for j in range(3)]
    assert _centre(list(centred), set(), pitch, lab, [], 0) == centred


def test_a_row_half_a_pitch_off_centre_gets_the_tube_whose_walls_show():
    """Two tubes found half a pitch left of the centre: the slot at the right end shows no
    tint (an outlined empty tube, a puffed box: seed 2096), but both its walls show edges a
    few pixels inside the box in the row's side profile: a tube. With no edge there, the slot
    goes to the gaps."""
    pitch, w, h, y = 80, 40, 180, 100
    xs = [round(240 + (j - 1) * pitch - w / 2) for j in range(3)]
    lab = _lab_board([])
    slots = [((x, y, w, h), False) for x in xs[:2]]
    prof = np.full(480, 0.5, np.float32)
    got = _centre(list(slots), set(), pitch, lab, gaps := [], 0, prof)
    assert got == slots and gaps == [(0, xs[2])]
    prof[[xs[2] + 5, xs[2] + w - 6]] = 2.0
    got = _centre(list(slots), set(), pitch, lab, gaps := [], 0, prof)
    assert [b[0] for b, _ in got] == xs and gaps == []


def _liquid_at_bottom(lab: np.ndarray, box: tuple, height: int = 40) -> np.ndarray:
    """`lab` with a red liquid `height` pixels high at the bottom of `box`."""
    x, y, w, h = box
    lab[y + h - height : y + h, x : x + w] = (45.0, 60.0, 40.0)
    return lab


def test_a_liquid_at_a_slots_bottom_shows_a_tube():
    """A slot whose glass is too faint to see but whose bottom holds a liquid is a tube
    (liquid sinks); plain background is not, nor a slot between two sides that differ."""
    box = (200, 100, 40, 180)
    assert _liquid_floor(_liquid_at_bottom(_lab_board([]), box), box, 80)
    assert not _liquid_floor(_lab_board([]), box, 80)
    assert not _liquid_floor(_liquid_at_bottom(_lab_board([]), box, 8), box, 80)  # a speck
    ramp = _lab_board([])
    ramp[:, :, 0] += np.linspace(-40, 40, ramp.shape[1])[None, :]
    assert not _liquid_floor(ramp, box, 80)


def test_a_row_half_a_pitch_off_centre_gets_the_tube_whose_liquid_shows():
    """Two tubes found half a pitch left of the centre; the slot at the right end shows no
    glass and no walls, but a liquid at its bottom (seed 1770): a tube. Without the liquid
    the slot goes to the gaps."""
    pitch, w, h, y = 80, 40, 180, 100
    xs = [round(240 + (j - 1) * pitch - w / 2) for j in range(3)]
    slots = [((x, y, w, h), False) for x in xs[:2]]
    got = _centre(list(slots), set(), pitch, _lab_board([]), gaps := [], 0)
    assert got == slots and gaps == [(0, xs[2])]
    lab = _liquid_at_bottom(_lab_board([]), (xs[2], y, w, h))
    got = _centre(list(slots), set(), pitch, lab, gaps := [], 0)
    assert [b[0] for b, _ in got] == xs and gaps == []


def test_walls_a_little_inside_a_puffed_box_count():
    """A box 40 wide whose tube's walls stand 6 pixels inside it (JPEG halos widened the
    row's boxes): its walls at the box's edges show nothing, within a quarter of its width
    inside they do; walls 12 pixels inside are another thing's."""
    box = (100, 0, 40, 180)
    prof = np.zeros(300, np.float32)
    prof[[106, 133]] = 2.0
    assert _inner_walls(prof, box) == 2.0 and _sided(prof, box, 1.0, _inner_walls)
    assert not _sided(prof, box, 1.0)
    prof[:] = 0
    prof[[112, 127]] = 2.0
    assert _inner_walls(prof, box) == 0.0
    assert _inner_walls(prof, (280, 0, 40, 180)) == 0.0  # off the picture


def test_a_dropped_slot_between_two_tubes_is_a_hole():
    """A ghost dropped from between two slots of its row leaves a hole (games leave none);
    one dropped at a row's end does not, nor a box of another row."""
    w, h = 40, 180
    row = [((x, 100, w, h), False) for x in (40, 200)]
    other = [((x, 400, w, h), False) for x in (40, 120)]
    dropped = {(120, 100, w, h), (280, 100, w, h), (200, 400, w, h)}
    assert _holes([row, other], dropped) == [(0, 120)]


def test_a_row_of_faint_tubes_at_the_rows_step_is_found():
    """Two rows found 250 pixels apart; a centred row of two faint empty tubes 250 pixels
    below them is a third row (doubtful slots); without them there is none."""
    pitch, w, h = 80, 40, 180
    rows = [
        [((round(240 + (j - 1.5) * pitch - w / 2), top, w, h), False) for j in range(4)]
        for top in (60, 310)
    ]
    third = [(round(240 + (j - 0.5) * pitch - w / 2), 560, w, h) for j in range(2)]
    got = _more_rows(rows, _lab_board(third))
    assert len(got) == 3 and got[2] == [(b, True) for b in third]
    assert _more_rows(rows, _lab_board([])) == rows


def test_a_row_of_outlined_empty_tubes_at_the_rows_step_is_found_by_its_walls():
    """Two rows found 250 pixels apart; 250 pixels below them a centred row of two empty
    tubes drawn only as outlines (no tint: seed 1168) or of glass over a photo that changes
    across them (seed 62) shows edges at every wall: a third row. Without the side strength,
    with edges at one wall only, or at the picture's bottom edge, there is none."""
    pitch, w, h = 80, 40, 180
    rows = [
        [((round(240 + (j - 1.5) * pitch - w / 2), top, w, h), False) for j in range(4)]
        for top in (60, 310)
    ]
    third = [(round(240 + (j - 0.5) * pitch - w / 2), 560, w, h) for j in range(2)]
    lab = _lab_board([])
    side = np.full(lab.shape[:2], 0.1, np.float32)
    for x, y, _, _ in third:
        side[y : y + h, x] = 3.0
    assert _more_rows(rows, lab) == rows
    assert _more_rows(rows, lab, side) == rows
    for x, y, _, _ in third:
        side[y : y + h, x + w - 1] = 3.0
    got = _more_rows(rows, lab, side)
    assert len(got) == 3 and got[2] == [(b, True) for b in third]
    # the same walls against the picture's bottom edge: an ad banner's letters (seed 1411)
    assert _more_rows(rows, lab[:745], side[:745]) == rows


def test_a_hole_in_a_row_needs_fainter_sides():
    """Side edges two and a half times the row's typical strength: enough for a slot between
    two tubes (games leave no hole in a row), not for a slot anywhere."""
    prof = np.ones(300, np.float32)
    prof[[100, 140]] = 2.5
    assert _sided(prof, (100, 0, 40, 180), 2.0)
    assert not _sided(prof, (100, 0, 40, 180))


def test_a_rows_span_leaves_out_slots_that_only_differ_from_the_background():
    """A row spans its boxes and the slots added with both sides seen, not the doubtful ones
    (on a photo a slot may differ from the background without being a tube)."""
    row = [((100, 0, 40, 180), False), ((180, 0, 40, 180), True)]
    filled = [*row, ((20, 0, 40, 180), True), ((260, 0, 40, 180), False)]
    assert _span(row, filled) == (100, 300)


def _tube_with_middle(full_width: bool) -> tuple[np.ndarray, tuple, list]:
    """A 40x160 tube of one colour with a differently coloured run at its middle, narrow (a
    cover's badge) or across the whole tube (a liquid unit); its box and segments."""
    lab = np.zeros((200, 80, 3), np.float32)
    lab[:, :] = (50, 40, -20)
    x, y, w, h = 20, 20, 40, 160
    lab[y : y + h, x : x + w] = (60, -30, 30)
    x0, x1 = (x, x + w) if full_width else (x + 12, x + w - 12)
    lab[y + 68 : y + 92, x0:x1] = (90, 0, 0)
    box = (x, y, w, h)
    return lab, box, _merge_same(_segments(_profile(lab, box), y))


@pytest.mark.parametrize("full_width", [False, True])
def test_a_badge_at_the_middle_is_a_cover_a_unit_is_not(full_width):
    """A run at the tube's middle that leaves the sides their colour is a cover's icon; the
    same run across the tube's width is a liquid unit."""
    lab, box, segs = _tube_with_middle(full_width)
    assert len(segs) == 3
    assert _icon(lab, box, segs) is (not full_width)


def test_an_added_empty_slot_that_shows_no_tube_is_a_ghost():
    """Two tubes found and two slots the spacing added, all read empty: the added slot of
    faint glass stays, the added slot of plain background with no edge at its walls (a
    photo's patch that differs from the picture beside it, seed 2003) is a ghost; found boxes
    and slots holding liquid never are, nor a slot whose walls show faint edges (seed 80: a
    faint tube where the photo changes colour across it is not tinted)."""
    w, h, y = 40, 180, 100
    boxes = [(x, y, w, h) for x in (40, 120, 200, 280)]
    lab = _lab_board([boxes[2]])
    side = np.zeros(lab.shape[:2], np.float32)  # a smooth picture: no edge anywhere
    rows = [[(b, False) for b in boxes]]
    found = {boxes[0], boxes[1]}
    assert _ghosts(lab, side, rows, found, [[], [], [], []]) == {boxes[3]}
    assert _ghosts(lab, side, rows, found, [[], [], [], ["red"]]) == set()
    side[:, [280, 320]] = 0.8  # faint edges at both walls of the slot: an empty tube
    assert _ghosts(lab, side, rows, found, [[], [], [], []]) == set()


def test_an_added_slot_whose_walls_stand_inside_it_is_no_ghost():
    """Boxes as wide as the row's covers, an empty tube of narrower glass beyond them: its
    walls show a few pixels inside the slot, none at its edges (seed 17665: two faint empty
    tubes dropped as ghosts, a row of 6 read as 4, silently); such a ghost is kept (with a
    doubt); a slot with no wall anywhere is not, nor one whose only edge is at its middle."""
    w, h, y = 40, 180, 100
    slot = (280, y, w, h)
    side = np.full((800, 480), 0.3, np.float32)  # a little noise everywhere
    assert _walls_inside(side, {slot}) == set()
    side[:, [288, 312]] = 4.0  # the narrower glass's walls, 8 px inside the slot's sides
    assert _walls_inside(side, {slot}) == {slot}
    side[:, [288, 312]] = 0.3
    side[:, 300] = 4.0  # one edge down the slot's middle: no pair of walls
    assert _walls_inside(side, {slot}) == set()


def test_one_row_gets_a_second_row_of_faint_tubes_anywhere_clear_of_it():
    """One row of two tubes found, no step between rows to look at: a centred row of two
    faint empty tubes of its size and pitch further down is found wherever it stands (seed
    2097: two rows of two read as one row); a plain picture adds none."""
    pitch, w, h = 80, 40, 180
    row = [((round(240 + (j - 0.5) * pitch - w / 2), 60, w, h), False) for j in range(2)]
    faint = [(b[0], 430, w, h) for b, _ in row]
    got = _more_rows([row], _lab_board(faint))
    assert len(got) == 2 and got[0] == row
    assert [b[0] for b, _ in got[1]] == [b[0] for b in faint]
    assert abs(got[1][0][0][1] - 430) <= h // 10 and all(odd for _, odd in got[1])
    assert _more_rows([row], _lab_board([])) == [row]


def test_rows_are_even_when_no_row_is_alone_or_two_tubes_shorter():
    """Games share tubes evenly between rows of two or more: rows of 1 and 1, 4 and 2 and
    2, or 5 and 3 are no game's; 7 and 7, 5 and 4, a single row of 3 are."""
    assert _even([7, 7]) and _even([5, 4]) and _even([3]) and _even([4, 5])
    assert not _even([1, 1]) and not _even([4, 2, 2]) and not _even([5, 3]) and not _even([])


def test_rows_are_stacked_apart_at_one_step():
    """Rows stand one below the other without sharing image rows, at one vertical step:
    outlines of one row's liquid and of its whole tubes, found as two rows that overlap, or
    rows 124 and 274 pixels apart, are no game's rows; two rows, or three at one step, are."""

    def rows(*spans: tuple[int, int]) -> list[list[tuple]]:
        return [[((10, top, 30, h), False), ((60, top, 30, h), False)] for top, h in spans]

    assert _stacked(rows((100, 150))) and _stacked(rows((100, 150), (400, 150)))
    assert _stacked(rows((100, 150), (300, 150), (505, 150)))
    assert not _stacked(rows((312, 119), (357, 111)))
    assert not _stacked(rows((146, 58), (270, 52), (544, 41)))


def test_the_tube_width_most_bands_show_beats_one_strong_band():
    """Three bands of tubes 34 wide (a row, and a row its faint tubes cut in two) against
    one band of letters 10 wide scoring more (an ad banner, seed 1580): the tubes' width is
    the board's; with one band each, the stronger wins."""
    band = [(s, [], 65.0, (w, 0, 100)) for s, w in ((50.0, 34), (20.0, 36), (20.0, 33))]
    letters = (300.0, [], 16.0, (10, 700, 750))
    found = [*band, letters]
    assert max(found, key=lambda f: _shared(f, found)) is band[0]
    assert max([band[0], letters], key=lambda f: _shared(f, [band[0], letters])) is letters


def test_one_tube_rows_take_the_pitch_every_rows_pitch_is_a_multiple_of():
    """A row found at every tube (pitch 68) and one found at every other tube (136): the
    board's one pitch is 68, not their median (102, seed 1856); pitches no whole multiple
    of the smallest keep the median."""
    w, h = 40, 100

    def row(step: int, n: int) -> list:
        return [((20 + j * step, 0, w, h), False) for j in range(n)]

    assert _pitch_hint([row(68, 3), row(136, 3)]) == pytest.approx(68, abs=0.5)
    assert _pitch_hint([row(60, 3), row(90, 3)]) == pytest.approx(75)
    assert _pitch_hint([row(68, 1)]) == 0.0


def test_no_row_of_faint_tubes_is_taken_inside_an_ad_banner():
    """Two rows of outlined tubes 250 pixels apart over a full-width ad banner at the
    picture's bottom, with slots of lighter colour in the banner where a third row would
    stand (letters, seed 2043): two rows; without the banner the faint row is a third."""
    w, h, pitch = 40, 100, 80

    def picture(banner: bool) -> np.ndarray:
        img = np.zeros((800, 480, 3), np.uint8)
        img[:] = BG
        if banner:
            img[690:] = (40, 160, 110)
        for top in (150, 400, 650):
            for j in range(4):
                x = round(240 + (j - 1.5) * pitch - w / 2)
                if top < 650:
                    cv2.rectangle(img, (x, top), (x + w - 1, top + h - 1), (235, 235, 235), 3)
                    img[top + 60 : top + h - 3, x + 3 : x + w - 3] = (220, 40, 40)
                else:
                    cell = img[top : top + h, x : x + w].astype(float)
                    img[top : top + h, x : x + w] = (cell + 0.12 * (255 - cell)).astype(np.uint8)
        return img

    assert len(find_tubes(picture(banner=True))) == 2
    assert len(find_tubes(picture(banner=False))) == 3


def test_a_second_row_counts_a_slot_whose_only_sign_is_a_liquid_at_its_floor():
    """One row of two tubes found; further down a centred row of two, one of faint glass and
    one whose glass does not show but whose bottom holds a liquid (liquid sinks; seed 10658:
    glass blending into a photo that changes across it): a second row. Without the liquid
    the row is not all seen, and none is added."""
    pitch, w, h = 80, 40, 180
    row = [((round(240 + (j - 0.5) * pitch - w / 2), 60, w, h), False) for j in range(2)]
    faint, bare = [(b[0], 430, w, h) for b, _ in row]
    lab = _liquid_at_bottom(_lab_board([faint]), bare)
    got = _more_rows([row], lab)
    assert len(got) == 2 and got[0] == row
    assert [b[0] for b, _ in got[1]] == [faint[0], bare[0]]
    assert _more_rows([row], _lab_board([faint])) == [row]


def test_a_slot_the_rows_centring_puts_at_its_end_needs_only_a_faint_tint():
    """Two tubes found half a pitch left of the centre; the slot at the right end tints the
    flat background by 1.5 ΔE only (seed 10064: faint empty glass): under the tint any slot
    needs, enough for the one the row's centring points at. Plain background is no tube."""
    pitch, w, h, y = 80, 40, 180, 100
    xs = [round(240 + (j - 1) * pitch - w / 2) for j in range(3)]
    slots = [((x, y, w, h), False) for x in xs[:2]]
    lab = _lab_board([(xs[2], y, w, h)], tint=1.5)
    assert not _tinted(lab, (xs[2], y, w, h), pitch)
    got = _centre(list(slots), set(), pitch, lab, gaps := [], 0)
    assert [b[0] for b, _ in got] == xs and gaps == []
    got = _centre(list(slots), set(), pitch, _lab_board([]), gaps := [], 0)
    assert got == slots and gaps == [(0, xs[2])]


def test_an_added_slot_of_glass_tinting_a_flat_background_faintly_is_no_ghost():
    """Two tubes found and a slot the spacing added between them, read empty, no edge at its
    walls: tinting the flat background by 1.5 ΔE it is faint glass (seed 10187), not a ghost;
    plain background is."""
    w, h, y = 40, 180, 100
    boxes = [(x, y, w, h) for x in (40, 120, 200)]
    side = np.zeros((800, 480), np.float32)
    rows = [[(b, False) for b in boxes]]
    found = {boxes[0], boxes[2]}
    assert _ghosts(_lab_board([boxes[1]], tint=1.5), side, rows, found, [[], [], []]) == set()
    assert _ghosts(_lab_board([]), side, rows, found, [[], [], []]) == {boxes[1]}


def test_a_gap_between_two_tubes_of_a_row_is_plugged_with_a_slot():
    """Games leave no hole in a row: a gap between two slots of its row becomes a doubtful
    slot of the row's size (taken out of the gaps); a gap beyond the row's ends (the centring's
    next slot) or in no row stays a gap."""
    w, h = 40, 180
    row = [((x, 100, w, h), False) for x in (40, 120, 280)]
    other = [((x, 400, w, h), False) for x in (40, 120)]
    gaps = [(0, 200), (0, 360), (1, 200), (5, 10)]
    rows, plugged = _plug_holes([row, other], gaps)
    assert plugged == {(200, 100, w, h)} and gaps == [(0, 360), (1, 200), (5, 10)]
    assert [b[0] for b, _ in rows[0]] == [40, 120, 200, 280] and rows[0][2][1] is True
    assert rows[1] == other


def test_a_ghost_between_two_tubes_is_kept_not_dropped():
    """A slot read empty with no tube seen (a ghost) between two tubes of its row is a hole
    kept as an empty tube; a ghost at the row's end is not, nor one between ghosts only."""
    w, h = 40, 180
    row = [((x, 100, w, h), False) for x in (40, 120, 200, 280)]
    assert _between([row], {row[1][0], row[3][0]}) == {row[1][0]}
    assert _between([row], {row[0][0]}) == set()


@pytest.mark.parametrize("seed", [12136, 12015])
def test_an_empty_tube_of_invisible_glass_in_a_row_is_read(seed):
    """Seeds 12136 (a thin outline lost in JPEG) and 12015 (glass over a photo that changes
    across it): the empty tube between two tubes shows no walls nor tint, and was a gap;
    the row's pitch puts a tube there, read empty, with a doubt naming it."""
    board = synth_board(seed)
    reading = read_screenshot(board.image)
    assert reading.layout == board.layout and not reading.ok
    holes = [k for k, p in enumerate(reading.problems) if "fills a hole in its row" in p]
    assert len(holes) == 1 and [len(t or []) for t in reading.tubes] == [
        len(t or []) for t in board.tubes
    ]


def test_an_overlapping_outline_off_the_rows_pitch_is_dropped():
    """A row at pitch 74 with a ring's outline 24 pixels right of one tube (overlapping it):
    the ring stands 0.3 pitch off the other boxes' lattice, the tube on it, so the ring goes.
    Two overlapping boxes both near the lattice, or a row too short to show one, stay."""
    w, h = 40, 150
    xs = [48, 110, 134, 187, 261, 332, 410, 483]
    row = [((x, 296, w, h), x != 187) for x in xs]
    assert [b[0] for b, _ in _off_pitch_dropped(row)] == [48, 110, 187, 261, 332, 410, 483]
    assert _lattice_offset([187, 261, 335, 409], 134) > 0.2
    assert _lattice_offset([187, 261, 335, 409], 113) < 0.05
    close = [((x, 296, w, h), False) for x in (40, 114, 140, 188, 262)]  # 140: off the lattice
    assert len(_off_pitch_dropped(close)) == len(close) - 1
    both = [((x, 296, w, h), False) for x in (40, 114, 120, 188, 262)]  # 6 px apart
    assert _off_pitch_dropped(both) == both
    short = [((x, 296, w, h), False) for x in (40, 60, 114)]
    assert _off_pitch_dropped(short) == short


def test_a_ring_beside_a_thick_outlined_tube_is_no_tube():
    """Seed 12642: a bubble's ring beside a tube was outlined as a tube overlapping it; off
    the row's pitch it is dropped, and the row of seven reads exactly, with no doubt."""
    board = synth_board(12642)
    reading = read_screenshot(board.image)
    assert reading.layout == board.layout == [7] and reading.ok


def _liquid_row(xs: list[int], width: int) -> tuple[np.ndarray, np.ndarray]:
    """A CIELAB picture `width` wide of tubes 40 wide at `xs`, each of four bands of liquid,
    and its side strength: edges at every tube's walls."""
    lab = np.zeros((200, width, 3), np.float32)
    lab[:] = (50, 40, -20)
    side = np.ones((200, width), np.float32)
    for x in xs:
        for u, colour in enumerate([(60, -40, 40), (80, 0, 70), (40, 50, 20), (90, 0, 0)]):
            lab[20 + 40 * u : 60 + 40 * u, x : x + 40] = colour
        side[:, [x, x + 39]] = 10
    return lab, side


def test_a_slot_beyond_the_other_rows_span_is_a_tube_when_it_shows_walls_and_liquid():
    """Seed 13411: a row of seven whose end tubes were missed, under a row of six: the slots
    beyond the short row's span were cut (a photo beside a short row is no tube), though
    each shows both walls and liquid's bands; kept, the row is whole. A slot beyond the span
    showing neither stays out."""
    lab, side = _liquid_row([40, 100, 160, 220, 280], 360)
    row = [((x, 20, 40, 160), False) for x in (100, 160, 220)]
    bg = np.array([50.0, 40.0, -20.0])
    slots = _fill_row(row, 360, lab, bg, [], 0, side, 0.0, (100, 260))
    assert [b[0] for b, _ in slots] == [40, 100, 160, 220, 280]
    lab, side = _liquid_row([100, 160, 220], 360)
    slots = _fill_row(row, 360, lab, bg, [], 0, side, 0.0, (100, 260))
    assert [b[0] for b, _ in slots] == [100, 160, 220]


def test_a_row_half_a_pitch_off_centre_gets_faint_glass_over_a_gradient():
    """Seed 14412: two tubes found half a pitch left of the centre; the slot at the right end
    holds faint glass over a gradient, its sides differing by more than half the glass's
    tint, so `_tinted` misses it; but the glass is off the sides' mean, where a gradient
    lies: a tube. The gradient alone is no tube, and its slot goes to the gaps."""
    pitch, w, h, y = 80, 40, 180, 100
    xs = [round(240 + (j - 1) * pitch - w / 2) for j in range(3)]
    slots = [((x, y, w, h), False) for x in xs[:2]]
    box = (xs[2], y, w, h)
    ramp = _lab_board([])
    ramp[:, :, 2] += np.linspace(0, 12, ramp.shape[1])[None, :]
    got = _centre(list(slots), set(), pitch, ramp, gaps := [], 0)
    assert got == slots and gaps == [(0, xs[2])] and not _off_gradient(ramp, box, pitch)
    glass = ramp.copy()
    glass[y : y + h, xs[2] : xs[2] + w, 0] += 2.5
    assert not _tinted(glass, box, pitch, 1.0) and _off_gradient(glass, box, pitch)
    got = _centre(list(slots), set(), pitch, glass, gaps := [], 0)
    assert [b[0] for b, _ in got] == xs and gaps == []


def test_a_squat_band_of_sides_is_raised_to_its_tubes_glass():
    """Seed 14239: glass too faint for an edge shows sides only beside the liquid, a band
    60 rows tall for tubes 40 wide (squatter than any tube: the comb dropped it and the
    board was refused); the glass tinting the picture above the band raises its top. With
    no glass above, the top stays."""
    pitch, w = 80, 40
    xs = [round(240 + (j - 1) * pitch - w / 2) for j in range(3)]
    lab = _lab_board([(x, 140, w, 140) for x in xs])
    for x in xs:
        lab[220:280, x : x + w] = (45.0, 60.0, 40.0)  # the liquid, its sides the band's
    pairs = [(x, x + w - 1) for x in xs]
    assert _glass_raised(lab, pairs, w, pitch, 220, 280) <= 180
    plain = _lab_board([])
    for x in xs:
        plain[220:280, x : x + w] = (45.0, 60.0, 40.0)
    assert _glass_raised(plain, pairs, w, pitch, 220, 280) == 220


def test_a_comb_takes_no_finer_pitch_than_the_tubes_it_explains():
    """Two tubes' strong sides (57/98, 154/195) with faint details of a photo between and
    beside them (seed 16277): a comb at half their step explains the same two tubes and
    none between, so it claims a tube no side shows; the comb keeps their one step."""
    profile = np.zeros(254, np.float32)
    for c, v in [
        (49, 2.9),
        (57, 46.3),
        (98, 36.3),
        (106, 4.0),
        (154, 20.3),
        (195, 34.7),
        (205, 6.6),
    ]:
        profile[c] = v
    pairs, pitch = _comb(_peaks(profile), profile, 254, 91)
    assert pairs == [(57, 98), (154, 195)]
    assert pitch == pytest.approx(97.0)
