"""Sliding-puzzle boards: parsing, printing, legal moves and the parity rule.

A `State` is a row-major tuple of ints with 0 for the blank; several 0s mean several
blanks (the A* write-up's goal `1 2 3 / 4 5 6 / 7 _ _` has two). A `Shape` is (rows, cols).
Tile labels are free: the slide-puzzle write-up numbers its tiles like a numeric keypad, so
its solved picture is `789456B23` (blank bottom-left).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..errors import InvalidPuzzleError, ParseError, UnsolvableError

State = tuple[int, ...]
Shape = tuple[int, int]
Move = tuple[int, str]  # (tile, direction the tile slides: "up", "down", "left", "right")

BLANK_SYMBOLS = {"0", "B", "b", "_", ".", "-"}
DIRECTIONS = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}


def parse_board(text: str | Sequence[int] | np.ndarray, shape: Shape | None = None) -> State:
    """Read a board from `"789456B23"`, `"1 2 3 / 4 5 6 / 7 _ _"`, rows on lines, or ints.

    Blanks may be written 0, B, _, . or -. The shape is taken from `shape`, from the rows
    ('/' or new lines), or from a square tile count.
    """
    rows_seen: list[int] | None = None
    if isinstance(text, str):
        tokens, rows_seen = _tokens(text)
        state = tuple(_tile(tok, i) for i, tok in enumerate(tokens))
    else:
        try:
            state = tuple(int(v) for v in np.asarray(text).ravel())
        except (TypeError, ValueError) as exc:
            raise ParseError(f"cannot read {text!r} as tiles: give ints, 0 for the blank") from exc
        if np.asarray(text).ndim == 2 and shape is None:
            shape = tuple(np.asarray(text).shape)
    shape = _infer_shape(len(state), shape, rows_seen)
    validate_state(state, shape)
    return state


def _tokens(text: str) -> tuple[list[str], list[int] | None]:
    """Split board text into tile tokens, remembering row lengths when rows are marked."""
    text = text.strip()
    if not text:
        raise ParseError("empty board: write tiles such as '789456B23' or '1 2 3 / 4 5 6 / 7 8 _'")
    rows = [r for r in re.split(r"[/\n;|]", text) if r.strip()]
    tokens: list[str] = []
    lengths = []
    for row in rows:
        row_tokens = re.split(r"[\s,]+", row.strip())
        if len(row_tokens) == 1:  # compact form: one character per tile
            row_tokens = list(row_tokens[0])
        tokens.extend(row_tokens)
        lengths.append(len(row_tokens))
    return tokens, (lengths if len(rows) > 1 else None)


def _tile(token: str, position: int) -> int:
    """One tile token as an int (0 for a blank symbol)."""
    if token in BLANK_SYMBOLS:
        return 0
    if token.isdigit():
        return int(token)
    raise ParseError(
        f"unknown symbol {token!r} at position {position + 1}: use digits for tiles and "
        f"B, _ or 0 for the blank (separate tiles above 9 by spaces)"
    )


def _infer_shape(n: int, shape: Shape | None, rows_seen: list[int] | None) -> Shape:
    """The board's shape from the arguments, the marked rows or a square count."""
    if rows_seen is not None:
        if len(set(rows_seen)) != 1:
            raise ParseError(f"rows have different lengths {rows_seen}: every row needs as many")
        seen = (len(rows_seen), rows_seen[0])
        if shape is not None and tuple(shape) != seen:
            raise ParseError(f"the text has {seen[0]} rows of {seen[1]} but shape={shape}")
        return seen
    if shape is not None:
        shape = (int(shape[0]), int(shape[1]))
        if shape[0] < 1 or shape[1] < 1:
            raise InvalidPuzzleError(f"shape {shape} must have at least one row and one column")
        if shape[0] * shape[1] != n:
            raise ParseError(
                f"{n} tiles do not fill a {shape[0]}x{shape[1]} board "
                f"({shape[0] * shape[1]} cells): check for a missing or extra tile"
            )
        return shape
    side = math.isqrt(n)
    if side * side != n:
        raise ParseError(f"cannot tell the shape of {n} tiles: pass shape=(rows, cols) or use '/'")
    return (side, side)


def validate_state(state: State, shape: Shape) -> None:
    """Check length, blanks and duplicate tiles; raise InvalidPuzzleError naming the problem."""
    rows, cols = shape
    if len(state) != rows * cols:
        raise InvalidPuzzleError(
            f"a {rows}x{cols} board has {rows * cols} cells but {len(state)} tiles were given"
        )
    if any(t < 0 for t in state):
        raise InvalidPuzzleError(f"negative tile {min(state)}: tiles are >= 1, the blank is 0")
    if 0 not in state:
        raise InvalidPuzzleError("the board has no blank: mark one cell with B, _ or 0")
    dups = sorted(t for t, c in Counter(state).items() if t != 0 and c > 1)
    if dups:
        raise InvalidPuzzleError(f"tile {dups[0]} appears more than once: every tile is unique")


def check_same_tiles(state: State, goal: State) -> None:
    """Raise InvalidPuzzleError unless `state` holds exactly the goal's tiles and blanks."""
    if len(state) != len(goal):
        raise InvalidPuzzleError(f"the board has {len(state)} cells, the goal {len(goal)}")
    have, want = Counter(state), Counter(goal)
    if have != want:
        extra = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        parts = []
        if extra:
            parts.append(f"not in the goal: {_names(extra)}")
        if missing:
            parts.append(f"missing from the board: {_names(missing)}")
        raise InvalidPuzzleError("board and goal hold different tiles (" + "; ".join(parts) + ")")


