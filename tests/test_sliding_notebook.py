"""Notebook 01 runs with parameters other than its defaults (its asserts follow the parameters)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.notebook


def test_notebook_01_with_another_goal_and_examples(run_notebook):
    params = {
        "game_goal": "1 2 3 / 4 5 6 / 7 8 _",
        "examples": ["8 1 3 / 4 _ 2 / 7 6 5", "2 1 3 / 4 5 6 / 7 8 _", "_ 1 2 / 3 4 5 / 6 7 8"],
        "shapes": [[2, 2], [1, 3], [3, 1], [2, 3]],
    }
    text = run_notebook("01_sliding_distance_tables.ipynb", params)
    assert "states 181,440  hardest 31 moves" in text  # blank in a corner: the game's counts
    assert "unsolvable" in text  # "2 1 3 / ..." is in the other parity class
    assert "3x1" in text and "1x3" in text
