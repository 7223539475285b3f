"""Nonograms: puzzles and file formats, line solvers, propagation / probing / search, pictures.

`solve(puzzle)` gives a `NonogramResult` on the lab's result protocol: a verdict (unique /
multiple / unsolvable / limit), whether line logic alone sufficed, the solutions, the states
of the solve and statistics; `solve_writeup` is the write-up's enumeration
method, kept as the baseline.
"""

from .line import (
    arrangements,
    count_arrangements,
    line_solve,
    line_solve_enumerate,
    line_solve_reference,
)
from .puzzle import (
    EMPTY,
    FILLED,
    UNKNOWN,
    Clue,
    Puzzle,
    format_non,
    format_writeup_csv,
    from_grid,
    is_solution,
    line_clue,
    min_length,
    parse_nin,
    parse_non,
    parse_writeup_csv,
    read_puzzle,
    validate,
    write_non,
)
from .solver import (
    Deduction,
    NonogramResult,
    Step,
    is_line_solvable,
    propagate,
    solve,
    solve_steps,
)
from .writeup import WriteupResult, solve_writeup, total_arrangements

__all__ = [
    "EMPTY",
    "FILLED",
    "UNKNOWN",
    "Clue",
    "Deduction",
    "Puzzle",
    "NonogramResult",
    "Step",
    "WriteupResult",
    "arrangements",
    "count_arrangements",
    "format_non",
    "format_writeup_csv",
    "from_grid",
    "is_line_solvable",
    "is_solution",
    "line_clue",
    "line_solve",
    "line_solve_enumerate",
    "line_solve_reference",
    "min_length",
    "parse_nin",
    "parse_non",
    "parse_writeup_csv",
    "propagate",
    "read_puzzle",
    "solve",
    "solve_steps",
    "solve_writeup",
    "total_arrangements",
    "validate",
    "write_non",
]
