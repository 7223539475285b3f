"""Fuzz read_screenshot: random arrays, dtypes, shapes, values and files give a reading or a
PuzzleError, never another exception."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from puzzlelab.errors import PuzzleError
from puzzlelab.watersort import Reading, read_screenshot

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _outcome(value: object) -> None:
    """A Reading or a PuzzleError; anything else fails the test."""
    try:
        assert isinstance(read_screenshot(value), Reading)
    except PuzzleError:
        pass


@FAST
@given(
    shape=st.lists(st.integers(0, 70), min_size=0, max_size=4),
    dtype=st.sampled_from(["uint8", "float64", "float32", "int64", "bool", "uint16"]),
    fill=st.sampled_from([0.0, 1.0, 0.5, np.nan, np.inf, -1.0, 300.0]),
    seed=st.integers(0, 2**16),
)
@example(shape=[58, 58], dtype="uint8", fill=0.0, seed=276)  # rows grown and cut for ever
def test_random_arrays(shape, dtype, fill, seed):
    """Odd shapes, dtypes, NaN/inf and out-of-range values (seed 276's noise once had a row
    grown to the others' height and cut back to its liquid's floor by turns, until Python's
    recursion limit)."""
    rng = np.random.default_rng(seed)
    a = np.full(shape, fill) if rng.random() < 0.5 else rng.random(shape) * 255
    try:
        with np.errstate(invalid="ignore"):  # NaN/inf cast to integers on purpose: odd input
            a = a.astype(dtype)
    except (ValueError, OverflowError):
        return
    _outcome(a)


@FAST
@given(data=st.binary(max_size=400), suffix=st.sampled_from([".png", ".jpg", ".txt", ""]))
def test_random_files(tmp_path_factory, data, suffix):
    """Random bytes under image names: PuzzleError."""
    path = tmp_path_factory.mktemp("fz") / f"f{suffix}"
    path.write_bytes(data)
    _outcome(path)


@FAST
@given(
    value=st.one_of(
        st.none(),
        st.integers(),
        st.floats(),
        st.text(max_size=20),
        st.lists(st.integers(), max_size=5),
    )
)
def test_non_images(value):
    """Numbers, text, lists, None: PuzzleError."""
    _outcome(value)


@FAST
@given(
    tubes=st.one_of(
        st.none(),
        st.integers(),
        st.lists(st.one_of(st.none(), st.lists(st.sampled_from(["r", "g", "?", 3]), max_size=5))),
    ),
    capacity=st.one_of(st.integers(-3, 8), st.floats(), st.none(), st.booleans()),
)
def test_self_check_odd_input(tubes, capacity):
    """self_check: a list of problems or a PuzzleError, for any tubes and capacity."""
    from puzzlelab.watersort.screenshot import self_check

    try:
        assert isinstance(self_check(tubes, capacity), list)
    except PuzzleError:
        pass


@FAST
@given(value=st.one_of(st.none(), st.integers(-5, 10), st.floats(), st.text(max_size=3)))
def test_synth_board_odd_capacity(value):
    """synth_board(capacity=...): a board or a PuzzleError."""
    from puzzlelab.watersort.synth import synth_board

    try:
        board = synth_board(0, capacity=value)
        assert board.capacity in range(2, 7)
    except PuzzleError:
        pass
