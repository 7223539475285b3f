"""The game model: a seeded pool of shuffles with unequal weights, and openings drawn from it."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from puzzlelab.errors import InvalidPuzzleError, PuzzleError
from puzzlelab.game import GAME_GOAL, GAME_SHAPE, N_PICTURES, make_pool, sample_openings
from puzzlelab.sliding import distance_table, is_solvable, parse_board


def test_goal_is_the_writeups_keypad_picture():
    """Solved state 789456B23: keypad numbering, blank bottom-left."""
    assert GAME_GOAL == (7, 8, 9, 4, 5, 6, 0, 2, 3)
    assert GAME_SHAPE == (3, 3) and N_PICTURES == 6


def test_pool_patterns_are_distinct_solvable_and_in_the_band():
    """80 distinct patterns 17..28 moves from the goal, weights a probability vector."""
    pool = make_pool()
    table = distance_table(GAME_SHAPE, GAME_GOAL, cache=False, progress=False)
    assert len(pool) == 80 and len(set(pool.states)) == 80
    moves = [table.distance(s) for s in pool.states]
    assert min(moves) >= 17 and max(moves) <= 28
    assert all(is_solvable(s, GAME_GOAL, GAME_SHAPE) for s in pool.states)
    assert pool.weights.shape == (80,) and np.all(pool.weights > 0)
    assert pool.weights.sum() == pytest.approx(1.0)
    assert [parse_board(p) for p in pool.patterns] == list(pool.states)


def test_pool_is_seeded_and_unequal():
    """Same seed -> same pool; another seed -> another; weights clearly unequal."""
    a, b, c = make_pool(rng=0), make_pool(rng=0), make_pool(rng=1)
    assert a.states == b.states and np.array_equal(a.weights, b.weights)
    assert a.states != c.states
    assert a.weights.max() / a.weights.min() > 3


def test_pool_options_are_checked():
    """Too few or too many patterns for the band are refused with a message."""
    with pytest.raises(PuzzleError, match="at least one"):
        make_pool(0)
    with pytest.raises(InvalidPuzzleError, match="fewer than"):
        make_pool(10, min_moves=31, max_moves=31)  # only two states are 31 moves away
    assert len(make_pool(2, min_moves=31, max_moves=31)) == 2


def test_openings_follow_the_pool():
    """Openings use pool patterns, pictures 1..6, and frequencies that fit the weights."""
    pool = make_pool()
    df = sample_openings(pool, 4000, rng=3)
    assert list(df.columns) == ["opening", "picture", "state", "pattern"]
    assert set(df["pattern"]) <= set(pool.patterns)
    assert df["picture"].between(1, N_PICTURES).all()
    index = {p: i for i, p in enumerate(pool.patterns)}
    counts = np.bincount([index[p] for p in df["pattern"]], minlength=len(pool))
    assert stats.chisquare(counts, 4000 * pool.weights).pvalue > 1e-3
    pics = np.bincount(df["picture"] - 1, minlength=6)
    assert stats.chisquare(pics).pvalue > 1e-3


def test_openings_are_seeded_and_picture_weights_work():
    """Same seed -> same openings; picture weights shift the picture frequencies."""
    pool = make_pool()
    a, b = sample_openings(pool, 50, rng=7), sample_openings(pool, 50, rng=7)
    assert a.equals(b)
    skew = sample_openings(pool, 3000, picture_weights=[1, 0.2, 1, 1, 1, 1], rng=1)
    share = (skew["picture"] == 2).mean()
    assert 0.02 < share < 0.06  # 0.2 / 5.2 = 3.8 %


def test_bad_options_are_refused():
    """Negative counts, zero concentration and mismatched picture weights raise clearly."""
    pool = make_pool(5)
    with pytest.raises(PuzzleError, match="concentration"):
        make_pool(5, concentration=0)
    with pytest.raises(PuzzleError, match="n_openings"):
        sample_openings(pool, -1)
    with pytest.raises(InvalidPuzzleError, match="picture_weights"):
        sample_openings(pool, 10, picture_weights=[1, 1, 1])
    with pytest.raises(InvalidPuzzleError, match="picture_weights"):
        sample_openings(pool, 10, picture_weights=[0] * 6)
    assert len(sample_openings(pool, 0)) == 0


@pytest.mark.parametrize(
    "call,word",
    [
        (lambda: make_pool(5.0), "n_patterns"),
        (lambda: make_pool(5, concentration=float("nan")), "concentration"),
        (lambda: make_pool(5, rng=-1), "rng"),
        (lambda: sample_openings(make_pool(5), 2.5), "n_openings"),
        (lambda: sample_openings(make_pool(5), 3, rng=-1), "rng"),
        (
            lambda: sample_openings(make_pool(5), 3, picture_weights=[1, 1, np.nan, 1, 1, 1]),
            "weights",
        ),
        (lambda: sample_openings([1, 2], 3), "PatternPool"),
    ],
)
def test_floats_nan_and_negative_seeds_are_refused(call, word):
    """Floats were truncated and NaN weights or seed -1 gave raw numpy errors."""
    with pytest.raises(PuzzleError, match=word):
        call()


def test_random_openings_is_the_one_pool_sampler():
    """An int pool draws Dirichlet weights then openings from one stream; a PatternPool uses
    its own weights; sample_openings shows the same patterns as random_openings."""
    from puzzlelab.game import random_openings

    gen = np.random.default_rng(3)
    weights = gen.dirichlet(np.full(30, 5.0))
    assert (
        random_openings(30, 50, concentration=5.0, rng=3).tolist()
        == gen.choice(30, size=50, p=weights).tolist()
    )
    assert (
        random_openings(30, 50, rng=4).tolist()
        == np.random.default_rng(4).choice(30, size=50).tolist()
    )
    pool = make_pool(10)
    idx = random_openings(pool, 40, rng=5)
    assert [pool.patterns[i] for i in idx] == sample_openings(pool, 40, rng=5)["pattern"].tolist()
    a = random_openings(30, 20, rng=np.random.default_rng(6))
    assert a.tolist() == random_openings(30, 20, rng=6).tolist()


@pytest.mark.parametrize(
    "args,kwargs,word",
    [
        ((0, 5), {}, "pool"),
        ((10**8, 5), {}, "more than"),
        ((5, -1), {}, "n_openings"),
        ((5, 5), {"concentration": -1.0}, "concentration"),
        ((5, 5), {"rng": "x"}, "rng"),
    ],
)
def test_random_openings_refuses_odd_arguments(args, kwargs, word):
    from puzzlelab.game import random_openings

    with pytest.raises(PuzzleError, match=word):
        random_openings(*args, **kwargs)
    with pytest.raises(InvalidPuzzleError, match="own weights"):
        random_openings(make_pool(5), 5, concentration=2.0)


def test_the_synthetic_game_is_built_like_the_writeups():
    """Pool size and move band of the synthetic game are the write-up's published ones."""
    from puzzlelab.game import MAX_MOVES, MIN_MOVES, POOL_SIZE
    from puzzlelab.patterns import data

    assert POOL_SIZE == data.SECOND_SURVEY.distinct
    assert (MIN_MOVES, MAX_MOVES) == data.MOVE_RANGE
