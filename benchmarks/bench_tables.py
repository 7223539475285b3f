"""Distance tables: the numba BFS against a plain-Python dictionary BFS, and the 12-cell boards.

Run: `make bench` (or `.venv/bin/python benchmarks/bench_tables.py [--skip-big]`).
Wall times on a shared machine swing 2-5x, so the comparison is a ratio measured in the
same process, with CPU time beside it. The 12-cell boards run in a child process each so
that their peak memory (ru_maxrss) is their own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys

from timing import timed

from puzzlelab.sliding import distance_counts_reference, distance_table


def small_boards() -> list[dict]:
    """Baseline dictionary BFS and distance_table on 3x3 and 2x4, same process, best of 5."""
    distance_table((2, 2), cache=False)  # compile (or load) the numba kernels first
    rows = []
    for shape in [(3, 3), (2, 4)]:
        ref, ref_wall, ref_cpu = timed(repeat=5, fn=lambda s=shape: distance_counts_reference(s))
        tab, wall, cpu = timed(repeat=5, fn=lambda s=shape: distance_table(s, cache=False))
        assert tab.counts.tolist() == ref.tolist()
        rows.append(
            {
                "board": f"{shape[0]}x{shape[1]}",
                "states": tab.n_states,
                "baseline wall s": round(ref_wall, 3),
                "baseline cpu s": round(ref_cpu, 3),
                "puzzlelab wall s": round(wall, 4),
                "puzzlelab cpu s": round(cpu, 4),
                "speed-up (wall)": round(ref_wall / wall, 1),
                "speed-up (cpu)": round(ref_cpu / max(cpu, 1e-9), 1),
            }
        )
    return rows


CHILD = """
import json, resource, time
from puzzlelab.sliding import distance_table
w, c = time.perf_counter(), time.process_time()
t = distance_table(({r}, {c}), cache=False, progress=False)
print(json.dumps({{"states": t.n_states, "max": t.max_depth, "mean": t.mean,
    "wall": time.perf_counter() - w, "cpu": time.process_time() - c,
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def big_board(shape: tuple[int, int]) -> dict:
    """Build a 12-cell table from scratch in a fresh process: wall, CPU and peak memory."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD.format(r=shape[0], c=shape[1])],
        check=True,
        capture_output=True,
        text=True,
    )
    res = json.loads(out.stdout.strip().splitlines()[-1])
    return {"board": f"{shape[0]}x{shape[1]}", **res}


def main() -> None:
    """Print both tables."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--skip-big", action="store_true", help="skip the 3x4 and 2x6 builds")
    args = ap.parse_args()
    print("Dictionary BFS (baseline) vs puzzlelab.distance_table, same process:")
    for row in small_boards():
        print("  ", row)
    if not args.skip_big:
        print("12-cell boards from scratch (target <= 120 s and <= 600 MB each):")
        for shape in [(3, 4), (2, 6)]:
            print("  ", big_board(shape))
    print("bench process peak MB:", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)


if __name__ == "__main__":
    main()
