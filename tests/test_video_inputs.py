"""puzzlelab.video on odd input (issue 10): clear errors, a cache that verifies itself.

Recordings here are tiny (a few openings at 160x90 or 320x180) to keep the CPU cost low.
"""

from __future__ import annotations

import json
import os
import warnings

import numpy as np
import pandas as pd
import pytest

from puzzlelab.errors import InvalidPuzzleError, PuzzleError
from puzzlelab.game import make_pool
from puzzlelab.patterns import write_samples
from puzzlelab.video import (
    annotate_frame,
    cached_recording,
    extract_states,
    extract_states_writeup,
    load_pictures,
    synthesize_recording,
    tile_templates,
)

SIZE = (320, 180)


@pytest.fixture(scope="module")
def pool():
    return make_pool()


@pytest.fixture(scope="module")
def pictures():
    return load_pictures(60)


@pytest.mark.parametrize(
    "kw,word",
    [
        ({"fps": 0}, "fps"),
        ({"fps": -5}, "fps"),
        ({"fps": float("nan")}, "fps"),
        ({"noise": float("nan")}, "noise"),
        ({"noise": -1.0}, "noise"),
        ({"rng": -1}, "rng"),
        ({"rng": 1.5}, "rng"),
        ({"brightness": float("inf")}, "brightness"),
        ({"size": (320.0, 180)}, "size"),
        ({"size": "320x180"}, "size"),
        ({"codec": 1234}, "codec"),
    ],
)
def test_synthesis_arguments_name_the_culprit(tmp_path, pictures, pool, kw, word):
    """fps <= 0 used to blame the codec; NaN noise, rng -1 and float sizes gave raw errors."""
    args = {"pattern_pool": pool, "size": SIZE, **kw}
    with pytest.raises(PuzzleError, match=word):
        synthesize_recording(tmp_path / "x.mp4", pictures, 1, **args)
    assert not (tmp_path / "x.mp4").exists()


@pytest.mark.parametrize("n", [1.0, 2.5, float("nan"), -1, "3"])
def test_openings_must_be_a_whole_number(tmp_path, pictures, pool, n):
    with pytest.raises(PuzzleError, match="n_openings"):
        synthesize_recording(tmp_path / "x.mp4", pictures, n, pattern_pool=pool, size=SIZE)
    with pytest.raises(PuzzleError, match="n_openings"):
        cached_recording(n, size=SIZE)


# ---- nothing the user made is overwritten; unwritable places fail clearly -------------------


def test_an_existing_file_is_not_overwritten(tmp_path, pictures, pool):
    """synthesize_recording used to replace whatever file sat at `path` without a word."""
    target = tmp_path / "mine.mp4"
    target.write_bytes(b"my own holiday video")
    with pytest.raises(PuzzleError, match="overwrite=True"):
        synthesize_recording(target, pictures, 1, pattern_pool=pool, size=SIZE)
    assert target.read_bytes() == b"my own holiday video"
    truth = synthesize_recording(target, pictures, 1, pattern_pool=pool, size=SIZE, overwrite=True)
    assert len(truth) == 1 and target.read_bytes() != b"my own holiday video"


def test_a_folder_is_no_video_file(tmp_path, pictures, pool):
    """A folder as the output path gave IsADirectoryError."""
    folder = tmp_path / "videos"
    folder.mkdir()
    for overwrite in (False, True):
        with pytest.raises(PuzzleError, match="folder"):
            synthesize_recording(
                folder, pictures, 1, pattern_pool=pool, size=SIZE, overwrite=overwrite
            )
    assert folder.is_dir() and not any(folder.iterdir())
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with pytest.raises(PuzzleError, match="cannot write"):  # NotADirectoryError before
        synthesize_recording(blocker / "x.mp4", pictures, 1, pattern_pool=pool, size=SIZE)
    assert blocker.read_text() == "not a folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into read-only folders")
