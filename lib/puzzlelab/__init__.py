"""puzzlelab: a notebook research lab for puzzle search.

Subpackages, one per study: `sliding` (tables, heuristics, solvers), `video` (reading
puzzles from screen recordings), `patterns` (shuffle-pool statistics), `nonogram`,
`watersort`. Shared pieces: `search` (generic algorithms), `paths`, `errors`, `plotting`.
"""

__version__ = "0.1.0"
