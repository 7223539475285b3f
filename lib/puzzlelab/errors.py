"""One family of errors for bad input: every one is a ValueError that says what to fix."""

__all__ = [
    "CacheError",
    "InvalidPuzzleError",
    "ParseError",
    "PuzzleError",
    "TooLargeError",
    "UnsolvableError",
    "WriteError",
]


class PuzzleError(ValueError):
    """Bad puzzle input: the message names the offending part and what was expected."""


class ParseError(PuzzleError):
    """Text or a file could not be read as a puzzle."""


class InvalidPuzzleError(PuzzleError):
    """The puzzle is well-formed text but breaks a rule (sizes, counts, symbols)."""


class UnsolvableError(PuzzleError):
    """The puzzle has no solution (proven, not guessed)."""


class TooLargeError(PuzzleError):
    """The request is beyond what this method can do in memory or time."""


class CacheError(PuzzleError):
    """A cached file is damaged, from another version or for another puzzle."""


class WriteError(PuzzleError):
    """A file could not be written (a read-only folder, a folder in the way, a full disk)."""
