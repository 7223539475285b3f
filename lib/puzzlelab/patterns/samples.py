"""The samples file: one opening per row, `picture,pattern` (the write-up's CSV format).

An optional third column `flag` carries the reader's doubt: empty when the video reader was
confident, otherwise one short word saying why not (e.g. `blurred`). Statistics use only the
rows with an empty flag (`unflagged`). Files without the column read as all-confident.

`read_samples` / `write_samples` are the lab's one reader and writer of this format; the video
study writes it and the statistics study reads it. The writer refuses empty tables unless
asked, never replaces a different existing file unless asked, and checks its own text with the
reader before writing, so everything it writes can be read back.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Sequence
from os import PathLike
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
PATTERN_SYMBOLS = frozenset("0123456789Bb_.-")
MAX_PICTURES = 10**6  # picture numbers above this are refused, whatever n_pictures says
FLAG_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")  # a flag: one short word


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
        Columns opening, picture, state (tuple), pattern (str), flag (str, "" when the file
        has no flag column or the reader was confident), line (1-based line number).

    Raises
    ------
    ParseError
        Missing, binary or non-UTF-8 file, or rows that are not `picture,pattern`.
    InvalidPuzzleError
        A picture outside 1..n_pictures or a pattern that cannot be solved toward 789456B23.
    """
    path = samples_path() if path is None else _path_arg(path)
    text = checks.read_text(path, "samples file")
    return parse_samples(text, n_pictures, source=str(path), allow_empty=allow_empty)


def parse_samples(
    text: str,
    n_pictures: int | None = N_PICTURES,
    source: str = "samples",
    *,
    allow_empty: bool = False,
) -> pd.DataFrame:
    """Rows `picture,pattern[,flag]` (header optional) -> DataFrame like `read_samples`'.

    Every empty or malformed row is reported with its line number in one ParseError; trailing
    blank lines are allowed. A flag is empty or one short word (letters, digits, - and _).
    Patterns must hold the game's tiles (2-9 and a blank) and be
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
    columns, first = (0, 1, 2), 0  # picture, pattern, flag (a third field without a header)
    header = [c.strip().lower() for c in rows[0]] if rows else []
    if "picture" in header or "pattern" in header:
        if "picture" not in header or "pattern" not in header:
            raise ParseError(f"{source} line 1: the header needs both 'picture' and 'pattern'")
        flag = header.index("flag") if "flag" in header else None
        columns, first = (header.index("picture"), header.index("pattern"), flag), 1
    problems: list[str] = []
    records = []
    for number, row in enumerate(rows[first:], start=first + 1):
        try:
            records.append((number, *_parse_row(row, columns, n_pictures)))
        except PuzzleError as exc:
            problems.append(f"line {number}: {exc}")
    if problems:
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        raise ParseError(f"{source}: {len(problems)} bad rows: " + "; ".join(problems[:10]) + more)
    if not records:
        if allow_empty:
            return _table([], [], [], [])
        raise ParseError(f"{source}: a header but no samples (pass allow_empty=True to accept)")
    line, picture, state, flag = zip(*records, strict=True)
    return _table(line, picture, state, flag)


def _table(line, picture, state, flag) -> pd.DataFrame:
    """The samples table from parsed columns."""
    return pd.DataFrame(
        {
            "opening": np.arange(len(line), dtype=np.int64),
            "picture": np.array(picture, dtype=np.int64),
            "state": list(state),
            "pattern": [to_pattern(s) for s in state],
            "flag": pd.Series(list(flag), dtype=object),
            "line": np.array(line, dtype=np.int64),
        }
    )


def _parse_row(
    row: Sequence[str], columns: tuple[int, int, int | None], n_pictures: int | None
) -> tuple[int, State, str]:
    """One CSV row -> (picture, state, flag), raising a PuzzleError that says what is wrong."""
    col_picture, col_pattern, col_flag = columns
    cells = [c.strip() for c in row]
    if not any(cells):
        raise ParseError("empty row (expected 'picture,pattern')")
    if len(cells) <= max(col_picture, col_pattern):
        raise ParseError(f"{len(cells)} field(s) {','.join(cells)!r}; expected 'picture,pattern'")
    pic_text, pat_text = cells[col_picture], cells[col_pattern]
    flag = cells[col_flag] if col_flag is not None and col_flag < len(cells) else ""
    if flag and not FLAG_WORD.fullmatch(flag):
        raise ParseError(f"flag {flag[:40]!r} is not one short word (or empty)")
    if not (pic_text.isascii() and pic_text.isdigit()):
        raise ParseError(f"picture {pic_text!r} is not a whole number")
    top = MAX_PICTURES if n_pictures is None else n_pictures
    if len(pic_text.lstrip("0")) > len(str(top)) or not 1 <= int(pic_text) <= top:
        raise InvalidPuzzleError(f"picture {pic_text[:20]} is outside 1..{top}")
    picture = int(pic_text)
    if len(pat_text) != 9:
        raise ParseError(f"pattern {pat_text!r} has {len(pat_text)} characters, expected 9")
    if not set(pat_text) <= PATTERN_SYMBOLS:
        raise ParseError(f"pattern {pat_text!r}: use the digits 2-9 and B for the blank")
    state = parse_board(pat_text, GAME_SHAPE)
    if not is_solvable(state, GAME_GOAL, GAME_SHAPE):  # also checks the tiles 2-9 + blank
        raise InvalidPuzzleError(f"pattern {pat_text!r} cannot be solved toward 789456B23")
    return picture, state, flag


def format_samples(samples: pd.DataFrame) -> str:
    """The write-up's CSV text: header `picture,pattern`, one opening per line.

    `samples` has a `picture` column and a `pattern` column (strings such as '9B6358247') or,
    as the video extractor returns, a `state` column (tuples or pattern strings). With a `flag`
    column (empty or one short word per row) the text gets a third column `flag`.
    """
    if not isinstance(samples, pd.DataFrame):
        raise InvalidPuzzleError(f"samples must be a DataFrame, not {type(samples).__name__}")
    column = "pattern" if "pattern" in samples.columns else "state"
    if "picture" not in samples.columns or column not in samples.columns:
        raise InvalidPuzzleError("samples need a 'picture' column and a 'pattern' or 'state' one")
    flags = list(samples["flag"]) if "flag" in samples.columns else None
    lines = ["picture,pattern,flag" if flags is not None else "picture,pattern"]
    for k, (picture, value) in enumerate(zip(samples["picture"], samples[column], strict=True)):
        picture = checks.integer(picture, f"picture of row {k}", minimum=1)
        row = f"{picture},{_pattern_text(value, k)}"
        lines.append(row if flags is None else f"{row},{_flag_text(flags[k], k)}")
    return "\n".join(lines) + "\n"


def _flag_text(value: object, row: int) -> str:
    """A row's flag: '' (confident; None and NaN count as empty) or one short word."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if not isinstance(value, str) or (value and not FLAG_WORD.fullmatch(value)):
        raise InvalidPuzzleError(f"row {row}: flag {value!r:.40} is not empty or one short word")
    return value


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
    path = samples_path() if path is None else _path_arg(path)
    text = format_samples(samples)
    if len(samples) == 0 and not allow_empty:
        raise InvalidPuzzleError(
            f"refusing to write an empty samples table to {path} (pass allow_empty=True)"
        )
    parse_samples(text, n_pictures, source="rows to write", allow_empty=allow_empty)
    if path.is_dir():
        raise PuzzleError(f"{path} is a folder; give a file name such as {path / 'samples.csv'}")
    if path.exists() and not overwrite:
        try:
            same = path.read_bytes() == text.encode("utf-8")
        except OSError as exc:
            raise PuzzleError(f"cannot read the existing {path}: {exc}") from exc
        if same:
            return path
        raise PuzzleError(f"{path} exists with other content; pass overwrite=True to replace it")
    try:
        return atomic_write_text(path, text)
    except OSError as exc:
        raise PuzzleError(
            f"cannot write {path}: {exc.strerror or exc}; choose a folder you can write to"
        ) from exc


