"""Read a water-sort board from a screenshot: find the tubes, their units and colours.

General image analysis, no game's pixel coordinates or colours:

1. the image is scaled to a working height; tubes are found twice: as outlines (tall
   connected components of the edge map, grouped by size into rows) and by their sides (in
   each band of image rows crossed by long vertical edges, the comb of one tube width and one
   pitch that explains the strongest side edges; never a finer pitch than the tubes it
   explains show, `_coarser`; an ad banner's bold letters set no bar for those bands: when
   no band holds a row they are found again above the banner, `_over_banner`, and a row
   found there at the rows' pitch, clear of the others and of the banner, is added,
   `_under_letters`), the second kept when it finds more tubes
   and holds every outlined one (when it is not, a comb row the outlines lack, clear of
   their rows, at their pitch, height and centre, is added where the rows stay even:
   `_comb_rows_added`, a row of faint glass or thin outlines the outline map lost); rows
   are in reading order (top row first); a row's pitch
   is the step all its steps are whole multiples of, and its regular spacing (a half or a
   third of the step between its boxes when that is the other rows' pitch, even where its
   boxes, as wide as covers, would all but touch, `_hinted_close`, or, alone, every
   slot between them shows a tube's sides) extrapolates to tubes with faint glass and to
   tubes hidden behind curtains; games centre their rows, leave no hole in a row and stack
   rows at one vertical step, so a row off the centre, a hole between two tubes and a row
   of faint tubes at the next step are taken on fainter evidence (a slot tinting the
   background, weaker side edges, or a liquid at its bottom: liquid sinks, so a tube of
   glass too faint to see shows its lowest unit), and a slot between two tubes that shows
   nothing is kept as an empty tube, doubted (`_plug_holes`); a slot the spacing added whose
   tube walls show just inside it (boxes as wide as covers, narrower glass) is an empty tube,
   doubted, not a ghost the reading drops (`_walls_inside`); of two overlapping outlines
   in a row, the one off the lattice the others stand on is dropped (`_off_pitch_dropped`:
   a ring of the picture beside a tube); the spacing adds no slot beyond every row unless
   it shows both walls and liquid's bands (`_holds_liquid`); one row whose reading breaks the
   invariant is read again with a centred row seen only by liquid sunk to its slots'
   floors, taken when that reading keeps the invariant (`_floor_retry`); a picture
   enlarged or shrunk whose tubes read nothing is read at its own size, and that reading,
   doubted when unsound, is returned rather than an error; a sound reading of such a
   picture with doubts gives way to the one at its own size when that one is sound and
   has none (`_second_look`: two looks at the board); games draw every tube alike, so
   a row whose boxes are shorter than another's grows where its tubes go on (or at the top
   when its liquid rests on its boxes' floors, or starts at a box's very top: games leave a
   headroom, `_row_cut_at_top`; a board's one row so cut rises to the glass top of the tube
   it cut, though the others' faint glass shows none: `_cut_tops`), and a slot read alone
   whose liquid starts at its box's top and ends above its row's floor slides up to that
   floor (`_missed_floors`); a small
   picture (a thumbnail, under `SMALL_PICTURE` px) whose reading has doubts is read once
   more with its JPEG blocks smoothed by a small median at its own size, and that reading
   is taken when it has no doubt and keeps every '?' cell (a median wipes marks out, never
   draws one: `_marks_kept`), and, over a sound first reading, only when it reads another
   board shape than colours (`_reshaped`: smoothing mends boundaries, and colours are truer
   unsmoothed);
2. a colour profile down each tube's centre (per-row median in CIELAB, on a median-filtered
   copy so a '?' mark does not cut its cell) is cut where the colour jumps; segments like the
   empty glass are empty space: the glass is sampled under the rims and, where the
   background changes from tube to tube, fitted as see-through
   (rim = a * background behind + b), unless the fit misses the rim taken for clear glass,
   or explains only rims of one colour and misses a rim showing the picture (`_opaque_fit`):
   rims alike whatever the picture behind are a liquid topping full tubes; a
   top run whose colour follows the picture beside the tube down its length is glass however
   far from that model (`_tracks`: a liquid is flat), unless it steps off the glass above it
   where the picture beside does not (`_steps_off_glass`: glass steps only with the picture,
   a liquid's ends blur toward its neighbours); empty space is only at a tube's top,
   and the outline across its bottom is neither unit nor glass; a run that shows a mark
   far from the glass is no glass drifting with the picture; on a board with covers, a tube
   full of one colour from its box's top, over the headroom a full tube shows as glass, is
   a cover whose icon was missed (`_covers_from_top`), and so is a tube read empty there
   whose middle shows upright stripes (`_striped_empties`: a curtain's folds); a slot the
   spacing added stays covered only when its top's colour is no picture seen through faint
   glass beside it (`_shows_picture`: a cover hides the picture);
3. the unit height is the largest height that makes every liquid segment a whole number of
   units (a reading whose every colour run is an even number, or a multiple of three, of
   units is read again on twice, or three times, the unit: `_twice_unit`; neighbouring runs
   of one colour count as one run where the picture draws no line between a colour's units:
   `_one_colour_runs`; only the runs the reading kept count, not a top run the colour counts
   took for glass: `_read_runs`; a reading that breaks the invariant after every repair gives
   way to the first rival unit, a harmonic of the fitted one, whose reading keeps it, doubted
   when covered tubes leave it unconfirmed: `_weak_rival`; one that leaves
   many boundaries off its grid is read again under each capacity the liquid's heights
   allow, its unit among equally fitting ones the one the liquid's surfaces fit, and the
   whole reading that keeps the counts with every boundary on its grid is taken, one
   leaving a headroom games draw first: `_hypotheses`; one where a bottom run's '?' marks
   counted end off their count on its grid is read again on the fit blind to the counts,
   taken when it leaves no doubt: `_miscounted`);
   a grey run with a mark of other lightness in it is a hidden unit ('?'), cut cell by cell
   on the unit grid when a grey liquid of the same fill rests on it; a mark is looked for
   against the flat copy and, for bold strokes the filter keeps, against the run's own fill,
   after a round bottom's outline is taken out of the window (an arm coming in from the
   sides lower down; a ring round a '?' and its hook stay), and a narrow streak off the
   tube's middle is a glint; grey liquid runs in '?' cells' places (a tube's bottom, or on
   '?' runs) are looked at cell by cell for a mark on the cells' grey between its strokes
   (a bold mark the flattening kept is told by the fill beside it: `_side_fill`;
   `_marked_cells`, `_plain_fill`: a ring round the mark, cut by a round bottom or
   lightening the middle's profile, leaves such a cell apart from its '?' run; a bottom cell
   that only the round bottom's shading brings near the grey stays liquid when the cell
   above it in its run matches it better: `_cell_grey`); a board has symbols on its liquids
   only when several marked runs are coloured (`_symbols`); where the counts break, grey
   runs in '?' cells' places are offered as cells whose marks were missed, also with no '?'
   seen on the board or a grey seen more than `capacity` times (`_unseen_marks`,
   `_surplus_grey`; a grey JPEG noise split in two runs is one stack of cells), and a '?'
   run's top cell whose mark shows a quarter of a unit above the grid's cell stays a '?'
   (`_unmarked_top`); a liquid run whose unit cells are each one colour but differ from cell
   to cell is cut between them (`_split_mixed`: two near colours blurred together), and a
   run of a colour seen more than `capacity` times whose cells were too blurred to be each
   one colour is cut where they step when the invariant then holds, doubted (`_blurred_runs`:
   the counts tell a blurred boundary from a gradient where the cells cannot);
4. unit colours are clustered per image in CIELAB (`colors.cluster_colors`), so close shades
   stay apart while JPEG noise does not split a colour (units shifted off their colours in
   several tubes, which join each other, are dealt back to the colours seen too rarely:
   `colors._refill_short`); a fully visible board must hold every
   colour `capacity` times, otherwise the reading lists the problem and has no level; what the
   picture leaves open (capacity one off the geometry, a rare colour at tube tops that may be
   clear glass, a headroom merged into the top run at the rim: `_rim_glass`) is settled by
   that invariant, never against it (`_choose`); so, with a doubt left on the reading, are
   the run taken for glass over a '?' stack (games show every tube's top unit:
   `_capped_hidden`), a liquid of nearly the glass's colour read as glass (over a picture,
   or under liquid, where glass never shows) and the headroom read as a colour seen too often
   (`_completed`, `_over_glass`; a top unit over tinted glass, held back as the glass
   stepping with the picture, is offered so too: `_held_tops`); a run taken for glass of
   the colour of another tube's top liquid, where the pictures beside the two differ, is
   that liquid (`_alike_tops`: glass seen through changes with the picture), read on the
   tubes' height as the invariant allows (`_liquid_kept`); a reading with more free
   room than three tubes is doubted (`_too_much_room`: games give a level an empty tube or
   two); where covered or hidden
   units leave the counts unable to check it, two colours nearer than a player's eye tells
   apart that fit one colour's count are doubted (`_near_colours`).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import groupby, pairwise
from pathlib import Path

import cv2
import numpy as np

from ..errors import InvalidPuzzleError, ParseError, PuzzleError
from .colors import JOIN_DELTA_E, cluster_colors, color_names, lab_to_rgb, rgb_to_lab
from .level import Level, same_up_to_renaming

WORK_HEIGHT = 800  # pixels: every image is analysed at this height
MIN_SIDE = 24  # smaller images cannot show a board
HIDDEN = "?"


@dataclass(frozen=True)
class ReaderParams:
    """The reader's two tunable thresholds (CIELAB ΔE), the same for every game.

    `jump`: a colour change down a tube that starts a new segment; `join`: unit colours closer
    than this are one colour. The leave-one-game-out score (`leave_one_game_out`) picks them
    from a grid on all games but one and scores the one left out.
    """

    jump: float = 9.0
    join: float = JOIN_DELTA_E


DEFAULT_PARAMS = ReaderParams()


@dataclass(frozen=True, kw_only=True)
class Reading:
    """What `read_screenshot` saw: tubes, capacities, colours, boxes, confidence, level."""

    tubes: list[list[str] | None]
    capacities: list[int]
    palette: dict[str, tuple[int, int, int]]
    boxes: list[tuple[int, int, int, int]]
    confidence: list[list[float] | None]
    level: Level | None
    layout: list[int]
    unit_height: float
    covered: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    size: tuple[int, int] = (0, 0)
    doubtful: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True only when nothing about the reading is doubtful (no problem found)."""
        return not self.problems

    @property
    def capacity(self) -> int:
        """Units per tube (every tube of a board holds the same number)."""
        return self.capacities[0] if self.capacities else 0

    @property
    def n_tubes(self) -> int:
        """Number of tubes found (covered ones included)."""
        return len(self.tubes)

    @property
    def n_hidden(self) -> int:
        """Number of hidden ('?') units."""
        return sum(t.count(HIDDEN) for t in self.tubes if t is not None)

    @property
    def fully_visible(self) -> bool:
        """True when no unit is hidden and no tube covered."""
        return not self.covered and self.n_hidden == 0

    def to_text(self) -> str:
        """One token per tube, bottom to top: names joined by commas, - empty, # covered."""
        out = []
        for t in self.tubes:
            out.append("#" if t is None else (",".join(t) if t else "-"))
        return " ".join(out)


# ---- input ---------------------------------------------------------------------------------
def load_image(path_or_array: object, channels: str = "rgb") -> np.ndarray:
    """An RGB uint8 array (H, W, 3) from a path or an array; PuzzleError for anything else.

    Parameters
    ----------
    path_or_array : str, PathLike or numpy array
        A PNG/JPEG (any format Pillow reads) or an array (H, W), (H, W, 3) or (H, W, 4) of
        uint8, or of floats in [0, 1].
    channels : {"rgb", "bgr"}
        Channel order of an array (files are always decoded correctly).

    Raises
    ------
    PuzzleError
        Not an image, unreadable or truncated file, wrong dtype/shape, NaN values, too small.
    """
    if channels not in ("rgb", "bgr"):
        raise PuzzleError(f"channels must be 'rgb' or 'bgr', not {channels!r}")
    if isinstance(path_or_array, str | bytes | os.PathLike):
        return _read_file(path_or_array)
    if not isinstance(path_or_array, np.ndarray):
        raise PuzzleError(
            f"expected an image path or a numpy array, got {type(path_or_array).__name__}"
        )
    return _from_array(path_or_array, channels)


def _read_file(path: str | bytes | os.PathLike) -> np.ndarray:
    """Decode an image file with Pillow, refusing truncated or non-image files."""
    from PIL import Image, UnidentifiedImageError

    try:
        p = Path(os.fsdecode(path))
    except (TypeError, ValueError) as exc:
        raise PuzzleError(f"not a usable path: {path!r}") from exc
    if not p.is_file():
        raise ParseError(f"no image file at {str(p)!r}")
    try:
        with Image.open(p) as im:
            im.load()
            rgb = np.asarray(im.convert("RGB"), dtype=np.uint8)
    except UnidentifiedImageError as exc:
        raise ParseError(f"{p.name}: not an image Pillow can read (PNG, JPEG, ...)") from exc
    except (OSError, SyntaxError, ValueError) as exc:
        raise ParseError(f"{p.name}: damaged or truncated image ({exc})") from exc
    except Image.DecompressionBombError as exc:
        raise ParseError(f"{p.name}: image too large ({exc})") from exc
    return _check_size(rgb, p.name)


def _from_array(a: np.ndarray, channels: str) -> np.ndarray:
    """Validate and convert an array image to RGB uint8."""
    if a.ndim == 3 and a.shape[2] in (3, 4):
        a = a[:, :, :3]
    elif a.ndim == 2:
        a = np.repeat(a[:, :, None], 3, axis=2)
    else:
        raise PuzzleError(f"image array must be (H, W), (H, W, 3) or (H, W, 4), not {a.shape}")
    if a.dtype == np.uint8:
        rgb = a
    elif np.issubdtype(a.dtype, np.floating):
        if not np.isfinite(a).all():
            raise PuzzleError("image array holds NaN or infinite values")
        if a.size and (a.min() < 0 or a.max() > 1):
            raise PuzzleError("a float image array must hold values in [0, 1]")
        rgb = np.round(a * 255).astype(np.uint8)
    else:
        raise PuzzleError(f"image array must be uint8 (or float in [0, 1]), not {a.dtype}")
    if channels == "bgr":
        rgb = rgb[:, :, ::-1]
    return _check_size(np.ascontiguousarray(rgb), "image array")


def _check_size(rgb: np.ndarray, what: str) -> np.ndarray:
    """Refuse images too small to show a board."""
    if min(rgb.shape[:2]) < MIN_SIDE:
        raise PuzzleError(f"{what} is {rgb.shape[1]}x{rgb.shape[0]}; too small to show tubes")
    return rgb


