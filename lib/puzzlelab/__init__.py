"""puzzlelab: a notebook research lab for puzzle search.

One package per study, every solver study with the same rooms (the model, `solve`, `writeup`,
`plots`, `data`, `census`): `sliding`, `watersort`, `nonogram`; and the reading and statistics
studies `video` and `patterns`. Shared floor: `errors`, `checks`, `paths`, `cache`, `results`
(Result, Budget), `search`, `batch`, `stats`, `plotting`, `report`, `widgets`.
See README.md for the map and CONTRIBUTING.md for adding a study.
"""

__version__ = "0.1.0"
