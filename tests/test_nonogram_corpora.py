"""Every puzzle of ../shared/corpora/nonogram gets the class in its expected.tsv."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from conftest import require_shared

from puzzlelab.errors import PuzzleError
from puzzlelab.nonogram import is_solution, solve
from puzzlelab.nonogram.data import CORPORA, load_corpus

EXPECTED_COUNTS = {
    "mikix": {"LINE": 39},
    "jwilk": {"LINE": 139, "BRANCH": 8, "MULT": 4},
    "webpbn": {"LINE": 5, "BRANCH": 5},
}


@pytest.mark.parametrize("name", CORPORA)
def test_corpus_classes(name):
    require_shared("corpora", "nonogram", name, "expected.tsv")
    entries = load_corpus(name)
    assert Counter(entries["expected"]) == Counter(EXPECTED_COUNTS[name])
    wrong = []
    for e in entries.itertuples():
        res = solve(e.puzzle, max_solutions=2, progress=False)
        if res.kind != e.expected:
            wrong.append((e.file, e.expected, res.kind))
        assert all(is_solution(e.puzzle, s) for s in res.solutions), e.file
        if res.verdict == "multiple":
            assert len(res.solutions) == 2
            assert not np.array_equal(res.solutions[0], res.solutions[1]), e.file
        if e.puzzle.goal is not None and res.verdict == "unique":
            assert np.array_equal(res.solution, e.puzzle.goal), e.file
    assert wrong == []


def test_forever_needs_search_and_is_unique():
    require_shared("corpora", "nonogram", "webpbn")
    (forever,) = [e for e in load_corpus("webpbn").itertuples() if "06574" in e.file]
    res = solve(forever.puzzle)
    assert (res.verdict, res.line_solvable) == ("unique", False)
    assert res.guesses > 0 and res.probes > 0
    dfs = solve(forever.puzzle, method="search")
    assert dfs.verdict == "unique" and np.array_equal(dfs.solution, res.solution)
    # plain DFS without probing needs more than 200 nodes: it must stop there, not hang
    short = solve(forever.puzzle, method="search", probing=False, max_expanded=200)
    assert short.verdict == "limit" and short.expanded == 200


def test_writeup_method_agrees_where_it_succeeds():
    require_shared("corpora", "nonogram", "webpbn")
    from puzzlelab.nonogram import FILLED, solve_writeup

    entries = {e.file.split("-")[2].split(".")[0]: e for e in load_corpus("webpbn").itertuples()}
    for name in ("dancer", "cat", "skid", "bucks"):
        e = entries[name]
        res = solve_writeup(e.puzzle, keep_frames=False)
        assert res.outcome == "solved" and res.verdict == "feasible", name
        assert np.array_equal(res.grid == FILLED, e.puzzle.goal), name
    # "Swing" (45x45) is beyond enumeration
    assert solve_writeup(entries["swing"].puzzle).outcome == "too_large"


def test_corpus_table_agrees_on_every_puzzle():
    require_shared("corpora", "nonogram", "mikix", "expected.tsv")
    from puzzlelab.nonogram.census import corpus_table
    from puzzlelab.nonogram.data import load_corpora

    table = corpus_table(load_corpora())
    assert len(table) == 200 and table["error"].isna().all()
    assert table["agree"].all()
    with pytest.raises(PuzzleError):
        load_corpus("no-such-corpus")
