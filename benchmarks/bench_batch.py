"""puzzlelab.batch: "local" Dask cluster against the serial run, per-case overhead, census costs.

Run from the repository root: `.venv/bin/python benchmarks/bench_batch.py [--quick] [--no-15]`.
1. Speed-up: the same water-sort deal census (16-color deals, two empty tubes) run serially
   and on a LocalCluster with one single-threaded worker process per core; wall time, CPU of
   this process and CPU of the workers (measured on the workers), plus the cluster's start-up.
   The two tables are checked equal.
2. Per-case overhead: a trivial row function over 2,000 cases: a plain loop, run_batch in
   this process, run_batch on the cluster.
3. Per-case CPU of each census at the points of the full run (a few cases per point), and
   what the full census (10,000 deals / pictures per point, 1,000 15-puzzles) would cost on
   N machines.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time

import pandas as pd
from timing import timed

from puzzlelab.batch import run_batch
from puzzlelab.nonogram import census as nonogram
from puzzlelab.sliding import census as sliding
from puzzlelab.watersort import census as watersort

FULL = {  # the full census: cases per point and points
    "water sort": (10_000, len(range(4, 21)) * 2),  # 4..20 colors x 1, 2 empty tubes
    "nonogram": (10_000, 4 * 7),  # 10x10, 15x15, 20x20, 25x25 x densities 0.2..0.8
    "15-puzzle": (1_000, 1),
}


def trivial(case: dict) -> dict:
    """The cheapest row function: the overhead of run_batch itself."""
    return {"twice": 2 * case["i"]}


def worker_cpu(client) -> float:
    """Total CPU seconds used so far by the cluster's worker processes."""
    return sum(client.run(time.process_time).values())


def speedup(n_deals: int) -> tuple[pd.DataFrame, float]:
    """Serial against a LocalCluster on the same deals; (table, CPU efficiency of the cluster)."""
    from distributed import Client, LocalCluster

    cases = watersort.cases((16,), n_deals, (2,))
    serial, w_s, c_s = timed(lambda: run_batch(watersort.deal_row, cases, progress=False))
    cores = os.cpu_count() or 1
    t0 = time.perf_counter()
    with (
        LocalCluster(
            n_workers=cores,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        ) as cluster,
        Client(cluster) as client,
    ):
        start_up = time.perf_counter() - t0
        _, w_warm, _ = timed(
            lambda: run_batch(watersort.deal_row, cases[:cores], cluster=client, progress=False)
        )
        cpu0 = worker_cpu(client)
        table, w_l, c_l = timed(
            lambda: run_batch(watersort.deal_row, cases, cluster=client, progress=False)
        )
        cpu_workers = worker_cpu(client) - cpu0
    if not table.equals(serial):
        raise SystemExit("the cluster's table differs from the serial one")
    local, w_e2e, c_e2e = timed(
        lambda: run_batch(watersort.deal_row, cases, cluster="local", progress=False)
    )
    if not local.equals(serial):
        raise SystemExit("the 'local' table differs from the serial one")
    nan = float("nan")
    rows = [
        ("serial (this process)", w_s, c_s, 0.0),
        (f"LocalCluster, {cores} workers, warm", w_l, c_l, cpu_workers),
        ("  its start-up", start_up, nan, nan),
        (f"  its first {cores} cases (imports)", w_warm, nan, nan),
        ('cluster="local" end to end', w_e2e, c_e2e, nan),
    ]
    out = pd.DataFrame(rows, columns=["run", "wall_s", "cpu_main_s", "cpu_workers_s"])
    out["speed-up"] = w_s / out["wall_s"]
    return out, c_s / (c_l + cpu_workers)


