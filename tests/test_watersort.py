"""Water sort by feature: the model and its text form, the pour rule, the bound, the solvers
(against the shared corpus and BFS), the write-up's A*, the generator, level files, the census."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from conftest import examples, require_shared
from hypothesis import given
from hypothesis import strategies as st

from puzzlelab.batch import case_rng
from puzzlelab.errors import InvalidPuzzleError, ParseError, PuzzleError
from puzzlelab.results import SOLVED, STATS_KEYS, Budget, Result
from puzzlelab.search import astar, bfs
from puzzlelab.watersort import (
    METHODS,
    Level,
    Solution,
    WaterSortProblem,
    data,
    is_solution,
    load_levels,
    lower_bound,
    same_up_to_renaming,
    solve,
    solve_writeup,
    writeup_estimate,
)
from puzzlelab.watersort import census as ws_census
from puzzlelab.watersort.bounds import tubes_bound, tubes_estimate
from puzzlelab.watersort.generate import (
    level_with_optimum,
    random_deal,
    reverse_play,
    sorted_level,
    unpour,
    unpours,
)
from puzzlelab.watersort.level import color_pattern, top_run
from puzzlelab.watersort.solve import PROVES_OPTIMAL, canonical, children_reference, encode, expand
from puzzlelab.watersort.writeup import writeup_actions, writeup_key, writeup_score, writeup_step

# A level on which weighted A* with weight 1 once returned 10 pours as "optimal" (the optimum is 9).
WEIGHTED_TRAP = Level.make(
    [["C", "A", "D"], ["D", "D", "C"], ["B"], ["B", "D", "B"], ["A", "C", "A"], ["D", "D"]], 3
)


# ---- random levels for property tests -----------------------------------------------------------
@st.composite
def levels(draw, max_colors: int = 4, names: tuple[str, ...] | None = None) -> Level:
    """Random balanced levels: shuffled units dealt into tubes of random heights."""
    n_colors = draw(st.integers(1, max_colors))
    cap = draw(st.integers(1, 4))
    n_empty = draw(st.integers(1, 2))
    pool = names or tuple(chr(65 + c) for c in range(max_colors))
    units = draw(st.permutations([pool[c] for c in range(n_colors) for _ in range(cap)]))
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


# ---- the shared corpus --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def corpus() -> pd.DataFrame:
    """The 86 levels of ../shared/corpora/watersort/levels.json, one row each."""
    return load_levels(require_shared(*data.CORPUS))


def test_corpus_optima_and_proofs(corpus):
    """Every published optimum is matched exactly; the unsolvable level is proven unsolvable."""
    assert len(corpus) == 86
    for row in corpus.itertuples():
        sol = solve(row.level, "optimal")
        if row.solvable:
            assert (sol.verdict, sol.length) == ("optimal", row.optimal_pours), row.name
            assert sol.verify() and sol.bound <= sol.length
        else:
            assert (sol.verdict, sol.moves) == ("unsolvable", []), row.name


def test_ito_example_matches_the_published_figures(corpus):
    """Ito et al.'s level: every reachable position searched, none sorted; 24 pours with 3."""
    by_name = dict(zip(corpus.name, corpus.level, strict=True))
    two = solve(by_name[data.ITO_LEVEL])
    assert (two.verdict, two.expanded) == ("unsolvable", data.ITO_POSITIONS)
    three = solve(by_name[data.ITO_LEVEL_3])
    assert (three.verdict, three.length) == ("optimal", data.ITO_OPTIMUM_3)


def test_corpus_census_runs_every_level_through_run_batch(corpus):
    """The corpus census re-reads each level from its text form and matches every optimum."""
    table = ws_census.corpus_census(corpus.head(12), progress=False)
    assert table["error"].isna().all() and table["matches"].all()
    summary = ws_census.corpus_summary(table)
    assert summary["levels"].sum() == 12


def test_writeup_baseline_on_corpus(corpus):
    """The write-up's A* returns legal solutions, never shorter than the optimum."""
    for row in corpus.head(41).iloc[::4].itertuples():
        sol = solve_writeup(row.level, max_expanded=20000)
        assert sol.verdict == "feasible" and sol.verify(), row.name
        assert sol.length >= row.optimal_pours


