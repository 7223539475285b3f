"""puzzlelab.batch: rows in case order, errors kept, seeds from the case, resume, Dask clusters.

The cluster tests share one 2-worker LocalCluster (module fixture) and compare every table with
the serial run exactly; one of them kills a worker in the middle of a run.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import threading

import cloudpickle
import numpy as np
import pandas as pd
import pytest
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from puzzlelab import batch
from puzzlelab.batch import case_rng, case_seed, grid, run_batch
from puzzlelab.errors import PuzzleError
from puzzlelab.stats import proportion_ci, share_interval, tally

# Workers import this module by name (spawned processes inherit sys.path); cloudpickle
# sends its functions by value where that is not possible (e.g. a remote cluster).
cloudpickle.register_pickle_by_value(sys.modules[__name__])

CALLS: list[int] = []  # cases computed in this process (the resume tests count them)
STOP_AT: list[tuple] = []  # raise KeyboardInterrupt at this (k, i) case (simulates Ctrl-C)


def square(case: dict) -> dict:
    """A small row function: a square, a parity flag, a seeded draw and a failing case."""
    CALLS.append(case["i"])
    if STOP_AT and (case["k"], case["i"]) == STOP_AT[0]:
        raise KeyboardInterrupt
    if case["i"] == 4:
        raise ValueError(f"case {case['i']} is unlucky")
    return {
        "square": case["i"] ** 2,
        "even": case["i"] % 2 == 0,
        "draw": float(case_rng(case).random()),
        "maybe": None if case["i"] % 3 else case["i"],
    }


@pytest.fixture(autouse=True)
def _reset():
    """Empty the call log and the interrupt point before every test."""
    CALLS.clear()
    STOP_AT.clear()


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    """cache/ redirected to a temporary folder."""
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


CASES = grid(k=["a", "b"], i=range(6))


# ------------------------------------------------------------------------------ in-process


def test_rows_in_case_order_with_case_and_result_columns():
    table = run_batch(square, CASES, progress=False, chunk_size=5)
    assert list(table.columns) == ["k", "i", "square", "even", "draw", "maybe", "error"]
    assert table["k"].tolist() == ["a"] * 6 + ["b"] * 6
    assert table["i"].tolist() == list(range(6)) * 2
    good = table[table["i"] != 4]
    assert good["square"].tolist() == [i * i for i in good["i"]]
    assert good["even"].tolist() == [i % 2 == 0 for i in good["i"]]
    assert str(table["square"].dtype) == "Int64" and str(table["even"].dtype) == "boolean"
    assert table.attrs["chunks"] == 3 and table.attrs["failed"] == 2


def test_a_failed_case_is_reported_in_its_row():
    table = run_batch(square, CASES, progress=False)
    bad = table[table["error"].notna()]
    assert bad["i"].tolist() == [4, 4]
    assert bad["error"].tolist() == ["ValueError: case 4 is unlucky"] * 2
    assert bad["square"].isna().all() and table["error"].isna().sum() == 10


def test_bad_results_become_row_errors():
    def not_a_dict(case):
        return [case["i"]]

    def clash(case):
        return {"i": 1}

    def array_value(case):
        return {"x": np.arange(3)}

    cases = [{"k": "a", "i": 1}]
    assert "expected a dict" in run_batch(not_a_dict, cases, progress=False)["error"][0]
    assert "'i'" in run_batch(clash, cases, progress=False)["error"][0]
    assert "scalars only" in run_batch(array_value, cases, progress=False)["error"][0]
    huge = run_batch(lambda case: {"x": 2**64}, cases, progress=False)["error"][0]
    assert "beyond 64-bit" in huge


def test_the_table_does_not_depend_on_the_chunking():
    tables = [run_batch(square, CASES, progress=False, chunk_size=s) for s in (1, 4, 100)]
    pd.testing.assert_frame_equal(tables[0], tables[1])
    pd.testing.assert_frame_equal(tables[0], tables[2])


def test_case_seed_is_the_documented_hash_of_the_case():
    case = {"b": 2, "a": np.int64(1), "p": 0.5}
    digest = hashlib.sha256(b'{"a":1,"b":2,"p":0.5}').digest()
    assert case_seed(case).entropy == int.from_bytes(digest[:16], "little")
    same = case_rng({"p": 0.5, "a": 1, "b": 2}).random(3)
    assert np.array_equal(case_rng(case).random(3), same)
    assert not np.array_equal(case_rng({**case, "b": 3}).random(3), same)


def test_empty_case_list_gives_an_empty_table():
    table = run_batch(square, [], progress=False)
    assert len(table) == 0 and "error" in table.columns


@pytest.mark.parametrize("size", [0, -1, 1.5, 2.0, "3", True])
def test_bad_chunk_size_is_refused(size):
    with pytest.raises(PuzzleError, match="chunk_size"):
        run_batch(square, CASES, chunk_size=size, progress=False)


@pytest.mark.parametrize("cluster", ["locale", "http://host:8786", "", "tcp://", 3, object()])
def test_bad_cluster_is_refused(cluster):
    with pytest.raises(PuzzleError, match="cluster"):
        run_batch(square, CASES, cluster=cluster, progress=False)


@pytest.mark.parametrize(
    "cluster",
    [
        "tcp://host:notaport",
        "tcp://host:99999",
        "tcp://host:0",
        "tcp://[::1",
        "tcp://host:8786/extra",
        "ucx://",
        "ucx://host:1234",
        "inproc://x",
        "tcp://ho st:8786",
    ],
)
def test_malformed_scheduler_addresses_are_refused_before_connecting(cluster, monkeypatch):
    monkeypatch.setattr(batch, "_client", lambda c: pytest.fail(f"tried to connect to {c}"))
    with pytest.raises(PuzzleError, match="cluster"):
        run_batch(square, CASES, cluster=cluster, progress=False)


def test_unreachable_scheduler_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(PuzzleError, match="cannot reach the Dask scheduler"):
        run_batch(square, CASES, cluster="tcp://127.0.0.1:9", progress=False)


class _Locked:
    """A callable that cannot be pickled (it holds a lock)."""

    def __init__(self):
        self.lock = threading.Lock()

    def __call__(self, case):
        return {}


@pytest.mark.parametrize(
    "fn, cases, match",
    [
        (_Locked(), CASES, "cannot be pickled"),
        ("square", CASES, "fn must be a function"),
        (square, {"i": 1}, "list of dicts"),
        (square, [{"i": 1}, 2], "case 1"),
        (square, [{"i": 1}, {"j": 1}], "case 1 has columns"),
        (square, [{"i": [1, 2]}], "scalars only"),
        (square, [{"error": 1}], "reserved"),
        (square, [{1: 1}], "column name"),
        (square, [{"i": 2**63}], "64-bit"),
    ],
)
def test_bad_arguments_are_refused(fn, cases, match):
    with pytest.raises(PuzzleError, match=match):
        run_batch(fn, cases, progress=False)


def test_cases_may_be_a_dataframe():
    frame = pd.DataFrame(CASES)
    table = run_batch(square, frame, progress=False)
    pd.testing.assert_frame_equal(table, run_batch(square, CASES, progress=False))


@pytest.mark.parametrize("method", ["wilson", "clopper-pearson"])
def test_proportion_ci_matches_scipy(method):
    name = {"wilson": "wilson", "clopper-pearson": "exact"}[method]
    for k, n in [(0, 10), (3, 10), (10, 10), (1, 1), (57, 200), (9990, 10000)]:
        want = stats.binomtest(k, n).proportion_ci(0.9, method=name)
        lo, hi = proportion_ci(k, n, 0.9, method)
        assert lo == pytest.approx(want.low, abs=1e-12) and hi == pytest.approx(want.high)


def test_proportion_ci_edges_and_bad_input():
    lo, hi = proportion_ci([0, 2], [0, 4])
    assert (lo[0], hi[0]) == (0.0, 1.0) and 0 < lo[1] < 0.5 < hi[1] < 1
    with pytest.raises(PuzzleError):
        proportion_ci(5, 4)
    with pytest.raises(PuzzleError):
        proportion_ci(1, 4, method="wald")
    with pytest.raises(PuzzleError):
        proportion_ci(1, 4, confidence=1.5)


def test_share_interval_widens_the_upper_end_by_the_undecided():
    share, lo, hi = share_interval(3, 10, 0.9, "clopper-pearson", undecided=2)
    low = stats.binomtest(3, 10).proportion_ci(0.9, method="exact").low
    high = stats.binomtest(5, 10).proportion_ci(0.9, method="exact").high
    assert share == 0.3 and lo == pytest.approx(low) and hi == pytest.approx(high)


def test_tally_counts_per_group_and_sets_errors_apart():
    table = pd.DataFrame(
        {
            "k": [1, 1, 1, 2, 2],
            "verdict": ["a", "b", "a", "a", "b"],
            "error": [None, None, "boom", None, None],
        }
    )
    out = tally(table, ["k"], "n", {"a": ("verdict", lambda v: v == "a")})
    assert list(out.columns) == ["n", "a", "errors"]
    assert out.loc[1].tolist() == [2, 1, 1] and out.loc[2].tolist() == [2, 1, 0]


def test_tally_keeps_a_group_whose_every_case_failed():
    table = pd.DataFrame(
        {"k": [1, 1, 2], "verdict": ["a", "b", "a"], "error": ["boom", "bang", None]}
    )
    out = tally(table, ["k"], "n", {"a": ("verdict", lambda v: v == "a")})
    assert out.loc[1].tolist() == [0, 0, 2]  # both failures counted, not dropped
    assert out.loc[2].tolist() == [1, 1, 0]
    assert out["errors"].sum() == table["error"].notna().sum()


def test_tally_when_every_case_failed_or_there_are_none():
    failed = pd.DataFrame({"k": [1, 2], "verdict": ["a", "a"], "error": ["x", "y"]})
    out = tally(failed, ["k"], "n", {"a": ("verdict", lambda v: v == "a")})
    assert out.to_dict("list") == {"n": [0, 0], "a": [0, 0], "errors": [1, 1]}
    empty = failed.iloc[:0]
    out = tally(empty, ["k"], "n", {"a": ("verdict", lambda v: v == "a")})
    assert len(out) == 0 and list(out.columns) == ["n", "a", "errors"]


@pytest.mark.parametrize(
    "args",
    [
        (None, ["k"], "n", {}),
        (pd.DataFrame({"k": [1]}), ["k"], "n", {}),  # no error column
        (pd.DataFrame({"k": [1], "error": [None]}), "k", "n", {}),
        (pd.DataFrame({"k": [1], "error": [None]}), ["k"], "n", {"a": ("nope", bool)}),
    ],
)
def test_tally_refuses_what_is_not_a_batch_table(args):
    with pytest.raises(PuzzleError):
        tally(*args)


def test_share_of_no_cases_is_nan_with_the_whole_interval():
    share, lo, hi = share_interval(0, 0)
    assert np.isnan(share) and (float(lo), float(hi)) == (0.0, 1.0)


# ------------------------------------------------------------------------------ resume


def test_resume_computes_only_the_missing_chunks(cache_root):
    whole = run_batch(square, CASES, progress=False, chunk_size=3)
    STOP_AT.append(("b", 1))  # Ctrl-C at case 7, in the third chunk (cases 6-8)
    with pytest.raises(KeyboardInterrupt):
        run_batch(square, CASES, progress=False, chunk_size=3, resume="squares")
    folder = cache_root / "batch" / "squares"
    assert sorted(p.name for p in folder.glob("chunk-*.parquet")) == [
        "chunk-000000.parquet",
        "chunk-000001.parquet",
    ]
    STOP_AT.clear()
    CALLS.clear()
    again = run_batch(square, CASES, progress=False, chunk_size=3, resume="squares")
    assert CALLS == [0, 1, 2, 3, 4, 5]  # cases 6..11 of the list: only chunks 2 and 3 ran
    assert again.attrs["computed_chunks"] == 2 and again.attrs["resumed_chunks"] == 2
    pd.testing.assert_frame_equal(again, whole)
    CALLS.clear()
    third = run_batch(square, CASES, progress=False, chunk_size=3, resume="squares")
    assert CALLS == [] and third.attrs["resumed_chunks"] == 4
    pd.testing.assert_frame_equal(third, whole)


def test_a_changed_case_list_is_not_mixed_with_old_chunks(cache_root):
    run_batch(square, CASES, progress=False, chunk_size=3, resume="run")
    changed = [dict(c, i=c["i"] + 1) for c in CASES]
    with pytest.raises(PuzzleError, match="different cases_sha256"):
        run_batch(square, changed, progress=False, chunk_size=3, resume="run")
    with pytest.raises(PuzzleError, match="chunk_size"):
        run_batch(square, CASES, progress=False, chunk_size=4, resume="run")
    CALLS.clear()
    fresh = run_batch(square, changed, progress=False, chunk_size=3, resume="run", overwrite=True)
    assert len(CALLS) == len(CASES) and fresh.attrs["resumed_chunks"] == 0
    pd.testing.assert_frame_equal(fresh, run_batch(square, changed, progress=False))


def test_a_damaged_chunk_is_recomputed_not_trusted(tmp_path):
    folder = tmp_path / "run"
    whole = run_batch(square, CASES, progress=False, chunk_size=6, resume=folder)
    (folder / "chunk-000001.parquet").write_bytes(b"PAR1 not really")
    CALLS.clear()
    with pytest.warns(RuntimeWarning, match="unreadable"):
        again = run_batch(square, CASES, progress=False, chunk_size=6, resume=folder)
    assert again.attrs["computed_chunks"] == 1 and len(CALLS) == 6
    pd.testing.assert_frame_equal(again, whole)


def test_a_deeply_nested_manifest_is_refused_not_a_recursion_error(tmp_path):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(PuzzleError, match="unreadable manifest"):
        run_batch(square, CASES, progress=False, resume=folder)
    table = run_batch(square, CASES, progress=False, resume=folder, overwrite=True)
    pd.testing.assert_frame_equal(table, run_batch(square, CASES, progress=False))


def test_an_unusable_run_folder_warns_and_computes(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.warns(RuntimeWarning, match="without resume"):
        table = run_batch(square, CASES, progress=False, resume=blocker / "run")
    pd.testing.assert_frame_equal(table, run_batch(square, CASES, progress=False))
    assert table.attrs["run_folder"] is None


def test_bad_resume_values_are_refused():
    for bad in ("", 3, b"x"):
        with pytest.raises(PuzzleError, match="resume"):
            run_batch(square, CASES, progress=False, resume=bad)


# ------------------------------------------------------------------------------ clusters


@pytest.fixture(scope="module")
def client():
    """One 2-worker LocalCluster (processes, one thread each) for the module."""
    distributed = pytest.importorskip("distributed")
    import logging

    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _census_pairs():
    """(row function, small cases) of each census."""
    from puzzlelab.nonogram import census as nonogram
    from puzzlelab.sliding import census as sliding
    from puzzlelab.watersort import census as watersort

    return [
        (watersort.deal_row, watersort.cases((4, 8, 12), 4)),
        (nonogram.picture_row, nonogram.cases([(8, 8)], (0.4, 0.6), 5)),
        (sliding.board_row, sliding.cases(6, (3, 3))),
    ]


def _same_results(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Equal tables but for the columns that time the work (CPU and wall seconds vary)."""
    timing = [c for c in a.columns if c.endswith(("cpu_s", "seconds", "wall_s"))]
    pd.testing.assert_frame_equal(a.drop(columns=timing), b.drop(columns=timing))


