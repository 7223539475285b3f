"""Optimal sliding-puzzle search: 6-6-3 pattern databases on Korf's 100, and `slidingpuzzle`.

Run: `make bench` (or `.venv/bin/python benchmarks/bench_search.py [--quick]`).

1. Builds the 6-6-3 additive databases from scratch (no cache) and times the build.
2. Solves all 100 of Korf's 15-puzzles with the numba IDA* (reflected lookup); every length
   must equal the published optimum. Reference (Felner, Korf & Hanan 2004, in C): 617,555
   nodes per instance for 6-6-3 and 36,710 for 7-8, both with the reflected lookup.
3. Compares with the `slidingpuzzle` package from PyPI (benchmark-only dependency) in the
   same process: its A* (default heuristic: linear conflict) on seeded random 3x3 boards
   against ours, and its IDA* on the easiest 15-puzzles it can finish within a time limit
   (each in a child process that is stopped at the limit).

4. At the limit (issue 21): the fast IDA* kernel (`puzzlelab.sliding.ida`: compact 4-bit
   databases, incremental h, children in f order) against the present one
   (`pdb.ida_star`) with the same 6-6-3 databases on Korf's 100, nodes per CPU second and
   the ratio; then `pdb:best` (7-8 + reflection) on Korf's 100 beside Korf & Felner's
   1.86 M nodes, and the 24-puzzles #40, #38, #25 (6-6-6-6 + reflection) beside their
   65 M, 38 M and 292 M. `--limit-only` runs just this part; `--no-24` skips the 5x5 runs.
   The big databases are read from the cache (built first if absent: 7-8 about 10 min of
   CPU, 6-6-6-6 about 10 min).

Wall times on a shared machine swing 2-5x; CPU time (time.process_time) is printed beside
them and the comparisons are ratios measured in the same run.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time

import numpy as np
import pandas as pd

from puzzlelab.sliding import distance_table, ida, solved_state
from puzzlelab.sliding.census import solve_korf
from puzzlelab.sliding.data import KORF_GOAL, KORF_SHAPE, korf24, korf100
from puzzlelab.sliding.pdb import best_database, ida_star, pattern_database
from puzzlelab.sliding.solve import solve


def clock():
    """(wall, cpu) now."""
    return time.perf_counter(), time.process_time()


def since(t):
    """(wall, cpu) seconds since `t`."""
    return time.perf_counter() - t[0], time.process_time() - t[1]


def to_blank_last(state: tuple[int, ...]) -> list[int]:
    """A Korf board (goal 0 1 ... 15) turned half a turn and relabelled t -> 16 - t.

    The half turn maps Korf's goal onto 1 2 ... 15 _ (slidingpuzzle's goal) and moves onto
    moves, so the optimal length is unchanged.
    """
    return [0 if t == 0 else 16 - t for t in reversed(state)]


def _sp_child(flat, h, w, alg, queue):
    """Run slidingpuzzle in a child process and report (length, expanded, wall, cpu)."""
    import slidingpuzzle as sp

    t = clock()
    res = sp.search(sp.from_iter(h, w, flat), alg)
    wall, cpu = since(t)
    queue.put((len(res.solution), res.expanded, wall, cpu))


def sp_solve(flat, h, w, alg, limit):
    """slidingpuzzle on one board in a child process; None when it exceeds `limit` seconds."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_sp_child, args=(flat, h, w, alg, queue))
    proc.start()
    proc.join(limit)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return None
    return queue.get()


def build_and_solve_all(instances: pd.DataFrame, partition: str = "6-6-3", cache: bool = False):
    """Build the databases (no cache by default), solve every instance: (summary, rows, db)."""
    t = clock()
    db = pattern_database(KORF_SHAPE, KORF_GOAL, partition, cache=cache, progress=True)
    build_wall, build_cpu = since(t)
    ida_star(db, instances.state.iloc[0])  # compile / load the kernel outside the timing
    t = clock()
    runs = solve_korf(db, instances, progress=True)
    wall, cpu = since(t)
    ok = bool((runs.length == runs.optimal_length).all() and runs.valid.all())
    summary = {
        "instances": len(runs),
        "all optimal": ok,
        "build wall s": round(build_wall, 1),
        "build cpu s": round(build_cpu, 1),
        "solve wall s": round(wall, 2),
        "solve cpu s": round(cpu, 2),
        "mean expanded": round(runs.expanded.mean()),
        "mean generated": round(runs.generated.mean()),
        "median generated": round(runs.generated.median()),
        "max generated": int(runs.generated.max()),
        "Felner et al. nodes": "617,555 (6-6-3), 36,710 (7-8)",
    }
    return summary, runs, db


