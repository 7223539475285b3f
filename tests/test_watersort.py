"""Water sort: parser, pour rule, bound, solvers (against the shared corpus and BFS), generator."""

from __future__ import annotations

import json

import matplotlib.pyplot as plt
import numpy as np
import pytest
from conftest import require_shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError
from puzzlelab.results import STATS_KEYS, Result
from puzzlelab.search import astar, bfs
from puzzlelab.watersort import (
    METHODS,
    Level,
    WaterSortProblem,
    is_solution,
    load_levels,
    lower_bound,
    solve,
    top_run,
    writeup_estimate,
)
from puzzlelab.watersort.bounds import tubes_bound, tubes_estimate
from puzzlelab.watersort.generate import (
    level_with_optimum,
    random_deal,
    reverse_play,
    sorted_level,
    unpour,
    unpours,
)
from puzzlelab.watersort.render import draw_board
from puzzlelab.watersort.solvers import canonical, children_reference, encode, expand
from puzzlelab.watersort.study import load_corpus
from puzzlelab.watersort.writeup import (
    writeup_actions,
    writeup_key,
    writeup_score,
    writeup_step,
)


# ---- the shared corpus ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    """The 86 levels of ../shared/corpora/watersort/levels.json."""
    path = require_shared("corpora", "watersort", "levels.json")
    return json.loads(path.read_text())["levels"]


def test_corpus_optima_and_proofs(corpus):
    """Every known optimum is matched exactly; the unsolvable level is proven unsolvable."""
    assert len(corpus) == 86
    for entry in corpus:
        level = Level.from_dict(entry)
        sol = solve(level, "optimal")
        if entry["solvable"]:
            assert sol.verdict == "optimal", entry["name"]
            assert sol.length == entry["optimal_pours"], entry["name"]
            assert is_solution(level, sol.pours), entry["name"]
            assert sol.bound <= sol.length
        else:
            assert sol.verdict == "unsolvable", entry["name"]
            assert sol.pours == []


def test_ito_example(corpus):
    """Ito et al.'s capacity-3 level: 5,887 reachable positions and no goal; 24 pours with 3."""
    by_name = {e["name"]: Level.from_dict(e) for e in corpus}
    two = solve(by_name["ito-fig10a-h3-n9-k2"])
    assert two.verdict == "unsolvable"
    assert two.expanded == 5887  # the whole reachable space, as SOURCES.md reports
    three = solve(by_name["ito-fig10a-h3-n9-k3"])
    assert (three.verdict, three.length) == ("optimal", 24)


def test_writeup_baseline_on_corpus(corpus):
    """The write-up's A* returns legal solutions, never shorter than the optimum."""
    for entry in corpus[:41:4]:
        level = Level.from_dict(entry)
        sol = solve(level, "writeup", max_expanded=20000)
        assert sol.verdict == "feasible", entry["name"]
        assert is_solution(level, sol.pours)
        assert sol.length >= entry["optimal_pours"]


# ---- parsing and validation -------------------------------------------------------------------
def test_parse_and_from_dict_agree():
    """The text form and the corpus schema give the same level; to_text round-trips."""
    a = Level.parse("RGB GBR BRG - -")
    b = Level.from_dict({"capacity": 3, "tubes": [list("RGB"), list("GBR"), list("BRG"), [], []]})
    assert a == b and a.capacity == 3 and a.n_empty == 2 and a.n_colors == 3
    assert Level.parse(a.to_text()) == a
    named = Level.parse("red,blue blue,red -", capacity=2)
    assert named.tubes[0] == ("red", "blue") and Level.parse(named.to_text(), capacity=2) == named


@pytest.mark.parametrize(
    ("text", "kwargs", "error", "words"),
    [
        ("RGBYR YRGB BYRG GBYR - -", {"capacity": 4}, InvalidPuzzleError, "tube 0 holds 5"),
        ("RRR GGGG -", {"capacity": 4}, InvalidPuzzleError, "color 'R' occurs 3"),
        ("RR? GG -", {}, ParseError, "unknown symbol '?'"),
        ("RRX GGG -", {"colors": "RG"}, ParseError, "symbol 'X'"),
        ("RRR GG -", {}, ParseError, "cannot infer the capacity"),
        ("   ", {}, ParseError, "no tubes"),
    ],
)
def test_bad_text_is_explained(text, kwargs, error, words):
    """Overfull tubes, unbalanced colors and unknown symbols raise a clear PuzzleError."""
    with pytest.raises(error, match=words.replace("?", r"\?")):
        Level.parse(text, **kwargs)


