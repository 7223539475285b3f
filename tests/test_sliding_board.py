"""Boards: parsing, printing, moves and the parity rule (checked against brute force)."""

from __future__ import annotations

import itertools
import math
from collections import deque

import numpy as np
import pytest
from conftest import examples
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError, UnsolvableError
from puzzlelab.sliding import (
    distance_table,
    format_board,
    is_solution,
    is_solvable,
    move_between,
    neighbors,
    parse_board,
    require_solvable,
    solve,
    solved_state,
    to_pattern,
)
from puzzlelab.sliding.pdb import pattern_database


def test_parse_the_write_ups_forms():
    assert parse_board("789456B23") == (7, 8, 9, 4, 5, 6, 0, 2, 3)
    assert parse_board("1 2 3 / 4 5 6 / 7 _ _") == (1, 2, 3, 4, 5, 6, 7, 0, 0)
    assert parse_board("4 3 _\n5 1 6\n7 2 _") == (4, 3, 0, 5, 1, 6, 7, 2, 0)
    assert parse_board([1, 2, 3, 0], (2, 2)) == (1, 2, 3, 0)
    assert parse_board("1 2 3 0 / 4 5 6 7", None) == (1, 2, 3, 0, 4, 5, 6, 7)
    assert parse_board("10 1 2 3 4 5 6 7 8 9 11 0", (3, 4))[0] == 10


@pytest.mark.parametrize(
    ("text", "shape", "fragment"),
    [
        ("", None, "empty board"),
        ("78945XB23", None, "unknown symbol 'X' at position 6"),
        ("7894561233", None, "cannot tell the shape of 10 tiles"),
        ("12345678", (3, 3), "8 tiles do not fill a 3x3 board"),
        ("1 2 3 / 4 5 / 6 7 _", None, "rows have different lengths"),
        ("123456789", None, "no blank"),
        ("1 2 3 / 4 5 6 / 7 7 _", None, "tile 7 appears more than once"),
    ],
)
def test_bad_boards_say_what_is_wrong(text, shape, fragment):
    with pytest.raises(PuzzleError, match=fragment):
        parse_board(text, shape)


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        parse_board("1 2")
    assert issubclass(ParseError, ValueError) and issubclass(UnsolvableError, ValueError)


def test_tiles_must_match_the_goal():
    goal = parse_board("789456B23")
    with pytest.raises(InvalidPuzzleError, match="not in the goal: 1; missing from the board: 9"):
        is_solvable(parse_board("781456B23"), goal, (3, 3))


@examples(60)
@given(st.integers(1, 4), st.integers(2, 4), st.randoms(use_true_random=False))
def test_format_then_parse_round_trips(rows, cols, rnd):
    state = list(range(rows * cols))
    rnd.shuffle(state)
    text = format_board(tuple(state), (rows, cols)).replace("\n", " / ")
    assert parse_board(text, (rows, cols)) == tuple(state)


def reachable(goal, shape):
    """Every state that can reach `goal`, by brute-force BFS."""
    seen, todo = {goal}, deque([goal])
    while todo:
        for _, t in neighbors(todo.popleft(), shape):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


@pytest.mark.parametrize(
    ("shape", "goal"),
    [
        ((2, 3), (1, 2, 3, 4, 5, 0)),
        ((3, 2), (0, 1, 2, 3, 4, 5)),
        ((2, 4), (1, 2, 0, 3, 4, 5, 6, 7)),  # even width, blank in the middle
        ((2, 2), (0, 0, 1, 2)),  # two blanks
        ((2, 3), (1, 0, 2, 0, 3, 4)),
        ((1, 4), (1, 0, 2, 3)),  # a strip: tiles never pass each other
        ((1, 4), (0, 1, 0, 2)),
    ],
)
def test_parity_rule_matches_brute_force(shape, goal):
    ok = reachable(goal, shape)
    for perm in set(itertools.permutations(goal)):
        assert is_solvable(perm, goal, shape) == (perm in ok), perm


def test_require_solvable_explains():
    goal = solved_state((3, 3))
    with pytest.raises(UnsolvableError, match="different parity classes"):
        require_solvable((2, 1, 3, 4, 5, 6, 7, 8, 0), goal, (3, 3))


@examples(80)
@given(st.integers(2, 4), st.integers(2, 4), st.integers(1, 2), st.randoms(use_true_random=False))
def test_every_move_slides_one_tile_into_an_adjacent_blank(rows, cols, blanks, rnd):
    n = rows * cols
    state = [0] * blanks + list(range(1, n - blanks + 1))
    rnd.shuffle(state)
    state = tuple(state)
    for (tile, direction), nxt in neighbors(state, (rows, cols)):
        changed = [i for i in range(n) if state[i] != nxt[i]]
        assert len(changed) == 2
        a, b = changed  # a tile cell and a blank cell, adjacent
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        assert abs(ra - rb) + abs(ca - cb) == 1
        assert sorted([state[a], state[b]]) == [0, tile] and sorted(nxt) == sorted(state)
        src = state.index(tile)
        dr, dc = divmod(nxt.index(tile), cols)[0] - src // cols, nxt.index(tile) % cols - src % cols
        assert {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}[
            dr, dc
        ] == direction
        assert move_between(state, nxt, (rows, cols)) == (tile, direction)


