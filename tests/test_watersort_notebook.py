"""Notebook 06 runs with parameters other than its defaults (papermill), and refuses bad ones."""

from __future__ import annotations

import pytest

from puzzlelab.errors import PuzzleError
from puzzlelab.watersort import study

pytestmark = pytest.mark.notebook

SMALL = {
    "seed": 3,
    "colors": [4, 5],
    "n_deals": 2,
    "n_compare": 2,
    "writeup_max_expanded": 5000,
    "greedy_colors": 7,
    "n_greedy": 2,
    "targets": [3, 4],
    "cluster": None,
    "census_colors": [4, 5],
    "census_deals": 2,
    "census_resume": None,
}


@pytest.mark.slow
def test_notebook_06_with_small_parameters(tmp_path, monkeypatch, run_notebook):
    """Small non-default parameters run end to end without ../shared; asserts follow them."""
    monkeypatch.setenv("PUZZLELAB_SHARED", str(tmp_path / "no-shared"))
    text = run_notebook("06_water_sort.ipynb", SMALL)
    assert "Skipped: this section needs ../shared/corpora/watersort/levels.json" in text
    assert "'deals': 2," in text  # n_compare
    assert "deals: 4 |" in text  # len(colors) * n_deals
    assert "target  3:" in text and "target  4:" in text and "target  5:" not in text
    assert "deal 1:" in text and "deal 2:" not in text  # n_greedy


def test_notebook_06_parameters_are_checked():
    """Defaults pass; unknown names, floats, NaN, empty lists and out-of-range values fail."""
    assert study.check_params(**study.DEFAULTS) == study.DEFAULTS
    assert study.check_params(**SMALL) == SMALL
    bad = [
        {"n_deals": 2.5},
        {"colors": []},
        {"colors": [4, float("nan")]},
        {"colors": "4"},
        {"seed": -1},
        {"writeup_max_expanded": -5},
        {"greedy_colors": 0},
        {"targets": [1.5]},
        {"SEED_MAX_EXPANDED": 10},
        {"cluster": "everywhere"},
        {"cluster": 4},
        {"census_colors": [4, 61]},
        {"census_deals": -1},
        {"census_resume": ""},
        {"census_resume": 3},
    ]
    for change in bad:
        with pytest.raises(PuzzleError):
            study.check_params(**{**study.DEFAULTS, **change})