def test_bad_dicts_and_unbalanced():
    """Schema errors name what is missing; unbalanced levels load on request, never solve."""
    with pytest.raises(ParseError, match="capacity"):
        Level.from_dict({"tubes": [[]]})
    with pytest.raises(InvalidPuzzleError, match="tube 1"):
        Level.from_dict({"capacity": 2, "tubes": [["a"], "ab"]})
    level = Level.parse("RRR GGGG -", capacity=4, allow_unbalanced=True)
    sol = solve(level)
    assert sol.verdict == "unsolvable" and "R" in sol.note


def test_illegal_pours_raise():
    """Pours onto another color, from an empty tube or onto a full tube are refused."""
    level = Level.parse("RG GR RG GR - -")
    for i, j, words in [(0, 1, "top colors differ"), (4, 0, "source is empty"), (0, 0, "differ")]:
        with pytest.raises(InvalidPuzzleError, match=words):
            level.pour(i, j)
    full = Level.parse("RRG G -", capacity=3, allow_unbalanced=True)
    with pytest.raises(PuzzleError, match="destination is full"):
        full.pour(1, 0)
    assert not is_solution(level, [(0, 1)])


# ---- the pour rule (property tests) -----------------------------------------------------------
@st.composite
def levels(draw, max_colors: int = 4) -> Level:
    """Random balanced levels: shuffled units dealt into tubes of random heights."""
    n_colors = draw(st.integers(1, max_colors))
    cap = draw(st.integers(2, 4))
    n_empty = draw(st.integers(1, 2))
    units = draw(st.permutations([chr(65 + c) for c in range(n_colors) for _ in range(cap)]))
    tubes, k = [], 0
    for _ in range(n_colors):
        take = draw(st.integers(0, cap)) if k < len(units) else 0
        tubes.append(tuple(units[k : k + take]))
        k += take
    while k < len(units):  # put the rest wherever there is room
        for t in range(len(tubes)):
            room = min(cap - len(tubes[t]), len(units) - k)
            tubes[t] += tuple(units[k : k + room])
            k += room
    return Level(cap, tuple(tubes) + ((),) * n_empty)


@given(levels())
def test_text_round_trip(level):
    """to_text and parse are inverse."""
    assert Level.parse(level.to_text(), capacity=level.capacity) == level


@given(st.text(alphabet="ABC- ,?x\n", max_size=30), st.none() | st.integers(-1, 5))
def test_parser_never_crashes(text, capacity):
    """Any text either parses to a valid level or raises a PuzzleError (nothing else)."""
    try:
        level = Level.parse(text, capacity=capacity)
    except PuzzleError:
        return
    assert all(len(t) <= level.capacity for t in level.tubes) and level.is_balanced


@given(levels())
def test_pour_rule(level):
    """A pour moves min(top run, free space) of one color and conserves every color."""
    for i, j in level.legal_pours():
        after = level.pour(i, j)
        src, dst = level.tubes[i], level.tubes[j]
        k = min(top_run(src), level.capacity - len(dst))
        assert k > 0 and (not dst or dst[-1] == src[-1])
        assert after.tubes[i] == src[: len(src) - k]
        assert after.tubes[j] == dst + (src[-1],) * k
        assert after.counts() == level.counts()
    n = level.n_tubes
    illegal = {(i, j) for i in range(n) for j in range(n)} - set(level.legal_pours())
    for i, j in illegal:
        with pytest.raises(InvalidPuzzleError):
            level.pour(i, j)


@given(levels())
def test_unpours_invert_pours(level):
    """Every pour can be undone by one of `unpours`, and every un-pour by a pour."""
    for i, j in level.legal_pours():
        after = level.pour(i, j)
        k = min(top_run(level.tubes[i]), level.capacity - len(level.tubes[j]))
        assert (j, i, k) in unpours(after)
        assert unpour(after, j, i, k) == level
    for j, i, k in unpours(level):
        before = unpour(level, j, i, k)
        assert before.pour(i, j) == level