# ---- the model: text form, schema, validation ---------------------------------------------------
def test_parse_and_from_dict_agree():
    """The text form and the corpus schema give the same level."""
    a = Level.parse("RGB GBR BRG - -")
    b = Level.from_dict({"capacity": 3, "tubes": [list("RGB"), list("GBR"), list("BRG"), [], []]})
    assert a == b and a.capacity == 3 and a.n_empty == 2 and a.n_colors == 3
    named = Level.parse("red,blue blue,red -", capacity=2)
    assert named.tubes[0] == ("red", "blue")


@examples(100)
@given(levels())
def test_text_round_trip_keeps_the_capacity(level):
    """parse(to_text()) is the same level, capacity included, without being told it."""
    assert Level.parse(level.to_text()) == level


@examples(50)
@given(levels(names=("red", "b", "dark-green", "x_1")))
def test_text_round_trip_with_long_names(level):
    """Long names, and one-unit tubes of a long name ("red,"), come back as they were."""
    assert Level.parse(level.to_text()) == level


def test_capacity_two_level_is_not_read_back_as_capacity_four():
    """Each color fills two tubes of 2: the counts alone would say capacity 4."""
    level = Level.make([["A", "A"], ["A", "A"], ["B", "B"], ["B", "B"], []], 2)
    assert level.to_text().endswith("cap=2")
    assert Level.parse(level.to_text()).capacity == 2
    with pytest.raises(ParseError, match="cap=2"):
        Level.parse(level.to_text(), capacity=4)


@pytest.mark.parametrize("name", ["light blue", "a,b", "=", " x", "é"])
def test_names_the_text_form_cannot_carry_are_refused(name):
    """A color the text form would split or misread: to_text refuses instead of writing it."""
    level = Level.make([[name, name], []], 2)
    with pytest.raises(InvalidPuzzleError, match="cannot be written as text"):
        level.to_text()


@pytest.mark.parametrize(
    ("text", "kwargs", "error", "words"),
    [
        ("RGBYR YRGB BYRG GBYR - -", {"capacity": 4}, InvalidPuzzleError, "tube 0 holds 5"),
        ("RRR GGGG -", {"capacity": 4}, InvalidPuzzleError, "color 'R' occurs 3"),
        ("RR? GG -", {}, ParseError, "unknown symbol '?'"),
        ("RRX GGG -", {"colors": "RG"}, ParseError, "symbol 'X'"),
        ("RRR GG -", {}, ParseError, "cannot infer the capacity"),
        ("   ", {}, ParseError, "no tubes"),
        ("cap=3", {}, ParseError, "no tubes"),
        ("AA - cap=x", {}, ParseError, "cap=N"),
        ("AA - cap=2 cap=2", {}, ParseError, "twice"),
    ],
)
def test_bad_text_is_explained(text, kwargs, error, words):
    """Overfull tubes, unbalanced colors, unknown symbols, bad cap= tokens: clear errors."""
    with pytest.raises(error, match=words.replace("?", r"\?")):
        Level.parse(text, **kwargs)


@examples(100)
@given(st.text(alphabet="ABC- ,?x=cap2\n", max_size=30), st.none() | st.integers(-1, 5))
def test_parser_never_crashes(text, capacity):
    """Any text either parses to a valid level or raises a PuzzleError (nothing else)."""
    try:
        level = Level.parse(text, capacity=capacity)
    except PuzzleError:
        return
    assert all(len(t) <= level.capacity for t in level.tubes) and level.is_balanced


def test_levels_built_directly_are_checked():
    """Level(...) refuses an overfull tube, capacity 0 and non-name units, as make does."""
    with pytest.raises(InvalidPuzzleError, match="tube 0 holds 3 units"):
        Level(2, (("R", "G", "R"), ("G",), ()))
    for capacity in (0, -1, 2.0, None):
        with pytest.raises(InvalidPuzzleError, match="capacity"):
            Level(capacity, (("A",), ()))
    with pytest.raises(InvalidPuzzleError, match="tube 1"):
        Level(2, (("A", "A"), (3,)))
    with pytest.raises(InvalidPuzzleError, match="at least one tube"):
        Level(2, ())
    assert Level(np.int64(2), [["A", "A"], []]).tubes == (("A", "A"), ())


def test_bad_dicts_and_unbalanced():
    """Schema errors name what is missing; unbalanced levels load on request, never solve."""
    with pytest.raises(ParseError, match="capacity"):
        Level.from_dict({"tubes": [[]]})
    with pytest.raises(InvalidPuzzleError, match="tube 1"):
        Level.from_dict({"capacity": 2, "tubes": [["a"], "ab"]})
    level = Level.parse("RRR GGGG -", capacity=4, allow_unbalanced=True)
    for method in METHODS:
        sol = solve(level, method)
        assert sol.verdict == "unsolvable" and "R" in sol.note or method == "writeup"


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


