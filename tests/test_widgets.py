"""The widgets driven from Python: buttons clicked, sliders moved, state and numbers checked.

Moves-left numbers are checked against plain breadth-first searches written here, not
against the tables and solvers the widgets use.
"""

from __future__ import annotations

import base64
from collections import deque
from dataclasses import dataclass

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from puzzlelab import plotting  # noqa: E402
from puzzlelab import widgets as w  # noqa: E402
from puzzlelab.errors import PuzzleError, UnsolvableError  # noqa: E402
from puzzlelab.results import Result  # noqa: E402
from puzzlelab.sliding import neighbors, solve  # noqa: E402
from puzzlelab.watersort import Level  # noqa: E402
from puzzlelab.watersort import solve as solve_watersort  # noqa: E402

PNG = b"\x89PNG\r\n\x1a\n"


def sliding_bfs(goal: tuple, shape: tuple[int, int]) -> dict:
    """Every state's distance to `goal`, by a plain dictionary BFS."""
    dist, queue = {goal: 0}, deque([goal])
    while queue:
        s = queue.popleft()
        for _, n in neighbors(s, shape):
            if n not in dist:
                dist[n] = dist[s] + 1
                queue.append(n)
    return dist


def pours_bfs(level: Level) -> int | None:
    """Fewest pours that sort `level` (None when none do), by a plain BFS over Level.pour."""
    seen, queue = {level.tubes: 0}, deque([level])
    while queue:
        lv = queue.popleft()
        if lv.is_solved():
            return seen[lv.tubes]
        for i, j in lv.legal_pours():
            nxt = lv.pour(i, j)
            if nxt.tubes not in seen:
                seen[nxt.tubes] = seen[lv.tubes] + 1
                queue.append(nxt)
    return None


def cell_of(board: w.SlidingBoard, tile: int) -> int:
    """Where `tile` is on the board now."""
    return board.state.index(tile)


# ------------------------------------------------------------------------------ steppers


@dataclass(kw_only=True)
class Walk(Result):
    """A made-up study for the stepper: a walk on the number line, one step a move."""

    def _check(self) -> bool:
        return all(
            b - a == m for a, b, m in zip(self.states, self.states[1:], self.moves, strict=False)
        )


@dataclass(kw_only=True)
class Passes(Walk):
    """The same walk whose steps are not moves (like a nonogram's deduction passes)."""

    HAS_MOVES = False


DRAWN: list = []  # (position, options) of every picture the walk's drawer made


@plotting.draws_steps(Walk, size=lambda result: (1.0 + len(result.states) / 4, 1.0))
def draw_walk(result, i, ax, **options):
    DRAWN.append((result.states[i], options))
    ax.bar([0], [result.states[i]], color=options.get("palette", {}).get("walker", "C0"))


def walk(*moves: int, cls=Walk) -> Walk:
    states = [0]
    for m in moves:
        states.append(states[-1] + m)
    return cls(method="walk", verdict="optimal", moves=list(moves), states=states)


def test_stepper_buttons_and_slider_change_the_picture():
    result = walk(1, 1, -1, 2)
    st = w.stepper(result)
    assert st.n_frames == len(result.states) == 5
    first = bytes(st.image.value)
    assert first.startswith(PNG) and st.caption.value == "start · 4 moves to go"
    st.next_button.click()
    assert st.index == 1 and bytes(st.image.value) != first
    assert st.caption.value == "move 1 of 4: 1"
    st.prev_button.click()
    st.prev_button.click()  # clamped at the start
    assert st.index == 0 and bytes(st.image.value) == first
    st.slider.value = 4
    st.next_button.click()  # clamped at the end
    assert st.index == 4 and st.caption.value == "move 4 of 4: 2"


def test_stepper_draws_with_the_registered_drawer_and_passes_the_palette():
    DRAWN.clear()
    st = w.stepper(walk(3, -1), palette={"walker": (1.0, 0.0, 0.0)})
    st.slider.value = 2
    assert [pos for pos, _ in DRAWN] == [0, 2]
    assert all(opts == {"palette": {"walker": (1.0, 0.0, 0.0)}} for _, opts in DRAWN)
    assert st.size == (1.75, 1.0)  # the study's registered size
    DRAWN.clear()
    w.stepper(walk(3)).step(1)
    assert [opts for _, opts in DRAWN] == [{}, {}]  # no palette: the drawer's own colours


