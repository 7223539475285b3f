"""The one timing helper of the benchmark scripts: `timed(fn) -> (value, wall, cpu)`.

Every benchmark times the lab and its baseline in the same process with this function and
reports ratios, wall and CPU seconds; nothing else in the lab times calls (a notebook that
shows a time writes the same three-line pattern in the same order: value, wall, CPU).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[Any, float, float]:
    """(value, wall seconds, CPU seconds) of `fn()`: the fastest of `repeat` runs (least noise).

    The value is the last run's; wall and CPU are each the smallest seen.
    """
    if not callable(fn):
        raise TypeError(f"timed needs a function of no arguments, not {fn!r}")
    if not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be a whole number >= 1, not {repeat!r}")
    best_wall = best_cpu = float("inf")
    value = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        value = fn()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return value, best_wall, best_cpu
