"""Nonogram puzzles: clues, validation, readers and writers, and puzzles made from pictures.

A puzzle is a list of row clues (top to bottom) and column clues (left to right); a clue is
the tuple of block lengths along its line, `()` for an empty line. Grids are numpy arrays:
solutions are boolean (True = filled); partial grids are int8 with the write-up's encoding
FILLED = 1, EMPTY = -1, UNKNOWN = 0.

Formats read here:
* the write-up's CSV: row count, one clue line per row, column count, one clue line per column
  (numbers separated by spaces or commas; 0 or nothing for an empty line);
* `.non` (Steve Simpson's format as extended by nonogram-db: `width`, `height`, `rows`,
  `columns`, optional `goal`, `title`, `by`, `copyright`, `license`, ...);
* `.nin` (Jakub Wilk's solver: `W H`, then H row lines and W column lines).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

import numpy as np

from ..checks import read_text
from ..errors import InvalidPuzzleError, ParseError, PuzzleError

Clue = tuple[int, ...]
Shape = tuple[int, int]

FILLED, EMPTY, UNKNOWN = 1, -1, 0


def min_length(clue: Clue) -> int:
    """The fewest cells a line with this clue can have (blocks plus one gap between each)."""
    clue = _normalise_clue(clue, "clue")
    return sum(clue) + max(len(clue) - 1, 0)


def line_clue(line: Iterable) -> Clue:
    """The clue of a filled line: the lengths of its runs of filled cells."""
    if isinstance(line, (str, bytes)) or not isinstance(line, Iterable):
        raise InvalidPuzzleError(f"line_clue expects a line of cells, got {line!r}")
    clue, run = [], 0
    for cell in line:
        if cell and cell != EMPTY:
            run += 1
        elif run:
            clue.append(run)
            run = 0
    if run:
        clue.append(run)
    return tuple(clue)


def _normalise_clue(clue: Iterable, where: str) -> Clue:
    """A clue as a tuple of positive ints ([0] and [] both mean an empty line).

    Floats (even 2.0), NaN, inf, bools and strings are refused, not truncated.
    """
    if isinstance(clue, (str, bytes)) or not isinstance(clue, Iterable):
        raise InvalidPuzzleError(f"{where}: clue {clue!r} is not a list of integers")
    values = []
    for v in clue:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise InvalidPuzzleError(
                f"{where}: clue {clue!r} holds {v!r}; block lengths must be whole numbers"
            )
        values.append(int(v))
    if any(v < 0 for v in values):
        raise InvalidPuzzleError(f"{where}: clue {values} has a negative block length")
    if 0 in values and len(values) > 1:
        raise InvalidPuzzleError(f"{where}: clue {values} mixes 0 with blocks (0 = empty line)")
    return tuple(v for v in values if v > 0)


def _one_line(value: object) -> bool:
    """Is `value` a string without line breaks (newline, U+2028, ...) or control characters?"""
    if not isinstance(value, str):
        return False
    controls = any((ord(ch) < 32 and ch != "\t") or ord(ch) == 127 for ch in value)
    return not controls and (value == "" or value.splitlines() == [value])


def _lines(clues: object, what: str) -> list:
    """The clue list of one side, refusing strings and non-iterables."""
    if isinstance(clues, (str, bytes)) or not isinstance(clues, Iterable):
        raise InvalidPuzzleError(f"{what} clues must be a list of clues, got {clues!r}")
    return list(clues)


@dataclass(frozen=True)
class Puzzle:
    """A black-and-white nonogram: row clues (top to bottom) and column clues (left to right)."""

    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    title: str = field(default="", compare=False)
    goal: np.ndarray | None = field(default=None, compare=False, repr=False)
    meta: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        rows = _lines(self.rows, "row")
        cols = _lines(self.cols, "column")
        rows = tuple(_normalise_clue(c, f"row {i + 1}") for i, c in enumerate(rows))
        cols = tuple(_normalise_clue(c, f"column {j + 1}") for j, c in enumerate(cols))
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        if not isinstance(self.meta, dict):
            raise InvalidPuzzleError(f"meta must be a dict of text, got {type(self.meta).__name__}")
        if not _one_line(self.title):
            raise InvalidPuzzleError(
                f"title must be one line of text without control characters, got {self.title!r}"
            )
        validate(self)
        if self.goal is not None:
            object.__setattr__(self, "goal", self._checked_goal(self.goal))

    def _checked_goal(self, goal: object) -> np.ndarray:
        """The goal as a boolean grid of the puzzle's shape that satisfies every clue."""
        try:
            g = np.asarray(goal)
        except (TypeError, ValueError) as exc:
            raise InvalidPuzzleError(f"goal is not a grid: {exc}") from exc
        if g.shape != self.shape or g.dtype.kind not in "biu":
            raise InvalidPuzzleError(
                f"goal must be a {self.shape[0]}x{self.shape[1]} grid of 0/1 (height, width), "
                f"got shape {g.shape} of {g.dtype}"
            )
        g = g.astype(bool)
        for kind, lines, clues in (("row", g, self.rows), ("column", g.T, self.cols)):
            for i, (line, clue) in enumerate(zip(lines, clues, strict=True)):
                if line_clue(line) != clue:
                    raise InvalidPuzzleError(
                        f"goal contradicts {kind} {i + 1}: its runs are {line_clue(line)}, "
                        f"the clue is {clue}"
                    )
        return g

    @property
    def shape(self) -> Shape:
        """(height, width) = (number of rows, number of columns)."""
        return (len(self.rows), len(self.cols))

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.cols)

    def __str__(self) -> str:
        name = f" {self.title!r}" if self.title else ""
        return f"Puzzle{name} {self.width}x{self.height}"


