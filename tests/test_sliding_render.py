"""Drawing: one board, a strip of boards along a path, and the animation."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from puzzlelab.sliding import distance_table, parse_board  # noqa: E402
from puzzlelab.sliding.render import animate_solution, draw_board, draw_path  # noqa: E402


def tile_labels(ax) -> list[str]:
    """The texts drawn on an axes, in order."""
    return [t.get_text() for t in ax.texts]


def test_draw_board_draws_every_tile_and_highlights_the_moved_one():
    ax = draw_board(parse_board("1 2 3 / 4 _ 5"), (2, 3), moved=5)
    assert sorted(tile_labels(ax)) == ["1", "2", "3", "4", "5"]
    colors = {p.get_facecolor() for p in ax.patches}
    assert len(colors) == 2  # the ordinary tiles and the highlighted one
    plt.close("all")


def test_draw_path_one_board_per_state_with_step_numbers():
    table = distance_table((2, 3))
    path = table.path(table.farthest(1)[0])
    fig, ax = plt.subplots()
    out = draw_path(path, (2, 3), ax, per_row=7)
    assert out is ax
    steps = [t for t in ax.texts if t.get_va() == "bottom"]
    assert [t.get_text() for t in steps] == [str(i) for i in range(len(path))]
    frames = [p for p in ax.patches if type(p).__name__ == "Rectangle"]
    assert len(frames) == len(path)
    tiles = [p for p in ax.patches if type(p).__name__ == "FancyBboxPatch"]
    assert len(tiles) == 5 * len(path)
    highlighted = [p for p in tiles if p.get_facecolor() != tiles[0].get_facecolor()]
    assert len(highlighted) == len(path) - 1  # one moved tile per move
    plt.close("all")


def test_draw_path_makes_its_own_figure_and_wraps_rows():
    path = [parse_board("1 2 / 3 _"), parse_board("1 _ / 3 2"), parse_board("_ 1 / 3 2")]
    ax = draw_path(path, (2, 2), per_row=2, labels=False, title="three")
    assert ax.get_title() == "three"
    x0s = sorted({p.get_x() for p in ax.patches if type(p).__name__ == "Rectangle"})
    y0s = sorted({p.get_y() for p in ax.patches if type(p).__name__ == "Rectangle"})
    assert len(x0s) == 2 and len(y0s) == 2  # two per row, two rows
    plt.close("all")


def test_animation_has_a_frame_per_board():
    path = [parse_board("1 2 / 3 _"), parse_board("1 _ / 3 2")]
    anim = animate_solution(path, (2, 2), [(2, "up")])
    frames = list(anim.new_frame_seq())
    assert frames == [0, 1]
    anim._func(1)  # draw the last frame: the board after the move, titled
    ax = anim._fig.axes[0]
    assert ax.get_title() == "move 1 of 1" and sorted(tile_labels(ax)) == ["1", "2", "3"]
    anim._draw_was_started = True  # silence "deleted without rendering"
    plt.close("all")
