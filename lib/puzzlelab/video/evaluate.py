"""Scoring an extraction against the synthesizer's ground truth."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import pandas as pd

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
    first: dict[int, pd.Series] = {}
    extra = 0
    spans = list(zip(truth["answer_frame"], truth["end_frame"], truth.index, strict=True))
    for _, row in table.iterrows():
        hit = next((k for a, e, k in spans if a <= row["frame"] <= e), None)
        if hit is None or hit in first:
            extra += 1
        else:
            first[hit] = row
    states = pictures = 0
    for k, row in first.items():
        right_state = _same_pattern(row["state"], truth.loc[k, "pattern"])
        states += right_state
        pictures += int(row["picture"]) == int(truth.loc[k, "picture"])
    return Accuracy(
        openings=len(truth),
        rows=len(table),
        found=len(first),
        states_right=states,
        pictures_right=pictures,
        missed=len(truth) - len(first),
        extra=extra,
    )


def _same_pattern(found, expected: str) -> bool:
    """Whether a reading (pattern text, possibly malformed) names the expected state."""
    try:
        return parse_board(str(found)) == parse_board(expected)
    except (PuzzleError, TypeError, IndexError):  # any unreadable reading is simply wrong
        return False