def validate(puzzle: Puzzle) -> None:
    """Raise InvalidPuzzleError naming the line when the clues cannot describe any grid."""
    if not isinstance(puzzle, Puzzle):
        raise InvalidPuzzleError(f"expected a nonogram Puzzle, got {type(puzzle).__name__}")
    if not puzzle.rows or not puzzle.cols:
        raise InvalidPuzzleError(
            f"empty puzzle: {len(puzzle.rows)} row clues and {len(puzzle.cols)} column clues; "
            "expected at least one of each"
        )
    width, height = len(puzzle.cols), len(puzzle.rows)
    for kind, clues, size in (("row", puzzle.rows, width), ("column", puzzle.cols, height)):
        for i, clue in enumerate(clues):
            need = min_length(clue)
            if need > size:
                raise InvalidPuzzleError(
                    f"{kind} {i + 1}: clue {' '.join(map(str, clue))} needs {need} cells "
                    f"but the {kind} has {size}"
                )
    row_total = sum(map(sum, puzzle.rows))
    col_total = sum(map(sum, puzzle.cols))
    if row_total != col_total:
        raise InvalidPuzzleError(
            f"row clues fill {row_total} cells but column clues fill {col_total}; "
            "they must be equal"
        )


def as_picture(grid: object) -> np.ndarray:
    """A picture as a boolean grid: booleans, 0/1, FILLED/EMPTY (1/-1) or '0'/'1' strings.

    Anything else (ragged rows, other numbers, other text, objects) is refused with an
    `InvalidPuzzleError`, never guessed at: '0' is a non-empty string, but an empty cell.
    """
    if isinstance(grid, (str, bytes)):
        raise InvalidPuzzleError(f"a picture must be a 2-D grid of 0/1, not the text {grid!r}")
    try:
        g = np.asarray(grid)
    except (TypeError, ValueError, OverflowError) as exc:
        raise InvalidPuzzleError(f"a picture must be a rectangular 2-D grid of 0/1: {exc}") from exc
    if g.ndim != 2 or g.size == 0:
        raise InvalidPuzzleError(f"a picture must be a non-empty 2-D grid, got shape {g.shape}")
    if g.dtype.kind == "b":
        return g.copy()
    if g.dtype.kind in "US":
        text = g.astype(str)
        if not np.isin(text, ("0", "1")).all():
            bad = str(text[~np.isin(text, ("0", "1"))][0])
            raise InvalidPuzzleError(f"picture cell {bad!r}: text cells must be '0' or '1'")
        return text == "1"
    if g.dtype.kind in "iuf":
        if np.isin(g, (0, 1)).all():
            return g == 1
        if np.isin(g, (EMPTY, FILLED)).all():
            return g == FILLED
        raise InvalidPuzzleError(
            "picture cells must be 0/1 (or FILLED/EMPTY = 1/-1), "
            f"got values {sorted(set(np.unique(g).tolist()))[:5]}"
        )
    raise InvalidPuzzleError(f"a picture must hold 0/1 cells, not {g.dtype} values")