def test_stepper_captions_say_step_where_steps_are_not_moves():
    result = walk(1, 1, cls=Passes)
    assert result.length is None
    assert [w.step_caption(result, i) for i in range(3)] == [
        "start · 2 steps to go",
        "step 1 of 2: 1",
        "step 2 of 2: 1",
    ]


def test_stepper_uses_the_results_own_words_for_a_move():
    @dataclass(kw_only=True)
    class Worded(Walk):
        def describe_move(self, move):
            return f"walk {move} to the right"

    assert w.step_caption(walk(2, cls=Worded), 1) == "move 1 of 1: walk 2 to the right"


def test_stepper_displays_widget_png_and_text():
    st = w.stepper(walk(1, 1))
    bundle = st._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == st.model_id
    assert base64.b64decode(bundle["image/png"]).startswith(PNG)
    assert bundle["text/plain"] == "stepper over 3 states: move 2 of 2: 1"


def test_strip_keeps_first_and_last_frames():
    assert w.strip_indices(5) == [0, 1, 2, 3, 4]
    picks = w.strip_indices(32, 8)
    assert picks[0] == 0 and picks[-1] == 31 and len(picks) == 8


def test_stepper_refuses_results_it_cannot_show():
    with pytest.raises(PuzzleError, match="no states"):
        w.stepper(Walk(method="walk", verdict="unsolvable"))
    with pytest.raises(PuzzleError, match="no figure is registered"):
        w.stepper([(1, 2, 0), (1, 0, 2)])  # bare states: which study draws them?
    with pytest.raises(PuzzleError, match="palette"):
        w.stepper(walk(1), palette="red")
    with pytest.raises(PuzzleError):
        w.stepper(walk(1), interval_ms=0)


def solved_sliding():
    return solve("4 3 _ / 5 1 6 / 7 2 _", goal="1 2 3 / 4 5 6 / 7 _ _")


def solved_watersort():
    return solve_watersort(Level.parse("RGBY YRGB BYRG GBYR - -"))


def solved_nonogram():
    from puzzlelab.nonogram import from_grid
    from puzzlelab.nonogram import solve as solve_nonogram

    picture = np.array([[1, 1, 0], [0, 1, 0], [1, 1, 1]], dtype=bool)
    return solve_nonogram(from_grid(picture), progress=False)


@pytest.mark.parametrize("make", [solved_sliding, solved_watersort, solved_nonogram])
def test_every_study_steps_through_its_solution(make):
    result = make()
    try:
        plotting.step_drawer(result)
    except PuzzleError:
        pytest.skip(f"{type(result).__module__} registers no step drawer yet (its plots.py)")
    st = w.stepper(result)
    assert st.n_frames == len(result.states)
    first = bytes(st.image.value)
    st.next_button.click()
    assert st.index == 1 and bytes(st.image.value) != first
    assert st.caption.value.startswith(("move 1 of", "step 1 of"))


# ------------------------------------------------------------------------------ sliding board


def test_sliding_board_moves_left_match_a_plain_bfs():
    dist = sliding_bfs((1, 2, 3, 4, 5, 0), (2, 3))
    board = w.SlidingBoard("0 5 4 / 3 2 1")
    assert board.moves_left == dist[board.state] == board.minimum
    rng = np.random.default_rng(0)
    for _ in range(25):
        movable = [cell_of(board, m[0]) for m, _ in neighbors(board.state, board.shape)]
        board.buttons[int(rng.choice(movable))].click()
        assert board.moves_left == dist[board.state]
        assert f"minimum moves left: {dist[board.state]}" in board.status.value or board.solved
    assert len(board.history) == 25


def test_sliding_hints_are_optimal_and_reach_the_goal():
    dist = sliding_bfs((1, 2, 3, 4, 5, 0), (2, 3))
    board = w.SlidingBoard("0 5 4 / 3 2 1")  # a 2x3 board far from the goal
    start = dist[board.state]
    for k in range(start):
        tile, _ = board.show_hint()
        assert board.buttons[cell_of(board, tile)].button_style == "warning"
        board.buttons[cell_of(board, tile)].click()
        assert dist[board.state] == start - k - 1
    assert board.solved and board.hint() is None
    assert board.status.value == f"solved in {start} moves (minimum from the start: {start})"