@given(levels())
def test_fast_successors_match_reference(level):
    """The pruned successor function keeps every distinct successor and its bound is exact."""
    tubes, _ = encode(level)
    state = canonical(tubes)
    problem = WaterSortProblem(level)
    assert problem.h(state) == lower_bound(level)  # fast bound == the obvious one
    quads = problem.successors(state, problem.h(state))
    assert all(a == c and cost == 1 for a, c, cost, _ in quads)
    assert {c for _, c, _, _ in quads} - {state} == children_reference(state, level.capacity)
    assert len({c for _, c, _, _ in quads}) == len(quads)  # no successor twice
    assert expand(state, level.capacity) == [q[1] for q in quads]
    for _, child, _, h in quads:
        assert h == tubes_bound(child, level.capacity)  # the kernel's h == the definition
        assert h == problem.h(child)
        assert problem.h(state) <= h + 1  # consistency


# ---- bound and solvers against brute force ----------------------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels(max_colors=4))
def test_optimal_matches_bfs_and_bound_is_admissible(level):
    """On small levels, A* finds the BFS optimum (or both prove none) and h never overshoots."""
    truth = bfs(WaterSortProblem(level), max_expanded=200_000)
    assert truth.verdict in ("optimal", "unsolvable")
    sol = solve(level, "optimal")
    if truth.verdict == "unsolvable":
        assert sol.verdict == "unsolvable"
        return
    assert (sol.verdict, sol.length) == ("optimal", truth.length)
    assert is_solution(level, sol.pours)
    assert lower_bound(level) <= truth.length
    for k, state in enumerate(truth.states):  # the bound along an optimal path
        assert WaterSortProblem(level).h(state) <= truth.length - k


def test_every_method_on_random_deals():
    """All methods return legal solutions; the optimum is never longer than any other."""
    for seed in range(6):
        level = random_deal(6, 2, 4, seed)
        best = solve(level, "optimal")
        generic = astar(WaterSortProblem(level))
        assert generic.length == best.length  # the generic A* agrees
        for method in ("writeup", "dfs", "greedy", "weighted"):
            sol = solve(level, method, max_expanded=50_000)
            if best.solved and sol.solved:
                assert is_solution(level, sol.pours) and sol.length >= best.length
            if not best.solved:
                assert not sol.solved


def test_bounds_on_known_positions():
    """Both estimates are 0 at the goal; the write-up's overestimates a one-pour level."""
    done = sorted_level(3)
    assert lower_bound(done) == 0 and writeup_estimate(done) == 0
    one = Level.parse("AAA BBBB A CCCC -", capacity=4)
    assert solve(one).length == 1 and lower_bound(one) == 1
    assert writeup_estimate(one) == 2  # two unsorted tubes: more than the one pour needed
    assert solve(done).length == 0


def test_solve_rejects_unknown_method():
    """A typo in the method name is an error, not a silent default."""
    with pytest.raises(ValueError, match="unknown method"):
        solve(sorted_level(2), "astar")


def test_limit_verdict():
    """A search stopped by max_expanded says so instead of claiming unsolvability."""
    sol = solve(random_deal(10, 2, 4, 1), "optimal", max_expanded=3)
    assert sol.verdict == "limit" and not sol.solved


# ---- the write-up's quirks, kept in the baseline ----------------------------------------------
def test_writeup_move_generator_quirks():
    """Only the first empty tube is a target, and [a, a, b] may not pour its b into it."""
    board = ((0, 0, 1), (1, 1, 1, 0), (), ())
    actions = writeup_actions(board, 4)
    assert (0, 2) not in actions and (1, 2) in actions
    assert all(dst != 3 for _, dst in actions)
    # key collision with 11+ colors: "1","0" and "10" print the same
    assert writeup_key(((1, 0), (10,)), 2) == "10" + "10-1"
    assert writeup_key(((10,), (1, 0)), 2) == "10-1" + "10"