def from_grid(grid: Sequence | np.ndarray, title: str = "") -> Puzzle:
    """The puzzle whose clues describe a picture (see `as_picture` for the cells accepted)."""
    g = as_picture(grid)
    return Puzzle(
        tuple(line_clue(r) for r in g), tuple(line_clue(c) for c in g.T), title=title, goal=g
    )


def is_solution(puzzle: Puzzle, grid: object) -> bool:
    """Does `grid` (bool, 0/1 or FILLED/EMPTY cells) satisfy every clue? Never raises.

    Parameters
    ----------
    puzzle : Puzzle
        The clues.
    grid : array-like, shape (height, width)
        A complete grid: booleans, 0/1, or int8 FILLED (1) / EMPTY (-1). Unknown cells,
        other values, other shapes or anything that is not a grid give False.

    Returns
    -------
    bool
    """
    try:
        if not isinstance(puzzle, Puzzle):
            return False
        g = np.asarray(grid)
        if g.shape != puzzle.shape or g.dtype.kind not in "biu":
            return False
        if g.dtype.kind != "b":
            if g.dtype.kind == "i" and np.any(g < 0):  # FILLED / EMPTY encoding
                if not np.all((g == FILLED) | (g == EMPTY)):
                    return False
                g = g == FILLED
            elif not np.all((g == 0) | (g == 1)):
                return False
            g = g.astype(bool)
        return all(line_clue(r) == c for r, c in zip(g, puzzle.rows, strict=True)) and all(
            line_clue(col) == c for col, c in zip(g.T, puzzle.cols, strict=True)
        )
    except (TypeError, ValueError, OverflowError):
        return False


# ----------------------------------------------------------------------------- readers

_NUMBERS = re.compile(r"[\s,;]+")


def _text(text: object, what: str) -> str:
    """Refuse anything but a string as the text of a puzzle file."""
    if not isinstance(text, str):
        raise ParseError(f"{what} expects the file's text as a string, got {type(text).__name__}")
    return text


def _numbers(text: str, where: str) -> list[int]:
    """The integers on one line (separated by spaces, commas or semicolons)."""
    fields = [f for f in _NUMBERS.split(text.strip().strip('"')) if f and f.upper() != "NA"]
    try:
        return [int(f) for f in fields]
    except ValueError as exc:
        raise ParseError(f"{where}: expected numbers, got {text.strip()!r}") from exc


def parse_writeup_csv(text: str, title: str = "") -> Puzzle:
    """Read the write-up's CSV: n, n row clue lines, m, m column clue lines."""
    lines = [ln for ln in _text(text, "parse_writeup_csv").splitlines() if ln.strip().strip(",")]
    if not lines:
        raise ParseError("empty CSV: expected the row count on line 1")

    def count_at(k: int, what: str) -> int:
        if k >= len(lines):
            raise ParseError(f"CSV ends before the {what} count (line {k + 1})")
        values = _numbers(lines[k], f"CSV line {k + 1}")
        if len(values) != 1 or values[0] <= 0:
            raise ParseError(f"CSV line {k + 1}: expected the {what} count, got {lines[k]!r}")
        return values[0]

    n = count_at(0, "row")
    if len(lines) < n + 2:
        raise ParseError(f"CSV has {len(lines) - 1} lines after the row count; expected {n} rows")
    rows = [_numbers(lines[1 + i], f"CSV line {2 + i} (row {i + 1})") for i in range(n)]
    m = count_at(n + 1, "column")
    if len(lines) < n + 2 + m:
        raise ParseError(
            f"CSV has {len(lines) - n - 2} column lines after the column count; expected {m}"
        )
    cols = [_numbers(lines[n + 2 + j], f"CSV line {n + 3 + j} (column {j + 1})") for j in range(m)]
    if len(lines) > n + 2 + m:
        raise ParseError(f"CSV line {n + m + 3}: unexpected text after the {m} column lines")
    return Puzzle([[v for v in r if v] for r in rows], [[v for v in c if v] for c in cols], title)