def test_sliding_board_refuses_illegal_clicks_and_undoes():
    board = w.SlidingBoard("1 2 3 / 4 0 5")
    assert not board.click(0)  # tile 1 is not next to the blank
    assert "tile 1 is not next to a blank" in board.status.value
    assert board.state == (1, 2, 3, 4, 0, 5) and not board.history
    assert board.click(5) and board.solved
    assert board.undo() and board.state == (1, 2, 3, 4, 0, 5)
    assert not board.undo()
    board.click(1)
    board.reset_button.click()
    assert board.state == board.start and board.history == []


def test_sliding_board_on_the_game_goal_with_its_table():
    from puzzlelab import patterns

    table = patterns.game_table()
    board = w.SlidingBoard("9B6358247", goal="789456B23", table=table)
    assert board.moves_left == table.distance(board.state)
    tile, _ = board.hint()
    board.click(cell_of(board, tile))
    assert board.moves_left == board.minimum - 1


def test_a_tile_beside_two_blanks_makes_the_hinted_move():
    board = w.SlidingBoard((1, 2, 3, 4, 0, 6, 0, 7, 5), goal="1 2 3 / 4 5 6 / 7 _ _")
    assert board.hint() == (7, "left")
    before = board.moves_left
    assert board.click(cell_of(board, 7))
    assert board.history == [(7, "left")] and board.moves_left == before - 1
    assert "could also slide up" in board.status.value


def test_a_tile_beside_two_blanks_slides_the_way_asked():
    board = w.SlidingBoard((1, 2, 3, 4, 0, 6, 0, 7, 5), goal="1 2 3 / 4 5 6 / 7 _ _")
    assert [m for m, _ in board.choices(7)] == [(7, "left"), (7, "up")]
    assert board.click(7, "up") and board.history == [(7, "up")]
    assert board.state == (1, 2, 3, 4, 7, 6, 0, 0, 5)
    assert not board.click(4, "left")  # tile 4 is to its left
    assert "cannot slide left" in board.status.value and len(board.history) == 1


def test_a_2d_array_gives_the_board_its_shape():
    strip = w.SlidingBoard(np.array([[1, 2, 3, 4, 5, 6, 7, 0, 8]]))
    assert strip.shape == (1, 9) and strip.moves_left == 1
    assert strip.click(8) and strip.solved
    square = w.SlidingBoard(np.array([[1, 2, 3], [4, 5, 6], [7, 0, 8]]))
    assert square.shape == (3, 3) and square.moves_left == 1
    with pytest.raises(PuzzleError):
        w.SlidingBoard(np.array([[1, 2, 3, 4, 5, 6, 7, 0, 8]]), shape=(3, 3))


def test_sliding_board_bad_input():
    with pytest.raises(UnsolvableError):
        w.SlidingBoard("2 1 3 / 4 5 0")
    with pytest.raises(PuzzleError, match="table"):
        w.SlidingBoard("1 2 3 / 4 0 5", table=w.SlidingBoard("1 0 / 3 2").table)
    with pytest.raises(PuzzleError):
        w.SlidingBoard("1 2 3 / 4 0 5").click(6)


# ------------------------------------------------------------------------------ water sort


def test_watersort_clicks_pour_and_count_pours_left():
    level = Level.parse("RGBY YRGB BYRG GBYR - -")
    board = w.WaterSortBoard(level)
    assert board.pours_left == pours_bfs(level)
    board.tube_buttons[0].click()
    assert board.selected == 0 and board.tube_buttons[0].button_style == "info"
    board.tube_buttons[4].click()
    assert board.history == [(0, 4)] and board.level == level.pour(0, 4)
    assert board.pours_left == pours_bfs(board.level)
    assert f"optimal pours left: {board.pours_left}" in board.status.value


def test_watersort_detects_now_unsolvable_and_undo():
    level = Level.parse("BBA CBC CAA -")  # pouring tube 1 into the empty tube dooms it
    board = w.WaterSortBoard(level)
    assert board.pours_left == pours_bfs(level) == 5
    assert board.select(1) is False and board.select(3) is True
    assert pours_bfs(board.level) is None
    assert board.verdict == "unsolvable" and board.pours_left is None
    assert "now unsolvable" in board.status.value and board.hint() is None
    board.undo_button.click()
    assert board.level == level and board.pours_left == 5


def test_watersort_hints_sort_in_the_optimal_number_of_pours():
    level = Level.parse("BBA CBC CAA -")
    board = w.WaterSortBoard(level)
    best = pours_bfs(level)
    for _ in range(best):
        board.hint_button.click()
        src, dst = board.hint()
        assert board.pour(src, dst)
    assert board.level.is_solved() and len(board.history) == best
    assert board.status.value == f"sorted in {best} pours (optimal from the start: {best})"


