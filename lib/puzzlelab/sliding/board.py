"""Sliding-puzzle boards: parsing, printing, legal moves and the parity rule.

A `State` is a row-major tuple of ints with 0 for the blank; several 0s mean several
blanks (the A* write-up's goal `1 2 3 / 4 5 6 / 7 _ _` has two). A `Shape` is (rows, cols).
Tile labels are free: the slide-puzzle write-up numbers its tiles like a numeric keypad, so
its solved picture is `789456B23` (blank bottom-left).
"""

from __future__ import annotations

import math
import numbers
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..checks import integer
from ..errors import InvalidPuzzleError, ParseError, PuzzleError, UnsolvableError

State = tuple[int, ...]
Shape = tuple[int, int]
Move = tuple[int, str]  # (tile, direction the tile slides: "up", "down", "left", "right")

BLANK_SYMBOLS = {"0", "B", "b", "_", ".", "-"}
DIRECTIONS = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
STEPS = {name: step for step, name in DIRECTIONS.items()}  # direction -> (drow, dcol)


MAX_LABEL = 2**31 - 1  # tile labels above this are refused (they must fit the int64 kernels)


def read_board(
    board: str | Sequence[int] | Sequence[Sequence[int]] | np.ndarray, shape: Shape | None = None
) -> tuple[State, Shape]:
    """Read a board and its shape: the one place where a board's shape is worked out.

    Parameters
    ----------
    board : str, sequence of int, nested rows, or numpy array
        Text such as ``"789456B23"``, ``"1 2 3 / 4 5 6 / 7 _ _"`` or rows on lines (blanks
        written 0, B, _, . or -; tiles above 9 separated by spaces); a flat sequence of ints
        in row-major order with 0 for a blank; rows as nested lists; or a 1-D or 2-D integer
        array. Tile labels are any distinct positive ints; several blanks are allowed.
    shape : (rows, cols), optional
        The board's shape. Without it the shape comes from a 2-D array, nested rows, rows
        marked in text ('/', ';', '|' or new lines), or a square tile count.

    Returns
    -------
    state : tuple of int
        The tiles in row-major order, 0 for a blank.
    shape : (int, int)
        (rows, cols).

    Raises
    ------
    ParseError
        Unreadable text or values (unknown symbols, floats, NaN, ragged rows), or a tile count
        that does not fill `shape` or a square.
    InvalidPuzzleError
        No blank, a negative or duplicated tile, or a malformed `shape`.
    """
    if shape is not None:
        shape = check_shape(shape)
    rows_seen: list[int] | None = None
    if isinstance(board, str):
        tokens, rows_seen = _tokens(board)
        state = tuple(_tile(tok, i) for i, tok in enumerate(tokens))
    else:
        state, grid = _from_values(board)
        if grid is not None:
            if shape is not None and shape != grid:
                raise ParseError(f"the board has {grid[0]} rows of {grid[1]} but shape={shape}")
            shape = grid
    shape = _infer_shape(len(state), shape, rows_seen)
    validate_state(state, shape)
    return state, shape


def parse_board(
    board: str | Sequence[int] | Sequence[Sequence[int]] | np.ndarray, shape: Shape | None = None
) -> State:
    """Read a board (text, ints, nested rows or an array) as a row-major tuple, 0 = blank.

    Parameters
    ----------
    board : str, sequence of int, nested rows, or numpy array
        See `read_board`, which also returns the shape.
    shape : (rows, cols), optional
        The board's shape (else from the rows, a 2-D array or a square count).

    Returns
    -------
    tuple of int
        The tiles in row-major order, 0 for a blank.

    Raises
    ------
    ParseError, InvalidPuzzleError
        As `read_board`.
    """
    return read_board(board, shape)[0]


def check_shape(shape: object) -> Shape:
    """A (rows, cols) pair of whole numbers >= 1; `InvalidPuzzleError` for anything else."""
    if isinstance(shape, str | bytes) or not isinstance(shape, Sequence | np.ndarray):
        raise InvalidPuzzleError(f"shape must be (rows, cols), not {shape!r}")
    if len(shape) != 2:
        raise InvalidPuzzleError(f"shape must be two numbers (rows, cols), not {tuple(shape)!r}")
    try:
        return (
            integer(shape[0], "shape rows", minimum=1),
            integer(shape[1], "shape columns", minimum=1),
        )
    except PuzzleError as exc:
        raise InvalidPuzzleError(f"{exc} (shape={tuple(shape)!r})") from None


