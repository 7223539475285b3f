"""puzzlelab.video: synthetic recordings are read back exactly; bad input fails clearly."""

from __future__ import annotations

import warnings

import cv2
import numpy as np
import pandas as pd
import pytest
from conftest import examples
from hypothesis import assume, given
from hypothesis import strategies as st

from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError
from puzzlelab.game import GAME_GOAL, make_pool
from puzzlelab.patterns import read_samples, write_samples
from puzzlelab.sliding import parse_board, to_pattern
from puzzlelab.video import (
    annotate_frame,
    change_trace,
    extract_states,
    extract_states_writeup,
    load_pictures,
    read_board,
    read_frame,
    score_extraction,
    synthesize_recording,
    tile_templates,
)
from puzzlelab.video.extract import (
    GATE,
    LUMA_RANGES,
    _correlations,
    _frame_step,
    block_change,
    cell_changes,
    cell_correlations,
    frames_of,
    luma_levels,
    open_grey,
    quick_scores,
    read_cells,
    read_image,
    signature,
    signature_grid,
    thumb_size,
    thumbnail,
)
from puzzlelab.video.pictures import (
    board_cells,
    board_image,
    cell_box,
    normalize_rows,
    sampling_grid,
    tile_image,
)
from puzzlelab.video.synth import render_board
from puzzlelab.video.writeup import bin_positions

SIZE = (320, 180)
N = 4


@pytest.fixture(scope="module")
def pool():
    """The default game's shuffle pool."""
    return make_pool()


@pytest.fixture(scope="module")
def pictures():
    """The six game pictures, small."""
    return load_pictures(120)


def record(folder, pictures, pool, name="rec", n=N, seed=0, **kw):
    """A small synthetic recording and its ground truth."""
    suffix = ".avi" if kw.get("codec") == "MJPG" else ".mp4"
    path = folder / f"{name}{suffix}"
    truth = synthesize_recording(path, pictures, n, pattern_pool=pool, size=SIZE, rng=seed, **kw)
    return path, truth


@pytest.fixture(scope="module")
def plain(tmp_path_factory, pictures, pool):
    """One clean mp4v recording shared by several tests."""
    return record(tmp_path_factory.mktemp("video"), pictures, pool, n=5, seed=3)


# ---- pictures and tiles ---------------------------------------------------------------------


def test_pictures_are_six_squares(pictures):
    assert len(pictures) == 6
    assert all(p.shape == (120, 120, 3) and p.dtype == np.uint8 for p in pictures)


def test_tiles_follow_the_numeric_keypad(pictures):
    pic = pictures[0]
    assert np.array_equal(tile_image(pic, 7), pic[:40, :40])  # top-left is 7
    assert np.array_equal(tile_image(pic, 3), pic[80:, 80:])  # bottom-right is 3
    assert GAME_GOAL[6] == 0  # the blank sits bottom-left


def test_flat_images_do_not_give_nan():
    rows = normalize_rows(np.array([[5.0] * 16, np.arange(16.0)]))
    assert np.all(np.isfinite(rows))
    assert np.allclose(rows[0], 0) and np.isclose(np.linalg.norm(rows[1]), 1)
    flat = np.full((180, 320, 3), 40, np.uint8)
    r = read_board(flat, (100, 40, 90), tile_templates(load_pictures(60)))
    assert r is not None and np.isfinite(r.score) and r.score == 0.0


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((50, 50)),  # grey, not RGB
        np.zeros((50, 50, 4)),  # RGBA
        np.zeros((6, 50, 3)),  # too small to cut
    ],
)
def test_wrong_shaped_pictures(bad, plain):
    with pytest.raises(InvalidPuzzleError, match="picture 2"):
        tile_templates([np.zeros((30, 30, 3), np.uint8), bad])
    with pytest.raises(InvalidPuzzleError):
        extract_states(plain[0], [bad], progress=False)


def test_no_pictures():
    with pytest.raises(InvalidPuzzleError, match="no pictures"):
        tile_templates([])


