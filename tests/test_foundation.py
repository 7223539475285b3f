"""The shared foundation: the result protocol, budgets, input checks and verified caches."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab import cache, checks, paths
from puzzlelab.errors import CacheError, ParseError, PuzzleError, WriteError
from puzzlelab.results import STATS_KEYS, VERDICTS, Budget, Result

# ----------------------------------------------------------------------------- results


def test_result_protocol_keys_and_length():
    """stats() has exactly the shared keys; length is None without an answer."""
    solved = Result(method="m", verdict="optimal", moves=[1, 2], states=["a", "b", "c"])
    assert tuple(solved.stats()) == STATS_KEYS
    assert solved.solved and solved.length == 2
    for verdict in ("unsolvable", "limit"):
        r = Result(method="m", verdict=verdict)
        assert not r.solved and r.length is None
    assert solved.row()["length"] == 2


def test_result_refuses_unknown_verdict():
    """Only the one vocabulary is accepted."""
    with pytest.raises(PuzzleError, match="not one of"):
        Result(method="m", verdict="none")
    for odd in (np.array(["optimal", "limit"]), ["optimal"], None, 3):  # no str: no verdict
        with pytest.raises(PuzzleError, match="not one of"):
            Result(method="m", verdict=odd)
    assert "unsolvable" in VERDICTS and "none" not in VERDICTS


def test_budget_semantics():
    """None is unlimited, 0 stops at once, negative or float limits are refused."""
    assert not Budget().exhausted(10**9)
    assert Budget(max_expanded=0).exhausted(0)
    assert not Budget(max_expanded=5).exhausted(4) and Budget(max_expanded=5).exhausted(5)
    assert Budget(max_seconds=0).exhausted(0)
    assert Budget(max_expanded=np.int64(3)).max_expanded == 3
    assert Budget().kernel_nodes() > 10**15 and Budget(max_expanded=0).kernel_nodes() == 0
    for bad in (-1, 1.5, "3", math.nan, True):
        with pytest.raises(PuzzleError, match="max_expanded"):
            Budget(max_expanded=bad)
    for bad in (-0.1, math.nan, math.inf, "1"):
        with pytest.raises(PuzzleError, match="max_seconds"):
            Budget(max_seconds=bad)
    assert "max_expanded=7" in Budget(max_expanded=7).why()


# ------------------------------------------------------------------------------ checks


def test_integer_check():
    """Integers (numpy too) pass; floats, bools, NaN and strings are refused."""
    assert checks.integer(np.int64(4), "n") == 4
    for bad in (2.0, 1.7, True, math.nan, "3", None):
        with pytest.raises(PuzzleError, match="whole number"):
            checks.integer(bad, "n")
    with pytest.raises(PuzzleError, match="at least 1"):
        checks.integer(0, "n", minimum=1)
    with pytest.raises(PuzzleError, match="at most 9"):
        checks.integer(10, "n", maximum=9)


def test_number_and_fraction_checks():
    """NaN and inf are refused unless allowed; fractions lie strictly inside (0, 1)."""
    assert checks.number(np.float32(0.5), "x") == 0.5
    assert checks.number(math.inf, "x", allow_inf=True) == math.inf
    for bad in (math.nan, math.inf, "1", None, False):
        with pytest.raises(PuzzleError):
            checks.number(bad, "x")
    for bad in (0, 1, 1.5, -0.2):
        with pytest.raises(PuzzleError, match=r"\(0, 1\)"):
            checks.fraction(bad, "confidence")
    assert checks.fraction(0.95, "confidence") == 0.95


@given(st.lists(st.one_of(st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=2))))
def test_counts_check_accepts_only_whole_nonnegative(values):
    """counts() returns the values unchanged or raises PuzzleError, nothing else."""
    try:
        out = checks.counts(values)
    except PuzzleError:
        assert any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values)
    else:
        assert out == values


def test_choice_and_seed_checks():
    """Unknown names are listed; seeds are None or non-negative integers."""
    assert checks.choice("a", "method", ["a", "b"]) == "a"
    with pytest.raises(PuzzleError, match="'a', 'b'"):
        checks.choice("c", "method", ["a", "b"])
    assert checks.seed(None) is None and checks.seed(np.uint8(3)) == 3
    with pytest.raises(PuzzleError):
        checks.seed(-1)


def test_read_text(tmp_path):
    """UTF-8 text is read; missing, binary and non-UTF-8 files give ParseError."""
    good = tmp_path / "a.txt"
    good.write_text("héllo", encoding="utf-8")
    assert checks.read_text(good) == "héllo"
    (tmp_path / "b.bin").write_bytes(b"ab\x00cd")
    (tmp_path / "c.txt").write_bytes(b"caf\xe9")
    with pytest.raises(ParseError, match="does not exist"):
        checks.read_text(tmp_path / "missing.txt")
    with pytest.raises(ParseError, match="binary"):
        checks.read_text(tmp_path / "b.bin")
    with pytest.raises(ParseError, match="not UTF-8"):
        checks.read_text(tmp_path / "c.txt")


# ------------------------------------------------------------------------------- cache

KEY = {"shape": [3, 3], "goal": [1, 2, 0]}


def test_cache_round_trip_and_every_damage_is_detected(tmp_path):
    """A cache file reads back exactly; any changed byte, header or key is a CacheError."""
    path = tmp_path / "t.bin"
    data = np.arange(1000, dtype=np.uint8)
    assert cache.save_array(path, "demo", 2, KEY, data, {"note": "x"})
    back, meta = cache.load_array(path, "demo", 2, KEY)
    assert np.array_equal(back, data) and meta["note"] == "x"
    raw = path.read_bytes()
    damaged = {
        "payload byte": raw[:-1] + bytes([raw[-1] ^ 1]),
        "truncated": raw[:-10],
        "no magic": b"X" + raw[1:],
        "non-UTF-8 header": raw.replace(b'"kind"', b'"\xff\xfe"', 1),
        "null header": cache.MAGIC + b"null\n" + raw.split(b"\n", 2)[2],
        "missing key": raw.replace(b'"sha256"', b'"sha999"', 1),
        "empty": b"",
    }
    for name, content in damaged.items():
        path.write_bytes(content)
        with pytest.raises(CacheError):
            cache.load_array(path, "demo", 2, KEY)
        assert name
    path.write_bytes(raw)
    with pytest.raises(CacheError, match="version"):
        cache.load_array(path, "demo", 3, KEY)
    with pytest.raises(CacheError, match="key"):
        cache.load_array(path, "demo", 2, {"shape": [3, 3], "goal": [2, 1, 0]})
    with pytest.raises(CacheError, match="kind"):
        cache.load_array(path, "other", 2, KEY)


def test_load_or_build_rebuilds_a_bad_file(tmp_path):
    """A damaged file is rebuilt (with one warning) and replaced by a good one."""
    path = tmp_path / "c.bin"
    calls = []

    def build():
        calls.append(1)
        return b"payload", {"n": 1}

    assert cache.load_or_build(path, "k", 1, {}, build) == ({"n": 1}, b"payload")
    assert cache.load_or_build(path, "k", 1, {}, build)[1] == b"payload" and len(calls) == 1
    path.write_bytes(path.read_bytes()[:-1] + b"X")
    with pytest.warns(RuntimeWarning, match="checksum"):
        assert cache.load_or_build(path, "k", 1, {}, build)[1] == b"payload"
    assert len(calls) == 2 and cache.read(path, "k", 1, {})[1] == b"payload"


def test_unusable_cache_folder_warns_and_computes(tmp_path, monkeypatch):
    """A cache folder under a regular file: no path, one warning, the work still gets done."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PUZZLELAB_CACHE", str(blocker / "cache"))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert cache.cache_file("tables", "x.bin") is None
    assert any("without a cache" in str(w.message) for w in seen)
    meta, payload = cache.load_or_build(None, "k", 1, {}, lambda: (b"ok", {}))
    assert payload == b"ok"


