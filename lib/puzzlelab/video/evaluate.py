"""Scoring an extraction against the synthesizer's ground truth."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import pandas as pd

from .. import checks
from ..errors import InvalidPuzzleError, PuzzleError
from ..sliding import parse_board


@dataclass(frozen=True, kw_only=True)
class Accuracy:
    """How a table of readings compares with the openings that were really filmed."""

    openings: int  # openings in the recording
    rows: int  # rows the extractor returned
    found: int  # openings with at least one row during their time on screen
    states_right: int  # found openings whose first row has the right state
    pictures_right: int  # ... and the right picture
    missed: int  # openings without a row
    extra: int  # rows beyond one per opening (duplicates or rows outside any opening)

    @property
    def exact(self) -> bool:
        """Every opening read once, with the right picture and state, and nothing else."""
        n = self.openings
        return self.found == self.states_right == self.pictures_right == n == self.rows

    @property
    def summary(self) -> str:
        """'exact', or a short list of what went wrong."""
        if self.exact:
            return "exact"
        parts = [
            f"{self.found - self.states_right} wrong states",
            f"{self.found - self.pictures_right} wrong pictures",
            f"{self.missed} missed",
            f"{self.extra} extra",
        ]
        return ", ".join(p for p in parts if not p.startswith("0 "))

    def stats(self) -> dict:
        """The counts as a dict (for tables)."""
        return {**asdict(self), "summary": self.summary}


def score_extraction(table: pd.DataFrame, truth: pd.DataFrame) -> Accuracy:
    """Match rows to openings by frame (preview start .. last puzzle frame) and count.

    Parameters
    ----------
    table : DataFrame
        Rows of `extract_states` or `extract_states_writeup` (frame, picture, state).
    truth : DataFrame
        The ground truth of `synthesize_recording` (answer_frame, end_frame, picture, pattern).

    Returns
    -------
    Accuracy

    Raises
    ------
    InvalidPuzzleError
        A table or truth without the needed columns.
    """
    for name, frame, cols in (
        ("table", table, ("frame", "picture", "state")),
        ("truth", truth, ("answer_frame", "end_frame", "picture", "pattern")),
    ):
        if not isinstance(frame, pd.DataFrame) or not set(cols) <= set(frame.columns):
            raise InvalidPuzzleError(f"{name} must be a DataFrame with columns {', '.join(cols)}")
    frames = [checks.integer(f, f"frame of row {i}") for i, f in enumerate(table["frame"])]
    first: dict[int, int] = {}
    extra = 0
    spans = list(zip(truth["answer_frame"], truth["end_frame"], truth.index, strict=True))
    for i, frame in enumerate(frames):
        hit = next((k for a, e, k in spans if a <= frame <= e), None)
        if hit is None or hit in first:
            extra += 1
        else:
            first[hit] = i
    states = pictures = 0
    for k, i in first.items():
        states += _same_pattern(table["state"].iloc[i], truth.loc[k, "pattern"])
        pictures += _same_picture(table["picture"].iloc[i], truth.loc[k, "picture"])
    return Accuracy(
        openings=len(truth),
        rows=len(table),
        found=len(first),
        states_right=states,
        pictures_right=pictures,
        missed=len(truth) - len(first),
        extra=extra,
    )


def _same_picture(found, expected) -> bool:
    """Whether a reading's picture (possibly malformed) is the expected one."""
    try:
        return checks.integer(found, "picture") == int(expected)
    except PuzzleError:
        return False


def _same_pattern(found, expected: str) -> bool:
    """Whether a reading (pattern text, possibly malformed) names the expected state."""
    try:
        return parse_board(str(found)) == parse_board(expected)
    except (PuzzleError, TypeError, IndexError):  # any unreadable reading is simply wrong
        return False
