"""Reading recordings the way phones make them: touches, flicker, notifications, letterboxing,
half resolution, JPEG-30 compression, dropped and repeated frames (`video.degrade`).

A seeded sweep over every kind at two strengths and all kinds at once: each opening is read
exactly, with no extra row and no flag. Recordings are 3 openings at 480x270 (about 15 s of
CPU for the module).
"""

from __future__ import annotations

import warnings

import cv2
import numpy as np
import pytest

from puzzlelab.errors import PuzzleError
from puzzlelab.game import GAME_GOAL, make_pool
from puzzlelab.video import (
    KINDS,
    Degradation,
    degrade_recording,
    extract_states,
    load_pictures,
    read_board,
    read_frame,
    score_extraction,
    synthesize_recording,
    tile_templates,
)
from puzzlelab.video.degrade import as_degradations, describe

SIZE = (480, 270)


@pytest.fixture(scope="module")
def pictures():
    return load_pictures(120)


@pytest.fixture(scope="module")
def clean(tmp_path_factory, pictures):
    """Three openings at 480x270 and their ground truth."""
    path = tmp_path_factory.mktemp("clean") / "clean.mp4"
    truth = synthesize_recording(path, pictures, 3, pattern_pool=make_pool(), size=SIZE, rng=5)
    return path, truth