def _names(tiles: list[int]) -> str:
    """Tiles as words for messages (blank for 0)."""
    return ", ".join("blank" if t == 0 else str(t) for t in tiles)


def format_board(state: State, shape: Shape | None = None, blank: str = "_") -> str:
    """The board as a grid of right-aligned tiles, one row per line."""
    shape = _infer_shape(len(state), shape, None)
    width = max(len(str(t)) for t in state)
    cells = [blank.rjust(width) if t == 0 else str(t).rjust(width) for t in state]
    rows, cols = shape
    return "\n".join(" ".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))


def to_pattern(state: State) -> str:
    """The write-up's compact string, e.g. '789456B23' (tiles 1-9, B for the blank)."""
    if any(t > 9 for t in state):
        raise InvalidPuzzleError("the compact pattern form holds tiles 1-9 only")
    return "".join("B" if t == 0 else str(t) for t in state)


def solved_state(shape: Shape, blank: str | int = "last") -> State:
    """Tiles 1..n-1 in row-major order with the blank 'last', 'first' or at a cell index."""
    n = shape[0] * shape[1]
    cell = {"last": n - 1, "first": 0}.get(blank, blank)
    if not isinstance(cell, int) or not 0 <= cell < n:
        raise InvalidPuzzleError(f"blank cell {blank!r} is not 'first', 'last' or 0..{n - 1}")
    tiles = iter(range(1, n))
    return tuple(0 if i == cell else next(tiles) for i in range(n))


def neighbors(state: State, shape: Shape) -> list[tuple[Move, State]]:
    """Every legal move from `state`: ((tile, direction it slides), next state)."""
    rows, cols = shape
    out = []
    for b, t in enumerate(state):
        if t != 0:
            continue
        br, bc = divmod(b, cols)
        for (dr, dc), _ in DIRECTIONS.items():
            r, c = br - dr, bc - dc  # the tile that slides in direction (dr, dc) into b
            if 0 <= r < rows and 0 <= c < cols and state[r * cols + c] != 0:
                s = list(state)
                s[b], s[r * cols + c] = s[r * cols + c], 0
                out.append(((state[r * cols + c], DIRECTIONS[dr, dc]), tuple(s)))
    return out


def move_between(a: State, b: State, shape: Shape) -> Move:
    """The move that turns board `a` into board `b` (InvalidPuzzleError if none does)."""
    for move, nxt in neighbors(a, shape):
        if nxt == b:
            return move
    raise InvalidPuzzleError("the two boards are not one move apart")


def permutation_parity(perm: Sequence[int]) -> int:
    """0 for an even permutation of 0..n-1, 1 for an odd one (by cycle counting)."""
    seen = [False] * len(perm)
    parity = 0
    for i in range(len(perm)):
        length = 0
        while not seen[i]:
            seen[i] = True
            i = perm[i]
            length += 1
        if length:
            parity ^= (length - 1) & 1
    return parity


def is_solvable(state: State, goal: State, shape: Shape) -> bool:
    """Can `state` reach `goal`? Exact for any board width, one blank or several.

    One blank: each move swaps the blank with a tile (a transposition) and moves the blank
    one cell, so parity(permutation) + parity(blank's taxicab distance) never changes.
    Several blanks on a board at least 2 wide and 2 high: swapping two blanks is free, so
    every arrangement of the same tiles is reachable. On a 1 x n strip tiles never pass
    each other: only the order of the tiles matters.
    """
    check_same_tiles(state, goal)
    rows, cols = shape
    if rows == 1 or cols == 1:
        return [t for t in state if t] == [t for t in goal if t]
    if state.count(0) > 1:
        return True
    where = {t: i for i, t in enumerate(state)}
    perm = [where[t] for t in goal]  # goal cell i holds the tile now in cell perm[i]
    b0, b1 = divmod(goal.index(0), cols), divmod(state.index(0), cols)
    taxi = abs(b0[0] - b1[0]) + abs(b0[1] - b1[1])
    return permutation_parity(perm) == taxi % 2


def require_solvable(state: State, goal: State, shape: Shape) -> None:
    """Raise UnsolvableError (with the reason) unless `state` can reach `goal`."""
    if not is_solvable(state, goal, shape):
        raise UnsolvableError(
            f"{to_text(state)} cannot reach {to_text(goal)}: the two boards lie in different "
            "parity classes (swap any two tiles of the start to make it solvable)"
        )


def to_text(state: State) -> str:
    """A one-line rendering for messages: the compact pattern when possible."""
    if all(t <= 9 for t in state):
        return to_pattern(state)
    return " ".join("_" if t == 0 else str(t) for t in state)


def manhattan(state: State, goal: State, shape: Shape) -> int:
    """Sum over tiles (blanks excluded) of the taxicab distance to the tile's goal cell."""
    cols = shape[1]
    where = {t: i for i, t in enumerate(goal) if t}
    total = 0
    for i, t in enumerate(state):
        if t:
            j = where[t]
            total += abs(i // cols - j // cols) + abs(i % cols - j % cols)
    return total