def test_watersort_illegal_clicks_and_budget():
    board = w.WaterSortBoard(Level.parse("BBA CBC CAA -"), max_expanded=0)
    board.select(3)
    assert board.selected is None and "empty" in board.status.value
    board.select(0)
    board.select(0)  # the same tube again: nothing picked
    assert board.selected is None and not board.history
    assert not board.pour(0, 1)  # A onto C
    assert "destination is full" in board.status.value
    assert board.verdict == "limit" and board.pours_left is None
    assert "unknown" in board.status.value
    with pytest.raises(PuzzleError):
        w.WaterSortBoard("BBA CBC CAA -")


def test_watersort_board_draws_in_the_palette_given():
    level = Level.parse("BBA CBC CAA -")
    own = {"A": (1.0, 0.0, 0.0), "B": (0.0, 1.0, 0.0), "C": (0.0, 0.0, 1.0)}
    plain = w.WaterSortBoard(level).fallback_png()
    assert w.WaterSortBoard(level, palette=own).fallback_png() != plain
    with pytest.raises(PuzzleError, match="palette"):
        w.WaterSortBoard(level, palette=["red"])


def test_watersort_stepper_draws_in_the_palette_given():
    from puzzlelab.watersort import solve

    sol = solve(Level.parse("BBA CBC CAA -"))
    own = {"A": (255, 0, 0), "B": (0, 255, 0), "C": (0, 0, 255)}
    assert w.stepper(sol, palette=own).frame(0) != w.stepper(sol).frame(0)


# ------------------------------------------------------------------------------ pool size


def test_pool_explorer_redraws_on_slider_changes():
    from puzzlelab import game, patterns

    ex = w.PoolSizeExplorer(pool=40, n_samples=100, concentration=0.0, seed=3)
    draws = game.random_openings(40, 100, rng=3)  # the game's one sampler, seeded alike
    assert ex.draw.n_distinct == len(set(draws.tolist())) <= 40
    est = patterns.estimate_pool_size(100, ex.draw.n_distinct)
    assert (ex.draw.equal.low, ex.draw.equal.high) == (est.low, est.high)
    before = bytes(ex.image.value)
    ex.n_samples.value = 400
    assert ex.draw.n_samples == 400 and bytes(ex.image.value) != before
    ex.pool.value = 60
    assert ex.draw.pool == 60 and "pool of 60" in ex.status.value
    assert sum(ex.draw.counts.values()) == 400


def test_pool_draw_bad_input():
    with pytest.raises(PuzzleError):
        w.draw_pool(0, 10)
    with pytest.raises(PuzzleError):
        w.draw_pool(10, 10.5)


# ------------------------------------------------------------------------------ properties

from conftest import examples  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

DIST_2X3 = sliding_bfs((1, 2, 3, 4, 5, 0), (2, 3))
SLIDING = w.SlidingBoard("0 5 4 / 3 2 1")
LEVEL = Level.parse("BBA CBC CAA -")
WATER = w.WaterSortBoard(LEVEL)


def act(board, action, click) -> bool:
    """Press the button named `action` (hint, undo, reset) or `click(action)`; False when the
    board refused the click with a PuzzleError."""
    if action in ("hint", "undo", "reset"):
        {"hint": board.show_hint, "undo": board.undo, "reset": board.reset}[action]()
        return True
    try:
        click(action)
    except PuzzleError:
        return False
    return True


@examples(25)
@given(st.lists(st.one_of(st.integers(-2, 7), st.sampled_from(["hint", "undo", "reset"]))))
def test_any_sliding_clicks_keep_a_legal_board_and_exact_moves_left(actions):
    SLIDING.reset()
    for action in actions:
        if not act(SLIDING, action, SLIDING.click):
            assert not 0 <= action < 6
        assert SLIDING.moves_left == DIST_2X3[SLIDING.state]
        assert len(SLIDING.history) == len(SLIDING.trail) - 1


@examples(25)
@given(st.lists(st.one_of(st.integers(-1, 4), st.sampled_from(["hint", "undo"])), max_size=12))
def test_any_tube_clicks_replay_and_report_the_bfs_optimum(actions):
    WATER.reset()
    for action in actions:
        if not act(WATER, action, WATER.select):
            assert not 0 <= action < 4
    assert WATER.level == LEVEL.play(WATER.history)[-1]
    assert WATER.pours_left == pours_bfs(WATER.level)