def _from_values(board: object) -> tuple[State, Shape | None]:
    """Tiles from ints, nested rows or an array: (state, shape of a 2-D input or None)."""
    if isinstance(board, np.ndarray):
        if board.ndim not in (1, 2) or board.size == 0:
            raise ParseError(f"a board array must be 1-D or 2-D and not empty, not {board.shape}")
        if board.dtype.kind not in "iuO":
            raise ParseError(f"tiles must be whole numbers, not an array of {board.dtype}")
        grid = tuple(int(x) for x in board.shape) if board.ndim == 2 else None
        return tuple(_int_tile(v, i) for i, v in enumerate(board.ravel().tolist())), grid
    if isinstance(board, bytes | bytearray | dict | set | frozenset) or not isinstance(
        board, Sequence
    ):
        raise ParseError(f"cannot read {board!r} as a board: give text, ints or rows of ints")
    items = list(board)
    if not items:
        raise ParseError("empty board: give the tiles, 0 for the blank")
    nested = [isinstance(v, Sequence | np.ndarray) and not isinstance(v, str) for v in items]
    if not any(nested):
        return tuple(_int_tile(v, i) for i, v in enumerate(items)), None
    if not all(nested):
        raise ParseError("mix of rows and single tiles: give every row as a list")
    lengths = [len(row) for row in items]
    if len(set(lengths)) != 1 or lengths[0] == 0:
        raise ParseError(f"rows have different lengths {lengths}: every row needs as many")
    flat = [v for row in items for v in row]
    return tuple(_int_tile(v, i) for i, v in enumerate(flat)), (len(items), lengths[0])


def _int_tile(value: object, position: int) -> int:
    """One tile given as a number: a whole number in 0..MAX_LABEL (floats refused)."""
    try:
        return integer(value, f"tile at position {position + 1}", maximum=MAX_LABEL)
    except PuzzleError as exc:
        raise ParseError(f"{exc} (tiles are ints, 0 for the blank)") from None


def _tokens(text: str) -> tuple[list[str], list[int] | None]:
    """Split board text into tile tokens, remembering row lengths when rows are marked."""
    text = text.strip()
    if not text:
        raise ParseError("empty board: write tiles such as '789456B23' or '1 2 3 / 4 5 6 / 7 8 _'")
    rows = [r for r in re.split(r"[/\n;|]", text) if r.strip()]
    if not rows:
        raise ParseError(f"no tiles in {text!r}: write tiles such as '1 2 3 / 4 5 6 / 7 8 _'")
    tokens: list[str] = []
    lengths = []
    for row in rows:
        row_tokens = [t for t in re.split(r"[\s,]+", row.strip()) if t]
        if len(row_tokens) == 1:  # compact form: one character per tile
            row_tokens = list(row_tokens[0])
        tokens.extend(row_tokens)
        lengths.append(len(row_tokens))
    return tokens, (lengths if len(rows) > 1 else None)


