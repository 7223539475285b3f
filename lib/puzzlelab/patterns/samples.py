"""The samples file: one opening per row, `picture,pattern` (the write-up's CSV format).

`read_samples` / `write_samples` are the lab's one reader and writer of this format; the video
study writes it and the statistics study reads it. The writer refuses empty tables unless
asked, never replaces a different existing file unless asked, and checks its own text with the
reader before writing, so everything it writes can be read back.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .. import checks
from ..errors import InvalidPuzzleError, ParseError, PuzzleError
from ..game import GAME_GOAL, GAME_SHAPE, N_PICTURES
from ..paths import atomic_write_text, data_dir
from ..sliding import State, is_solvable, parse_board, to_pattern

Pattern = str  # the write-up's compact board, e.g. '9B6358247'
EXAMPLE = "expected rows like '1,9B6358247'"


def samples_path() -> Path:
    """Where the statistics study looks for samples: data/last_origin/samples.csv."""
    return data_dir("last_origin", "samples.csv")


def read_samples(
    path: str | Path | None = None,
    n_pictures: int | None = N_PICTURES,
    *,
    allow_empty: bool = False,
) -> pd.DataFrame:
    """Read a samples CSV into a validated table.

    Parameters
    ----------
    path : str or Path, optional
        The CSV file (rows `picture,pattern`, header optional); default `samples_path()`.
    n_pictures : int or None
        Pictures are numbered 1..n_pictures (None: any positive number).
    allow_empty : bool
        Accept a file with a header and no rows (gives an empty table).

    Returns
    -------
    DataFrame
        Columns opening, picture, state (tuple), pattern (str), line (1-based line number).

    Raises
    ------
    ParseError
        Missing, binary or non-UTF-8 file, or rows that are not `picture,pattern`.
    InvalidPuzzleError
        A picture outside 1..n_pictures or a pattern that cannot be solved toward 789456B23.
    """
    path = samples_path() if path is None else Path(path)
    text = checks.read_text(path, "samples file")
    return parse_samples(text, n_pictures, source=str(path), allow_empty=allow_empty)


def parse_samples(
    text: str,
    n_pictures: int | None = N_PICTURES,
    source: str = "samples",
    *,
    allow_empty: bool = False,
) -> pd.DataFrame:
    """Rows `picture,pattern` (header optional) -> DataFrame(opening, picture, state, pattern).

    Every empty or malformed row is reported with its line number in one ParseError; trailing
    blank lines are allowed. Patterns must hold the game's tiles (2-9 and a blank) and be
    solvable toward `789456B23`; pictures are integers 1..n_pictures.
    """
    if not isinstance(text, str):
        raise ParseError(f"{source}: samples text must be a str, not {type(text).__name__}")
    if n_pictures is not None:
        n_pictures = checks.integer(n_pictures, "n_pictures", minimum=1)
    lines = text.lstrip("\ufeff").splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise ParseError(f"{source}: empty file ({EXAMPLE})")
    try:
        rows = list(csv.reader(io.StringIO("\n".join(lines))))
    except csv.Error as exc:
        raise ParseError(f"{source}: not CSV text ({exc}); {EXAMPLE}") from exc
    col_picture, col_pattern, first = 0, 1, 0
    header = [c.strip().lower() for c in rows[0]] if rows else []
    if "picture" in header or "pattern" in header:
        if "picture" not in header or "pattern" not in header:
            raise ParseError(f"{source} line 1: the header needs both 'picture' and 'pattern'")
        col_picture, col_pattern, first = header.index("picture"), header.index("pattern"), 1
    problems: list[str] = []
    records = []
    for number, row in enumerate(rows[first:], start=first + 1):
        try:
            records.append((number, *_parse_row(row, col_picture, col_pattern, n_pictures)))
        except PuzzleError as exc:
            problems.append(f"line {number}: {exc}")
    if problems:
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        raise ParseError(f"{source}: {len(problems)} bad rows: " + "; ".join(problems[:10]) + more)
    if not records:
        if allow_empty:
            return _table([], [], [])
        raise ParseError(f"{source}: a header but no samples (pass allow_empty=True to accept)")
    line, picture, state = zip(*records, strict=True)
    return _table(line, picture, state)


def _table(line, picture, state) -> pd.DataFrame:
    """The samples table from parsed columns."""
    return pd.DataFrame(
        {
            "opening": np.arange(len(line), dtype=np.int64),
            "picture": np.array(picture, dtype=np.int64),
            "state": list(state),
            "pattern": [to_pattern(s) for s in state],
            "line": np.array(line, dtype=np.int64),
        }
    )


def _parse_row(
    row: Sequence[str], col_picture: int, col_pattern: int, n_pictures: int | None
) -> tuple[int, State]:
    """One CSV row -> (picture, state), raising a PuzzleError that says what is wrong."""
    cells = [c.strip() for c in row]
    if not any(cells):
        raise ParseError("empty row (expected 'picture,pattern')")
    if len(cells) <= max(col_picture, col_pattern):
        raise ParseError(f"{len(cells)} field(s) {','.join(cells)!r}; expected 'picture,pattern'")
    pic_text, pat_text = cells[col_picture], cells[col_pattern]
    if not (pic_text.isascii() and pic_text.isdigit()):
        raise ParseError(f"picture {pic_text!r} is not a whole number")
    picture = int(pic_text)
    if picture < 1 or (n_pictures is not None and picture > n_pictures):
        top = "" if n_pictures is None else f"..{n_pictures}"
        raise InvalidPuzzleError(f"picture {picture} is outside 1{top}")
    if len(pat_text) != 9:
        raise ParseError(f"pattern {pat_text!r} has {len(pat_text)} characters, expected 9")
    state = parse_board(pat_text, GAME_SHAPE)
    if not is_solvable(state, GAME_GOAL, GAME_SHAPE):  # also checks the tiles 2-9 + blank
        raise InvalidPuzzleError(f"pattern {pat_text!r} cannot be solved toward 789456B23")
    return picture, state


def format_samples(samples: pd.DataFrame) -> str:
    """The write-up's CSV text: header `picture,pattern`, one opening per line.

    `samples` has a `picture` column and a `pattern` column (strings such as '9B6358247') or,
    as the video extractor returns, a `state` column (tuples or pattern strings).
    """
    if not isinstance(samples, pd.DataFrame):
        raise InvalidPuzzleError(f"samples must be a DataFrame, not {type(samples).__name__}")
    column = "pattern" if "pattern" in samples.columns else "state"
    if "picture" not in samples.columns or column not in samples.columns:
        raise InvalidPuzzleError("samples need a 'picture' column and a 'pattern' or 'state' one")
    lines = ["picture,pattern"]
    for k, (picture, value) in enumerate(zip(samples["picture"], samples[column], strict=True)):
        picture = checks.integer(picture, f"picture of row {k}", minimum=1)
        lines.append(f"{picture},{_pattern_text(value, k)}")
    return "\n".join(lines) + "\n"


def _pattern_text(value: object, row: int) -> str:
    """A row's pattern as text: strings as given, boards (tuples) in the compact form."""
    if isinstance(value, str):
        return value
    try:
        return to_pattern(tuple(checks.integer(t, f"tile of row {row}") for t in value))
    except TypeError:
        raise InvalidPuzzleError(f"row {row}: pattern {value!r} is not a board") from None


