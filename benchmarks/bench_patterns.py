"""Pattern statistics: closed forms against the write-up's pure-Python simulations.

Run: `make bench` (or `.venv/bin/python benchmarks/bench_patterns.py`).
The baseline re-creates the write-up's method (Python's `random.choice` in nested loops, 100
runs per pool size); puzzlelab answers the same questions with the occupancy closed form (exact,
no simulation noise) and with a vectorized numpy simulation. Same process, best of 3, wall and
CPU time side by side; the error column is the largest distance from the exact expectation.
"""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
from timing import timed

from puzzlelab import patterns as pt


def baseline_curve(pools, n_samples: int, trials: int, seed: int = 0) -> np.ndarray:
    """The write-up's chart: draw n samples `trials` times per pool with random.choice."""
    rng = random.Random(seed)
    out = []
    for pool in pools:
        case = list(range(1, pool + 1))
        total = 0
        for _ in range(trials):
            total += len({rng.choice(case) for _ in range(n_samples)})
        out.append(total / trials)
    return np.array(out)


def baseline_samples_needed(pool: int, reliability: float) -> int:
    """The write-up's loop: multiply by N/(N+1) until the risk is at most `reliability`."""
    probability, n = 1.0, 0
    while probability > reliability:
        probability *= pool / (pool + 1)
        n += 1
    return n


def main() -> None:
    """Print one row per question: baseline vs closed form vs numpy simulation."""
    pools = list(range(1, 101))
    exact = np.array([pt.expected_distinct(N, 80) for N in pools])
    rows = []

    base, bw, bc = timed(repeat=3, fn=lambda: baseline_curve(pools, 80, 100))
    closed, cw, cc = timed(
        repeat=3, fn=lambda: np.array([pt.expected_distinct(N, 80) for N in pools])
    )
    sim, sw, sc = timed(repeat=3, fn=lambda: pt.simulate_curve(pools, 80, trials=100, rng=0))
    rows.append(
        (
            "chart: pools 1-100 x 100 runs x 80",
            bw,
            bc,
            cw,
            cc,
            sw,
            sc,
            np.abs(base - exact).max(),
            np.abs(sim - exact).max(),
        )
    )

    e500 = pt.expected_distinct(80, 500)
    base, bw, bc = timed(repeat=3, fn=lambda: baseline_curve([80], 500, 100))
    closed, cw, cc = timed(repeat=3, fn=lambda: pt.expected_distinct(80, 500))
    sim, sw, sc = timed(
        repeat=3, fn=lambda: pt.simulate_distinct(80, 500, trials=100, rng=0).mean()
    )
    rows.append(
        (
            "E[D], N=80, n=500, 100 runs",
            bw,
            bc,
            cw,
            cc,
            sw,
            sc,
            abs(base[0] - e500),
            abs(sim - e500),
        )
    )

    base, bw, bc = timed(repeat=3, fn=lambda: [baseline_samples_needed(N, 0.001) for N in pools])
    closed, cw, cc = timed(repeat=3, fn=lambda: [pt.samples_needed(N, 0.001) for N in pools])
    assert base == closed
    rows.append(("samples needed, N=1-100", bw, bc, cw, cc, np.nan, np.nan, 0.0, np.nan))

    _, ew, ec = timed(repeat=3, fn=lambda: pt.estimate_pool_size(80, 48))
    print(
        f"exact MLE + 95 % interval for 48/80 (no baseline exists): {ew * 1e3:.1f} ms wall, "
        f"{ec * 1e3:.1f} ms CPU"
    )
    cols = [
        "question",
        "base wall",
        "base cpu",
        "closed wall",
        "closed cpu",
        "numpy wall",
        "numpy cpu",
        "base err",
        "numpy err",
    ]
    table = pd.DataFrame(rows, columns=cols).set_index("question")
    table.insert(4, "closed x (cpu)", table["base cpu"] / table["closed cpu"].clip(lower=1e-7))
    table.insert(7, "numpy x (cpu)", table["base cpu"] / table["numpy cpu"].clip(lower=1e-7))
    with pd.option_context(
        "display.width", 250, "display.max_columns", 20, "display.float_format", "{:.4g}".format
    ):
        print(table)
    print("times in seconds (best of 3); x = baseline CPU / puzzlelab CPU")
    print("errors: largest |mean - exact E[D]| (closed form: 0 by construction)")


if __name__ == "__main__":
    main()
