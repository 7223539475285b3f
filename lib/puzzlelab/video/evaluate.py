"""Scoring an extraction against the synthesizer's ground truth, and the samples.csv format."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

from .. import patterns as pt
from ..errors import ParseError
from ..paths import data_dir
from ..sliding import parse_board, to_pattern


@dataclass(frozen=True)
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
    def verdict(self) -> str:
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
        return {**asdict(self), "verdict": self.verdict}


def score_extraction(table: pd.DataFrame, truth: pd.DataFrame) -> Accuracy:
    """Match rows to openings by frame (preview start .. last puzzle frame) and count."""
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
        len(truth), len(table), len(first), states, pictures, len(truth) - len(first), extra
    )


def _same_pattern(found, expected: str) -> bool:
    """Whether a reading (pattern text, possibly malformed) names the expected state."""
    try:
        return parse_board(str(found)) == parse_board(expected)
    except ParseError:
        return False
    except ValueError:
        return False


def samples_path() -> Path:
    """Where the statistics study looks for samples: data/last_origin/samples.csv."""
    return data_dir("last_origin", "samples.csv")


def write_samples(table: pd.DataFrame, path: str | Path | None = None) -> Path:
    """Write (picture, state) rows in the write-up's CSV format (`patterns.write_samples`)."""
    path = samples_path() if path is None else Path(path)
    patterns = [s if isinstance(s, str) else to_pattern(s) for s in table["state"]]
    rows = pd.DataFrame({"picture": list(table["picture"]), "pattern": patterns})
    return pt.write_samples(rows, path)


def read_samples(path: str | Path | None = None) -> pd.DataFrame:
    """Read samples.csv with the statistics study's validating reader (`patterns.read_samples`)."""
    return pt.read_samples(samples_path() if path is None else path)
