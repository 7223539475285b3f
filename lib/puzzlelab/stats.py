"""Intervals for the lab's "over many cases" answers: one implementation of each.

`proportion_ci` (Wilson score or Clopper-Pearson) is the one interval for a share in the lab;
`share_interval` widens it by undecided cases; `mean_interval` is the t interval of a mean;
`tally` counts a `batch.run_batch` table per group, keeping failed rows in sight.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .checks import choice, fraction
from .errors import PuzzleError

__all__ = [
    "CI_METHODS",
    "mean_interval",
    "proportion_ci",
    "share_interval",
    "tally",
]

CI_METHODS = ("wilson", "clopper-pearson")


def proportion_ci(
    k: object, n: object, confidence: float = 0.95, method: str = "wilson"
) -> tuple[np.ndarray, np.ndarray]:
    """Confidence interval(s) for proportions k/n: Wilson score or Clopper–Pearson (exact).

    `k` and `n` are counts (scalars or arrays); n = 0 gives the uninformative (0, 1).
    Returns (lower, upper) as float arrays.
    """
    from scipy import stats

    method = choice(method, "method", CI_METHODS)
    confidence = fraction(confidence, "confidence")
    try:
        k = np.asarray(k, dtype=float)
        n = np.asarray(n, dtype=float)
    except (TypeError, ValueError) as exc:
        raise PuzzleError(f"proportion_ci needs counts k and n, not {k!r} and {n!r}") from exc
    if np.isnan(k).any() or np.isnan(n).any():
        raise PuzzleError("proportion_ci needs counts k and n, not NaN")
    if np.any(k < 0) or np.any(k > n):
        raise PuzzleError("proportion_ci needs 0 <= k <= n for every share")
    alpha = 1 - confidence
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "wilson":
            z = stats.norm.ppf(1 - alpha / 2)
            p = k / n
            denom = 1 + z * z / n
            centre = (p + z * z / (2 * n)) / denom
            half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
            lo, hi = centre - half, centre + half
        else:
            lo = np.where(k > 0, stats.beta.ppf(alpha / 2, k, n - k + 1), 0.0)
            hi = np.where(k < n, stats.beta.ppf(1 - alpha / 2, k + 1, n - k), 1.0)
    lo = np.where(n > 0, np.clip(lo, 0.0, 1.0), 0.0)
    hi = np.where(n > 0, np.clip(hi, 0.0, 1.0), 1.0)
    return lo, hi


def tally(
    table: pd.DataFrame,
    keys: list[str],
    total: str,
    counts: Mapping[str, tuple[str, Callable[[pd.Series], pd.Series]]],
) -> pd.DataFrame:
    """Per group of `keys`: the rows without an error, each count, and the rows with an error.

    Parameters
    ----------
    table : DataFrame
        A `run_batch` table (with its ``error`` column).
    keys : list of str
        The case columns to group by.
    total : str
        Name of the column counting the rows without an error.
    counts : mapping
        ``name -> (column, test)``: the column ``name`` counts the error-free rows whose
        ``test(table[column])`` is true.

    Returns
    -------
    DataFrame
        Indexed by `keys` (every group of the table, also one whose every case failed):
        `total`, the counts in order, then ``errors``.
    """
    if not isinstance(table, pd.DataFrame) or "error" not in table.columns:
        raise PuzzleError("tally needs a run_batch table (a DataFrame with its 'error' column)")
    if isinstance(keys, str) or not isinstance(keys, list | tuple) or not keys:
        raise PuzzleError(f"tally: keys must be a list of column names, not {keys!r}")
    keys = list(keys)
    if not isinstance(counts, Mapping):
        raise PuzzleError(f"tally: counts must map name -> (column, test), not {counts!r}")
    missing = [k for k in keys if k not in table.columns]
    if missing:
        raise PuzzleError(f"tally: no column {missing[0]!r}; the table has {list(table.columns)}")
    failed = table["error"].notna()
    ok = table[~failed]
    index = table[keys].drop_duplicates().set_index(keys).index.sort_values()
    groups = ok.groupby(keys)
    out = pd.DataFrame(index=index)
    out[total] = groups.size().reindex(index, fill_value=0).astype("int64")
    for name, (column, test) in counts.items():
        if column not in table.columns:
            raise PuzzleError(f"tally: no column {column!r}; the table has {list(table.columns)}")
        counted = groups[column].agg(lambda v, t=test: int(t(v).sum())) if len(ok) else None
        counted = pd.Series(dtype="int64") if counted is None else counted.astype("int64")
        out[name] = counted.reindex(index, fill_value=0).astype("int64")
    out["errors"] = table[failed].groupby(keys).size().reindex(index, fill_value=0).astype(int)
    return out


def share_interval(
    hits: object,
    n: object,
    confidence: float = 0.95,
    ci: str = "wilson",
    *,
    undecided: object = 0,
) -> tuple[Any, np.ndarray, np.ndarray]:
    """(hits/n, lower, upper): a share with its `proportion_ci`, widened by undecided cases.

    Undecided cases count as misses for the lower end and as hits for the upper end; a share
    of no cases (n = 0) is NaN with the uninformative interval (0, 1).
    """
    lo, _ = proportion_ci(hits, n, confidence, ci)
    _, hi = proportion_ci(np.asarray(hits) + np.asarray(undecided), n, confidence, ci)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(np.asarray(n) > 0, np.asarray(hits, dtype=float) / np.asarray(n), np.nan)
    if np.ndim(share) == 0:
        share = float(share)
    elif isinstance(hits, pd.Series):
        share = pd.Series(share, index=hits.index)
    return share, lo, hi


def mean_interval(values: object, confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, lower, upper): Student's t interval of a mean (NaN bounds below two values)."""
    from scipy import stats

    confidence = fraction(confidence, "confidence")
    try:
        x = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError) as exc:
        raise PuzzleError(f"mean_interval needs numbers, not {values!r}") from exc
    if not np.isfinite(x).all():
        raise PuzzleError("mean_interval needs finite numbers (no NaN or inf)")
    if x.size == 0:
        return (float("nan"),) * 3
    mean = float(x.mean())
    if x.size < 2:
        return mean, float("nan"), float("nan")
    half = float(stats.t.ppf(0.5 + confidence / 2, x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))
    return mean, mean - half, mean + half