def overhead(n: int = 2000) -> pd.DataFrame:
    """Microseconds per case of a trivial function: loop, run_batch serial and on a cluster."""
    from distributed import Client, LocalCluster

    cases = [{"i": i} for i in range(n)]
    _, w_loop, _ = timed(lambda: [trivial(c) for c in cases], repeat=3)
    _, w_ser, _ = timed(lambda: run_batch(trivial, cases, progress=False), repeat=3)
    with (
        LocalCluster(
            n_workers=os.cpu_count() or 1,
            threads_per_worker=1,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        ) as cluster,
        Client(cluster) as client,
    ):
        run_batch(trivial, cases[:10], cluster=client, progress=False)
        _, w_cl, _ = timed(lambda: run_batch(trivial, cases, cluster=client, progress=False))
        _, w_one, _ = timed(
            lambda: run_batch(trivial, cases[:200], cluster=client, progress=False, chunk_size=1)
        )
    return pd.DataFrame(
        [
            ("plain loop", 1e6 * w_loop / n),
            ("run_batch, this process (64 chunks)", 1e6 * w_ser / n),
            ("run_batch, LocalCluster (64 chunks)", 1e6 * w_cl / n),
            ("run_batch, LocalCluster, one case per task", 1e6 * w_one / 200),
        ],
        columns=["run", "us_per_case"],
    )


def per_case_cpu(per_point: int, with_15: bool) -> pd.DataFrame:
    """CPU seconds per case of each census, sampled over the points of the full run."""
    samples = {
        "water sort": (
            watersort.deal_row,
            watersort.cases(range(4, 21), per_point, (1, 2)),
        ),
        "nonogram": (
            nonogram.picture_row,
            nonogram.cases(
                [(10, 10), (15, 15), (20, 20), (25, 25)],
                (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8),
                per_point,
            ),
        ),
    }
    if with_15:
        sliding.database(4, 4, "6-6-3")  # load (or build) the databases outside the timing
        samples["15-puzzle"] = (sliding.board_row, sliding.cases(10 * per_point, (4, 4)))
    rows = []
    for name, (fn, cases) in samples.items():
        fn(cases[0])  # compile / warm
        table, wall, cpu = timed(lambda fn=fn, cases=cases: run_batch(fn, cases, progress=False))
        per_point_cases, points = FULL[name]
        total = per_point_cases * points
        rows.append(
            {
                "census": name,
                "sampled": len(cases),
                "cpu_s_per_case": cpu / len(cases),
                "limit": int((table["verdict"] == "limit").sum()),
                "full_cases": total,
                "full_cpu_h": cpu / len(cases) * total / 3600,
            }
        )
        if name == "15-puzzle":
            rows[-1]["mean_length"] = float(table["length"].mean())
    return pd.DataFrame(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer cases everywhere")
    parser.add_argument("--no-15", action="store_true", help="skip the 15-puzzle (6-6-3 PDB)")
    parser.add_argument("--cores", type=int, default=8, help="cores per machine for estimates")
    args = parser.parse_args()
    pd.set_option("display.width", 120)
    pd.set_option("display.float_format", "{:.4g}".format)

    table, efficiency = speedup(120 if args.quick else 400)
    print("1. serial vs LocalCluster (16-color water-sort deals, identical tables)")
    print(table.to_string(index=False))
    print(f"   CPU efficiency (serial CPU / cluster CPU) {efficiency:.0%}\n")

    print("2. per-case overhead of a trivial row function")
    print(overhead().to_string(index=False), "\n")

    costs = per_case_cpu(2 if args.quick else 4, not args.no_15)
    print("3. per-case CPU of each census and the full run's cost")
    print(costs.to_string(index=False))
    cpu_h = costs["full_cpu_h"].sum()
    print(f"   full census: {cpu_h:.1f} CPU hours in all")
    for machines in (1, 4, 16, 64):
        cores = machines * args.cores
        hours = cpu_h / (cores * efficiency)  # dedicated cores: wall follows CPU
        print(f"   {machines:3d} machine(s) x {args.cores} cores: about {hours:.2f} h wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
