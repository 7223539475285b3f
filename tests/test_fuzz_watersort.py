"""Fuzz every water-sort entry point: odd text, JSON-ish dicts, numbers, pours and files.

Each call must return a correct result or raise a `PuzzleError` (never a TypeError,
IndexError, KeyError, UnicodeDecodeError, hang or wrong answer), within a per-call deadline.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
from conftest import examples, fuzz_call
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab import watersort
from puzzlelab.results import STATS_KEYS, VERDICTS
from puzzlelab.watersort import (
    METHODS,
    Level,
    is_solution,
    load_levels,
    lower_bound,
    solve,
    writeup_estimate,
)
from puzzlelab.watersort.generate import random_deal, reverse_play, sorted_level

DEADLINE = 10.0  # seconds per call: generous on a loaded machine, far below a hang
FUZZ = examples(60)

numbers = st.one_of(
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, 2, 4, -1, 2.0, math.nan, math.inf, -math.inf, 10**18, True]),
    st.integers(1, 6).map(np.int64),
    st.none(),
    st.text(max_size=3),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=4))
json_ish = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4), max_leaves=12)
tubes = st.lists(
    st.one_of(st.lists(st.sampled_from(["A", "B", "C", ""]), max_size=5), json_ish), max_size=6
)
dicts = st.fixed_dictionaries(
    {},
    optional={"capacity": numbers, "tubes": st.one_of(tubes, json_ish), "name": scalars},
)
pours = st.one_of(
    json_ish,
    st.lists(st.tuples(st.integers(-2, 6), st.integers(-2, 6)), max_size=8),
    st.lists(st.tuples(numbers, numbers), max_size=3),
)


call = fuzz_call(DEADLINE)


def check_level(level: Level | None, allow_unbalanced: bool = False) -> None:
    """A level that was accepted obeys the rules it was checked against."""
    if level is None:
        return
    assert isinstance(level.capacity, int) and level.capacity >= 1
    assert all(len(t) <= level.capacity for t in level.tubes)
    assert all(isinstance(c, str) and c.strip() for t in level.tubes for c in t)
    assert allow_unbalanced or level.is_balanced


def check_solution(level: Level, sol) -> None:
    """A solver's answer speaks the protocol and, when it has one, is a legal solution."""
    assert sol.verdict in VERDICTS and tuple(sol.stats()) == STATS_KEYS
    if sol.solved:
        assert is_solution(level, sol.moves) and sol.length == len(sol.moves)
        assert sol.states[-1].is_solved()
    else:
        assert sol.length is None and sol.moves == []


@FUZZ
@given(st.text(max_size=40), numbers, st.one_of(st.none(), st.text(max_size=5), json_ish))
def test_parse_random_text(text, capacity, colors):
    """Any text, capacity and color list: a valid level or a PuzzleError."""
    check_level(call(Level.parse, text, capacity=capacity))
    check_level(call(Level.parse, text, colors=colors))
    check_level(call(Level.parse, text, capacity=capacity, allow_unbalanced=True), True)


@FUZZ
@given(st.one_of(dicts, json_ish), st.booleans())
def test_from_dict_random_dicts(d, allow_unbalanced):
    """JSON-ish dicts (and non-dicts): a valid level or a PuzzleError."""
    check_level(call(Level.from_dict, d, allow_unbalanced), allow_unbalanced)


@FUZZ
@given(tubes, numbers)
def test_make_random_tubes_and_capacities(tube_list, capacity):
    """Level.make with odd tubes and capacities (NaN, inf, negative, huge, float, np.int64)."""
    check_level(call(Level.make, tube_list, capacity, allow_unbalanced=True), True)


@FUZZ
@given(st.integers(0, 3), pours)
def test_pours_against_is_solution_and_play(seed, moves):
    """is_solution is a bool for any pours; play raises only PuzzleErrors."""
    level = reverse_play(3, 6, rng=seed)
    assert call(is_solution, level, moves) in (True, False)  # never raises, within DEADLINE
    states = call(level.play, moves)
    assert states is None or states[0] == level