# ---- synthesis ------------------------------------------------------------------------------


def test_synthesized_truth(plain, pool):
    path, truth = plain
    assert list(truth["opening"]) == list(range(5))
    assert set(truth["pattern"]) <= set(pool.patterns)
    assert all(to_pattern(s) == p for s, p in zip(truth["state"], truth["pattern"], strict=True))
    assert (truth["answer_frame"] < truth["frame"]).all() and (
        truth["frame"] < truth["end_frame"]
    ).all()
    cap = cv2.VideoCapture(str(path))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth.attrs["n_frames"]
    cap.release()


def test_frames_show_the_puzzle(plain, pictures):
    """The frame the truth names shows the shuffled tiles where the state says."""
    path, truth = plain
    row = truth.iloc[1]
    frame = read_frame(path, int(row["frame"]))
    x, y, side = truth.attrs["board"]
    pic = cv2.resize(pictures[row["picture"] - 1], (side, side), interpolation=cv2.INTER_AREA)
    for cell, tile in enumerate(row["state"]):
        x0, y0, x1, y1 = cell_box((x, y, side), cell, 0.2)
        shown = frame[y0:y1, x0:x1].astype(float)
        if tile == 0:
            assert shown.std() < 8  # the blank is flat
            continue
        home = GAME_GOAL.index(tile)
        sx0, sy0, sx1, sy1 = cell_box((0, 0, side), home, 0.2)
        assert np.abs(shown - pic[sy0:sy1, sx0:sx1]).mean() < 12


def test_bad_codec_is_reported(tmp_path, pictures, pool):
    with pytest.raises(PuzzleError):
        synthesize_recording(
            tmp_path / "x.mp4", pictures, 1, pattern_pool=pool, size=SIZE, codec="zz"
        )
    with pytest.raises(InvalidPuzzleError, match="does not fit"):
        synthesize_recording(tmp_path / "x.mp4", pictures, 1, pattern_pool=pool, size=SIZE, scale=3)


# ---- extraction -----------------------------------------------------------------------------


def test_exact_recovery(plain, pictures):
    path, truth = plain
    table = extract_states(path, pictures, progress=False)
    assert list(table["state"]) == list(truth["pattern"])
    assert list(table["picture"]) == list(truth["picture"])
    assert (table["frame"] - truth["frame"]).abs().max() <= 1
    assert score_extraction(table, truth).exact
    assert (table["confidence"] > 0.5).all()
    assert len(table.attrs["trace"]) == truth.attrs["n_frames"]


@pytest.mark.parametrize(
    "effects",
    [
        {"noise": 8.0},
        {"scale": 0.75},
        {"scale": 1.5},
        {"brightness": 0.2},
        {"brightness": -0.2},
        {"codec": "MJPG"},
        {"codec": "mp4v", "seed": 5},
        {"codec": "MJPG", "noise": 8.0, "scale": 0.75, "brightness": -0.2, "seed": 1},
    ],
    ids=lambda e: "-".join(f"{k}={v}" for k, v in e.items()),
)
def test_robust_recovery(tmp_path, pictures, pool, effects):
    seed = effects.pop("seed", 2)
    path, truth = record(tmp_path, pictures, pool, seed=seed, **effects)
    table = extract_states(path, pictures, progress=False)
    accuracy = score_extraction(table, truth)
    assert accuracy.exact, accuracy.summary


def test_pictures_of_any_size(plain, pictures):
    """Tiles are cut from whatever size the caller's pictures have."""
    path, truth = plain
    big = [cv2.resize(p, (301, 301)) for p in pictures]
    table = extract_states(path, big, progress=False)
    assert list(table["state"]) == list(truth["pattern"])


def test_recording_without_puzzle(tmp_path, pictures, pool):
    path, truth = record(tmp_path, pictures, pool, n=0)
    assert truth.empty
    with pytest.warns(UserWarning, match="no puzzle"):
        table = extract_states(path, pictures, progress=False)
    assert table.empty and "state" in table.columns


