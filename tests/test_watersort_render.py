"""Water-sort pictures: grid layout, distinct colors with text labels, GIF and HTML output."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from puzzlelab.watersort import Level, solve  # noqa: E402
from puzzlelab.watersort.generate import random_deal  # noqa: E402
from puzzlelab.watersort.render import (  # noqa: E402
    draw_board,
    grid_shape,
    palette,
    save_solution_gif,
    short_labels,
    solution_html,
)


def test_grid_layout():
    """At most 10 tubes a row, rows balanced: 30 tubes -> 3 x 10, 14 -> 2 x 7."""
    assert grid_shape(30) == (3, 10)
    assert grid_shape(14) == (2, 7)
    assert grid_shape(5) == (1, 5)
    assert grid_shape(24) == (3, 8)


def test_palette_distinct_past_ten_and_labels_unique():
    """28 colors get 28 different RGB values and 28 different labels."""
    level = random_deal(28, 2, 4, seed=0)
    colors = level.colors
    assert len(set(palette(colors).values())) == 28
    assert len(set(short_labels(colors).values())) == 28
    long = ["red", "redwood", "reddish", "blue"]
    assert len(set(short_labels(long).values())) == 4


def test_draw_board_labels_every_unit():
    """Every unit of a 30-tube board gets a colored patch and a text label."""
    level = random_deal(28, 2, 4, seed=1)
    ax = draw_board(level)
    units = sum(len(t) for t in level.tubes)
    labels = [t.get_text() for t in ax.texts]
    assert len(ax.patches) == units
    assert len(labels) == units + level.n_tubes  # unit labels plus tube numbers
    plt.close(ax.figure)


def test_gif_and_html(tmp_path):
    """A solution animates to a GIF file and to notebook HTML."""
    level = Level.parse("ABA BAB - ", capacity=3)
    sol = solve(level)
    path = save_solution_gif(level, sol.pours, tmp_path / "s.gif")
    assert path.exists() and path.read_bytes()[:3] == b"GIF"
    html = solution_html(level, sol.pours)
    assert "<script" in html
