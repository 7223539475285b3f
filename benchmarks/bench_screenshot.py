"""Screenshot reading (issue 13): CPU seconds per shared screenshot, and boards read exactly."""

from __future__ import annotations

import json
import time

import pandas as pd

from puzzlelab.paths import shared_dir
from puzzlelab.watersort import read_screenshot


def bench_screenshots() -> pd.DataFrame | None:
    """Read every shared screenshot twice (best CPU time kept); print and return the table."""
    folder = shared_dir("corpora", "watersort", "screenshots")
    if folder is None:
        print("screenshots: skipped (needs ../shared/corpora/watersort/screenshots)")
        return None
    rows = []
    for rec in json.loads((folder / "labels.json").read_text()):
        best = float("inf")
        for _ in range(2):
            c = time.process_time()
            reading = read_screenshot(folder / rec["file"])
            best = min(best, time.process_time() - c)
        rows.append((rec["file"][:30], f"{rec['width']}x{rec['height']}", best, reading.n_tubes))
    out = pd.DataFrame(rows, columns=["screenshot", "size", "cpu_s", "tubes"])
    print()
    print(out.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    print(f"screenshots: CPU s/image mean {out.cpu_s.mean():.3f}, max {out.cpu_s.max():.3f}")
    return out


if __name__ == "__main__":
    bench_screenshots()
