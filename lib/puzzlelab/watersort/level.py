"""Water-sort levels: tubes of coloured liquid, the pour rule and the goal test.

A `Level` is a tuple of tubes, each listed bottom to top, plus the tube `capacity`. A pour
takes the top run (the maximal block of one colour at the top) of a source tube and moves
as much of it as fits onto a destination that is empty or shows the same colour on top:
`min(run, free space)` units, so partial pours are allowed. Every pour costs 1, however many
units it moves. The level is solved when every tube is empty or full with a single colour.
These are exactly the rules under which the shared corpus's optima were computed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..errors import InvalidPuzzleError, ParseError

Color = str
Tube = tuple[Color, ...]  # bottom to top
Pour = tuple[int, int]  # (source tube, destination tube), 0-based indices

EMPTY_TOKENS = frozenset({"-", ".", "_", "[]"})
_SYMBOL = re.compile(r"^[A-Za-z0-9]$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#-]*$")


def top_run(tube: Sequence[Color]) -> int:
    """Length of the block of one colour at the top of `tube` (0 when empty)."""
    n = len(tube)
    if n == 0:
        return 0
    top, k = tube[-1], 1
    while k < n and tube[n - 1 - k] == top:
        k += 1
    return k


def n_runs(tube: Sequence[Color]) -> int:
    """Number of maximal one-colour blocks in `tube`."""
    return sum(1 for k, c in enumerate(tube) if k == 0 or tube[k - 1] != c)


def is_complete(tube: Sequence[Color], capacity: int) -> bool:
    """Is `tube` full with a single colour?"""
    return len(tube) == capacity and top_run(tube) == capacity


def pour_amount(src: Sequence[Color], dst: Sequence[Color], capacity: int) -> int:
    """Units a pour src -> dst moves under the rules (0 when the pour is illegal)."""
    if not src or len(dst) >= capacity or (dst and dst[-1] != src[-1]):
        return 0
    return min(top_run(src), capacity - len(dst))


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
        """A validated level from tubes (bottom to top) and a capacity."""
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise InvalidPuzzleError(f"capacity must be a positive integer, got {capacity!r}")
        rows = []
        for k, tube in enumerate(tubes):
            if isinstance(tube, str | bytes):
                raise InvalidPuzzleError(
                    f"tube {k} is the string {tube!r}; expected a list of colour names"
                )
            row = tuple(tube)
            for c in row:
                if not isinstance(c, str) or not c.strip():
                    raise InvalidPuzzleError(
                        f"tube {k} holds {c!r}; expected a non-empty colour name (a string)"
                    )
            rows.append(row)
        level = cls(capacity, tuple(rows), name)
        level.validate(allow_unbalanced)
        return level

    @classmethod
    def from_dict(cls, d: dict, allow_unbalanced: bool = False) -> Level:
        """A level from the corpus schema `{"capacity": 4, "tubes": [[...], ..., []]}`."""
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

        `"RGBY YRGB BYRG GBYR - -"`: single letters/digits are one unit each; a token with
        commas names longer colours (`red,blue,red`). Without `capacity`, the common count of
        every colour is the capacity. `colors` (optional) lists the allowed symbols.
        """
        if not isinstance(text, str):
            raise ParseError(f"expected text, got {type(text).__name__}")
        tokens = text.replace("|", " ").split()
        if not tokens:
            raise ParseError("no tubes found: give one token per tube, e.g. 'RGB BGR -'")
        allowed = None if colors is None else set(colors)
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
                    "cannot infer the capacity: colours occur different numbers of times "
                    f"({sorted(counts)}); pass capacity=..."
                )
            capacity = max(counts.pop(), max(len(t) for t in tubes))
        return cls.make(tubes, capacity, name, allow_unbalanced)

    def validate(self, allow_unbalanced: bool = False) -> None:
        """Raise InvalidPuzzleError for overfull tubes or unbalanced colour counts."""
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
                        f"colour {color!r} occurs {count} times; expected a multiple of the "
                        f"capacity {self.capacity} (pass allow_unbalanced=True to accept it)"
                    )

    # ---- views --------------------------------------------------------------------------
    def counts(self) -> Counter:
        """How many units of each colour the level holds."""
        return Counter(c for t in self.tubes for c in t)

    @property
    def colors(self) -> tuple[Color, ...]:
        """The distinct colours, in order of first appearance (tube by tube, bottom up)."""
        return tuple(dict.fromkeys(c for t in self.tubes for c in t))

    @property
    def n_tubes(self) -> int:
        """Number of tubes."""
        return len(self.tubes)

    @property
    def n_colors(self) -> int:
        """Number of distinct colours."""
        return len(self.colors)

    @property
    def n_empty(self) -> int:
        """Number of empty tubes."""
        return sum(1 for t in self.tubes if not t)

    @property
    def is_balanced(self) -> bool:
        """Does every colour fill whole tubes (count a multiple of the capacity)?"""
        return all(n % self.capacity == 0 for n in self.counts().values())

    def is_solved(self) -> bool:
        """Is every tube empty or full with one colour?"""
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
        """The same level with colours renamed (k-th colour of `self.colors` -> names[k])."""
        mapping = dict(zip(self.colors, names, strict=False))
        return Level(
            self.capacity, tuple(tuple(mapping[c] for c in t) for t in self.tubes), self.name
        )

    # ---- moves --------------------------------------------------------------------------
    def can_pour(self, i: int, j: int) -> bool:
        """Is the pour from tube i onto tube j legal?"""
        n = len(self.tubes)
        return (
            0 <= i < n
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
        if not (0 <= i < n and 0 <= j < n):
            raise InvalidPuzzleError(f"pour {i}->{j}: tubes are numbered 0..{n - 1}")
        if i == j:
            raise InvalidPuzzleError(f"pour {i}->{j}: source and destination must differ")
        src, dst = self.tubes[i], self.tubes[j]
        k = pour_amount(src, dst, self.capacity)
        if k == 0:
            why = (
                "the source is empty"
                if not src
                else "the destination is full"
                if len(dst) >= self.capacity
                else f"top colours differ ({src[-1]!r} onto {dst[-1]!r})"
            )
            raise InvalidPuzzleError(f"pour {i}->{j} is illegal: {why}")
        tubes = list(self.tubes)
        tubes[i] = src[: len(src) - k]
        tubes[j] = dst + src[len(src) - k :]
        return Level(self.capacity, tuple(tubes), self.name)

    def play(self, pours: Iterable[Pour]) -> list[Level]:
        """The positions along a pour sequence, starting with `self` (raises on an illegal pour)."""
        states = [self]
        for step, (i, j) in enumerate(pours):
            try:
                states.append(states[-1].pour(i, j))
            except InvalidPuzzleError as err:
                raise InvalidPuzzleError(f"pour number {step + 1}: {err}") from None
        return states


def is_solution(level: Level, pours: Iterable[Pour]) -> bool:
    """Is `pours` a legal pour sequence that leaves `level` sorted?"""
    try:
        return level.play(list(pours))[-1].is_solved()
    except InvalidPuzzleError:
        return False