def test_parse_refuses_odd_colors_argument():
    """`colors` must be a string or a list of names."""
    for bad in (5, [["A"]], {"A": 1}, [1, 2]):
        with pytest.raises(ParseError, match="colors"):
            Level.parse("AB BA -", colors=bad)


def test_relabel_and_renaming():
    """relabel refuses bad names; same_up_to_renaming is the one test of equal-up-to-renaming."""
    level = Level.parse("AB BA -", capacity=2)
    renamed = level.relabel(["x", "y"])
    assert renamed.tubes == (("x", "y"), ("y", "x"), ())
    assert same_up_to_renaming(level, renamed) and same_up_to_renaming(level.tubes, renamed.tubes)
    assert not same_up_to_renaming(level, Level.parse("AB AB -", capacity=2))
    assert not same_up_to_renaming(level, Level.parse("AB BA - -", capacity=2))
    assert not same_up_to_renaming(level, Level.parse("AB BA -", capacity=3, allow_unbalanced=True))
    assert same_up_to_renaming([("a", "b"), None], [("c", "d"), None])  # unread tubes
    assert not same_up_to_renaming(level, 5) and not same_up_to_renaming(None, None)
    assert color_pattern(level.tubes) == ((0, 1), (1, 0), ())
    for bad in (["x"], ["x", "x"], [1, 2], "xy", None):
        with pytest.raises(InvalidPuzzleError, match="relabel"):
            level.relabel(bad)


# ---- the pour rule ------------------------------------------------------------------------------
def test_illegal_pours_raise():
    """Pours onto another color, from an empty tube or onto a full tube are refused."""
    level = Level.parse("RG GR RG GR - -")
    for i, j, words in [(0, 1, "top colors differ"), (4, 0, "source is empty"), (0, 0, "differ")]:
        with pytest.raises(InvalidPuzzleError, match=words):
            level.pour(i, j)
    full = Level.parse("RRG G -", capacity=3, allow_unbalanced=True)
    with pytest.raises(PuzzleError, match="destination is full"):
        full.pour(1, 0)


@examples(100)
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


@examples(100)
@given(levels())
def test_unpours_invert_pours(level):
    """Every pour can be undone by one of `unpours`, and every un-pour by a pour."""
    for i, j in level.legal_pours():
        after = level.pour(i, j)
        k = min(top_run(level.tubes[i]), level.capacity - len(level.tubes[j]))
        assert (j, i, k) in unpours(after)
        assert unpour(after, j, i, k) == level
    for j, i, k in unpours(level):
        assert unpour(level, j, i, k).pour(i, j) == level


@pytest.mark.parametrize(
    "pours",
    [[(0, "x")], [(0,)], [(0, 1, 2)], [None], [(1.0, 0)], [(True, 1)], [(0, 99)], 5, "01", None],
)
def test_is_solution_never_raises_on_bad_pours(pours):
    """Malformed pours give False, never a TypeError or IndexError."""
    assert is_solution(Level.parse("AB BA -", capacity=2), pours) is False


def test_is_solution_never_raises_on_a_bad_level():
    """Anything but a Level as the start is simply not solved by any pours."""
    for bad in ("AB BA -", None, 5, [["A"]]):
        assert is_solution(bad, [(0, 1)]) is False


def test_is_solution_accepts_numpy_indices():
    """numpy integers are tube numbers like any other."""
    level = Level.parse("AAB BB A", capacity=3)
    assert is_solution(level, [(np.int64(0), np.int64(1)), (2, 0)])


# ---- the bound ----------------------------------------------------------------------------------
@examples(100)
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
        assert h == tubes_bound(child, level.capacity) == problem.h(child)
        assert problem.h(state) <= h + 1  # consistency


def test_bounds_on_known_positions():
    """Both estimates are 0 at the goal; the write-up's overestimates a one-pour level."""
    done = sorted_level(3)
    assert lower_bound(done) == 0 and writeup_estimate(done) == 0
    one = Level.parse("AAA BBBB A CCCC -", capacity=4)
    assert solve(one).length == 1 and lower_bound(one) == 1
    assert writeup_estimate(one) == 2  # two unsorted tubes: more than the one pour needed
    assert solve(done).length == 0


