"""Checks for user-supplied values: one place that turns odd input into a clear `PuzzleError`.

Every public entry point validates its numbers, names and files with these helpers instead of
calling `int()` / `float()` (which truncate 1.7 to 1, or accept NaN), so a float tile, a NaN
count, a bool shape or a binary file gets a message that says what is wrong and what to pass.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from .errors import ParseError, PuzzleError

__all__ = [
    "as_path",
    "choice",
    "counts",
    "fraction",
    "integer",
    "number",
    "read_text",
    "rng",
    "seed",
]


def integer(
    value: object, name: str, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """`value` as a Python int; floats (even 2.0), bools, NaN and strings are refused.

    Accepts Python and numpy integers. Raises `PuzzleError` naming `name` and the allowed range.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise PuzzleError(f"{name} must be a whole number (an int), not {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise PuzzleError(f"{name} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise PuzzleError(f"{name} must be at most {maximum}, not {value}")
    return value


def number(
    value: object,
    name: str,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    allow_inf: bool = False,
    open_interval: bool = False,
) -> float:
    """`value` as a float; NaN, bools, strings (and inf unless `allow_inf`) are refused.

    With `open_interval`, the bounds themselves are excluded (e.g. a confidence in (0, 1)).
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise PuzzleError(f"{name} must be a number, not {value!r}")
    try:
        value = float(value)
    except OverflowError:  # an int beyond the float range, e.g. 10**400
        raise PuzzleError(f"{name} must be a number within the float range (about 1e308)") from None
    if math.isnan(value):
        raise PuzzleError(f"{name} is NaN; pass a number")
    if math.isinf(value) and not allow_inf:
        raise PuzzleError(f"{name} must be finite, not {value}")
    low_bad = minimum is not None and (value <= minimum if open_interval else value < minimum)
    high_bad = maximum is not None and (value >= maximum if open_interval else value > maximum)
    if low_bad or high_bad:
        lo = "-inf" if minimum is None else f"{minimum:g}"
        hi = "inf" if maximum is None else f"{maximum:g}"
        brackets = ("(", ")") if open_interval else ("[", "]")
        raise PuzzleError(f"{name} must lie in {brackets[0]}{lo}, {hi}{brackets[1]}, not {value:g}")
    return value


def fraction(value: object, name: str) -> float:
    """A probability or confidence strictly between 0 and 1."""
    return number(value, name, minimum=0.0, maximum=1.0, open_interval=True)


def counts(values: Iterable[object], name: str = "counts") -> list[int]:
    """A list of non-negative whole counts (numpy arrays included); anything else is refused."""
    try:
        items = list(values)
    except TypeError as exc:
        raise PuzzleError(f"{name} must be a sequence of whole numbers, not {values!r}") from exc
    return [integer(v, f"{name}[{i}]", minimum=0) for i, v in enumerate(items)]


def seed(value: object, name: str = "seed") -> int | None:
    """A random seed: None or a non-negative int (what numpy's generators accept)."""
    if value is None:
        return None
    return integer(value, name, minimum=0)


def rng(value: object = None, name: str = "rng") -> np.random.Generator:
    """A numpy Generator from `value` (SPEC 7): an int seed >= 0, a Generator, or None.

    A Generator is used as it is (its stream continues); an int seeds a new one; None draws a
    fresh seed from the operating system (not reproducible: pass an int in notebooks).
    """
    if isinstance(value, np.random.Generator):
        return value
    if isinstance(value, np.random.SeedSequence):
        return np.random.default_rng(value)
    if value is not None:
        value = integer(value, name, minimum=0)
    return np.random.default_rng(value)


def choice(value: object, name: str, options: Iterable[str]) -> str:
    """`value` when it is one of `options` (exact match), else a `PuzzleError` listing them."""
    if isinstance(options, str) or not isinstance(options, Iterable):
        raise PuzzleError(f"the options for {name} must be a list of names, not {options!r}")
    options = tuple(options)
    if not isinstance(value, str) or value not in options:
        raise PuzzleError(f"{name} must be one of {', '.join(map(repr, options))}, not {value!r}")
    return value


def as_path(value: object, name: str = "path") -> Path:
    """`value` as a Path: a str or os.PathLike, not empty and without NUL bytes."""
    if not isinstance(value, str | os.PathLike):
        raise PuzzleError(f"{name} must be a file path (str or Path), not {value!r}")
    text = os.fspath(value)
    if not isinstance(text, str) or not text or "\x00" in text:
        raise PuzzleError(f"{name} must be a file path (str or Path), not {value!r}")
    return Path(text)


def read_text(path: str | os.PathLike, what: str = "file") -> str:
    """The UTF-8 text of a file; missing, unreadable or binary files give a `ParseError`."""
    path = as_path(path, what)
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise ParseError(f"{what} {path} does not exist") from exc
    except OSError as exc:
        raise ParseError(f"cannot read {what} {path}: {exc.strerror or exc}") from exc
    if b"\x00" in raw:
        raise ParseError(f"{what} {path} is binary, not text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(
            f"{what} {path} is not UTF-8 text (byte {exc.start}); save it as UTF-8"
        ) from exc
