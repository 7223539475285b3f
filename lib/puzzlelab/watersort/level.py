"""Water-sort levels: tubes of colored liquid, the pour rule and the goal test.

A `Level` is a tuple of tubes, each listed bottom to top, plus the tube `capacity`. A pour
takes the top run (the maximal block of one color at the top) of a source tube and moves
as much of it as fits onto a destination that is empty or shows the same color on top:
`min(run, free space)` units, so partial pours are allowed. Every pour costs 1, however many
units it moves. The level is solved when every tube is empty or full with a single color.
These are exactly the rules under which the shared corpus's optima were computed.
"""

from __future__ import annotations

import json
import numbers
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..checks import integer, read_text
from ..errors import InvalidPuzzleError, ParseError, PuzzleError

Color = str
Tube = tuple[Color, ...]  # bottom to top
Pour = tuple[int, int]  # (source tube, destination tube), 0-based indices

EMPTY_TOKENS = frozenset({"-", ".", "_", "[]"})
_SYMBOL = re.compile(r"^[A-Za-z0-9]$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#-]*$")


def top_run(tube: Sequence[Color]) -> int:
    """Length of the block of one color at the top of `tube` (0 when empty)."""
    n = len(tube)
    if n == 0:
        return 0
    top, k = tube[-1], 1
    while k < n and tube[n - 1 - k] == top:
        k += 1
    return k


def n_runs(tube: Sequence[Color]) -> int:
    """Number of maximal one-color blocks in `tube`."""
    return sum(1 for k, c in enumerate(tube) if k == 0 or tube[k - 1] != c)


def is_complete(tube: Sequence[Color], capacity: int) -> bool:
    """Is `tube` full with a single color?"""
    return len(tube) == capacity and top_run(tube) == capacity


def pour_amount(src: Sequence[Color], dst: Sequence[Color], capacity: int) -> int:
    """Units a pour src -> dst moves under the rules (0 when the pour is illegal).

    This is *the* pour rule of the package: every solver, the write-up's baseline and the
    generator use it (through `poured`), or are tested against it (the fast successor
    function `solvers.expand`). Tubes may be tuples of names or `bytes` of color codes.
    """
    if not src or len(dst) >= capacity or (dst and dst[-1] != src[-1]):
        return 0
    return min(top_run(src), capacity - len(dst))


def poured(src: Sequence, dst: Sequence, capacity: int) -> tuple[Sequence, Sequence] | None:
    """(source, destination) after pouring src onto dst, or None when the pour is illegal."""
    k = pour_amount(src, dst, capacity)
    if k == 0:
        return None
    return src[: len(src) - k], dst + src[len(src) - k :]


