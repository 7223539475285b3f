"""Water-sort data: the level-file loader (a DataFrame) and the published figures, with sources.

Level files use the shared corpus's schema: ``{"levels": [{"name", "capacity", "tubes", ...}]}``
(or a list of levels, or one level); each level is read by `Level.from_dict` and every other
field of the entry (``source``, ``optimal_pours``, ``solvable``) is kept as a column.
"""

from __future__ import annotations

import json
import os

import pandas as pd

from ..checks import read_text
from ..errors import ParseError, PuzzleError
from ..paths import shared_dir
from .level import Level

CORPUS = ("corpora", "watersort", "levels.json")  # under ../shared

# Published figures, each with where it comes from.
ITO_LEVEL = "ito-fig10a-h3-n9-k2"  # Ito et al.'s capacity-3, nine-colour level, two empty tubes
ITO_LEVEL_3 = "ito-fig10a-h3-n9-k3"  # the same level with a third empty tube
ITO_POSITIONS = 5887  # canonical positions reachable with two empty tubes, none sorted
ITO_OPTIMUM_3 = 24  # fewest pours with three empty tubes
ITO_SOURCE = (
    "Ito, Kawahara, Minato et al., 'Sorting Balls and Water: Equivalence and Computational "
    "Complexity', FUN 2022 (arXiv:2202.09495), Fig. 10(a); the position count and the optimum "
    "as ../shared/corpora/watersort/SOURCES.md reports them"
)
CORPUS_SOURCE = "../shared/corpora/watersort/levels.json (optima published by each solver)"

COLUMNS = ["name", "source", "level", "capacity", "colors", "tubes", "optimal_pours", "solvable"]


def load_levels(path: str | os.PathLike) -> pd.DataFrame:
    """The levels of a JSON file, one row each.

    Parameters
    ----------
    path : str or path-like
        A UTF-8 JSON file holding ``{"levels": [level, ...]}``, a list of levels, or one
        level (each a dict with ``capacity`` and ``tubes``, as `Level.from_dict` reads).

    Returns
    -------
    DataFrame
        Columns ``name`` (the entry's, else ``level-k``), ``source`` (the name's prefix before
        the first ``-``), ``level`` (the `Level`), ``capacity``, ``colors``, ``tubes``, and
        ``optimal_pours`` / ``solvable`` (None where the file does not say), then any other
        field of the entries.

    Raises
    ------
    ParseError
        A missing, binary or non-UTF-8 file, invalid or too deeply nested JSON, or a level of
        the wrong shape (the message names the level's position in the file).
    InvalidPuzzleError
        A level that breaks a rule (overfull tube, unbalanced color, bad capacity).
    """
    if not isinstance(path, str | os.PathLike):
        raise ParseError(f"a level file is a path (str or Path), not {type(path).__name__}")
    text = read_text(path, "level file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ParseError(f"level file {path} is not valid JSON: {err}") from None
    except RecursionError:
        raise ParseError(f"level file {path} nests its JSON too deeply to be a level") from None
    if isinstance(data, dict) and "levels" in data:
        data = data["levels"]
    entries = data if isinstance(data, list) else [data]
    rows = []
    for k, entry in enumerate(entries):
        try:
            level = Level.from_dict(entry)
        except PuzzleError as err:
            raise type(err)(f"level {k} of {path}: {err}") from None
        except RecursionError:
            raise ParseError(f"level {k} of {path} nests too deeply to be a level") from None
        name = level.name or f"level-{k}"
        extra = {key: v for key, v in entry.items() if key not in ("capacity", "tubes", "name")}
        rows.append(
            {
                "name": name,
                "source": name.split("-")[0],
                "level": level,
                "capacity": level.capacity,
                "colors": level.n_colors,
                "tubes": level.n_tubes,
                "optimal_pours": None,
                "solvable": None,
                **extra,
            }
        )
    table = pd.DataFrame(rows, columns=None if rows else COLUMNS)
    table["optimal_pours"] = table["optimal_pours"].astype("Int64")
    return table


def load_corpus() -> pd.DataFrame | None:
    """The shared corpus (86 app and paper levels) as `load_levels` reads it; None without it."""
    path = shared_dir(*CORPUS)
    return None if path is None else load_levels(path)


__all__ = [
    "CORPUS",
    "CORPUS_SOURCE",
    "ITO_LEVEL",
    "ITO_LEVEL_3",
    "ITO_OPTIMUM_3",
    "ITO_POSITIONS",
    "ITO_SOURCE",
    "load_corpus",
    "load_levels",
]
