"""Rows of tubes: nothing in an ad banner is a row; small drawn cases for each rule."""

from __future__ import annotations

import numpy as np

from puzzlelab.watersort.screenshot import (
    _above,
    _banner_top,
)

W, H = 40, 180  # a tube's box


def _row(xs: list[int], y: int = 100) -> list[tuple]:
    """A row of (box, odd) slots at columns `xs`."""
    return [((x, y, W, H), False) for x in xs]


def _picture(band: int | None, height: int = 400, width: int = 200) -> np.ndarray:
    """A CIELAB picture with two tubes, and a band of another colour across the whole width
    from row `band` down (an ad banner) unless None."""
    lab = np.zeros((height, width, 3), np.float32)
    lab[:] = (60, 10, 30)
    lab[100:300, 40:80] = (70, -40, 20)
    lab[100:300, 120:160] = (40, 50, -10)
    if band is not None:
        lab[band:] = (80, 0, -40)
    return lab


def test_a_band_across_the_bottom_is_a_banner_tubes_are_not():
    """A full-width band in the bottom 15 % starts at its top row; tubes' bottoms change
    some columns only, and a band higher up is part of the play area."""
    assert _banner_top(_picture(360)) in (358, 359)
    assert _banner_top(_picture(None)) == 400
    assert _banner_top(_picture(200)) == 400


def test_rows_inside_a_banner_are_dropped():
    """A row whose boxes' middle lies below the banner's top is its letters, not tubes."""
    rows = [_row([40, 120], 100), [((30, 370, 10, 20), False), ((60, 370, 10, 20), False)]]
    assert _above(rows, 360) == rows[:1]
    assert _above(rows, 400) == rows