@dataclass(frozen=True)
class Level:
    """A water-sort position: `tubes` (each bottom to top) of equal `capacity`."""

    capacity: int
    tubes: tuple[Tube, ...]
    name: str = field(default="", compare=False)

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def make(
        cls,
        tubes: Iterable[Iterable[Color]],
        capacity: int,
        name: str = "",
        allow_unbalanced: bool = False,
    ) -> Level:
        """A validated level from tubes (bottom to top) and a capacity.

        Parameters
        ----------
        tubes : iterable of sequences of str
            Each tube's color names, bottom to top (lists or tuples; `[]` for an empty tube).
        capacity : int
            Units a tube holds (a positive whole number; numpy integers are accepted).
        name : str
            A label for tables and plots.
        allow_unbalanced : bool
            Accept colors whose count is not a multiple of the capacity (such a level is
            reported unsolvable by `solve`).

        Returns
        -------
        Level

        Raises
        ------
        InvalidPuzzleError
            A non-integer or non-positive capacity, a tube that is not a list of names, an
            overfull tube or (unless allowed) an unbalanced color.
        """
        try:
            capacity = integer(capacity, "capacity", minimum=1)
        except PuzzleError as err:
            raise InvalidPuzzleError(str(err)) from None
        if isinstance(tubes, str | bytes | dict) or not isinstance(tubes, Iterable):
            raise InvalidPuzzleError(f"tubes must be a list of tubes, not {tubes!r:.60}")
        rows = []
        for k, tube in enumerate(tubes):
            if not isinstance(tube, list | tuple):
                raise InvalidPuzzleError(
                    f"tube {k} is {tube!r:.60}; expected a list of color names (bottom to top)"
                )
            for c in tube:
                if not isinstance(c, str) or not c.strip():
                    raise InvalidPuzzleError(
                        f"tube {k} holds {c!r:.60}; expected a non-empty color name (a string)"
                    )
            rows.append(tuple(tube))
        level = cls(capacity, tuple(rows), str(name))
        level.validate(allow_unbalanced)
        return level

    @classmethod
    def from_dict(cls, d: dict, allow_unbalanced: bool = False) -> Level:
        """A level from the corpus schema `{"capacity": 4, "tubes": [[...], ..., []]}`.

        Raises `ParseError` for a missing key or a wrong type, `InvalidPuzzleError` for a
        level that breaks a rule (see `make`).
        """
        if not isinstance(d, dict):
            raise ParseError(f"expected a dict with 'capacity' and 'tubes', got {type(d).__name__}")
        missing = [k for k in ("capacity", "tubes") if k not in d]
        if missing:
            raise ParseError(f"level dict lacks {', '.join(missing)}; it needs capacity and tubes")
        if not isinstance(d["tubes"], list | tuple):
            raise ParseError(f"'tubes' must be a list of lists, got {type(d['tubes']).__name__}")
        return cls.make(d["tubes"], d["capacity"], str(d.get("name", "")), allow_unbalanced)

    @classmethod
    def parse(
        cls,
        text: str,
        capacity: int | None = None,
        colors: str | Iterable[str] | None = None,
        allow_unbalanced: bool = False,
        name: str = "",
    ) -> Level:
        """A level from text: one token per tube, bottom to top, `-` for an empty tube.

        Parameters
        ----------
        text : str
            `"RGBY YRGB BYRG GBYR - -"`: single letters/digits are one unit each; a token
            with commas names longer colors (`red,blue,red`); `-`, `.`, `_` or `[]` is an
            empty tube; `|` separates like a space.
        capacity : int, optional
            Units per tube; without it, the common count of every color.
        colors : str or list of str, optional
            The allowed symbols.
        allow_unbalanced : bool
            Accept colors whose count is not a multiple of the capacity.
        name : str
            A label for tables and plots.

        Returns
        -------
        Level

        Raises
        ------
        ParseError
            Text that is not a level (no tubes, unknown symbols, capacity not inferable).
        InvalidPuzzleError
            A level that breaks a rule (see `make`).
        """
        if not isinstance(text, str):
            raise ParseError(f"expected text, got {type(text).__name__}")
        tokens = text.replace("|", " ").split()
        if not tokens:
            raise ParseError("no tubes found: give one token per tube, e.g. 'RGB BGR -'")
        allowed = None if colors is None else _allowed_symbols(colors)
        tubes = []
        for k, token in enumerate(tokens):
            if token in EMPTY_TOKENS:
                tubes.append(())
                continue
            units = token.split(",") if "," in token else list(token)
            for u in units:
                ok = _NAME.match(u) if "," in token else _SYMBOL.match(u)
                if not ok:
                    raise ParseError(
                        f"tube {k} ({token!r}): unknown symbol {u!r}; expected letters or digits "
                        "(one per unit), comma-separated names, or '-' for an empty tube"
                    )
                if allowed is not None and u not in allowed:
                    raise ParseError(
                        f"tube {k} ({token!r}): symbol {u!r} is not one of {sorted(allowed)}"
                    )
            tubes.append(tuple(units))
        if capacity is None:
            counts = set(Counter(c for t in tubes for c in t).values())
            if len(counts) != 1:
                raise ParseError(
                    "cannot infer the capacity: colors occur different numbers of times "
                    f"({sorted(counts)}); pass capacity=..."
                )
            capacity = max(counts.pop(), max(len(t) for t in tubes))
        return cls.make(tubes, capacity, name, allow_unbalanced)

    def validate(self, allow_unbalanced: bool = False) -> None:
        """Raise InvalidPuzzleError for overfull tubes or unbalanced color counts."""
        if not self.tubes:
            raise InvalidPuzzleError("a level needs at least one tube")
        for k, tube in enumerate(self.tubes):
            if len(tube) > self.capacity:
                raise InvalidPuzzleError(
                    f"tube {k} holds {len(tube)} units but the capacity is {self.capacity}"
                )
        if not allow_unbalanced:
            for color, count in self.counts().items():
                if count % self.capacity:
                    raise InvalidPuzzleError(
                        f"color {color!r} occurs {count} times; expected a multiple of the "
                        f"capacity {self.capacity} (pass allow_unbalanced=True to accept it)"
                    )

    # ---- views --------------------------------------------------------------------------
    def counts(self) -> Counter:
        """How many units of each color the level holds."""
        return Counter(c for t in self.tubes for c in t)

    @property
    def colors(self) -> tuple[Color, ...]:
        """The distinct colors, in order of first appearance (tube by tube, bottom up)."""
        return tuple(dict.fromkeys(c for t in self.tubes for c in t))

    @property
    def n_tubes(self) -> int:
        """Number of tubes."""
        return len(self.tubes)

    @property
    def n_colors(self) -> int:
        """Number of distinct colors."""
        return len(self.colors)

    @property
    def n_empty(self) -> int:
        """Number of empty tubes."""
        return sum(1 for t in self.tubes if not t)

    @property
    def is_balanced(self) -> bool:
        """Does every color fill whole tubes (count a multiple of the capacity)?"""
        return all(n % self.capacity == 0 for n in self.counts().values())

    def is_solved(self) -> bool:
        """Is every tube empty or full with one color?"""
        return all(not t or is_complete(t, self.capacity) for t in self.tubes)

    def to_text(self) -> str:
        """The compact text form read by `Level.parse` (round-trips)."""
        short = all(len(c) == 1 and _SYMBOL.match(c) for c in self.colors)
        sep = "" if short else ","
        return " ".join(sep.join(t) if t else "-" for t in self.tubes)

    def __str__(self) -> str:
        return self.to_text()

    def canonical(self) -> tuple[Tube, ...]:
        """The position up to renumbering tubes (tubes sorted): equal for equivalent levels."""
        return tuple(sorted(self.tubes))

    def relabel(self, names: Sequence[Color]) -> Level:
        """The same level with colors renamed (k-th color of `self.colors` -> names[k])."""
        ok = isinstance(names, list | tuple) and all(isinstance(c, str) and c for c in names)
        if not ok or len(names) < self.n_colors or len(set(names)) < len(names):
            raise InvalidPuzzleError(
                f"relabel needs a list of {self.n_colors} distinct color names, got {names!r:.60}"
            )
        mapping = dict(zip(self.colors, names, strict=False))
        return Level(
            self.capacity, tuple(tuple(mapping[c] for c in t) for t in self.tubes), self.name
        )

    # ---- moves --------------------------------------------------------------------------
    def can_pour(self, i: int, j: int) -> bool:
        """Is the pour from tube i onto tube j legal? (False for anything but two tube numbers.)"""
        n = len(self.tubes)
        return (
            _is_index(i)
            and _is_index(j)
            and 0 <= i < n
            and 0 <= j < n
            and i != j
            and pour_amount(self.tubes[i], self.tubes[j], self.capacity) > 0
        )

    def legal_pours(self) -> list[Pour]:
        """Every legal pour (i, j), in index order."""
        n = len(self.tubes)
        return [(i, j) for i in range(n) for j in range(n) if self.can_pour(i, j)]

    def pour(self, i: int, j: int) -> Level:
        """The level after pouring tube i onto tube j (InvalidPuzzleError if illegal)."""
        n = len(self.tubes)
        if not (_is_index(i) and _is_index(j) and 0 <= i < n and 0 <= j < n):
            raise InvalidPuzzleError(f"pour {i!r:.20}->{j!r:.20}: tubes are numbered 0..{n - 1}")
        if i == j:
            raise InvalidPuzzleError(f"pour {i}->{j}: source and destination must differ")
        src, dst = self.tubes[i], self.tubes[j]
        after = poured(src, dst, self.capacity)
        if after is None:
            why = (
                "the source is empty"
                if not src
                else "the destination is full"
                if len(dst) >= self.capacity
                else f"top colors differ ({src[-1]!r} onto {dst[-1]!r})"
            )
            raise InvalidPuzzleError(f"pour {i}->{j} is illegal: {why}")
        tubes = list(self.tubes)
        tubes[i], tubes[j] = after
        return Level(self.capacity, tuple(tubes), self.name)

    def play(self, pours: Iterable[Pour]) -> list[Level]:
        """The positions along a pour sequence, starting with `self` (raises on an illegal pour)."""
        if isinstance(pours, str | bytes | dict) or not isinstance(pours, Iterable):
            raise InvalidPuzzleError(
                f"pours must be a list of (source, destination) pairs, not {pours!r:.60}"
            )
        states = [self]
        for step, pour in enumerate(pours):
            if not isinstance(pour, list | tuple) or len(pour) != 2:
                raise InvalidPuzzleError(
                    f"pour number {step + 1} is {pour!r:.60}; expected a pair (source, destination)"
                )
            try:
                states.append(states[-1].pour(*pour))
            except InvalidPuzzleError as err:
                raise InvalidPuzzleError(f"pour number {step + 1}: {err}") from None
        return states


