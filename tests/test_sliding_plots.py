"""Figures of the sliding study: boards, paths, the registered step drawer, distributions.

Checked by what a reader sees (tile labels, step numbers, titles, legend text, frames of a
saved GIF), not by matplotlib's internals.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from puzzlelab import plotting  # noqa: E402
from puzzlelab.errors import PuzzleError  # noqa: E402
from puzzlelab.sliding import distance_table, parse_board, solve  # noqa: E402
from puzzlelab.sliding.plots import (  # noqa: E402
    draw_board,
    draw_counts,
    draw_fractions,
    draw_path,
    draw_rescaled,
)


def texts(ax) -> list[str]:
    """The texts drawn on an axes, in order."""
    return [t.get_text() for t in ax.texts]


def test_draw_board_writes_every_tile_and_the_title():
    ax = draw_board(parse_board("1 2 3 / 4 _ 5"), (2, 3), title="a board", moved=5)
    assert sorted(texts(ax)) == ["1", "2", "3", "4", "5"] and ax.get_title() == "a board"
    plt.close("all")


def test_draw_path_numbers_every_board():
    table = distance_table((2, 3))
    path = table.path(table.farthest(1)[0])
    fig, ax = plt.subplots()
    assert draw_path(path, (2, 3), ax, per_row=7) is ax
    steps = [t for t in ax.texts if t.get_va() == "bottom"]
    assert [t.get_text() for t in steps] == [str(i) for i in range(len(path))]
    assert len(texts(ax)) == len(path) * 6  # five tiles and a step number per board
    plt.close("all")


def test_draw_path_without_labels_draws_only_tiles():
    path = [parse_board("1 2 / 3 _"), parse_board("1 _ / 3 2"), parse_board("_ 1 / 3 2")]
    ax = draw_path(path, (2, 2), per_row=2, labels=False, title="three")
    assert ax.get_title() == "three" and sorted(texts(ax)) == sorted(["1", "2", "3"] * 3)
    plt.close("all")


def test_every_solution_draws_and_animates_through_the_registry(tmp_path):
    sol = solve("1 2 3 / 4 5 6 / _ 7 8")
    ax = plotting.draw_step(sol, 2)
    assert ax.get_title() == "move 2 of 2" and sorted(texts(ax)) == [str(t) for t in range(1, 9)]
    gif = plotting.save_gif(plotting.animate(sol), tmp_path / "sol.gif")
    assert Image.open(gif).n_frames == len(sol.states) == 3
    with pytest.raises(PuzzleError):
        plotting.draw_step(solve("1 2 3 / 4 5 6 / 8 7 _"), 0)  # unsolvable: nothing to show
    plt.close("all")


def test_distribution_figures_name_their_numbers():
    table = distance_table((2, 3))
    ax = draw_counts(table, title="2x3")
    assert ax.get_legend().get_texts()[0].get_text() == f"mean {table.mean:.2f}"
    ax = draw_fractions({"2x3": table})
    assert ax.get_legend().get_texts()[0].get_text().startswith("2x3: max 21")
    ax = draw_rescaled({(2, 3): table})
    assert ax.get_legend().get_texts()[0].get_text() == "2x3 (max 21)"
    plt.close("all")