def test_pattern_and_solved_states():
    assert to_pattern(parse_board("789456B23")) == "789456B23"
    assert solved_state((2, 3)) == (1, 2, 3, 4, 5, 0)
    assert solved_state((2, 3), "first") == (0, 1, 2, 3, 4, 5)
    assert solved_state((2, 2), 1) == (1, 0, 2, 3)
    with pytest.raises(InvalidPuzzleError):
        solved_state((2, 2), 9)


def test_is_solvable_equal_boards_and_shape_checks():
    assert is_solvable((1, 0, 2, 0), (1, 0, 2, 0), (2, 2))
    assert is_solvable((0, 1, 2, 0, 3, 0), (0, 1, 2, 0, 3, 0), (2, 3))
    with pytest.raises(InvalidPuzzleError, match="more than once"):
        is_solvable((1, 1, 2, 0), (1, 1, 2, 0), (2, 2))
    with pytest.raises(ParseError, match="3x3"):
        is_solvable((1, 2, 3, 0), (1, 2, 3, 0), (3, 3))
    with pytest.raises(InvalidPuzzleError, match="no blank"):
        is_solvable((1, 2, 3, 4), (1, 2, 3, 4), (2, 2))


@pytest.mark.parametrize(
    "call",
    [
        lambda: parse_board("12345678²"),
        lambda: parse_board([1, 2, math.inf, 0]),
        lambda: parse_board([1, 2, math.nan, 0]),
        lambda: parse_board([1, 2, 3.0, 0]),
        lambda: parse_board(np.array([1.0, 2, 3, 0])),
        lambda: parse_board("1230", shape=("a", 2)),
        lambda: parse_board("1230", shape=(4,)),
        lambda: parse_board("1230", shape=(2.0, 2)),
        lambda: parse_board([[1, 2], [3]]),
        lambda: parse_board(None),
        lambda: is_solvable((1, 2, 3, 4), (1, 2, 3, 4), (2, 2)),
        lambda: format_board(()),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", heuristic=None),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", algorithm="weighted_astar", weight="2"),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", heuristic="pdbfoo"),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", heuristic="pdb:4-x"),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", max_expanded=1.5),
        lambda: solve("1 2 3 / 4 5 6 / 7 _ 8", max_seconds=math.nan),
        lambda: distance_table((2.0, 3)),
        lambda: distance_table((2, 3), threads=0),
        lambda: pattern_database((3, 3), solved_state((3, 3)), "0-8", cache=False),
    ],
)
def test_bad_input_gives_a_puzzle_error(call):
    with pytest.raises(PuzzleError):
        call()


def test_float_tiles_are_refused_not_truncated():
    with pytest.raises(ParseError, match="whole number"):
        parse_board([1.7, 2, 3, 0])
    assert parse_board([np.int64(1), np.int32(2), 3, 0]) == (1, 2, 3, 0)


def test_is_solution_never_raises_on_bad_moves():
    start = parse_board("1 2 3 / 4 5 6 / 7 _ 8")
    assert is_solution(start, [(8, "left")])
    bad = [[(8, "right")], [(9, "left")], [(0, "up")], [("8", "left")], [(8,)], None, 42]
    bad += [[(8, "sideways")], [[8, "left", 1]], [(7, "right"), (7, "left")], [(8.0, "left")]]
    for moves in bad:
        assert is_solution(start, moves) is False, moves
    assert not is_solution(parse_board("1 2 _ / 3 4 5"), [(3, "left")], shape=(2, 3))  # no wrap


def test_random_board_is_seeded_uniform_over_the_reachable_class():
    from collections import Counter

    from puzzlelab.sliding import random_board, reachable_states

    assert random_board((3, 3), rng=5) == random_board((3, 3), rng=np.random.default_rng(5))
    draws = Counter(random_board((2, 3), rng=rng) for rng in range(3000))
    goal = solved_state((2, 3))
    assert all(is_solvable(b, goal, (2, 3)) for b in draws)
    assert len(draws) > 300 and max(draws.values()) < 30  # 360 boards, about 8 draws each
    strip = random_board((1, 6), (1, 0, 2, 0, 3, 4), rng=1)
    assert [t for t in strip if t] == [1, 2, 3, 4] and strip.count(0) == 2
    assert (
        reachable_states((3, 3)) == 181_440 and reachable_states((1, 6), (1, 0, 2, 0, 3, 4)) == 15
    )


def test_the_slide_rule_is_shared_by_neighbors_and_apply_moves():
    from puzzlelab.sliding import apply_moves, slide

    board, shape = parse_board("1 2 3 / 4 _ 5"), (2, 3)
    for move, nxt in neighbors(board, shape):
        assert slide(board, move, shape) == nxt == apply_moves(board, [move], shape)
    assert slide(board, (3, "down"), shape) is None  # 3 is not beside the blank
    assert slide(board, (5, "right"), shape) is None and apply_moves(board, 7, shape) is None