@pytest.mark.parametrize("bad", ["AB BA -", None, 5, [["A", "B"]], {"capacity": 2}])
def test_bounds_refuse_what_is_not_a_level(bad):
    """lower_bound / writeup_estimate / WaterSortProblem on a non-Level: a PuzzleError."""
    for fn in (lower_bound, writeup_estimate, WaterSortProblem):
        with pytest.raises(PuzzleError, match="Level"):
            fn(bad)


# ---- the solvers --------------------------------------------------------------------------------
@examples(40)
@given(levels(max_colors=4))
def test_optimal_matches_bfs_and_bound_is_admissible(level):
    """On small levels, A* finds the BFS optimum (or both prove none) and h never overshoots."""
    truth = bfs(WaterSortProblem(level), max_expanded=200_000)
    assert truth.verdict in ("optimal", "unsolvable")
    sol = solve(level, "optimal")
    if truth.verdict == "unsolvable":
        assert sol.verdict == "unsolvable"
        return
    assert (sol.verdict, sol.length) == ("optimal", truth.length) and sol.verify()
    for k, state in enumerate(truth.states):  # the bound along an optimal path
        assert WaterSortProblem(level).h(state) <= truth.length - k


@examples(40)
@given(levels(max_colors=4), st.sampled_from(METHODS), st.floats(1, 3))
def test_verdict_optimal_only_from_a_proof(level, method, weight):
    """Only `optimal` and `bfs` may say optimal (a sorted start aside); their length is BFS's."""
    sol = solve(level, method, weight=weight, max_expanded=50_000)
    truth = bfs(WaterSortProblem(level), max_expanded=200_000)
    if sol.verdict == "optimal":
        assert method in PROVES_OPTIMAL or level.is_solved()
        assert sol.length == truth.length
    if sol.solved:
        assert sol.verify() and sol.length >= truth.length


def test_weighted_with_weight_one_is_not_called_optimal():
    """Weighted A* expands each position once, so even with weight 1 it proves nothing."""
    assert solve(WEIGHTED_TRAP).length == 9
    sol = solve(WEIGHTED_TRAP, "weighted", weight=1)
    assert sol.verdict == "feasible" and sol.verify() and sol.length >= 9


def test_every_method_on_random_deals():
    """All methods return legal solutions; the optimum is never longer than any other."""
    for seed in range(6):
        level = random_deal(6, 2, 4, rng=seed)
        best = solve(level, "optimal")
        assert astar(WaterSortProblem(level)).length == best.length  # the generic A* agrees
        for method in ("writeup", "dfs", "greedy", "weighted"):
            sol = solve(level, method, max_expanded=50_000)
            if best.solved and sol.solved:
                assert sol.verify() and sol.length >= best.length
            if not best.solved:
                assert not sol.solved


def test_solution_speaks_the_result_protocol():
    """Solution is a results.Result: states are Levels, stats() has exactly STATS_KEYS."""
    level = random_deal(5, 2, 4, rng=3)
    sol = solve(level)
    assert isinstance(sol, Result) and sol.verdict == "optimal"
    assert tuple(sol.stats()) == STATS_KEYS
    assert set(sol.details()) == {"level", "bound", "note"}
    assert sol.states[0] == level and sol.states[-1].is_solved()
    assert len(sol.states) == len(sol.moves) + 1 == sol.length + 1
    assert sol.verify() and not hasattr(sol, "pours")
    stopped = solve(level, max_expanded=1)
    assert stopped.verdict == "limit" and stopped.length is None and stopped.states == []
    assert "max_expanded=1" in stopped.note and stopped.verify()


def test_verify_catches_a_wrong_answer():
    """A Solution whose pours do not sort its level does not verify (and does not raise)."""
    level = random_deal(4, 2, 4, rng=1)
    sol = solve(level)
    sol.moves = sol.moves[:-1]
    assert not sol.verify()
    sol.moves = [("a", None)]
    assert not sol.verify()


def test_solve_rejects_unknown_method_and_odd_input():
    """A typo in the method name, an old name, a bad budget or a non-Level: PuzzleError."""
    with pytest.raises(PuzzleError, match="unknown method"):
        solve(sorted_level(2), "astar")
    with pytest.raises(PuzzleError, match="writeup"):
        solve(sorted_level(2), "seed")
    for bad in (dict(max_expanded=-1), dict(max_expanded=1.5), dict(max_seconds=float("nan"))):
        with pytest.raises(PuzzleError):
            solve(sorted_level(2), **bad)
    with pytest.raises(PuzzleError, match="Level"):
        solve("AB BA -")
    with pytest.raises(PuzzleError, match="not both"):
        solve(sorted_level(2), max_expanded=3, budget=Budget(3))


