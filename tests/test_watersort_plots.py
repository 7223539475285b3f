"""Water-sort pictures: grid layout, distinct colors with text labels, a caller's palette,
the registered step drawer, GIF and HTML output, and the study's figures."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from puzzlelab import plotting  # noqa: E402
from puzzlelab.errors import PuzzleError  # noqa: E402
from puzzlelab.watersort import Level, solve  # noqa: E402
from puzzlelab.watersort import census as ws_census  # noqa: E402
from puzzlelab.watersort.generate import random_deal  # noqa: E402
from puzzlelab.watersort.plots import (  # noqa: E402
    draw_board,
    draw_lengths,
    draw_solvable_share,
    grid_shape,
    palette,
    save_solution_gif,
    short_labels,
    solution_html,
)


def pixels(ax) -> np.ndarray:
    """The RGB pixels of the figure holding `ax`."""
    ax.figure.canvas.draw()
    return np.asarray(ax.figure.canvas.buffer_rgba())[:, :, :3]


def test_grid_layout():
    """At most 10 tubes a row, rows balanced: 30 tubes -> 3 x 10, 14 -> 2 x 7."""
    assert grid_shape(30) == (3, 10)
    assert grid_shape(14) == (2, 7)
    assert grid_shape(5) == (1, 5)
    assert grid_shape(24) == (3, 8)


def test_palette_distinct_past_ten_and_labels_unique():
    """28 colors get 28 different RGB values and 28 different labels."""
    colors = random_deal(28, 2, 4, rng=0).colors
    assert len(set(palette(colors).values())) == 28
    assert len(set(short_labels(colors).values())) == 28
    assert len(set(short_labels(["red", "redwood", "reddish", "blue"]).values())) == 4


def test_draw_board_writes_every_label_and_tube_number():
    """Every unit of a 30-tube board carries its label, and every tube its number."""
    level = random_deal(28, 2, 4, rng=1)
    ax = draw_board(level)
    labels = [t.get_text() for t in ax.texts]
    units = [c for t in level.tubes for c in t]
    assert sorted(labels) == sorted(units + [str(k) for k in range(level.n_tubes)])
    plt.close(ax.figure)


def test_draw_board_paints_a_given_palette():
    """palette= paints the named colors (0..1 or 0..255); a short color order is completed."""
    level = Level.parse("AB BA -", capacity=2)
    ax = draw_board(level, labels=False, palette={"A": (255, 0, 0), "B": (0.0, 0.0, 1.0)})
    rgb = pixels(ax).reshape(-1, 3)
    assert ((rgb[:, 0] > 240) & (rgb[:, 1] < 15) & (rgb[:, 2] < 15)).any()  # pure red
    assert ((rgb[:, 2] > 240) & (rgb[:, 0] < 15) & (rgb[:, 1] < 15)).any()  # pure blue
    plt.close(ax.figure)
    ax = draw_board(level, colors=["B"])  # "A" is missing from the order: appended
    plt.close(ax.figure)
    for bad in ({"A": "red"}, {"A": (1, 2)}, {"A": (300, 0, 0)}, [("A", (1, 0, 0))]):
        with pytest.raises(PuzzleError, match="palette"):
            draw_board(level, palette=bad)
    with pytest.raises(PuzzleError, match="Level"):
        draw_board("AB BA -")
    plt.close("all")


def test_the_step_drawer_is_registered():
    """plotting.draw_step / animate work on a water-sort Solution; step i titles pour i."""
    level = Level.parse("ABA BAB - ", capacity=3)
    sol = solve(level)
    ax = plotting.draw_step(sol, 1)
    assert ax.get_title().startswith(f"pour 1/{sol.length}")
    plt.close(ax.figure)
    ax = plotting.draw_step(sol, 0)
    assert ax.get_title() == "start"
    plt.close(ax.figure)
    with pytest.raises(PuzzleError):
        plotting.draw_step(solve(level, max_expanded=0), 0)  # no answer: nothing to show


def test_gif_and_html(tmp_path):
    """A solution animates to a GIF file (one frame per position) and to notebook HTML."""
    from PIL import Image

    level = Level.parse("ABA BAB - ", capacity=3)
    sol = solve(level)
    path = save_solution_gif(sol, tmp_path / "s.gif")
    with Image.open(path) as gif:
        assert gif.format == "GIF" and gif.n_frames == len(sol.states)
    assert "<script" in solution_html(sol)


def test_census_figures():
    """The share and length figures draw one curve per empty-tube count from the summary."""
    summary = ws_census.summarise(
        ws_census.census((4, 5), 3, (1, 2), method="optimal", progress=False)
    )
    ax = draw_solvable_share(summary)
    assert len(ax.get_lines()) == 2 and ax.get_legend() is not None
    plt.close(ax.figure)
    ax = draw_lengths(summary, empty=2)
    assert ax.get_ylabel() == "pours"
    plt.close(ax.figure)


def test_a_reading_is_drawn_in_its_own_colours_with_full_names():
    from puzzlelab.watersort import plots, read_screenshot
    from puzzlelab.watersort.plots import draw_read_board, draw_reading

    level = Level.make([["A", "B", "A", "B"], ["B", "A", "B", "A"], [], []], 4)
    fig, ax = plt.subplots(figsize=plots.figure_size(level), dpi=100)
    plots.draw_board(level, ax)
    fig.canvas.draw()
    image = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].copy()
    plt.close(fig)
    reading = read_screenshot(image)
    ax = draw_read_board(reading)
    names = [t.get_text() for t in ax.get_legend().get_texts()]
    assert names == [f"{i + 1} {c}" for i, c in enumerate(reading.palette)]
    assert draw_reading(image, reading).get_images()  # the screenshot under the overlay
    plt.close("all")
    with pytest.raises(PuzzleError, match="Reading"):
        draw_read_board("not a reading")