def compare_3x3(n: int, seed: int) -> pd.DataFrame:
    """Ours (A* + linear conflict in Python; numba IDA* + 4-4 databases) vs slidingpuzzle A*."""
    import slidingpuzzle as sp

    shape, goal = (3, 3), solved_state((3, 3))
    table = distance_table(shape, goal)
    boards = table.states(np.random.default_rng(seed).choice(table.depths.size, n, replace=False))
    solve(boards[0], goal, shape, "idastar", "pdb", progress=False)  # warm up the kernels
    rows = []
    for name, fn in [
        (
            "puzzlelab A* + linear conflict",
            lambda b: solve(b, goal, shape, "astar", "linear_conflict").length,
        ),
        (
            "puzzlelab IDA* + 4-4 PDB (numba)",
            lambda b: solve(b, goal, shape, "idastar", "pdb").length,
        ),
        (
            "slidingpuzzle A* (linear conflict)",
            lambda b: len(sp.search(sp.from_iter(3, 3, b), "a*").solution),
        ),
    ]:
        t = clock()
        lengths = [fn(b) for b in boards]
        wall, cpu = since(t)
        optimal = sum(int(L == table.distance(b)) for L, b in zip(lengths, boards, strict=True))
        rows.append(
            {
                "solver": name,
                "boards": n,
                "optimal": optimal,
                "wall s/board": wall / n,
                "cpu s/board": cpu / n,
            }
        )
    out = pd.DataFrame(rows)
    base = out.loc[out.solver.str.startswith("slidingpuzzle"), "cpu s/board"].iloc[0]
    out["speed-up vs slidingpuzzle (cpu)"] = (base / out["cpu s/board"]).round(1)
    return out


def compare_4x4(db, instances: pd.DataFrame, limit: float, algs: list[str]) -> pd.DataFrame:
    """slidingpuzzle (A*, IDA*) on the easiest 15-puzzles (time limit each) vs our numba IDA*.

    slidingpuzzle's IDA* keeps a visited set inside each iteration, which prunes boards
    reached again by a longer path first: it is fast but not optimal, hence the length column.
    """
    rows = []
    ida_star(db, instances.state.iloc[0])  # compile / load the kernel outside the timing
    for r in instances.itertuples():
        t = clock()
        ours = ida_star(db, r.state)
        wall, cpu = since(t)
        row = {
            "id": r.id,
            "optimal": r.optimal_length,
            "puzzlelab length": ours.length,
            "puzzlelab cpu s": round(cpu, 4),
            "puzzlelab wall s": round(wall, 4),
        }
        for alg in algs:
            theirs = sp_solve(to_blank_last(r.state), 4, 4, alg, limit)
            key = f"slidingpuzzle {alg}"
            if theirs is None:
                row[f"{key} length"] = "-"
                row[f"{key} cpu s"] = f"> {limit:g} wall"
                continue
            row[f"{key} length"] = theirs[0]
            row[f"{key} cpu s"] = round(theirs[3], 2)
            row[f"{key} wall s"] = round(theirs[2], 2)
            row[f"{key} cpu ratio"] = round(theirs[3] / max(cpu, 1e-6))
        rows.append(row)
    return pd.DataFrame(rows)


def kernel_ratio(instances: pd.DataFrame) -> pd.DataFrame:
    """The present IDA* (byte tables) vs the fast kernel (same 6-6-3 in 4 bits), same run."""
    db = pattern_database(KORF_SHAPE, KORF_GOAL, "6-6-3", progress=True)
    fast = ida.to_compact(db)
    first = instances.state.iloc[0]
    ida_star(db, first), ida.solve_compact(fast, first)  # compile outside the timing
    rows = []
    for name, run, d in [("present IDA* (pdb.py)", ida_star, db),
                         ("fast IDA* (ida.py)", ida.solve_compact, fast)]:  # fmt: skip
        t = clock()
        res = [run(d, s) for s in instances.state]
        wall, cpu = since(t)
        assert [r.length for r in res] == instances.optimal_length.tolist(), name
        expanded = sum(r.expanded for r in res)
        generated = sum(r.generated for r in res)
        rows.append({"kernel": name, "expanded": expanded, "generated": generated,
                     "cpu s": round(cpu, 2), "wall s": round(wall, 2),
                     "M expanded/cpu s": round(expanded / cpu / 1e6, 2),
                     "M generated/cpu s": round(generated / cpu / 1e6, 2)})  # fmt: skip
    out = pd.DataFrame(rows)
    out["speed ratio (gen/cpu s)"] = (out["M generated/cpu s"] / out["M generated/cpu s"][0]).round(
        2
    )
    return out


