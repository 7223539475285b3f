"""Benchmark: our nonogram solver vs the write-up's enumeration vs an OR-Tools CP-SAT model.

Over every puzzle of ../shared/corpora/nonogram (mikix, jwilk, webpbn), in one process:
* ours: `puzzlelab.nonogram.solve(puzzle, max_solutions=2)` (DP line solver, propagation,
  probing, DFS); verdict unique / multiple / none;
* write-up: `solve_writeup` (enumerate every line arrangement, eliminate, one-level guessing)
  where its enumeration stays under the arrangement cap; it can only say "solved" or fail;
* CP-SAT: each row and column is an automaton over its cells (`add_automaton`), solved once,
  then again with the first solution excluded (so up to 2 solutions, as ours); 1 worker.

Prints per-corpus totals (CPU = time.process_time, wall = time.perf_counter), verdict
agreement with expected.tsv, and a per-puzzle table for the webpbn survey puzzles.
OR-Tools is a benchmark-only dependency (benchmarks/requirements.txt).

The "hard" section (`--hard` runs only it) times ours against CP-SAT with 2
workers on the four webpbn-hard puzzles, 20 seeded random pictures (25x25 and 30x30,
densities 40-60 %) and 20 random 25x25 pictures with two rows swapped; it checks the verdicts
agree, that our total CPU is below CP-SAT's and that no puzzle takes more than 2x CP-SAT +
0.1 s, and writes data/nonogram/hard_timings.csv for notebook 05 (`--csv`).

Run: .venv/bin/python benchmarks/bench_nonogram.py [--hard] [--csv]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from ortools.sat.python import cp_model

from puzzlelab.nonogram import Puzzle, is_solution, solve, solve_writeup
from puzzlelab.nonogram.census import random_puzzle, swapped_puzzle
from puzzlelab.nonogram.data import CORPORA, load_corpora, load_corpus

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import timed  # noqa: E402


def line_automaton(clue: tuple[int, ...]) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Transitions (state, cell value, next state) and final states accepting the clue."""
    transitions = []
    state = 0  # gap before block 0 (loops on 0)
    nxt = 1
    for j, length in enumerate(clue):
        transitions.append((state, 0, state))
        first = nxt
        transitions.append((state, 1, first))
        for t in range(length - 1):
            transitions.append((first + t, 1, first + t + 1))
        last = first + length - 1
        gap = last + 1
        transitions.append((last, 0, gap))
        nxt = gap + 1
        state = gap
        if j == len(clue) - 1:
            transitions.append((gap, 0, gap))
            return transitions, [last, gap]
    transitions.append((0, 0, 0))
    return transitions, [0]


