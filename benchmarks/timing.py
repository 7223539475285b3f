"""Timing shared by the benchmark scripts: wall and CPU time of the same run, best of n."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[Any, float, float]:
    """(result, wall seconds, CPU seconds) of fn(): the fastest of `repeat` runs (least noise)."""
    best_w = best_c = float("inf")
    out = None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        best_w = min(best_w, time.perf_counter() - w)
        best_c = min(best_c, time.process_time() - c)
    return out, best_w, best_c