def _path_arg(path: object) -> Path:
    """A path argument as a Path, or a PuzzleError for anything else."""
    if not isinstance(path, (str, PathLike)) or str(path) == "":
        raise PuzzleError(f"path must be a file name (str or Path), not {path!r:.60}")
    return Path(path)


def unflagged(samples: pd.DataFrame) -> pd.DataFrame:
    """The rows the reader was confident about (empty flag), numbered again from opening 0.

    Tables without a `flag` column (e.g. from `game.sample_openings`) are all confident.
    """
    if not isinstance(samples, pd.DataFrame):
        raise InvalidPuzzleError(f"samples must be a DataFrame, not {type(samples).__name__}")
    if "flag" not in samples.columns:
        return samples
    keep = samples[[_flag_text(f, k) == "" for k, f in enumerate(samples["flag"])]].copy()
    keep["opening"] = np.arange(len(keep), dtype=np.int64)
    return keep.reset_index(drop=True)


def column(samples: pd.DataFrame, name: str) -> pd.Series:
    """A column of a samples table, or InvalidPuzzleError saying which table is expected."""
    if not isinstance(samples, pd.DataFrame) or name not in samples.columns:
        raise InvalidPuzzleError(
            f"expected a samples table with a {name!r} column (e.g. from read_samples)"
        )
    return samples[name]


def patterns_of(samples: pd.DataFrame | Sequence[Pattern]) -> list[Pattern]:
    """The pattern strings of a samples table or of a list of patterns."""
    if isinstance(samples, pd.DataFrame):
        samples = column(samples, "pattern")
    if isinstance(samples, (str, bytes)):
        raise InvalidPuzzleError("expected several patterns, not one string")
    try:
        patterns = list(samples)
    except TypeError:
        raise InvalidPuzzleError(f"expected a list of patterns, not {samples!r:.60}") from None
    for p in patterns:
        if not isinstance(p, str):
            raise InvalidPuzzleError(f"patterns are strings such as '9B6358247', not {p!r}")
    return patterns


def frequency_counts(samples: pd.DataFrame | Sequence[Pattern]) -> Counter:
    """How often each pattern was seen."""
    return Counter(patterns_of(samples))


def picture_counts(samples: pd.DataFrame, n_pictures: int = N_PICTURES) -> np.ndarray:
    """Openings per picture 1..n_pictures."""
    n_pictures = checks.integer(n_pictures, "n_pictures", minimum=1)
    pics = [checks.integer(p, "picture") for p in column(samples, "picture")]
    if pics and (min(pics) < 1 or max(pics) > n_pictures):
        raise InvalidPuzzleError(f"pictures must lie in 1..{n_pictures}")
    return np.bincount(np.asarray(pics, dtype=np.int64) - 1, minlength=n_pictures)