def test_unwritable_cache_file_warns(tmp_path):
    """A write that fails (its folder is a regular file) warns and returns False."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.warns(RuntimeWarning, match="cannot write"):
        assert not cache.write(blocker / "x.bin", "k", 1, {}, b"data")


# ------------------------------------------------------------------------------ atomic writes


def dead_pid() -> int:
    """The id of a process that has ended."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_killed_writers_temporary_is_cleared_on_the_next_write(tmp_path):
    import os

    target = tmp_path / "table.bin"
    stale = tmp_path / f".table.bin.{paths.TMP_MARK}{dead_pid()}.abc123"
    stale.write_bytes(b"half a table")  # what `kill -9` mid-write leaves
    live = tmp_path / f".table.bin.{paths.TMP_MARK}{os.getppid()}.def456"
    live.write_bytes(b"a writer still at work")
    other = tmp_path / f".other.bin.{paths.TMP_MARK}{dead_pid()}.x"
    other.write_bytes(b"another file's")
    paths.atomic_write_text(target, "whole")
    assert target.read_text() == "whole"
    assert not stale.exists() and live.exists() and other.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".table")) == [live.name]


def test_writing_where_one_cannot_is_a_write_error(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(WriteError, match="is a folder"):
        paths.atomic_write_text(folder, "text")
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    with pytest.raises(WriteError, match="cannot write"):
        paths.atomic_write_text(blocker / "inside.txt", "text")
    with pytest.raises(PuzzleError):
        paths.atomic_write_text(None, "text")
    assert blocker.read_text() == "a file, not a folder"


@pytest.mark.parametrize("parts", [(None,), ("",), (3,), ("a\x00b",)])
def test_path_parts_must_be_names(parts):
    with pytest.raises(PuzzleError):
        paths.cache_dir(*parts, create=False)
    with pytest.raises(PuzzleError):
        cache.cache_file(*parts)


def test_cache_arguments_are_checked(tmp_path):
    with pytest.raises(PuzzleError, match="key"):
        cache.write(tmp_path / "f", "kind", 1, "not a dict", b"")
    with pytest.raises(PuzzleError, match="payload"):
        cache.write(tmp_path / "f", "kind", 1, {}, "text")
    with pytest.raises(PuzzleError, match="build"):
        cache.load_or_build(tmp_path / "f", "kind", 1, {}, None)
    (tmp_path / "nested").write_bytes(cache.MAGIC + b"[" * 100_000 + b"\n")
    with pytest.raises(CacheError, match="damaged header"):
        cache.read(tmp_path / "nested", "kind", 1, {})