def test_a_read_only_folder_fails_clearly(tmp_path, pictures, pool):
    """A read-only folder gave PermissionError."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(PuzzleError, match="cannot write"):
            synthesize_recording(folder / "x.mp4", pictures, 1, pattern_pool=pool, size=SIZE)
        with pytest.raises(PuzzleError, match="cannot write"):
            synthesize_recording(
                folder / "sub" / "x.mp4", pictures, 1, pattern_pool=pool, size=SIZE
            )
    finally:
        folder.chmod(0o755)
    assert not any(folder.iterdir())


def test_board_larger_than_the_frame(tiny, pictures):
    """extract_states_writeup with board_side beyond the frame gave cv2.error."""
    for side in (181, 4000):
        with pytest.raises(PuzzleError, match="larger than"):
            extract_states_writeup(tiny[0], pictures, board_side=side, progress=False)


@pytest.mark.parametrize(
    "rect", [(10, 10, 1e12), (1e300, 10, 30), (-500, -500, 30), (10, 10, float("inf"))]
)
def test_annotate_refuses_rectangles_off_the_frame(rect):
    """annotate_frame with a huge rectangle gave cv2.error."""
    with pytest.raises(PuzzleError):
        annotate_frame(np.zeros((64, 96, 3), np.uint8), rect, "789456B23")


def test_pool_must_be_a_pattern_pool(tmp_path, pictures):
    with pytest.raises(PuzzleError, match="PatternPool"):
        synthesize_recording(tmp_path / "x.mp4", pictures, 1, pattern_pool=[1, 2], size=SIZE)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory, pictures, pool):
    """Two openings at 320x180."""
    path = tmp_path_factory.mktemp("tiny") / "tiny.mp4"
    truth = synthesize_recording(path, pictures, 2, pattern_pool=pool, size=SIZE, rng=4)
    return path, truth


def duplicated(pictures):
    return [pictures[0], pictures[1], pictures[0].copy()]


def flat(pictures):
    return [pictures[0], np.full((60, 60, 3), 90, np.uint8)]


def nan(pictures):
    pic = pictures[1].astype(float) / 255
    pic[5, 5, 0] = np.nan
    return [pictures[0], pic]


@pytest.mark.parametrize("make", [duplicated, flat, nan])
def test_unusable_pictures_are_refused(tiny, pictures, make):
    """These used to give 0 rows and only a warning; now the error names the pictures."""
    bad = make(pictures)
    with pytest.raises(InvalidPuzzleError, match="picture"):
        tile_templates(bad)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no 'no puzzle found' warning instead of the error
        with pytest.raises(InvalidPuzzleError, match="picture"):
            extract_states(tiny[0], bad, progress=False)


@pytest.mark.parametrize("kw", [{"accept": float("nan")}, {"margin": -1}, {"min_cut": "8"}])
def test_extraction_thresholds_are_checked(tiny, pictures, kw):
    with pytest.raises(PuzzleError):
        extract_states(tiny[0], pictures, progress=False, **kw)


def test_empty_extraction_cannot_replace_samples(tmp_path, pictures, pool):
    """Issue 10 item 14: an empty extraction then write_samples wiped a 500-row samples.csv."""
    target = tmp_path / "samples.csv"
    write_samples(pd.DataFrame({"picture": [1], "pattern": ["9B6358247"]}), target)
    before = target.read_bytes()
    video = tmp_path / "none.mp4"
    synthesize_recording(video, pictures, 0, pattern_pool=pool, size=SIZE)
    with pytest.warns(UserWarning, match="no puzzle"):
        table = extract_states(video, pictures, progress=False)
    with pytest.raises(PuzzleError, match="empty"):
        write_samples(table, target, overwrite=True)
    assert target.read_bytes() == before


# ---- the video cache (issue 10 item 15) ------------------------------------------------------


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A private cache folder for one test."""
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "video"


def small_recording():
    return cached_recording(2, size=(160, 90), rng=1, picture_size=60)


def test_cache_is_reused_when_intact(cache_dir):
    video, truth = small_recording()
    stamp = video.stat().st_mtime_ns
    again, truth2 = small_recording()
    assert again == video and again.stat().st_mtime_ns == stamp
    assert truth2["pattern"].tolist() == truth["pattern"].tolist()
    assert truth2.attrs["board"] == truth.attrs["board"]


@pytest.mark.parametrize(
    "damage",
    ["json", "truncate-video", "replace-video", "truncate-truth", "empty-truth", "null-header"],
)
def test_damaged_cache_is_rebuilt(cache_dir, damage):
    """A corrupt truth file raised JSONDecodeError forever; a truncated video was trusted."""
    video, truth = small_recording()
    (truth_file,) = cache_dir.glob("*.truth")
    if damage == "json":
        raw = truth_file.read_bytes()
        truth_file.write_bytes(raw.replace(b'"rows"', b'"rows', 1))
    elif damage == "truncate-video":
        video.write_bytes(video.read_bytes()[: video.stat().st_size // 2])
    elif damage == "replace-video":
        other = cached_recording(1, size=(160, 90), rng=2, picture_size=60)[0]
        video.write_bytes(other.read_bytes())
    elif damage == "truncate-truth":
        truth_file.write_bytes(truth_file.read_bytes()[:-7])
    elif damage == "empty-truth":
        truth_file.write_bytes(b"")
    else:
        lines = truth_file.read_bytes().split(b"\n", 2)
        truth_file.write_bytes(lines[0] + b"\nnull\n" + lines[2])
    with pytest.warns(RuntimeWarning):
        again, truth2 = small_recording()
    assert truth2["pattern"].tolist() == truth["pattern"].tolist()
    table = extract_states(again, load_pictures(60), progress=False)
    assert table["state"].tolist() == truth["pattern"].tolist()
    json.dumps(truth2.attrs["size"])  # attrs restored as plain values


def test_unknown_effect_is_refused(cache_dir):
    with pytest.raises(PuzzleError, match="unknown effects"):
        cached_recording(1, size=(160, 90), nosie=3.0)


@pytest.mark.parametrize(
    "state,rect",
    [("¹", (10, 10, 30)), (None, (10, 10, 30)), ("789456B23", (10, 10)), ("789456B23", "abc")],
)
def test_annotate_refuses_odd_boards_and_rects(state, rect):
    """Found by the fuzz suite: a '¹' state raised a raw ValueError from int()."""
    with pytest.raises(PuzzleError):
        annotate_frame(np.zeros((64, 96, 3), np.uint8), rect, state)