# ---- generator ----------------------------------------------------------------------------------
def test_random_deal_matches_write_up():
    """n_colors full tubes holding each color `capacity` times, then the empty tubes."""
    level = random_deal(12, 2, 4, seed=5)
    assert level.n_tubes == 14 and level.n_empty == 2 and level.n_colors == 12
    assert all(len(t) == 4 for t in level.tubes[:12])
    assert set(level.counts().values()) == {4}
    assert random_deal(12, 2, 4, seed=5) == level != random_deal(12, 2, 4, seed=6)


def test_reverse_play_levels_are_solvable_with_exact_optimum():
    """Reverse play gives solvable levels; level_with_optimum hits its target (checked by BFS)."""
    for seed in range(4):
        level = reverse_play(4, 12, seed=seed)
        assert level.is_balanced and solve(level).solved
    for target in (3, 6, 9):
        level = level_with_optimum(target, 4, seed=target)
        assert bfs(WaterSortProblem(level)).length == target


# ---- each rule once: the write-up's baseline and the kernels against the one definition ------
@given(levels())
def test_writeup_pieces_follow_the_one_rule_and_estimate(level):
    """The write-up's moves are legal pours of the rule, its score is the one estimate + steps."""
    index = {c: k for k, c in enumerate(level.colors)}
    board = tuple(tuple(index[c] for c in t) for t in level.tubes)
    assert writeup_score(board, level.capacity, 7) == writeup_estimate(level) + 7
    assert tubes_estimate(level.tubes, level.capacity) == writeup_estimate(level)
    for src, dst in writeup_actions(board, level.capacity):
        after = writeup_step(board, src, dst, level.capacity)
        want = level.pour(src, dst)  # raises if the write-up's move broke the rule
        assert after == tuple(tuple(index[c] for c in t) for t in want.tubes)


# ---- the result protocol ----------------------------------------------------------------------
def test_solution_speaks_the_result_protocol():
    """Solution is a results.Result: states are Levels, stats() has exactly STATS_KEYS."""
    level = random_deal(5, 2, 4, seed=3)
    sol = solve(level)
    assert isinstance(sol, Result) and sol.verdict == "optimal"
    assert tuple(sol.stats()) == STATS_KEYS
    assert set(sol.details()) == {"level", "bound", "note"}
    assert sol.states[0] == level and sol.states[-1].is_solved()
    assert len(sol.states) == len(sol.moves) + 1 == sol.length + 1
    assert sol.pours is sol.moves and sol.is_valid()
    stopped = solve(level, max_expanded=1)
    assert stopped.verdict == "limit" and stopped.length is None and stopped.states == []
    assert "max_expanded=1" in stopped.note


# ---- budgets: the same meaning for every method (issue 10, item 13) ---------------------------
@pytest.mark.parametrize("method", METHODS)
def test_zero_budget_stops_at_once(method):
    """max_expanded=0 means stop at once, for every method including the write-up's."""
    sol = solve(random_deal(8, 2, 4, seed=1), method, max_expanded=0)
    assert (sol.verdict, sol.expanded, sol.length) == ("limit", 0, None)


def test_writeup_on_a_big_deal_respects_the_budget():
    """The write-up's A* on a 20-color deal stops when its budget runs out (it ran minutes)."""
    level = random_deal(20, 2, 4, seed=0)
    by_nodes = solve(level, "writeup", max_expanded=300)
    assert (by_nodes.verdict, by_nodes.expanded) == ("limit", 300)
    assert "max_expanded=300" in by_nodes.note
    by_time = solve(level, "writeup", max_seconds=0.5)  # no node limit: only the clock stops it
    assert by_time.verdict == "limit" and "max_seconds=0.5" in by_time.note


def test_old_method_name_is_refused_with_a_hint():
    """'seed' read like a random seed; it is now 'writeup' and the error says so."""
    with pytest.raises(PuzzleError, match="writeup"):
        solve(sorted_level(2), "seed")
    for bad in (dict(max_expanded=-1), dict(max_expanded=1.5), dict(max_seconds=float("nan"))):
        with pytest.raises(PuzzleError):
            solve(sorted_level(2), **bad)


