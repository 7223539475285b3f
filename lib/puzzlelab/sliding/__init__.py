"""Sliding-tile puzzles: boards, perfect hashing, complete distance tables."""

from .board import (
    Move,
    Shape,
    State,
    format_board,
    is_solvable,
    manhattan,
    move_between,
    neighbors,
    parse_board,
    require_solvable,
    solved_state,
    to_pattern,
)
from .tables import DistanceTable, cached_table, distance_counts_reference, distance_table

__all__ = [
    "DistanceTable",
    "Move",
    "Shape",
    "State",
    "cached_table",
    "distance_counts_reference",
    "distance_table",
    "format_board",
    "is_solvable",
    "manhattan",
    "move_between",
    "neighbors",
    "parse_board",
    "require_solvable",
    "solved_state",
    "to_pattern",
]

# optimal search (issue 3): heuristics, pattern databases, solve()
from .heuristics import linear_conflict, misplaced  # noqa: E402
from .pdb import PatternDatabase, pattern_database  # noqa: E402
from .solve import Solution, is_solution, solve  # noqa: E402
from .writeup import writeup_astar  # noqa: E402

__all__ += [
    "PatternDatabase",
    "Solution",
    "is_solution",
    "linear_conflict",
    "misplaced",
    "pattern_database",
    "solve",
    "writeup_astar",
]
