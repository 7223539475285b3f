"""Notebook 01 runs with parameters other than its defaults (its asserts follow the parameters)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from puzzlelab.paths import root

papermill = pytest.importorskip("papermill")


def test_notebook_01_with_another_goal_and_examples(tmp_path, monkeypatch):
    out = tmp_path / "01.ipynb"
    lib = str(root() / "lib")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([lib, os.environ.get("PYTHONPATH", "")]))
    params = {
        "game_goal": "1 2 3 / 4 5 6 / 7 8 _",
        "examples": ["8 1 3 / 4 _ 2 / 7 6 5", "2 1 3 / 4 5 6 / 7 8 _", "_ 1 2 / 3 4 5 / 6 7 8"],
        "shapes": [[2, 2], [1, 3], [3, 1], [2, 3]],
    }
    papermill.execute_notebook(
        str(root() / "notebooks" / "01_sliding_distance_tables.ipynb"),
        str(out),
        parameters=params,
        kernel_name="python3",
        cwd=str(root() / "notebooks"),
        progress_bar=False,
    )
    cells = json.loads(Path(out).read_text())["cells"]
    text = "".join(
        "".join(o.get("text", "")) for c in cells if c["cell_type"] == "code" for o in c["outputs"]
    )
    assert "states 181,440  hardest 31 moves" in text  # blank in a corner: the game's counts
    assert "unsolvable" in text  # "2 1 3 / ..." is in the other parity class
    assert "3x1" in text and "1x3" in text