def write_samples(
    samples: pd.DataFrame,
    path: str | Path | None = None,
    *,
    n_pictures: int | None = N_PICTURES,
    overwrite: bool = False,
    allow_empty: bool = False,
) -> Path:
    """Write samples in the write-up's CSV format (atomically), after checking every row.

    Parameters
    ----------
    samples : DataFrame
        Columns `picture` (1..n_pictures) and `pattern` (e.g. '9B6358247') or `state`.
    path : str or Path, optional
        Target file; default `samples_path()` (data/last_origin/samples.csv).
    n_pictures : int or None
        Pictures allowed, as for `read_samples`.
    overwrite : bool
        Replace an existing file whose content differs (otherwise refused).
    allow_empty : bool
        Write a header-only file for a table without rows (otherwise refused).

    Returns
    -------
    Path
        The file written (or found already holding exactly this text).

    Raises
    ------
    PuzzleError
        Empty table, a row `read_samples` would reject, or a different existing file.
    """
    path = samples_path() if path is None else Path(path)
    text = format_samples(samples)
    if len(samples) == 0 and not allow_empty:
        raise InvalidPuzzleError(
            f"refusing to write an empty samples table to {path} (pass allow_empty=True)"
        )
    parse_samples(text, n_pictures, source="rows to write", allow_empty=allow_empty)
    if path.exists() and not overwrite:
        try:
            same = path.read_bytes() == text.encode("utf-8")
        except OSError as exc:
            raise PuzzleError(f"cannot read the existing {path}: {exc}") from exc
        if same:
            return path
        raise PuzzleError(f"{path} exists with other content; pass overwrite=True to replace it")
    return atomic_write_text(path, text)


def frequency_counts(samples: pd.DataFrame | Sequence[Pattern]) -> Counter:
    """How often each pattern was seen."""
    patterns = samples["pattern"] if isinstance(samples, pd.DataFrame) else samples
    return Counter(patterns)


def picture_counts(samples: pd.DataFrame, n_pictures: int = N_PICTURES) -> np.ndarray:
    """Openings per picture 1..n_pictures."""
    n_pictures = checks.integer(n_pictures, "n_pictures", minimum=1)
    pics = [checks.integer(p, "picture") for p in samples["picture"]]
    if pics and (min(pics) < 1 or max(pics) > n_pictures):
        raise InvalidPuzzleError(f"pictures must lie in 1..{n_pictures}")
    return np.bincount(np.asarray(pics, dtype=np.int64) - 1, minlength=n_pictures)