def test_small_censuses_are_identical_serially_and_on_the_cluster(client):
    for fn, cases in _census_pairs():
        serial = run_batch(fn, cases, progress=False)
        assert serial["error"].isna().all()
        on_cluster = run_batch(fn, cases, cluster=client, progress=False, chunk_size=3)
        _same_results(on_cluster, serial)
    assert client.status == "running"  # a Client passed in is left open


def test_a_failed_case_on_the_cluster_is_reported_in_its_row(client):
    serial = run_batch(square, CASES, progress=False)
    on_cluster = run_batch(square, CASES, cluster=client.cluster, progress=False)
    pd.testing.assert_frame_equal(on_cluster, serial)
    assert on_cluster.attrs["failed"] == 2


class Boom(BaseException):
    """A failure run_chunk does not catch: the task itself fails."""


def fragile(case: dict, boom: tuple = ()) -> dict:
    """`square`, except that cases with i in `boom` make the whole task fail."""
    if case["i"] in boom:
        raise Boom("the task failed on the worker")
    return square(case)


def test_a_lost_chunk_is_reported_and_recomputed_on_resume(client, tmp_path):
    fails = functools.partial(fragile, boom=(2,))
    lost = run_batch(fails, CASES, cluster=client, progress=False, chunk_size=3, resume=tmp_path)
    assert len(lost) == len(CASES)
    gone = lost["error"].str.startswith("chunk lost on the cluster: Boom", na=False)
    assert lost.index[gone].tolist() == [0, 1, 2, 6, 7, 8]  # the chunks holding i == 2
    works = functools.partial(fragile, boom=())
    again = run_batch(works, CASES, cluster=client, progress=False, chunk_size=3, resume=tmp_path)
    assert again.attrs["computed_chunks"] == 2 and again.attrs["resumed_chunks"] == 2
    pd.testing.assert_frame_equal(again, run_batch(square, CASES, progress=False))


