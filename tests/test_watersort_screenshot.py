"""Reading water-sort boards from screenshots: the shared real set, scored up to colour renaming."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from puzzlelab.errors import PuzzleError
from puzzlelab.paths import shared_dir
from puzzlelab.watersort import Level, read_screenshot
from puzzlelab.watersort.colors import _refill_short, cluster_colors, rgb_to_lab
from puzzlelab.watersort.screenshot import ReaderParams, leave_one_game_out, wrong_units

SHOTS = shared_dir("corpora", "watersort", "screenshots")
needs_shots = pytest.mark.skipif(
    SHOTS is None, reason="needs ../shared/corpora/watersort/screenshots (set PUZZLELAB_SHARED)"
)
# Boards the reader does not get exactly (none since the '?' marks are counted; keep the hook
# so a regression in one style shows as an xfail list in review, not silently).
KNOWN_MISSES: set[str] = set()


def test_scoring_is_up_to_renaming():
    """The scorer forgives a renaming but not a swap of two units."""
    truth = [["r", "g"], ["g", "r"], [], None]
    assert wrong_units(truth, [["x", "y"], ["y", "x"], [], None]) == 0
    assert wrong_units(truth, [["x", "x"], ["y", "y"], [], None]) == 2
    assert wrong_units(truth, [["x", "y"], ["y", "x"], []]) is None


def labels() -> list[dict]:
    """The shared set's records (empty without ../shared)."""
    return json.loads((SHOTS / "labels.json").read_text()) if SHOTS else []


@needs_shots
@pytest.mark.parametrize("record", labels(), ids=lambda r: r["file"][:2])
def test_shared_screenshot_read_exactly(record):
    """Every tube, unit, '?' and covered tube as labelled, up to renaming of colours."""
    if record["file"][:2] in KNOWN_MISSES:
        pytest.xfail("known miss, see KNOWN_MISSES")
    reading = read_screenshot(SHOTS / record["file"])
    assert reading.layout == record["layout"]
    assert wrong_units(record["tubes"], reading.tubes) == 0
    assert reading.capacities == [record["capacity"]] * len(record["tubes"])
    if not record["hidden_segments"]:
        assert isinstance(reading.level, Level) and not reading.problems
    else:
        assert reading.level is None


@pytest.mark.slow  # make test runs it (test-fast stays under 3 minutes)
@needs_shots
def test_shared_set_accuracy_floor():
    """All 40 boards exact (the measured figure when this was written)."""
    exact = sum(
        wrong_units(r["tubes"], read_screenshot(SHOTS / r["file"]).tubes) == 0 for r in labels()
    )
    assert exact == 40


@needs_shots
@pytest.mark.slow
def test_leave_one_game_out():
    """Each game read with thresholds chosen on the other games only: every board exact.

    (The grid holds the defaults and two other settings; 3 x 40 readings, about a minute.)
    """
    grid = [ReaderParams(), ReaderParams(12.0, 10.0), ReaderParams(7.0, 14.0)]
    table = leave_one_game_out(SHOTS, grid)
    assert table.screenshots.sum() == len(labels())
    assert (table.exact == table.screenshots).all(), table


@needs_shots
def test_bgr_array_matches_file():
    """A BGR array (OpenCV order) reads like the file."""
    import cv2

    path = SHOTS / labels()[0]["file"]
    a = read_screenshot(path)
    b = read_screenshot(cv2.imread(str(path)), channels="bgr")
    assert a.tubes == b.tubes


def test_close_shades_stay_apart_and_noise_does_not_split():
    """Green, dark green and olive stay three colours; JPEG-like noise keeps one colour one."""
    rng = np.random.default_rng(0)
    base = rgb_to_lab(np.array([[80, 200, 90], [30, 100, 50], [130, 140, 40]], dtype=np.uint8))
    samples = np.repeat(base, 4, axis=0) + rng.normal(0, 1.5, (12, 3))
    labels_, margins = cluster_colors(samples, n_clusters=3, size=4)
    assert len(set(labels_)) == 3
    assert all(len(set(labels_[k * 4 : k * 4 + 4])) == 1 for k in range(3))
    assert margins.min() > 0.5


def test_a_unit_shifted_off_its_colour_is_joined_back_on_a_full_board():
    """On a fully visible board (3 colours of 4 units), a unit whose colour a round bottom
    shifted far from its own is joined back to the one colour seen too rarely to hold it
    (cutting the tree at three colours would join the two greens instead); with no count to
    keep (board partly hidden), it stays a colour of its own."""
    base = np.array([[85.0, -20, 70], [60, -50, 40], [45, -40, 30]])  # two close greens
    samples = np.repeat(base, 4, axis=0)
    samples[3] = [86.0, -40, 20]  # a yellow mixed with a light outline: 54 ΔE off
    labels_, _ = cluster_colors(samples, n_clusters=3, size=4)
    assert [len(set(labels_[k * 4 : k * 4 + 4])) for k in range(3)] == [1, 1, 1]
    assert len(set(cluster_colors(samples)[0])) == 4