def format_writeup_csv(puzzle: Puzzle) -> str:
    """The write-up's CSV layout (one number or space-separated clue per line)."""
    validate(puzzle)
    out = [str(puzzle.height)]
    out += [" ".join(map(str, c)) or "0" for c in puzzle.rows]
    out += [str(puzzle.width)]
    out += [" ".join(map(str, c)) or "0" for c in puzzle.cols]
    return "\n".join(out) + "\n"


def _unquote(value: str) -> str:
    """A .non value without its surrounding quotes."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


def parse_non(text: str, title: str = "") -> Puzzle:
    """Read a `.non` puzzle (width/height before rows/columns/goal; other keys kept as meta)."""
    lines = _text(text, "parse_non").splitlines()
    meta: dict[str, str] = {}
    width = height = None
    rows = cols = None
    goal_text = None
    i = 0

    def read_block(start: int, count: int, what: str) -> tuple[list[Clue], int]:
        clues, k = [], start
        while len(clues) < count:
            if k >= len(lines):
                raise ParseError(f".non: file ends after {len(clues)} of {count} {what} clue lines")
            raw = lines[k].strip()
            k += 1
            if raw and not re.fullmatch(r"[\d\s,]+", raw):
                raise ParseError(
                    f".non line {k}: {what} clue {len(clues) + 1} should be comma-separated "
                    f"numbers, got {raw!r} (colour clues are not supported)"
                )
            clues.append(tuple(_numbers(raw, f".non line {k}")) if raw else ())
        return clues, k

    while i < len(lines):
        raw = lines[i].strip()
        i += 1
        if not raw:
            continue
        key, _, value = raw.partition(" ")
        key = key.lower()
        if key in ("width", "height"):
            try:
                number = int(value.strip())
            except ValueError as exc:
                raise ParseError(f".non line {i}: {key} should be a number, got {value!r}") from exc
            if number <= 0:
                raise ParseError(f".non line {i}: {key} must be positive, got {number}")
            width, height = (number, height) if key == "width" else (width, number)
        elif key in ("rows", "columns"):
            if width is None or height is None:
                raise ParseError(f".non line {i}: '{key}' comes before width and height")
            if key == "rows":
                rows, i = read_block(i, height, "row")
            else:
                cols, i = read_block(i, width, "column")
        elif key == "goal":
            goal_text = _unquote(value)
            if not goal_text and i < len(lines):  # goal on the next line
                goal_text = _unquote(lines[i])
                i += 1
        else:
            meta[key] = _unquote(value)
    if width is None or height is None:
        raise ParseError(".non: missing 'width' or 'height'")
    if rows is None or cols is None:
        raise ParseError(f".non: missing the '{'rows' if rows is None else 'columns'}' section")
    goal = None
    if goal_text is not None:
        if len(goal_text) != width * height:
            raise ParseError(
                f".non goal has {len(goal_text)} cells; expected width*height = {width * height}"
            )
        goal = np.array([ch != "0" for ch in goal_text], dtype=bool).reshape(height, width)
    return Puzzle(rows, cols, title=meta.get("title", title), goal=goal, meta=meta)


def format_non(puzzle: Puzzle) -> str:
    """The puzzle as `.non` text (title and goal included when known)."""
    validate(puzzle)
    out = []
    for key in ("catalogue", "title", "by", "copyright", "license"):
        value = puzzle.title if key == "title" and puzzle.title else puzzle.meta.get(key)
        if value and not _one_line(value):
            raise InvalidPuzzleError(f".non {key} must be one line of text, got {value!r}")
        if value:
            out.append(f"{key} {value}" if key == "license" else f'{key} "{value}"')
    out += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    out += [",".join(map(str, c)) or "0" for c in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(map(str, c)) or "0" for c in puzzle.cols]
    if puzzle.goal is not None:
        out += ["", 'goal "' + "".join("1" if v else "0" for v in puzzle.goal.ravel()) + '"']
    return "\n".join(out) + "\n"


def write_non(puzzle: Puzzle, path: str | Path, overwrite: bool = False) -> Path:
    """Write the puzzle as a `.non` file (atomically) that `read_puzzle` reads back.

    Parameters
    ----------
    puzzle : Puzzle
    path : str or Path
    overwrite : bool
        Replace an existing file with different content (refused otherwise).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    PuzzleError
        A title or metadata value that would break the file (a newline), or an existing
        different file without ``overwrite=True``.
    """
    from ..paths import atomic_write_text

    text = format_non(puzzle)
    if not isinstance(path, (str, PathLike)) or not str(path):
        raise PuzzleError(f"write_non needs a file path, got {path!r}")
    target = Path(path)
    if target.is_dir():
        raise PuzzleError(f"{target} is a folder; give a file name such as {target / 'p.non'}")
    if target.exists() and not overwrite:
        try:
            same = target.read_text(encoding="utf-8") == text
        except (OSError, UnicodeDecodeError):
            same = False
        if not same:
            raise PuzzleError(f"{target} exists with other content; pass overwrite=True")
    try:
        return atomic_write_text(target, text)
    except OSError as exc:
        raise PuzzleError(
            f"cannot write {target}: {exc.strerror or exc}; choose a folder you can write to"
        ) from exc


def parse_nin(text: str, title: str = "") -> Puzzle:
    """Read a `.nin` puzzle: 'W H', then H row lines and W column lines, one clue per line.

    As in Jakub Wilk's corpus and solver, lines are positional: a blank line (or `0`) is an
    empty clue, never skipped. Blank lines before the header and anything after the W + H
    clue lines (data142 repeats its block) are ignored.
    """
    lines = _text(text, "parse_nin").splitlines()
    start = next((k for k, ln in enumerate(lines) if ln.strip()), None)
    if start is None:
        raise ParseError(".nin: empty file; expected 'width height' on line 1")
    head = _numbers(lines[start], f".nin line {start + 1}")
    if len(head) != 2 or min(head) <= 0:
        raise ParseError(f".nin line {start + 1}: expected 'width height', got {lines[start]!r}")
    width, height = head
    body = lines[start + 1 : start + 1 + height + width]
    if len(body) < height + width:
        raise ParseError(
            f".nin: {len(body)} clue lines after the header; expected {height} rows + "
            f"{width} columns (a blank line counts as an empty clue)"
        )
    clues = [tuple(_numbers(line, f".nin line {start + 2 + k}")) for k, line in enumerate(body)]
    return Puzzle(clues[:height], clues[height:], title=title)


def read_puzzle(path: str | Path) -> Puzzle:
    """Read a puzzle file by its extension: .non, .nin, or .csv (the write-up's layout).

    Parameters
    ----------
    path : str or Path
        A UTF-8 text file (a BOM is accepted).

    Returns
    -------
    Puzzle
        Titled by the file's `title` key (.non) or its stem.

    Raises
    ------
    ParseError
        Missing, unreadable, binary or non-UTF-8 file, unknown extension, malformed text
        (the message names the file and line).
    InvalidPuzzleError
        Clues that describe no grid, or a goal that contradicts them.
    """
    if not isinstance(path, (str, PathLike)) or not str(path):
        raise ParseError(f"read_puzzle needs a file path, got {path!r}")
    path = Path(path)
    readers = {".non": parse_non, ".nin": parse_nin, ".csv": parse_writeup_csv}
    if path.suffix.lower() not in readers:
        raise ParseError(f"{path.name}: unknown puzzle format; expected .non, .nin or .csv")
    text = read_text(path, "puzzle file")
    try:
        return readers[path.suffix.lower()](text, title=path.stem)
    except (ParseError, InvalidPuzzleError) as exc:
        raise type(exc)(f"{path.name}: {exc}") from exc