def read(path, pictures):
    """extract_states without the progress bar, failing on any warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return extract_states(path, pictures, progress=False)


CASES = [{kind: s} for s in (0.5, 1.0) for kind in KINDS] + [dict.fromkeys(KINDS, 1.0)]


@pytest.mark.parametrize("case", CASES, ids=describe)
def test_every_opening_read_exactly(tmp_path, clean, pictures, case):
    path, truth = clean
    target = tmp_path / "degraded.mp4"
    moved = degrade_recording(path, target, truth, case, rng=7)
    table = read(target, pictures)
    accuracy = score_extraction(table, moved)
    assert accuracy.exact, accuracy.summary
    assert (table["flag"] == "").all(), table["flag"].tolist()


PORTRAIT = (540, 960)


@pytest.mark.parametrize(
    "scale, seed",
    [(0.95, 3), (0.95, 4), (0.5, 0), (0.3, 1), (0.2, 2), (0.2, 5)],
    ids=lambda v: str(v),
)
def test_portrait_recordings_read_exactly(tmp_path, pictures, scale, seed):
    """A game filmed upright at 540x960, its board filling the width (scale 0.95: seeds 3 and 4
    were 'no puzzle found' while the change thumbnail was 16:9 and its gain the frame's mean)
    or small (scale 0.2: 96 pixels; seed 2 gave a wrong row and lost the other two)."""
    path = tmp_path / "portrait.mp4"
    truth = synthesize_recording(
        path, pictures, 3, pattern_pool=make_pool(), size=PORTRAIT, rng=seed, scale=scale
    )
    table = read(path, pictures)
    assert score_extraction(table, truth).exact
    assert (table["flag"] == "").all(), table["flag"].tolist()
    found = table[["x", "y", "side"]].iloc[0].to_numpy()  # the board, to a pixel or 1 %
    board = np.asarray(truth.attrs["board"])
    assert np.abs(found - board).max() <= max(1.5, 0.01 * board[2]), found


@pytest.mark.parametrize(
    "case",
    [{"portrait": 1, "scale": 1}, {"letterbox": 1, "scale": 1}, {"portrait": 0.2, "jpeg": 1}],
    ids=describe,
)
def test_small_boards_in_portrait_frames(tmp_path, clean, pictures, case):
    """The clean 480x270 game as a phone held upright records it, then halved or compressed:
    boards of 60-115 pixels in frames of 136x240 to 270x480."""
    path, truth = clean
    target = tmp_path / "small.mp4"
    moved = degrade_recording(path, target, truth, case, rng=11)
    assert moved.attrs["size"][1] > moved.attrs["size"][0]
    table = read(target, pictures)
    assert score_extraction(table, moved).exact
    assert (table["flag"] == "").all(), table["flag"].tolist()


def test_a_puzzle_with_half_its_tiles_home_is_no_preview(tmp_path, pictures):
    """78496B523 keeps tiles 7, 8, 2 and 3 where the solved picture has them: read confidently,
    it was still taken for the preview (the median of its tiles' fit to the solved picture
    passed), so the opening was lost and the screensaver after it became a flagged row (2 of
    500 openings in the benchmark's 1280x720 recording)."""
    from puzzlelab.game import PatternPool
    from puzzlelab.sliding import parse_board

    states = (parse_board("78496B523"), parse_board("83729B546"))
    pool = PatternPool(states=states, weights=np.array([0.5, 0.5]))
    path = tmp_path / "home.mp4"
    truth = synthesize_recording(path, pictures, 4, pattern_pool=pool, size=SIZE, rng=2)
    assert "78496B523" in set(truth["pattern"])
    table = read(path, pictures)
    assert score_extraction(table, truth).exact
    assert table["state"].tolist() == truth["pattern"].tolist()


@pytest.mark.slow
def test_a_board_between_the_search_grid_s_points_is_found(tmp_path, pictures):
    """960x540 letterboxed to 960x1706: the changed region's centre fell 10 pixels from the
    board's, halfway between two grid points, where the coarse score (0.99 on the board) is
    0.70; the region was given up and the recording gave 'no puzzle found'."""
    path, target = tmp_path / "wide.mp4", tmp_path / "tall.mp4"
    truth = synthesize_recording(
        path, pictures, 10, pattern_pool=make_pool(), size=(960, 540), rng=7
    )
    moved = degrade_recording(path, target, truth, {"letterbox": 1.0}, rng=0)
    assert score_extraction(read(target, pictures), moved).exact


def unsaid(table, truth, caught) -> list[str]:
    """What a reading got wrong without saying so: wrong or extra rows without a flag, and
    openings with neither a right row nor a flagged one when no warning was given."""
    problems, said = [], set()
    for i, row in table.iterrows():
        hit = truth[(truth["answer_frame"] <= row["frame"]) & (row["frame"] <= truth["end_frame"])]
        ok = (
            len(hit) == 1
            and hit.index[0] not in said
            and (row["picture"], row["state"]) == tuple(hit[["picture", "pattern"]].iloc[0])
        )
        if ok or row["flag"] != "":
            said.update(hit.index)
        else:
            problems.append(f"row {i} ({row['state']} at frame {row['frame']}) wrong, unflagged")
    missed = len(truth) - len(said)
    if missed and not caught:
        problems.append(f"{missed} opening(s) without a row, and no warning")
    return problems


def test_a_board_is_taken_only_where_every_tile_reads(tmp_path, clean, pictures):
    """Every kind at strength 1, seed 14: a touch indicator over the dark rocket picture once
    read as a small board beside the real one; the reader locked onto it and lost two of the
    three openings without a word. A board now counts as found only where every tile reads
    clearly, and whatever is not read is said (a flag or a warning)."""
    path, truth = clean
    target = tmp_path / "seed14.mp4"
    moved = degrade_recording(path, target, truth, dict.fromkeys(KINDS, 1.0), rng=14)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = extract_states(target, pictures, progress=False)
    assert unsaid(table, moved, caught) == []


def test_truth_follows_frames_and_pixels(tmp_path, clean, pictures):
    """Dropped/repeated frames renumber the truth; letterbox and scale move the board."""
    path, truth = clean
    target = tmp_path / "moved.mp4"
    moved = degrade_recording(path, target, truth, {"frames": 1, "letterbox": 1, "scale": 1}, rng=2)
    cap = cv2.VideoCapture(str(target))
    size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    cap.release()
    assert size == moved.attrs["size"] and size[1] > size[0]  # portrait 9:16, halved
    upright = degrade_recording(path, tmp_path / "up.mp4", truth, {"portrait": 1}, rng=2)
    assert (
        upright.attrs["size"] == SIZE[::-1] and upright.attrs["board"][2] > truth.attrs["board"][2]
    )
    frame = cv2.cvtColor(
        read_frame(tmp_path / "up.mp4", int(upright["frame"][1]) + 1), cv2.COLOR_RGB2BGR
    )
    reading = read_board(frame, upright.attrs["board"], tile_templates(pictures))
    assert (reading.picture, reading.state) == tuple(upright[["picture", "state"]].iloc[1])
    assert moved.attrs["n_frames"] != truth.attrs["n_frames"]
    assert (moved["answer_frame"] < moved["frame"]).all()
    assert (moved["frame"] <= moved["end_frame"]).all()
    first = read_frame(target, int(moved.iloc[0]["answer_frame"]))
    bgr = cv2.cvtColor(first, cv2.COLOR_RGB2BGR)
    reading = read_board(bgr, moved.attrs["board"], tile_templates(pictures))
    assert reading.state == GAME_GOAL and reading.picture == moved.iloc[0]["picture"]


def test_degradation_is_seeded(tmp_path, clean):
    path, truth = clean
    a = degrade_recording(path, tmp_path / "a.mp4", truth, ["touch", "frames"], rng=3)
    b = degrade_recording(path, tmp_path / "b.mp4", truth, ["touch", "frames"], rng=3)
    c = degrade_recording(path, tmp_path / "c.mp4", truth, ["touch", "frames"], rng=4)
    assert a.equals(b) and a.attrs["n_frames"] == b.attrs["n_frames"]
    k = int(a.iloc[1]["frame"]) + 1
    assert np.array_equal(read_frame(tmp_path / "a.mp4", k), read_frame(tmp_path / "b.mp4", k))
    assert not a.equals(c)


def test_degrade_refuses_odd_requests(tmp_path, clean):
    path, truth = clean
    for bad in ["blur", {"touch": 0}, {"touch": 1.5}, ["touch", "touch"], 3, None, [object()]]:
        with pytest.raises(PuzzleError):
            as_degradations(bad)
    with pytest.raises(PuzzleError, match="exists"):
        degrade_recording(path, path, truth, "touch")
    with pytest.raises(PuzzleError, match="truth"):
        degrade_recording(path, tmp_path / "x.mp4", truth.copy().drop(columns="frame"), "touch")
    assert str(Degradation("jpeg", 0.5)) == "jpeg 0.5" and describe([]) == "clean"


def cover_cells(source, target, truth, opening: int, cells=(0, 4), since="frame") -> None:
    """Copy a recording, painting board cells flat grey while one opening's puzzle shows (from
    its preview on, with since='answer_frame')."""
    x, y, side = truth.attrs["board"]
    c = side // 3
    row = truth.iloc[opening]

    def paint(frame: np.ndarray, k: int) -> np.ndarray:
        if row[since] <= k <= row["end_frame"]:
            for cell in cells:
                r, q = divmod(cell, 3)
                frame[y + r * c : y + (r + 1) * c, x + q * c : x + (q + 1) * c] = 128
        return frame

    _rewrite(source, target, paint)


def _rewrite(source, target, paint) -> None:
    """Copy a recording frame by frame as mp4v, each frame passed through paint(frame, k)."""
    cap = cv2.VideoCapture(str(source))
    out = cv2.VideoWriter(str(target), cv2.VideoWriter_fourcc(*"mp4v"), 30.0, SIZE)
    k = 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        out.write(paint(frame, k))
        k += 1
    cap.release()
    out.release()


def touch_puzzles(source, target, truth, at, radius, colour, alpha, frames=3) -> None:
    """Copy a recording, a touch indicator (a disc at `at`, in fractions of the board, of
    `radius` x its side) over each puzzle for the first `frames` frames it shows."""
    x, y, side = truth.attrs["board"]
    centre = (int(round(x + at[0] * side)), int(round(y + at[1] * side)))
    starts = truth["frame"].tolist()

    def paint(frame: np.ndarray, k: int) -> np.ndarray:
        if any(s <= k < s + frames for s in starts):
            over = cv2.circle(frame.copy(), centre, int(round(radius * side)), colour, -1)
            frame = cv2.addWeighted(over, alpha, frame, 1 - alpha, 0)
        return frame

    _rewrite(source, target, paint)


@pytest.mark.parametrize(
    "at, radius, colour, alpha",
    [
        ((1 / 2, 1 / 6), 0.05, (40, 40, 40), 0.8),
        ((5 / 6, 1 / 6), 0.05, (255, 255, 255), 0.6),
        ((1 / 2, 1 / 2), 0.07, (40, 40, 40), 0.6),
    ],
    ids=["dark-top", "white-corner", "dark-centre"],
)
def test_a_touch_on_the_first_frames_of_a_puzzle_is_read_past(
    tmp_path, clean, pictures, at, radius, colour, alpha
):
    """A small touch over a tile on the first three frames of each puzzle, the rest of the
    puzzle's time clear. Leaving, it changes the board by less than a cut, so the frame read
    first (touched: its weakest tile at 0.39-0.58) used to stand for the whole puzzle and the
    third opening was flagged (in notebook 03, a touch 1 opening was read with two tiles
    swapped); the clear frames after it must be read instead."""
    path, truth = clean
    target = tmp_path / "touched.mp4"
    touch_puzzles(path, target, truth, at, radius, colour, alpha)
    table = read(target, pictures)
    accuracy = score_extraction(table, truth)
    assert accuracy.exact, accuracy.summary
    assert (table["flag"] == "").all(), table["flag"].tolist()


def test_a_hidden_tile_is_flagged_not_invented(tmp_path, clean, pictures):
    """Two tiles covered for the whole puzzle: their cells cannot be known, so the row says so."""
    path, truth = clean
    target = tmp_path / "covered.mp4"
    cover_cells(path, target, truth, opening=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = extract_states(target, pictures, progress=False)
    confident = table[table["flag"] == ""]
    assert len(table) <= 3 and len(confident) == 2
    assert set(confident["state"]) == set(truth["pattern"].iloc[[0, 2]])
    flagged = table[table["flag"] != ""]
    assert flagged["flag"].isin(["hidden", "doubtful"]).all()


def test_an_opening_read_not_at_all_is_said(tmp_path, clean, pictures):
    """Six of nine cells covered from the preview to the end of the puzzle: neither can be
    read, so there is no row to flag; the opening used to vanish without a word."""
    path, truth = clean
    target = tmp_path / "unread.mp4"
    cover_cells(path, target, truth, opening=1, cells=range(6), since="answer_frame")
    with pytest.warns(UserWarning, match=r"1 opening\(s\) .* could not be read at all"):
        table = extract_states(target, pictures, progress=False)
    assert table["state"].tolist() == truth["pattern"].iloc[[0, 2]].tolist()
    assert (table["flag"] == "").all()
    [(first, last)] = table.attrs["unseen"]
    row = truth.iloc[1]
    assert row["answer_frame"] <= first <= last <= row["end_frame"] + 1


def test_robustness_table_and_figures(tmp_path, clean, pictures):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from puzzlelab.video import draw_reader_view, draw_robustness, robustness

    path, truth = clean
    cases = [{}, {"touch": 1.0, "scale": 1.0}]
    table = robustness(path, truth, pictures, cases, folder=tmp_path, rng=1)
    assert table["degradation"].tolist() == ["clean", "touch 1 + scale 1"]
    assert (table["summary"] == "exact").all() and (table["flagged"] == 0).all()
    assert (table["speed"] > 0).all() and (table["cpu speed"] > 0).all()
    assert (table["cpu speed vs grey"] > 0).all()
    left, _ = draw_robustness(table)
    assert [t.get_text() for t in left.get_yticklabels()] == table["degradation"].tolist()
    degraded = tmp_path / "degraded_1.mp4"
    moved = degrade_recording(path, degraded, truth, cases[1], rng=1, overwrite=True)
    row = read(degraded, pictures).iloc[0]
    index = (int(truth["frame"][0]) + 2, int(moved["frame"][0]) + 2)
    _, right = draw_reader_view(path, degraded, index, row)
    assert row["state"] in right.get_title() and "confident" in right.get_title()
    plt.close("all")
