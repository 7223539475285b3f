"""Fuzz the public entry points of puzzlelab.video (issue 10), with tiny recordings.

Random numbers (NaN, inf, negative, huge, float, text), random picture arrays, random files:
each call returns a sane answer or raises a `PuzzleError` within `fuzz_call`'s deadline.
Every name in `video.__all__` goes through the same contract with arguments of the wrong
type, so a new export is fuzzed without anyone remembering to. Valid arguments film at most
two openings at 48x32..96x64 pixels, so the module stays near 20 s of CPU.
"""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest
from conftest import examples, fuzz_call
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import puzzlelab.video as video_package
from puzzlelab.game import make_pool
from puzzlelab.video import (
    annotate_frame,
    extract_states,
    extract_states_writeup,
    load_pictures,
    read_frame,
    score_extraction,
    synthesize_recording,
    tile_templates,
    validate_pictures,
)

numbers = st.one_of(
    st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 30, 0.5, -1, 10**9, np.int64(2)]),
    st.text(max_size=2),
    st.none(),
)


@pytest.fixture(scope="module")
def pool():
    return make_pool(10)


@pytest.fixture(scope="module")
def pictures():
    return load_pictures(30)


@pytest.fixture(scope="module")
def video(tmp_path_factory, pictures, pool):
    """A one-opening recording at 96x64."""
    path = tmp_path_factory.mktemp("fuzzvideo") / "one.mp4"
    truth = synthesize_recording(path, pictures, 1, pattern_pool=pool, size=(96, 64))
    return path, truth


call = fuzz_call()


@examples(40)
@given(
    n=st.one_of(st.integers(0, 2), numbers),
    fps=st.one_of(st.sampled_from([10, 30.0]), numbers),
    noise=st.one_of(st.just(0.0), numbers),
    rng=st.one_of(st.just(0), numbers),
    size=st.one_of(
        st.tuples(st.integers(40, 96), st.integers(32, 64)), st.tuples(numbers, numbers)
    ),
    scale=st.one_of(st.just(1.0), numbers),
    brightness=st.one_of(st.just(0.0), numbers),
)
def test_synthesize(tmp_path_factory, pictures, pool, n, fps, noise, rng, size, scale, brightness):
    path = tmp_path_factory.mktemp("synth") / "x.mp4"
    kw = dict(fps=fps, noise=noise, rng=rng, size=size, scale=scale, brightness=brightness)
    truth = call(synthesize_recording, path, pictures, n, pattern_pool=pool, **kw)
    if truth is None:
        assert not path.exists()
    else:
        assert len(truth) == n and path.exists()


shapes = st.one_of(
    st.tuples(st.integers(8, 24), st.integers(8, 24), st.just(3)),
    hnp.array_shapes(min_dims=1, max_dims=4, max_side=12),
)
pictures_arrays = st.lists(
    st.one_of(
        hnp.arrays(np.uint8, shapes),
        hnp.arrays(np.float64, shapes, elements=st.floats(-1e3, 1e3) | st.just(np.nan)),
        hnp.arrays(np.int32, shapes, elements=st.integers(-500, 500)),
    ),
    max_size=3,
)


@examples(40)
@given(pictures_arrays)
def test_pictures(pics):
    templates = call(tile_templates, pics)
    assert templates is None or (
        templates.shape[:2] == (len(pics), 8) and np.isfinite(templates).all()
    )
    checked = call(validate_pictures, pics)
    assert checked is None or all(p.dtype == np.uint8 for p in checked)


@pytest.mark.filterwarnings("ignore:no puzzle found:UserWarning")  # an expected answer here
@examples(15)
@given(pictures_arrays)
def test_extract_with_random_pictures(video, pics):
    table = call(extract_states, video[0], pics, progress=False)
    assert table is None or "state" in table.columns


@examples(40)
@given(st.binary(max_size=300))
def test_random_files(tmp_path_factory, pictures, raw):
    path = tmp_path_factory.mktemp("raw") / "x.mp4"
    path.write_bytes(raw)
    assert call(extract_states, path, pictures, progress=False) is None
    assert call(read_frame, path, 0) is None


@pytest.mark.filterwarnings("ignore:no puzzle found:UserWarning")  # an expected answer here
@pytest.mark.filterwarnings("ignore:the write-up's method found no puzzle:UserWarning")
@examples(40)
@given(numbers, numbers, numbers)
def test_numbers_for_readers(video, pictures, index, accept, board_side):
    frame = call(read_frame, video[0], index)
    assert frame is None or frame.ndim == 3
    table = call(extract_states, video[0], pictures, progress=False, accept=accept)
    assert table is None or len(table) <= 1
    base = call(extract_states_writeup, video[0], pictures, board_side=board_side, progress=False)
    assert base is None or "state" in base.columns


@examples(40)
@given(st.lists(st.tuples(numbers, numbers, st.text(max_size=10)), max_size=4))
def test_score_and_annotate(video, rows):
    table = pd.DataFrame(rows, columns=["frame", "picture", "state"])
    accuracy = call(score_extraction, table, video[1])
    assert accuracy is None or accuracy.openings == 1
    frame = np.zeros((64, 96, 3), np.uint8)
    for _, picture, state in rows:
        out = call(annotate_frame, frame, (10, 10, 30), state, picture=picture)
        assert out is None or out.shape == frame.shape


ODD = [None, "x", -1, 1.5, float("nan"), [], {}, object(), np.zeros(3), b"\x00", (1, 2)]
EXPORTS = sorted(name for name in video_package.__all__ if callable(getattr(video_package, name)))


@pytest.mark.parametrize("name", EXPORTS)
@pytest.mark.parametrize("odd", ODD, ids=lambda v: type(v).__name__)
def test_every_export_on_wrong_types(name, odd, tmp_path, monkeypatch):
    """Each required argument of each exported function (or class) given a value of the
    wrong type: a PuzzleError or a result, never a raw exception."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    monkeypatch.chdir(tmp_path)  # nothing lands in the checkout
    fn = getattr(video_package, name)
    params = inspect.signature(fn).parameters.values()
    args, kwargs = [], {}
    for p in params:
        if p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.kind == p.KEYWORD_ONLY:
            kwargs[p.name] = odd
        else:
            args.append(odd)
    call(fn, *args, **kwargs)
    plt.close("all")
