"""Sliding-tile puzzles: boards, perfect hashing, complete distance tables, optimal search."""

from .board import (
    Move,
    Shape,
    State,
    check_shape,
    format_board,
    is_solvable,
    manhattan,
    move_between,
    neighbors,
    parse_board,
    read_board,
    require_solvable,
    solved_state,
    to_pattern,
)
from .heuristics import linear_conflict, misplaced
from .pdb import PatternDatabase, pattern_database
from .solve import Solution, is_solution, solve
from .tables import DistanceTable, cached_table, distance_counts_reference, distance_table
from .writeup import writeup_astar

__all__ = [
    "DistanceTable",
    "Move",
    "PatternDatabase",
    "Shape",
    "Solution",
    "State",
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
    "read_board",
    "require_solvable",
    "solve",
    "solved_state",
    "to_pattern",
    "writeup_astar",
]