def _allowed_symbols(colors: object) -> set[str]:
    """The `colors` argument of `Level.parse` as a set of names (ParseError otherwise)."""
    if isinstance(colors, str):
        return set(colors)
    names = list(colors) if isinstance(colors, list | tuple | set | frozenset) else None
    if names is None or not all(isinstance(c, str) for c in names):
        raise ParseError(f"colors must be a string or a list of names, not {colors!r:.60}")
    return set(names)


def _is_index(i: object) -> bool:
    """Is `i` a whole number usable as a tube index (Python or numpy int, not a bool)?"""
    return isinstance(i, numbers.Integral) and not isinstance(i, bool)


def is_solution(level: Level, pours: Iterable[Pour]) -> bool:
    """Is `pours` a legal pour sequence that leaves `level` sorted?

    Parameters
    ----------
    level : Level
        The start position.
    pours : iterable of (int, int)
        (source, destination) tube numbers, 0-based, in the level's own numbering.

    Returns
    -------
    bool
        True when every pour is legal and the last position is sorted; False for anything
        else, including malformed pours (never raises on bad pours).

    Raises
    ------
    PuzzleError
        When `level` is not a `Level`.
    """
    if not isinstance(level, Level):
        raise PuzzleError(f"expected a Level, got {type(level).__name__}")
    try:
        return level.play(pours)[-1].is_solved()
    except (PuzzleError, TypeError):  # TypeError: an iterable that fails while iterating
        return False


def load_levels(path: str | os.PathLike) -> list[Level]:
    """Levels from a JSON file in the corpus schema.

    Parameters
    ----------
    path : str or path-like
        A UTF-8 JSON file holding `{"levels": [level, ...]}`, a list of levels, or one level
        (each level a dict with `capacity` and `tubes`, as `Level.from_dict` reads).

    Returns
    -------
    list of Level

    Raises
    ------
    ParseError
        A missing, binary or non-UTF-8 file, invalid JSON, or a level of the wrong shape
        (the message names the level's position in the file).
    InvalidPuzzleError
        A level that breaks a rule (overfull tube, unbalanced color, bad capacity).
    """
    text = read_text(path, "level file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ParseError(f"level file {path} is not valid JSON: {err}") from None
    if isinstance(data, dict) and "levels" in data:
        data = data["levels"]
    entries = data if isinstance(data, list) else [data]
    levels = []
    for k, entry in enumerate(entries):
        try:
            levels.append(Level.from_dict(entry))
        except PuzzleError as err:
            raise type(err)(f"level {k} of {path}: {err}") from None
    return levels
