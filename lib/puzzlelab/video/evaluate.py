"""Scoring an extraction against the synthesizer's ground truth, and the samples.csv format."""

from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

from ..errors import ParseError
from ..paths import atomic_write_text, data_dir
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


SAMPLES_HEADER = ("picture", "pattern")


def samples_path() -> Path:
    """Where the statistics study looks for samples: data/last_origin/samples.csv."""
    return data_dir("last_origin", "samples.csv")


def write_samples(table: pd.DataFrame, path: str | Path | None = None) -> Path:
    """Write (picture, pattern) rows in the write-up's format, with a header; atomically."""
    path = samples_path() if path is None else Path(path)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(SAMPLES_HEADER)
    for pic, state in zip(table["picture"], table["state"], strict=True):
        pattern = state if isinstance(state, str) else to_pattern(state)
        writer.writerow((int(pic), pattern))
    atomic_write_text(path, buf.getvalue())
    path.chmod(0o644)  # a data file others read (the temporary file was private)
    return path


def read_samples(path: str | Path | None = None) -> pd.DataFrame:
    """Read samples.csv (with or without header, quoted or not): columns picture, pattern, state."""
    path = samples_path() if path is None else Path(path)
    if not path.is_file():
        raise ParseError(f"samples file not found: {path}")
    rows = []
    with open(path, newline="", encoding="utf-8-sig") as f:
        for line_no, rec in enumerate(csv.reader(f), start=1):
            if not rec or all(not c.strip() for c in rec):
                continue
            if line_no == 1 and tuple(c.strip().lower() for c in rec) == SAMPLES_HEADER:
                continue
            if len(rec) != 2 or not rec[0].strip().isdigit():
                raise ParseError(
                    f"{path.name} line {line_no}: expected 'picture,pattern', got {rec}"
                )
            try:
                state = parse_board(rec[1].strip())
            except ParseError as exc:
                raise ParseError(f"{path.name} line {line_no}: {exc}") from exc
            rows.append((int(rec[0]), to_pattern(state), state))
    return pd.DataFrame(rows, columns=["picture", "pattern", "state"])