def cpsat_solve(
    puzzle: Puzzle, max_solutions: int = 2, time_limit: float = 120.0, workers: int = 1
):
    """Up to `max_solutions` solutions with CP-SAT (lines as automata): (verdict, solutions)."""
    model = cp_model.CpModel()
    R, C = puzzle.shape
    x = [[model.new_bool_var(f"x{r}_{c}") for c in range(C)] for r in range(R)]
    for r, clue in enumerate(puzzle.rows):
        trans, finals = line_automaton(clue)
        model.add_automaton(x[r], 0, finals, trans)
    for c, clue in enumerate(puzzle.cols):
        trans, finals = line_automaton(clue)
        model.add_automaton([x[r][c] for r in range(R)], 0, finals, trans)
    solutions = []
    for _ in range(max_solutions):
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        solver.parameters.max_time_in_seconds = time_limit
        status = solver.solve(model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if status != cp_model.INFEASIBLE:
                return "limit", solutions
            break
        sol = np.array([[solver.value(x[r][c]) for c in range(C)] for r in range(R)], dtype=bool)
        solutions.append(sol)
        # exclude this solution: at least one cell differs
        model.add_bool_or(
            [x[r][c].Not() if sol[r, c] else x[r][c] for r in range(R) for c in range(C)]
        )
    verdict = {0: "unsolvable", 1: "unique"}.get(len(solutions), "multiple")
    return verdict, solutions


def hard_set() -> list[tuple[str, str, Puzzle]]:
    """(group, name, puzzle): webpbn-hard, 20 random 25x25/30x30 at 40-60 %, 20 swapped 25x25."""
    out = [("webpbn-hard", e.file, e.puzzle) for e in load_corpus("webpbn-hard").itertuples()]
    for i in range(20):
        size, density = (25, 30)[i % 2], 0.40 + 0.20 * i / 19
        p = random_puzzle(size, density, rng=1000 + i)
        out.append(("random", p.title, p))
    for i in range(20):
        p = swapped_puzzle(25, 0.40 + 0.20 * i / 19, rng=2000 + i, rows=(i % 5, 12 + i % 7))
        out.append(("swapped", p.title, p))
    return out


def hard(write_csv: bool) -> bool:
    """The hard section: ours vs CP-SAT (2 workers) per puzzle, totals and the 2x + 0.1 s rule."""
    solve(random_puzzle(10, 0.5, 0), progress=False)  # compile outside the timings
    rows = []
    for group, name, p in hard_set():
        ours, ow, oc = timed(lambda p=p: solve(p, max_solutions=2, progress=False, max_seconds=300))
        (cv, csols), cw, cc = timed(lambda p=p: cpsat_solve(p, workers=2, time_limit=300))
        if not all(is_solution(p, s) for s in ours.solutions + csols):
            raise RuntimeError(f"{name}: a solver returned a wrong grid")
        rows.append(
            {
                "group": group,
                "name": name,
                "size": p.width,
                "density": sum(map(sum, p.rows)) / (p.width * p.height),
                "ours": ours.verdict,
                "cpsat": cv,
                "ours_cpu": oc,
                "ours_wall": ow,
                "cpsat_cpu": cc,
                "cpsat_wall": cw,
                "line_known": float(np.mean(ours.propagated != 0))
                if ours.propagated is not None
                else 0.0,
                "probes": ours.probes,
                "conflicts": ours.expanded,
            }
        )
        print(
            f"{group:11s} {name[:44]:44s} ours={ours.verdict:10s} {oc:7.3f}s cpu {ow:7.3f}s wall"
            f"  cpsat={cv:10s} {cc:7.3f}s cpu {cw:7.3f}s wall",
            flush=True,
        )
    df = pd.DataFrame(rows)
    df["agree"] = df.ours == df.cpsat
    df["within"] = df.ours_cpu <= 2 * df.cpsat_cpu + 0.1
    summary = df.groupby("group", sort=False)[["ours_cpu", "cpsat_cpu", "ours_wall", "cpsat_wall"]]
    table = summary.sum()
    table.loc["total"] = table.sum()
    table["cpsat/ours (cpu)"] = table.cpsat_cpu / table.ours_cpu
    print("\n== hard puzzles: totals (seconds)")
    print(table.round(3).to_string())
    print("verdicts:", df.groupby(["group", "ours"]).size().to_dict())
    ok = bool(df.agree.all() and df.within.all() and table.ours_cpu.total < table.cpsat_cpu.total)
    print(
        f"verdicts agree {df.agree.all()}, every puzzle within 2x CP-SAT + 0.1 s: "
        f"{df.within.all()}, total CPU below CP-SAT: {table.ours_cpu.total < table.cpsat_cpu.total}"
    )
    if write_csv:
        from puzzlelab.paths import atomic_write_text, data_dir

        target = data_dir("nonogram", "hard_timings.csv")
        atomic_write_text(target, df.round(4).to_csv(index=False))
        print(f"wrote {target}")
    return ok


def main() -> int:
    """Run the three solvers over the corpora and print the tables (or only the hard section)."""
    if "--hard" in sys.argv:
        return 0 if hard("--csv" in sys.argv) else 2
    entries = list(load_corpora(CORPORA).itertuples())
    if not entries:
        print("../shared/corpora/nonogram is absent: nothing to benchmark")
        return 1
    solve(entries[0].puzzle)  # compile the numba kernels outside the timings
    rows = []
    for e in entries:
        ours, ow, oc = timed(lambda e=e: solve(e.puzzle, max_solutions=2, progress=False))
        wr, ww, wc = timed(lambda e=e: solve_writeup(e.puzzle, keep_frames=False))
        (cv, csols), cw, cc = timed(lambda e=e: cpsat_solve(e.puzzle))
        assert all(is_solution(e.puzzle, s) for s in ours.solutions + csols), e.file
        writeup_ok = wr.outcome == "solved" and (
            ours.verdict != "unique" or np.array_equal(wr.grid == 1, ours.solution)
        )
        rows.append(
            {
                "corpus": e.corpus,
                "file": e.file,
                "expected": e.expected,
                "ours": ours.kind,
                "ours_verdict": ours.verdict,
                "cpsat_verdict": cv,
                "writeup": wr.outcome,
                "writeup_ok": writeup_ok,
                "ours_cpu": oc,
                "ours_wall": ow,
                "writeup_cpu": wc,
                "writeup_wall": ww,
                "cpsat_cpu": cc,
                "cpsat_wall": cw,
                "expanded": ours.expanded,
                "probes": ours.probes,
            }
        )
        print(
            f"{e.corpus:7s} {e.file:32s} {e.expected:6s} ours={ours.kind:6s} {oc:7.3f}s  "
            f"cpsat={cv:8s} {cc:7.3f}s  writeup={wr.outcome:9s} {wc:7.3f}s",
            flush=True,
        )
    df = pd.DataFrame(rows)
    df["agree_expected"] = df.ours == df.expected
    df["agree_cpsat"] = df.ours_verdict == df.cpsat_verdict
    pd.set_option("display.width", 160)
    summary = df.groupby("corpus", sort=False).agg(
        puzzles=("file", "size"),
        ours_correct=("agree_expected", "sum"),
        cpsat_same=("agree_cpsat", "sum"),
        writeup_solved=("writeup_ok", "sum"),
        ours_cpu=("ours_cpu", "sum"),
        ours_wall=("ours_wall", "sum"),
        cpsat_cpu=("cpsat_cpu", "sum"),
        cpsat_wall=("cpsat_wall", "sum"),
        writeup_cpu=("writeup_cpu", "sum"),
        writeup_wall=("writeup_wall", "sum"),
    )
    summary.loc["total"] = summary.sum(numeric_only=True)
    summary["cpsat/ours (cpu)"] = summary.cpsat_cpu / summary.ours_cpu
    summary["writeup/ours (cpu)"] = summary.writeup_cpu / summary.ours_cpu
    print("\n== totals per corpus (seconds)")
    print(summary.round(3).to_string())
    web = df[df.corpus == "webpbn"].set_index("file")
    print("\n== webpbn survey puzzles (seconds)")
    cols = ["expected", "ours", "expanded", "probes", "ours_cpu", "ours_wall", "cpsat_cpu"]
    cols += ["cpsat_wall", "writeup", "writeup_cpu"]
    print(web[cols].round(3).to_string())
    writeup_status = df.groupby(["expected", "writeup"]).size().unstack(fill_value=0)
    print("\n== the write-up's method by expected class")
    print(writeup_status.to_string())
    forever = web.loc["webpbn-06574-forever.non"]
    print(
        f"\nForever (#6574): ours {forever.ours_cpu:.2f} s CPU / {forever.ours_wall:.2f} s wall "
        f"(target < 10 s); CP-SAT {forever.cpsat_cpu:.2f} s CPU"
    )
    ok = bool(df.agree_expected.all() and df.agree_cpsat.all())
    print(f"verdicts identical to expected.tsv and CP-SAT: {ok}")
    print(f"\n== ours over the {len(df)} corpus puzzles: {df.ours_cpu.sum():.3f} s CPU\n")
    ok = hard("--csv" in sys.argv) and ok
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
