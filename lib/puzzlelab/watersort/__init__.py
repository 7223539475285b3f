"""Water sort: levels and the pour rule, bounds, optimal and baseline solvers, generator, pictures.

The rooms (the same in every study): `level` (the model and the pour rule), `solve` (every
method, one `Solution` result), `writeup` (the write-up's A*), `plots` (every figure and the
step drawer), `data` (level files, published figures), `census` (every many-level question);
plus `bounds`, `generate` and the screenshot reader (`screenshot`, `colors`).

Quick start::

    from puzzlelab.watersort import Level, solve
    level = Level.parse("RGBY YRGB BYRG GBYR - -")
    sol = solve(level)              # optimal A*: sol.verdict, sol.length, sol.moves, sol.states
    sol.verify()                    # the pours replayed by the pour rule
"""

from .bounds import lower_bound, writeup_estimate
from .data import load_corpus, load_levels
from .generate import level_with_optimum, random_deal, reverse_play
from .level import Color, Level, Pour, Tube, is_solution, same_up_to_renaming
from .plots import draw_reading
from .screenshot import Reading, read_screenshot
from .solve import METHODS, Solution, WaterSortProblem, optimal_length, solve
from .writeup import solve_writeup

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
    "is_solution",
    "level_with_optimum",
    "load_corpus",
    "load_levels",
    "lower_bound",
    "optimal_length",
    "random_deal",
    "read_screenshot",
    "reverse_play",
    "same_up_to_renaming",
    "solve",
    "solve_writeup",
    "writeup_estimate",
]
