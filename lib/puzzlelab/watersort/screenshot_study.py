"""Study 07 helpers: a demo screenshot, and the shared set read and solved as a table."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from ..paths import shared_dir
from .screenshot import read_screenshot
from .solve import solve

DEFAULT_SHOT = "15_ColinGJohnson_watersort-solver_problem1.jpg"


def demo_screenshot(name: str | None = None) -> Path | np.ndarray:
    """A shared screenshot by file name (default `DEFAULT_SHOT`), or a board the lab renders."""
    folder = shared_dir("corpora", "watersort", "screenshots")
    if folder is not None:
        return folder / (name or DEFAULT_SHOT)
    return render_board_image()[1]


def render_board_image(seed: int = 7, dpi: int = 100, n_colors: int = 5):
    """(level, RGB array) of a random deal drawn by `render.draw_board` (no-../shared fallback)."""
    import matplotlib.pyplot as plt

    from .generate import random_deal
    from .plots import draw_board, figure_size

    level = random_deal(n_colors, 2, 4, rng=seed)
    fig, ax = plt.subplots(figsize=figure_size(level), dpi=dpi)
    draw_board(level, ax)
    fig.canvas.draw()
    rgb = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].copy()
    plt.close(fig)
    return level, rgb


def same_up_to_renaming(a, b) -> bool:
    """True when two lists of tubes are equal after renaming colours one-to-one."""

    def pattern(tubes):
        seen: dict = {}
        return [
            None if t is None else tuple(seen.setdefault(u, len(seen)) for u in t) for t in tubes
        ]

    return pattern(a) == pattern(b)


def read_and_solve_all(max_expanded: int = 200_000):
    """One row per shared screenshot: tubes, hidden units, CPU seconds, verdict, length."""
    import pandas as pd

    folder = shared_dir("corpora", "watersort", "screenshots")
    records = json.loads((folder / "labels.json").read_text())
    rows = []
    for rec in records:
        t0 = time.process_time()
        reading = read_screenshot(folder / rec["file"])
        cpu = time.process_time() - t0
        verdict, length = "hidden or covered units: not solvable from the picture", None
        if reading.level is not None:
            sol = solve(reading.level, "optimal", max_expanded=max_expanded)
            verdict, length = sol.verdict, sol.length
        elif reading.problems:
            verdict = "; ".join(reading.problems)
        rows.append(
            {
                "file": rec["file"][:28],
                "tubes": reading.n_tubes,
                "hidden": reading.n_hidden,
                "covered": len(reading.covered),
                "read_cpu_s": round(cpu, 3),
                "verdict": verdict,
                "length": length,
            }
        )
    return pd.DataFrame(rows)


__all__ = [
    "DEFAULT_SHOT",
    "demo_screenshot",
    "read_and_solve_all",
    "render_board_image",
    "same_up_to_renaming",
]
