"""Water-sort levels: tubes of colored liquid, the pour rule and the goal test.

A `Level` is a tuple of tubes, each listed bottom to top, plus the tube `capacity`. A pour
takes the top run (the maximal block of one color at the top) of a source tube and moves
as much of it as fits onto a destination that is empty or shows the same color on top:
`min(run, free space)` units, so partial pours are allowed. Every pour costs 1, however many
units it moves. The level is solved when every tube is empty or full with a single color.
These are exactly the rules under which the shared corpus's optima were computed.
"""

from __future__ import annotations

import numbers
import re
import reprlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..checks import integer
from ..errors import InvalidPuzzleError, ParseError, PuzzleError

Color = str
Tube = tuple[Color, ...]  # bottom to top
Pour = tuple[int, int]  # (source tube, destination tube), 0-based indices

EMPTY_TOKENS = frozenset({"-", ".", "_", "[]"})
_SYMBOL = re.compile(r"^[A-Za-z0-9]$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#-]*$")
_CAPACITY = re.compile(r"^cap(?:acity)?=(.*)$")  # the text form's capacity token, e.g. cap=4
_SHOW = reprlib.Repr()
_SHOW.maxlevel, _SHOW.maxstring, _SHOW.maxother, _SHOW.maxlist, _SHOW.maxtuple = 3, 40, 40, 6, 6


def show(value: object) -> str:
    """A short repr for error messages (safe on huge or deeply nested values)."""
    try:
        return _SHOW.repr(value)
    except Exception:  # a repr that fails is still an input to name
        return f"<{type(value).__name__}>"


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

    def __post_init__(self) -> None:
        """Refuse a level no pour rule applies to: bad capacity, odd tubes, an overfull tube.

        Built directly (`Level(capacity, tubes)`) or by `make`, a level always holds whole-
        number capacity >= 1 and tubes of non-empty color names no taller than the capacity;
        color balance is checked by `make`/`parse` (an unbalanced level is only unsolvable).
        """
        try:
            capacity = integer(self.capacity, "capacity", minimum=1)
        except PuzzleError as err:
            raise InvalidPuzzleError(str(err)) from None
        tubes = self.tubes
        if isinstance(tubes, str | bytes | dict) or not isinstance(tubes, Iterable):
            raise InvalidPuzzleError(f"tubes must be a list of tubes, not {show(tubes)}")
        rows = []
        for k, tube in enumerate(tubes):
            if not isinstance(tube, list | tuple):
                raise InvalidPuzzleError(
                    f"tube {k} is {show(tube)}; expected a list of color names (bottom to top)"
                )
            for c in tube:
                if not isinstance(c, str) or not c.strip():
                    raise InvalidPuzzleError(
                        f"tube {k} holds {show(c)}; expected a non-empty color name (a string)"
                    )
            if len(tube) > capacity:
                raise InvalidPuzzleError(
                    f"tube {k} holds {len(tube)} units but the capacity is {capacity}"
                )
            rows.append(tuple(tube))
        if not rows:
            raise InvalidPuzzleError("a level needs at least one tube")
        object.__setattr__(self, "capacity", capacity)
        object.__setattr__(self, "tubes", tuple(rows))
        object.__setattr__(self, "name", str(self.name))

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
        if isinstance(tubes, str | bytes | dict) or not isinstance(tubes, Iterable):
            raise InvalidPuzzleError(f"tubes must be a list of tubes, not {show(tubes)}")
        level = cls(capacity, tuple(tubes), name)  # __post_init__ checks the structure
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
        name = d.get("name", "")
        if not isinstance(name, str):
            raise ParseError(f"'name' must be text, not {show(name)}")
        return cls.make(d["tubes"], d["capacity"], name, allow_unbalanced)

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
            with commas names longer colors (`red,blue,red`; a one-unit tube of a long name
            ends with a comma, `red,`); `-`, `.`, `_` or `[]` is an empty tube; `|` separates
            like a space; a token `cap=N` gives the capacity (`to_text` writes it).
        capacity : int, optional
            Units per tube; without it, the text's `cap=N`, else the common count of every
            color (a `cap=N` that disagrees with `capacity` is a ParseError).
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
        capacity = _text_capacity(tokens, capacity)
        if not tokens:
            raise ParseError("no tubes found: give one token per tube, e.g. 'RGB BGR -'")
        tubes = []
        for k, token in enumerate(tokens):
            if token in EMPTY_TOKENS:
                tubes.append(())
                continue
            units = token.split(",") if "," in token else list(token)
            if "," in token and len(units) > 1 and units[-1] == "":
                units.pop()  # "red," is a one-unit tube of a long name
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
        """Raise InvalidPuzzleError for unbalanced color counts (structure: `__post_init__`)."""
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
        """The compact text form read by `Level.parse`, ending with `cap=N` (round-trips).

        Raises `InvalidPuzzleError` for a color name the text form cannot carry (spaces,
        commas, punctuation): use `Level.make` / the JSON schema for such names.
        """
        bad = [c for c in self.colors if not _NAME.match(c)]
        if bad:
            raise InvalidPuzzleError(
                f"color {show(bad[0])} cannot be written as text (names are letters, digits "
                "and _+#-, starting with a letter or digit); keep such levels as JSON"
            )
        short = all(len(c) == 1 for c in self.colors)
        if short:
            body = ["".join(t) if t else "-" for t in self.tubes]
        else:
            body = [",".join(t) + ("," if len(t) == 1 else "") if t else "-" for t in self.tubes]
        return " ".join([*body, f"cap={self.capacity}"])

    def __str__(self) -> str:
        return self.to_text()

    def canonical(self) -> tuple[Tube, ...]:
        """The position up to renumbering tubes (tubes sorted): equal for equivalent levels."""
        return tuple(sorted(self.tubes))

    def pattern(self) -> tuple[tuple[int, ...], ...]:
        """The tubes with colors numbered by first appearance: equal iff equal up to renaming."""
        return color_pattern(self.tubes)

    def relabel(self, names: Sequence[Color]) -> Level:
        """The same level with colors renamed (k-th color of `self.colors` -> names[k])."""
        ok = isinstance(names, list | tuple) and all(isinstance(c, str) and c for c in names)
        if not ok or len(names) < self.n_colors or len(set(names)) < len(names):
            raise InvalidPuzzleError(
                f"relabel needs a list of {self.n_colors} distinct color names, got {show(names)}"
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
            raise InvalidPuzzleError(f"pour {show(i)}->{show(j)}: tubes are numbered 0..{n - 1}")
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
                f"pours must be a list of (source, destination) pairs, not {show(pours)}"
            )
        states = [self]
        for step, pour in enumerate(pours):
            if not isinstance(pour, list | tuple) or len(pour) != 2:
                raise InvalidPuzzleError(
                    f"pour number {step + 1} is {show(pour)}; expected a pair (source, destination)"
                )
            try:
                states.append(states[-1].pour(*pour))
            except InvalidPuzzleError as err:
                raise InvalidPuzzleError(f"pour number {step + 1}: {err}") from None
        return states