# ---- budgets: the same meaning for every method -------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
def test_zero_budget_stops_at_once(method):
    """max_expanded=0 means stop at once, for every method including the write-up's."""
    sol = solve(random_deal(8, 2, 4, rng=1), method, max_expanded=0)
    assert (sol.verdict, sol.expanded, sol.length) == ("limit", 0, None)


@pytest.mark.parametrize("method", METHODS)
def test_one_budget_object_is_passed_down(method):
    """A Budget whose time is already spent stops every method: its clock is not restarted."""
    spent = Budget(max_seconds=1.0)
    spent.started -= 5.0  # made five seconds ago
    sol = solve(random_deal(10, 2, 4, rng=2), method, budget=spent)
    assert sol.verdict == "limit" and "max_seconds=1" in sol.note


def test_writeup_on_a_big_deal_respects_the_budget():
    """The write-up's A* on a 20-color deal stops when its budget runs out (it ran minutes)."""
    level = random_deal(20, 2, 4, rng=0)
    by_nodes = solve_writeup(level, max_expanded=300)
    assert (by_nodes.verdict, by_nodes.expanded) == ("limit", 300)
    assert "max_expanded=300" in by_nodes.note
    by_time = solve(level, "writeup", max_seconds=0.5)  # no node limit: only the clock stops it
    assert by_time.verdict == "limit" and "max_seconds=0.5" in by_time.note


# ---- the write-up's A*: same Result, its quirks kept --------------------------------------------
def test_solve_writeup_is_the_same_result_as_solve():
    """solve_writeup and solve(..., "writeup") give the same Solution (no separate class)."""
    level = random_deal(8, 2, 4, rng=4)
    a, b = solve_writeup(level), solve(level, "writeup")
    assert type(a) is type(b) is Solution and a.method == "writeup"
    assert (a.verdict, a.moves, a.expanded) == (b.verdict, b.moves, b.expanded)
    assert a.verdict in SOLVED and a.verify()


def test_writeup_move_generator_quirks():
    """Only the first empty tube is a target, and [a, a, b] may not pour its b into it."""
    board = ((0, 0, 1), (1, 1, 1, 0), (), ())
    actions = writeup_actions(board, 4)
    assert (0, 2) not in actions and (1, 2) in actions
    assert all(dst != 3 for _, dst in actions)
    # key collision with 11+ colors: "1","0" and "10" print the same
    assert writeup_key(((1, 0), (10,)), 2) == "10" + "10-1"
    assert writeup_key(((10,), (1, 0)), 2) == "10-1" + "10"


@examples(100)
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


# ---- the generator ------------------------------------------------------------------------------
def test_random_deal_matches_write_up_and_takes_one_rng():
    """n_colors full tubes holding each color `capacity` times, then the empty tubes."""
    level = random_deal(12, 2, 4, rng=5)
    assert level.n_tubes == 14 and level.n_empty == 2 and level.n_colors == 12
    assert all(len(t) == 4 for t in level.tubes[:12])
    assert set(level.counts().values()) == {4}
    assert random_deal(12, 2, 4, rng=5) == level != random_deal(12, 2, 4, rng=6)
    assert random_deal(12, 2, 4, np.random.default_rng(5)) == level  # an int or a Generator


def test_reverse_play_levels_are_solvable_with_exact_optimum():
    """Reverse play gives solvable levels; level_with_optimum hits its target (checked by BFS)."""
    for seed in range(4):
        level = reverse_play(4, 12, rng=seed)
        assert level.is_balanced and solve(level).solved
    for target in (3, 6, 9):
        level = level_with_optimum(target, 4, rng=target)
        assert bfs(WaterSortProblem(level)).length == target


def test_reverse_play_without_an_empty_tube_is_refused():
    """With every tube full nothing can be un-poured: a PuzzleError, not UnboundLocalError."""
    with pytest.raises(InvalidPuzzleError, match="empty tube"):
        reverse_play(3, 5, n_empty=0)
    with pytest.raises(InvalidPuzzleError, match="empty tube"):
        level_with_optimum(4, 3, n_empty=0)
    assert reverse_play(3, 0, n_empty=0).is_solved()  # no steps asked: the sorted level


