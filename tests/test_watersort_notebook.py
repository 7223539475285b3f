"""Notebook 06 runs with parameters other than its defaults (papermill), and refuses bad ones."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.notebook, pytest.mark.slow]

SMALL = {
    "seed": 3,
    "colors": [4, 5],
    "n_deals": 2,
    "method": "dfs",
    "max_expanded": 20_000,
    "writeup_max_expanded": None,
    "greedy_colors": 7,
    "n_greedy": 2,
    "targets": [3, 4],
    "cluster": None,
    "resume": None,
}


def test_notebook_06_with_small_parameters(tmp_path, monkeypatch, run_notebook):
    """Small non-default parameters run end to end without ../shared; asserts follow them."""
    monkeypatch.setenv("PUZZLELAB_SHARED", str(tmp_path / "no-shared"))
    text = run_notebook("06_water_sort.ipynb", SMALL)
    assert "Skipped: this section needs ../shared/corpora/watersort/levels.json" in text
    assert "verdict  feasible" in text  # the census's outcome counts (DFS says feasible)
    assert "CPU seconds on the" not in text  # no write-up comparison asked for
    assert "target  3:" in text and "target  4:" in text and "target  5:" not in text
    assert "deal 1:" in text and "deal 2:" not in text  # n_greedy


def test_notebook_06_refuses_a_bad_parameter(tmp_path, monkeypatch, run_notebook):
    """A bad census parameter stops the run with a PuzzleError naming it."""
    monkeypatch.setenv("PUZZLELAB_SHARED", str(tmp_path / "no-shared"))
    with pytest.raises(Exception, match="n_deals must be a whole number"):
        run_notebook("06_water_sort.ipynb", {**SMALL, "n_deals": 2.5})