def best_on_korf100(instances: pd.DataFrame) -> dict:
    """7-8 + reflection on Korf's instances with the fast kernel: totals beside the paper."""
    t = clock()
    db = best_database(KORF_SHAPE, KORF_GOAL)
    load_wall, load_cpu = since(t)
    ida.solve_compact(db, instances.state.iloc[0])  # compile outside the timing
    t = clock()
    res = [ida.solve_compact(db, s) for s in instances.state]
    wall, cpu = since(t)
    expanded = sum(r.expanded for r in res)
    return {
        "instances": len(res),
        "all optimal": [r.length for r in res] == instances.optimal_length.tolist(),
        "databases": f"{db.name}, {db.nbytes / 2**20:.0f} MiB, loaded in {load_wall:.1f} s",
        "build cpu s (cached)": [f.get("cpu_seconds") for f in db.facts],
        "expanded": expanded,
        "expanded / instance": round(expanded / len(res)),
        "generated": sum(r.generated for r in res),
        "cpu s": round(cpu, 3),
        "wall s": round(wall, 3),
        "M expanded / cpu s": round(expanded / cpu / 1e6, 2),
        "published (Korf & Felner 2002)": "18,601 / instance with reflection (36,710 without)",
    }


def best_on_24(ids: tuple[int, ...] = (40, 38, 25), max_seconds: float = 1800) -> pd.DataFrame:
    """6-6-6-6 + reflection on the easiest 24-puzzles, nodes beside Korf & Felner's."""
    db = best_database((5, 5), tuple(range(25)))
    table = korf24().set_index("id")
    rows = []
    for i in ids:
        r = table.loc[i]
        t = clock()
        res = ida.solve_compact(db, r.state, max_seconds=max_seconds)
        wall, cpu = since(t)
        rows.append({"id": i, "optimal": r.optimal_length, "length": res.length,
                     "verdict": res.verdict, "expanded": res.expanded,
                     "generated": res.generated,
                     "Korf & Felner": r.expansions_korf_felner_2002,
                     "cpu s": round(cpu, 1), "wall s": round(wall, 1),
                     "M expanded/cpu s": round(res.expanded / max(cpu, 1e-9) / 1e6, 2),
                     })  # fmt: skip
    return pd.DataFrame(rows)


def limit_section(quick: bool, with_24: bool) -> None:
    """Print the issue-21 tables: kernel ratio, 7-8 on Korf's 100, the 24-puzzles."""
    korf = korf100()
    if quick:
        korf = korf.sort_values(["optimal_length", "id"]).head(10)
    print("== fast vs present IDA*, same 6-6-3 databases + reflection, Korf's instances")
    print(kernel_ratio(korf).to_string(index=False))
    print("\n== pdb:best on 4x4: 7-8 + reflection, fast IDA*, Korf's instances")
    summary = best_on_korf100(korf)
    for k, v in summary.items():
        print(f"  {k:32} {v}")
    assert summary["all optimal"], "a Korf instance was not solved optimally"
    if with_24:
        print("\n== pdb:best on 5x5: 6-6-6-6 + reflection, Korf & Felner's easiest 24-puzzles")
        print(best_on_24(ids=(40,) if quick else (40, 38, 25)).to_string(index=False))


def main() -> None:
    """Run everything and print the tables."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="10 Korf instances, 5 3x3 boards")
    parser.add_argument(
        "--limit", type=float, default=120.0, help="seconds per slidingpuzzle 4x4 run"
    )
    parser.add_argument("--only-4x4", action="store_true", help="just the slidingpuzzle 4x4 runs")
    parser.add_argument(
        "--partition", default="6-6-3", help="database split, e.g. 7-7-1 (about 1.5 GB to build)"
    )
    parser.add_argument("--cache", action="store_true", help="load cached databases if present")
    parser.add_argument("--limit-only", action="store_true", help="just the issue-21 section")
    parser.add_argument("--no-24", action="store_true", help="skip the 24-puzzle runs")
    args = parser.parse_args()
    pd.set_option("display.width", 200)
    if args.limit_only:
        limit_section(args.quick, not args.no_24)
        return
    korf = korf100(10 if args.quick else None)
    if args.only_4x4:
        db = pattern_database(KORF_SHAPE, KORF_GOAL, "6-6-3", progress=True)
        print(compare_4x4(db, korf100(3), args.limit, ["a*", "ida*"]).to_string(index=False))
        return

    print(f"== {args.partition} additive databases + reflection, numba IDA*, Korf's instances")
    summary, runs, db = build_and_solve_all(korf, args.partition, args.cache)
    for k, v in summary.items():
        print(f"  {k:20} {v}")
    assert summary["all optimal"], "a Korf instance was not solved optimally"
    hardest = runs.sort_values("generated").tail(3)[
        ["id", "optimal_length", "generated", "seconds"]
    ]
    print("  hardest three:\n" + hardest.to_string(index=False))

    print("\n== 3x3: random boards, time per board (same process)")
    print(compare_3x3(5 if args.quick else 30, seed=0).to_string(index=False))

    print(f"\n== 4x4: easiest Korf instances, slidingpuzzle limited to {args.limit:g} s each")
    print(compare_4x4(db, korf100(3), args.limit, ["a*", "ida*"]).to_string(index=False))

    print()
    limit_section(args.quick, not args.no_24)


if __name__ == "__main__":
    main()
