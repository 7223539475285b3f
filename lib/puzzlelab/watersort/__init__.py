"""Water sort: levels, the pour rule, bounds, optimal and baseline solvers, generator, pictures.

Quick start::

    from puzzlelab.watersort import Level, solve
    level = Level.parse("RGBY YRGB BYRG GBYR - -")
    sol = solve(level)              # optimal A*: sol.verdict, sol.length, sol.moves, sol.states
"""

from .bounds import lower_bound, writeup_estimate
from .level import (
    Color,
    Level,
    Pour,
    Tube,
    is_complete,
    is_solution,
    load_levels,
    n_runs,
    pour_amount,
    poured,
    top_run,
)
from .screenshot import Reading, draw_reading, read_screenshot
from .solvers import METHODS, Solution, WaterSortProblem, optimal_length, solve

__all__ = [
    "METHODS",
    "Color",
    "Level",
    "Pour",
    "Reading",
    "Solution",
    "Tube",
    "WaterSortProblem",
    "draw_reading",
    "is_complete",
    "is_solution",
    "load_levels",
    "lower_bound",
    "n_runs",
    "optimal_length",
    "pour_amount",
    "poured",
    "read_screenshot",
    "solve",
    "top_run",
    "writeup_estimate",
]