def test_units_shifted_in_two_tubes_go_back_to_their_own_colours_on_a_full_board():
    """Two colours each lose one unit to a shade between them (seed 15128: round bottoms on
    a small JPEG); the two shifted units join each other, not their colours, so joining
    short colours whole cannot balance the board. Dealing the short colours' units out
    afresh to the two colours seen three times puts each back where it is nearest."""
    base = np.array([[70.0, -30, -20], [55, 0, -45], [60, 60, 40]])  # cyan, blue, red
    samples = np.repeat(base, 4, axis=0)
    samples[3] = [65.0, -20, -30]  # a cyan shifted towards blue
    samples[7] = [62.0, -12, -34]  # a blue shifted towards cyan
    labels_, _ = cluster_colors(samples, n_clusters=3, size=4)
    assert [len(set(labels_[k * 4 : k * 4 + 4])) for k in range(3)] == [1, 1, 1]
    assert len(set(labels_)) == 3
    split = cluster_colors(samples)[0]  # the join alone: the two shifted units together
    assert len(set(split)) == 4
    dealt = _refill_short(samples, split, 4, 30.0)
    assert [len(set(dealt[k * 4 : k * 4 + 4])) for k in range(3)] == [1, 1, 1]
    assert len(set(dealt)) == 3
    assert (_refill_short(samples, split, 4, 10.0) == split).all()  # beyond reach: kept


@pytest.mark.parametrize(
    "bad",
    [np.zeros((10, 10, 3), np.uint8), np.full((200, 100, 3), np.nan), np.zeros((5,)), "x.png"],
)
def test_bad_input_is_a_puzzle_error(bad):
    """Tiny, NaN, 1-D arrays and missing files: PuzzleError naming the problem."""
    with pytest.raises(PuzzleError):
        read_screenshot(bad)


def test_blank_image_has_no_tubes():
    """A plain image: 'no tubes found'."""
    with pytest.raises(PuzzleError, match="no tubes"):
        read_screenshot(np.full((400, 200, 3), 128, np.uint8))


def test_truncated_file(tmp_path):
    """A PNG cut in half is refused as damaged, not read as half a board."""
    import cv2

    img = np.zeros((300, 200, 3), np.uint8)
    cv2.rectangle(img, (20, 50), (60, 250), (255, 255, 255), 2)
    ok, data = cv2.imencode(".png", img)
    path = tmp_path / "cut.png"
    path.write_bytes(data.tobytes()[: len(data) // 2])
    with pytest.raises(PuzzleError, match="damaged|truncated|not an image"):
        read_screenshot(path)


# ---- the lab's own boards, degraded at random ----------------------------------------------
def _render(level: Level, dpi: int) -> np.ndarray:
    """RGB array of `render.draw_board(level)` at `dpi`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from puzzlelab.watersort.plots import draw_board, figure_size

    fig, ax = plt.subplots(figsize=figure_size(level), dpi=dpi)
    draw_board(level, ax)
    fig.canvas.draw()
    rgb = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].copy()
    plt.close(fig)
    return rgb


def _degrade(rgb: np.ndarray, scale: float, blur: float, noise: float, quality: int, seed: int):
    """Rescale, blur, add Gaussian noise and re-encode as JPEG."""
    import cv2

    rng = np.random.default_rng(seed)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    img = cv2.resize(rgb.astype(float), None, fx=scale, fy=scale, interpolation=interp)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img = np.clip(img + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)[:, :, ::-1].copy()


def _pattern(tubes) -> list[tuple[int, ...]]:
    """Tubes with colours numbered by first appearance (equal up to renaming)."""
    seen: dict = {}
    return [tuple(seen.setdefault(u, len(seen)) for u in t) for t in tubes]


@pytest.mark.slow  # make test runs it; test-fast keeps the per-picture checks
@settings(max_examples=20, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@example(n_colors=2, seed=1428, dpi=144, scale=1.19, blur=0.54, noise=1.55, quality=71)
@given(
    n_colors=st.integers(2, 9),
    seed=st.integers(0, 10_000),
    dpi=st.integers(80, 150),
    scale=st.floats(0.7, 1.6),
    blur=st.floats(0.0, 1.0),
    noise=st.floats(0.0, 5.0),
    quality=st.integers(40, 95),
)
def test_lab_boards_read_exactly_after_degradation(
    n_colors, seed, dpi, scale, blur, noise, quality
):
    """A board drawn by watersort.plots, rescaled, blurred, noisy and JPEG'd, reads exactly;
    a deal where no two colours meet in any tube (a few colours can come out sorted) shows
    no unit height, and the reading says its capacity is a guess."""
    from puzzlelab.watersort.generate import random_deal

    level = random_deal(n_colors, 2, 4, rng=seed)
    drawn = _render(level, dpi)
    scale = max(scale, 320 / drawn.shape[0])  # below ~300 px tall small boards can fail
    image = _degrade(drawn, scale, blur, noise, quality, seed)
    reading = read_screenshot(image)
    if all(len(set(t)) <= 1 for t in level.tubes):
        assert not reading.ok and any("is a guess" in p for p in reading.problems)
        return
    assert reading.level is not None, reading.problems
    assert _pattern(reading.level.tubes) == _pattern(level.tubes)
    assert reading.capacities == [4] * level.n_tubes
