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