def _text_capacity(tokens: list[str], capacity: object) -> object:
    """Remove the `cap=N` token from `tokens`; the capacity it gives (or `capacity`)."""
    found = [(k, m) for k, t in enumerate(tokens) if (m := _CAPACITY.match(t))]
    if not found:
        return capacity
    if len(found) > 1:
        raise ParseError("the text gives the capacity twice (two cap=N tokens)")
    k, match = found[0]
    del tokens[k]
    digits = match.group(1)
    if not digits.isdigit() or not digits.isascii():
        raise ParseError(f"{match.group(0)!r}: expected cap=N with N a whole number")
    if capacity is not None and integer(capacity, "capacity") != int(digits):
        raise ParseError(f"the text says {match.group(0)} but capacity={show(capacity)} was given")
    return int(digits)


def color_pattern(tubes: Iterable[Iterable[Color] | None]) -> tuple:
    """Tubes with colors numbered 0, 1, ... by first appearance (None, an unread tube, stays).

    Two positions have the same pattern exactly when they are equal up to renaming colors
    one-to-one (tube order kept).
    """
    seen: dict = {}
    return tuple(
        None if t is None else tuple(seen.setdefault(u, len(seen)) for u in t) for t in tubes
    )


def same_up_to_renaming(a: Level | Iterable, b: Level | Iterable) -> bool:
    """Are `a` and `b` the same position after renaming colors one-to-one (tube order kept)?

    The lab's one test of "equal up to color renaming". `a` and `b` are Levels (then their
    capacities must agree too) or lists of tubes (a tube may be None: unread, in a screenshot).
    Never raises: anything that is not a position compares unequal.
    """
    try:
        if isinstance(a, Level) or isinstance(b, Level):
            if not (isinstance(a, Level) and isinstance(b, Level)) or a.capacity != b.capacity:
                return False
            a, b = a.tubes, b.tubes
        return color_pattern(a) == color_pattern(b)
    except TypeError:
        return False


def _allowed_symbols(colors: object) -> set[str]:
    """The `colors` argument of `Level.parse` as a set of names (ParseError otherwise)."""
    if isinstance(colors, str):
        return set(colors)
    names = list(colors) if isinstance(colors, list | tuple | set | frozenset) else None
    if names is None or not all(isinstance(c, str) for c in names):
        raise ParseError(f"colors must be a string or a list of names, not {show(colors)}")
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

    Never raises: a `level` that is not a `Level` gives False too.
    """
    if not isinstance(level, Level):
        return False
    try:
        return level.play(pours)[-1].is_solved()
    except (PuzzleError, TypeError):  # TypeError: an iterable that fails while iterating
        return False