def _tile(token: str, position: int) -> int:
    """One tile token as an int (0 for a blank symbol); ASCII digits only."""
    if token in BLANK_SYMBOLS:
        return 0
    if re.fullmatch(r"[0-9]+", token) and int(token) <= MAX_LABEL:
        return int(token)
    raise ParseError(
        f"unknown symbol {token!r} at position {position + 1}: use digits 0-9 for tiles (at "
        f"most {MAX_LABEL}) and B, _ or 0 for the blank (separate tiles above 9 by spaces)"
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
        shape = check_shape(shape)
        if shape[0] * shape[1] != n:
            raise ParseError(
                f"{n} tiles do not fill a {shape[0]}x{shape[1]} board "
                f"({shape[0] * shape[1]} cells): check for a missing or extra tile"
            )
        return shape
    side = math.isqrt(n)
    if n == 0 or side * side != n:
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


def format_board(state: State | str, shape: Shape | None = None, blank: str = "_") -> str:
    """The board as a grid of right-aligned tiles, one row per line (any `read_board` form)."""
    state, (rows, cols) = read_board(state, shape)
    if not isinstance(blank, str):
        raise InvalidPuzzleError(f"blank must be a string such as '_', not {blank!r}")
    width = max(len(blank), *(len(str(t)) for t in state))
    cells = [blank.rjust(width) if t == 0 else str(t).rjust(width) for t in state]
    return "\n".join(" ".join(cells[r * cols : (r + 1) * cols]) for r in range(rows))


def to_pattern(state: State) -> str:
    """The write-up's compact string, e.g. '789456B23' (tiles 1-9, B for the blank)."""
    state = tuple(_int_tile(t, i) for i, t in enumerate(_as_list(state)))
    if any(t > 9 for t in state):
        raise InvalidPuzzleError("the compact pattern form holds tiles 1-9 only")
    return "".join("B" if t == 0 else str(t) for t in state)


def _as_list(state: object) -> list:
    """The items of a flat board given as a sequence (`ParseError` otherwise)."""
    if isinstance(state, str | bytes) or not isinstance(state, Sequence | np.ndarray):
        raise ParseError(f"a board must be a sequence of ints, not {state!r}")
    return (
        list(np.asarray(state).ravel().tolist()) if isinstance(state, np.ndarray) else list(state)
    )


def solved_state(shape: Shape, blank: str | int = "last") -> State:
    """Tiles 1..n-1 in row-major order with the blank 'last', 'first' or at a cell index."""
    shape = check_shape(shape)
    n = shape[0] * shape[1]
    if isinstance(blank, str):
        cell = {"last": n - 1, "first": 0}.get(blank)
    else:
        cell = (
            blank if isinstance(blank, numbers.Integral) and not isinstance(blank, bool) else None
        )
    if cell is None or not 0 <= cell < n:
        raise InvalidPuzzleError(f"blank cell {blank!r} is not 'first', 'last' or 0..{n - 1}")
    tiles = iter(range(1, n))
    return tuple(0 if i == cell else next(tiles) for i in range(n))


def slide(state: State, move: object, shape: Shape) -> State | None:
    """The slide rule, once: the board after `move` (tile, direction), or None if illegal.

    The tile slides one cell in its direction into a blank; any malformed move, a tile not
    on the board, a step off the board or onto another tile gives None. A malformed board
    or shape raises a `PuzzleError`.
    """
    state, shape = _board_and_shape(state, shape)
    return _slide(state, move, shape)


def _slide(state: State, move: object, shape: Shape) -> State | None:
    """`slide` on a board already checked (for hot loops); never raises."""
    if not isinstance(move, tuple | list) or len(move) != 2:
        return None
    tile, direction = move
    if isinstance(tile, bool) or not isinstance(tile, int | np.integer) or tile == 0:
        return None
    if not isinstance(direction, str) or direction not in STEPS:
        return None
    rows, cols = shape
    try:
        i = state.index(tile)
    except ValueError:
        return None
    dr, dc = STEPS[direction]
    r, c = i // cols + dr, i % cols + dc
    if not (0 <= r < rows and 0 <= c < cols) or state[r * cols + c] != 0:
        return None
    s = list(state)
    s[i], s[r * cols + c] = 0, int(tile)
    return tuple(s)


def legal_moves(state: State, shape: Shape) -> list[Move]:
    """Every (tile, direction) that slides a tile into a blank next to it (board checked)."""
    rows, cols = shape
    out = []
    for b, t in enumerate(state):
        if t != 0:
            continue
        br, bc = divmod(b, cols)
        for (dr, dc), name in DIRECTIONS.items():
            r, c = br - dr, bc - dc  # the tile that slides in direction (dr, dc) into b
            if 0 <= r < rows and 0 <= c < cols and state[r * cols + c] != 0:
                out.append((state[r * cols + c], name))
    return out


def neighbors(state: State, shape: Shape) -> list[tuple[Move, State]]:
    """Every legal move from `state`: ((tile, direction it slides), next state)."""
    return next_boards(*_board_and_shape(state, shape))


def next_boards(state: State, shape: Shape) -> list[tuple[Move, State]]:
    """`neighbors` for a board already read and checked (no parsing: for hot loops)."""
    return [(move, _slide(state, move, shape)) for move in legal_moves(state, shape)]


def apply_moves(start: State, moves: object, shape: Shape) -> State | None:
    """The board after `moves` from `start` by the slide rule, or None at the first bad move.

    A malformed `start` or `shape` raises a `PuzzleError`; bad moves give None.
    """
    board: State | None
    board, shape = _board_and_shape(start, shape)
    if isinstance(moves, str | bytes | dict):
        return None
    try:
        moves = list(moves)
    except TypeError:
        return None
    for move in moves:
        board = _slide(board, move, shape)
        if board is None:
            return None
    return board


def is_solution(
    start: State | str, moves: object, goal: State | str | None = None, shape: Shape | None = None
) -> bool:
    """Do `moves` take `start` to `goal` (default: tiles in order, blank last)? Never raises.

    Parameters
    ----------
    start : tuple of int, str, nested rows or array
        The starting board (any form `read_board` reads).
    moves : sequence of (tile, direction)
        Each move names the tile and the way it slides ("up", "down", "left", "right")
        into a blank next to it, as in `Solution.moves`.
    goal : optional
        The target board (default: tiles in order, blank last).
    shape : (rows, cols), optional
        The shape (else read from `start`).

    Returns
    -------
    bool
        False for any illegal, malformed or missing move and for unreadable boards.
    """
    try:
        start, shape = read_board(start, shape)
        goal = solved_state(shape) if goal is None else read_board(goal, shape)[0]
    except PuzzleError:
        return False
    return apply_moves(start, moves, shape) == goal


def _plain(state: object, shape: object) -> bool:
    """Is this already a valid board as a tuple of ints with a (rows, cols) tuple? (fast path)"""
    if type(shape) is not tuple or len(shape) != 2 or type(state) is not tuple:
        return False
    rows, cols = shape
    if type(rows) is not int or type(cols) is not int or rows < 1 or cols < 1:
        return False
    if len(state) != rows * cols or not all(type(t) is int and 0 <= t <= MAX_LABEL for t in state):
        return False
    blanks = state.count(0)
    return blanks > 0 and len(set(state)) == len(state) - blanks + 1


def _board_and_shape(state: object, shape: object) -> tuple[State, Shape]:
    """A board and its shape, checked (`PuzzleError` for anything malformed)."""
    if _plain(state, shape):
        return state, shape
    shape = check_shape(shape)
    return read_board(state, shape)[0], shape


def _board_pair(state: object, goal: object, shape: object) -> tuple[State, State, Shape]:
    """A board, a goal with the same tiles, and their shape, checked."""
    state, shape = _board_and_shape(state, shape)
    goal = goal if _plain(goal, shape) else read_board(goal, shape)[0]
    if sorted(state) != sorted(goal):
        check_same_tiles(state, goal)
    return state, goal, shape


def move_between(a: State, b: State, shape: Shape) -> Move:
    """The move that turns board `a` into board `b` (InvalidPuzzleError if none does)."""
    a, shape = _board_and_shape(a, shape)
    b = read_board(b, shape)[0]
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


def is_solvable(state: State | str, goal: State | str, shape: Shape) -> bool:
    """Can `state` reach `goal` on a board of `shape`? Exact for any board, any blanks.

    One blank: each move swaps the blank with a tile (a transposition) and moves the blank
    one cell, so parity(permutation) + parity(blank's taxicab distance) never changes.
    Several blanks on a board at least 2 wide and 2 high: swapping two blanks is free, so
    every arrangement of the same tiles is reachable. On a 1 x n strip tiles never pass
    each other: only the order of the tiles matters.

    Parameters
    ----------
    state, goal : tuple of int or str
        Boards in any form `read_board` reads (row-major, 0 for a blank).
    shape : (rows, cols)
        The board's shape; both boards must fill it.

    Returns
    -------
    bool

    Raises
    ------
    ParseError, InvalidPuzzleError
        A board that is unreadable, does not fill `shape`, has no blank or duplicated tiles,
        or boards that hold different tiles.
    """
    shape = check_shape(shape)
    state = read_board(state, shape)[0]
    goal = read_board(goal, shape)[0]
    check_same_tiles(state, goal)
    return solvable_checked(state, goal, shape)


def reachable_states(shape: Shape, goal: State | str | None = None) -> int:
    """How many boards can reach `goal`: n!/2 (one blank), n!/k! (k blanks), strips C(n, k)."""
    shape = check_shape(shape)
    goal = solved_state(shape) if goal is None else read_board(goal, shape)[0]
    n, k = len(goal), goal.count(0)
    if min(shape) == 1:
        return math.comb(n, k)  # tiles keep their order: only the blanks' cells vary
    return math.factorial(n) // (2 if k == 1 else math.factorial(k))


def solvable_checked(state: State, goal: State, shape: Shape) -> bool:
    """`is_solvable` for boards already read and checked (no parsing: for hot paths)."""
    rows, cols = shape
    if state == goal:
        return True
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
    state, goal, shape = _board_pair(state, goal, shape)
    if not solvable_checked(state, goal, shape):
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
    return manhattan_checked(*_board_pair(state, goal, shape))


def manhattan_checked(state: State, goal: State, shape: Shape) -> int:
    """`manhattan` for boards already read and checked (no parsing: for hot paths)."""
    cols = shape[1]
    where = {t: i for i, t in enumerate(goal) if t}
    total = 0
    for i, t in enumerate(state):
        if t:
            j = where[t]
            total += abs(i // cols - j // cols) + abs(i % cols - j % cols)
    return total