# ---- odd input gives PuzzleError (issue 10) ---------------------------------------------------
def test_numpy_capacity_and_bad_capacities():
    """np.int64 capacity works; floats, NaN, bools, strings and 0 are refused clearly."""
    level = Level.make([["a"] * 4, []], np.int64(4))
    assert level.capacity == 4 and type(level.capacity) is int
    assert Level.from_dict({"capacity": np.int32(2), "tubes": [["a", "a"]]}).capacity == 2
    for bad in (4.0, float("nan"), float("inf"), True, "4", 0, -3, None):
        with pytest.raises(InvalidPuzzleError, match="capacity"):
            Level.make([["a"] * 4, []], bad)


@pytest.mark.parametrize("tube", [None, {"a": 1}, 5, "ab", {"a"}])
def test_from_dict_refuses_odd_tubes(tube):
    """A None, dict, number, string or set tube is a PuzzleError naming the tube."""
    with pytest.raises(PuzzleError, match="tube 1"):
        Level.from_dict({"capacity": 2, "tubes": [["a", "a"], tube]})


@pytest.mark.parametrize(
    "pours",
    [[(0, "x")], [(0,)], [(0, 1, 2)], [None], [(1.0, 0)], [(True, 1)], [(0, 99)], 5, "01", None],
)
def test_is_solution_never_raises_on_bad_pours(pours):
    """Malformed pours give False, never a TypeError or IndexError."""
    level = Level.parse("AB BA -", capacity=2)
    assert is_solution(level, pours) is False


def test_is_solution_accepts_numpy_indices():
    """numpy integers are tube numbers like any other."""
    level = Level.parse("AAB BB A", capacity=3)
    assert is_solution(level, [(np.int64(0), np.int64(1)), (2, 0)])


def test_parse_refuses_odd_colors_argument():
    """`colors` must be a string or a list of names."""
    for bad in (5, [["A"]], {"A": 1}, [1, 2]):
        with pytest.raises(ParseError, match="colors"):
            Level.parse("AB BA -", colors=bad)


def test_level_files(tmp_path):
    """load_levels reads the corpus schema; bad JSON, binary and non-UTF-8 files are ParseErrors."""
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"levels": [{"capacity": 2, "tubes": [["a", "a"], []]}]}))
    assert load_levels(good) == [Level.parse("aa -", capacity=2)]
    cases = {
        "bad.json": b"{not json",
        "latin1.json": '{"capacity": 2, "tubes": [["\xe9", "\xe9"]]}'.encode("latin-1"),
        "binary.json": b"\x00\x01\x02",
        "shape.json": b'{"levels": [{"capacity": 2, "tubes": 5}]}',
        "list.json": b"[1, 2]",
    }
    for name, raw in cases.items():
        (tmp_path / name).write_bytes(raw)
        with pytest.raises(ParseError):
            load_levels(tmp_path / name)
    with pytest.raises(ParseError, match="does not exist"):
        load_levels(tmp_path / "missing.json")
    with pytest.raises(ParseError):
        load_corpus(tmp_path / "bad.json")


def test_generator_sizes_are_checked():
    """Float, NaN, negative or huge sizes and bad seeds are PuzzleErrors, not numpy errors."""
    for args in [(2.5,), (float("nan"),), (-1,), (3, -1), (3, 2, 0), (10**9,)]:
        with pytest.raises(PuzzleError):
            random_deal(*args)
    with pytest.raises(PuzzleError, match="seed"):
        random_deal(3, seed=-1)
    with pytest.raises(PuzzleError, match="target"):
        level_with_optimum(2.5, 3)


def test_relabel_and_drawing_with_odd_colors():
    """relabel refuses too few, repeated or non-string names; draw_board takes a short order."""
    level = Level.parse("AB BA -", capacity=2)
    assert level.relabel(["x", "y"]).tubes == (("x", "y"), ("y", "x"), ())
    for bad in (["x"], ["x", "x"], [1, 2], "xy", None):
        with pytest.raises(InvalidPuzzleError, match="relabel"):
            level.relabel(bad)
    ax = draw_board(level, colors=["B"])  # "A" is missing from the order: appended, no KeyError
    assert len(ax.patches) == 4
    plt.close(ax.figure)
