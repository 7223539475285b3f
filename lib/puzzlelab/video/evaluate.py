"""Scoring an extraction against the synthesizer's ground truth."""

from __future__ import annotations

import os
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

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


def _timed(fn):
    """(fn(), wall seconds, CPU seconds of this process)."""
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def robustness(
    video: str | Path,
    truth: pd.DataFrame,
    pictures,
    cases,
    *,
    folder: str | Path,
    rng=0,
    repeat: int = 1,
) -> pd.DataFrame:
    """Read degraded copies of a recording: accuracy and speed per degradation.

    For each case (anything `degrade_recording` takes; an empty dict is the clean file) the
    recording is degraded into `folder`, then decoded alone and read by `extract_states`,
    alternately `repeat` times (the fastest of each kept, so a burst of load on a shared
    machine does not decide the ratio). Speed is the ratio of frames per second to the
    decode-only pass of the same file, in wall and CPU time; `cpu speed vs grey` compares
    with decoding to grey only (no conversion to colour, as the reader itself decodes).

    Returns
    -------
    DataFrame
        One row per case: degradation, frames, the `Accuracy` counts, flagged rows,
        decode and read times (wall, CPU), `speed` and `cpu speed` (vs decode only), grey
        decode CPU and `cpu speed vs grey`;
        attrs files, truths and tables hold each case's video, ground truth and readings.
    """
    from .annotate import decode_only
    from .degrade import degrade_recording, describe
    from .extract import extract_states

    repeat = checks.integer(repeat, "repeat", minimum=1, maximum=20)
    if not isinstance(cases, (list, tuple)):
        raise InvalidPuzzleError("cases must be a list of degradations ({} for the clean file)")
    if not isinstance(folder, (str, os.PathLike)):
        raise InvalidPuzzleError(f"folder must be a folder name, not {folder!r:.60}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = checks.rng(rng)
    rows, files, truths, tables = [], [], [], []
    for k, case in enumerate(cases):
        path, moved = video, truth
        if case:
            path = folder / f"degraded_{k}.mp4"
            moved = degrade_recording(video, path, truth, case, rng=rng, overwrite=True)
        decode, grey, read = [], [], []
        for _ in range(repeat):
            decode.append(_timed(lambda p=path: decode_only(p)))
            grey.append(_timed(lambda p=path: decode_only(p, grey=True)))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # counted below instead
                read.append(_timed(lambda p=path: extract_states(p, pictures, progress=False)))
        table = read[0][0]
        dw, dc = min(d[1] for d in decode), min(d[2] for d in decode)
        gc = min(d[2] for d in grey)
        rw, rc = min(r[1] for r in read), min(r[2] for r in read)
        accuracy = score_extraction(table, moved)
        files.append(Path(path))
        truths.append(moved)
        tables.append(table)
        rows.append(
            {
                "degradation": describe(case) if case else "clean",
                "frames": table.attrs["n_frames"],
                **accuracy.stats(),
                "flagged": int((table["flag"] != "").sum()),
                "decode s": dw,
                "decode cpu s": dc,
                "read s": rw,
                "read cpu s": rc,
                "speed": dw / rw,
                "cpu speed": dc / rc,
                "grey decode cpu s": gc,
                "cpu speed vs grey": gc / rc,
            }
        )
    out = pd.DataFrame(rows)
    out.attrs.update(files=files, truths=truths, tables=tables)
    return out