def test_level_with_optimum_honours_its_budget():
    """A budget too small for the re-solving is a TooLargeError, not a wrong level."""
    with pytest.raises(PuzzleError, match="max_expanded=1"):
        level_with_optimum(12, 6, rng=0, max_expanded=1)


def test_generator_sizes_are_checked():
    """Float, NaN, negative or huge sizes and bad seeds are PuzzleErrors, not numpy errors."""
    for args in [(2.5,), (float("nan"),), (-1,), (3, -1), (3, 2, 0), (10**9,)]:
        with pytest.raises(PuzzleError):
            random_deal(*args)
    with pytest.raises(PuzzleError, match="rng"):
        random_deal(3, rng=-1)
    with pytest.raises(PuzzleError, match="target"):
        level_with_optimum(2.5, 3)


# ---- level files --------------------------------------------------------------------------------
def test_level_files(tmp_path):
    """load_levels gives a DataFrame; bad JSON, binary and non-UTF-8 files are ParseErrors."""
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"levels": [{"capacity": 2, "tubes": [["a", "a"], []]}]}))
    table = load_levels(good)
    assert list(table.level) == [Level.parse("aa -", capacity=2)]
    assert list(table.columns[:8]) == data.COLUMNS and table.name[0] == "level-0"
    cases = {
        "bad.json": b"{not json",
        "latin1.json": '{"capacity": 2, "tubes": [["\xe9", "\xe9"]]}'.encode("latin-1"),
        "binary.json": b"\x00\x01\x02",
        "shape.json": b'{"levels": [{"capacity": 2, "tubes": 5}]}',
        "list.json": b"[1, 2]",
        "name.json": b'{"capacity": 2, "tubes": [["a", "a"]], "name": [1]}',
    }
    for name, raw in cases.items():
        (tmp_path / name).write_bytes(raw)
        with pytest.raises(ParseError):
            load_levels(tmp_path / name)
    with pytest.raises(ParseError, match="does not exist"):
        load_levels(tmp_path / "missing.json")


@pytest.mark.parametrize("depth", [100_000, 2_000])
def test_deeply_nested_level_file_is_a_parse_error(tmp_path, depth):
    """JSON nested past the recursion limit (or merely deep, as a tube): ParseError."""
    path = tmp_path / "deep.json"
    path.write_text('{"capacity": 2, "tubes": [' + "[" * depth + "]" * depth + "]}")
    with pytest.raises(PuzzleError):
        load_levels(path)


# ---- the census ---------------------------------------------------------------------------------
def test_census_deals_come_from_case_rng_over_the_deal_keys():
    """A deal's colored tubes depend on seed, colors, capacity and deal only (documented keys)."""
    one, two = ws_census.cases((5,), 1, (1, 2), method="optimal", max_expanded=7)
    keys = {k: one[k] for k in ws_census.DEAL_KEYS}
    want = random_deal(5, 1, 4, case_rng(keys))
    assert ws_census.deal_level(one) == want
    assert ws_census.deal_level(two).tubes[:5] == want.tubes[:5]


def test_census_with_the_writeup_comparison():
    """Optimal census rows carry the write-up's length on solved deals; the summary compares."""
    table = ws_census.census(
        (4, 8), 3, (1, 2), method="optimal", writeup_max_expanded=20_000, progress=False
    )
    assert table["error"].isna().all() and set(table.verdict) <= {"optimal", "unsolvable"}
    solved = table[table.verdict == "optimal"]
    assert (
        solved.writeup_length.notna().all()
        and table[table.verdict != "optimal"].writeup_length.isna().all()
    )
    assert (solved.writeup_length >= solved.length).all()
    summary = ws_census.summarise(table)
    assert list(summary.columns) == ws_census.SUMMARY_COLUMNS and len(summary) == 4
    assert (summary.writeup_solved <= summary.solvable).all()
    compare = ws_census.compare_summary(table)
    assert compare["shorter"] == 0 and compare["longer"] + compare["equal"] == len(solved)


def test_summaries_of_an_empty_census():
    """No cases: an empty summary (and an empty comparison), not a KeyError."""
    table = ws_census.census((4,), 0, progress=False)
    summary = ws_census.summarise(table)
    assert summary.empty and list(summary.columns) == ws_census.SUMMARY_COLUMNS
    assert ws_census.summarise(pd.DataFrame()).empty
    assert ws_census.compare_summary(table)["compared"] == 0