# ---- tubes ---------------------------------------------------------------------------------
def _edges(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Canny edges of the working image: as found, and dilated (joins broken outlines)."""
    e = cv2.Canny(cv2.GaussianBlur(img, (3, 3), 0), 40, 100)
    return e, cv2.dilate(e, np.ones((3, 3), np.uint8))


def _candidates(edges: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Bounding boxes (x, y, w, h) of tall, narrow edge components: possible tubes."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(edges, connectivity=8)
    height = edges.shape[0]
    out = []
    for x, y, w, h, _area in stats[1:]:
        if h >= 0.05 * height and w >= 6:
            out.append((int(x), int(y), int(w), int(h)))
    return out


def _similar(a: tuple, b: tuple, tol: float = 0.25) -> bool:
    """Two boxes of about the same width and height."""
    return abs(a[2] - b[2]) <= tol * max(a[2], b[2]) and abs(a[3] - b[3]) <= tol * max(a[3], b[3])


def find_tubes(img: np.ndarray) -> list[list[tuple[int, int, int, int]]]:
    """Rows (top first) of tube boxes (x, y, w, h), each row left to right, in `img` pixels."""
    lab = rgb_to_lab(img)
    side = _side_strength(lab)
    rows = _find_rows(img, lab, side)
    if not rows:
        return []
    return [[b for b, _ in row] for row in _assemble(rows, lab, side, [])]


def _find_rows(img: np.ndarray, lab: np.ndarray, side: np.ndarray) -> list[list[tuple]]:
    """Rows of (box, odd) from the two locators: the comb's when it finds at least as many
    separate rows and more tubes (slots the rows' pitch adds included) than the outlines'
    (any number when every outline box was odd: none showed the tubes' size; as many when
    its rows step evenly and the outlines' do not, see `_regular`), holds the
    tubes the outlines found and spaces them alike; and a row of faint tubes at the rows'
    step (see `_more_rows`). The comb's rows are also taken when the outlines' share tubes
    in a way no game does and the comb's, as many tubes or more, do not (see `_even`), or
    when the outlines' rows are stacked as no game stacks them (see `_stacked`: their count
    then means nothing) and the comb's are not. Rows inside an ad banner are neither's (see
    `_banner_top`), nor is a row of faint tubes seen there at the rows' step, nor are
    outlines far smaller than the comb's tubes (see `_details`)."""
    shapes = _shapes(img)
    banner = _banner_top(lab)
    outline = _above(_outline_rows(shapes), banner)
    comb = _above(_comb_rows(lab, side, shapes, banner), banner)
    if _details(outline, comb):
        outline = []
    if not comb or not outline:
        return _above(_more_rows(comb or outline, lab, side), banner)
    rows_ok = _levels(comb) >= _levels(outline)
    matched = any(not odd for row in outline for _, odd in row)  # else no outline told the size
    spaced = [_assemble(found, lab, side, []) for found in (comb, outline)]
    combed, outlined = (sum(map(len, rows)) for rows in spaced)
    more = combed > outlined or not matched or (combed == outlined and _regular(*spaced))
    more = more and rows_ok
    pick = more and _explains(comb, outline) and _same_pitch(comb, outline)
    pick = pick and (_alike(comb) or not _alike(outline))
    rows = _above(_more_rows(comb if pick else outline, lab, side), banner)
    if pick:
        return rows
    rows = _comb_rows_added(rows, comb, lab, side)
    mine = _assemble(rows, lab, side, [])
    stacked = _stacked(mine)
    if _even([len(row) for row in mine]) and stacked:
        return rows
    other = _above(_more_rows(comb, lab, side), banner)
    theirs = _assemble(other, lab, side, [])
    if not (_even([len(row) for row in theirs]) and _stacked(theirs)):
        return rows
    return other if not stacked or sum(map(len, theirs)) >= sum(map(len, mine)) else rows


# of a row's pitch: a row off the centre of the others by more is no row a game centres
ADDED_ROW_CENTRE = 0.25
# of the rows' pitch and box height: a comb row this near both is a row of the same tubes
ADDED_ROW_SIZE = 0.2


def _comb_rows_added(rows: list, comb: list, lab: np.ndarray, side: np.ndarray) -> list:
    """The outlines' `rows` with each comb row that shares no image rows with them, steps at
    their pitch, is about as tall and centred as they are (`ADDED_ROW_SIZE`,
    `ADDED_ROW_CENTRE`), when the rows so stacked share tubes evenly at one step (`_even`,
    `_stacked`): a row of faint glass or thin outlines the outline map lost still shows its
    sides, and games centre every row of one board's tubes at one pitch and height."""
    if not rows or not comb:
        return rows
    pitch = _pitch_hint(rows)
    height = float(np.median([b[3] for row in rows for b, _ in row]))
    centre = float(np.mean([_row_centre(row) for row in rows]))
    out = list(rows)
    for row in comb:
        x, y, w, h = row[0][0]
        if pitch <= 0 or any(_y_overlap((x, y, w, h), other[0][0]) for other in out):
            continue
        near = abs(_pitch(row) - pitch) <= ADDED_ROW_SIZE * pitch
        near &= abs(h - height) <= ADDED_ROW_SIZE * height
        if near and abs(_row_centre(row) - centre) <= ADDED_ROW_CENTRE * pitch:
            out.append(row)
    if len(out) == len(rows):
        return rows
    out.sort(key=lambda row: row[0][0][1])
    filled = _assemble(out, lab, side, [])
    return out if _even([len(row) for row in filled]) and _stacked(filled) else rows


def _row_centre(row: list[tuple]) -> float:
    """The middle column of a row of (box, odd) slots, from its first box's left to its last's
    right."""
    boxes = [b for b, _ in row]
    return (min(b[0] for b in boxes) + max(b[0] + b[2] for b in boxes)) / 2


def _details(outline: list, comb: list, wide: float = 0.5, tall: float = 0.6) -> bool:
    """True when every outline box is under `wide` of the comb's tube width and `tall` of
    its height: outlines of things drawn in or between tubes ('?' marks, an icon, a photo's
    detail), not tubes (a board's tubes share one size, which both locators see)."""
    if not outline or not comb:
        return False
    boxes = [b for row in comb for b, _ in row]
    w, h = np.median([b[2] for b in boxes]), np.median([b[3] for b in boxes])
    return all(b[2] < wide * w and b[3] < tall * h for row in outline for b, _ in row)


def _regular(rows: list, others: list, tol: float = 0.15) -> bool:
    """True when every row of (box, odd) slots in `rows` steps evenly (each step within `tol`
    of the row's median step) and some row of `others` does not: games space a row's tubes
    at one pitch, so slots crowded or spread unevenly stand off their tubes."""

    def even(row: list) -> bool:
        steps = np.diff(sorted(b[0] for b, _ in row))
        step = np.median(steps) if len(steps) else 0.0
        return len(steps) < 2 or bool(np.abs(steps - step).max() <= tol * step)

    return all(map(even, rows)) and not all(map(even, others))


def _banner_top(lab: np.ndarray, reach: float = 0.15, share: float = 0.9) -> int:
    """The image row where a band across the picture's whole width starts in its bottom
    `reach` (an ad banner): the topmost row at which `share` of the columns change colour
    (ΔE over 6 from two rows above to one below); the picture's height when there is none.
    A row of tubes, a photo or a gradient changes in some columns only."""
    height = lab.shape[0]
    for y in range(int((1 - reach) * height), height - 2):
        step = np.linalg.norm(lab[y + 1] - lab[y - 2], axis=1)
        if float((step > 6).mean()) >= share:
            return y
    return height


def _above(rows: list[list[tuple]], top: int) -> list[list[tuple]]:
    """The rows whose boxes stand above image row `top` (their middle): a banner's letters
    found as outlines or sides are no tubes."""
    return [row for row in rows if row and row[0][0][1] + row[0][0][3] / 2 < top]


def _even(layout: list[int]) -> bool:
    """True when rows share tubes as games do: two or more in each, counts at most one apart."""
    return bool(layout) and min(layout) >= 2 and max(layout) - min(layout) <= 1


def _stacked(rows: list[list[tuple]]) -> bool:
    """True when rows of (box, doubtful) slots stand as games stack them: each below the one
    above it, not sharing its image rows, at one vertical step (within 20 %)."""
    spans = [(row[0][0][1], row[0][0][1] + row[0][0][3]) for row in rows if row]
    if any(top < above[1] for above, (top, _) in zip(spans, spans[1:], strict=False)):
        return False
    steps = np.diff([top for top, _ in spans])
    return len(steps) < 2 or bool(np.abs(steps - np.median(steps)).max() <= 0.2 * np.median(steps))


def _more_rows(
    rows: list[list[tuple]], lab: np.ndarray, side: np.ndarray | None = None
) -> list[list[tuple]]:
    """`rows`, with a row more above or below when they stand at one vertical step and a
    centred row of faint tubes is seen at that step (see `_row_at`; there the rows' step
    says where to look, so a slot whose walls show in `side` counts too: not so for one row,
    where every top is tried and a photo's edges line up somewhere)."""
    if len(rows) == 1 and len(rows[0]) >= 2:
        return _second_row(rows, lab, side)
    if len(rows) < 2:
        return rows
    tops = [row[0][0][1] for row in rows]
    steps = np.diff(tops)
    step = float(np.median(steps))
    pitch = _pitch_hint(rows)
    if step <= 0 or pitch <= 0 or np.abs(steps - step).max() > 0.1 * step:
        return rows
    size = (rows[-1][0][0][2], rows[-1][0][0][3])
    most = max(len(row) for row in rows)
    above = _row_at(lab, round(tops[0] - step), size, pitch, most, side)
    below = _row_at(lab, round(tops[-1] + step), size, pitch, most, side)
    return [r for r in [above, *rows, below] if r]


def _second_row(
    rows: list[list[tuple]], lab: np.ndarray, side: np.ndarray | None = None
) -> list[list[tuple]]:
    """One row, with a row of faint tubes of its size and pitch (see `_row_at`) above or
    below it when one is seen: with no second row found there is no step between rows to
    look at, so every top clear of the row is tried. A row of glass is seen over a run of
    tops (a slot a little off still shows it); the run's middle is taken, and a run of
    fewer than three steps (a detail of the picture) is none. The second row may hold one
    tube more than the row found (games share tubes evenly, and the row found may lack a
    tube its spacing adds later): capped at the row's count, a row of three drawn under a
    row of two found takes the two slots centred between its tubes, whose sides (the
    tubes) set the background between them apart like glass. Given the side strength
    `side`, the row's pitch is that of the row its spacing fills (`_assemble`: two tubes
    found apart span the board's pitch twice), and a second row holds at least one tube
    fewer than that row (a few slots lining up on a picture's details are no row); the
    count looked for stays the found row's (a row of more, looked for at once, stands a
    little off the tubes the spacing fills in later)."""
    row = rows[0]
    x, y, w, h = row[0][0]
    filled = _assemble(rows, lab, side, [])[0] if side is not None else row
    pitch, most = _pitch_hint([filled]), len(row) + 1
    step = max(1, h // 24)
    clear = _tops_clear(lab, y, h, step)
    found = [(t, _row_at(lab, t, (w, h), pitch, most)) for t in clear]
    best: list[tuple] = []
    for n in range(most, max(1, len(filled) - 2), -1):  # rows differ by one tube at most
        tops = [t for t, got in found if len(got) == n]
        runs = _runs(np.isin(np.array(clear), tops)) if tops else []
        runs = [(a, b) for a, b in runs if b - a >= 3]
        if runs:
            a, b = max(runs, key=lambda r: r[1] - r[0])
            best = _row_at(lab, clear[(a + b - 1) // 2], (w, h), pitch, n)
            break
    if best and _glass_between(lab, row, best, pitch):
        return rows
    return sorted([row, best], key=lambda r: r[0][0][1]) if best else rows


JOIN_ROWS = 3  # image rows: a gap between two rows this thin shows too little to judge


def _glass_between(lab: np.ndarray, row: list[tuple], other: list[tuple], pitch: float) -> bool:
    """True when every slot of the row `other` that stands over or under a tube of `row`
    shows glass (set apart from the picture beside it: `_set_apart`) across the gap between
    the two rows too: the found tubes' own glass running on past their boxes (a box fitted
    to the liquid misses a faint top), not a second row; games leave the background showing
    between two rows."""
    (_, y, _, h), (_, t, _, _) = row[0][0], other[0][0]
    lo, hi = (t + h, y) if t < y else (y + h, t)
    if hi - lo < JOIN_ROWS:
        return False
    pairs = [(b, a) for b, _ in other for a, _ in row if _x_overlap(a, b) >= 0.5 * min(a[2], b[2])]
    gap = [(b[0], lo, b[2], hi - lo) for b, _ in pairs]
    return bool(gap) and all(_set_apart(lab, g, pitch, (0, g[3]), 2.5) for g in gap)


def _tops_clear(lab: np.ndarray, y: int, h: int, step: int) -> list[int]:
    """Tops, `step` rows apart, of boxes `h` tall in the picture clear of a row at `y`."""
    return [t for t in range(0, lab.shape[0] - h, step) if t >= y + 1.1 * h or t <= y - 1.1 * h]


def _row_at(
    lab: np.ndarray, top: int, size: tuple, pitch: float, most: int, side=None, margin=0.02
) -> list[tuple]:
    """Doubtful (box, True) slots of the longest row of two to `most` tubes of `size`, spaced
    at `pitch` and centred in the picture (as games centre rows), whose every slot shows faint
    glass (`_tinted`) at image rows from `top`, or, given the side strength `side`, edges at
    both walls (`_sided`: an outlined empty tube, or glass over a photo that changes across
    it) when the row stands clear of the picture's edges by `margin` of its height (games
    keep rows inside the play area; edges at the picture's bottom are an ad banner's
    letters); [] when there is none (one slot alone that differs from the background beside
    it may be a photo's detail)."""
    w, h = size
    if top < 0 or top + h > lab.shape[0]:
        return []
    clear = margin * lab.shape[0]
    inside = clear <= top and top + h <= lab.shape[0] - clear
    prof = side[top + h // 6 : top + h - h // 6].mean(axis=0) if side is not None else None
    prof = prof if inside else None
    for n in range(most, 1, -1):
        xs = [round(lab.shape[1] / 2 + (j - (n - 1) / 2) * pitch - w / 2) for j in range(n)]
        boxes = [(x, top, w, h) for x in xs]
        if all(_slot_seen(lab, b, pitch, prof) for b in boxes):
            return [(b, True) for b in boxes]
    return []


def _slot_seen(lab: np.ndarray, box: tuple, pitch: float, prof: np.ndarray | None) -> bool:
    """True when a slot of a row looked for shows a tube: faint glass (`_tinted`), walls in
    the side profile `prof` (`_sided`), or a liquid at its floor (`_liquid_floor`: liquid
    sinks, so a tube holding any shows it at its bottom, however its glass blends into a
    photo that changes across it)."""
    if _tinted(lab, box, pitch) or (prof is not None and _sided(prof, box)):
        return True
    return _liquid_floor(lab, box, pitch)


def _same_pitch(rows: list, others: list) -> bool:
    """True when every row of `others` with two or more well-matched boxes is spaced like the
    row of `rows` beside it (within 10 %): the comb did not take gaps for tubes. A row with
    one step between well-matched boxes is spaced like the other rows of `others` when its
    step is a whole number of theirs (that one step may span several tubes)."""
    for k, row in enumerate(others):
        good = [b for b, odd in row if not odd]
        if len(good) < 2:
            continue
        mate = [r for r in rows if _y_overlap(r[0][0], good[0]) and len(r) > 1]
        step = _pitch(mate[0]) if mate else 0.0  # the pitch its slots are filled at
        pitch = _pitch(row)
        hint = _pitch_hint(others[:k] + others[k + 1 :]) if len(good) == 2 else 0.0
        if hint:
            pitch = _common_step(np.array([pitch, hint])) or pitch
        spans = not hint and _spans(pitch, step, mate[0], good)  # other rows' pitch rules
        if mate and abs(step - pitch) > 0.1 * pitch and not spans:
            return False
    return True


def _alike(rows: list, most: float = 1.6) -> bool:
    """True when the rows of two or more slots are spaced alike (pitches under `most` times
    apart, as `_unlike_pitches` judges a reading): games space every row of a board alike, so
    a row at a half or a double pitch counted gaps as tubes or missed every other tube."""
    pitches = [_pitch(row) for row in rows if len(row) > 1]
    return not pitches or max(pitches) < most * min(pitches)


def _spans(pitch: float, step: float, mate: list, good: list) -> bool:
    """True when the one step between two well-matched boxes (`good`, `pitch` apart) is two
    or three of the comb's `step` in its row `mate`, whose tubes leave gaps (step at least
    1.3 box widths: a comb that took gaps for tubes has its boxes all but touch): the two
    boxes found are not neighbours, the comb saw the tubes between. Every step of the comb's
    row must be its `step` (within 15 %): a comb row of uneven steps has no one pitch."""
    if len(good) != 2 or step <= 0 or step < 1.3 * mate[0][0][2]:
        return False
    steps = np.diff(sorted(b[0] for b, _ in mate))
    if np.abs(steps - step).max() > 0.15 * step:
        return False
    k = pitch / step
    return round(k) in (2, 3) and abs(k - round(k)) <= 0.1 * round(k)


def _levels(rows: list) -> int:
    """Number of rows that do not share image rows with another (overlapping rows are one)."""
    spans = sorted((row[0][0][1], row[0][0][1] + row[0][0][3]) for row in rows)
    return sum(1 for k, (top, _) in enumerate(spans) if k == 0 or top >= spans[k - 1][1])


def _explains(rows: list, others: list) -> bool:
    """True when boxes of `rows` cover at least 80 % of the well-matched boxes of `others`."""
    boxes = [b for row in rows for b, _ in row]
    theirs = [b for row in others for b, odd in row if not odd]
    hits = sum(
        any(
            _x_overlap(a, b) >= 0.6 * min(a[2], b[2])
            and min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) >= 0.6 * min(a[3], b[3])
            for b in boxes
        )
        for a in theirs
    )
    return hits >= 0.8 * len(theirs)


def _assemble(rows: list[list[tuple]], lab: np.ndarray, side: np.ndarray, gaps: list) -> list:
    """Every row's (box, doubtful) slots, filled at its pitch (see `_fill_row`), within the
    span the other rows reach once filled (see `_span`)."""
    bg = _background(lab, rows)
    hints = [_pitch_hint(rows[:r] + rows[r + 1 :]) for r in range(len(rows))]  # the others'
    first = [
        _fill_row(row, lab.shape[1], lab, bg, [], r, side, hints[r]) for r, row in enumerate(rows)
    ]
    spans = [_span(row, more) for row, more in zip(rows, first, strict=True)]
    out = []
    for r, row in enumerate(rows):
        others = [span for k, span in enumerate(spans) if k != r] or [(0, lab.shape[1])]
        reach = (min(a for a, _ in others), max(b for _, b in others))
        out.append(_fill_row(row, lab.shape[1], lab, bg, gaps, r, side, hints[r], reach))
    return out


def _span(row: list[tuple], filled: list[tuple]) -> tuple[int, int]:
    """Columns a row covers: its boxes and the slots its spacing added that are no doubt
    tubes (a slot that only differs from the background, as a photo may, widens no row)."""
    boxes = [b for b, _ in row] + [b for b, doubtful in filled if not doubtful]
    return min(b[0] for b in boxes), max(b[0] + b[2] for b in boxes)


def _inside(box: tuple, own: tuple, others: tuple) -> bool:
    """True when a slot lies within its row's found tubes or within the other rows' span: the
    rows' spacing adds no tube beyond every row (a photo beside a short row is no tube)."""
    x, _, w, _ = box
    tol = 0.25 * w
    lo, hi = min(own[0], others[0]) - tol, max(own[1], others[1]) + tol
    return lo <= x and x + w <= hi


def _shapes(img: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes of tall edge components (outlines, covers) in the raw and the dilated edge map."""
    # dilated edges join an outline broken by JPEG or a thin stroke; raw edges keep an outline
    # apart from background doodles that dilation would weld onto it
    raw, dilated = _edges(img)
    return _candidates(dilated) + _candidates(raw)


def _outline_rows(shapes: list[tuple]) -> list[list[tuple[tuple[int, int, int, int], bool]]]:
    """Rows of (box, odd) from tube outlines (tall edge components of one size); odd boxes
    did not match their row's size and were snapped to it."""
    boxes = [b for b in shapes if 1.8 <= b[3] / b[2] <= 9]
    if not boxes:
        return []
    support = [sum(_similar(a, b) for b in boxes) for a in boxes]
    best = boxes[int(np.argmax(support))]
    if max(support) < 2:
        return []
    tubes = [b for b in boxes if _similar(b, best)]
    tubes = _drop_nested(tubes)
    rows: list[list[tuple[int, int, int, int]]] = []
    for b in sorted(tubes, key=lambda b: b[1] + b[3]):
        bottom = b[1] + b[3]
        for row in rows:
            rb = np.median([r[1] + r[3] for r in row])
            if abs(bottom - rb) < 0.3 * b[3]:
                row.append(b)
                break
        else:
            rows.append([b])
    rows = sorted(rows, key=lambda r: np.median([b[1] for b in r]))
    return [_off_pitch_dropped(_align(sorted(r), shapes)) for r in rows]


# of the pitch: a box of two overlapping ones stands on its row's lattice when within NEAR of
# a lattice place (a snapped odd box sits up to a tenth off), and off it when FAR or more
# from every place (a detail beside a tube sits a quarter or more off; overlapping tubes
# stand under half a width apart, so one of them is always off by a fifth of a pitch)
ON_LATTICE_NEAR = 0.15
ON_LATTICE_FAR = 0.2


def _off_pitch_dropped(row: list[tuple]) -> list[tuple]:
    """A row of (box, odd) outlines, left to right, without the box of each overlapping
    neighbouring pair (more than `OVERLAP` of a width) that stands off the lattice the
    row's other boxes are spaced on while the other stands on it (see `_lattice_offset`):
    games never draw one tube over another, so the outline off the tubes' one pitch is a
    detail of the picture (a ring of a photo, a bubble) drawn beside a tube. A pair neither
    or both of which fit stays (the reading then doubts the overlap)."""
    k = 0
    while k + 1 < len(row):
        (a, _), (b, _) = row[k], row[k + 1]
        if a[0] + a[2] - b[0] <= OVERLAP * min(a[2], b[2]):
            k += 1
            continue
        rest = [x for j, ((x, *_), _) in enumerate(row) if j not in (k, k + 1)]
        offs = [_lattice_offset(rest, box[0]) for box in (a, b)]
        near, far = min(offs), max(offs)
        if near > ON_LATTICE_NEAR or far < ON_LATTICE_FAR:
            k += 1
            continue
        row = row[:k] + row[k + 1 :] if offs[0] == far else row[: k + 1] + row[k + 2 :]
    return row


def _lattice_offset(xs: list[int], x: int) -> float:
    """How far (in pitches, 0 to 0.5) column `x` stands from the nearest place of the lattice
    the columns `xs` are spaced on (their common step, see `_common_step`, and the phase
    that fits them best); 0.5 (no place) when `xs` has no common step of two or more."""
    if len(xs) < 3:
        return 0.5
    xs = sorted(xs)
    pitch = _common_step(np.diff(xs).astype(float))
    if pitch <= 0:
        return 0.5
    n = np.round((np.array(xs) - xs[0]) / pitch)
    x0 = float(np.mean(np.array(xs) - n * pitch))
    r = (x - x0) / pitch
    return float(abs(r - round(r)))


def _under_cover(b: tuple, row: list[tuple], shapes: list[tuple]) -> bool:
    """True when a wider shape of about the tube's height holds the box and no other tube
    (a curtain, a banner; not edges welded across neighbours, nor a panel behind the row)."""
    x, y, w, h = b
    for cx, cy, cw, ch in shapes:
        inside = cx <= x + 1 and cx + cw >= x + w - 1
        if not (inside and cw >= 1.15 * w and 0.8 * h <= ch <= 1.2 * h):
            continue
        held = sum(cx <= r[0] + 1 and cx + cw >= r[0] + r[2] - 1 for r in row)
        if cy <= y + 0.2 * h and cy + ch >= y + 0.8 * h and held == 1:
            return True
    return False


def _align(row: list[tuple], shapes: list[tuple]) -> list[tuple[tuple, bool]]:
    """Snap boxes to the row's usual top, bottom and width; (box, odd) per box.

    A box taller than the row (a cork, a lid, background art touching the outline) or of
    another width (a curtain, a banner) is centred where it was, given the row's size and
    marked odd, so it is read like a slot found from the row's spacing.
    """
    top = int(np.median([b[1] for b in row]))
    bottom = int(np.median([b[1] + b[3] for b in row]))
    width = int(np.median([b[2] for b in row]))
    out = []
    for x, y, w, h in row:
        odd = abs(w - width) > 0.1 * width or abs(y + h - bottom) > 0.04 * (bottom - top)
        odd = odd or _under_cover((x, y, w, h), row, shapes)
        if odd:
            x = round(x + w / 2 - width / 2)
        out.append(((max(0, x), top, width, bottom - top), odd))
    return out


def _drop_nested(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Remove boxes that overlap a bigger one horizontally by more than half."""
    keep = []
    for b in sorted(boxes, key=lambda b: -b[2] * b[3]):
        if all(_x_overlap(b, k) < 0.5 * min(b[2], k[2]) or not _y_overlap(b, k) for k in keep):
            keep.append(b)
    return keep


def _x_overlap(a: tuple, b: tuple) -> int:
    """Horizontal overlap of two boxes in pixels."""
    return max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))


def _y_overlap(a: tuple, b: tuple) -> bool:
    """True when two boxes share rows."""
    return min(a[1] + a[3], b[1] + b[3]) > max(a[1], b[1])


def _fill_row(
    row: list[tuple],
    width: int,
    lab: np.ndarray,
    bg: np.ndarray,
    gaps: list,
    r: int = 0,
    side: np.ndarray | None = None,
    pitch_hint: float = 0.0,
    reach: tuple = (0, 1 << 30),
) -> list:
    """(box, doubtful) slots of a row: its boxes, plus slots where the row's regular spacing
    says a tube stands but none was found: a tube when both its sides show edges in `side`,
    doubtful when it differs from the background, or, between two tubes of the row, when it
    is faint glass (`_tinted` down to `HOLE_TINT`: games leave no hole in a row). A slot
    between two tubes that looks like background is appended to `gaps` as (row, x).
    `pitch_hint` is the other rows' spacing: a one-tube row spaces at it, and a finer pitch
    (see `_finer`) must match it. No slot is added beyond both the row's tubes and `reach`,
    the other rows' span (a photo beside a short row is no tube)."""
    slots = [(b, odd) for b, odd in row]
    pitch = _pitch(row) if len(row) > 1 else pitch_hint
    if pitch <= 0:
        return slots
    good = [b for b, odd in row if not odd] or [b for b, _ in row]
    xs = [b[0] for b, _ in row]
    _, y, w, h = good[0]
    prof = None if side is None else _side_profile(side, y, h)
    pitch = _finer(row, pitch, (y, w, h), lab, prof, pitch_hint)
    filled = []  # gaps inside the row
    for (a, _), (b, _) in zip(row, row[1:], strict=False):
        k = round((b[0] - a[0]) / pitch)
        filled += [(round(a[0] + j * pitch), y, w, h) for j in range(1, k)]
    x = xs[0] - pitch
    while x >= 0:
        filled.append((round(x), y, w, h))
        x -= pitch
    x = xs[-1] + pitch
    while x + w <= width:
        filled.append((round(x), y, w, h))
        x += pitch
    own = (xs[0], xs[-1] + w)
    filled = [b for b in filled if _inside(b, own, reach) or _holds_liquid(lab, prof, b)]
    added, missed = set(), []
    for b in filled:
        if prof is not None and _sided(prof, b):
            slots.append((b, False))
        elif _stands_out(lab, b, pitch, bg):
            slots.append((b, True))
        else:
            missed.append(b)
            continue
        added.add(b)
    lo, hi = min(b[0] for b, _ in slots), max(b[0] for b, _ in slots)
    for b in missed:  # a slot between two tubes: games leave no hole in a row
        faint = prof is not None and _sided(prof, b, 2.0, _inner_walls)  # fainter sides
        tint = _tinted(lab, b, pitch, HOLE_TINT)
        if lo < b[0] < hi and (faint or tint or _liquid_floor(lab, b, pitch)):
            slots.append((b, True))
            added.add(b)
        elif lo < b[0] < hi:
            gaps.append((r, b[0]))
    return _centre(sorted(slots, key=lambda s: s[0][0]), added, pitch, lab, gaps, r, prof)


HELD_CHANGES = 6  # image rows down a slot's middle with a colour jump: liquid (see `_gaps_taken`)


def _holds_liquid(lab: np.ndarray, prof: np.ndarray | None, box: tuple) -> bool:
    """True when a slot shows both walls of a tube in the row's side profile `prof` (see
    `_sided`) and the colour changes of liquid units down its middle (`_changes`): a tube
    standing beyond the other rows' span (rows of a board need not be alike: a longer row's
    end tubes may be missed with their outline), where a photo beside a short row, however
    busy, shows no pair of walls at the row's pitch around colour bands."""
    return prof is not None and _sided(prof, box) and _changes(lab, box) >= HELD_CHANGES


def _finer(
    row: list[tuple], pitch: float, shape: tuple, lab: np.ndarray, prof, hint: float = 0.0
) -> float:
    """The row's pitch, or a third or half of it when the boxes found are every third or
    second tube: the steps between boxes are whole numbers of the finer pitch, its tubes
    leave gaps of 0.3 widths or more, and it is the other rows' pitch (`hint`: the rows of a
    board share one) or, with no other row, every slot it puts between two found boxes shows
    both sides of a tube (edges where its walls would be; a gap between widely spaced tubes
    shows none)."""
    y, w, h = shape
    xs = sorted(b[0] for b, _ in row)
    for k in (3, 2):
        p = pitch / k
        if hint and abs(p - hint) > 0.1 * hint:  # other rows space their tubes otherwise
            continue
        if p < 1.3 * w and not _hinted_close(p, hint):  # finer tubes would all but touch:
            continue  # their walls are the found ones
        steps = np.diff(xs) / p
        if len(steps) == 0 or np.abs(steps - np.round(steps)).max() > 0.2:
            continue
        mids = [
            (round(a + j * (b - a) / n), y, w, h)
            for a, b, n in zip(xs, xs[1:], np.round(steps).astype(int), strict=False)
            for j in range(1, n)
        ]
        if hint or (mids and prof is not None and all(_sided(prof, m) for m in mids)):
            return p
    return pitch


def _hinted_close(pitch: float, hint: float) -> bool:
    """True when a finer `pitch` whose tubes would all but touch is the other rows' (`hint`,
    within 10 %, as `_finer` matches it): those rows show tubes that close, and boxes as wide
    as covers (drawn wider than the glass) make a board's own pitch look too fine."""
    return bool(hint) and abs(pitch - hint) <= 0.1 * hint


def _centre(
    slots: list, added: set, pitch: float, lab: np.ndarray, gaps: list, r: int, prof=None
) -> list:
    """A row's slots, more or one fewer when it sits half a pitch or a whole number of half
    pitches off the picture's centre (games centre their rows): faint empty tubes at the
    short end, one by one while they differ a little from the background (`HOLE_TINT`: the
    centring put them there) or show both walls
    in the row's side profile `prof` (as faint as a hole's: see `_fill_row`), else the slot
    the spacing added at the long end (half a pitch off); else the short end's next slot goes
    to `gaps` as (row, x)."""
    if not slots:
        return slots
    while True:
        first, last = slots[0][0], slots[-1][0]
        off = ((first[0] + last[0] + last[2]) / 2 - lab.shape[1] / 2) / pitch
        if abs(off) < 0.35 or abs(abs(off) - round(2 * abs(off)) / 2) > 0.15:
            return slots
        x, y, w, h = last if off < 0 else first
        b = (round(x - np.sign(off) * pitch), y, w, h)
        walls = prof is not None and _sided(prof, b, 2.0, _inner_walls)
        seen = _stands_out(lab, b, pitch, None, 4.0) or _tinted(lab, b, pitch, HOLE_TINT)
        seen = seen or _off_gradient(lab, b, pitch)
        if not (walls or seen or _liquid_floor(lab, b, pitch)):
            break
        slots = sorted(slots + [(b, False)], key=lambda s: s[0][0])
    end = slots[0] if off < 0 else slots[-1]
    if abs(off) < 0.65 and end[0] in added:
        return [s for s in slots if s is not end]
    if 0 <= b[0] and b[0] + w <= lab.shape[1]:
        gaps.append((r, b[0]))
    return slots


GRADIENT_TINT = 2.0  # ΔE: glass tints a background this much at least (as `_tinted_rows`)


def _off_gradient(lab: np.ndarray, box: tuple, pitch: float) -> bool:
    """True when a slot's middle half (rows as `_tinted`) differs from the mean of the
    picture at its two sides by more than the sides differ (and `GRADIENT_TINT`): faint
    glass over a gradient, whose colour runs evenly across the slot from side to side, so
    that what lies between the sides lies near their mean; a tint off that mean is the
    glass's, however much the sides differ."""
    _, _, _, h = box
    beside = _middle_and_sides(lab, box, pitch, (h // 4, h - h // 8))
    if beside is None:
        return False
    inner, left, right = beside
    tint = np.linalg.norm(inner - (left + right) / 2)
    return bool(tint > max(GRADIENT_TINT, np.linalg.norm(left - right)))


def _pitch(row: list[tuple]) -> float:
    """A row's tube spacing: the one every step between its boxes is a whole multiple of
    (see `_common_step`); failing that, the median step between its well-matched boxes, each
    divided by the number of tubes it spans (judged by the steps between all boxes)."""
    every = np.diff(sorted(b[0] for b, _ in row))
    common = _common_step(every, 1.1 * float(np.median([b[2] for b, _ in row])))
    if common > 0:
        return common
    good = [b for b, odd in row if not odd] or [b for b, _ in row]
    steps = np.diff(sorted(b[0] for b in good))
    base = float(np.median(every)) if len(every) else 0.0
    if not len(steps) or base <= 0:
        return base
    pitch = float(np.median(steps / np.maximum(1, np.round(steps / base))))
    return pitch if pitch > 0 else base


def _common_step(steps: np.ndarray, least: float = 0.0, tol: float = 0.2) -> float:
    """The largest spacing of which every step is a whole multiple (within `tol` of one), as
    the steps' total over the tubes they span; 0 when no step divided by 1 to 4, and at
    least `least` (tubes do not touch), is one.

    Tubes stand at one pitch, so a row's steps share it even when a median of a few steps
    would not (steps of one and two tubes) or a box is a little off (an odd, snapped box)."""
    cands = {float(s) / k for s in steps for k in range(1, 5) if s / k >= max(least, 1e-9)}
    for p in sorted(cands, reverse=True):
        ratio = steps / p
        spans = np.round(ratio)
        if (spans >= 1).all() and (np.abs(ratio - spans) <= tol).all():
            return float(steps.sum() / spans.sum())
    return 0.0


def _pitch_hint(rows: list[list[tuple]]) -> float:
    """The spacing of the rows that show it, for rows of one tube: the pitch every row's is
    a whole multiple of, the smallest (a row whose found boxes are every other tube spans
    two of the board's one pitch); else their median."""
    pitches = [_pitch(row) for row in rows if len(row) > 1]
    if not pitches:
        return 0.0
    common = _common_step(np.array(pitches), 0.9 * min(pitches))
    return common or float(np.median(pitches))


def _side_profile(side: np.ndarray, y: int, h: int) -> np.ndarray:
    """Mean side-edge strength per column over the middle two thirds of rows y to y + h:
    a row's tubes' walls without their rims and bottoms."""
    return side[y + h // 6 : y + h - h // 6].mean(axis=0)


def _sided(prof: np.ndarray, box: tuple, above: float = 3.0, walls=None) -> bool:
    """True when both sides of `box` show edges in a row's side profile, `above` times its
    typical (median) strength: a tube with faint glass and no outline. `walls` measures the
    edges (`_walls` unless given)."""
    base = max(1.0, above * float(np.median(prof)))
    return (walls or _walls)(prof, box) > base


def _inner_walls(prof: np.ndarray, box: tuple, reach: float = 0.25) -> float:
    """The weaker of the strongest side edges at a box's walls or up to `reach` of its width
    inside them (0 for a box off the picture): a row's boxes puffed by JPEG halos or a thick
    outline's blur (its width taken from them) hold a tube's walls inside them."""
    x, _, w, _ = box
    if x < 0 or x + w + 2 > len(prof):
        return 0.0
    r = max(3, int(reach * w))
    return float(min(prof[max(0, x - 2) : x + r].max(), prof[x + w - r : x + w + 2].max()))


def _walls(prof: np.ndarray, box: tuple) -> float:
    """The weaker of the two side edges at a box's walls in a row's side profile (0 for a
    box off the picture)."""
    x, _, w, _ = box
    if x < 0 or x + w + 2 > len(prof):
        return 0.0
    return float(min(prof[max(0, x - 2) : x + 3].max(), prof[x + w - 3 : x + w + 2].max()))


def _stands_out(
    lab: np.ndarray, box: tuple, pitch: float, bg: np.ndarray | None, tol: float = 14.0
) -> bool:
    """True when a slot's inside differs (median ΔE over `tol`) from the background beside it
    (a gradient or a photo changes across the picture, so the comparison is with the gaps at
    its sides; `bg` stands in when there are none)."""
    x, y, w, h = box
    if x < 0 or x + w > lab.shape[1] or y < 0 or y + h > lab.shape[0]:
        return False
    inner = lab[y + h // 4 : y + h - h // 8, x + w // 4 : x + w - w // 4].reshape(-1, 3)
    gap = max(1, int((pitch - w) / 2))
    sides = [
        lab[y + h // 4 : y + h - h // 8, max(0, x - gap) : max(0, x - gap // 3)],
        lab[y + h // 4 : y + h - h // 8, x + w + gap // 3 : x + w + gap],
    ]
    pixels = [p.reshape(-1, 3) for p in sides if p.size]
    if not pixels and bg is None:
        return False
    local = np.median(np.concatenate(pixels or [bg[None]]), axis=0)
    return bool(inner.size) and float(np.median(np.linalg.norm(inner - local, axis=1))) > tol


# ΔE: a slot the row's spacing or centring puts between or beside its tubes is glass when it
# tints the background this much (medians of many pixels: JPEG noise leaves a flat background
# within a few tenths); faint glass drawn over a flat colour tints it by 1.3 to 2 on boards
# whose empty tube was missed at the general 2.5
HOLE_TINT = 1.0


def _tinted(lab: np.ndarray, box: tuple, pitch: float, tol: float = 2.5) -> bool:
    """True when a slot's inside differs (ΔE of medians over `tol`) from the background at
    each of its sides by more than twice as much as the two sides differ: faint glass tinting
    the background, not a background that changes across the slot."""
    h = box[3]
    return _set_apart(lab, box, pitch, (h // 4, h - h // 8), tol)


FLOOR_BAND = (0.78, 0.94)  # of a box's height: a tube's lowest unit, above its bottom outline
FLOOR_TOL = 14.0  # ΔE: a liquid differs this much from the background (as `_stands_out`)


def _liquid_floor(lab: np.ndarray, box: tuple, pitch: float, tol: float = FLOOR_TOL) -> bool:
    """True when a slot's lowest band (`FLOOR_BAND`) differs (ΔE of medians over `tol`) from
    the background at each of its sides, by more than twice as much as the two sides differ:
    a liquid resting in a tube whose glass is too faint to see (liquid sinks, so a tube with
    any shows it at its bottom; a background that changes across the slot differs at its
    sides too)."""
    h = box[3]
    band = (round(FLOOR_BAND[0] * h), round(FLOOR_BAND[1] * h))
    return _set_apart(lab, box, pitch, band, tol)


def _set_apart(lab: np.ndarray, box: tuple, pitch: float, band: tuple, tol: float) -> bool:
    """True when the middle half of a slot, in rows `band` (from its top), differs (ΔE of
    medians over `tol`) from the picture beside it at each side, by more than twice as much
    as the two sides differ (a background changing across the slot differs at its sides)."""
    beside = _middle_and_sides(lab, box, pitch, band)
    if beside is None:
        return False
    inner, left, right = beside
    near = min(np.linalg.norm(inner - left), np.linalg.norm(inner - right))
    return bool(near > tol and near > 2 * np.linalg.norm(left - right))


def _middle_and_sides(lab: np.ndarray, box: tuple, pitch: float, band: tuple) -> tuple | None:
    """Median colours of a slot's middle half and of the picture beside it at each side (in
    the gap to the next slot at `pitch`), rows `band` from its top; None for a slot off the
    picture or with no picture beside it."""
    x, y, w, h = box
    if x < 0 or x + w > lab.shape[1] or y < 0 or y + h > lab.shape[0]:
        return None
    rows = slice(y + band[0], y + band[1])
    gap = max(1, int((pitch - w) / 2))
    parts = [
        lab[rows, x + w // 4 : x + w - w // 4],
        lab[rows, max(0, x - gap) : max(0, x - gap // 3)],
        lab[rows, x + w + gap // 3 : x + w + gap],
    ]
    if any(p.size == 0 for p in parts):
        return None
    return tuple(np.median(p.reshape(-1, 3), axis=0) for p in parts)


def _background(lab: np.ndarray, rows: list[list[tuple]]) -> np.ndarray:
    """Median colour of the gaps between tubes (the local background)."""
    samples = []
    for row in rows:
        boxes = [b for b, _ in row]
        for a, b in zip(boxes, boxes[1:], strict=False):
            x0, x1 = a[0] + a[2] + 1, b[0] - 1
            if x1 > x0:
                y0, y1 = a[1] + a[3] // 4, a[1] + 3 * a[3] // 4
                samples.append(lab[y0:y1, x0:x1].reshape(-1, 3))
    if not samples:
        return np.median(lab.reshape(-1, 3), axis=0)
    return np.median(np.concatenate(samples), axis=0)


# ---- tubes by their sides (the comb) -------------------------------------------------------
# A tube, outlined or drawn only as a tint of the background, has two long vertical sides;
# the tubes of a row share one width, height and pitch. Rows are the bands of image rows that
# many long vertical edges cross; in a band the comb (width, pitch, phase) that explains the
# strongest side peaks and leaves the fewest unexplained gives the tubes.
SIDE_ROWS = 15  # rows a side's horizontal colour change is averaged over (800-pixel image)
MAX_PEAKS = 40  # strongest side peaks a band's comb is fitted to
MAX_WIDTHS = 8  # tube widths a band's comb is tried at


def _side_strength(lab: np.ndarray) -> np.ndarray:
    """Horizontal colour change (ΔE over 2 pixels) averaged down `SIDE_ROWS` rows: tube sides."""
    g = cv2.GaussianBlur(lab.astype(np.float32), (0, 0), 1.0)
    dx = np.zeros_like(g)
    dx[:, 1:-1] = g[:, 2:] - g[:, :-2]
    dx = cv2.blur(dx, (1, SIDE_ROWS))
    return np.sqrt((dx**2).sum(axis=2)).astype(np.float32)


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of every run of True in a 1-D mask, end exclusive."""
    m = np.concatenate([[False], mask, [False]]).astype(np.int8)
    d = np.flatnonzero(np.diff(m))
    return list(zip(d[::2].tolist(), d[1::2].tolist(), strict=True))


def _long_sides(side: np.ndarray, min_h: int) -> np.ndarray:
    """Side strength kept only on vertical ridges above the noise and `min_h` rows long."""
    tau = max(1.2, 3.0 * float(np.median(side)))
    ridge = (side >= cv2.dilate(side, np.ones((1, 7), np.uint8))) & (side > tau)
    mask = cv2.dilate(ridge.astype(np.uint8), np.ones((1, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((min_h, 1), np.uint8))
    return mask * side


def _bands(long: np.ndarray, min_h: int) -> list[tuple[int, int]]:
    """(top, bottom) of the bands of image rows that long vertical edges cross most."""
    per_row = np.convolve(long.sum(axis=1), np.ones(5) / 5, mode="same")
    return [(a, b) for a, b in _runs(per_row >= 0.15 * per_row.max()) if b - a >= min_h]


def _peaks(profile: np.ndarray) -> np.ndarray:
    """Columns where a band's side profile peaks (the `MAX_PEAKS` strongest)."""
    p = np.convolve(profile, [0.25, 0.5, 0.25], mode="same").astype(np.float32)
    top = cv2.dilate(p[None, :], np.ones((1, 5), np.uint8))[0]
    cols = np.flatnonzero((p >= 0.05 * p.max()) & (p >= top) & (p > 0))
    return np.sort(cols[np.argsort(-p[cols])[:MAX_PEAKS]])


def _comb(cols: np.ndarray, profile: np.ndarray, width: int, band_h: int) -> tuple[list, float]:
    """((left, right) per tube, pitch): the comb of side peaks that scores best, tried at the
    `MAX_WIDTHS` tube widths that pair the strongest peaks."""
    if len(cols) < 2:
        return [], 0.0
    strength = profile[cols]
    best, best_score, best_pitch, tried = [], 0.0, 0.0, set()
    for w in _widths(cols, strength, max(5, band_h / 9), width / 2):
        tol = max(2.0, 0.05 * w)
        lefts = [int(c) for c in cols if np.any(np.abs(cols - c - w) <= tol)]
        mine: tuple = (0.0, [], 0.0, 0.0)  # this width's best (score, pairs, pitch, phase)
        for i, a in enumerate(lefts):
            for b in lefts[i + 1 : i + 3]:
                for m in (1, 2, 3):  # the two tubes may be m pitches apart
                    q = (b - a) / m
                    if q < 1.15 * w:
                        break
                    key = (w, round(q), round(a % q))
                    if key not in tried:
                        tried.add(key)
                        score, pairs = _comb_score(cols, strength, (a, q, w, tol), width)
                        if score > mine[0] and not _coarser(pairs, q):
                            mine = (score, pairs, q, a)
        score, pairs, q = _refit(cols, strength, mine, (w, tol), width)
        if score > best_score:
            best, best_score, best_pitch = pairs, score, q
    return _outermost(best, best_pitch), best_pitch


def _coarser(pairs: list[tuple[int, int]], pitch: float) -> bool:
    """True when the tubes a comb at `pitch` explains all stand a whole number (two or more)
    of pitches apart: that comb claims tubes between them that no side showed, and the
    comb at the coarser step explains the same sides (tried too, from the same pair); a
    finer pitch is the row's only where tubes show between (`_finer`, `_faint` judge it)."""
    if len(pairs) < 2 or pitch <= 0:
        return False
    k = np.round((np.array([left for left, _ in pairs]) - pairs[0][0]) / pitch).astype(int)
    return int(np.gcd.reduce(np.diff(k))) > 1


def _refit(cols: np.ndarray, strength: np.ndarray, comb: tuple, size: tuple, width: int) -> tuple:
    """(score, pairs, pitch) of a comb (score, pairs, pitch, phase) refitted to the left sides
    it explains (least squares, while that explains more): tubes stand at one pitch, which
    the whole row measures better than the two neighbours the comb was seeded from (a small
    picture scaled up places each side up to a source pixel off, and over a row the error
    pushes the far tubes' sides outside the comb's tolerance)."""
    score, pairs, q, a = comb
    w, tol = size
    for _ in range(4):
        if len(pairs) < 2 or q <= 0:
            break
        lefts = np.array([left for left, _ in pairs], dtype=float)
        k = np.round((lefts - a) / q)
        if len(np.unique(k)) < 3:
            break
        q2, a2 = (float(v) for v in np.polyfit(k, lefts, 1))
        if q2 < 1.15 * w:
            break
        s2, p2 = _comb_score(cols, strength, (a2, q2, w, tol), width)
        if s2 <= score:
            break
        score, pairs, q, a = s2, p2, q2, a2
    return score, pairs, q


def _widths(cols: np.ndarray, strength: np.ndarray, lo: float, hi: float) -> list[int]:
    """Tube widths worth trying: distances between side peaks with no strong peak between
    them, ranked by the strength of the pairs (at least two) they join, one of each cluster
    of near-equal distances."""
    d = cols[None, :] - cols[:, None]
    pair = np.minimum(strength[None, :], strength[:, None])
    # a tube's inside holds no side as strong as its own (a thick outline's inner edge aside)
    inner = (cols[None, None, :] > cols[:, None, None] + 0.2 * d[:, :, None]) & (
        cols[None, None, :] < cols[None, :, None] - 0.2 * d[:, :, None]
    )
    clear = ~(inner & (strength[None, None, :] > 0.5 * pair[:, :, None])).any(axis=2)
    ok = (d >= lo) & (d <= hi) & clear
    dists, weights = d[ok], pair[ok]
    support = {}
    for w in np.unique(dists):
        near = np.abs(dists - w) <= max(2.0, 0.05 * w)
        if near.sum() >= 2:
            support[int(w)] = float(weights[near].sum())
    out: list[int] = []
    for w in sorted(support, key=lambda w: -support[w]):
        if all(abs(w - o) > max(2.0, 0.05 * o) for o in out):
            out.append(w)
    return out[:MAX_WIDTHS]


def _comb_score(cols: np.ndarray, strength: np.ndarray, comb: tuple, width: int) -> tuple:
    """(score, pairs) of a comb (phase, pitch, width, tolerance): the strength of the side
    peaks it explains minus that of the peaks it leaves unexplained between its tubes."""
    a, q, w, tol = comb
    lefts = a + q * np.arange(-int(a // q), int((width - w - a) // q) + 1)
    dl = np.abs(cols[None, :] - lefts[:, None])
    dr = np.abs(cols[None, :] - lefts[:, None] - w)
    hit = (dl.min(axis=1) <= tol) & (dr.min(axis=1) <= tol)
    if hit.sum() < 2:
        return 0.0, []
    near = max(tol, 0.15 * w)  # the inner edge of a thick outline belongs to its side
    explained = ((dl[hit] <= near) | (dr[hit] <= near)).any(axis=0)
    pairs = [
        (int(cols[i]), int(cols[j]))
        for i, j in zip(dl[hit].argmin(axis=1), dr[hit].argmin(axis=1), strict=True)
    ]
    gap = (q - w) / 2
    span = (cols >= pairs[0][0] - gap) & (cols <= pairs[-1][1] + gap)
    return float(strength[explained].sum() - strength[span & ~explained].sum()), pairs


def _outermost(pairs: list[tuple[int, int]], pitch: float) -> list[tuple[int, int]]:
    """One (left, right) per tube: the outer edges where a thick outline gives two of each."""
    out: list[tuple[int, int]] = []
    for left, right in sorted(pairs):
        if out and left - out[-1][0] < 0.3 * pitch:
            out[-1] = (min(out[-1][0], left), max(out[-1][1], right))
        else:
            out.append((left, right))
    return out


def _extent(side: np.ndarray, lab: np.ndarray, pairs: list, w: int, band: tuple) -> tuple:
    """(top, bottom) of a row: as far as its tubes' sides go on, and below them the rounded
    bottoms, whose centres keep the bottom unit's colour and differ from the gaps beside them."""
    a, b = band
    cols = sorted({c for pair in pairs for c in pair})
    s = np.median(np.stack([side[:, max(0, c - 2) : c + 3].max(axis=1) for c in cols]), axis=0)
    thr = max(1.5, 3.0 * float(np.median(side)))  # above the picture's noise
    top, bottom = a, b
    while top > 0 and s[top - 1] > thr:
        top -= 1
    while bottom < len(s) and s[bottom] > thr:
        bottom += 1
    # the side map is averaged down SIDE_ROWS rows, so a side's end fades over that many rows:
    # it ends where the strength falls to half of what it is just inside
    half = SIDE_ROWS // 2
    inside = float(np.median(s[top + half : top + 3 * half + 1])) / 2
    while top < bottom - 1 and s[top] < inside:
        top += 1
    inside = float(np.median(s[max(top, bottom - 3 * half - 1) : bottom - half])) / 2
    while bottom > top + 1 and s[bottom - 1] < inside:
        bottom -= 1
    gaps = [(r + nl) // 2 for (_, r), (nl, _) in zip(pairs, pairs[1:], strict=False)]
    ys = np.arange(bottom, min(len(s), bottom + int(0.8 * w)))
    if gaps and len(ys):
        mid = [left + w // 2 for left, _ in pairs]
        centres = lab[ys][:, mid].astype(float)
        gap = np.median(lab[ys][:, gaps].astype(float), axis=1)
        above = lab[max(top, bottom - 3), mid].astype(float)  # the bottom unit's colour
        differs = np.median(np.linalg.norm(centres - gap[:, None], axis=2), axis=1) > 8
        differs &= np.median(np.linalg.norm(centres - above[None], axis=2), axis=1) < 15
        bottom += len(ys) if differs.all() else int(np.argmin(differs))
    return top, bottom


def _faint(side: np.ndarray, boxes: list[tuple], pitch: float, width: int) -> list[tuple]:
    """Boxes at the row's pitch whose two sides show (faint) edges: tubes of tinted glass."""
    x0, y, w, h = boxes[0]
    have = [b[0] for b in boxes]
    prof = _side_profile(side, y, h)
    out = []
    for k in range(-int(x0 // pitch), int((width - w - x0) // pitch) + 1):
        box = (round(x0 + k * pitch), y, w, h)
        if min(abs(box[0] - c) for c in have) >= 0.3 * pitch and _sided(prof, box):
            out.append(box)
    return out


def _shared(band: tuple, found: list[tuple]) -> tuple[int, float]:
    """(bands whose tubes are about as wide, score) of a band's comb: the tubes of a board
    share one width, so the width most bands show (rows, or parts of a row that its faint
    tubes cut into bands) beats one strong band (an ad banner's letters)."""
    w = band[3][0]
    return sum(abs(f[3][0] - w) <= 0.2 * w for f in found), band[0]


def _comb_rows(
    lab: np.ndarray, side: np.ndarray, shapes: list[tuple], banner: int = 0
) -> list[list[tuple]]:
    """Rows of (box, odd) from the comb of tube sides in each band (see the section note);
    rows must hold tubes of the best row's size, a one-tube row takes the best row's pitch.
    Bands whose middle lies below image row `banner` (an ad banner's top, see `_banner_top`)
    are its letters: they set no size."""
    height, width = side.shape
    min_h = max(8, height // 40)
    long = _long_sides(side, min_h)
    found = _band_combs(lab, side, long, _bands(long, min_h), banner)
    if 0 < banner < height:
        above = _band_combs(lab, side, long, _bands(long[:banner], min_h), banner)
        found = above if _over_banner(found, banner, height) else found
        found = found + _under_letters(found, above, banner, height)
    multi = [f for f in found if len(f[1]) >= 2]
    if not multi:
        return []
    _, _, ref_pitch, (ref_w, ref_top, ref_bottom) = max(multi, key=lambda f: _shared(f, found))
    keep: list[tuple] = []
    for f in sorted(found, key=lambda f: -f[0]):
        f = _liquid_only(f, ref_pitch, (ref_w, ref_bottom - ref_top))
        w, top, bottom = f[3]
        size_ok = abs(w - ref_w) <= 0.2 * ref_w
        size_ok &= abs((bottom - top) - (ref_bottom - ref_top)) <= 0.2 * (ref_bottom - ref_top)
        if size_ok and not any(min(bottom, k[3][2]) > max(top, k[3][1]) for k in keep):
            keep.append(f)
    rows = []
    for _, pairs, pitch, (w, top, bottom) in sorted(keep, key=lambda f: f[3][1]):
        boxes = [(left, top, w, bottom - top) for left, _ in pairs]
        boxes += _faint(side, boxes, pitch if len(pairs) >= 2 else ref_pitch, width)
        if len(boxes) >= 2:
            rows.append(_align(sorted(boxes), shapes))
    return rows


def _over_banner(found: list, banner: int, height: int) -> bool:
    """True when no band's comb (`found`) holds two tubes and an ad banner tops the picture's
    foot at image row `banner`: its bold letters cross more rows with stronger edges than
    faint glass, so they set the bar of `_bands` so high that the tubes' band fell under it;
    the bands are then found again above it (only then: over a photo whose upright colour
    bands a lower bar would take for tubes, a row found under the letters' bar stands)."""
    return not any(len(f[1]) >= 2 for f in found) and 0 < banner < height


# of a comb's pitch: two rows of one board's tubes step alike (as `_liquid_only`'s rows)
UNDER_LETTERS_PITCH = 0.1
# of the picture's height: a row clear of the banner by less ends at its letters or a photo's
# edge there (as `_row_at`'s margin: games keep rows inside the play area)
UNDER_LETTERS_MARGIN = 0.02


def _under_letters(found: list, above: list, banner: int, height: int) -> list:
    """The combs of `above` (bands found above an ad banner's top `banner`) that share no
    image rows with the strongest comb of `found` (the bands found under the banner letters'
    bar) or any other, step at its pitch (`UNDER_LETTERS_PITCH`) and end clear of the banner
    (`UNDER_LETTERS_MARGIN`): a row of faint glass the letters' bar hid."""
    multi = [f for f in found if len(f[1]) >= 2]
    if not multi:
        return []
    best = max(multi, key=lambda f: f[0])
    out = []
    for f in above:
        w, top, bottom = f[3]
        clear = not any(min(bottom, k[3][2]) > max(top, k[3][1]) for k in found + out)
        alike = len(f[1]) >= 2 and abs(f[2] - best[2]) <= UNDER_LETTERS_PITCH * best[2]
        if clear and alike and bottom <= banner - UNDER_LETTERS_MARGIN * height:
            out.append(f)
    return out


def _band_combs(
    lab: np.ndarray, side: np.ndarray, long: np.ndarray, bands: list, banner: int
) -> list:
    """(score, pairs, pitch, (w, top, bottom)) of the comb of each band of `bands` that
    stands as a row of tubes does (see `_comb_rows`), the banner's own bands left out."""
    height, width = side.shape
    found = []
    for a, b in bands:
        profile = long[a:b].mean(axis=0)
        pairs, pitch = _comb(_peaks(profile), profile, width, b - a)
        if not pairs:
            continue
        w = int(np.median([r - left for left, r in pairs])) + 1
        top, bottom = _extent(side, lab, pairs, w, (a, b))
        if bottom - top >= 0.05 * height and _gaps_taken(lab, pairs, pitch, w, (top, bottom)):
            pairs = _tubes_between(pairs, pitch, w, width)
            w = int(np.median([r - left for left, r in pairs])) + 1
            top, bottom = _extent(side, lab, pairs, w, (a, b))
        if bottom - top >= 0.05 * height and (bottom - top) / w < 1.8 and len(pairs) >= 2:
            top = _glass_raised(lab, pairs, w, pitch, top, bottom)
        if bottom - top < 0.05 * height or not 1.8 <= (bottom - top) / w <= 9:
            continue
        if banner and (top + bottom) / 2 >= banner:
            continue
        score = sum(min(profile[left], profile[min(r, width - 1)]) for left, r in pairs)
        found.append((score, pairs, pitch, (w, top, bottom)))
    return found


def _glass_raised(lab: np.ndarray, pairs: list, w: int, pitch: float, top: int, bottom: int) -> int:
    """A squat band's top raised to where its tubes' glass ends (the median of its tubes, see
    `_glass_top`): sides of glass too faint for an edge show only beside the liquid, so the
    band is as tall as the liquid in its fullest tube, often no taller than the tube is wide."""
    boxes = [(left, top, w, bottom - top) for left, _ in pairs]
    return int(np.median([_glass_top(lab, b, max(1.0, pitch - w)) for b in boxes]))


def _liquid_only(band: tuple, pitch: float, size: tuple) -> tuple:
    """A band's comb (score, pairs, pitch, (w, top, bottom)) with its top raised to the best
    row's height `size` (w, h) when its tubes are as wide and as far apart but a quarter to
    0.8 of its height: liquid fills tubes from the bottom, so the sides of a row of faint
    tubes show only as high as their liquid; the band is unchanged otherwise."""
    score, pairs, step, (w, top, bottom) = band
    ref_w, ref_h = size
    alike = abs(w - ref_w) <= 0.2 * ref_w and abs(step - pitch) <= 0.1 * pitch
    if alike and len(pairs) >= 2 and 0.25 * ref_h <= bottom - top < 0.8 * ref_h:
        return score, pairs, step, (w, max(0, bottom - ref_h), bottom)
    return band


def _changes(lab: np.ndarray, box: tuple, jump: float = 12.0) -> int:
    """Image rows down a box's middle half where the colour (row median) changes by over
    `jump` ΔE within three rows: unit boundaries in a tube; the smooth background of a gap
    between tubes shows none. -1 for a box off the picture."""
    x, y, w, h = box
    if x < 0 or x + w > lab.shape[1] or h < 4:
        return -1
    prof = np.median(lab[y : y + h, x + w // 4 : x + w - w // 4], axis=1)
    return int((np.linalg.norm(prof[3:] - prof[:-3], axis=1) > jump).sum())


def _gaps_taken(lab: np.ndarray, pairs: list, pitch: float, w: int, span: tuple) -> bool:
    """True when a comb's three or more boxes are the gaps between the tubes: gaps about as
    wide as tubes (0.6 to 1.6 times) give the same sides, but no box shows a colour change
    (`_changes`: at most 2 rows) while most spaces between them do (6 rows or more):
    liquid lies in tubes, not between them."""
    top, bottom = span
    if len(pairs) < 3 or not 0.6 * w <= pitch - w <= 1.6 * w:
        return False
    mine = [_changes(lab, (left, top, w, bottom - top)) for left, _ in pairs]
    shift = round(w + (pitch - 2 * w) / 2)
    between = [_changes(lab, (left + shift, top, w, bottom - top)) for left, _ in pairs[:-1]]
    held = sum(c >= 6 for c in between)
    return max(mine) <= 2 and min(mine) >= 0 and 2 * held >= len(between)


def _tubes_between(pairs: list, pitch: float, w: int, width: int) -> list:
    """(left, right) of the tubes whose gaps a comb's `pairs` are: one on each side of each
    gap, `pitch` - `w` wide, within the picture."""
    tube = round(pitch - w)
    lefts = [pairs[0][0] - tube] + [left + w for left, _ in pairs]
    return [(x, x + tube) for x in lefts if x >= 0 and x + tube < width]


# ---- one tube ------------------------------------------------------------------------------
@dataclass
class _Segment:
    """A run of rows of one colour down a tube's centre (y from the top of the image)."""

    y0: int
    y1: int  # exclusive
    lab: np.ndarray
    kind: str = "liquid"  # liquid / empty / hidden
    units: int = 0
    fit: float = 1.0
    glyphs: int = 0  # '?' marks counted inside a hidden run (0: not counted)
    glass: float = np.inf  # CIELAB distance from the empty glass at its height
    cut: bool = False  # a plain top split off a '?' run (see `_unmarked_top`)
    cells: tuple = field(default=(), compare=False, repr=False)  # (y0, y1, colour) per unit
    # cell, bottom first, of a run whose cells are not each one colour (see `_split_mixed`),
    # for `_blurred_runs`

    @property
    def length(self) -> int:
        """Rows in the segment."""
        return self.y1 - self.y0


def _profile(lab: np.ndarray, box: tuple) -> np.ndarray:
    """Per-row median colour of the central 40 % of a tube."""
    x, y, w, h = box
    x0, x1 = x + int(0.3 * w), max(x + int(0.7 * w), x + int(0.3 * w) + 1)
    return np.median(lab[y : y + h, x0:x1], axis=1)


def _segments(profile: np.ndarray, y_top: int, jump: float = 9.0) -> list[_Segment]:
    """Cut a colour profile where it jumps by more than `jump` (CIELAB ΔE) from recent rows."""
    cuts = [0]
    for i in range(1, len(profile)):
        lo, hi = max(cuts[-1], i - 10), i - 3 if i - 3 > cuts[-1] else i  # lag: catch blur ramps
        ref = np.median(profile[lo:hi], axis=0)
        if np.linalg.norm(profile[i] - ref) > jump:
            cuts.append(i)
    cuts.append(len(profile))
    segs = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        if b > a:
            segs.append(_Segment(y_top + a, y_top + b, np.median(profile[a:b], axis=0)))
    return segs


def _ramped(prof: np.ndarray, box: tuple, jump: float) -> list[_Segment]:
    """A tube's runs cut where its profile leaves its run's colour (`_ramp_cut`), merged
    as `_fine` merges: the runs of a slot read as one colour, to find a faint icon in."""
    return _fine(_ramp_cut(prof, box[1], jump), prof, box, jump)


def _ramp_cut(profile: np.ndarray, y_top: int, jump: float = 9.0) -> list[_Segment]:
    """Cut a colour profile where it strays more than `jump` (ΔE) from its run's colour so
    far: a faint icon blurred into a slow ramp never jumps from the rows just above it (see
    `_segments`), but its colour leaves the cover's."""
    cuts = [0]
    for i in range(1, len(profile)):
        if np.linalg.norm(profile[i] - np.median(profile[cuts[-1] : i], axis=0)) > jump:
            cuts.append(i)
    cuts.append(len(profile))
    return [
        _Segment(y_top + a, y_top + b, np.median(profile[a:b], axis=0))
        for a, b in pairwise(cuts)
        if b > a
    ]


def _merge_short(segs: list[_Segment], profile: np.ndarray, y_top: int, min_len: float) -> list:
    """Absorb segments shorter than `min_len` rows into the neighbour of closer colour. The
    two take the colour of the longer one's rows; at the profile's end, less those farther
    than `ABSORBED` ΔE from its colour: a piece it absorbed there is the picture under a box
    that reaches below its tube."""
    segs = list(segs)
    while len(segs) > 1:
        k = min(range(len(segs)), key=lambda i: segs[i].length)
        if segs[k].length >= min_len:
            break
        nbrs = [j for j in (k - 1, k + 1) if 0 <= j < len(segs)]
        j = min(nbrs, key=lambda j: np.linalg.norm(segs[j].lab - segs[k].lab))
        a, b = min(segs[j].y0, segs[k].y0), max(segs[j].y1, segs[k].y1)
        keep = segs[j] if segs[j].length >= segs[k].length else segs[k]
        rows = profile[keep.y0 - y_top : keep.y1 - y_top]
        if keep.y1 - y_top >= len(profile):  # at the box's end: the picture under it?
            rows = rows[np.linalg.norm(rows - keep.lab, axis=1) < ABSORBED]
        segs[min(j, k)] = _Segment(a, b, np.median(rows, axis=0) if len(rows) else keep.lab)
        del segs[max(j, k)]
    return segs


ABSORBED = 30.0  # ΔE: a row this far from a run's colour is of another piece it absorbed


def _merge_same(segs: list[_Segment], join: float = 9.0) -> list[_Segment]:
    """Join neighbouring segments of the same colour (one colour over several units)."""
    out: list[_Segment] = []
    for s in segs:
        if out and np.linalg.norm(out[-1].lab - s.lab) < join:
            a, b = out[-1], s
            mean = (a.lab * a.length + b.lab * b.length) / (a.length + b.length)
            out[-1] = _Segment(a.y0, b.y1, mean)
        else:
            out.append(s)
    return out


def _merge_hidden(segs: list[_Segment]) -> list[_Segment]:
    """Join neighbouring hidden segments (shading inside a run of '?' units)."""
    out: list[_Segment] = []
    for s in segs:
        if out and out[-1].kind == s.kind == "hidden":
            out[-1] = _Segment(out[-1].y0, s.y1, out[-1].lab, kind="hidden")
        else:
            out.append(s)
    return out


def _marks(
    images: tuple,
    box: tuple,
    y0: int,
    y1: int,
    x0: float,
    x1: float,
    fill: float | None = None,
    least: float = 30.0,
) -> np.ndarray:
    """Boolean map of pixels lighter or darker by more than `least` than the flat fill
    around them, rows y0 to y1 and the tube's columns from fraction x0 to x1 (a mark drawn on
    the liquid). With a `fill` lightness, only pixels that also differ from that fill: next
    to a short run the flattening still shows its neighbour, and the run's own pixels would
    look marked."""
    lab, flat = images
    x, _, w, _ = box
    cols = slice(x + int(x0 * w), x + int(x1 * w))
    mark = np.abs(lab[y0:y1, cols, 0] - flat[y0:y1, cols, 0]) > least
    if fill is not None:
        mark &= np.abs(lab[y0:y1, cols, 0] - fill) > 15
    return mark


def _is_glyph(images: tuple, box: tuple, seg: _Segment) -> bool:
    """A flat run with a mark of other lightness inside it that does not run its whole
    height: the game's '?' (or whatever it draws) for hidden units, light on dark or dark on
    light, on any fill colour. A glint down the glass runs the whole height, a line between
    units crosses only a few rows."""
    x, y, w, h = box
    if seg.y0 <= y + 0.03 * h:
        return False  # the rim, with its glints, is not a '?'
    cut = seg.length // 5
    y0, y1 = seg.y0 + cut, min(seg.y1 - cut, y + h - w // 4)  # not a round bottom's outline
    mark = _outline_free(_marks(images, box, y0, y1, 0.25, 0.75, float(seg.lab[0])), box, y1)
    if _mark_like(mark, whole_height=False):
        return True
    bold = _outline_free(_off_run(images[0], box, y0, y1, seg.lab[0]), box, y1)
    return _bold_like(bold, whole_height=False)


def _outline_free(mark: np.ndarray, box: tuple, y1: int) -> np.ndarray:
    """A mark map of the tube in `box` whose window ends at row `y1`, without a round
    bottom's outline (see `_no_arcs`) when the window reaches into the bottom half a tube
    width deep, where alone a round bottom curves: higher up, a U is a ring round a '?'."""
    x, y, w, h = box
    return _no_arcs(mark) if y1 > y + h - w / 2 else mark


def _off_run(
    lab: np.ndarray, box: tuple, y0: int, y1: int, fill: float, least: float = 30.0
) -> np.ndarray:
    """Boolean map of the tube's middle half, rows y0 to y1, lighter or darker than the
    run's `fill` lightness by more than `least` (as `_marks` asks against the flat copy): a
    bold mark's strokes are as wide as the flattening's median filter, survive in the flat
    copy `_marks` compares with, and show only against the run's own fill."""
    x, _, w, _ = box
    light = lab[y0:y1, x + int(0.25 * w) : x + int(0.75 * w), 0]
    return np.abs(light - fill) > least


def _no_arcs(mark: np.ndarray) -> np.ndarray:
    """`mark` without a round bottom's outline: a part (pieces a pixel apart joined, as JPEG
    breaks a line) that reaches its last row outside the middle third (a '?' stem ends in
    it) and, on that side, runs nearer the middle lower down (a U's arm or bowl; a '?' hook
    cut by the window is a ∩, whose legs run outward lower down)."""
    if mark.size == 0 or not mark.any():
        return mark
    joined = cv2.dilate(mark.astype(np.uint8), np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(joined, connectivity=8)
    side = max(1, mark.shape[1] // 3)
    arcs = [k for k in range(1, n) if _arm((labels == k) & mark, side)]
    return mark & ~np.isin(labels, arcs) if arcs else mark


def _arm(part: np.ndarray, side: int) -> bool:
    """True when `part` (a boolean map) touches its map's last row within `side` columns of
    a side and, on that half, lies nearer the middle in its lowest row than in its top one,
    where it reaches farthest out (an arm coming in from above; a ring round a '?' reaches
    farthest out half-way down)."""
    width = part.shape[1]
    mid = (width - 1) / 2
    for cols in (slice(0, side), slice(width - side, width)):
        if not part[-1, cols].any():
            continue
        half = part[:, : width // 2] if cols.start == 0 else part[:, (width + 1) // 2 :]
        offset = 0 if cols.start == 0 else (width + 1) // 2
        rows = np.nonzero(half.any(axis=1))[0]
        dist = [np.abs(np.nonzero(half[r])[0] + offset - mid) for r in rows]
        widest = max(d.max() for d in dist)
        if dist[-1].mean() < dist[0].mean() and dist[0].max() >= widest - 1:
            return True
    return False


def _bold_like(mark: np.ndarray, whole_height: bool = True) -> bool:
    """A map from `_off_run` shows a bold mark: like a glyph (see `_mark_like`), in more
    than `BOLD_ROWS` of its rows (at least `GLYPH_ROWS`) and with no whole rows at its ends
    (see `_banded`). Against the fill, not the flat copy, a JPEG speck shows too."""
    if len(mark) < GLYPH_ROWS or mark.any(axis=1).mean() <= BOLD_ROWS:
        return False
    return _mark_like(mark, whole_height) and not _banded(mark)


BOLD_ROWS = 0.25  # a '?' spans most of its window's rows; a JPEG speck one or two of nine
GLYPH_ROWS = 5  # a '?' (hook, stem, dot) shows in no fewer rows; two are a boundary's blur


def _banded(mark: np.ndarray) -> bool:
    """True when `mark` fills whole rows at its top or bottom: a neighbouring run the
    window took in past a misplaced boundary, not a glyph drawn inside its cell."""
    full = mark.mean(axis=1) > 0.8
    return bool(full[0] or full[-1])


def _mark_like(mark: np.ndarray, whole_height: bool = True) -> bool:
    """A map from `_marks` shows a glyph: 1-45 % of its pixels, in more than 15 % of its rows
    (a line between two units crosses few), and, unless `whole_height`, not in 90 % of them
    unless across half its columns (a glint down the glass runs the whole height of a run,
    but narrow; a mark seen through a short window at a round bottom fills it), centred
    (a round bottom's outline enters the window at its sides); a narrow streak down most of
    its rows only in the middle (a '?' stem; a glint runs off the middle)."""
    if mark.size == 0 or not mark.any():
        return False
    rows = float(mark.any(axis=1).mean())
    cols = float(mark.any(axis=0).mean())
    tall_ok = whole_height or rows < 0.9 or cols > 0.5
    centre = np.nonzero(mark)[1].mean() / mark.shape[1]  # a glyph is drawn centred
    off = 0.35 if rows > 0.5 and cols < GLINT_COLS else 0.2  # how far off the middle it may be
    return bool(0.01 < mark.mean() < 0.45 and rows > 0.15 and tall_ok and off < centre < 1 - off)


GLINT_COLS = 0.15  # a glint down the glass is a few pixels wide; a '?' hook spans half a cell


def _count_glyphs(images: tuple, box: tuple, seg: _Segment) -> int:
    """How many '?' marks a hidden run shows (a mark's dot is joined to its hook)."""
    x, y, w, h = box
    y1 = seg.y1 - (w // 3 if seg.y1 >= y + h - 2 else w // 8)  # not the outline's bottom
    mask = _marks(images, box, seg.y0 + w // 8, y1, 0.2, 0.8).astype(np.uint8)
    if mask.size == 0:
        return 0
    mask = cv2.dilate(mask, np.ones((max(3, w // 6), 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    big = [tuple(st[:4]) for st in stats[1:] if st[cv2.CC_STAT_AREA] >= 0.02 * w * w]
    return _row_groups(big)


def _row_groups(boxes: list[tuple]) -> int:
    """How many groups of (x, y, w, h) boxes sharing rows: '?' cells stack down a tube, so
    parts of a mark side by side (a circle's arcs, a hook beside it) are one mark."""
    groups = 0
    end = -1
    for _, y, _, h in sorted(boxes, key=lambda b: b[1]):
        if y >= end:
            groups += 1
        end = max(end, y + h)
    return groups


# ---- the reading ---------------------------------------------------------------------------
def read_screenshot(
    path_or_array: object, *, channels: str = "rgb", params: ReaderParams = DEFAULT_PARAMS
) -> Reading:
    """Read a water-sort board from a screenshot.

    Parameters
    ----------
    path_or_array : str, PathLike or numpy array
        An image file (PNG, JPEG, ...) or an array (see `load_image`).
    channels : {"rgb", "bgr"}
        Channel order of an array (OpenCV arrays are BGR).
    params : ReaderParams
        The two colour thresholds (the defaults serve every game tried).

    Returns
    -------
    Reading
        Tubes in reading order (top row left to right), each bottom to top as colour labels,
        "?" for a hidden unit, None for a covered tube; capacities, palette, boxes (original
        pixels), per-unit confidence, the Level when the board is fully visible and valid,
        and `problems` listing anything that broke the game's rules.

    Raises
    ------
    PuzzleError
        Bad input (see `load_image`) or an image in which no row of tubes can be found.
    """
    if not isinstance(params, ReaderParams):
        raise PuzzleError(f"params must be a ReaderParams, not {type(params).__name__}")
    rgb = load_image(path_or_array, channels)
    reading = _read_picture(rgb, params)
    if (reading.ok and _sound(reading)) or min(rgb.shape[:2]) >= SMALL_PICTURE:
        return reading
    try:
        calm = _read_picture(cv2.medianBlur(rgb, DEBLOCK), params)
    except InvalidPuzzleError:
        return reading
    if not calm.ok or not _marks_kept(reading, calm):
        return reading
    return calm if not _sound(reading) or _reshaped(reading, calm) else reading


# a picture this small (px on its short side) is mostly a heavily compressed thumbnail: its
# JPEG blocks and ringing, scaled up several times, split colours and hide marks
SMALL_PICTURE = 300
DEBLOCK = 3  # px: a median this wide at the picture's own size smooths blocks, keeps units


def _marks_kept(first: Reading, calm: Reading) -> bool:
    """The reading of a smoothed picture has at least the first reading's '?' cells: a
    median can wipe a thin mark out but draws none, so fewer cells are marks it lost."""
    return calm.n_hidden >= first.n_hidden


def _reshaped(first: Reading, calm: Reading) -> bool:
    """True when two readings differ in more than colours: in layout, capacity, covered
    tubes, the number of units in a tube or where its '?' cells are. A smoothed picture
    mends what JPEG blocks break (boundaries, marks, tube edges), but a median also shifts a
    small unit's colour, so a reading that differs only in colours is no better (10419)."""
    if first.layout != calm.layout or first.capacity != calm.capacity:
        return True
    return _stack_shapes(first.tubes) != _stack_shapes(calm.tubes)


def _stack_shapes(tubes: list) -> list:
    """Each tube's shape without its colours: None when covered, else where its '?' are."""
    return [None if t is None else [c == HIDDEN for c in t] for t in tubes]


def _read_picture(rgb: np.ndarray, params: ReaderParams) -> Reading:
    """The reading of an RGB picture (see `read_screenshot`), before any second reading of a
    small picture read with doubts, with its JPEG blocks smoothed."""
    scale = WORK_HEIGHT / rgb.shape[0]
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    img = cv2.resize(rgb, (max(1, round(rgb.shape[1] * scale)), WORK_HEIGHT), interpolation=interp)
    lab = rgb_to_lab(img)
    side = _side_strength(lab)
    rows = _find_rows(img, lab, side)
    if not rows:
        raise InvalidPuzzleError("no tubes found: expected a row of at least two tubes")
    images = (rgb, img, lab, side)
    if rgb.shape[0] == WORK_HEIGHT:
        return _read_rows(rows, images, params)
    try:
        reading = _read_rows(rows, images, params)
    except InvalidPuzzleError as e:
        return _native_retry(rows, images, params, e)
    first = _floor_retry(rows, images, params, reading)
    if not _sound(first):
        return _native_retry(rows, images, params, first)
    return _second_look(rows, images, params, first) if first is reading else first


# tops in turn: liquid at the same slots' floors seen at fewer is a photo's detail lining up
# (as a row of glass in `_second_row`)
FLOOR_RUN = 3
FLOOR_ROW = (
    "liquid seen at the floor of slots in a row at the tubes' pitch that no tube read holds: "
    "a row of tubes may be missed, and covered or hidden units leave the colour counts "
    "unable to tell: check it"
)


def _floor_retry(rows: list, images: tuple, params: ReaderParams, reading: Reading) -> Reading:
    """`reading` of one row, or of that row and a row whose tubes show only liquid at their
    floors (see `_floor_rows`) when `reading` breaks the invariant or the layout games use
    and that one keeps them (`_sound`): liquid sinks, so a tube whose glass is lost in a
    photo shows its lowest unit, and an empty tube beside it shows nothing. A sound reading
    whose covered or hidden units leave the counts unable to vouch for it gets a doubt
    when such a row is seen. The row found keeps its capacity: a row that only adds tubes
    changes no tube's height (boxes read anew at another unit read the found row anew)."""
    if len(rows) != 1 or (_sound(reading) and _fully_visible(reading.tubes)):
        return reading
    boards = _floor_rows(rows, images[2])
    if not boards:
        return reading
    if _sound(reading):
        return _vouched_floor(reading)
    for board in boards:
        try:
            alt = _read_rows(board, images, params)
        except InvalidPuzzleError:
            continue
        if _sound(alt) and alt.capacity == reading.capacity:
            return alt if _fully_visible(alt.tubes) else _vouched_floor(alt)
    return reading


def _vouched_floor(reading: Reading) -> Reading:
    """`reading`, with a row seen by its liquid floors alone, and a doubt: covered or hidden
    units leave the colour counts unable to confirm that row."""
    return replace(reading, problems=reading.problems + [FLOOR_ROW])


def _floor_rows(rows: list, lab: np.ndarray) -> list[list[list[tuple]]]:
    """Boards of the one row in `rows` and a centred row of one tube fewer, as many or one
    more (games share tubes between rows evenly) of its size and pitch, inside the picture
    (a box past its edge samples nothing, or the other edge), at a top clear of it
    where some of its slots show liquid sunk to their floor (`_sunk`) and the same slots
    do over `FLOOR_RUN` tops in turn (the run's middle is taken); fewest tubes first."""
    row = rows[0]
    _, y, w, h = row[0][0]
    pitch, step = _pitch_hint(rows), max(1, h // 24)
    clear = _tops_clear(lab, y, h, step)
    boards = []
    for n in range(max(2, len(row) - 1), len(row) + 2):
        xs = [round(lab.shape[1] / 2 + (j - (n - 1) / 2) * pitch - w / 2) for j in range(n)]
        if xs[0] < 0 or xs[-1] + w > lab.shape[1]:  # n tubes at this pitch leave the picture
            continue
        seen = [tuple(_sunk(lab, (x, t, w, h), pitch) for x in xs) for t in clear]
        top = _floor_top(clear, seen, step)
        if top is not None:
            found = [((x, top, w, h), True) for x in xs]
            boards.append(sorted([row, found], key=lambda r: r[0][0][1]))
    return boards


RIM_BAND = (0.05, 0.2)  # of a box's height: under a tube's rim, glass unless it is full


def _sunk(lab: np.ndarray, box: tuple, pitch: float, tol: float = FLOOR_TOL) -> bool:
    """True when a slot shows liquid at its floor (`_liquid_floor`) that its column under
    the rim (`RIM_BAND`) does not (ΔE of medians over `tol`): liquid sinks below the glass.
    A slot of background between two tubes holding liquid differs from its sides at its
    floor too, but its column is the background from top to floor."""
    if not _liquid_floor(lab, box, pitch, tol):
        return False
    x, y, w, h = box
    cols = slice(x + w // 4, x + w - w // 4)
    floor = lab[y + round(FLOOR_BAND[0] * h) : y + round(FLOOR_BAND[1] * h), cols]
    rim = lab[y + round(RIM_BAND[0] * h) : y + round(RIM_BAND[1] * h), cols]
    low, top = (np.median(p.reshape(-1, 3), axis=0) for p in (floor, rim))
    return bool(np.linalg.norm(low - top) > tol)


def _floor_top(tops: list[int], seen: list[tuple], step: int) -> int | None:
    """The middle of the longest run of `FLOOR_RUN` or more tops in turn (`step` apart)
    whose slots show the same liquid floors, some at least; None when there is none."""
    best, start = None, 0
    for k in range(1, len(tops) + 1):
        if k < len(tops) and tops[k] - tops[k - 1] == step and seen[k] == seen[start]:
            continue
        if any(seen[start]) and k - start >= FLOOR_RUN:
            if best is None or k - start > best[1] - best[0]:
                best = (start, k)
        start = k
    return None if best is None else tops[(best[0] + best[1] - 1) // 2]


def _native_retry(rows: list, images: tuple, params: ReaderParams, first) -> Reading:
    """The reading from tubes located at the picture's own size (see `_native_rows`) when
    they stand otherwise than `rows` and it is sound (see `_sound`), `first` being unsound
    or an error; else `first` (returned, or raised again). Enlarging a small screenshot
    adds no detail, only blur: JPEG blocks grow into bands a comb takes for tubes, and
    faint glass or a thin outline spreads out of the locators' sight; shrinking a large one
    averages thin outlines and faint glass into the background. The reading taken is
    doubted when covered or hidden units leave the invariant too weak to vouch for it.
    When `first` is an error and the second location reads, unsound, that reading is
    returned with its doubts (see `_unsound`): the tubes were found, only misread, and a
    doubtful reading tells the user more than a refusal. A second reading that keeps the
    invariant only because the counts chose it (see `_settled`) is returned, with its doubt,
    over a first that breaks the invariant even so."""
    alt = _native_reading(rows, images, params)
    if alt is not None and _sound(alt):
        return _vouched(alt)
    if isinstance(first, Exception):
        if alt is None:
            raise first
        return _unsound(alt)
    if alt is not None and _settled(alt) and not _settled(first):
        return alt  # doubted: the counts chose it, but the first breaks them
    return first


def _second_look(rows: list, images: tuple, params: ReaderParams, first: Reading) -> Reading:
    """`first`, a sound reading (see `_sound`) of a resized picture that has doubts, or the
    reading of the tubes located at the picture's own size (see `_native_rows`) when that
    one is sound, differs and has none (vouched for as in `_native_retry`). Locating tubes
    at two sizes is two looks at the board: resizing blurs thin outlines and faint glass
    into boxes a little off the tubes, which leaves doubts on single units or boundaries
    that the invariant alone does not catch."""
    if first.ok:
        return first
    alt = _native_reading(rows, images, params)
    if alt is not None and alt.ok and _sound(alt) and not _same_reading(first, alt):
        return _vouched(alt, "with doubts")
    return first


def _native_reading(rows: list, images: tuple, params: ReaderParams) -> Reading | None:
    """The reading of the tubes located at the picture's own size (see `_native_rows`), or
    None when none are found, they stand as `rows` do (the same tubes: nothing new to read)
    or they read nothing."""
    other = _native_rows(images[0], images[1].shape[0] / images[0].shape[0])
    if not other or _slots_of(other) == _slots_of(rows):
        return None
    try:
        return _read_rows(other, images, params)
    except InvalidPuzzleError:
        return None


def _same_reading(a: Reading, b: Reading) -> bool:
    """True when two readings give the same board: layout, capacity and tubes up to colour
    renaming."""
    same = a.layout == b.layout and a.capacity == b.capacity
    return same and same_up_to_renaming(a.tubes, b.tubes)


UNSOUND = (
    "tubes located again at the picture's own size, the first location reading nothing; "
    "this reading breaks the game's rules or layout: check it"
)


def _unsound(reading: Reading) -> Reading:
    """`reading`, which `_sound` rejects, sure to be doubted: its doubts, and `UNSOUND`."""
    return replace(reading, problems=reading.problems + [UNSOUND])


def _vouched(reading: Reading, how: str = "inconsistently") -> Reading:
    """`reading`, from tubes located a second time (the first location read `how`), with a
    doubt when a tube is covered or a unit hidden: the two locations disagreed, and only a
    board whose every unit shows has its capacity and every tube checked by the colour
    counts (see `self_check`)."""
    if _fully_visible(reading.tubes):
        return reading
    text = (
        "tubes located again at the picture's own size, the first location reading "
        f"{how}; covered or hidden units leave the colour counts unable to confirm "
        "this one: check it"
    )
    return replace(reading, problems=reading.problems + [text])


def _sound(reading: Reading) -> bool:
    """True when a reading keeps the game's invariant (see `self_check`) and stands as games
    lay out boards (even rows, three tubes or more, rows spaced alike, no tube over another)
    with a capacity that some tube shows, and that the colour counts did not choose (glass
    forced to liquid or back, a rival unit): whatever doubts remain are about single units
    or boundaries."""
    forced = any(p.endswith((FORCED_LIQUID, FORCED_GLASS, FORCED_CUT)) for p in reading.problems)
    forced = forced or any(WEAK_RIVAL in p for p in reading.problems)
    return not forced and _settled(reading)


def _settled(reading: Reading) -> bool:
    """True when a reading would be sound (see `_sound`) were the colour counts allowed to
    choose it: it keeps the invariant, stands as games lay out boards and has a capacity
    that some tube shows."""
    boxes, layout = reading.boxes, reading.layout
    guess = any(GUESS in p for p in reading.problems)
    shape = _uneven_rows(layout) + _few_tubes(layout) + _unlike_pitches(boxes, layout)
    odd = bool(shape) or bool(_overlaps(boxes, layout))
    return not guess and not odd and not self_check(reading.tubes, reading.capacity)


def _slots_of(rows: list) -> list[list[tuple]]:
    """The rows' boxes, without their doubt flags."""
    return [[b for b, _ in row] for row in rows]


def _native_rows(rgb: np.ndarray, scale: float, most: int = 2 * WORK_HEIGHT) -> list:
    """Rows of (box, odd) found in the picture at its own size (see `_find_rows`), or shrunk
    to `most` rows when taller (the locators' cost grows with the pixels), boxes scaled by
    `scale` (working over picture height) to the working image."""
    if rgb.shape[0] > most:
        f = most / rgb.shape[0]
        size = (max(1, round(rgb.shape[1] * f)), most)
        rgb, scale = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA), scale / f
    lab = rgb_to_lab(rgb)
    rows = _find_rows(rgb, lab, _side_strength(lab))
    return [[(tuple(round(v * scale) for v in b), odd) for b, odd in row] for row in rows]


def _read_rows(rows: list, images: tuple, params: ReaderParams) -> Reading:
    """The reading of the tubes in `rows` (see `_find_rows`), their spacing filled in and
    the slots it added that show no tube dropped (see `_ghosts`); `images` are the picture
    (RGB) and the working image in RGB, Lab and side strength."""
    rgb, img, lab, side = images
    scale = img.shape[0] / rgb.shape[0]
    bg = _background(lab, rows)
    gaps: list[tuple[int, int]] = []
    filled, holes = _plug_holes(_assemble(rows, lab, side, gaps), gaps)
    slots = [s for row in filled for s in row]
    layout = [len(row) for row in filled]
    gaps = [(r, round(x / scale)) for r, x in gaps]
    flat = _flatten(img, slots, lab)
    reading = _read_slots((lab, flat), bg, slots, layout, scale, rgb.shape[:2], gaps, params)
    found = {b for row in rows for b, _ in row}
    ghosts = _ghosts(lab, side, filled, found, reading.tubes)
    kept = _centring(filled, ghosts, lab.shape[1])
    holes |= _between(filled, ghosts - kept)
    inside = _walls_inside(side, ghosts - kept - holes)
    ghosts -= kept | holes | inside
    if not ghosts:
        return _unseen(reading, slots, kept, holes, inside)
    filled = [[s for s in row if s[0] not in ghosts] for row in filled]
    gaps += [(r, round(x / scale)) for r, x in _holes(filled, ghosts)]
    slots = [s for row in filled for s in row]
    layout = [len(row) for row in filled]
    reading = _read_slots((lab, flat), bg, slots, layout, scale, rgb.shape[:2], gaps, params)
    return _unseen(reading, slots, kept, holes, inside)


def _plug_holes(rows: list, gaps: list) -> tuple[list, set]:
    """`rows` of (box, doubtful) slots with a doubtful slot of the row's size at each of
    `gaps` (row, x) that lies between two of its row's slots, those gaps taken out of
    `gaps`; and the set of slots so added. Games leave no hole in a row: a slot at the
    row's pitch between two tubes that shows nothing is an empty tube whose glass is lost
    in the picture (an empty tube changes no colour count, so nothing else can tell)."""
    out, plugged, rest = [list(row) for row in rows], set(), []
    for r, x in gaps:
        row = out[r] if 0 <= r < len(out) else []
        xs = [b[0] for b, _ in row]
        if not xs or not min(xs) < x < max(xs) or x in xs:
            rest.append((r, x))
            continue
        _, y, w, h = row[0][0]
        plugged.add((x, y, w, h))
        out[r] = sorted(row + [((x, y, w, h), True)], key=lambda s: s[0][0])
    gaps[:] = rest
    return out, plugged


def _between(rows: list, ghosts: set) -> set:
    """The `ghosts` that stand between two slots of their row that are no ghosts: holes
    (see `_plug_holes`), kept as empty tubes, not dropped."""
    out = set()
    for row in rows:
        xs = [b[0] for b, _ in row if b not in ghosts]
        out |= {b for b, _ in row if b in ghosts and xs and min(xs) < b[0] < max(xs)}
    return out


def _ghosts(lab: np.ndarray, side: np.ndarray, rows: list, found: set, tubes: list) -> set:
    """Boxes the rows' spacing added that read as empty yet show no tube: no edge at either
    wall (side strength under half what `_sided` counts as an edge at all) and no glass
    tinting the background (`_tinted`, down to `HOLE_TINT`: the spacing put the slot
    there). A smooth photo or gradient behind a row differs from the background beside a
    slot without any tube there; an empty tube, however faint its glass, changes the
    picture across its walls."""
    out, k = set(), 0
    for row in rows:
        xs = sorted(b[0] for b, _ in row)
        for box, _ in row:
            tube, k = tubes[k], k + 1
            if box in found or tube != [] or len(xs) < 2:
                continue
            x, y, w, h = box
            pitch = min(abs(x - o) for o in xs if o != x)
            prof = _side_profile(side, y, h)
            if _walls(prof, box) < 0.5 and not _tinted(lab, box, pitch, HOLE_TINT):
                out.add(box)
    return out


# times the row's typical side edge: the fainter sides that let the spacing add a slot at a
# hole or a row's short end (see `_fill_row`, `_centre`); a slot kept for them stays
INSIDE_WALLS = 2.0


def _walls_inside(side: np.ndarray, ghosts: set) -> set:
    """The `ghosts` whose tube walls show just inside their box (`_inner_walls`, over
    `INSIDE_WALLS` times the row's typical edge): boxes take their size from the row's widest
    outlines (covers drawn wider than the glass), so a narrower empty tube's walls stand
    inside the slot, not at its edges; it is a tube, kept empty with a doubt (a box off its
    tube might leave a liquid outside it)."""
    out = set()
    for x, y, w, h in ghosts:
        prof = _side_profile(side, y, h)
        if _sided(prof, (x, y, w, h), INSIDE_WALLS, _inner_walls):
            out.add((x, y, w, h))
    return out


def _centring(rows: list, ghosts: set, width: int) -> set:
    """The `ghosts` that centre their row: without the row's ghosts it stands half a pitch
    off the picture's centre, and with the one ghost at its long side's end it is centred.
    Games centre their rows, so that slot is an empty tube, however faint its glass."""
    keep = set()
    for row in rows:
        boxes = sorted(b for b, _ in row)
        rest = [b for b in boxes if b not in ghosts]
        if len(rest) < 2 or len(rest) == len(boxes):
            continue
        pitch = float(np.median(np.diff([b[0] for b in rest])))
        off = ((rest[0][0] + rest[-1][0] + rest[-1][2]) / 2 - width / 2) / max(pitch, 1.0)
        if abs(abs(off) - 0.5) > 0.15:
            continue
        nxt = rest[-1][0] + pitch if off < 0 else rest[0][0] - pitch
        keep.update([b for b in boxes if b in ghosts and abs(b[0] - nxt) <= 0.15 * pitch][:1])
    return keep


def _unseen(
    reading: Reading,
    slots: list,
    kept: set,
    holes: frozenset | set = frozenset(),
    inside: frozenset | set = frozenset(),
) -> Reading:
    """`reading` with a doubt on each slot kept only because it centres its row (see
    `_centring`), fills a hole in it (see `_plug_holes`) or shows walls inside its box only
    (see `_walls_inside`): no tube was seen at the box, so the
    tube is inferred, not read (boxes placed off their tubes leave a real tube's liquid
    outside its slot, and a row spaced at a wrong pitch has holes that are no tubes)."""
    why = {
        "as empty as it centres its row": kept,
        "as it fills a hole in its row": holes,
        "as empty as walls show inside its box, off its edges": inside,
    }
    texts, ks = [], []
    for k, (box, _) in enumerate(slots):
        for reason, boxes in why.items():
            if box in boxes:
                texts.append(f"tube {k}: no tube seen there, kept {reason}: check it")
                ks.append(k)
    if not ks:
        return reading
    doubtful = sorted(set(reading.doubtful) | set(ks))
    return replace(reading, problems=reading.problems + texts, doubtful=doubtful)


def _holes(rows: list, dropped: set) -> list[tuple[int, int]]:
    """(row, x) of the `dropped` boxes that stood between two slots of their row: games leave
    no hole in a row, so a tube was missed there or the row is wrong; either way, say so."""
    out = []
    for r, row in enumerate(rows):
        xs = [b[0] for b, _ in row]
        y = row[0][0][1] if row else None
        out += [(r, b[0]) for b in dropped if xs and b[1] == y and min(xs) < b[0] < max(xs)]
    return sorted(out)


def _beside(lab: np.ndarray, box: tuple, y0: int, y1: int, room: float) -> np.ndarray | None:
    """Median colour of the background just left and right of a tube, rows y0 to y1, at most
    `room` pixels out (the free space to the next tube)."""
    x, _, w, _ = box
    far = int(min(0.3 * w, 0.8 * room))
    near = max(1, far // 3)
    if far - near < 1:
        return None
    strips = [
        lab[y0:y1, max(0, x - far) : max(0, x - near)],
        lab[y0:y1, x + w + near : x + w + far],
    ]
    pixels = [p.reshape(-1, 3) for p in strips if p.size]
    return np.median(np.concatenate(pixels), axis=0) if pixels else None


def _room(box: tuple, boxes: list[tuple]) -> float:
    """Free space in pixels between a tube and its nearest neighbour in the same row."""
    x, y, w, h = box
    gaps = [
        max(0, max(b[0] - (x + w), x - (b[0] + b[2])))
        for b in boxes
        if b != box and _y_overlap(b, box)
    ]
    return float(min(gaps, default=w))


@dataclass(frozen=True)
class _Glass:
    """The empty glass: its colour under the rims and the background beside the rims there.

    Glass is drawn see-through in most games, so down a tube it changes as the background
    behind it does (a gradient, a photo): empty space at some height is near the line from
    the rim colour to the rim colour moved by the background's change beside the tube (from
    painted to clear glass), or near the background between the tubes."""

    lab: np.ndarray
    color: np.ndarray
    ref: np.ndarray
    boxes: tuple
    bg: np.ndarray
    fit: tuple | None = None  # (a, b): empty glass = a * background behind + b, or None

    @property
    def clear(self) -> bool:
        """True for clear, untinted glass: empty space shows the background beside the tube."""
        return self.fit is not None and self.fit[0] == 1.0 and not np.any(self.fit[1])

    def distance(self, seg: _Segment, box: tuple) -> float:
        """CIELAB distance of a segment's colour from the empty glass at its height."""
        side = _beside(self.lab, box, seg.y0, seg.y1, _room(box, list(self.boxes)))
        if side is None:
            return float(np.linalg.norm(seg.lab - self.color))
        if self.fit is not None:  # see-through glass of known opacity
            a, b = self.fit
            along = float(np.linalg.norm(seg.lab - a * side - b))
            along = min(along, float(np.linalg.norm(seg.lab - side)))  # or clear glass
        else:
            along = _off_line(seg.lab, self.color, side - self.ref)
        return float(min(along, np.linalg.norm(seg.lab - self.bg)))


def _off_line(c: np.ndarray, start: np.ndarray, shift: np.ndarray) -> float:
    """Distance of colour `c` from the segment from `start` to `start + shift`."""
    t = float(np.clip(np.dot(c - start, shift) / (shift @ shift + 1e-9), 0, 1))
    return float(np.linalg.norm(c - start - t * shift))


def _rim(lab: np.ndarray, box: tuple, every: list[tuple], bg: np.ndarray) -> tuple:
    """(colour just under a tube's rim, background beside it there)."""
    x, y, w, h = box
    y0 = y + int(0.08 * h)
    y1 = y0 + max(2, h // 25)
    band = np.median(lab[y0:y1, x + int(0.3 * w) : x + int(0.7 * w)].reshape(-1, 3), axis=0)
    side = _beside(lab, box, y0, y1, _room(box, every))
    return band, bg if side is None else side


def _glass(lab: np.ndarray, boxes: list[tuple], every: list[tuple], bg: np.ndarray) -> _Glass:
    """Empty glass: of the rim colours of `boxes` seen twice, the one nearest to the
    background (`every` box found, covered ones too, bounds the background beside a tube).
    When no rim of `boxes` near the background is seen twice, yet a rim of `every` box
    shows the background beside it (an empty tube of clear glass; `boxes` may lack it, as a
    slot the spacing added), that is the glass: a liquid topping several full tubes agrees
    from rim to rim as well, and a shared rim alone cannot tell it from the glass."""
    rims = {box: _rim(lab, box, every, bg) for box in every}
    bands = np.array([rims[b][0] for b in boxes])
    sides = np.array([rims[b][1] for b in boxes])
    d = np.linalg.norm(bands[:, None] - bands[None], axis=2)
    far = np.linalg.norm(bands - bg, axis=1)
    shared = ((d < 8).sum(axis=1) >= min(2, len(bands))) | (far < 8)  # or clear glass
    clear = [b for b in every if np.linalg.norm(rims[b][0] - rims[b][1]) < 8]
    seen = not (shared & (far < 8)).any()
    if clear and seen:  # a rim shows what is behind: clear glass
        bands = np.array([rims[b][0] for b in clear])
        k = int(np.argmin(np.linalg.norm(bands - bg, axis=1)))
        bands, sides = bands[k : k + 1], np.array([rims[clear[k]][1]])  # its own background
        far, shared = np.linalg.norm(bands - bg, axis=1), np.ones(1, bool)
    pick = np.where(shared, far, np.inf)
    near = shared & (pick <= pick.min() + 8)  # every rim of that colour: their backgrounds
    ref = np.median(sides[near] if near.any() else sides, axis=0)
    fit = _see_through(np.array([rims[b][0] for b in every]), np.array([rims[b][1] for b in every]))
    if clear and seen and not _fit_explains(fit, bands[0], sides[0]):
        fit = None  # the rims fitted agree whatever the picture: a liquid topping full tubes
    if _opaque_fit(fit, rims, clear):
        fit = None
    offsets = [rims[b][0] - rims[b][1] for b in clear]  # one alone may be noise, not tint
    tint = np.mean(offsets, axis=0) if len(offsets) >= 2 else np.zeros(3)
    colour = bands[int(np.argmin(pick))]
    if fit is None and np.linalg.norm(colour - ref) < 8 and np.linalg.norm(tint) < 3:
        fit = (1.0, np.zeros(3))  # clear glass, untinted: it shows what is behind it
    tinted = _tinted_rims(rims, boxes, colour)
    if tinted is not None and fit is None:
        colour, ref, fit = tinted
    return _Glass(lab, colour, ref, tuple(every), bg, fit)


TINTED = 25.0  # ΔE: a rim this near the background beside it is see-through glass


def _tinted_rims(rims: dict, boxes: list[tuple], colour: np.ndarray) -> tuple | None:
    """(colour, background beside it, fit) of tinted see-through glass, when `colour` (the
    rim colour `_glass` picked) is no glass: every rim of `boxes` showing it (one at least)
    differs from the background beside it by `TINTED` or more, while two or more rims
    (`rims`: box -> (rim colour, background beside it)) lie within `TINTED` of theirs.
    Boxes cut at the liquid's top (the faint glass above them missed) show the top liquid at
    their rims, and a liquid topping two full tubes is seen twice, as glass is; the empty
    tubes' glass shows the picture behind it, tinted. None when no such rims are seen."""
    near = [b for b, (band, side) in rims.items() if np.linalg.norm(band - side) < TINTED]
    own = [b for b in boxes if np.linalg.norm(rims[b][0] - colour) < 8]
    if len(near) < 2 or not own:
        return None
    if any(np.linalg.norm(rims[b][0] - rims[b][1]) < TINTED for b in own):
        return None
    offsets = np.array([rims[b][0] - rims[b][1] for b in near])
    k = int(np.argmin(np.linalg.norm(offsets, axis=1)))
    band, side = rims[near[k]]
    return band, side, (1.0, np.median(offsets, axis=0))


FIT_MISS = 8.0  # ΔE: a rim farther than this from a see-through fit is not glass it explains


def _fit_explains(fit: tuple | None, rim: np.ndarray, side: np.ndarray) -> bool:
    """True when a see-through fit (a, b) (or none) explains a rim seen with `side` behind it."""
    return fit is None or float(np.linalg.norm(rim - fit[0] * side - fit[1])) < FIT_MISS


ALIKE_RIMS = 8.0  # ΔE: rims this near each other are one colour (as `_glass`'s shared rims)


def _opaque_fit(fit: tuple | None, rims: dict, clear: list[tuple]) -> bool:
    """True when a see-through fit explains only rims of one colour (alike whatever the
    picture behind them: a liquid topping full tubes, not glass) and misses a rim in `clear`
    that shows the picture behind it: glass letting nothing through cannot show it."""
    if fit is None or not clear:
        return False
    if all(_fit_explains(fit, *rims[b]) for b in clear):
        return False
    fitted = np.array([rims[b][0] for b in rims if _fit_explains(fit, *rims[b])])
    if len(fitted) < 2:
        return False
    spread = np.linalg.norm(fitted[:, None] - fitted[None], axis=2)
    return bool(spread.max() < ALIKE_RIMS)


def _see_through(rims: np.ndarray, sides: np.ndarray) -> tuple | None:
    """(a, b) with rim = a * background beside + b for most rims (see-through glass of
    opacity 1 - a), refitted without the rims it does not explain (liquid up to the rim);
    None with fewer than three tubes, when under half of the rims fit, when the background
    hardly changes from tube to tube (nothing to fit) or when b is no glass colour."""
    if len(rims) < 3:
        return None
    d = np.linalg.norm(rims[:, None] - rims[None], axis=2)
    keep = (d < 8).sum(axis=1) >= 3  # start from rims that agree with two others
    if keep.sum() < 3:
        keep[:] = True
    for _ in range(3):
        x, y = sides[keep], rims[keep]
        xc, yc = x - x.mean(axis=0), y - y.mean(axis=0)
        var = float((xc * xc).sum())
        a = float(np.clip((xc * yc).sum() / var, 0, 1)) if var > 1e-6 else 0.0
        b = (y - a * x).mean(axis=0)
        err = np.linalg.norm(rims - a * sides - b, axis=1)
        keep = err < max(4.0, 2.5 * float(np.median(err[keep])))
        if keep.sum() < max(3, len(rims) / 2):
            return None
    spread = np.sqrt(var / max(1, keep.sum()))
    glass = b / max(1 - a, 1e-6)  # rim = a * background + (1 - a) * glass colour
    real = -5 <= glass[0] <= 105 and np.hypot(glass[1], glass[2]) <= 130
    return (a, b) if spread > 3 and real else None


def _flatten(img: np.ndarray, slots: list, lab: np.ndarray) -> np.ndarray:
    """The CIELAB image with thin strokes ('?' marks, glints) filtered out: a median filter
    a fifth of a tube wide keeps the edges between units where they are."""
    width = float(np.median([b[2] for b, _ in slots]))
    k = int(width / 5) // 2 * 2 + 1
    return lab if k < 3 else rgb_to_lab(cv2.medianBlur(img, min(k, 31)))


MAX_REREADS = 6  # a board's boxes are moved at most this often (a few times on real ones)


def _read_slots(
    images,
    bg,
    slots,
    layout,
    scale,
    shape,
    gaps,
    params: ReaderParams,
    grid: tuple = (),
    raised: bool = False,
    grown: bool = False,
    rereads: int = 0,
) -> Reading:
    """Segment every tube, find the unit height, hidden units and colours; build the Reading.

    `images` is the CIELAB working image and its flattened copy (see `_flatten`). `grid`
    (unit, offset) skips the unit fit. When the reading breaks the game's invariant, the
    other unit heights the fit found nearly as good are read too (see `_rival_units`), and
    the first whose reading keeps it is taken: the tubes' colours agree on the unit (with
    covered tubes, which may hold anything, only a reading with no doubt at all). A unit
    flatter than `MIN_UNIT_WIDTH` tube widths is a half or a third of one (games draw tubes
    a few widths tall holding a few units; a '?' mark, a glint or JPEG noise cut the cells),
    so its reading is replaced by the first rival's that keeps the invariant even when its
    own keeps it too (every colour run then holds two or three of its units). A reading that
    keeps the invariant but has a boundary off its unit grid, or a '?' run whose marks
    counted end off their count on it (see `_miscounted`), was perhaps pulled off by '?'
    marks miscounted: it takes the reading of the fit blind to the counts (see
    `_uncounted_unit`; a rival too when the invariant breaks) if that has no doubt at all
    (a half unit also keeps the invariant, so other rivals are not tried there). Boxes
    reaching below the liquid are cut once the unit is known, and read again (see
    `_liquid_floors`); so are boxes cut under faint glass, raised to its top (see
    `_glass_tops`; `raised`: they were); boxes ending above the liquid under them are grown
    once (`grown`: done), and read again (see `_liquid_below`). A reading whose every colour
    run is an even number of units is tried on twice the unit (see `_twice_unit`). Boxes
    move `MAX_REREADS` times at most (`rereads`: so far): on a picture of noise, a row grown
    to the others' height and cut back to its liquid's floor would take turns for ever."""
    lab = images[0]
    boxes = [b for b, doubtful in slots if not doubtful] or [b for b, _ in slots]
    glass = _glass(lab, boxes, [b for b, _ in slots], bg)
    height = float(np.median([b[3] for b in boxes]))
    flattest = MIN_UNIT_WIDTH * float(np.median([b[2] for b in boxes]))
    unit, offset, ambiguous = grid[0] if grid else None, 0.0, False
    rivals: list[tuple[float, float]] = []
    free: tuple | None = None  # the fit blind to the '?' marks counted: `_uncounted_unit`
    blind: list[tuple[float, float]] = []  # ... when it differs from the fit's unit
    under: dict = {}  # runs that may be a top unit (see `_under_headroom`), from either pass
    curve: tuple = ()  # (candidate units, their fit, offsets): the hypotheses of `_hypotheses`
    for min_len in (None,) if grid else (max(3.0, 0.04 * height), None):  # second: unit / 3
        floats: list[int] = []
        marks: dict = {}
        shortest = min_len or max(3.0, 0.35 * unit)
        per_tube = _segment_tubes(images, slots, glass, shortest, params, floats, marks)
        if not any(per_tube) and any(doubt for _, doubt in slots):
            slots = [(b, False) for b, _ in slots]  # every tube with liquid was odd: read all
            floats.clear()
            marks.clear()
            per_tube = _segment_tubes(images, slots, glass, shortest, params, floats, marks)
        under.update(marks.get("under", {}))  # a short headroom merges into the run in pass 2
        bounds = [b for (box, _), t in zip(slots, per_tube, strict=True) for b in _bounds(t, box)]
        unseen = not any(w == 1.0 for _, w, _ in bounds)  # no boundary in the board's tubes
        if not grid and sum(w == 1.0 for _, w, _ in bounds) < 3:  # too few: the added slots too
            more = bounds + _added_bounds(images, slots, glass, shortest, params, marks)
            bounds = more if _one_grid(np.array(more), height) else bounds
        if grid:
            unit, offset = grid
            ambiguous = not any(w == 1.0 for _, w, _ in bounds)
        elif sum(w == 1.0 for _, w, _ in bounds) >= 3:
            unit, offset, _ = _fit_bounds(np.array(bounds), height, _least_unit(unit))
            ambiguous = unseen  # slots read apart alone may mislead: the capacity stays a guess
            cands, cover, offs = _bounds_cover(np.array(bounds), height)
            _, lean, lean_offs = _bounds_cover(_with_tops(bounds, slots, per_tube), height)
            curve = (cands, cover, offs, lean, lean_offs)
            rivals = [(cands[i], offs[i]) for i in _rival_units(cands, cover, unit, flattest)]
            free = _uncounted_unit(np.array(bounds), height, _least_unit(free and free[0]))
            blind = [free] if free and abs(free[0] - unit) > 0.06 * unit else []
        elif _covers_only(per_tube):  # nothing shows the unit: the capacity is a guess
            unit, ambiguous, curve, rivals, blind = (
                (height - offset) / GUESSED_FIT,
                True,
                (),
                [],
                [],
            )
        else:  # no boundary between two colours: only the liquid's heights tell the unit
            unit, _ = _unit_height([s for t in per_tube if t for s in t], height, _least_unit(unit))
            ambiguous = unseen
            cands, cover = _length_cover([s for t in per_tube if t for s in t], height)
            curve = (cands, cover, np.zeros_like(cands))
            rivals = [(cands[i], 0.0) for i in _rival_units(cands, cover, unit, flattest)]
            blind = []
    fixed = grid or rereads >= MAX_REREADS  # no box is moved again: a picture of noise
    tops = slots if fixed or raised else _glass_tops(lab, slots, layout, unit, per_tube)
    if tops != slots:  # boxes cut under faint glass: read again (the glass too) and refit
        again = (images, bg, tops, layout, scale, shape, gaps, params, (), True)
        return _read_slots(*again, rereads=rereads + 1)
    floored = slots if fixed else _liquid_floors(slots, per_tube, layout, unit)
    below = floored == slots and not fixed and not grown  # boxes ending above it: grown once
    if below:
        floored = _liquid_below(images[1], slots, per_tube, layout, glass, unit, params.jump)
    if floored != slots:  # boxes reaching below the liquid: read again from its floor
        again = (images, bg, floored, layout, scale, shape, gaps, params, (), raised)
        return _read_slots(*again, grown or below, rereads + 1)
    for (box, _), segs in zip(slots, per_tube, strict=True):
        if segs is not None:
            segs[:] = _counted(images, box, segs, unit, offset, marks)
    short = slots if fixed else _short_rows(lab, slots, layout, unit, per_tube)
    if short != slots:  # a row too short for the fullest tube: read again, its tops raised
        again = (images, bg, short, layout, scale, shape, gaps, params, (), True, grown)
        return _read_slots(*again, rereads + 1)
    lids = [
        k
        for k, run in under.items()
        if _add_top(per_tube[k], run, slots[k][0], unit, offset, glass)
    ]
    geo = _fits((0, 0, 0, height), unit, offset)  # headroom 0.2 to 1.1 units
    unsure = _read_missed(images, slots, per_tube, glass, unit, offset, geo, params, marks, layout)
    for k in _reclaimable(slots, per_tube, marks):  # a liquid under liquid in a slot read alone
        box = slots[k][0]
        segs = _segment_tubes(images, [(box, False)], glass, shortest, params, None, marks)[0]
        segs = _counted(images, box, segs, unit, offset, marks) if segs else segs
        if segs and sum(s.units for s in segs) <= _fits(box, unit, offset):
            per_tube[k] = segs  # not the headroom over it in a colour near a liquid's
    capped = _capped_hidden(per_tube, slots, _lows_of(slots, marks), unit, offset)
    covered_idx = [k for k, t in enumerate(per_tube) if t is None]
    rims = [box[1] + RIM_UNITS * unit for box, _ in slots]
    all_boxes = [box for box, _ in slots]
    rimmed = [
        -np.inf if _glass_above(lab, box, _room(box, all_boxes)) else box[1] + RIM_REACH * unit
        for box in all_boxes
    ]
    out = _choose(per_tube, geo, covered_idx, params, rims, rimmed)
    lidded = _covers_from_top(per_tube, [b for b, _ in slots], out[0], out[2], (unit, offset))
    lidded += _striped_empties(lab, out[0], [b for b, _ in slots])
    if lidded:  # a cover whose icon was missed: it hides the tube from its top
        for k in lidded:
            per_tube[k] = None
        covered_idx = [k for k, t in enumerate(per_tube) if t is None]
        out = _choose(per_tube, geo, covered_idx, params, rims, rimmed)
        unsure = sorted(set(unsure) | set(lidded))
    if (self_check(out[0], out[2]) or _hidden_tops(out[0])) and not grid:  # marks missed?
        for unmarked in _unmarked(per_tube, marks.get("fill"), bool(covered_idx)):
            alt = _choose(unmarked, geo, covered_idx, params, rims, rimmed)
            if not self_check(alt[0], alt[2]):
                per_tube, out = unmarked, alt
                break
    guessed: list[int] = []  # tubes given '?' cells that show no mark, for the counts alone
    if self_check(out[0], out[2]) and not grid:
        for variant in _counted_cells(per_tube, bool(covered_idx), out[2]):
            alt = _choose(variant, geo, covered_idx, params, rims, rimmed)
            if not self_check(alt[0], alt[2]):
                guessed = _changed_tubes(per_tube, variant)
                per_tube, out = variant, alt
                break
    if not grid:  # a liquid's top unit read as glass in one tube, as liquid in another?
        boxes_all = [b for b, _ in slots]
        alike, tops = _alike_tops(lab, per_tube, _lows_of(slots, marks), boxes_all, (unit, offset))
        kept = _liquid_kept(alike, tops, (geo, covered_idx, params))
        if kept is not None:
            per_tube, out = alike, kept
    tubes, conf, capacity, level, problems, palette = out
    flat = not grid and unit < flattest  # a unit this flat is a half or a third of one
    broken = bool(self_check(tubes, capacity)) or flat
    off = any(s.fit < MIN_FIT for t in per_tube if t for s in t)  # a boundary off the grid
    off = off or (not grid and _miscounted(np.array(bounds), unit, offset))
    kept_weak: tuple | None = None  # (rival, reading): the first doubtful rival keeping it
    for rival in rivals + blind if broken else blind if off else []:
        other = _read_slots(images, bg, slots, layout, scale, shape, gaps, params, rival, raised)
        weak = bool(other.covered) and not other.ok  # covered tubes may hold anything
        if broken and weak and kept_weak is None and _keeps_counts(other):
            kept_weak = (rival, other)
        if broken and not weak and not self_check(other.tubes, other.capacity):
            board = (images, bg, slots, layout, scale, shape, gaps)
            other = _twice_unit(other, rival, board, params)
            return _hypotheses(other, curve, (height, flattest), board, params)
        if not broken and other.ok:  # the rival's grid holds every boundary, no doubt left
            return other
    if broken and not grid and self_check(tubes, capacity):  # no rival unit keeps it either
        for faint in _faint_cells(images, slots, per_tube, unit, offset, marks.get("fill")):
            alt = _choose(faint, geo, covered_idx, params, rims, rimmed)
            if not self_check(alt[0], alt[2]):  # thin marks missed: '?' cells kept it
                per_tube, out = faint, alt
                tubes, conf, capacity, level, problems, palette = out
    lows: list[int] = []
    choice = (geo, covered_idx, params, rims, rimmed)  # `_choose`'s arguments but the tubes
    if broken and not grid and self_check(tubes, capacity):  # a liquid read as glass?
        fuller, lows = _grounded(images, slots, per_tube, marks, unit, offset)
        if lows:
            first = _choose(fuller, geo, covered_idx, params, rims, rimmed)
        else:
            fuller, first = per_tube, out
        lows_held = {**_lows_of(slots, marks), **_held_tops(under, lids, marks)}
        fuller, tops = _completed(fuller, lows_held, first, [b for b, _ in slots], (unit, offset))
        per_tube, out, lows = _kept((per_tube, out), fuller, sorted(set(lows + tops)), choice)
        tubes, conf, capacity, level, problems, palette = out
    overs: list[int] = []
    if broken and not grid and self_check(tubes, capacity):  # glass read as a liquid?
        fewer, overs = _over_glass(per_tube, out, rims)
        per_tube, out, overs = _kept((per_tube, out), fewer, overs, choice)
        tubes, conf, capacity, level, problems, palette = out
    blurred: list[int] = []
    if broken and not grid and self_check(tubes, capacity):  # two near colours in one run?
        cut, blurred = _blurred_runs(per_tube, out)
        per_tube, out, blurred = _kept((per_tube, out), cut, blurred, choice)
        tubes, conf, capacity, level, problems, palette = out
    if broken and not grid and self_check(tubes, capacity) and kept_weak:  # still broken
        return _weak_rival(kept_weak, (images, bg, slots, layout, scale, shape, gaps), params)
    if ambiguous:  # no boundary between two colours in the tubes read with the board
        problems.append(
            (
                f"capacity {capacity} {GUESS}: no two colours meet in "
                "any tube whose outline was found, so nothing sure shows the unit height",
                [],
            )
        )
    else:
        problems += [
            (text, [])
            for text in _even_runs(
                _colour_runs(
                    _one_colour_runs(_read_runs(per_tube, tubes), tubes), marks.get("fill")
                ),
                capacity,
            )
        ]
    problems += [(f"tube-like gap in row {r} at x={x}: nothing read there", []) for r, x in gaps]
    problems += [(text, []) for text in _none_full(tubes, capacity, (height - offset) / unit)]
    problems += [(text, []) for text in _uneven_rows(layout) + _few_tubes(layout)]
    problems += [(text, []) for text in _too_much_room(tubes, capacity)]
    problems += [(text, []) for text in _unlike_pitches([b for b, _ in slots], layout)]
    problems += [
        (
            f"tubes {a} and {b} overlap: games never draw one tube over another, so one is no tube",
            [a, b],
        )
        for a, b in _overlaps([b for b, _ in slots], layout)
    ]
    problems += [
        (f"tube {k}: full of a colour seen nowhere else, near the picture behind: empty?", [k])
        for k in _tinted_full(lab, [b for b, _ in slots], per_tube, tubes, capacity)
    ]
    problems += [
        (f"tube {k}: full of one colour, on a board with covers: a cover, its icon missed?", [k])
        for k in _complete_among_covers(tubes, capacity)
    ]
    problems += [
        (
            f"tube {k}: its top a colour seen nowhere else, near the glass or the picture: glass?",
            [k],
        )
        for k in _clear_tops(lab, [b for b, _ in slots], per_tube, tubes)
    ]
    problems += [
        (f"tube {k}: its top unit read as '?', but games show every tube's top: a liquid?", [k])
        for k in _hidden_tops(tubes)
    ]
    problems += [
        (f"tube {k}: a unit in the '?' cells' grey, but no mark found on it: check it", [k])
        for k in _like_hidden(per_tube, marks.get("fill"), marks.get("symbols", False))
    ]
    problems += [
        (f"tube {k}: a grey unit between '?' cells: a '?' whose mark was missed?", [k])
        for k in _grey_among_hidden(per_tube, marks.get("fill"))
    ]
    problems += [
        (f"tube {k}: grey read as '?' cells for the colour counts, no mark seen: check it", [k])
        for k in guessed
    ]
    problems += [
        (f"tube {k}: read as covered, but no cover's icon was found: check it", [k]) for k in unsure
    ]
    problems += [
        (f"tube {k}: colour above empty glass, so a liquid may be read as glass", [k])
        for k in floats
    ]
    problems += [
        (f"tube {k}: a run under the headroom, unlike its glass, read as glass: a liquid?", [k])
        for k in lids + marks.get("lids", [])
        if k not in lows
    ]
    problems += [(f"tube {k}: {FORCED_LIQUID}", [k]) for k in lows]
    problems += [
        (f"tube {k}: the run over its '?' cells, near the glass, read as its top unit", [k])
        for k in capped
    ]
    problems += [(f"tube {k}: {FORCED_GLASS}", [k]) for k in overs]
    problems += [(f"tube {k}: {FORCED_CUT}", [k]) for k in blurred]
    inv = 1 / scale
    out_boxes = [tuple(round(v * inv) for v in b) for b, _ in slots]
    reading = Reading(
        tubes=tubes,
        capacities=[capacity] * len(tubes),
        palette=palette,
        boxes=out_boxes,
        confidence=conf,
        level=level,
        layout=layout,
        unit_height=unit * inv,
        covered=covered_idx,
        problems=[text for text, _ in problems],
        size=(int(shape[1]), int(shape[0])),
        doubtful=sorted({k for _, ks in problems for k in ks}),
    )
    if grid or ambiguous:
        return reading
    board = (images, bg, slots, layout, scale, shape, gaps)
    reading = _twice_unit(reading, (unit, offset), board, params)
    return _hypotheses(reading, curve, (height, flattest), board, params)


def _capped_hidden(
    per_tube: list, slots: list, lows: dict[int, _Segment], unit: float, offset: float
) -> list[int]:
    """Tubes whose stack (`per_tube`, counted) tops out in '?' cells and gets the run taken
    for glass right on them (`lows`, see `_glass_on`) as its top unit, in place: games hide
    only the units under a tube's top one (the one a player may pour), so a run there that is
    not surely glass (`SURE_GLASS` or further) and ends on the unit grid a whole unit or more
    up (see `_top_unit`) is a liquid near the glass's colour; so is the unit right on them
    of such a run reaching the rim a whole unit tall and more (`LAST_UNIT`: the headroom's
    glass merged into it). They stay in doubt."""
    out = []
    for k, run in sorted(lows.items()):
        segs = per_tube[k]
        if not segs or segs[-1].kind != "hidden" or run.glass < SURE_GLASS:
            continue
        top = _top_unit(segs, run, slots[k][0], unit, offset)
        on = abs(segs[-1].y0 - run.y1) <= 0.25 * unit
        if top is None and on and run.length >= LAST_UNIT * unit:
            y1 = segs[-1].y0
            top = replace(run, y0=round(y1 - unit), y1=y1, kind="liquid", units=1, fit=1.0)
        if top is not None:
            segs.append(top)
            out.append(k)
    return out


WEAK_RIVAL = "was read on a rival unit"  # see `_weak_rival`


def _keeps_counts(reading: Reading) -> bool:
    """True when `reading` keeps the game's invariant with at least `LEAST_CAPACITY` units a
    tube: fewer keep it too easily (two units of each colour, covered tubes holding the rest)
    to outweigh the fit, as in `_twice_unit`."""
    return reading.capacity >= LEAST_CAPACITY and not self_check(reading.tubes, reading.capacity)


def _weak_rival(kept: tuple, board: tuple, params: ReaderParams) -> Reading:
    """The reading on a rival unit (twice, half, ... the fitted one: see `_rival_units`) that
    keeps the game's invariant, with doubts, in place of the fit's reading that breaks it even
    after every repair: the colour counts are the evidence between two grids the boundaries
    fit nearly alike (a boundary a round bottom's outline split off, or a row whose boxes end
    lower, pulls the fit to a harmonic: 15060). Covered tubes, which may hold anything, leave
    it unconfirmed, so the doubt stays on the reading."""
    rival, other = kept
    other = _twice_unit(other, rival, board, params)
    note = (
        f"capacity {other.capacity} {WEAK_RIVAL}: the best fit's units broke the colour "
        "counts, and covered tubes leave this one unconfirmed"
    )
    return replace(other, problems=[*other.problems, note])


def _lows_of(slots: list, marks: dict) -> dict[int, _Segment]:
    """Per slot index, the run taken for glass right above its stack (see `_glass_on`), from
    the board's reading or, for a slot the row's spacing added, its reading alone."""
    lows = marks.get("lows", {})
    return {k: lows[box] for k, (box, _) in enumerate(slots) if box in lows}


def _kept(first: tuple, variant: list, changed: list[int], choice: tuple) -> tuple:
    """(segments, reading as `_choose` gives it, tubes changed) of `variant` when it changes
    some tube (`changed`) and its reading keeps the game's invariant; else `first` (segments,
    reading) and no tube changed. `choice`: `_choose`'s other arguments."""
    alt = _choose(variant, *choice) if changed else first[1]
    if changed and not self_check(alt[0], alt[2]):
        return variant, alt, changed
    return first[0], first[1], []


OFF_GRID = "not a whole number"  # a boundary between two units (see `_doubtful_units`)
OFF_SHARE = 0.25  # of the runs: fewer boundaries off the grid are noise (a glint, JPEG blocks)
LEAST_OFF = 2  # boundaries: one alone off the grid (of one or two runs) is no evidence on the unit
HYPOTHESIS_FIT = 0.5  # of the best fit: a capacity's unit fitting worse is no hypothesis
MOST_HYPOTHESES = 4  # capacities read again at most (each is a whole reading of the board)
HARMONIC_TOL = 0.06  # of a unit: two grids this near are one (as in `_rival_units`)


def _score(reading: Reading) -> tuple[int, int, int]:
    """How doubtful a whole reading is, lower better: the game's invariant broken, boundaries
    off its unit grid, other doubts."""
    off = sum(OFF_GRID in p for p in reading.problems)
    return int(bool(self_check(reading.tubes, reading.capacity))), off, len(reading.problems)


def _off_share(reading: Reading) -> float:
    """Boundaries off the unit grid per colour run read (a run's top is a boundary)."""
    runs = sum(len(list(groupby(t))) for t in reading.tubes if t)
    return sum(OFF_GRID in p for p in reading.problems) / max(1, runs)


TOP_WEIGHT = 0.1  # of a boundary: a liquid's surface (a meniscus, headroom merged in) only
TIED_FIT = 0.05  # of a fit: units fitting the boundaries this nearly alike are tied


def _with_tops(bounds: list, slots: list, per_tube: list) -> np.ndarray:
    """`bounds` (see `_bounds`) and each tube's liquid surface again at `TOP_WEIGHT`: where
    few boundaries between colours show (one height alone fits a whole stretch of units,
    each with its offset), the surfaces tell which of those units stacks the liquid."""
    tops = [b for (box, _), t in zip(slots, per_tube, strict=True) for b in _bounds(t, box)[-1:]]
    return np.array(bounds + [(h, TOP_WEIGHT, 0) for h, w, known in tops if w == 0 and not known])


def _capacity_units(curve: tuple, height: float, flattest: float) -> list[tuple[int, tuple]]:
    """(capacity, (unit, offset)) for each capacity the tubes' height allows: its unit is the
    best-fitting one (see `_bounds_cover`) among those giving that capacity in a box `height`
    rows tall (headroom 0.1 to 1.1 units, as `_fits`), no flatter than `flattest`; capacities
    whose unit fits less than `HYPOTHESIS_FIT` of the best, or is no peak of the fit (only
    the slope of a neighbouring capacity's peak), are left out. Among units of one capacity
    that fit within `TIED_FIT` alike, the one the liquid's surfaces fit best is taken (see
    `_with_tops`). Best fit first."""
    cands, cover, offs = curve[:3]
    lean, lean_offs = curve[3:] if len(curve) == 5 else (cover, offs)
    caps = np.round((height - offs) / cands - 0.6).astype(int)
    below = np.concatenate([[-np.inf], cover[:-1]])
    above = np.concatenate([cover[1:], [-np.inf]])
    peak = (cover >= below) & (cover >= above)  # a shoulder of another capacity's peak is none
    out = []
    for c in sorted(set(caps.tolist())):
        idx = np.flatnonzero((caps == c) & (cands >= flattest))
        if c < 2 or not len(idx):
            continue
        best = idx[int(np.argmax(cover[idx]))]
        if peak[best] and cover[best] >= HYPOTHESIS_FIT * cover.max():
            lean_caps = np.round((height - lean_offs[idx]) / cands[idx] - 0.6)
            tied = idx[(cover[idx] >= (1 - TIED_FIT) * cover[best]) & (lean_caps == c)]
            pick = tied[int(np.argmax(lean[tied]))] if len(tied) else best
            grid = (float(cands[pick]), float((lean_offs if len(tied) else offs)[pick]))
            out.append((float(cover[best]), c, grid))
    out.sort(key=lambda x: -x[0])
    return [(c, grid) for _, c, grid in out]


def _hypotheses(
    reading: Reading, curve: tuple, size: tuple, board: tuple, params: ReaderParams
) -> Reading:
    """`reading`, or the board read again under another capacity hypothesis when that whole
    reading is clearly better: it keeps the invariant with every boundary on its grid (see
    `_score`), where `reading` leaves `OFF_SHARE` of its boundaries off its grid (fewer are
    noise: a glint, JPEG blocks). Its unit was then a half, a third or twice the drawn one,
    or one capacity off. A reading that only breaks the invariant is left to the rules
    that read its units again (a unit of the right grid misread breaks it as well). Each
    capacity the liquid's heights allow (`_capacity_units`) is a hypothesis, read whole with
    its best-fitting unit; one whose every colour run is an even number (a multiple of three)
    of units is a finer harmonic of a coarser reading (it keeps the invariant whenever that
    does), so that coarser one is read instead (see `_twice_unit`). Of clean readings, one
    whose capacity leaves a headroom games draw (see `_roomy`) beats one that does not: the
    tube's height is evidence too. When two hypotheses read alike on both, or covered or
    hidden units leave the counts unable to confirm the one taken, a doubt stays on it."""
    few = _score(reading)[1] < LEAST_OFF
    if not curve or few or _off_share(reading) < OFF_SHARE:  # the unit itself is not in doubt
        return reading
    height, flattest = size
    clean = []
    scale = board[4] or 1.0  # working pixels per picture pixel (the grids are in working ones)
    unit = reading.unit_height * scale
    for c, grid in _capacity_units(curve, height, flattest)[:MOST_HYPOTHESES]:
        if c == reading.capacity and abs(grid[0] - unit) <= HARMONIC_TOL * unit:
            continue
        other = _read_slots(*board, params, grid)
        if _run_factor(other) > 1:  # a finer harmonic of a coarser reading: read that one
            other = _twice_unit(other, grid, board, params)
        if _score(other)[:2] == (0, 0) and _run_factor(other) == 1:
            roomy = _roomy(other, height, scale, grid[1])
            clean.append(((int(not roomy), *_score(other)), other))
    if not clean:
        return reading
    clean.sort(key=lambda x: x[0])
    best = clean[0][1]
    roomy = clean[0][0][0]  # 0 when the best one's headroom is one games draw
    rivals = [r.capacity for k, r in clean[1:] if r.capacity != best.capacity and k[0] <= roomy]
    notes = []
    if rivals:
        notes.append(
            f"capacity {best.capacity} or {rivals[0]}: the board reads alike on both units, "
            "every boundary on the grid and every colour complete"
        )
    if not best.fully_visible:
        notes.append(
            f"capacity {best.capacity} read on a second unit, the first leaving boundaries "
            "off its grid; covered or hidden units leave the colour counts unable to confirm "
            "it: check it"
        )
    return replace(best, problems=[*best.problems, *notes])


def _roomy(reading: Reading, height: float, scale: float, offset: float) -> bool:
    """True when a box `height` working rows tall holds the reading's capacity at its unit
    under a headroom of 0.1 to 1.1 units (as `_fits`): a reading whose counts make the
    capacity fewer units than its unit stacks in the tube leaves a headroom no game draws."""
    return _fits((0, 0, 0, height), reading.unit_height * scale, offset) == reading.capacity


LEAST_CAPACITY = 3  # units: the fit prefers tubes holding at least this many (see `_pick_unit`)


def _run_factor(reading: Reading) -> int:
    """2 or 3 when the reading says every colour run is a multiple of that many units (see
    `_even_runs`), else 1."""
    if any(EVEN_RUNS in p for p in reading.problems):
        return 2
    return 3 if any(TRIPLE_RUNS in p for p in reading.problems) else 1


def _twice_unit(reading: Reading, grid: tuple, board: tuple, params: ReaderParams) -> Reading:
    """`reading`, or the reading on a grid of twice (three times) its unit when every colour
    run of it is an even number (a multiple of three) of units (see `_even_runs`) and that
    reading keeps the game's invariant with at least `LEAST_CAPACITY` units a tube; else,
    when every run of '?' cells is a multiple too, the reading with every run cut to a half
    (a third: see `_halved`) if it keeps the invariant. Such runs show no boundary the
    coarser grid misses: the finer one only split every unit in two or three (a '?' mark, a
    glint or JPEG noise cut the cells), and the largest unit explaining every boundary is
    the drawn one (see `_pick_unit`). The doubt stays on the reading taken: the picture
    cannot tell them apart."""
    factor = _run_factor(reading)
    if factor == 1 or reading.capacity < factor * LEAST_CAPACITY - 1:
        return reading
    unit, offset = grid
    images, bg, slots, layout, scale, shape, gaps = board
    coarse = (factor * unit, offset)
    other = _read_slots(images, bg, slots, layout, scale, shape, gaps, params, coarse)
    kept = other.capacity >= LEAST_CAPACITY and not self_check(other.tubes, other.capacity)
    if not kept or (other.covered and not other.ok):  # covered tubes may hold anything
        other = _halved(reading, factor)
        if other is None or self_check(other.tubes, other.capacity):
            return reading
    size = "half" if factor == 2 else "a third of"
    many = "an even number" if factor == 2 else "a multiple of three"
    note = (
        f"capacity {other.capacity} or {reading.capacity}: every colour run at units of {size} "
        f"the height was {many} of them; read with the larger units"
    )
    return replace(other, problems=[*other.problems, note])


def _halved(reading: Reading, factor: int = 2) -> Reading | None:
    """`reading` with every run of one label (a colour or '?') cut to a half (`factor` 2) or
    a third (3) and the capacity too, the units that many times as tall, its doubt about
    runs dropped (the caller states its own); None when some run or the capacity is no
    multiple of `factor`, or fewer than `LEAST_CAPACITY` units a tube would be left. Each
    unit's confidence is its group's least."""
    if reading.capacity % factor or reading.capacity // factor < LEAST_CAPACITY:
        return None
    tubes: list[list[str] | None] = []
    conf: list[list[float] | None] = []
    for t, c in zip(reading.tubes, reading.confidence, strict=True):
        if t is None:
            tubes.append(None)
            conf.append(None)
            continue
        if any(len(list(run)) % factor for _, run in groupby(t)):
            return None
        tubes.append(t[::factor])
        conf.append([min(c[k : k + factor]) for k in range(0, len(c), factor)] if c else c)
    capacity = reading.capacity // factor
    level = None
    if reading.fully_visible and not self_check(tubes, capacity):
        try:
            level = Level.make([tuple(t) for t in tubes if t is not None], capacity)
        except PuzzleError:  # defensive, as in `_label`: the reading keeps its doubt anyway
            level = None
    return replace(
        reading,
        tubes=tubes,
        confidence=conf,
        capacities=[capacity] * len(tubes),
        level=level,
        unit_height=factor * reading.unit_height,
        problems=[p for p in reading.problems if EVEN_RUNS not in p and TRIPLE_RUNS not in p],
    )


TINT_NEAR = 20.0  # ΔE: a liquid this near the picture beside its tube may be tinted glass


def _tinted_full(lab: np.ndarray, boxes: list, per_tube: list, tubes: list, capacity: int) -> list:
    """Tubes read full of one colour in one run, seen in no other tube, within `TINT_NEAR` of
    the background beside the run: an empty tube of tinted glass looks so (games draw liquids
    apart from the picture behind the tubes; the glass model may have been taken elsewhere)."""
    counts = Counter(u for t in tubes if t for u in t)
    out = []
    for k, (t, segs) in enumerate(zip(tubes, per_tube, strict=True)):
        if not t or not segs or len(t) != capacity or counts[t[0]] != capacity:
            continue
        runs = [s for s in segs if s.kind == "liquid"]
        if len(runs) != 1:
            continue
        if _like_picture(lab, boxes, k, runs[0]):
            out.append(k)
    return out


def _like_picture(lab: np.ndarray, boxes: list, k: int, seg: _Segment) -> bool:
    """True when a run of tube k is within `TINT_NEAR` of the picture beside the tube at its
    rows: tinted or clear glass over the picture behind."""
    side = _beside(lab, boxes[k], seg.y0, seg.y1, _room(boxes[k], boxes))
    return side is not None and bool(np.linalg.norm(seg.lab - side) < TINT_NEAR)


def _clear_tops(lab: np.ndarray, boxes: list, per_tube: list, tubes: list) -> list[int]:
    """Tubes whose top run is a liquid in a colour seen in no other tube, within `TINT_NEAR`
    of the empty glass or of the picture beside it, on a board whose counts cannot check it
    (a covered tube or a '?' cell): clear glass over a picture, or a headroom the box left
    out, reads as just such a colour, and the unknown units take in its count."""
    if _fully_visible(tubes):
        return []
    seen = Counter(u for t in tubes if t for u in set(t))
    out = []
    for k, (t, segs) in enumerate(zip(tubes, per_tube, strict=True)):
        if not t or not segs or segs[-1].kind != "liquid" or t[-1] == HIDDEN or seen[t[-1]] > 1:
            continue
        if segs[-1].glass < TINT_NEAR or _like_picture(lab, boxes, k, segs[-1]):
            out.append(k)
    return out


def _complete_among_covers(tubes: list, capacity: int) -> list[int]:
    """Tubes read full of one colour on a board with a covered tube: a cover whose icon was
    missed reads so (one flat colour over the whole tube), and the covered tubes' unknown
    units keep every count. Games deal no tube complete, and the invariant cannot confirm
    one among covers."""
    if all(t is not None for t in tubes):
        return []
    return [
        k
        for k, t in enumerate(tubes)
        if t and len(t) == capacity and len(set(t)) == 1 and t[0] != HIDDEN
    ]


# of a full tube's headroom (the board's box height less its units and bottom): a colour
# starting above this share of it, from the box's top, starts where no liquid can (half
# way between a cover's top and a full tube's surface); a headroom under COVER_HEADROOM
# units leaves the two too close to tell
COVER_REACH = 0.5
COVER_HEADROOM = 0.25


def _covers_from_top(
    per_tube: list, boxes: list, tubes: list, capacity: int, grid: tuple
) -> list[int]:
    """Tubes read full of one colour on a board with covers (see `_complete_among_covers`)
    whose colour starts at the box's top, above `COVER_REACH` of the headroom a full tube
    leaves: liquid fills a tube from its bottom, so a full tube shows its glass over the
    top unit, while a cover hides the tube from its top. `grid` is (unit, offset)."""
    unit, offset = grid
    out = []
    for k in _complete_among_covers(tubes, capacity):
        segs, (_, y, _, h) = per_tube[k], boxes[k]
        filled = [s for s in segs or [] if s.kind != "empty"]
        headroom = h - offset - capacity * unit
        if not filled or headroom < COVER_HEADROOM * unit:
            continue
        if min(s.y0 for s in filled) - y < COVER_REACH * headroom:
            out.append(k)
    return out


# a cloth's folds drawn as upright stripes across a cover: each turns from light to shade by
# this much lightness (ΔL; glass, its glints and JPEG noise stay within a few, an outline's
# inner edge once), ...
STRIPE_SWING = 8.0
STRIPE_SWINGS = 3  # ... turning at least this often across its middle (a glint turns once)
STRIPE_SHARE = 0.5  # ... with most of its middle columns off their median by over 6 ΔL
STRIPE_OFF = 6.0
STRIPE_AGREE = 3.0  # ΔL: folds run the cover's height, so its halves' stripes differ less


def _swings(prof: np.ndarray, least: float = STRIPE_SWING) -> int:
    """Turns of a profile between a rise and a fall, each of at least `least`."""
    turns, sign, start, peak = 0, 0, float(prof[0]), float(prof[0])
    for v in map(float, prof[1:]):
        if sign == 0 and abs(v - start) >= least:
            sign, peak = (1 if v > start else -1), v
        elif sign and (v - peak) * sign > 0:
            peak = v
        elif sign and abs(v - peak) >= least:
            turns, sign, peak = turns + 1, -sign, v
    return turns


def _striped(lab: np.ndarray, box: tuple) -> bool:
    """True when a tube's middle columns (60 % of its width, rows a tenth in from its ends)
    show upright stripes: their lightness swings (`STRIPE_SWING`) `STRIPE_SWINGS` times or
    more across the tube, most columns off the median, alike in the top and bottom halves.
    Empty glass shows the picture behind it, flat but for a glint or an outline's edge."""
    x, y, w, h = box
    core = lab[y + h // 10 : y + h - h // 10, max(0, x + w // 5) : x + w - w // 5, 0]
    if core.shape[0] < 4 or core.shape[1] < 6:
        return False
    prof = np.median(core, axis=0)
    top, bottom = (np.median(half, axis=0) for half in np.array_split(core, 2))
    off = np.abs(prof - np.median(prof)) > STRIPE_OFF
    return bool(
        _swings(prof) >= STRIPE_SWINGS
        and off.mean() >= STRIPE_SHARE
        and np.abs(top - bottom).mean() < STRIPE_AGREE
    )


def _striped_empties(lab: np.ndarray, tubes: list, boxes: list) -> list[int]:
    """Tubes read empty on a board with covers whose inside is striped (see `_striped`): a
    curtain whose icon is lost in its folds reads as one run near the glass's colour, and
    the covered tubes' unknown units keep every count, so only the stripes tell it."""
    if all(t is not None for t in tubes):
        return []
    return [k for k, t in enumerate(tubes) if t == [] and _striped(lab, boxes[k])]


def _hidden_tops(tubes: list) -> list[int]:
    """Tubes whose top unit is read as '?': games hide only the units under the top one (the
    top is the one a player may pour), so a liquid there was taken for a '?' cell."""
    return [k for k, t in enumerate(tubes) if t and t[-1] == HIDDEN]


# doubts other rules act on, found among a reading's problems by these words
GUESS = "is a guess from the tubes' height"  # no boundary showed the unit (see `_sound`)
EVEN_RUNS = "every colour run is an even number of units"  # see `_twice_unit`
TRIPLE_RUNS = "every colour run is a multiple of three units"  # ... and three times the unit


def _colour_runs(per_tube: list, fill: np.ndarray | None = None) -> list[int]:
    """Units of every liquid run, a plain top split off a '?' run (see `_unmarked_top`, and
    `_fill_piece`) counted with that run: on a grid of half or a third of the unit, a mark
    filling part of a '?' cell leaves the rest plain, split off as a liquid of the cells'
    grey."""
    out = []
    for t in per_tube:
        for below, s in zip([None, *(t or [])], t or [], strict=False):
            if s.kind != "liquid":
                continue
            joined = (
                below is not None
                and below.kind == "hidden"
                and (s.cut or _fill_piece(s, below, fill))
            )
            out.append(s.units + below.units if joined else s.units)
    return out


def _read_runs(per_tube: list, tubes: list) -> list:
    """`per_tube` cut to the units the reading kept of each tube, from the bottom: a top run
    the colour counts took for glass (see `_choose`: a rare colour at the top, a headroom
    merged in at the rim) is no liquid run, so it neither hides nor fakes that every run is
    even (15036: glass read as one and seven units of half the unit hid it)."""
    out: list = []
    for segs, labels in zip(per_tube, tubes, strict=True):
        if not segs or labels is None:
            out.append(segs)
            continue
        kept, left = [], len(labels)
        for s in segs:
            if left <= 0:
                break
            kept.append(s if s.units <= left else replace(s, units=left))
            left -= s.units
        out.append(kept)
    return out


def _one_colour_runs(per_tube: list, tubes: list) -> list:
    """`per_tube` with neighbouring liquid runs read as one colour joined into one run, when
    the picture draws no line between a colour's units: more units of one colour meet inside
    one run than across a cut between two runs of that colour (a shade or a glint down the
    liquid cut it). A game drawing such lines cuts every run into its units, so its units
    stay apart. Tubes whose runs do not match their labels unit for unit are left alone."""
    inside = sum(s.units - 1 for t in per_tube if t for s in t if s.kind == "liquid")
    pairs = [_labelled(segs, t) for segs, t in zip(per_tube, tubes, strict=True)]
    across = sum(
        a[1] == b[1] and a[0].kind == b[0].kind == "liquid"
        for p in pairs
        for a, b in pairwise(p or [])
    )
    if not across or inside <= across:
        return per_tube
    return [_joined(p) if p else segs for p, segs in zip(pairs, per_tube, strict=True)]


def _labelled(segs: list | None, labels: list | None) -> list[tuple] | None:
    """(run, its label) bottom up, or None when the runs' units do not match `labels`."""
    if not segs or labels is None or sum(s.units for s in segs) != len(labels):
        return None
    starts = np.cumsum([0] + [s.units for s in segs])[:-1]
    return [(s, labels[int(i)]) for s, i in zip(segs, starts, strict=True)]


def _joined(pairs: list[tuple]) -> list[_Segment]:
    """The runs of `pairs` (see `_labelled`), neighbouring liquids of one label joined."""
    out: list[tuple] = []
    for s, name in pairs:
        if out and s.kind == out[-1][0].kind == "liquid" and name == out[-1][1]:
            low = out[-1][0]
            out[-1] = (replace(low, y0=s.y0, units=low.units + s.units), name)
        else:
            out.append((s, name))
    return [s for s, _ in out]


def _fill_piece(seg: _Segment, below: _Segment, fill: np.ndarray | None) -> bool:
    """True when a liquid run of one unit on a '?' run is a grey within `SAME_FILL` of the
    '?' cells' fill (see `_hidden_fill`): a piece of its top cell the mark left plain, no
    liquid (a mark fills most of its cell: on a grid of a half or a third of the unit, what
    it leaves plain is one unit; a longer grey run is a grey liquid, as in seed 1148)."""
    if fill is None or seg.units != 1 or not _split_cell(seg, below):
        return False
    return float(np.linalg.norm(seg.lab - fill)) <= SAME_FILL


def _even_runs(runs: list[int], capacity: int) -> list[str]:
    """The doubt when every colour run is an even number of units: units of twice the height
    fit the picture as well (and no colour of an odd capacity is made of even runs alone);
    else when every run is a multiple of three units (see `_triple_runs`)."""
    if not runs or any(u % 2 for u in runs):
        return _triple_runs(runs, capacity)
    either = f"{capacity} or {capacity // 2}" if capacity % 2 == 0 else f"{capacity} (odd)"
    return [f"capacity {either}: {EVEN_RUNS}, so units of twice the height fit the picture as well"]


def _triple_runs(runs: list[int], capacity: int) -> list[str]:
    """The doubt when every colour run is a multiple of three units: units of three times the
    height fit the picture as well (a grid of a third of the drawn unit, its boundaries one
    in three on a colour change, keeps the counts whenever the drawn one does)."""
    if not runs or any(u % 3 for u in runs):
        return []
    either = f"{capacity} or {capacity // 3}" if capacity % 3 == 0 else f"{capacity}"
    return [f"capacity {either}: {TRIPLE_RUNS}, so units of three times the height fit as well"]


THIN_HEADROOM = 0.4  # units: a unit a few % short fits one more unit under this headroom


def _none_full(tubes: list, capacity: int, ratio: float = np.inf) -> list[str]:
    """The doubt when the capacity comes from the tubes' height alone (`ratio`: units the
    box holds, at least `capacity`) under a headroom thinner than `THIN_HEADROOM` units, and
    nothing checks it: no tube read is full, and covered or hidden units leave the colour
    counts unable to. A unit measured a few per cent short then reads one unit more."""
    if _fully_visible(tubes) or capacity <= max((len(t) for t in tubes if t), default=0):
        return []
    if not 0 <= ratio - capacity < THIN_HEADROOM:
        return []
    return [
        f"capacity {capacity} from the tubes' height alone, under {ratio - capacity:.2f} "
        "units of headroom: no tube is seen full, and covered or hidden units leave the "
        f"colour counts unable to confirm it (perhaps {capacity - 1})"
    ]


def _uneven_rows(layout: list[int]) -> list[str]:
    """The doubt when rows' tube counts differ by more than one: games share tubes evenly."""
    if len(layout) < 2 or max(layout) - min(layout) <= 1:
        return []
    return [
        f"rows of {min(layout)} and {max(layout)} tubes: games share tubes evenly between "
        "rows, so a row may be invented or tubes missed"
    ]


def _few_tubes(layout: list[int], least: int = 3) -> list[str]:
    """The doubt when fewer than `least` tubes were found: a level needs two colours and room
    to pour, so games draw three tubes or more, and the others were missed."""
    if sum(layout) >= least:
        return []
    return [
        f"only {sum(layout)} tube(s) found: a water-sort level has {least} or more, so tubes "
        "were missed (faint glass, or rows not found)"
    ]


# tubes' worth of free room: games start a level with one or two empty tubes to pour into
# (three at most), and pouring keeps the free room, so more is liquid read as glass or tubes
# that are none (a picture's details, or a row spaced at a finer pitch than its tubes')
MOST_ROOM = 3


def _too_much_room(tubes: list, capacity: int) -> list[str]:
    """The doubt when the board's free room (covered tubes taken as full) is more than
    `MOST_ROOM` tubes of `capacity`: a reading of a few units in many empty tubes."""
    free = sum(capacity - len(t) for t in tubes if t is not None)
    if capacity < 1 or free <= MOST_ROOM * capacity:
        return []
    return [
        f"room for {free} unit(s), more than {MOST_ROOM} tubes of {capacity}: games give a "
        "level an empty tube or two to pour into, so liquid was read as glass or tubes invented"
    ]


def _unlike_pitches(boxes: list[tuple], layout: list[int], most: float = 1.6) -> list[str]:
    """The doubt when one row's tubes stand over `most` times as far apart as another's:
    games space rows alike (a short row a little wider: up to 1.25 times in the shared
    screenshots), so the finer row may count the gaps between its tubes as tubes, or the
    wider one miss every second tube."""
    rows = np.split(np.array([b[0] for b in boxes], float), np.cumsum(layout)[:-1])
    pitches = [float(np.median(np.diff(np.sort(xs)))) for xs in rows if len(xs) > 1]
    if len(pitches) < 2 or min(pitches) <= 0 or max(pitches) <= most * min(pitches):
        return []
    return [
        f"one row's tubes stand {max(pitches) / min(pitches):.1f} times as far apart as "
        "another's: games space rows alike, so a gap may be read as a tube or tubes missed"
    ]


OVERLAP = 0.1  # of a tube's width: neighbours in a row overlapping more are not both tubes


def _overlaps(boxes: list[tuple], layout: list[int]) -> list[tuple[int, int]]:
    """Pairs of neighbouring tubes in a row whose boxes overlap by more than `OVERLAP` of a
    tube's width: games never draw one tube over another, so one of the two is no tube (a
    slot the spacing added beside a tube, read as empty glass keeps the invariant)."""
    out, k = [], 0
    for n in layout:
        row = sorted(range(k, min(k + n, len(boxes))), key=lambda j: boxes[j][0])
        k += n
        for a, b in zip(row, row[1:], strict=False):
            width = min(boxes[a][2], boxes[b][2])
            if boxes[a][0] + boxes[a][2] - boxes[b][0] > OVERLAP * width:
                out.append((a, b))
    return out


def _choose(
    per_tube: list,
    geo: int,
    covered_idx: list[int],
    params: ReaderParams,
    rims: list[float],
    rimmed: list[float] | None = None,
) -> tuple:
    """The labelled reading (see `_label`) that keeps the game's invariant, else the first.

    The invariant decides what the picture leaves open: a capacity one off the tubes'
    geometry, and top runs that look nearly like the glass seen over a picture (a colour
    seen too rarely, only ever at the top of a tube, read as glass instead). `rims[k]` is
    the lowest row where tube k's glass may still begin (see `_as_glass`). A reading that
    needs more units than the tubes' height `geo` gives, or breaks the invariant, is first
    tried with the glass taken out of runs at the rims (see `_rim_glass`): runs starting
    above `rimmed[k]`, -inf for a tube whose glass shows above its box (its top is no rim:
    see `_glass_above`)."""
    first = None
    variants = [per_tube]
    while variants:
        tubes = variants.pop(0)
        for guess in (geo, geo + 1, geo - 1):
            trial = [None if t is None else list(t) for t in tubes]
            out = _label(trial, guess, covered_idx, params)
            broken = bool(self_check(out[0], out[2]))
            if first is None:
                first = out
                tops = list(rimmed) if rimmed else [-np.inf] * len(rims)
                doubt = broken or out[2] > geo  # past the tubes' height
                for rim in _rim_glass(tubes, out[0], geo, tops) if doubt else []:
                    alt = _label(
                        [None if t is None else list(t) for t in rim], geo, covered_idx, params
                    )
                    if not self_check(alt[0], alt[2]):
                        alt[4].extend(_rim_doubts(tubes, rim, alt[0]))
                        return alt
                if broken:  # a kept reading needs no variants
                    variants += _as_glass(tubes, out[0], out[2], rims, geo)
            if not broken:
                return out
    return first


def _glass_above(lab: np.ndarray, box: tuple, room: float, near: int = 2, far: int = 7) -> bool:
    """True when a tube's glass shows above its box (rows `near` to `far` - 1 above its top):
    in most of them the tube's centre differs from the background beside it, left and right,
    by more than the two sides differ (and 2 ΔE). Faint glass is easily cut off a box, whose
    top is then no rim but the top of the liquid in the fullest tubes."""
    x, y, w, _ = box
    out = int(min(0.3 * w, 0.8 * room))
    gap = max(1, out // 3)
    if out - gap < 1 or y < far or x < out or x + w + out > lab.shape[1]:
        return False
    rows = lab[y - far + 1 : y - near + 1].astype(float)
    centre = np.median(rows[:, x + int(0.3 * w) : x + int(0.7 * w) + 1], axis=1)
    left = np.median(rows[:, x - out : x - gap], axis=1)
    right = np.median(rows[:, x + w + gap : x + w + out], axis=1)
    tint = np.linalg.norm(centre - (left + right) / 2, axis=1)
    return (
        int((tint > np.maximum(2.0, np.linalg.norm(left - right, axis=1))).sum()) > len(rows) // 2
    )


def _tinted_rows(lab: np.ndarray, box: tuple, room: float, y0: int, y1: int) -> np.ndarray:
    """Per row y0 to y1 - 1: True where a tube's centre differs from the background beside it,
    left and right, by more than the two sides differ (and 2 ΔE): the tube's glass."""
    x, _, w, _ = box
    out = int(min(0.3 * w, 0.8 * room))
    gap = max(1, out // 3)
    if out - gap < 1 or y0 < 0 or y1 <= y0 or x < out or x + w + out > lab.shape[1]:
        return np.zeros(max(0, y1 - y0), bool)
    rows = lab[y0:y1].astype(float)
    centre = np.median(rows[:, x + int(0.3 * w) : x + int(0.7 * w) + 1], axis=1)
    left = np.median(rows[:, x - out : x - gap], axis=1)
    right = np.median(rows[:, x + w + gap : x + w + out], axis=1)
    tint = np.linalg.norm(centre - (left + right) / 2, axis=1)
    return tint > np.maximum(2.0, np.linalg.norm(left - right, axis=1))


TOP_REACH = 0.8  # box heights: glass is looked for this far above a box's top
TOP_BREAK = 4  # rows: this many rows in turn showing no glass end the tube


def _glass_top(lab: np.ndarray, box: tuple, room: float) -> int:
    """The row where a tube's glass ends going up from its box's top (the top itself when no
    glass shows above it): faint glass is easily cut off a box, whose top is then the top of
    the liquid in the fullest tubes or lower (see `_glass_above`)."""
    _, y, _, h = box
    y0 = max(0, y - int(TOP_REACH * h))
    tinted = _tinted_rows(lab, box, room, y0, y)[::-1]  # going up from the top
    top, plain = y, 0
    for k, t in enumerate(tinted):
        plain = 0 if t else plain + 1
        if plain >= TOP_BREAK:
            break
        if t:
            top = y - 1 - k
    return top


TOP_UNITS = 0.25  # units: a box top raised less changes no count (JPEG noise by a photo)


def _glass_tops(
    lab: np.ndarray, slots: list, layout: list[int], unit: float, per_tube: list | None = None
) -> list:
    """`slots` with every row's box tops raised to where the row's glass ends (the median of
    its tubes: see `_glass_top`), when that is at least `TOP_UNITS` units and `TOP_BREAK`
    rows above them, and at least half the row's tubes end within `TOP_BREAK` rows of it:
    every tube of a row is drawn alike, so their glass ends at one height; tubes that
    disagree show no glass top but something else above the box (a cover reaching above the
    tube, a photo behind it). A tube whose glass goes on higher than that by as much again
    keeps the row too: the others' glass was lost against the picture behind it short of
    the top, and a box raised part of the way gives a wrong capacity. The one row of a board
    that its tubes do not raise so rises to a tube's own glass top when that tube's liquid
    starts at its box's very top (`_cut_tops`, with `per_tube` the tubes' stacks)."""
    out, k = list(slots), 0
    every = [b for b, _ in slots]
    for n in layout:
        row = range(k, k + n)
        k += n
        rise = np.array(
            [slots[j][0][1] - _glass_top(lab, slots[j][0], _room(slots[j][0], every)) for j in row]
        )
        up = int(np.median(rise))
        least = max(TOP_BREAK, TOP_UNITS * unit)
        if up < least or 2 * (abs(rise - up) <= TOP_BREAK).sum() < n or rise.max() > up + least:
            alone = per_tube if len(layout) == 1 else None  # one row: none to compare with
            up = _cut_tops([slots[j][0] for j in row], rise, alone, unit)
            if up < least:
                continue
        for j in row:
            (x, y, w, h), doubt = slots[j]
            out[j] = ((x, y - up, w, h + up), doubt)
    return out


CUT_REACH = 1.5  # units: a box cut at a liquid's top misses the headroom (under a unit) and
# at most part of a fuller tube's top unit; a "glass top" higher than this is the picture


def _cut_tops(boxes: list[tuple], rise: np.ndarray, stacks: list | None, unit: float) -> int:
    """Rows to raise a board's one row by: the highest of its tubes' glass tops (see
    `_glass_top`) over the tubes whose liquid starts at their box's very top (see
    `_cut_at_top`), when within `CUT_REACH` units; 0 when none. Games leave a headroom, so
    such a box cut its tube, and that tube going on above its box sets the row's top even
    where the others' faint glass is lost against the picture (17147, 18566). On boards of
    several rows, rows cut alike are left to `_short_rows`, which compares rows: a picture
    above a lower row's tube raised rows past their glass (11757, 15801)."""
    if not stacks:
        return 0
    cut = [int(r) for b, r, t in zip(boxes, rise, stacks, strict=True) if _cut_at_top(b[1], t)]
    up = max(cut, default=0)
    return up if up <= CUT_REACH * unit else 0


SHORT_ROW = 0.75  # units: a row's boxes this much shorter than the tallest row's are cut


def _short_rows(
    lab: np.ndarray, slots: list, layout: list[int], unit: float, per_tube: list | None = None
) -> list:
    """`slots` with the boxes of every row `SHORT_ROW` units or more shorter than the tallest
    row grown to its height, at the end where the tube goes on (see `_grown_end`): games draw
    every tube of a board alike, and faint glass over a picture, or a liquid at a round
    bottom, is easily lost at one end of a row's boxes. When neither end shows the tube going
    on, a row whose every liquid rests on its boxes' bottoms grows at the top (see
    `_on_floors`). A row with liquid starting at its box's very top (`_row_cut_at_top`: games
    leave a headroom) grows at the top, already when `CUT_ROW` units short, unless that
    would take its boxes past the picture's top (15801). A covered tube's
    box (None in `per_tube`) is its cover's, which may reach past the tube: it measures no
    row."""
    heights = _row_heights(slots, layout, per_tube)
    tall = max(heights, default=0)
    out, k = list(slots), 0
    every = [b for b, _ in slots]
    for n, h in zip(layout, heights, strict=True):
        row = range(k, k + n)
        k += n
        boxes = [slots[j][0] for j in row]
        cut = per_tube is not None and _row_cut_at_top(boxes, [per_tube[j] for j in row])
        cut = cut and min(b[1] for b in boxes) >= tall - h  # the picture's top cuts no tube
        if tall - h < (CUT_ROW if cut else SHORT_ROW) * unit or not h:
            continue
        end = "top" if cut else _grown_end(lab, boxes, every, tall - h)
        if not end and per_tube is not None and min(b[1] for b in boxes) >= tall - h:
            end = "top" if _on_floors(boxes, [per_tube[j] for j in row]) else ""
        for j in row if end else []:
            (x, y, w, bh), doubt = slots[j]
            out[j] = ((x, y - (tall - bh) if end == "top" else y, w, tall), doubt)
    return out


CUT_ROW = 0.3  # units: ... or this much, when its liquid starts at its boxes' tops


def _row_cut_at_top(boxes: list[tuple], stacks: list) -> bool:
    """True when some tube of a row has liquid starting at its box's very top (see
    `_cut_at_top`): the row's boxes cut its tubes there."""
    return any(_cut_at_top(b[1], t) for b, t in zip(boxes, stacks, strict=True))


def _row_heights(slots: list, layout: list[int], per_tube: list | None = None) -> list[int]:
    """Per row, its tallest box of a tube seen (a covered tube's box is its cover's; 0 when
    the row has none)."""
    seen = [True] * len(slots) if per_tube is None else [t is not None for t in per_tube]
    heights, k = [], 0
    for n in layout:
        heights.append(max((slots[j][0][3] for j in range(k, k + n) if seen[j]), default=0))
        k += n
    return heights


def _on_floors(boxes: list[tuple], per_tube: list) -> bool:
    """True when every tube of a row that holds liquid (one at least) has it down to its
    box's bottom, the outline across it aside: liquid sinks to a tube's floor, so those boxes
    end at the floor, and a tube lost at one end was lost at its top (faint glass over a
    picture shows no tint to grow into)."""
    held = [(box, segs) for box, segs in zip(boxes, per_tube, strict=True) if segs]
    return bool(held) and all(segs[0].y1 >= box[1] + box[3] - _edge_rows(box) for box, segs in held)


def _grown_end(lab: np.ndarray, boxes: list[tuple], every: list[tuple], rise: int) -> str:
    """The end of a row's `boxes` where their tubes go on for `rise` rows ("top" or "bottom",
    "" when neither): where half the row's tubes or more, and none at the other end, show
    their glass or liquid apart from the background beside them (see `_tinted_rows`) in
    most of those rows (a tube of clear glass over a picture shows nothing)."""
    votes = {"top": 0, "bottom": 0}
    for box in boxes:
        _, y, _, h = box
        room = _room(box, every)
        above = _tinted_rows(lab, box, room, y - rise, y).mean() if y >= rise else 0.0
        low = _tinted_rows(lab, box, room, y + h, min(y + h + rise, lab.shape[0]))
        below = low.mean() if low.size else 0.0  # a box at the picture's bottom: no rows
        if max(above, below) > 0.5:
            votes["top" if above >= below else "bottom"] += 1
    end = max(votes, key=votes.get)
    return end if 2 * votes[end] >= len(boxes) and min(votes.values()) == 0 else ""


RIM_CUT_FIT = 0.5  # a top run fitting the grid this well ends on a boundary (see `_rim_glass`)


def _rim_glass(per_tube: list, names: list, geo: int, rims: list[float]) -> list[list]:
    """Per tube segments with the glass taken out of top runs that start at the rim (above
    `rims[k]`) in stacks of more than `geo` units (the capacity the tubes' height gives): one
    variant, or [] when no such run is changed.

    No liquid fills a tube to its rim (the headroom is at least a fifth of a unit), so such a
    run holds the headroom's glass. Over a liquid, the run's top lies off the unit grid: it is
    cut down to the units `geo` leaves. A run of glass alone is dropped when its colour is
    seen nowhere else (`names`: the units' colours as first labelled); a liquid's colour seen
    elsewhere is no glass (the tubes may be taller than their boxes). Glass read as liquid is
    the exception: when most tubes with liquid overflow at the rim, the boxes are short.
    On a fully visible board (no '?', no cover: the invariant is exact), a second variant
    drops every such run whole, for `_choose`'s invariant to judge: glass whose tint matches
    a liquid's colour is seen elsewhere too. A last one, on any board, cuts every such run
    down to the units `geo` leaves even on the grid (a headroom near a unit tall, over a
    picture of nearly the liquid's colour, merged into its run), for the invariant to judge
    as well; on a board whose invariant is weak, only runs keeping a unit are cut (none is
    dropped whole: a capacity guessed too small would lose a liquid), and a whole unit so
    cut stays in doubt (see `_rim_doubts`)."""
    rim = {
        k: t
        for k, t in enumerate(per_tube)
        if t and t[-1].kind == "liquid" and t[-1].y0 <= rims[k] and sum(s.units for s in t) > geo
    }
    if 2 * len(rim) > sum(1 for t in per_tube if t):  # most tubes: the boxes are short
        return []
    counts = Counter(u for t in names if t for u in t)
    at_rim = Counter()
    for k, t in rim.items():
        at_rim[names[k][-1]] += t[-1].units
    out = list(per_tube)
    for k, t in rim.items():
        left = geo - sum(s.units for s in t[:-1])
        if left > 0 and t[-1].fit < RIM_CUT_FIT:
            out[k] = _cut_top(t, geo)
        elif at_rim[names[k][-1]] == counts[names[k][-1]] and _headroom_only(t, geo):
            out[k] = t[:-1]
    strong = _fully_visible(names)  # the invariant is exact
    dropped = [t[:-1] if k in rim and _headroom_only(t, geo) else t for k, t in enumerate(per_tube)]
    cuts = {k for k, t in rim.items() if strong or sum(s.units for s in t[:-1]) < geo}
    cut = [_cut_top(t, geo) if k in cuts else t for k, t in enumerate(per_tube)]
    changed: list[list] = []
    for v in (out, dropped, cut) if strong else (out, cut):
        if not _same_stacks(v, per_tube) and not any(_same_stacks(v, c) for c in changed):
            changed.append(v)
    return changed


def _headroom_only(segs: list[_Segment], geo: int) -> bool:
    """True when a stack's top run may be glass alone: within `GLASSY` of the glass (the
    empty space of a tube, however tall, tinted like a liquid), or no more units than the
    stack holds over `geo` (the headroom's glass over a picture, whatever its colour). A
    run far from the glass and longer than the overflow holds a liquid: its tube is taller
    than its box."""
    top = segs[-1]
    return top.glass < GLASSY or top.units <= sum(s.units for s in segs) - geo


def _cut_top(segs: list[_Segment], most: int) -> list[_Segment]:
    """`segs` with its top run cut down to the units `most` leaves above the runs under it
    (dropped when it leaves none)."""
    left = most - sum(s.units for s in segs[:-1])
    return segs[:-1] + [replace(segs[-1], units=left)] if left > 0 else segs[:-1]


def _fully_visible(tubes: list) -> bool:
    """True when no tube (labels, bottom first) is covered and no unit hidden: the invariant
    then holds exactly, with no wildcard to absorb a misread unit."""
    return all(t is not None and HIDDEN not in t for t in tubes)


def _same_stacks(a: list, b: list) -> bool:
    """True when two variants of the tubes hold the same segments, unit for unit."""
    return all(
        (x is None) == (y is None) and [s.units for s in x or []] == [s.units for s in y or []]
        for x, y in zip(a, b, strict=True)
    )


def _rim_doubts(before: list, after: list, names: list) -> list[tuple[str, list[int]]]:
    """(problem, [tube]) for each run `_rim_glass` dropped as glass, or cut down by a whole
    unit on the grid, when '?' units or covered tubes leave the invariant too weak to confirm
    it (they may hold whatever the run was). A run off the grid cut down keeps its colour:
    only the glass above the grid went."""
    if _fully_visible(names):
        return []
    return [
        (f"tube {k}: the run at its rim was read as the headroom's glass: check it", [k])
        for k, (a, b) in enumerate(zip(before, after, strict=True))
        if a is not None and (len(b) < len(a) or _whole_cut(a, b))
    ]


def _whole_cut(before: list[_Segment], after: list[_Segment]) -> bool:
    """True when `after` holds fewer units than `before`, its top run cut on the unit grid."""
    fewer = sum(s.units for s in after) < sum(s.units for s in before)
    return fewer and before[-1].fit >= RIM_CUT_FIT


GLASSY = 35.0  # a top run nearer than this (ΔE) to the glass at its height may be glass
RIM_UNITS = 0.15  # glass runs down from the tube's top: a run starting lower is no glass
# units: an overfull stack's top run starting this near its box's top holds the headroom's
# glass (see `_rim_glass`): its top rows may read apart (the rim's outline, shading)
RIM_REACH = 0.25


def _as_glass(
    per_tube: list, names: list, capacity: int, rims: list[float], geo: int | None = None
) -> list[list]:
    """Per tube segments with the top runs of each rare colour dropped (read as glass), when
    every unit of that colour sits in such a run: one variant with all of them dropped.

    Glass read as liquid reaches up to the rim, through the headroom. So only a run that
    begins at the tube's top (above `rims[k]`) can be glass: when another colour shows above
    it, that is the glass, the run a liquid beneath it. And a top run whose top lies on the
    unit grid at no more than `geo` units (the capacity the tubes' height gives) is a whole
    unit, no glass."""
    counts = Counter(u for t in names if t for u in t if u != HIDDEN)
    rare = {c for c, m in counts.items() if m < capacity}
    tops = {
        k: t[-1]
        for k, t in enumerate(per_tube)
        if t
        and t[-1].kind == "liquid"
        and t[-1].glass < GLASSY
        and names[k]
        and t[-1].y0 <= rims[k]
        and not _whole_top(t, capacity if geo is None else min(capacity, geo))
    }
    drop = set()
    for c in rare:
        mine = [k for k in tops if names[k][-1] == c]
        top_units = sum(tops[k].units for k in mine)
        if mine and top_units == counts[c]:
            drop.update(mine)
    if not drop:
        return []
    return [[t[:-1] if k in drop else t for k, t in enumerate(per_tube)]]


def _over_glass(per_tube: list, out: tuple, rims: list[float]) -> tuple:
    """`per_tube` without the top runs of each colour the reading `out` saw more than
    capacity times, and their tubes, when those runs begin at the rim (above `rims[k]`), lie
    nearer than `SURE_GLASS` to the glass and hold exactly the colour's surplus: the
    headroom's glass over a picture, near a liquid's colour, read as that liquid (the
    caller keeps it only when the invariant then holds)."""
    tubes, capacity = out[0], out[2]
    counts = Counter(u for t in tubes if t for u in t if u != HIDDEN)
    tops = {
        k: t[-1]
        for k, t in enumerate(per_tube)
        if t
        and tubes[k]
        and sum(s.units for s in t) == len(tubes[k])
        and t[-1].kind == "liquid"
        and t[-1].glass < SURE_GLASS
        and t[-1].y0 <= rims[k]
    }
    drop = []
    for c in sorted(c for c, m in counts.items() if m > capacity):
        mine = [k for k in tops if tubes[k][-1] == c]
        if mine and sum(tops[k].units for k in mine) == counts[c] - capacity:
            drop += mine
    if not drop:
        return per_tube, []
    return [t[:-1] if k in drop else t for k, t in enumerate(per_tube)], sorted(drop)


# doubts of readings the invariant alone settled (`_completed`, `_over_glass`,
# `_blurred_runs`): such a reading is no sound one to keep over the tubes located again
# (see `_sound`)
FORCED_LIQUID = "a run read as glass taken as liquid, so every colour fills capacity: check it"
FORCED_GLASS = "its top run, near the glass at the rim, read as glass: check it"
FORCED_CUT = "a run of a colour seen too often cut in two where its cells step: check it"


def _whole_top(segs: list[_Segment], most: int) -> bool:
    """True when a stack's top run ends on the unit grid (half a unit or nearer) at no more
    than `most` units: the top of a unit, not of the headroom."""
    return segs[-1].fit >= 0.5 and sum(s.units for s in segs) <= most


MIN_MARGIN = 0.2  # a unit's colour nearer than this (0..1) to the midpoint of two colours
MIN_FIT = 0.3  # a stack top further than (1 - this) / 2 units from a whole number of units


def self_check(tubes: list[list[str] | None], capacity: int) -> list[tuple[str, list[int]]]:
    """The game's invariant on a reading: (problem, tubes to check) pairs, [] when consistent.

    Every colour appears `capacity` times; '?' units are wildcards (whatever they hide, the
    hidden units must make up every colour's shortfall plus whole colours not seen at all);
    a covered tube (None) may hold up to `capacity` units of anything; no tube is overfull.

    Examples
    --------
    >>> self_check([["r", "g"], ["g", "r"], []], 2)
    []
    >>> self_check([["r", "g"], ["g"], []], 2)
    [("colours seen fewer than capacity 2 times (r 1): 1 unit(s) missing, 0 '?' to hold them", [0])]
    """
    ok_tubes = isinstance(tubes, list | tuple) and all(
        t is None or (isinstance(t, list | tuple) and all(isinstance(u, str) for u in t))
        for t in tubes
    )
    if not ok_tubes:
        raise PuzzleError("tubes must be a list of tubes, each a list of colour names or None")
    if isinstance(capacity, bool) or not isinstance(capacity, int | np.integer):
        raise PuzzleError(f"capacity must be a whole number, not {capacity!r}")
    out: list[tuple[str, list[int]]] = []
    if capacity < 1:
        return [(f"capacity {capacity} is not a positive number of units", [])]
    counts = Counter(u for t in tubes if t for u in t if u != HIDDEN)
    where = {c: sorted({k for k, t in enumerate(tubes) if t and c in t}) for c in counts}
    for k, t in enumerate(tubes):
        if t is not None and len(t) > capacity:
            out.append((f"tube {k} holds {len(t)} units, more than capacity {capacity}", [k]))
    over = sorted(c for c, m in counts.items() if m > capacity)
    if over:
        text = ", ".join(f"{c} {counts[c]} times" for c in over)
        out.append(
            (
                f"more than capacity {capacity}: {text}",
                sorted(set().union(*(where[c] for c in over))),
            )
        )
    hidden = sum(t.count(HIDDEN) for t in tubes if t)
    covered = sum(t is None for t in tubes)
    short = sum(capacity - m for m in counts.values() if m < capacity)
    if covered == 0:
        spare = hidden - short
        odd = [c for c, m in counts.items() if m != capacity]
        check = sorted(set().union(*(where[c] for c in odd))) if odd else []
        shorts = sorted((c for c in odd if counts[c] < capacity), key=counts.get)
        listed = ", ".join(f"{c} {counts[c]}" for c in shorts)
        if spare < 0:
            out.append(
                (
                    f"colours seen fewer than capacity {capacity} times ({listed}): "
                    f"{short} unit(s) missing, {hidden} '?' to hold them",
                    check,
                )
            )
        elif spare % capacity:
            out.append(
                (
                    f"{hidden} '?' unit(s) cannot be the {short} missing ({listed or 'none'}) "
                    f"plus whole colours of {capacity}",
                    check,
                )
            )
    elif hidden == 0 and short == 0 and counts:
        lids = [k for k, t in enumerate(tubes) if t is None]
        out.append(
            (
                f"tube(s) {', '.join(map(str, lids))} read as covered, but every colour seen is "
                f"complete ({capacity} each): a covered tube could only hold unseen colours; "
                "check whether it is an empty tube or a locked spare slot",
                lids,
            )
        )
    elif short > hidden + covered * capacity:
        out.append(
            (f"{short} unit(s) missing but only {hidden} '?' and {covered} covered tube(s)", [])
        )
    return out + _no_room(tubes, capacity)


def _no_room(tubes: list, capacity: int) -> list[tuple[str, list[int]]]:
    """The problem when the board leaves less room than one tube, even with every covered
    tube empty: a level starts with an empty tube or more to pour into, and pouring keeps
    the free space, so an empty tube (often faint glass) was missed."""
    free = sum(capacity - len(t) if t is not None else capacity for t in tubes)
    if not tubes or free >= capacity:
        return []
    return [
        (
            f"room for {max(free, 0)} unit(s) in all, less than one tube of {capacity}: a level "
            "keeps an empty tube's room to pour into, so an empty tube was missed",
            [],
        )
    ]


def _label(per_tube: list, capacity: int, covered_idx: list[int], params: ReaderParams) -> tuple:
    """Colour labels per unit for a capacity guess: (tubes, confidence, capacity, level,
    problems as (text, tubes to check), palette)."""
    _drop_corks(per_tube, capacity)
    most = max((sum(s.units for s in t) for t in per_tube if t), default=0)
    capacity = max(capacity, most)
    capacity = _capacity_from_counts(per_tube, capacity, params.join)
    units = [(k, s) for k, t in enumerate(per_tube) if t for s in t if s.kind == "liquid"]
    n_units = sum(s.units for _, s in units)
    samples = np.array([s.lab for _, s in units for _ in range(s.units)]).reshape(-1, 3)
    fully = not covered_idx and not any(s.kind == "hidden" for t in per_tube if t for s in t)
    target = n_units // capacity if fully and n_units % capacity == 0 else None
    labels, margins = cluster_colors(
        samples, n_clusters=target, size=capacity if fully else None, join=params.join
    )
    centers = {c: samples[labels == c].mean(axis=0) for c in sorted(set(labels.tolist()))}
    names = color_names({c: lab_to_rgb(v) for c, v in centers.items()})
    tubes: list[list[str] | None] = []
    conf: list[list[float] | None] = []
    i = 0
    for segs in per_tube:
        if segs is None:
            tubes.append(None)
            conf.append(None)
            continue
        t, c = [], []
        for s in segs:
            for _ in range(s.units):
                if s.kind == "hidden":
                    t.append(HIDDEN)
                    c.append(round(max(0.0, s.fit), 3))
                else:
                    t.append(names[int(labels[i])])
                    c.append(round(max(0.0, min(s.fit, float(margins[i]))), 3))
                    i += 1
        tubes.append(t)
        conf.append(c)
    problems = self_check(tubes, capacity)
    level = None
    if fully and not problems:
        try:
            level = Level.make([tuple(t) for t in tubes], capacity)
        except PuzzleError as exc:  # defensive: the checks above should make this impossible
            problems.append((str(exc), []))
    problems += _doubtful_units(per_tube, samples, labels, margins, centers, names)
    if not fully:
        problems += _near_colours(tubes, centers, names, capacity)
    palette = {names[c]: lab_to_rgb(v) for c, v in centers.items()}
    return tubes, conf, capacity, level, problems, palette


NEAR_COLOURS = 20.0  # ΔE: games draw liquids a player tells apart at a glance; two read
# colours nearer than this are one colour's units shifted (a round bottom, JPEG blur on
# small cells) as often as two liquids


def _near_colours(tubes: list, centers: dict, names: dict, capacity: int) -> list:
    """(problem, [tube]) for each two colours read nearer than `NEAR_COLOURS` whose units
    together fit in one colour's `capacity`, on a board whose covered or hidden units leave
    the colour counts unable to tell one colour from two: a unit shifted past the join
    splits its colour, and nothing else would say so."""
    count = {n: sum(t.count(n) for t in tubes if t) for n in names.values()}
    out, cols = [], sorted(centers)
    for i, a in enumerate(cols):
        for b in cols[i + 1 :]:
            na, nb = names[a], names[b]
            d = float(np.linalg.norm(centers[a] - centers[b]))
            if d < NEAR_COLOURS and count[na] + count[nb] <= capacity:
                where = [k for k, t in enumerate(tubes) if t and (na in t or nb in t)]
                text = f"colours {na} and {nb} are alike (ΔE {d:.0f}) and may be one colour"
                out.append((f"tubes {', '.join(map(str, where))}: {text}", where))
    return out


def _doubtful_units(per_tube, samples, labels, margins, centers, names) -> list:
    """(problem, [tube]) for units whose colour sits between two palette colours and for
    colour boundaries or liquid tops that fall between two whole units."""
    out = []
    cols = sorted(centers)
    i = 0
    for k, segs in enumerate(per_tube):
        below = 0
        for s in segs or []:
            if s.fit < MIN_FIT:
                out.append(
                    (
                        f"tube {k}: liquid boundary at {below + s.units - 0.5 + s.fit / 2:.1f} "
                        "units, not a whole number",
                        [k],
                    )
                )
            for j in range(s.units):
                if s.kind != "liquid":
                    continue
                if margins[i] < MIN_MARGIN and len(cols) > 1:
                    d = [np.linalg.norm(samples[i] - centers[c]) for c in cols]
                    a, b = (cols[n] for n in np.argsort(d)[:2])
                    out.append(
                        (
                            f"tube {k} unit {below + j}: colour between {names[a]} and {names[b]}",
                            [k],
                        )
                    )
                i += 1
            below += s.units
    return out


def _added_bounds(images, slots, glass, min_len: float, params, marks: dict) -> list[tuple]:
    """The segment tops (see `_bounds`) of the slots the row's spacing added, read one by one
    as `_read_missed` will read them: where the tubes read with the board show fewer than
    three colour boundaries (their outlines were missed, so the spacing added most tubes),
    the unit is fitted to these too rather than guessed from one or two runs' heights."""
    out = []
    for box, filled in slots:
        if filled:
            segs = _segment_tubes(images, [(box, False)], glass, min_len, params, None, dict(marks))
            out += _bounds(segs[0], box)
    return out


ONE_GRID = 0.75  # of the colour boundaries: the share the unit's grid must hold


def _one_grid(bounds: np.ndarray, height: float) -> bool:
    """True when at least three colour boundaries are weighed and the unit fitted to them
    puts at least `ONE_GRID` of them on its grid: boxes the row's spacing added may reach
    past their tube, and boundaries measured from a wrong bottom agree on no grid."""
    weight = float(bounds[:, 1].sum()) if len(bounds) else 0.0
    if weight < 3:
        return False
    unit, offset, _ = _fit_bounds(bounds, height)
    p, wt, known = bounds[:, 0], bounds[:, 1], bounds[:, 2]
    r = (p - offset) / unit
    err = np.abs(r - np.where(known > 0, known, np.maximum(1, np.round(r))))
    return float((np.clip(1 - (err / 0.12) ** 2, 0, 1) * wt).sum()) >= ONE_GRID * weight


def _read_missed(
    images,
    slots,
    per_tube,
    glass,
    unit: float,
    offset: float,
    geo: int,
    params,
    marks: dict,
    layout: list[int] | None = None,
) -> list[int]:
    """Read slots the row's spacing added: a tube whose outline was missed reads as at most a
    full tube (or as empty: a cover hides the glass); anything taller (a curtain, a lock),
    with an icon, or with colour above empty space (a cover's sliver at the bottom) stays
    covered (None) when a cover's body shows (see `_cover_body`), else it is read as it is
    and the board's invariant judges it; a full tube is at most what the board's tubes hold
    or what the slot's own box fits (a row's boxes may come out taller than another row's,
    whose tops of faint glass were missed). A box reaching below its row's liquid is cut
    there before its units are counted (see `_missed_floors`), and its colour above empty
    space judged again in the cut box (the picture below a tube's bottom is no glass that a
    liquid floats on). Returns the slots left
    covered with no icon seen: doubtful."""
    unsure = []
    limit = max([geo] + [sum(s.units for s in t) for t in per_tube if t])
    read: dict[int, tuple] = {}
    least = max(3.0, 0.35 * unit)
    for k, (box, filled) in enumerate(slots):
        if not filled:
            continue
        floats: list[int] = []
        segs = _segment_tubes(images, [(box, False)], glass, least, params, floats, marks)
        if segs[0] is not None:  # else a cover's icon
            read[k] = (segs[0], floats, dict(marks["under"]))
    floors = _missed_floors(slots, per_tube, layout, {k: v[0] for k, v in read.items()}, unit)
    for k, (segs, floats, under) in read.items():
        box = floors[k]
        moved = box[1] != slots[k][0][1]  # slid up: the liquid over the box's top is read
        if (floats or moved) and box != slots[k][0]:  # the picture under the bottom is no glass
            floats = []
            again = _segment_tubes(images, [(box, False)], glass, least, params, floats, marks)
            segs = segs if again[0] is None else again[0]
            under = dict(marks["under"])
        segs = _counted(images, box, segs, unit, offset, marks)
        run = under.get(0)  # a top unit read as glass (see `_under_headroom`)
        if run is not None and _add_top(segs, run, box, unit, offset, glass):
            marks.setdefault("lids", []).append(k)
            marks.setdefault("held", {})[k] = run
        most = max(limit, _fits(box, unit, offset))
        too_much = floats or sum(s.units for s in segs) > most
        whole = slots[k][0]  # a cover is drawn over the whole slot
        if too_much and _cover_body(images[1], whole, params.jump, max(3.0, 0.35 * unit)):
            unsure.append(k)
        else:
            per_tube[k] = _headroom_dropped(segs, box, unit, most)
    return unsure


def _missed_floors(
    slots: list, per_tube: list, layout: list[int] | None, read: dict, unit: float
) -> dict[int, tuple]:
    """Per slot of `read` (index: its stack, bottom first, read by `_read_missed`), its box
    ending where the lowest liquid of its row ends, when that is at least `FLOOR_UNITS`
    units and `FLOOR_WIDTH` tube widths above the box's bottom (else its box). A slot the
    row's spacing added copies its box from others, so it may reach below the tubes like
    any box (see `_liquid_floors`, which judges only the tubes read with the board); the
    row's floor counts the tubes read before and these."""
    out = {k: slots[k][0] for k in read}
    k = 0
    for n in layout or [len(slots)]:
        row = range(k, k + n)
        k += n
        stacks = [read.get(j, per_tube[j]) for j in row]
        ends = [t[0].y1 for t in stacks if t]
        if not ends:
            continue
        floor = max(ends) + 1
        for j in row:
            if j not in read:
                continue
            x, y, w, h = slots[j][0]
            gap = y + h - floor
            if gap >= FLOOR_UNITS * unit and gap >= FLOOR_WIDTH * w and floor > y:
                slide = _cut_at_top(y, read[j]) and floor >= h  # ... kept in the picture
                out[j] = (x, floor - h, w, h) if slide else (x, y, w, floor - y)
    return out


TOP_TOUCH = 2  # rows: a top run starting this near its box's top reaches it


def _cut_at_top(top: int, stack: list[_Segment] | None) -> bool:
    """True when a tube's top run of liquid (`stack` bottom first) starts at its box's very
    top (`top`): games leave a headroom over every tube's liquid, so the box cut the tube
    there (a box copied from a cover's or a row's, the glass over it invisible)."""
    return bool(stack) and stack[-1].kind != "empty" and stack[-1].y0 <= top + TOP_TOUCH


def _add_top(
    segs: list[_Segment] | None,
    run: _Segment,
    box: tuple,
    unit: float,
    offset: float,
    glass: _Glass,
) -> bool:
    """Put `run` on a tube's stack `segs` when it is a liquid's top unit (see `_top_unit`) and
    the glass is clear (it shows the background, so a step in it is no glass) or the run is
    one unit resting on liquid (a step one unit above a liquid's top is one more unit,
    however loose the model of tinted glass); True when it may be a top unit but the glass
    is tinted and the tube otherwise empty or the run taller (tinted glass over a picture
    steps as the picture does): the tube is to be checked, not changed."""
    top = _top_unit(segs, run, box, unit, offset)
    read = top is not None and (glass.clear or (bool(segs) and top.units == 1))
    if read:
        segs.append(top)
    return top is not None and not read


def _top_unit(
    segs: list[_Segment] | None, run: _Segment, box: tuple, unit: float, offset: float
) -> _Segment | None:
    """`run` (see `_under_headroom`) as the liquid on top of a tube's stack `segs` (bottom
    first, units counted), or None unless it lies right on the stack (or the bottom), is at
    least 0.6 units tall and its top falls on the unit grid (a quarter unit or nearer) a
    whole unit or more above the stack: a liquid's top unit, not the headroom's glass."""
    if segs is None or (segs and abs(segs[-1].y0 - run.y1) > 0.25 * unit):
        return None  # not right on the stack, or its rows already read as liquid
    below = sum(s.units for s in segs)
    r = (box[1] + box[3] - run.y0 - offset) / unit
    fit = 1 - 2 * abs(r - round(r))
    if round(r) <= below or fit < 0.5 or run.length < 0.6 * unit:
        return None
    return replace(run, kind="liquid", units=round(r) - below, fit=fit)


def _headroom_dropped(segs: list[_Segment], box: tuple, unit: float, most: int) -> list:
    """A slot's stack (bottom first) without its top run when that run begins at the slot's
    top (glass runs down from the rim: see `RIM_UNITS`) and the stack holds more than `most`
    units with it, at most without it: the headroom's glass over a picture read as a unit."""
    if not segs or sum(s.units for s in segs) <= most:
        return segs
    if segs[-1].y0 <= box[1] + RIM_UNITS * unit and sum(s.units for s in segs[:-1]) <= most:
        return segs[:-1]
    return segs


def _cover_body(flat: np.ndarray, box: tuple, jump: float, min_len: float) -> bool:
    """True when the colour at a slot's top runs over two thirds of its rows (ΔE under
    `jump`): a curtain or banner hides the tube from its top in one colour, an icon or a
    sliver of liquid cutting it. A full tube whose headroom reads as one more unit, or whose
    box reaches below its bottom, shows its units' colours, one unit tall each."""
    prof = _profile(flat, box)
    segs = _merge_short(_segments(prof, box[1], jump), prof, box[1], min_len)
    body = sum(s.length for s in segs if np.linalg.norm(s.lab - segs[0].lab) < jump)
    return body >= 2 / 3 * box[3] and not _shows_picture(flat, box, segs[0])


# ΔE: a slot's top run this near the picture just beside it is that picture seen through
# glass (the JPEG and resampling noise of one background stays within it; a cover is drawn
# in a colour of its own, and one that matched the picture would hide nothing)
PICTURE_NEAR = 6.0


def _shows_picture(flat: np.ndarray, box: tuple, top: _Segment) -> bool:
    """True when a slot's top run is the colour of the picture just beside the slot (ΔE under
    `PICTURE_NEAR`): empty glass too faint to see shows the picture behind it, which a
    cover hides, so a tube of faint glass holding a unit or two is no cover's body."""
    side = _beside(flat, box, top.y0, top.y1, 0.2 * box[2])
    return side is not None and float(np.linalg.norm(top.lab - side)) < PICTURE_NEAR


def _fits(box: tuple, unit: float, offset: float) -> int:
    """Units a tube of `box`'s height holds (headroom 0.2 to 1.1 units, as for the board)."""
    return max(2, round((box[3] - offset) / unit - 0.6))


def _segment_tubes(
    images, slots, glass, min_len: float, params, floats: list[int] | None = None, marks=None
) -> list[list[_Segment] | None]:
    """Liquid and hidden segments of every tube (None for covered slots), bottom first; the
    index of a tube with colour above its empty space is appended to `floats`. `images`: the
    CIELAB image (glyphs are looked for in it) and its flattened copy (colours come from it).
    `marks` (a dict) keeps the board's decisions on which marked fill is hidden (see
    `_hidden_fill`) and which colours are surely liquid (see `_reclaim`) for later calls on
    single slots; a call on the whole board also leaves there, under "under", the runs taken
    for glass that may be a liquid's top unit (see `_under_headroom`)."""
    lab, flat = images
    marks = {} if marks is None else marks
    raw: list[tuple[int, tuple, list[_Segment]] | None] = []
    for k, (box, covered) in enumerate(slots):
        if covered:
            raw.append(None)
            continue
        prof = _profile(flat, box)
        cut = _segments(prof, box[1], params.jump)
        segs = _merge_same(_merge_short(cut, prof, box[1], min_len), params.jump)
        if _icon(lab, box, segs, 0.25) or _icon(lab, box, _fine(cut, prof, box, params.jump), 0.25):
            raw.append(None)
            continue
        if len(segs) == 1 and _icon(lab, box, _ramped(prof, box, params.jump), 0.25):
            raw.append(None)  # one colour from top to bottom, an icon blurred into it
            continue
        for s in segs:
            s.glass = glass.distance(s, box)
            if s.glass < 8:
                s.kind = "empty"
            elif _is_glyph(images, box, s):
                s.kind = "hidden"
            elif s.glass < 16:
                s.kind = "empty"
        room = _room(box, [b for b, _ in slots])
        for i, s in enumerate(segs):  # from the top: runs that drift like the picture are glass
            if s.kind != "empty" and (
                not (_drifts(prof, s, box) and (s.glass < 30 or _tracks(flat, prof, s, box, room)))
                or (i and _steps_off_glass(flat, (segs[i - 1], s), box, room, params.jump))
            ):
                break
            s.kind = "empty"
        _marked_below(images, box, segs)
        _sandwiched(segs)
        _under_liquid(segs, box)
        raw.append((k, box, segs))
    seams = _glass_seams([r for r in raw if r]) + (
        marks.get("seams", []) if len(slots) == 1 else []
    )
    marks["under"] = _under_headroom(
        [r for r in raw if r], flat, glass, params.jump, min_len, seams
    )
    if len(slots) > 1:
        marks["seams"] = seams
    if "sure" not in marks:
        marks["sure"] = _sure_liquids([r[2] for r in raw if r])
    for r in raw:
        if r:
            _reclaim(r[2], marks["sure"])
    if len(slots) > 1:  # runs left to glass that a liquid seen later may reclaim
        marks["glassy"] = {
            k: [s.lab for s in segs if _glassy(s)] for k, _, segs in filter(None, raw)
        }
    else:  # ... in a slot read alone too: by box, as the board's index is not known here
        for _, box, segs in filter(None, raw):
            marks.setdefault("glassy_alone", {})[box] = [s.lab for s in segs if _glassy(s)]
    if "fill" not in marks:
        marked = [s for r in raw if r for s in r[2] if s.kind == "hidden"]
        marks["fill"] = _hidden_fill(marked)
        marks["symbols"] = _symbols(marked)
        marks["plain"] = _plain_fill(images, [(r[1], s) for r in raw if r for s in r[2]])
    per_tube: list[list[_Segment] | None] = []
    for r in raw:
        if r is None:
            per_tube.append(None)
            continue
        k, box, segs = r
        inner = _beside_hidden(segs, marks["fill"], marks["symbols"])
        for i, s in enumerate(segs):
            if s.kind == "hidden" and not _hidden_look(s, marks["fill"], marks["symbols"]):
                if i not in inner:  # a piece of a '?' cell is one of them
                    s.kind = "empty" if s.glass < 16 else "liquid"  # a symbol or a glint
        segs = _merge_hidden(segs)
        for s in segs:
            if s.kind == "hidden":
                s.glyphs = _count_glyphs(images, box, s)
        per_tube.append(_stack(segs, box))
        if (low := _glass_on(segs, per_tube[-1], box)) is not None:
            marks.setdefault("lows", {})[box] = low  # by box: slots read alone have them too
        if len(slots) > 1 and (afloat := _afloat(segs, box)) is not None:
            marks.setdefault("afloat", {})[k] = _stack(afloat, box)
        if floats is not None and _floating(segs, box):
            floats.append(k)
    return per_tube


SURE_GLASS = 8.0  # ΔE: a run this near the glass at its height is empty space for sure


def _glass_on(segs: list[_Segment], stack: list[_Segment], box: tuple) -> _Segment | None:
    """The run taken for glass right above a tube's stack (`segs` from the top, `stack`
    bottom first), the outline across the bottom left out; None when there is none."""
    top = stack[-1].y0 if stack else box[1] + box[3]
    runs = [s for s in segs if s.kind == "empty" and s.y1 <= top and not _bottom_edge(s, box)]
    return runs[-1] if runs else None


def _afloat(segs: list[_Segment], box: tuple) -> list[_Segment] | None:
    """Copies of a tube's runs (from the top) with every run taken for glass under a tall
    run of liquid read as liquid, however near the glass (see `_under_liquid`), or None when
    there is none: liquid never floats, so glass seen there is a liquid of the glass's very
    colour (or the liquid above is none: the invariant decides, see `_completed`)."""
    grounded = [replace(s) for s in segs]
    _under_liquid(grounded, box, least=0.0)
    changed = any(a.kind != b.kind for a, b in zip(segs, grounded, strict=True))
    return grounded if changed else None


def _colour_labs(per_tube: list, tubes: list) -> dict[str, np.ndarray]:
    """Mean CIELAB colour per colour name of a labelled reading (`tubes`, from `per_tube`;
    tubes whose units the reading changed are left out)."""
    seen: dict[str, list] = {}
    for segs, names in zip(per_tube, tubes, strict=True):
        if sum(s.units for s in segs or []) != len(names or []):
            continue  # read otherwise (a variant of `_choose`)
        i = 0
        for s in segs or []:
            if s.kind == "liquid" and s.units:
                seen.setdefault(names[i], []).append(s.lab)
            i += s.units
    return {c: np.mean(v, axis=0) for c, v in seen.items()}


def _grounded(images, slots: list, per_tube: list, marks: dict, unit: float, offset: float):
    """`per_tube` with every fully seen tube that shows liquid above glass (`marks["afloat"]`,
    see `_afloat`) read down to its bottom, counted, and those tubes."""
    afloat = {k: v for k, v in marks.get("afloat", {}).items() if per_tube[k] is not None}
    out = list(per_tube)
    for k, segs in afloat.items():
        box = slots[k][0]
        out[k] = _counted(images, box, [replace(s) for s in segs], unit, offset, marks)
    return out, sorted(afloat)


def _completed(per_tube: list, lows: dict, out: tuple, boxes: list, grid: tuple) -> tuple:
    """`per_tube` with runs taken for glass put back as top units, and their tubes (`lows`:
    per tube, the run taken for glass right above its stack), when each lies right on its
    stack on the unit grid (see `_top_unit`), is not the glass's very colour (see `_glassy`)
    and is nearest (under `JOIN_DELTA_E`) a colour the fully visible reading `out` saw fewer
    than capacity times: a liquid near the glass seen over a picture. A run up to the rim
    over a stack one unit short (of the glass's very colour, or off the grid) gives that one
    unit (see `_last_unit`): a liquid the colour of clear glass merges into the headroom. The
    game's invariant decides (the caller keeps it only when it then holds)."""
    tubes, capacity = out[0], out[2]
    if any(t is None or HIDDEN in t for t in tubes):
        return per_tube, []
    counts = Counter(u for t in tubes for u in t)
    labs = _colour_labs(per_tube, tubes)
    if not labs or all(m >= capacity for m in counts.values()):
        return per_tube, []
    names = list(labs)
    centres = np.array([labs[c] for c in names])
    variant = [list(t) for t in per_tube]
    added = []
    for k, run in sorted(lows.items()):
        near = np.linalg.norm(centres - run.lab, axis=1)
        c = names[int(near.argmin())]
        if near.min() >= JOIN_DELTA_E or counts[c] >= capacity:
            continue
        top = _top_unit(variant[k], run, boxes[k], *grid) if _glassy(run) else None
        if top is None:  # the run reaches the rim: the headroom's glass and a unit under it
            top = _last_unit(variant[k], run, grid[0], capacity)
        if top is not None:
            variant[k].append(top)
            added.append(k)
    return variant, added


def _held_tops(under: dict, lids: list[int], marks: dict) -> dict[int, _Segment]:
    """Per tube, the run `_add_top` held back as glass (`lids` of the board, with `under`
    their runs, and those of slots read alone in `marks`): a top unit over tinted glass (on
    an empty tube's floor, or taller than a unit) looks like the glass stepping with the
    picture, so it is offered to `_completed`, and the game's invariant decides."""
    held = {k: under[k] for k in lids if k in under}
    return {**held, **marks.get("held", {})}


def _last_unit(
    segs: list[_Segment] | None, run: _Segment, unit: float, capacity: int
) -> _Segment | None:
    """The unit right on a stack (`segs`, bottom first, units counted) one unit short of
    `capacity`, taken from `run`, the glass over it, or None: a liquid of the glass's very
    colour (seen as a liquid in another tube: `_completed`) merges into the headroom above it,
    so only the whole unit a full tube has there is taken, and only when a whole unit of
    `run` (`LAST_UNIT`) lies above the stack."""
    if not segs or sum(s.units for s in segs) != capacity - 1:
        return None
    top = segs[-1].y0
    if abs(top - run.y1) > 0.25 * unit or top - run.y0 < LAST_UNIT * unit:
        return None
    return replace(run, y0=round(top - unit), y1=top, kind="liquid", units=1, fit=1.0)


LAST_UNIT = 1.1  # units: the unit and a sliver of glass (a box cut under faint glass keeps
# no headroom; a run of one unit alone may be the headroom itself)


def _under_headroom(
    raw: list[tuple], flat: np.ndarray, glass: _Glass, jump: float, min_len: float, seams: list
) -> dict[int, _Segment]:
    """Per tube index, the run taken for glass that may be a liquid's top unit instead: the
    lowest of the runs taken for glass at a tube's top (`raw`: (index, box, segments from the
    top)), right on the liquid or the bottom, not surely glass (`SURE_GLASS` or further), one
    flat colour (see `_varies`), under a run nearer the glass (the headroom; the two differ,
    or the profile would not have cut them). The glass is one colour from the rim down to the
    liquid, so a step inside it is a liquid's top, unless another tube of the row shows a
    step between two runs of glass at that height (`seams`, see `_glass_seams`): the glass is
    drawn so (a neck band, a highlight). A single such run is looked at for a step of half
    the profile's `jump` (see `_split_glass`): a liquid near the glass's colour may differ
    from it by less than a jump."""
    out = {}
    for k, box, segs in raw:
        _, y, _, h = box
        top = []
        for s in segs:
            if s.kind != "empty":
                break
            if not _bottom_edge(s, box):
                top.append(s)
        prof = _profile(flat, box) if len(top) == 1 else None
        if prof is not None and (top[0].glass >= SURE_GLASS or _varies(prof, top[0], box)):
            top = _split_glass(top[0], prof, box, glass, jump, min_len)
        if len(top) < 2:
            continue
        up, run = top[-2], top[-1]
        if up.glass >= run.glass:
            continue
        prof = _profile(flat, box) if prof is None else prof
        if run.glass < SURE_GLASS and not _inner_step(flat, prof, box, (up, run), glass):
            continue
        tol = max(2.0, 0.03 * h)
        row = [rows for b, rows in seams if b != box and abs(b[1] - y) < 0.1 * h]
        if any(abs(r - (run.y0 - y)) <= tol for rows in row for r in rows):
            continue
        if _varies(prof, run, box):
            continue
        out[k] = run
    return out


INNER_STEP = 4.5  # ΔE: half the profile's jump, a step JPEG noise in a flat run does not make
SIDE_SHARE = 0.3  # of the step inside: a picture stepping less beside the tube shows no such step


def _inner_step(flat: np.ndarray, prof: np.ndarray, box: tuple, pair: tuple, glass: _Glass) -> bool:
    """True when the colour steps from `up` to `run` (`pair`: runs taken for glass, `up`
    right above) down the tube's centre (`prof`, see `_profile`) by `INNER_STEP` or more
    while the picture just beside the tube steps by under `SIDE_SHARE` of that at the same
    row: glass shows the picture, so a step the picture does not make is a liquid's
    surface, however near the glass its colour."""
    up, run = pair
    k = max(2, min(up.length, run.length) // 3)
    y = run.y0
    i = y - box[1]
    if i < k or i + k > len(prof):
        return False
    step = np.median(prof[i - k : i], axis=0) - np.median(prof[i : i + k], axis=0)
    inside = float(np.linalg.norm(step))
    room = _room(box, list(glass.boxes))
    above, below = _beside(flat, box, y - k, y, room), _beside(flat, box, y, y + k, room)
    if above is None or below is None or inside < INNER_STEP:
        return False
    return float(np.linalg.norm(above - below)) < SIDE_SHARE * inside


def _split_glass(
    run: _Segment, prof: np.ndarray, box: tuple, glass: _Glass, jump: float, min_len: float
) -> list[_Segment]:
    """A run taken for glass cut in two at its last step of more than half `jump` (ΔE), as
    [above, below] taken for glass with their distances from it, or [run] with no such step
    (`prof`: the tube's profile; pieces shorter than `min_len` rows are merged away)."""
    a, b = run.y0 - box[1], run.y1 - box[1]
    cut = _merge_short(_segments(prof[a:b], run.y0, jump / 2), prof[a:b], run.y0, min_len)
    if len(cut) < 2:
        return [run]
    low = cut[-1]
    up = _Segment(run.y0, low.y0, np.median(prof[a : low.y0 - box[1]], axis=0))
    for s in (up, low):
        s.kind, s.glass = "empty", glass.distance(s, box)
    return [up, low]


def _glass_seams(raw: list[tuple]) -> list[tuple[tuple, list[int]]]:
    """(box, rows below its top where two runs taken for glass meet) per tube of `raw`."""
    out = []
    for _, box, segs in raw:
        pairs = zip(segs, segs[1:], strict=False)
        out.append((box, [b.y0 - box[1] for a, b in pairs if a.kind == b.kind == "empty"]))
    return out


def _marked_below(images: tuple, box: tuple, segs: list[_Segment]) -> None:
    """Read as hidden a run taken for glass that lies under liquid and shows a mark: empty
    space is only at a tube's top, and '?' cells of a light grey can match see-through glass.
    `segs` runs from the top."""
    for i, s in enumerate(segs):
        if s.kind == "empty" and any(t.kind == "liquid" for t in segs[:i]):
            if _is_glyph(images, box, s):
                s.kind = "hidden"


def _sandwiched(segs: list[_Segment], least: float = 4.0) -> None:
    """Read as liquid a flat run taken for glass that has liquid right above and below it
    (empty space is only ever at the top of a tube; a liquid can look like the glass)."""
    for i in range(1, len(segs) - 1):
        s, up, down = segs[i], segs[i - 1], segs[i + 1]
        if s.kind == "empty" and s.glass >= least and up.kind == "liquid" and down.kind != "empty":
            s.kind = "liquid"


def _under_liquid(segs: list[_Segment], box: tuple, least: float = 4.0) -> None:
    """Read as liquid a run taken for glass that lies anywhere under a tall run of liquid (see
    `_floating`): liquid never floats, so a unit near the glass colour at a tube's bottom is
    liquid too. The outline across the bottom is left out. `segs` runs from the top."""
    tall = [_tall_liquid(s, box) for s in segs]
    for i, s in enumerate(segs):
        if s.kind == "empty" and s.glass >= least and any(tall[:i]) and not _bottom_edge(s, box):
            s.kind = "liquid"


def _tall_liquid(seg: _Segment, box: tuple) -> bool:
    """A run of liquid taller than 8 % of its tube and below the rim (its top tenth)."""
    _, y, _, h = box
    return seg.kind in ("liquid", "hidden") and seg.length > 0.08 * h and seg.y0 > y + 0.1 * h


def _fine(cut: list[_Segment], prof: np.ndarray, box: tuple, jump: float) -> list[_Segment]:
    """A tube's segments merged only below a twenty-fifth of its height: a cover's badge seen
    off its centre crosses the profile for fewer rows than a third of a unit (the cover's
    body must then reach far above and below it: '?' marks repeat every unit)."""
    return _merge_same(_merge_short(cut, prof, box[1], max(3.0, 0.04 * box[3])), jump)


def _sure_liquids(tubes: list[list[_Segment]]) -> np.ndarray:
    """Colours read as liquid under other liquid (so they cannot be glass: empty space is only
    ever at the top of a tube), one CIELAB row each."""
    sure = [
        s.lab
        for segs in tubes
        for i, s in enumerate(segs)
        if s.kind == "liquid" and any(t.kind != "empty" for t in segs[:i])
    ]
    return np.array(sure).reshape(-1, 3)


def _reclaim(segs: list[_Segment], sure: np.ndarray, same: float = 5.0) -> None:
    """Read as liquid a run taken for glass whose colour is a liquid's seen under other liquid
    (glass seen through changes with the background; a liquid's colour does not)."""
    if not len(sure):
        return
    for s in segs:
        if s.kind == "empty" and s.glass >= 4 and np.linalg.norm(sure - s.lab, axis=1).min() < same:
            s.kind = "liquid"


def _alike_tops(
    lab: np.ndarray, per_tube: list, lows: dict[int, _Segment], boxes: list[tuple], grid: tuple
) -> tuple:
    """`per_tube` with runs taken for glass put back as top units, and their tubes: a run
    right above a tube's stack (`lows`, see `_glass_on`), not surely glass (`SURE_GLASS` or
    further), on the unit grid (see `_top_unit`), of the colour (ΔE under `ALIKE_TOP`) of
    another tube's top liquid, where the pictures beside the two differ by `UNLIKE_PICTURES`
    or more: glass seen through changes with the picture behind it, a liquid's colour does
    not. The caller keeps it only when the game's invariant then holds."""
    variant = [None if t is None else list(t) for t in per_tube]
    if not lows:
        return variant, []
    tops = [  # each tube's top liquid and the picture beside it, looked at once
        (t[-1], _beside(lab, boxes[k], t[-1].y0, t[-1].y1, _room(boxes[k], boxes)))
        for k, t in enumerate(per_tube)
        if t and t[-1].kind == "liquid" and k not in lows
    ]
    added = []
    for k, run in sorted(lows.items()):
        side = _beside(lab, boxes[k], run.y0, run.y1, _room(boxes[k], boxes))
        if run.glass < SURE_GLASS or side is None:
            continue
        for top, there in tops:
            if there is None or np.linalg.norm(top.lab - run.lab) >= ALIKE_TOP:
                continue
            if np.linalg.norm(side - there) >= UNLIKE_PICTURES:
                unit = _top_unit(variant[k], run, boxes[k], *grid)
                if unit is not None:
                    variant[k].append(unit)
                    added.append(k)
                break
    return variant, added


def _liquid_kept(variant: list, changed: list[int], choice: tuple) -> tuple | None:
    """The reading (as `_label` gives it) of `variant`, whose tubes `changed` hold top units
    shown to be liquid (see `_alike_tops`), on the capacity the tubes' height gives, when it
    keeps the game's invariant; else None. `_choose` is not asked: it may read such a unit
    at the rim as the headroom's glass again (see `_rim_glass`), where the box was cut at
    the liquid's top. `choice`: (that capacity, covered tubes, params)."""
    geo, covered_idx, params = choice
    if not changed:
        return None
    out = _label([None if t is None else list(t) for t in variant], geo, covered_idx, params)
    return None if self_check(out[0], out[2]) else out


ALIKE_TOP = 5.0  # ΔE: two runs this near are one colour (as `_reclaim`'s `same`)
UNLIKE_PICTURES = 20.0  # ΔE: pictures this far apart tint any see-through glass apart (glass
# letting a quarter of the picture through moves 5 ΔE, past `ALIKE_TOP`)


def _glassy(seg: _Segment) -> bool:
    """A run taken for glass that `_reclaim` would read as liquid were its colour sure."""
    return seg.kind == "empty" and seg.glass >= 4


def _reclaimable(slots: list, per_tube: list, marks: dict, same: float = 5.0) -> list[int]:
    """Tubes of the board to read again: a run of theirs taken for glass has the colour of a
    liquid seen under other liquid in a slot read alone (see `_read_missed`), which the board's
    sure colours (see `_sure_liquids`) did not hold yet. The new colours join them. Slots read
    alone and not left covered are judged too: such a slot's sure colours came from the board
    alone, not from the other slots read alone."""
    alone = [per_tube[k] for k, (_, doubtful) in enumerate(slots) if doubtful and per_tube[k]]
    new = [s.lab for t in alone for i, s in enumerate(t) if s.kind == "liquid" and t[i + 1 :]]
    if not new:
        return []
    seen = np.array(new)
    marks["sure"] = np.vstack([marks["sure"], seen])
    by_box = marks.get("glassy_alone", {})
    glassy = dict(marks.get("glassy", {}))
    glassy.update({k: by_box.get(box, []) for k, (box, doubtful) in enumerate(slots) if doubtful})
    out = []
    for k, labs in sorted(glassy.items()):
        if labs and (not slots[k][1] or per_tube[k] is not None):
            gaps = np.linalg.norm(np.array(labs)[:, None] - seen[None], axis=2)
            if gaps.min() < same:
                out.append(k)
    return out


STEP_RATIO = 8.0  # a top differing this many times more than the bottom from the middle steps


def _varies(prof: np.ndarray, seg: _Segment, box: tuple, most: float = 8.0) -> bool:
    """True when a run's colour drifts from its top third to its bottom third (by more than
    `most`, ΔE): a liquid is one flat colour, glass shows the picture behind it changing. The
    outline across the tube's bottom (see `_bottom_edge`) is left out. A run whose lower two
    thirds are one flat colour and only its top differs is a liquid with a sliver of glass
    merged on top, not drifting glass."""
    _, y_top, _, h = box
    a, b = seg.y0 - y_top, seg.y1 - y_top
    if b >= h - 1:
        b -= _edge_rows(box)
    third = (b - a) // 3
    if third < 2:
        return False
    top, bottom = np.median(prof[a : a + third], axis=0), np.median(prof[b - third : b], axis=0)
    middle = np.median(prof[a + third : b - third], axis=0)
    step, rest = float(np.linalg.norm(top - middle)), float(np.linalg.norm(middle - bottom))
    if rest <= max(most / 4, step / STEP_RATIO) and most / 4 < step / 2:
        return False  # flat below a differing top: the headroom's glass merged into a liquid
    return bool(np.linalg.norm(top - bottom) > most)


GLASS_STEP = 1.5  # glass changes by at most this share of the picture's change behind it


def _steps_off_glass(lab: np.ndarray, runs: tuple, box: tuple, room: float, cut: float) -> bool:
    """True when a run right under a run taken for glass (`runs`: the glass, the run) differs
    from it by more than the profile's `cut` (`ReaderParams.jump`: a smaller step is no
    step) beyond `GLASS_STEP` times what the picture beside the tube changes between their
    rows: glass shows the picture behind it, so it steps only where the picture steps, and
    a liquid under the headroom, its ends blurred toward the glass above and the liquid
    below (a drift), steps on its own (17858)."""
    above, seg = runs
    here = _beside(lab, box, seg.y0, seg.y1, room)
    there = _beside(lab, box, above.y0, above.y1, room)
    if here is None or there is None:
        return False
    picture = float(np.linalg.norm(here - there))
    return float(np.linalg.norm(seg.lab - above.lab)) > GLASS_STEP * picture + cut


MARKED_GLASS = 16.0  # ΔE: a marked run this far from the glass is no glass (see `_drifts`)
TRACK_GAIN = (0.3, 1.5)  # a see-through run changes by this share of the picture's change
TRACK_OFF = 0.3  # of a run's spread: its pieces' colours off the picture's, scaled (a step: 0.5)
TRACK_PIECES = 6  # pieces a run is cut into to follow the picture down it


def _tracks(lab: np.ndarray, prof: np.ndarray, seg: _Segment, box: tuple, room: float) -> bool:
    """True when a run's colour follows the picture beside the tube down its pieces (scaled
    by `TRACK_GAIN`, off it by under `TRACK_OFF` of its spread): glass over a picture,
    however unlike the glass model. A liquid is one flat colour, and two near liquids read
    as one run step where they meet, which the picture's smooth change does not explain. The
    outline across the tube's bottom is left out."""
    _, y_top, _, h = box
    a, b = seg.y0 - y_top, seg.y1 - y_top
    if b >= h - 1:
        b -= _edge_rows(box)
    cuts = np.linspace(a, b, TRACK_PIECES + 1).astype(int)
    if cuts[1] - cuts[0] < 2:
        return False
    run, picture = [], []
    for lo, hi in pairwise(cuts):
        side = _beside(lab, box, y_top + lo, y_top + hi, room)
        if side is None:
            return False
        run.append(np.median(prof[lo:hi], axis=0))
        picture.append(side)
    run_c = np.array(run) - np.mean(run, axis=0)
    pic_c = np.array(picture) - np.mean(picture, axis=0)
    gain = float((run_c * pic_c).sum() / ((pic_c * pic_c).sum() + 1e-9))
    off = np.sqrt(((run_c - gain * pic_c) ** 2).sum() / (run_c * run_c).sum().clip(1e-9))
    return TRACK_GAIN[0] <= gain <= TRACK_GAIN[1] and float(off) < TRACK_OFF


def _drifts(prof: np.ndarray, seg: _Segment, box: tuple) -> bool:
    """True when a run at a tube's top drifts like the picture behind glass (see `_varies`),
    unless it shows a mark (a '?') and is `MARKED_GLASS` or further from the glass: a '?' cell
    under a liquid of near its grey is one run whose colour steps where the cells meet, and
    the glass never shows a mark."""
    if seg.kind == "hidden" and seg.glass >= MARKED_GLASS:
        return False
    return _varies(prof, seg, box)


def _icon(lab: np.ndarray, box: tuple, segs: list[_Segment], body: float = 0.0) -> bool:
    """True when a tube holds an icon: one to three runs at its middle (a lock's shackle and
    body, a badge's blurred rim) between runs of one colour, each at least `body` of the
    tube's height, and narrower than the tube (see `_narrow`). A liquid unit fills the tube's
    width; a lock or badge on a cover does not. The icon is centred on the tube, or, when
    the run above it starts at the box's top, on the cover's own rows (see `_cover_span`: a
    box fitted to the liquids may miss the top). A cover hides its tube from the top, so the
    run above the icon starts within the box's top fifth (a box may reach over the cover's
    top; a liquid unit over '?' cells of its shade is no cover)."""
    x, y, w, h = box
    if w < 8:
        return False
    for i, above in enumerate(segs):
        if above.y0 > y + 0.2 * h:  # a cover hides its tube from the top
            break
        for j in range(i + 2, min(i + 5, len(segs))):
            below, mid = segs[j], segs[i + 1 : j]
            y0, y1 = mid[0].y0, mid[-1].y1
            centred = abs((y0 + y1) / 2 - (y + h / 2)) < 0.1 * h
            if not centred and above.y0 <= y and np.linalg.norm(above.lab - below.lab) <= 10:
                top, bottom = _cover_span(lab, box, above, below)
                centred = abs((y0 + y1) / 2 - (top + bottom) / 2) < 0.1 * h
            if not centred or np.linalg.norm(above.lab - below.lab) > 10:
                continue
            if min(above.length, below.length) < body * h or y1 - y0 > 0.4 * h:
                continue
            if max(np.linalg.norm(m.lab - above.lab) for m in mid) < 15:
                continue
            if _repeated(mid, segs[:i] + segs[j + 1 :]):
                continue
            if _narrow(lab, box, (above.y0, above.y1), (y0, y1), (below.y0, below.y1)):
                return True
    return False


def _cover_span(
    lab: np.ndarray, box: tuple, above: _Segment, below: _Segment, same: float = 10.0
) -> tuple[int, int]:
    """(top, bottom) rows of a cover: its run `above` an icon followed up past the box's
    top while the colour down the tube's centre stays the run's (ΔE under `same`), at most
    half the box's height, down to the end of its run `below`. A box's top may miss a tube's
    faint headroom; its bottom sits on the tube's bottom, which the liquids show."""
    x, y, w, h = box
    top = above.y0
    if top <= y:
        lo = max(0, y - h // 2)
        prof = _profile(lab, (x, lo, w, y - lo))
        while top > lo and np.linalg.norm(prof[top - 1 - lo] - above.lab) < same:
            top -= 1
    return top, below.y1


def _repeated(mid: list[_Segment], rest: list[_Segment], same: float = 10.0) -> bool:
    """True when a run of `mid`'s colour (ΔE under `same`), no longer than twice the longest
    of `mid`, recurs elsewhere down the tube (`rest`): marks drawn on every unit cell (the '?'
    of hidden units), not the one icon a cover carries."""
    most = 2 * max(m.length for m in mid)
    return any(s.length <= most and np.linalg.norm(s.lab - m.lab) < same for s in rest for m in mid)


def _narrow(lab: np.ndarray, box: tuple, above: tuple, mid: tuple, below: tuple) -> bool:
    """True when rows `mid` differ from the rows just above and below them (as many rows of
    `above` and `below`) only in a run of columns around the tube's centre under 70 % of its
    width, with columns of one colour down all three on both sides of it inside the box (a
    liquid unit runs from side to side, and a box off the tube holds one of its sides)."""
    x, _, w, _ = box
    n = mid[1] - mid[0]
    cols = slice(max(0, x), min(lab.shape[1], x + w))
    m, a, b = (
        np.median(lab[r0:r1, cols], axis=0)
        for r0, r1 in (
            (mid[0], mid[1]),
            (max(above[0], above[1] - n), above[1]),
            (below[0], min(below[1], below[0] + n)),
        )
    )
    differs = np.maximum(np.linalg.norm(m - a, axis=1), np.linalg.norm(m - b, axis=1)) > 10
    centre = x + w // 2 - cols.start
    near = np.flatnonzero(differs[centre - w // 5 : centre + w // 5 + 1])
    if not len(near):
        return False
    left = right = centre - w // 5 + int(near[np.argmin(np.abs(near - w // 5))])
    while left > 0 and differs[left - 1]:
        left -= 1
    while right < len(differs) - 1 and differs[right + 1]:
        right += 1
    same = ~differs
    if right - left + 1 >= 0.7 * w or min(same[:left].sum(), same[right + 1 :].sum()) < 2:
        return False
    return _on_cover(m, np.median(lab[above[0] : above[1], cols], axis=0), left, right)


def _on_cover(mid: np.ndarray, above: np.ndarray, left: int, right: int, same: float = 12) -> bool:
    """True when the columns beside an icon's run `left`..`right` (up to four each side, in
    its rows, `mid`) show, on one side at least, the colour drawn above the icon (`above`:
    the whole run above it, so an icon's top cut into it counts little; at some column of
    the icon's run, ΔE under `same`): an icon sits on its cover (on a tiny picture its blur
    may reach the cover's border on one side). A unit between two units of one colour is
    bounded on both sides by the tube's walls instead, whose colour is not the liquid's
    above it. The run's outer columns (a fifth each side, at least two) are left out of
    `above`: they may be a wall's."""
    trim = max(2, (right - left + 1) // 5)
    over = above[left + trim : right + 1 - trim]
    if not len(over):
        return True
    for side in (mid[max(0, left - 4) : left], mid[right + 1 : right + 5]):
        if len(side) and np.linalg.norm(side[:, None, :] - over[None, :, :], axis=2).min() < same:
            return True
    return False


def _neutral(seg: _Segment) -> bool:
    """A grey fill (dark, mid or light): games draw their '?' cells in one."""
    return _grey(seg.lab)


def _grey(lab: np.ndarray) -> bool:
    """A CIELAB colour of little chroma: grey, whatever its lightness."""
    return bool(np.hypot(lab[1], lab[2]) <= 15)


def _symbols(marked: list[_Segment]) -> bool:
    """True when the board's coloured liquids carry marks too (symbols on every colour, a
    colour-blind mode): more than one marked run is coloured, and at least `SYMBOL_SHARE` of
    them. One coloured marked run among grey ones is a '?' cell whose run took in what lies
    beside it (the picture under a box that reaches below its tube)."""
    coloured = sum(not _neutral(s) for s in marked)
    return coloured > 1 and coloured >= SYMBOL_SHARE * len(marked)


SYMBOL_SHARE = 0.25  # symbols mark every colour: coloured runs are many of the marked ones


def _beside_hidden(segs: list[_Segment], fill: np.ndarray | None, symbols: bool) -> set[int]:
    """Indices of grey marked runs next to a longer marked run of the '?' fill: pieces of a
    '?' cell that a big glyph's strokes cut off (lighter or darker than the fill, grey as the
    cell is drawn). A coloured run there is a liquid whose run took in the edge of the mark
    below it."""
    out = set()
    for i, s in enumerate(segs):
        for j in (i - 1, i + 1):
            if 0 <= j < len(segs) and s.kind == segs[j].kind == "hidden":
                if segs[j].length > s.length and _hidden_look(segs[j], fill, symbols):
                    if _neutral(s):  # a liquid that took in a mark's edge keeps its colour
                        out.add(i)
    return out


SAME_FILL = 12.0  # ΔE within which two greys are one '?' fill


def _hidden_fill(marked: list[_Segment]) -> np.ndarray | None:
    """The one grey fill of the marked runs (a game draws every '?' alike): the grey shared
    by most of their rows (a big glyph's strokes leave short pieces of lighter grey between
    the cells), or None when there is none or no grey holds most of them."""
    grey = [s for s in marked if _neutral(s)]
    if not grey:
        return None
    return _shared_grey(np.array([s.lab for s in grey]), [s.length for s in grey])


def _shared_grey(fills: np.ndarray, rows: list[int]) -> np.ndarray | None:
    """The median of the `fills` (one CIELAB colour per run of `rows` rows) within
    `SAME_FILL` of the one that most rows are near, or None when those hold under three
    quarters of the rows: the one grey a game draws its '?' cells in."""
    weight = np.array(rows, dtype=float)
    near = np.linalg.norm(fills[:, None] - fills[None], axis=2) < SAME_FILL
    share = near @ weight
    best = int(np.argmax(share))
    if share[best] < 0.75 * weight.sum():
        return None
    return np.median(fills[near[best]], axis=0)


def _plain_fill(images: tuple, runs: list) -> np.ndarray | None:
    """The one grey of the marked grey runs' plain pixels (`runs`: (box, run) pairs), their
    marks left out (see `_cell_colour`), or None when no grey holds three quarters of their
    rows: where a ring or a big glyph leaves no one grey down the tube's middle
    (`_hidden_fill` finds none), the fill between the strokes is still one grey."""
    grey = [(box, s) for box, s in runs if s.kind == "hidden" and _neutral(s) and s.length > 2]
    if not grey:
        return None
    fills = np.array([_cell_colour(images, box, s.y0, s.y1) for box, s in grey])
    fill = _shared_grey(fills, [s.length for _, s in grey])
    return fill if fill is not None and _grey(fill) else None


def _like_hidden(per_tube: list, fill: np.ndarray | None, symbols: bool) -> list[int]:
    """Tubes holding a liquid run in the grey of a '?' run (within `SAME_FILL` ΔE), when the
    '?' cells share no one fill: a '?' whose mark was missed reads as just such a liquid. With
    one fill, every run of it has been looked at cell by cell for marks (`_split_marked`)."""
    if symbols or fill is not None:
        return []
    greys = [s.lab for t in per_tube if t for s in t if s.kind == "hidden" and _neutral(s)]
    if not greys:
        return []
    greys = np.array(greys, dtype=float)
    return [
        k
        for k, t in enumerate(per_tube)
        if t
        and any(
            s.kind == "liquid" and np.linalg.norm(greys - s.lab, axis=1).min() < SAME_FILL
            for s in t
        )
    ]


def _grey_among_hidden(per_tube: list, fill: np.ndarray | None) -> list[int]:
    """Tubes holding a grey liquid run between two '?' runs, in the grey of either or of the
    '?' fill (within `SAME_FILL` ΔE): a '?' cell whose mark was missed (a thin mark on a
    small picture) reads as just such a liquid, and the '?' cells' wildcards keep the
    invariant whatever it is. Games hide a run of units, not units either side of one shown."""
    out = []
    for k, t in enumerate(per_tube):
        for below, s, above in zip(t or [], (t or [])[1:], (t or [])[2:], strict=False):
            if not (below.kind == above.kind == "hidden" and s.kind == "liquid" and _neutral(s)):
                continue
            greys = [below.lab, above.lab] + ([fill] if fill is not None else [])
            if np.linalg.norm(np.array(greys, dtype=float) - s.lab, axis=1).min() < SAME_FILL:
                out.append(k)
                break
    return out


def _missed_marks(per_tube: list, fill: np.ndarray | None) -> list | None:
    """Per tube segments with the grey liquid runs in '?' cells' places taken for '?' cells
    whose marks were missed, or None when there is none.

    The place: a tube's bottom unit, or one with only '?' runs below it (games hide the lower
    units). The grey: within `SAME_FILL` of the '?' fill (or, with no one fill, of a '?' run's
    grey), and nearer it than to every grey liquid seen elsewhere (above a liquid, where no
    '?' can be: a grey liquid a few ΔE from the cells' grey stays a liquid on the cells too).
    A thin mark at a small size, or one cut by a round bottom, leaves just the cell's grey.
    `_read_slots` takes the variant only when it keeps the invariant and the reading does not,
    on a board with no covered tube (a covered tube may hold anything, so the invariant would
    take a grey liquid for '?' cells too)."""
    greys = [s.lab for t in per_tube if t for s in t if s.kind == "hidden" and _neutral(s)]
    greys = [fill] if fill is not None else greys
    if not greys:
        return None
    ref = np.array(greys, dtype=float)
    seen = [
        s.lab
        for t in per_tube
        if t
        for i, s in enumerate(t)
        if s.kind == "liquid" and _neutral(s) and not _on_cells(t, i)
    ]
    known = np.array(seen, dtype=float).reshape(-1, 3)
    out, changed = [], False
    for t in per_tube:
        new = list(t or [])
        for i, s in enumerate(new):
            if s.kind != "liquid" or not _neutral(s) or not _on_cells(new, i):
                continue
            near = np.linalg.norm(ref - s.lab, axis=1).min()
            liquid = np.linalg.norm(known - s.lab, axis=1).min() if len(known) else np.inf
            if near < SAME_FILL and near < liquid:
                new[i] = replace(s, kind="hidden")
                changed = True
        out.append(new if t else t)
    return out if changed else None


def _on_cells(segs: list, i: int) -> bool:
    """Run `i` of a tube's runs (from the bottom) is at the bottom or has only '?' runs under
    it: the place of a '?' cell (games hide a tube's lower units)."""
    return all(u.kind == "hidden" for u in segs[:i])


def _under_cells(per_tube: list) -> list | None:
    """Per tube segments with every liquid run under a '?' run taken for '?' cells, or None
    when there is none: games hide a tube's lower units, so a run under a '?' is a cell whose
    mark was missed (at a round bottom, or a small one blurred into the fill). Some games draw
    '?' cells between liquids, so `_read_slots` takes this only as a variant that keeps the
    invariant when the reading does not."""
    out, changed = [], False
    for t in per_tube:
        new = list(t or [])
        top = max((i for i, s in enumerate(new) if s.kind == "hidden"), default=-1)
        for i in range(top):
            if new[i].kind == "liquid":
                new[i] = replace(new[i], kind="hidden")
                changed = True
        out.append(new if t else t)
    return out if changed else None


def _unmarked(per_tube: list, fill: np.ndarray | None, covered: bool) -> list[list]:
    """Variants of a reading with '?' cells whose marks were missed (see `_missed_marks` and
    `_under_cells`), the fewest runs changed first. On a board with a covered tube only runs
    under a '?' (a covered tube may hold anything, so the invariant would take a grey liquid
    for '?' cells too)."""
    grey = None if covered else _missed_marks(per_tube, fill)
    under = _under_cells(per_tube)
    both = _under_cells(grey) if grey is not None else None
    found = [v for v in (grey, under, both, _shown_tops(per_tube)) if v is not None]
    return sorted(found, key=lambda v: _changed(per_tube, v))


def _counted_cells(per_tube: list, covered: bool, capacity: int) -> list[list]:
    """Variants of a reading with greys in '?' cells' places taken for '?' cells on the
    colour counts' word alone, no mark seen on them (see `_surplus_grey` and, with no
    covered tube, `_unseen_marks`), the fewest runs changed first. The counts take '?' cells
    as wildcards, so a liquid read as cells can keep them too: a reading that takes one says
    so."""
    surplus = _surplus_grey(per_tube, capacity)
    found = ([surplus] if surplus is not None else []) + (
        [] if covered else _unseen_marks(per_tube, capacity)
    )
    return sorted(found, key=lambda v: _changed(per_tube, v))


def _changed_tubes(per_tube: list, variant: list) -> list[int]:
    """Indices of the tubes whose runs a variant reads as another kind."""
    pairs = enumerate(zip(per_tube, variant, strict=True))
    return [k for k, (t, v) in pairs if t and _changed([t], [v])]


def _unseen_marks(per_tube: list, capacity: int) -> list[list]:
    """Variants of a reading with no '?' run, one per grey (see `_grey_groups`), with that
    grey's liquid runs taken for '?' cells, when every one lies in a '?' cell's place (see
    `_on_cells`) and they hold no whole number of `capacity` units: a thin mark on a small
    JPEG can vanish from every cell, and then no '?' run gives the cells' grey (see
    `_missed_marks`). A whole colour's worth would keep the invariant either way, so the
    counts could not vouch for it."""
    if capacity < 1 or any(s.kind == "hidden" for t in per_tube if t for s in t):
        return []
    return [
        cells
        for same in _grey_groups(per_tube)
        if sum(per_tube[k][i].units for k, i in same) % capacity
        and _all_on_cells(cells := _as_cells(per_tube, same), same)
    ]


def _surplus_grey(per_tube: list, capacity: int) -> list | None:
    """Per tube segments with a grey liquid seen more than `capacity` times (no liquid is),
    every run of it in '?' cells' places (see `_on_cells`), taken for '?' cells, or None when
    there is none: a mark too thin or blurred to be seen on every cell (a small JPEG) leaves
    the cells one grey run after another at the tubes' bottoms."""
    for same in _grey_groups(per_tube) if capacity >= 1 else []:
        if sum(per_tube[k][i].units for k, i in same) <= capacity:
            continue
        if _all_on_cells(cells := _as_cells(per_tube, same), same):
            return cells
    return None


def _all_on_cells(cells: list, runs: list[tuple[int, int]]) -> bool:
    """Every (tube, run) of `runs` lies in a '?' cell's place (see `_on_cells`) once all of
    them are read as cells: a grey split in two runs by JPEG noise is one stack of cells."""
    return all(_on_cells(cells[k], i) for k, i in runs)


def _grey_groups(per_tube: list) -> list[list[tuple[int, int]]]:
    """The grey liquid runs of a reading as (tube, run) pairs, grouped by grey: each group
    the runs within `SAME_FILL` ΔE of one of them, in reading order, none twice."""
    runs = [
        (k, i, s)
        for k, t in enumerate(per_tube)
        if t
        for i, s in enumerate(t)
        if s.kind == "liquid" and _neutral(s)
    ]
    groups: list[list[tuple[int, int]]] = []
    for _, _, ref in runs:
        same = [(k, i) for k, i, s in runs if np.linalg.norm(s.lab - ref.lab) < SAME_FILL]
        if same not in groups:
            groups.append(same)
    return groups


def _as_cells(per_tube: list, runs: list[tuple[int, int]]) -> list:
    """A copy of a reading's runs with the (tube, run) `runs` read as '?' cells."""
    out = [list(t) if t else t for t in per_tube]
    for k, i in runs:
        out[k][i] = replace(out[k][i], kind="hidden")
    return out


def _shown_tops(per_tube: list) -> list | None:
    """Per tube segments with a one-unit '?' run at a tube's top taken for a liquid, or None
    when there is none: games show every tube's top unit (the one a player may pour), so a
    mark seen there was something else (a glint, an outline's corner)."""
    out, changed = [], False
    for t in per_tube:
        new = list(t or [])
        if new and new[-1].kind == "hidden" and new[-1].units == 1:
            new[-1] = replace(new[-1], kind="liquid")
            changed = True
        out.append(new if t else t)
    return out if changed else None


def _changed(per_tube: list, variant: list) -> int:
    """How many runs a variant reads as another kind."""
    pairs = zip(per_tube, variant, strict=True)
    return sum(a.kind != b.kind for t, v in pairs if t for a, b in zip(t, v, strict=True))


def _hidden_look(seg: _Segment, fill: np.ndarray | None, symbols: bool = False) -> bool:
    """A marked run is hidden when its fill is grey and, if the board's marked grey runs
    share one fill, that fill. When coloured liquids carry marks too (symbols on every colour,
    a colour-blind mode, the lab's letters) only the classic '?' cell counts: dark grey."""
    if symbols:
        L, a, b = seg.lab
        return bool(L <= 45 and np.hypot(a, b) <= 12)
    near = fill is None or np.linalg.norm(seg.lab - fill) < 12
    return _neutral(seg) and bool(near)


def _floating(segs: list[_Segment], box: tuple) -> bool:
    """True when a tall run of liquid sits above empty glass (liquid never floats; the rim at
    the top is not liquid)."""
    kinds = [_tall_liquid(s, box) for s in segs]
    empty = [s.kind == "empty" and not _bottom_edge(s, box) for s in segs]
    return any(kinds[i] and any(empty[i + 1 :]) for i in range(len(segs)))


def _drop_corks(per_tube: list[list[_Segment] | None], capacity: int) -> None:
    """Drop the cork of a completed tube: one-unit plugs above `capacity` units of one colour,
    of a colour no liquid has (games cork only tubes completed in one colour). None is dropped
    when another tube holds more than `capacity` units with no cork on it: the capacity is
    then larger, and a one-unit 'plug' is the top liquid of a tube not completed."""
    over = [t for t in per_tube if t and sum(s.units for s in t) > capacity]
    ids = {id(t) for t in over if len(t) <= 3}  # tubes that may carry a cork
    liquids = [s.lab for t in per_tube if t for s in (t[:1] if id(t) in ids else t)]
    corked = [segs for segs in over if _corked(segs, capacity, liquids)]
    if len(corked) < len(over):
        return
    for segs in corked:
        del segs[1:]


def _corked(segs: list[_Segment], capacity: int, liquids: list) -> bool:
    """True when a tube holds `capacity` units of one colour under one-unit plugs (at most
    two) in colours no liquid has (or under a cork's grain read as '?')."""
    if len(segs) > 3:
        return False
    full = segs[0].kind == "liquid" and segs[0].units == capacity
    plugs = all(s.kind == "liquid" and s.units == 1 for s in segs[1:])
    plugs = plugs or (len(segs) == 2 and segs[1].kind == "hidden")  # a cork's grain
    alien = all(min(np.linalg.norm(s.lab - c) for c in liquids) > 12 for s in segs[1:])
    return full and plugs and alien


def _capacity_from_counts(per_tube: list, capacity: int, join: float = JOIN_DELTA_E) -> int:
    """On a fully visible board where every colour appears equally often (at least twice, and
    no tube holds more), that common count: the invariant outranks the tubes' geometry."""
    if any(t is None or any(s.kind == "hidden" for s in t) for t in per_tube):
        return capacity
    samples = np.array([s.lab for t in per_tube for s in t for _ in range(s.units)])
    if len(samples) < 2:
        return capacity
    labels, _ = cluster_colors(samples, join=join)
    counts = set(np.bincount(labels).tolist())
    most = max(sum(s.units for s in t) for t in per_tube)
    if len(counts) == 1 and len(set(labels.tolist())) >= 2:
        common = counts.pop()
        if common >= max(2, most) and common != capacity:
            return common
    return capacity


def _stack(segs: list[_Segment], box: tuple) -> list[_Segment]:
    """The liquid (and hidden) segments from the bottom up to the first empty one, bottom first.

    Glass at the bottom under a tall run of liquid (see `_tall_liquid`) is no empty space
    (liquid never floats): the bottom's curve or outline seen as glass. It is skipped, and
    the units above are counted from the tube's bottom (see `_count_units`)."""
    x, y, w, h = box
    out = []
    body = [s for s in segs if s.y1 <= y + h - 1 or s.length > 0.04 * h]
    while body and _bottom_edge(body[-1], box):
        body.pop()
    while body and body[-1].kind == "empty" and any(_tall_liquid(s, box) for s in body):
        body.pop()
    for s in reversed(body):
        if s.kind == "empty":
            break
        out.append(s)
    return out


def _bottom_edge(seg: _Segment, box: tuple) -> bool:
    """A short run at the tube's very bottom: the outline across a round or flat bottom,
    whatever colour it shows, is no unit and no empty space."""
    _, y, _, h = box
    return seg.y1 >= y + h - 1 and seg.length < _edge_rows(box)


def _edge_rows(box: tuple) -> int:
    """Rows the outline across a tube's bottom may take: `MIN_UNIT_WIDTH` of its width or 6 %
    of its height, whichever is more (no unit is that short)."""
    _, _, w, h = box
    return int(max(0.06 * h, MIN_UNIT_WIDTH * w))


def _bounds(segs: list[_Segment] | None, box: tuple) -> list[tuple[float, float, int]]:
    """(height above the tube's bottom edge, weight, known unit count or 0) per segment top.

    The stack's top (liquid surface with a meniscus or headroom merged in) does not count,
    nor the top of a grey run under a '?' run (see `_split_cell`); the top of a run of '?'
    marks at the bottom is at as many units as it shows marks.
    """
    bottom = box[1] + box[3]
    segs = segs or []
    out = []
    for k, s in enumerate(segs):
        known = s.glyphs if k == 0 and s.kind == "hidden" else 0
        weight = 1.0 if k < len(segs) - 1 or known else 0.0
        if k < len(segs) - 1 and _split_cell(s, segs[k + 1]):
            weight = 0.0
        out.append((float(bottom - s.y0), weight, known))
    return out


def _split_cell(grey: _Segment, mark: _Segment) -> bool:
    """True when a grey liquid run lies next to a '?' run: a '?' cell whose mark (a circle,
    a bold hook) cuts the profile reads as a '?' piece and a piece of its grey fill, so
    their boundary may fall inside one cell."""
    return grey.kind == "liquid" and mark.kind == "hidden" and _neutral(grey)


# units a tube's height is taken to fit when no liquid shows the unit (covers and empty
# tubes only): the common tube of four units under a headroom of about one unit
GUESSED_FIT = 5.0


def _covers_only(per_tube: list) -> bool:
    """True when a board's tubes are covered or empty, at least one covered: no liquid shows
    the unit, but the covers found say the tubes were (a board read empty is no board)."""
    return any(t is None for t in per_tube) and not any(per_tube)


def _unit_candidates(height: float) -> np.ndarray:
    """Unit heights to try for tubes `height` high: capacity 2 to 11."""
    return np.arange(max(3.0, height / 12), height / 2.1, 0.25)


def _pick_unit(
    cands: np.ndarray, cover: np.ndarray, height: float, least: float = 0.0
) -> tuple[int, bool]:
    """(index of the unit height, ambiguous) from how well each candidate fits, among those
    of at least `least` rows.

    The largest well-fitting stretch of heights among capacity >= 3 wins (smaller ones are
    harmonics). Twice that height fitting as well means the picture cannot tell capacity c
    from c / 2 (every colour run an even number of units): ambiguous.
    """
    ok = (cands <= height / 3.2) & (cands >= least)
    top = cover[ok].max() if ok.any() else cover.max()
    good = np.flatnonzero((cover >= 0.9 * top) & (ok if ok.any() else True))
    start = good[-1]
    while start > 0 and start - 1 in good:
        start -= 1
    best = start + int(np.argmax(cover[start : good[-1] + 1]))
    twice = int(np.argmin(np.abs(cands - 2 * cands[best])))
    ambiguous = abs(cands[twice] - 2 * cands[best]) < 0.5 and cover[twice] >= 0.97 * cover[best]
    return best, bool(ambiguous)


MIN_UNIT_WIDTH = 0.3  # tube widths: no unit is drawn flatter (see `_read_slots`)


def _least_unit(first: float | None) -> float:
    """The smallest unit height the second pass may find after the first found `first`: it
    merges runs shorter than a third of that unit, so it sees fewer boundaries, none that
    could show a finer grid (a '?' mark cutting its cell is what makes one look finer)."""
    return 0.0 if first is None else 0.85 * first


def _fit_bounds(bounds: np.ndarray, height: float, least: float = 0.0) -> tuple:
    """(unit height, offset, ambiguous) so that boundaries sit at offset + k * unit, k >= 1;
    the unit at least `least` rows (see `_pick_unit`)."""
    cands, cover, best_off = _bounds_cover(bounds, height)
    best, ambiguous = _pick_unit(cands, cover, height, least)
    return float(cands[best]), float(best_off[best]), ambiguous


def _bounds_cover(bounds: np.ndarray, height: float) -> tuple:
    """(candidate unit heights, how well each puts the boundaries on its grid, the best
    offset of each in rows): see `_fit_bounds`."""
    p, wt, known = bounds[:, 0], bounds[:, 1], bounds[:, 2]
    cands = _unit_candidates(height)
    offs = np.linspace(-0.15, 0.2, 15)  # in units
    r = p[None, None, :] / cands[:, None, None] - offs[None, :, None]
    k = np.where(known > 0, known, np.maximum(1, np.round(r)))
    err = np.abs(r - k)
    cover = (np.clip(1 - (err / 0.12) ** 2, 0, 1) * wt).sum(axis=2)
    return cands, cover.max(axis=1), offs[np.argmax(cover, axis=1)] * cands


def _rival_units(
    cands: np.ndarray, cover: np.ndarray, unit: float, least: float = 0.0, most: int = 3
) -> list:
    """Indices of other unit heights the fit found nearly as good as `unit`: peaks of `cover`
    at least half the best, two or three times `unit` or a half or a third of it (within
    6 %) and at least `least` rows, best first, at most `most`. On a blurred picture, or
    where marks cut cells, the grid of twice or half the unit fits the boundaries nearly as
    well; a grid at another ratio would drop or invent colour boundaries."""
    inner = (cover[1:-1] >= cover[:-2]) & (cover[1:-1] > cover[2:])
    peaks = np.flatnonzero(np.concatenate([[cover[0] > cover[1]], inner, [cover[-1] > cover[-2]]]))
    ratio = cands[peaks, None] / (unit * np.array([2.0, 3.0, 1 / 2, 1 / 3]))
    harmonic = (np.abs(ratio - 1) <= 0.06).any(axis=1)
    keep = peaks[harmonic & (cover[peaks] >= 0.5 * cover.max()) & (cands[peaks] >= least)]
    return keep[np.argsort(-cover[keep], kind="stable")][:most].tolist()


def _uncounted_unit(bounds: np.ndarray, height: float, least: float) -> tuple | None:
    """(unit height, offset) of the fit that ignores the '?' marks counted at the bottom runs
    (None when none was counted). Counting marks fails where they are faint or close (their
    strokes break apart or run together), and a miscounted run pulls the whole grid off: this
    fit is a rival to read when the first reading breaks the game's invariant or puts a
    boundary off its grid (see `_read_slots`)."""
    if not (bounds[:, 2] > 0).any():
        return None
    free = bounds.copy()
    free[:, 2] = 0
    unit, offset, _ = _fit_bounds(free, height, least)
    return unit, offset


MISCOUNT = 0.25  # units: a counted '?' run's top this far off its count is no JPEG shift


def _miscounted(bounds: np.ndarray, unit: float, offset: float) -> bool:
    """True when a run of '?' marks counted at a tube's bottom (see `_bounds`) ends more than
    `MISCOUNT` units from as many units as it shows marks on the grid (`unit`, `offset`):
    the marks and the boundaries disagree, so the count (marks run together or break apart)
    or the grid the count pulled is wrong, and the fit blind to the counts is read too."""
    if not len(bounds):
        return False
    known = bounds[:, 2] > 0
    r = (bounds[known, 0] - offset) / unit
    return bool((np.abs(r - bounds[known, 2]) > MISCOUNT).any())


FLOOR_UNITS = 0.5  # units: liquid ending this far above its box's bottom ends at the tube's
FLOOR_WIDTH = 0.3  # ... and this many tube widths (more than an outline across the bottom)


def _liquid_floors(slots: list, per_tube: list, layout: list[int], unit: float) -> list:
    """`slots` with every row's boxes ending where the lowest liquid of the row ends, when
    that is at least `FLOOR_UNITS` units and `FLOOR_WIDTH` tube widths above the boxes'
    bottom: liquid rests on the tube's bottom, so a box reaching further down took in
    something under the tubes (a shadow, a shape of the background). Rows share no such
    error (each row's boxes are found apart), so each row is judged on its own tubes."""
    out, k = list(slots), 0
    for n in layout:
        row = range(k, k + n)
        k += n
        ends = [per_tube[j][0].y1 for j in row if per_tube[j]]
        if not ends:
            continue
        floor = max(ends) + 1
        for j in row:
            (x, y, w, h), doubt = slots[j]
            gap = y + h - floor
            if gap >= FLOOR_UNITS * unit and gap >= FLOOR_WIDTH * w and floor > y:
                out[j] = ((x, y, w, floor - y), doubt)
    return out


LOW_UNITS = 1.5  # units: a liquid running on below its box ends within this many units


def _liquid_below(
    flat: np.ndarray, slots: list, per_tube: list, layout: list[int], glass, unit: float, jump
) -> list:
    """`slots` with every row's boxes reaching down to where the liquid under them ends, when
    liquid goes on below them: liquid rests on the tube's bottom, so a box ending on a liquid
    missed the tube's lower part (and the units there). Each tube with liquid at its box's
    bottom tells how far liquid goes on below it (see `_runs_below`; 0 if it stops there);
    a row's tubes share their bottom, so every one of them must show liquid going on, and
    the row's boxes grow by the least they show, when that is at least a quarter unit."""
    out, k = list(slots), 0
    min_len = max(3.0, 0.35 * unit)
    for n in layout:
        row = range(k, k + n)
        k += n
        grow = [
            _runs_below(flat, slots[j][0], per_tube[j], glass, unit, jump, min_len) for j in row
        ]
        grow = [_walled(flat, slots[j][0], per_tube[j], d) for j, d in zip(row, grow, strict=True)]
        seen = [d for d in grow if d is not None]
        if not seen or min(seen) < max(3.0, 0.25 * unit):
            continue
        d = min(seen)
        for j in row:
            (x, y, w, h), doubt = slots[j]
            out[j] = ((x, y, w, min(h + d, flat.shape[0] - y)), doubt)
    return out


WALL_SHARE = 0.5  # of the step across a tube's walls beside its bottom liquid: a tube going
# on below its box shows walls there at least half as strong (a picture under it steps nowhere
# in particular; liquid against the same picture steps alike)


def _walled(flat: np.ndarray, box: tuple, segs, d: int | None) -> int | None:
    """`d` (rows of liquid below the box, see `_runs_below`), or 0 when those rows show the
    box's walls less than `WALL_SHARE` as strongly as its bottom liquid does above its
    bottom's curve: a tube's walls go on as far as its liquid, so a colour below the box
    that no wall bounds is the picture under the tube (a photo's patch), not its lower part.
    Left as it is when no stretch of bottom liquid shows the walls to compare with."""
    if not d or not segs:
        return d
    x, y, w, h = box
    top, end = segs[0].y0, y + h - w // 2  # the bottom liquid, above a round bottom's curve
    if end - top < 3:
        return d
    above = _wall_step(flat, box, top, end)
    below = _wall_step(flat, box, y + h, y + h + d)
    return 0 if above is not None and below is not None and below < WALL_SHARE * above else d


def _wall_step(flat: np.ndarray, box: tuple, y0: int, y1: int) -> float | None:
    """The median colour step (ΔE) across the box's weaker wall in rows y0 to y1, between
    the column a quarter of its width inside (the liquid, whatever glass a box's edge takes
    in) and the one a tenth of its width outside it; None off the picture."""
    x, _, w, _ = box
    m, inner = max(2, w // 10), w // 4
    y1 = min(y1, flat.shape[0])
    if x - m < 0 or x + w - 1 + m >= flat.shape[1] or y1 <= y0:
        return None
    rows = flat[y0:y1]
    left = np.linalg.norm(rows[:, x + inner] - rows[:, x - m], axis=1)
    right = np.linalg.norm(rows[:, x + w - 1 - inner] - rows[:, x + w - 1 + m], axis=1)
    return float(min(np.median(left), np.median(right)))


def _runs_below(flat, box: tuple, segs, glass, unit: float, jump: float, min_len: float):
    """Rows of liquid below a tube's box with liquid at its bottom: the runs from the box's
    bottom down that differ from the picture there (ΔE 16 from the glass model, which is the
    picture beside the tube at worst), 0 when the first does not. A slot not read yet (`segs`
    None: added by the row's spacing, or covered; covers are drawn tube-high) counts when the
    colour at its box's bottom is no glass. None when the box's bottom shows no liquid or the
    liquid does not end within `LOW_UNITS` units below the box (the tube's bottom: the
    outline or the picture begins; see `_liquid_below`)."""
    x, y, w, h = box
    if segs is not None and (not segs or segs[0].kind != "liquid" or segs[0].y1 < y + h - 2):
        return None
    end = min(flat.shape[0], y + h + int(LOW_UNITS * unit))
    if end <= y + h:
        return None
    prof = _profile(flat, (x, y, w, end - y))
    runs = _merge_short(_segments(prof, y, jump), prof, y, min_len)
    last = next((r for r in runs if r.y0 <= y + h - 1 < r.y1), None)
    if last is None:
        return None  # no run at the box's bottom row (a box at the picture's edge: no profile)
    if segs is None and (last.y0 > y + h - min_len or glass.distance(last, box) < 16):
        return None  # a slot not read yet (see `_read_missed`) or covered: no colour at its bottom
    low = y + h
    for r in runs:
        if r.y1 <= y + h:
            continue
        if glass.distance(r, box) < 16:
            return _unlike_beside(flat, prof, box, low, glass)
        low = r.y1
    return None


def _unlike_beside(flat: np.ndarray, prof: np.ndarray, box: tuple, low: int, glass) -> int:
    """`low` less the box's bottom (rows of liquid below the box, see `_runs_below`) when
    those rows, row by row, differ from the picture beside the tube by ΔE 16 or more in the
    median, else 0: a liquid near the picture under the tube drifts into it without a step."""
    x, y, w, h = box
    if low <= y + h:
        return 0
    room = _room(box, list(glass.boxes))
    gaps = []
    for r in range(y + h, low):
        side = _beside(flat, box, r, r + 1, room)
        if side is not None:
            gaps.append(float(np.linalg.norm(prof[r - y] - side)))
    return low - (y + h) if gaps and float(np.median(gaps)) >= 16 else 0


def _count_units(segs: list[_Segment], box: tuple, unit: float, offset: float) -> None:
    """Units per segment from where its upper boundary sits on the unit grid. A liquid run at
    the bottom whose top lies under half a unit up is dropped when it is alone or shorter than
    half a unit: games fill whole units, so it is the outline or curve across the tube's
    bottom (under an empty tube, or under the cell above it)."""
    bottom = box[1] + box[3]
    segs[:] = _join_cell_pieces(segs, bottom - offset, unit)
    below = 0
    keep = []
    for s in segs:
        r = (bottom - s.y0 - offset) / unit
        if round(r) <= below and keep:  # under half a unit: a meniscus, highlight or cork edge
            continue
        if round(r) == 0 and len(segs) == 1 and s.kind == "liquid":
            continue  # alone and under half a unit: the bottom's curve or outline, no liquid
        if round(r) == 0 and not keep and s.kind == "liquid" and s.length < unit / 2:
            continue  # a sliver under a run: the bottom's curve or outline under its cell
        top = max(below + 1, round(r))
        fit = 1 - 2 * abs(r - round(r))
        if s.kind == "hidden" and s.glyphs and fit < 0.5 and _marks_fit(s, unit):
            top = below + s.glyphs  # no clear edge on the unit grid: one '?' mark per unit
        s.units, s.fit = top - below, fit
        below = top
        keep.append(s)
    segs[:] = keep


def _counted(images, box: tuple, segs: list, unit: float, offset: float, marks: dict) -> list:
    """A tube's runs (bottom first) with their units counted (see `_count_units`), the
    unmarked top cells of its '?' runs split off as liquid and, when the board's '?' cells
    share one plain grey fill, its grey runs cut into '?' and liquid cells (see
    `_split_marked`): every tube is read so, with the board or alone. Not on a board whose
    coloured liquids carry marks too (symbols: a mark then tells no '?' cell). A liquid run
    whose unit cells differ in colour is cut between them first (see `_split_mixed`)."""
    _count_units(segs, box, unit, offset)
    segs = _split_mixed(images, box, segs, unit, offset)
    if segs and not marks.get("symbols"):
        segs = _split_marked(images, box, segs, unit, offset, marks.get("fill"))
        if marks.get("plain") is not None:
            return _marked_cells(images, box, segs, unit, offset, marks["plain"])
    return segs


BOTTOM_SHADE = 1.5  # a round bottom shades its cell's grey by up to half of SAME_FILL more


def _marked_cells(images, box: tuple, segs: list, unit: float, offset: float, plain) -> list:
    """A tube's runs (bottom first) with the cells of grey liquid runs in '?' cells' places
    (at the bottom, or on '?' runs only: games hide a tube's lower units) that show a mark
    on the '?' cells' `plain` grey (see `_plain_fill`) taken for '?' cells, from the bottom
    up to the first cell that does not. A ring round a '?' cut by the tube's bottom, or a
    small cell whose mark blurs into the fill, leaves a run of the cells' grey apart from
    the '?' run; cell by cell, the mark and the fill between its strokes still show."""
    bottom = box[1] + box[3] - offset
    out, below = [], 0
    for s in segs:
        if s.kind == "hidden" and out and out[-1].kind == "hidden":  # cells taken under it
            low = out[-1]
            out[-1] = replace(low, y0=s.y0, units=low.units + s.units, glyphs=low.glyphs + s.glyphs)
            below += s.units
            continue
        if s.kind != "liquid" or not _neutral(s) or s.units < 1 or not _on_cells(out, len(out)):
            out.append(s)
            below += s.units
            continue
        n = 0
        while n < s.units:
            y0, y1 = _cell_span(bottom, unit, below + n)
            colour = _cell_colour(images, box, y0, y1)
            if not _cell_grey(images, box, s, (y0, y1), colour, plain, below + n == 0):
                break
            if not _cell_marked(images, box, y0, y1):
                break
            n += 1
        cut = s.y0 if n == s.units else round(bottom - (below + n) * unit)
        if n and out and out[-1].kind == "hidden":  # the cells join the '?' run under them
            low = out[-1]
            out[-1] = replace(low, y0=cut, units=low.units + n, glyphs=low.glyphs + n)
        elif n:
            out.append(_Segment(cut, s.y1, s.lab, "hidden", n, s.fit, glyphs=n))
        if n < s.units:
            out.append(replace(s, y1=cut if n else s.y1, units=s.units - n))
        below += s.units
    return out


def _cell_grey(images, box: tuple, s: _Segment, rows: tuple, colour, plain, bottom: bool) -> bool:
    """A unit cell (`rows` of run `s`, of median `colour`) is in the '?' cells' `plain`
    grey: within `SAME_FILL`, or at a tube's `bottom` cell, which a round bottom shades, within
    `BOTTOM_SHADE` times that in its upper half too (a liquid cut by a thick outline shows its
    own colour there), and no nearer the cell above it in the run than to the grey (then the
    run is one liquid, not a liquid on a shaded '?' cell)."""
    apart = float(np.linalg.norm(colour - plain))
    if apart < SAME_FILL:
        return True
    if not bottom or apart >= SAME_FILL * BOTTOM_SHADE:
        return False
    y0, y1 = rows
    upper = _cell_colour(images, box, y0, (y0 + y1) // 2)
    apart = float(np.linalg.norm(upper - plain))
    if apart >= SAME_FILL * BOTTOM_SHADE:
        return False
    if s.units < 2:
        return True
    above = _cell_colour(images, box, 2 * y0 - y1, y0)
    return float(np.linalg.norm(above - upper)) >= apart


def _one_colour(images, box: tuple, y0: int, y1: int) -> bool:
    """One unit cell, rows y0 to y1, shows one colour: its upper and lower halves within
    half of `JOIN_DELTA_E` (on a grid other than the drawn one a cell takes in two)."""
    mid = (y0 + y1) // 2
    upper, lower = _cell_colour(images, box, y0, mid), _cell_colour(images, box, mid, y1)
    return float(np.linalg.norm(upper - lower)) <= JOIN_DELTA_E / 2


def _cut_between(steps: list[float], j: int, bottom: bool) -> bool:
    """Cells j - 1 and j of a run (`steps`: colour steps from cell to cell, 0 at the ends)
    are two colours: a step over `JOIN_DELTA_E` (twice that at a tube's `bottom` cell),
    with the cells beside it each side within half of it of their neighbour."""
    apart = JOIN_DELTA_E * (2 if bottom else 1)
    return steps[j] > apart and max(steps[j - 1], steps[j + 1]) <= JOIN_DELTA_E / 2


def _split_mixed(images, box: tuple, segs: list, unit: float, offset: float) -> list:
    """A tube's runs (bottom first) with each liquid run of several units cut where two of
    its neighbouring unit cells differ by more than `JOIN_DELTA_E` (two colours, not one;
    twice that beside the tube's bottom cell, which a round bottom shades) and the cells
    beside them each side are one colour: on a small JPEG two near colours (a blue on a
    purple) blur their boundary under the jump that cuts runs, but each cell's centre keeps
    its own colour. Steps in a row are a gradient (a photo behind glass taken for liquid),
    and a run whose cells are not each one colour is left whole (see `_one_colour`), its
    cells' colours kept for the counts to judge (see `_blurred_runs`)."""
    bottom = box[1] + box[3] - offset
    out, below = [], 0
    for s in segs:
        if s.kind != "liquid" or s.units < 2:
            out.append(s)
            below += s.units
            continue
        rows = [_cell_span(bottom, unit, k) for k in range(below, below + s.units)]
        colours = [_cell_colour(images, box, y0, y1) for y0, y1 in rows]
        if not all(_one_colour(images, box, y0, y1) for y0, y1 in rows):
            cells = tuple((y0, y1, c) for (y0, y1), c in zip(rows, colours, strict=True))
            out.append(replace(s, cells=cells))  # astride a boundary, or blurred: see
            below += s.units  # `_blurred_runs`
            continue
        out += _cut_cells(s, rows, colours, below)
        below += s.units
    return out


def _cut_cells(
    s: _Segment, rows: list, colours: list, below: int, shaded: bool = True
) -> list[_Segment]:
    """A liquid run (`below` units under it) cut between neighbouring unit cells (`rows`,
    bottom first, of `colours`) that `_cut_between` tells apart: one piece per colour. Not
    `shaded`: the tube's bottom cell is held to the same step as the others."""
    steps = [0.0, *(float(np.linalg.norm(b - a)) for a, b in pairwise(colours)), 0.0]
    out, start = [], 0  # steps[j]: from cell j - 1 to cell j (none beyond the run's ends)
    for j in range(1, s.units + 1):
        if j < s.units and not _cut_between(steps, j, shaded and below + j == 1):
            continue
        y1 = s.y1 if start == 0 else rows[start][1]
        y0 = s.y0 if j == s.units else rows[j - 1][0]
        lab = s.lab if (start, j) == (0, s.units) else np.median(colours[start:j], axis=0)
        out.append(replace(s, y0=y0, y1=y1, lab=lab, units=j - start, cells=()))
        start = j
    return out


def _blurred_runs(per_tube: list, out: tuple) -> tuple[list, list[int]]:
    """`per_tube` with each run of a colour the reading `out` saw more than capacity times
    cut where its unit cells' colours step apart (see `_cut_between`), among the runs
    `_split_mixed` left whole because their cells were not each one colour, and the tubes
    so cut. On a small JPEG a boundary between two near colours blurs each cell's half next
    to it as much as a gradient would, so the cells alone cannot tell; a colour seen too
    often can (the caller keeps the cut only when the invariant then holds, and doubts it),
    also next to a tube's bottom, whose shading makes no second colour the counts miss."""
    tubes, capacity = out[0], out[2]
    counts = Counter(u for t in tubes if t for u in t if u != HIDDEN)
    over = {c for c, m in counts.items() if m > capacity}
    cut: list = []
    changed: list[int] = []
    for k, segs in enumerate(per_tube):
        if not segs or not tubes[k]:
            cut.append(segs)
            continue
        new, below = [], 0
        for s in segs:
            mine = below < len(tubes[k]) and tubes[k][below] in over
            if s.kind == "liquid" and len(s.cells) == s.units >= 2 and mine:
                rows = [(y0, y1) for y0, y1, _ in s.cells]
                pieces = _cut_cells(s, rows, [c for _, _, c in s.cells], below, shaded=False)
                if len(pieces) > 1 and k not in changed:
                    changed.append(k)
                new += pieces
            else:
                new.append(s)
            below += s.units
        cut.append(new)
    return cut, changed


def _marks_fit(seg: _Segment, unit: float) -> bool:
    """A '?' run's mark count agrees with its length (within three quarters of a unit): a
    mark missed, or two counted as one, must not decide its units against its height."""
    return abs(seg.glyphs - seg.length / unit) < 0.75


def _join_cell_pieces(segs: list[_Segment], base: float, unit: float) -> list[_Segment]:
    """Join a '?' run and a grey liquid run next to it (bottom first) into one '?' run when
    the grey run is shorter than a unit and their boundary falls off the unit grid (`base`:
    the grid's zero row): the mark of a '?' cell (a circle, a bold hook) cut its cell into a
    marked piece and a piece of its fill."""
    out: list[_Segment] = []
    for s in segs:
        if out and (_split_cell(out[-1], s) or _split_cell(s, out[-1])):
            r = (base - s.y1) / unit
            low, high = out[-1], s
            mark, grey = (low, high) if low.kind == "hidden" else (high, low)
            if abs(r - round(r)) > 0.25 and grey.length < unit:
                out[-1] = _Segment(high.y0, low.y1, mark.lab, "hidden", glyphs=mark.glyphs)
                continue
        out.append(s)
    return out


def _split_marked(images, box: tuple, segs: list, unit: float, offset: float, fill) -> list:
    """Cut grey liquid runs into '?' cells and liquid cells, unit by unit on the grid: a grey
    liquid resting on '?' cells of the same grey is one colour run down the tube, and only
    the marks tell the cells apart; in a run of another grey a marked cell is a '?' when its
    own colour is the `fill`. Unmarked top cells of a '?' run are split off as liquid (see
    `_unmarked_top`), whatever the fill: with no one fill (marks drawn in a ring or in pieces
    leave several greys, `fill` None) only they are. `segs` runs bottom up."""
    bottom = box[1] + box[3] - offset
    out, below = [], 0
    for s in segs:
        if s.kind == "hidden" and s.units > 1:
            out += _unmarked_top(images, box, s, below, unit, bottom)
            below += s.units
            continue
        if fill is None or s.kind != "liquid" or not _neutral(s) or s.units < 1:  # '?' in grey
            out.append(s)
            below += s.units
            continue
        alike = _hidden_look(s, fill)  # the run has the '?' fill: its marks alone decide
        first = len(out)  # cells of this run join only each other, never a run below
        for k in range(below, below + s.units):
            y0, y1 = _cell_span(bottom, unit, k)
            marked = _cell_marked(images, box, y0, y1)
            if marked and not alike:
                marked = np.linalg.norm(_cell_colour(images, box, y0, y1) - fill) < 12
            kind = "hidden" if marked else "liquid"
            if len(out) > first and out[-1].kind == kind:
                last = out[-1]
                out[-1] = _Segment(y0, last.y1, last.lab, kind, last.units + 1, last.fit)
            else:
                out.append(_Segment(y0, y1, s.lab, kind, 1, s.fit, glyphs=1))
        below += s.units
    return out


MARK_LIFT = 0.25  # units: how far a '?' drawn high in its cell may sit above the grid's cell


def _unmarked_top(images, box: tuple, s: _Segment, below: int, unit: float, bottom: float) -> list:
    """Split off the top cells of a '?' run that show no mark: a grey liquid resting on '?'
    cells of a like grey joins their run, and only the marks tell it apart. Cells lower down
    keep their kind (a round bottom may hide a mark), and a cell whose mark shows a
    `MARK_LIFT` of a unit higher keeps its kind too (a mark drawn high in its cell, or a grid
    a little low, leaves the cell's trimmed window only the mark's dot)."""
    top = below + s.units
    plain = 0
    while plain < s.units - 1:
        k = top - plain - 1
        y0, y1 = _cell_span(bottom, unit, k)
        if _cell_marked(images, box, y0, y1):
            break
        lift = round(MARK_LIFT * unit)
        if _cell_marked(images, box, y0 - lift, y1 - lift):
            break
        plain += 1
    if not plain:
        return [s]
    cut = round(bottom - (top - plain) * unit)
    x, _, w, _ = box
    cells = images[1][s.y0 + 2 : cut - 2, x + int(0.3 * w) : x + int(0.7 * w) + 1]
    colour = np.median(cells.reshape(-1, 3), axis=0) if cells.size else s.lab
    low = _Segment(cut, s.y1, s.lab, "hidden", s.units - plain, s.fit, glyphs=s.glyphs)
    return [low, _Segment(s.y0, cut, colour, "liquid", plain, s.fit, cut=True)]


def _cell_colour(images: tuple, box: tuple, y0: int, y1: int) -> np.ndarray:
    """Median colour of one unit cell's centre, rows y0 to y1 (above a round bottom), over
    the pixels that are no mark (a '?' in a circle can cover half the centre): off the flat
    copy, or, for a bold mark the flattening kept, off the fill beside the mark (see
    `_side_fill`)."""
    x, _, w, _ = box
    top, low = _cell_rows(box, y0, y1)
    low = max(low, top + 1)
    cols = slice(x + int(0.3 * w), x + int(0.7 * w) + 1)
    cells = images[0][top:low, cols].reshape(-1, 3)
    light = images[0][top:low, cols, 0]
    plain = np.abs(light - images[1][top:low, cols, 0]).ravel() <= 30
    side = _side_fill(images[0], box, top, low)
    bold = plain & (np.abs(light - side).ravel() <= 30) if side is not None else plain
    plain = bold if bold.any() else plain
    return np.median(cells[plain] if plain.any() else cells, axis=0)


SIDE_COLS = (0.12, 0.25)  # of a tube's width in from each wall: inside the glass, outside
# a '?' mark (drawn centred, half a cell wide at most), so the cell's plain fill


def _side_fill(lab: np.ndarray, box: tuple, top: int, low: int) -> float | None:
    """Median lightness of a unit cell's rows `top` to `low` in two strips beside its middle
    (`SIDE_COLS`), or None where the tube is too narrow for them: no mark reaches there."""
    x, _, w, _ = box
    a, b = int(SIDE_COLS[0] * w), int(SIDE_COLS[1] * w)
    if b <= a or low <= top:
        return None
    strips = [lab[top:low, x + a : x + b, 0], lab[top:low, x + w - b : x + w - a, 0]]
    return float(np.median(np.concatenate([p.ravel() for p in strips])))


def _cell_span(bottom: float, unit: float, k: int) -> tuple[int, int]:
    """Rows y0 to y1 of a tube's unit cell `k` (0 at the bottom) on the grid from `bottom`."""
    return round(bottom - (k + 1) * unit), round(bottom - k * unit)


def _cell_rows(box: tuple, y0: int, y1: int) -> tuple[int, int]:
    """The rows of one unit cell, y0 to y1, to look at: a sixth trimmed off each end, none
    below the tube's top or in its bottom outline."""
    _, y, w, h = box
    trim = (y1 - y0) // 6
    return max(y0 + trim, y), min(y1 - trim, y + h - w // 8)


def _cell_marked(images, box: tuple, y0: int, y1: int, least: float = 30.0) -> bool:
    """True when one unit cell, rows y0 to y1, shows a mark (a '?') on its fill, its pixels
    off the fill's lightness by more than `least`."""
    rows = _cell_rows(box, y0, y1)
    if rows[1] - rows[0] < 2:
        return False
    mark = _marks(images, box, rows[0], rows[1], 0.25, 0.75, least=least)
    if _mark_like(_outline_free(mark, box, rows[1])):
        return True
    x, _, w, _ = box
    fill = float(np.median(images[0][rows[0] : rows[1], x + int(0.25 * w) : x + int(0.75 * w), 0]))
    return _bold_like(_outline_free(_off_run(images[0], box, rows[0], rows[1], fill), box, rows[1]))


FAINT_MARK = 18.0  # ΔL: what a '?' stroke one pixel thin keeps once a small picture is scaled


def _faint_cells(images, slots: list, per_tube: list, unit: float, offset: float, fill) -> list:
    """A variant of a reading (in a list, or none) with the liquid cells at tubes' bottoms
    (or on '?' cells only) that show a faint mark (`FAINT_MARK`) taken for '?' cells, when
    those cells are all one grey (and the board's '?' `fill`, if known): games draw every '?'
    alike, a grey cell with a mark, and hide a tube's lower units. A thin mark on a small
    picture, blurred when it is scaled up, falls under the contrast `_marks` asks of a mark.
    `_read_slots` takes it only when it keeps the invariant and neither the reading nor any
    rival unit's does (at half the unit, half a mark still shows in every cell)."""
    out, greys = [], []
    for (box, _), segs in zip(slots, per_tube, strict=True):
        if not segs:
            out.append(segs)
            continue
        bottom = box[1] + box[3] - offset
        new, below, on_cells = [], 0, True
        for s in segs:
            n = 0
            while on_cells and s.kind == "liquid" and n < s.units:
                y0, y1 = _cell_span(bottom, unit, below + n)
                if not _cell_marked(images, box, y0, y1, FAINT_MARK):
                    break
                greys.append((below + n, _cell_colour(images, box, y0, y1)))
                n += 1
            if n:
                cut = round(bottom - (below + n) * unit)
                new.append(_Segment(cut, s.y1, greys[-1][1], "hidden", n, s.fit, glyphs=n))
                if n < s.units:
                    new.append(_Segment(s.y0, cut, s.lab, "liquid", s.units - n, s.fit))
            else:
                new.append(s)
            on_cells = on_cells and (s.kind == "hidden" or (n == s.units and n > 0))
            below += s.units
        out.append(new)
    return [out] if greys and _one_grey(greys, fill) else []


def _one_grey(cells: list[tuple[int, np.ndarray]], fill: np.ndarray | None) -> bool:
    """True when cells (units from the tube's bottom, colour) are grey, and those above a
    tube's bottom one grey (within `SAME_FILL` of the '?' `fill`, or of their median): a
    bottom cell takes in the outline of a round bottom, lighter or darker than the fill."""
    if not all(_grey(c) for _, c in cells):
        return False
    upper = [c for k, c in cells if k > 0] or [c for _, c in cells]
    ref = np.median(np.array(upper, dtype=float), axis=0) if fill is None else fill
    return all(np.linalg.norm(c - ref) < SAME_FILL for k, c in cells if k > 0)


def _unit_height(segs: list[_Segment], height: float, least: float = 0.0) -> tuple[float, bool]:
    """(unit height, ambiguous): the largest that makes liquid a whole number of units each,
    of at least `least` rows (see `_pick_unit`)."""
    cands, cover = _length_cover(segs, height)
    best, _ = _pick_unit(cands, cover, height, least)
    return float(cands[best]), True


def _length_cover(segs: list[_Segment], height: float) -> tuple[np.ndarray, np.ndarray]:
    """(candidate unit heights, how much liquid each makes a whole number of units)."""
    lengths = np.array([s.length for s in segs], dtype=float)
    if not len(lengths):
        raise InvalidPuzzleError("no liquid found in any tube; cannot tell the unit height")
    cands = _unit_candidates(height)
    ratio = lengths[None, :] / cands[:, None]
    err = np.abs(ratio - np.maximum(1, np.round(ratio)))
    return cands, (np.clip(1 - (err / 0.25) ** 2, 0, 1) * lengths[None, :]).sum(axis=1)


class DoubtfulReadingError(InvalidPuzzleError):
    """The reading of a screenshot is doubtful or incomplete, so no verdict is given.

    `reading` holds what was read; `tubes` lists the tube numbers to check by eye.
    """

    def __init__(self, message: str, reading: Reading, tubes: list[int]):
        super().__init__(message)
        self.reading, self.tubes = reading, tubes


def solve_screenshot(path_or_array: object, *, channels: str = "rgb", **solve_args):
    """Read a screenshot and solve the board: (reading, Result), or a DoubtfulReadingError.

    A board is never called unsolvable from a doubtful reading: when `reading.ok` is False
    the error names the problems and the tubes to check; hidden ('?') units or covered tubes
    cannot be solved from the picture and say so. `solve_args` go to `watersort.solve`
    (e.g. `max_expanded=`).
    """
    from .solve import solve

    reading = read_screenshot(path_or_array, channels=channels)
    check = ", ".join(map(str, reading.doubtful)) or "all (no single tube is to blame)"
    if reading.level is None and reading.ok:
        raise DoubtfulReadingError(
            f"{reading.n_hidden} hidden unit(s) and {len(reading.covered)} covered tube(s): "
            "the board cannot be solved from this picture; play on until they show",
            reading,
            reading.covered,
        )
    if reading.level is None:
        raise DoubtfulReadingError(
            "the reading breaks the game's rules, so it is not solved: "
            + "; ".join(reading.problems)
            + f". Check tubes: {check}",
            reading,
            reading.doubtful,
        )
    result = solve(reading.level, **solve_args)
    if not reading.ok and result.verdict == "unsolvable":
        raise DoubtfulReadingError(
            "the board as read is unsolvable, but the reading is doubtful ("
            + "; ".join(reading.problems)
            + f"): check tubes {check} before believing it",
            reading,
            reading.doubtful,
        )
    return reading, result


# ---- scoring -------------------------------------------------------------------------------
def wrong_units(truth: list, got: list) -> int | None:
    """Units read wrong after the best one-to-one renaming of colours; None if shapes differ."""
    from scipy.optimize import linear_sum_assignment

    if len(truth) != len(got):
        return None
    for t, g in zip(truth, got, strict=True):
        if (t is None) != (g is None) or (t is not None and len(t) != len(g)):
            return None
    pairs = [
        (a, b)
        for t, g in zip(truth, got, strict=True)
        for a, b in zip(t or [], g or [], strict=True)
    ]
    tn = sorted({a for a, _ in pairs if a != HIDDEN})
    gn = sorted({b for _, b in pairs if b != HIDDEN})
    m = np.zeros((len(tn), len(gn)))
    for a, b in pairs:
        if a != HIDDEN and b != HIDDEN:
            m[tn.index(a), gn.index(b)] += 1
    rows, cols = linear_sum_assignment(-m)
    rename = {gn[j]: tn[i] for i, j in zip(rows, cols, strict=True)}
    return sum(
        (a == HIDDEN) != (b == HIDDEN) or (a != HIDDEN and rename.get(b) != a) for a, b in pairs
    )


def outcome(truth: list, capacity: int, layout: list[int] | None, image: object, **kw) -> dict:
    """Read `image` and say how it went: exact / flagged / silent (wrong, no doubt) / error."""
    import time

    t0 = time.process_time()
    try:
        reading = read_screenshot(image, **kw)
    except PuzzleError as exc:
        return {"outcome": "error", "cpu_s": time.process_time() - t0, "problems": str(exc)}
    cpu = time.process_time() - t0
    exact = (
        same_up_to_renaming(reading.tubes, truth)
        and reading.capacity == capacity
        and (layout is None or reading.layout == list(layout))
    )
    verdict = "exact" if exact else "flagged" if not reading.ok else "silent"
    return {"outcome": verdict, "cpu_s": cpu, "problems": "; ".join(reading.problems)}


def score_shared(folder: Path, params: ReaderParams = DEFAULT_PARAMS):
    """One row per labelled screenshot in `folder` (its labels.json): game, outcome, CPU."""
    import json

    import pandas as pd

    labels = Path(folder) / "labels.json"
    if not labels.is_file():
        raise PuzzleError(f"no labels.json in {str(folder)!r}: expected a labelled screenshot set")
    rows = []
    for rec in json.loads(labels.read_text()):
        got = outcome(
            rec["tubes"], rec["capacity"], rec["layout"], Path(folder) / rec["file"], params=params
        )
        rows.append({"file": rec["file"], "game": rec["game"][:1], **got})
    return pd.DataFrame(rows)


def leave_one_game_out(folder: Path, grid: list[ReaderParams]):
    """For each game: the parameters that read the other games best, and how they read it.

    Every screenshot is read once per grid point; for each game the grid point with the most
    exact readings on the *other* games is chosen (ties: the earlier point, so the defaults
    come first), then that game's own screenshots are scored with it.
    """
    import pandas as pd

    if not grid or not all(isinstance(p, ReaderParams) for p in grid):
        raise PuzzleError("grid must be a non-empty list of ReaderParams")
    tables = [score_shared(folder, p) for p in grid]
    games = sorted(tables[0].game.unique())
    rows = []
    for g in games:
        others = [int((t.game != g).mul(t.outcome == "exact").sum()) for t in tables]
        k = int(np.argmax(others))
        own = tables[k][tables[k].game == g]
        rows.append(
            {
                "game": g,
                "screenshots": len(own),
                "exact": int((own.outcome == "exact").sum()),
                "flagged": int((own.outcome == "flagged").sum()),
                "silent": int((own.outcome == "silent").sum()),
                "jump": grid[k].jump,
                "join": grid[k].join,
            }
        )
    return pd.DataFrame(rows)


__all__ = [
    "DEFAULT_PARAMS",
    "DoubtfulReadingError",
    "ReaderParams",
    "Reading",
    "find_tubes",
    "leave_one_game_out",
    "load_image",
    "outcome",
    "read_screenshot",
    "score_shared",
    "self_check",
    "solve_screenshot",
    "wrong_units",
]
