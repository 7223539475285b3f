"""Shared fixtures: reference data from ../shared (skipped with a clear message when absent)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from puzzlelab.paths import shared_dir

os.environ.setdefault("MPLBACKEND", "Agg")


def require_shared(*parts: str) -> Path:
    """The path under ../shared, or skip the test when the reference data is not there."""
    path = shared_dir(*parts)
    if path is None:
        pytest.skip(f"../shared/{'/'.join(parts)} is absent (it sits beside the clone in CI)")
    return path


@pytest.fixture(scope="session")
def distributions() -> dict:
    """Published sliding-puzzle distance distributions (OEIS), keyed like '3x3_corner'."""
    path = require_shared("reference", "sliding", "distributions.json")
    return json.loads(path.read_text())["distributions"]
