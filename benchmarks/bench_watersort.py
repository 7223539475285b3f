"""Water sort: our optimal A* against the write-up's A* (and BFS / greedy), one table of figures.

Run from the repository root: `.venv/bin/python benchmarks/bench_watersort.py [--quick]`.
1. The shared corpus (86 levels) with `optimal`: every optimum matched, CPU per level,
   in particular the 12-color app levels (target <= 2 s each).
2. 100 seeded 12-color, 14-tube write-up deals: `optimal` against the write-up's A*
   (`writeup`): ours is never longer; lengths and time ratio.
3. 10 seeded 8-color deals: BFS against `optimal` (the write-up found BFS ~50x slower than A*).
4. 22-color, 24-tube deals with `greedy` (target <= 5 s each), and what it proves.
Times are CPU (time.process_time) and wall (time.perf_counter) in the same process, from
`timing.timed`. The deals are the census's (`census.deal_level`, seeded by `batch.case_rng`
over the deal keys, with seed 2026).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import pandas as pd
from timing import timed as timed_call

from puzzlelab.watersort import census, data, solve


def timed(level, method, **kw):
    """(solution, cpu seconds, wall seconds) of one solve."""
    sol, wall, cpu = timed_call(lambda: solve(level, method, **kw))
    return sol, cpu, wall


def deal(n_colors: int, k: int, n_empty: int = 2):
    """Deal k of the benchmark's seeded write-up deals (the census's deal generator)."""
    case = {"seed": 2026, "colors": n_colors, "capacity": 4, "deal": k, "empty": n_empty}
    return census.deal_level(case)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer deals (smoke test)")
    args = parser.parse_args()
    n12, n8, n22 = (10, 3, 3) if args.quick else (100, 10, 20)
    rows = []

    corpus = data.load_corpus()
    if corpus is None:
        print("../shared is absent: skipping the corpus part")
    else:
        table = []
        for entry in corpus.itertuples():
            sol, cpu, wall = timed(entry.level, "optimal")
            published = None if pd.isna(entry.optimal_pours) else entry.optimal_pours
            table.append((entry.name, entry.colors, sol.length == published, cpu, wall))
        df = pd.DataFrame(table, columns=["level", "colors", "ok", "cpu", "wall"])
        big = df[df.colors >= 12]
        print(f"corpus: {df.ok.sum()}/{len(df)} optima matched")
        print(big.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        rows.append(("corpus, all levels (optimal)", len(df), df.cpu.sum(), df.wall.sum(), ""))
        rows.append(
            (
                "corpus, 12-color app levels: max per level",
                len(big),
                big.cpu.max(),
                big.wall.max(),
                "target <= 2 s",
            )
        )

    ours_cpu = writeup_cpu = ours_wall = writeup_wall = worst12 = 0.0
    longer = shorter = equal = writeup_failed = 0
    extra = []
    for k in range(n12):
        level = deal(12, k)
        a, ca, wa = timed(level, "optimal")
        b, cb, wb = timed(level, "writeup", max_expanded=200_000)
        ours_cpu, ours_wall, writeup_cpu, writeup_wall = (
            ours_cpu + ca,
            ours_wall + wa,
            writeup_cpu + cb,
            writeup_wall + wb,
        )
        worst12 = max(worst12, ca)
        assert a.solved and a.verify()
        if not b.solved:
            writeup_failed += 1
            continue
        assert b.verify()
        longer += a.length > b.length
        shorter += a.length < b.length
        equal += a.length == b.length
        extra.append(b.length - a.length)
    print(
        f"12 colors: ours longer {longer}, shorter {shorter}, equal {equal}, "
        f"write-up failed {writeup_failed}; write-up extra pours mean {np.mean(extra):.2f} "
        f"max {max(extra)}"
    )
    rows.append(
        (
            f"12-color deals: optimal (ours), {n12} deals",
            n12,
            ours_cpu,
            ours_wall,
            f"worst deal {worst12:.3f} s cpu",
        )
    )
    rows.append(
        (
            f"12-color deals: write-up A*, {n12} deals",
            n12,
            writeup_cpu,
            writeup_wall,
            f"ratio write-up/ours cpu {writeup_cpu / ours_cpu:.1f}x",
        )
    )

    bfs_cpu = ast_cpu = bfs_wall = ast_wall = 0.0
    for k in range(n8):
        level = deal(8, k)
        a, ca, wa = timed(level, "optimal")
        b, cb, wb = timed(level, "bfs")
        assert a.length == b.length
        ast_cpu, ast_wall, bfs_cpu, bfs_wall = (
            ast_cpu + ca,
            ast_wall + wa,
            bfs_cpu + cb,
            bfs_wall + wb,
        )
    rows.append((f"8-color deals: optimal A*, {n8} deals", n8, ast_cpu, ast_wall, ""))
    rows.append(
        (
            f"8-color deals: BFS, {n8} deals",
            n8,
            bfs_cpu,
            bfs_wall,
            f"ratio BFS/A* cpu {bfs_cpu / ast_cpu:.0f}x",
        )
    )

    worst_wall = worst_cpu = 0.0
    verdicts: dict[str, int] = {}
    for k in range(n22):
        level = deal(22, k)
        sol, c, w = timed(level, "greedy")
        assert sol.verify()
        verdicts[sol.verdict] = verdicts.get(sol.verdict, 0) + 1
        worst_cpu, worst_wall = max(worst_cpu, c), max(worst_wall, w)
    rows.append(
        (
            f"22-color 24-tube deals: greedy, worst of {n22}",
            n22,
            worst_cpu,
            worst_wall,
            "target <= 5 s; " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())),
        )
    )

    out = pd.DataFrame(rows, columns=["case", "n", "cpu_s", "wall_s", "note"])
    print()
    print(out.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0


if __name__ == "__main__":
    status = main()
    # ---- screenshot reading: CPU seconds per screenshot ----
    from bench_screenshot import bench_screenshots

    bench_screenshots()
    sys.exit(status)
