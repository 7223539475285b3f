"""Shared fixtures: reference data from ../shared (skipped with a clear message when absent),
a papermill notebook runner, the fuzz tests' "PuzzleError or a result" call, the hypothesis
profiles and the markers.

Markers (pyproject.toml): ``notebook`` (runs a notebook: nbval items are marked here),
``browser`` (JupyterLab in Chromium), ``slow`` (a long test). `make test-fast` skips all three
and loads the ``fast`` hypothesis profile (random); `make test` runs everything with ``ci``
(derandomised: the same examples every run).
Choose a profile with PUZZLELAB_HYPOTHESIS=ci|fast.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from puzzlelab.errors import PuzzleError
from puzzlelab.paths import root, shared_dir

os.environ.setdefault("MPLBACKEND", "Agg")

# One set of hypothesis settings for the whole suite. Tests ask for more or fewer examples
# with `examples(n)`, which the fast profile scales down. `ci` is derandomised: every run of
# `make test` tries the same examples, so a red run is a real failure anyone can replay, not
# a draw that passes on the next try. `fast` stays random and keeps hypothesis' example
# database, so working sessions go on exploring and replay what they found.
QUIET = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture]
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=100,
    derandomize=True,
    database=None,
    suppress_health_check=QUIET,
)
settings.register_profile("fast", deadline=None, max_examples=20, suppress_health_check=QUIET)
PROFILE = os.environ.get("PUZZLELAB_HYPOTHESIS", "ci")
settings.load_profile(PROFILE)


def examples(n: int) -> settings:
    """Hypothesis settings asking for `n` examples (a fifth of them, at least 5, when fast)."""
    return settings(max_examples=n if PROFILE == "ci" else max(5, n // 5))


def pytest_collection_modifyitems(config, items) -> None:
    """Mark nbval's notebook items ``notebook`` so `-m "not notebook"` skips them too."""
    for item in items:
        if str(item.fspath).endswith(".ipynb"):
            item.add_marker(pytest.mark.notebook)


def require_shared(*parts: str) -> Path:
    """The path under ../shared, or skip the test when the reference data is not there."""
    path = shared_dir(*parts)
    if path is None:
        pytest.skip(f"../shared/{'/'.join(parts)} is absent (it sits beside the clone in CI)")
    return path


def fuzz_call(seconds: float = 20.0) -> Callable:
    """A `call(fn, *args, **kwargs)` for the fuzz tests: fn's value, or None when it raised a
    `PuzzleError`; any other exception, or a call over `seconds` of CPU time, fails the test.

    CPU time, not wall time: a machine busy with other work must not fail a fuzz test.
    """

    def call(fn: Callable, *args, **kwargs):
        t0 = time.process_time()
        try:
            return fn(*args, **kwargs)
        except PuzzleError:
            return None
        finally:
            took = time.process_time() - t0
            name = getattr(fn, "__name__", fn)
            assert took < seconds, f"{name} took {took:.1f} s of CPU > {seconds} s"

    return call


@pytest.fixture(scope="session")
def distributions() -> dict:
    """Published sliding-puzzle distance distributions (OEIS), keyed like '3x3_corner'."""
    path = require_shared("reference", "sliding", "distributions.json")
    return json.loads(path.read_text())["distributions"]


@pytest.fixture()
def run_notebook(tmp_path, monkeypatch):
    """A function running notebooks/<name> through papermill with parameters; it returns the
    printed text of every code cell. The kernel imports this checkout's lib/."""
    papermill = pytest.importorskip("papermill")
    lib = str(root() / "lib")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([lib, os.environ.get("PYTHONPATH", "")]))

    def run(name: str, parameters: dict) -> str:
        out = tmp_path / name
        papermill.execute_notebook(
            str(root() / "notebooks" / name),
            str(out),
            parameters=parameters,
            kernel_name="python3",
            cwd=str(root() / "notebooks"),
            progress_bar=False,
        )
        cells = json.loads(out.read_text())["cells"]
        return "".join(
            "".join(output.get("text", ""))
            for cell in cells
            if cell["cell_type"] == "code"
            for output in cell.get("outputs", [])
        )

    return run


@pytest.fixture(scope="session")
def table3():
    """The complete 3x3 distance table for the blank-first goal (pattern-database tests)."""
    from puzzlelab.sliding import distance_table, solved_state

    return distance_table((3, 3), solved_state((3, 3), "first"))


@pytest.fixture(scope="session")
def all3(table3):
    """Every reachable 3x3 board as rows, with its true distance to the blank-first goal."""
    import numpy as np

    idx = np.arange(table3.depths.size)
    return np.array(table3.states(idx)), table3.depths.astype(np.int64)
