"""Nonograms: puzzles and file formats, line solvers, propagation / probing / SAT, pictures.

The study's rooms: `puzzle` (the model: clues, formats, `is_solution`), `line` (the DP line
solver), `solve` (`solve(puzzle) -> NonogramResult`: verdict unique / multiple / unsolvable
/ limit, the solutions, one state per deduction step), `sat` (the residual as CNF),
`writeup` (the write-up's enumeration method, the same `NonogramResult`), `plots` (every
figure, and the step drawer behind `plotting.animate` / `widgets.stepper`), `data`
(corpora and published constants) and `census` (every "over many puzzles" question).
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
    as_picture,
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
from .solve import Deduction, NonogramResult, is_line_solvable, propagate, solve
from .writeup import solve_writeup, total_arrangements

__all__ = [
    "EMPTY",
    "FILLED",
    "UNKNOWN",
    "Clue",
    "Deduction",
    "Puzzle",
    "NonogramResult",
    "arrangements",
    "as_picture",
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
    "solve_writeup",
    "total_arrangements",
    "validate",
    "write_non",
]