def _die_once(case: dict, fn, marker: str, at: int) -> dict:
    """fn(case), except that the first worker to reach deal `at` exits on the spot."""
    if case["deal"] == at:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.write(fd, str(os.getpid()).encode())
            os.close(fd)
            os._exit(1)  # the worker process dies without a word
    return fn(case)


def test_a_killed_worker_loses_nothing(client, tmp_path):
    from puzzlelab.watersort import census as watersort

    cases = watersort.cases((4, 6, 8), 6)
    serial = run_batch(watersort.deal_row, cases, progress=False)
    marker = tmp_path / "killed"
    killer = functools.partial(_die_once, fn=watersort.deal_row, marker=str(marker), at=3)
    on_cluster = run_batch(killer, cases, cluster=client, progress=False, chunk_size=2)
    assert marker.exists() and int(marker.read_text()) != os.getpid()  # a worker really died
    assert on_cluster["error"].isna().all()
    _same_results(on_cluster, serial)


# ------------------------------------------------------------------------------ fuzz


def echo(case: dict) -> dict:
    """Return the case's values under new names (odd values must survive the table)."""
    return {f"out_{k}": v for k, v in case.items()}


_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.binary(max_size=3),
    st.lists(st.integers(), max_size=2),
)


@examples(60)
@given(
    st.one_of(
        st.lists(st.dictionaries(st.sampled_from("abc"), _values, min_size=1), max_size=4),
        _values,
        st.lists(_values, max_size=3),
    ),
    st.one_of(st.none(), st.integers(-2, 5), st.floats(), st.text(max_size=3)),
)
def test_odd_cases_give_a_table_or_a_puzzle_error(cases, chunk_size):
    try:
        table = run_batch(echo, cases, chunk_size=chunk_size, progress=False)
    except PuzzleError:
        return
    assert len(table) == len(cases)
    assert table["error"].isna().all()
    one_by_one = run_batch(echo, cases, chunk_size=1, progress=False)
    pd.testing.assert_frame_equal(table, one_by_one)  # mixed types do not depend on chunking