@examples(25)
@given(
    st.integers(1, 7),
    st.integers(0, 2),
    st.integers(0, 10**6),
    st.sampled_from(METHODS),
    st.one_of(st.none(), st.integers(0, 300), numbers),
)
def test_solve_with_small_budgets(n_colors, n_empty, seed, method, max_expanded):
    """Every method on random deals, with odd or small budgets: a correct result or PuzzleError."""
    level = random_deal(n_colors, n_empty, 4, rng=seed)
    sol = call(solve, level, method, max_expanded=max_expanded, max_seconds=1.0)
    if sol is not None:
        check_solution(level, sol)
        assert lower_bound(level) >= 0 and writeup_estimate(level) >= 0


@FUZZ
@given(numbers, numbers, numbers, st.one_of(numbers, st.integers(0, 10)))
def test_generators_with_odd_numbers(n_colors, n_empty, capacity, seed):
    """random_deal / sorted_level with odd sizes and seeds: a balanced level or a PuzzleError."""
    check_level(call(random_deal, n_colors, n_empty, capacity, seed))
    check_level(call(sorted_level, n_colors, n_empty, capacity))


@FUZZ
@given(numbers, numbers, st.text(max_size=8))
def test_solve_refuses_odd_arguments(max_expanded, max_seconds, method):
    """Odd budgets and method names are PuzzleErrors (a solved level keeps the search short)."""
    level = sorted_level(2)
    sol = call(solve, level, method, max_expanded=max_expanded, max_seconds=max_seconds)
    if sol is not None:
        check_solution(level, sol)
    assert call(solve, "AB BA -") is None  # not a Level


@examples(30)
@given(st.binary(max_size=60) | st.text(max_size=60).map(str.encode))
def test_level_files_with_random_bytes(tmp_path_factory, raw):
    """Random bytes as a level file: levels or a PuzzleError (binary, non-UTF-8, bad JSON...)."""
    path = tmp_path_factory.mktemp("fuzz") / "levels.json"
    path.write_bytes(raw)
    got = call(load_levels, path)
    for level in got or []:
        check_level(level)


# ---- every exported name ----------------------------------------------------------------------
SCREENSHOT = {"Reading", "read_screenshot", "draw_reading"}  # fuzzed in test_fuzz_screenshot.py
TYPES = {"Color", "Pour", "Tube"}  # type names, not functions
EXPORTED = sorted(
    name
    for name in watersort.__all__
    if name not in SCREENSHOT | TYPES and callable(getattr(watersort, name))
)
odd = st.sampled_from(
    [None, 0, 1, 3, -1, 2.5, math.nan, 10**30, True, "", "x", "AB BA -", b"AB", [], [[1]],
     [["A", "A"], 5], {"capacity": 2}, {"a": [[[]]]}, np.array([[1, 2]]), object(),
     Level.parse("AB BA -", capacity=2), ((0, 1),)]
)  # fmt: skip


def arguments(fn, values: list) -> tuple[list, dict]:
    """`values` spread over the arguments `fn` requires (positional, then keyword-only)."""
    params = [p for p in inspect.signature(fn).parameters.values() if p.default is p.empty]
    positional = [p for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    keywords = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    values = values * 2
    return values[: len(positional)], dict(zip(keywords, values[len(positional) :], strict=False))


def test_every_exported_name_is_fuzzed():
    """The list comes from __all__, so a new export is fuzzed without anyone remembering to."""
    assert {"lower_bound", "solve", "load_levels", "Level", "same_up_to_renaming"} <= set(EXPORTED)


@examples(200)
@given(st.sampled_from(EXPORTED), st.lists(odd, min_size=3, max_size=3))
def test_exported_names_on_odd_input(name, values):
    """Each exported name on wrong types or mismatched inputs: a result or a PuzzleError."""
    fn = getattr(watersort, name)
    args, kwargs = arguments(fn, values)
    call(fn, *args, **kwargs)
