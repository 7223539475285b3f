"""Sliding-tile puzzles: boards, perfect hashing, complete distance tables, optimal search.

The study's rooms: `board` (the model: parse/format, the slide rule, `is_solution`),
`solve` (`solve` -> `Solution`, the study's one result type), `writeup` (`solve_writeup`,
the A* write-up's method), `plots` (every figure and the registered step drawer), `data`
(reference loaders and published constants), `census` (every "over many boards" question,
and `random_board`); kernels in `ranking`, `tables`, `heuristics` and `pdb`.
"""

from .board import (
    Move,
    Shape,
    State,
    apply_moves,
    check_shape,
    format_board,
    is_solution,
    is_solvable,
    manhattan,
    move_between,
    neighbors,
    parse_board,
    reachable_states,
    read_board,
    require_solvable,
    slide,
    solved_state,
    to_pattern,
)
from .census import random_board
from .heuristics import linear_conflict, misplaced
from .pdb import PatternDatabase, pattern_database
from .solve import Solution, solve
from .tables import DistanceTable, cached_table, distance_counts_reference, distance_table
from .writeup import solve_writeup

__all__ = [
    "DistanceTable",
    "Move",
    "PatternDatabase",
    "Shape",
    "Solution",
    "State",
    "apply_moves",
    "cached_table",
    "check_shape",
    "distance_counts_reference",
    "distance_table",
    "format_board",
    "is_solution",
    "is_solvable",
    "linear_conflict",
    "manhattan",
    "misplaced",
    "move_between",
    "neighbors",
    "parse_board",
    "pattern_database",
    "random_board",
    "reachable_states",
    "read_board",
    "require_solvable",
    "slide",
    "solve",
    "solve_writeup",
    "solved_state",
    "to_pattern",
]