def test_missing_and_unreadable_files(tmp_path, pictures):
    with pytest.raises(ParseError, match="not found"):
        extract_states(tmp_path / "nothing.mp4", pictures, progress=False)
    junk = tmp_path / "junk.mp4"
    junk.write_text("not a video")
    with pytest.raises(PuzzleError):
        extract_states(junk, pictures, progress=False)
    with pytest.raises(PuzzleError):
        extract_states_writeup(junk, pictures, board_side=90, progress=False)


def test_file_without_frames(tmp_path, pictures):
    path = tmp_path / "empty.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30, SIZE)
    writer.release()
    with pytest.raises(PuzzleError):
        extract_states(path, pictures, progress=False)


# ---- the write-up's method ------------------------------------------------------------------


def test_binning_reads_the_solved_board():
    """Positions on a 120-pixel grid, tiles 2..9 at their solved cells, bin to the goal."""
    cells = {t: i for i, t in enumerate(GAME_GOAL)}
    positions = [(30 + 120 * (cells[t] % 3), 30 + 120 * (cells[t] // 3)) for t in range(2, 10)]
    assert bin_positions(positions, 60) == "789456B23"
    shuffled = parse_board("9B6358247")
    cells = {t: i for i, t in enumerate(shuffled)}
    positions = [(30 + 120 * (cells[t] % 3), 30 + 120 * (cells[t] // 3)) for t in range(2, 10)]
    assert bin_positions(positions, 60) == "9B6358247"


def test_writeup_method_runs(plain, pictures):
    path, truth = plain
    table = extract_states_writeup(
        path, pictures, board_side=truth.attrs["board"][2], progress=False
    )
    assert list(table.columns[:5]) == ["frame", "time", "picture", "state", "confidence"]
    accuracy = score_extraction(table, truth)
    assert accuracy.openings == 5 and accuracy.rows == len(table)
    assert accuracy.states_right <= accuracy.found <= 5
    trace = table.attrs["trace"]
    assert len(trace) == truth.attrs["n_frames"] and np.nanmax(trace) <= 1.0 + 1e-6


# ---- traces, annotation, samples.csv -------------------------------------------------------


def test_change_trace_marks_the_cuts(plain):
    path, truth = plain
    trace = change_trace(path)
    assert len(trace) == truth.attrs["n_frames"]
    cuts = set(trace.index[trace["change"] > 8])
    assert set(truth["answer_frame"]) <= cuts and set(truth["frame"]) <= cuts
    assert trace["similarity"].iloc[1:].between(-1, 1).all()


def test_annotate_frame(plain):
    path, truth = plain
    frame = read_frame(path, int(truth.iloc[0]["frame"]))
    out = annotate_frame(frame, truth.attrs["board"], truth.iloc[0]["pattern"], picture=1)
    assert out.shape == frame.shape and not np.array_equal(out, frame)
    assert np.array_equal(
        read_frame(path, int(truth.iloc[0]["frame"])), frame
    )  # copy, not in place


def test_samples_round_trip(tmp_path):
    table = pd.DataFrame({"picture": [1, 6], "state": ["359B26478", parse_board("8734B9265")]})
    path = write_samples(table, tmp_path / "last_origin" / "samples.csv")
    assert path.read_text().splitlines() == ["picture,pattern", "1,359B26478", "6,8734B9265"]
    back = read_samples(path)
    assert list(back["pattern"]) == ["359B26478", "8734B9265"] and list(back["picture"]) == [1, 6]


def test_samples_in_the_write_ups_quoted_form(tmp_path):
    path = tmp_path / "samples.csv"
    path.write_text('\ufeff"1","359B26478"\n"2","8734b9265"\n', encoding="utf-8")
    assert list(read_samples(path)["pattern"]) == ["359B26478", "8734B9265"]
    path.write_text('"1","359B26478"\n"x","8734B9265"\n')
    with pytest.raises(ParseError, match="line 2"):
        read_samples(path)


def test_warning_free_extraction(plain, pictures):
    """A clean recording is read exactly without a single warning (it asserted nothing)."""
    path, truth = plain
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = extract_states(path, pictures, progress=False)
    accuracy = score_extraction(table, truth)
    assert accuracy.exact and accuracy.summary == "exact", accuracy.summary
    assert len(table) == len(truth) == 5


# ---- kernels against slow references; reading drawn boards ---------------------------------


def block_change_reference(a: np.ndarray, b: np.ndarray) -> float:
    """Plain loops: the largest mean |a - b| over the 5x5 blocks of a thumbnail."""
    best = 0.0
    for by in range(a.shape[0] // 5):
        for bx in range(a.shape[1] // 5):
            total = 0
            for y in range(by * 5, by * 5 + 5):
                for x in range(bx * 5, bx * 5 + 5):
                    total += abs(int(a[y, x]) - int(b[y, x]))
            best = max(best, total / 25)
    return best


@examples(20)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(960, 540), (540, 960), (640, 480), (17, 400)]))
def test_block_change_matches_reference(seed, size):
    rng = np.random.default_rng(seed)
    a = thumbnail(rng.integers(0, 256, size[::-1], dtype=np.uint8))
    b = a.copy()
    y, x = rng.integers(0, a.shape[0] - 4), rng.integers(0, a.shape[1] - 4)
    b[y : y + 5, x : x + 10] = rng.integers(0, 256, dtype=np.uint8)
    # OpenCV rounds the block means to whole grey levels
    assert block_change(a, b) == pytest.approx(block_change_reference(a, b), abs=0.5)


@pytest.mark.parametrize(
    "size, thumb",
    [
        ((1280, 720), (80, 45)),
        ((960, 540), (80, 45)),
        ((540, 960), (45, 80)),
        ((640, 480), (70, 50)),
    ],
)
def test_thumbnail_takes_the_frame_s_shape(size, thumb):
    """Change is measured over blocks about square on screen, whichever way the phone is held
    (a fixed 80x45 thumbnail made a portrait frame's blocks three times taller than wide, and
    a board filling its width was never enclosed by a changed region)."""
    assert thumb_size(size) == thumb
    assert thumbnail(np.zeros((size[1], size[0], 3), np.uint8)).shape == thumb[::-1]
    tw, th = thumb
    assert 0.8 < (size[0] / tw) / (size[1] / th) < 1.25


@examples(20)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_frame_kernel_matches_signature_and_cell_changes(seed, grey):
    """The per-frame compiled step gives the signature and changes of the numpy/OpenCV code."""
    rng = np.random.default_rng(seed)
    frames = rng.integers(0, 256, (3, 120, 200, 3), dtype=np.uint8)
    frames[1] = np.clip(frames[0] * rng.uniform(0.8, 1.2), 0, 255)  # flicker
    frames[2, 20:60, 30:70] = 255  # a touch indicator
    side = float(rng.uniform(GATE, 110))  # smaller boards are sampled beyond their edge
    rect = (float(rng.uniform(0, 199 - side)), float(rng.uniform(0, 119 - side)), side)
    x, y, n, sub = signature_grid(rect)
    if grey:
        frames = frames[..., 1].copy()
    sigs = [signature(f, rect) for f in frames]
    plane = frames[2] if grey else frames[2][:, :, 1]
    out = np.empty_like(sigs[0])
    d, noise, since = _frame_step(plane, x, y, n, sub, 1.0, 0.0, out, sigs[1], sigs[0])
    # OpenCV rounds each block mean to a whole grey level; the kernel keeps the fraction
    assert np.abs(out - sigs[2]).max() <= 0.5 + 1e-4
    for ref_sig in sigs[:2]:  # near the flicker limit, rounding decides whether gain is taken out
        ratio = (sigs[2].mean() + 1) / (ref_sig.mean() + 1)
        assume(min(abs(ratio - 1.35), abs(1 / ratio - 1.35)) > 0.01)
    ref, ref_noise = cell_changes(sigs[2], sigs[1])
    assert d == pytest.approx(ref, abs=0.6) and noise == pytest.approx(ref_noise, abs=0.6)
    assert since == pytest.approx(cell_changes(sigs[2], sigs[0])[0], abs=0.6)


def quick_score_reference(grey, rect, templates) -> float:
    """The board search's score of one rectangle in numpy: one matrix product per board."""
    size = int(round(np.sqrt(templates.shape[2])))
    cell, trim = sampling_grid(size, 0.15)
    board = board_image(grey, rect, 3 * cell)
    if board is None:
        return -1.0
    cells = board_cells(board, size, trim)
    corr = (templates.reshape(-1, size * size) @ cells.T).reshape(len(templates), -1, 9)
    return float(corr.max(axis=2).mean(axis=1).max())


@examples(15)
@given(st.integers(0, 2**32 - 1), st.sampled_from([8, 16]))
def test_board_search_kernel_matches_numpy(seed, size):
    """The compiled scoring of many rectangles at once gives each one's numpy score (off the
    frame -1), whether the rectangle holds a board, a piece of one or nothing."""
    rng = np.random.default_rng(seed)
    pics = load_pictures(120)
    screen = rng.integers(0, 60, (180, 320), dtype=np.uint8)
    grey = cv2.cvtColor(pics[int(rng.integers(6))], cv2.COLOR_RGB2GRAY)
    screen[40:130, 100:190] = cv2.resize(grey, (90, 90), interpolation=cv2.INTER_AREA)
    screen[40:70, 130:160] = 10  # the blank
    rects = [(100.0, 40.0, 90.0)] + [
        (float(rng.uniform(-20, 300)), float(rng.uniform(-20, 160)), float(rng.uniform(5, 150)))
        for _ in range(30)
    ]
    templates = tile_templates(pics, size)
    expected = [quick_score_reference(screen, r, templates) for r in rects]
    assert quick_scores(screen, rects, templates) == pytest.approx(expected, abs=1e-5)
    assert quick_scores(screen, [], templates).shape == (0,)


@examples(15)
@given(st.integers(0, 2**32 - 1), st.sampled_from([8, 16]), st.booleans())
def test_reading_kernel_matches_numpy(seed, size, flat):
    """The compiled correlations of a board image equal numpy's (flat cells all zero), each
    tile's best cell is numpy's argmax, and both paths give the same reading."""
    rng = np.random.default_rng(seed)
    pics = load_pictures(120)
    cell, trim = sampling_grid(size, 0.15)
    grey = cv2.cvtColor(pics[int(rng.integers(6))], cv2.COLOR_RGB2GRAY)
    board = cv2.resize(grey, (3 * cell, 3 * cell), interpolation=cv2.INTER_AREA)
    board = np.clip(board + rng.normal(0, 20, board.shape), 0, 255).astype(np.uint8)
    if flat:
        board[:cell, :cell] = 10  # the blank
    templates = tile_templates(pics, size)
    expected = cell_correlations(board, trim, templates)
    corr = np.empty_like(expected)
    best = np.empty(expected.shape[:2], np.int64)
    values = np.empty(expected.shape[:2], np.float32)
    _correlations(board, trim, templates, corr, best, values)
    assert corr == pytest.approx(expected, abs=1e-5)
    assert values == pytest.approx(expected.max(axis=2), abs=1e-5)
    near_tie = np.sort(expected, axis=2)[..., -2] > expected.max(axis=2) - 1e-4
    assert ((best == expected.argmax(axis=2)) | near_tie).all()
    reading = read_image(board, trim, templates, (0, 0, 99))
    reference = read_cells(board_cells(board, size, trim), templates, (0, 0, 99))
    assert (reading.picture, reading.state) == (reference.picture, reference.state)
    assert reading.score == pytest.approx(reference.score, abs=1e-5)
    assert reading.runner_up == pytest.approx(reference.runner_up, abs=1e-5)


@examples(25)
@given(st.permutations(list(GAME_GOAL)), st.integers(1, 6))
def test_read_board_reads_any_drawn_arrangement(state, picture):
    """Any arrangement of the tiles, drawn on a dark screen, is read back exactly."""
    pics = load_pictures(120)
    side = 90
    screen = np.full((180, 320, 3), 20, np.uint8)
    bgr = cv2.cvtColor(pics[picture - 1], cv2.COLOR_RGB2BGR)
    screen[40 : 40 + side, 100 : 100 + side] = render_board(bgr, tuple(state), side)
    reading = read_board(screen, (100, 40, side), tile_templates(pics))
    assert reading.state == tuple(state) and reading.picture == picture


# ---- figures --------------------------------------------------------------------------------


def test_figures_draw_what_they_are_given(plain, pictures):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from puzzlelab.video import (
        decode_only,
        draw_change_traces,
        draw_frames,
        draw_pictures,
        draw_tracked,
    )

    path, truth = plain
    assert decode_only(path) == truth.attrs["n_frames"]
    assert decode_only(path, grey=True) == truth.attrs["n_frames"]
    axes = draw_pictures(pictures)
    assert [a.get_title() for a in axes][:2] == ["1: astronaut", "2: coffee"]
    assert len(axes[0].texts) == 9  # every cell labelled, B for the blank
    shots = draw_frames(path, {"puzzle": int(truth.iloc[0]["frame"])})
    assert shots[0].get_title() == f"frame {int(truth.iloc[0]['frame'])}: puzzle"
    ours = extract_states(path, pictures, progress=False)
    theirs = extract_states_writeup(
        path, pictures, board_side=truth.attrs["board"][2], progress=False
    )
    top, bottom = draw_change_traces(truth, ours, theirs, n_show=2)
    assert len(bottom.lines[0].get_ydata()) == int(truth.iloc[1]["end_frame"]) + 10
    ax = draw_tracked(path, ours.iloc[0])
    assert ours.iloc[0]["state"] in ax.get_title()
    plt.close("all")


@pytest.mark.parametrize("codec, suffix", [("mp4v", ".mp4"), ("MJPG", ".avi")])
def test_frames_are_read_as_grey_straight_from_the_decoder(tmp_path, codec, suffix):
    """open_grey hands out each frame's luma plane, which its levels map onto the grey of
    the BGR decoding within a few grey levels (the first frame, a flat dark one, too)."""
    rng = np.random.default_rng(0)
    frames = [np.full((120, 160, 3), 20, np.uint8)]  # a dark screen first
    frames += [rng.integers(0, 256, (120, 160, 3), dtype=np.uint8) for _ in range(3)]
    frames = [cv2.GaussianBlur(f, (9, 9), 3) for f in frames]
    path = tmp_path / f"grey{suffix}"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*codec), 30.0, (160, 120))
    for f in frames:
        out.write(f)
    out.release()
    bgr = list(frames_of(cv2.VideoCapture(str(path))))
    cap, first, levels = open_grey(path)
    planes = first + list(frames_of(cap))
    cap.release()
    assert levels in LUMA_RANGES and len(planes) == len(bgr) == 4
    for plane, frame in zip(planes, bgr, strict=True):
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
        assert plane.shape == grey.shape
        assert np.abs(levels[0] * plane + levels[1] - grey).mean() < 3.0


def test_a_plane_that_is_no_luma_is_not_taken_for_one():
    frame = np.random.default_rng(1).integers(0, 256, (40, 60, 3), dtype=np.uint8)
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert luma_levels(grey, frame) == (1.0, 0.0)
    assert luma_levels(frame[:, :, 0].copy(), frame) is None  # the blue channel
    assert luma_levels(grey[:20], frame) is None  # not the frame's shape
    assert (
        luma_levels(np.full((40, 60), 117, np.uint8), np.full((40, 60, 3), 117, np.uint8)) is None
    )
