"""Headline results: printed once by the notebooks, collected into one table by `make reports`.

A notebook states each headline number where it computes it::

    headline("3x3 states", table.n_states, published=181440, source="OEIS A089473")

which shows a readable sentence (``3x3 states: 181,440 (published 181,440; OEIS A089473)``)
and carries the fields as a JSON output of its own type (`MIME`) beside it. `collect` reads
those outputs back out of executed notebooks, and `write_results`
writes `reports/results.md`, the one table of headline numbers the README links to, so each
number lives in exactly one place: the notebook cell that computes it.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import sys
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from .checks import as_path
from .errors import PuzzleError
from .paths import atomic_write_text

__all__ = ["COLUMNS", "MIME", "collect", "headline", "main", "to_markdown", "write_results"]

MIME = "application/vnd.puzzlelab.headline+json"
COLUMNS = ("notebook", "result", "value", "published", "source")


def _text(value: object) -> str:
    """A value as table text: integers with thousands separators, floats to 4 significant."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    if isinstance(value, numbers.Real):
        value = float(value)
        return str(value) if not math.isfinite(value) else f"{value:,.4g}"
    return str(value)


def _clean(text: str, what: str) -> str:
    """`text` without tabs or newlines (they would break the tagged line)."""
    if not isinstance(text, str) or not text.strip():
        raise PuzzleError(f"headline {what} must be non-empty text, not {text!r}")
    return " ".join(text.split())


def headline(
    result: str, value: object, published: object = None, source: str | None = None
) -> str:
    """Show one headline result (a sentence, plus its fields for `collect`); return the sentence."""
    fields = {
        "result": _clean(result, "name"),
        "value": _clean(_text(value) or "-", "value"),
        "published": _text(published),
        "source": "" if source is None else _clean(source, "source"),
    }
    published = fields["published"] and f"published {fields['published']}"
    extra = "; ".join(x for x in (published, fields["source"]) if x)
    sentence = f"{fields['result']}: {fields['value']}" + (f" ({extra})" if extra else "")
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # plain Python: the sentence alone
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display({"text/plain": sentence, MIME: fields}, raw=True)
    else:
        print(sentence)
    return sentence


def _outputs(path: Path) -> Iterable[dict]:
    """Every output of every code cell in an executed notebook."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise PuzzleError(f"{path} is not a readable notebook: {exc}") from exc
    if not isinstance(cells, list):
        raise PuzzleError(f"{path} is not a readable notebook: its cells are not a list")
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            outputs = cell.get("outputs", [])
            yield from (
                (o for o in outputs if isinstance(o, dict)) if isinstance(outputs, list) else ()
            )


def _paths(paths: object) -> list[Path]:
    """Notebook paths from a list of str / Path (a single str is refused: pass a list)."""
    if isinstance(paths, str | bytes | os.PathLike) or not isinstance(paths, Iterable):
        raise PuzzleError(f"pass a list of notebook paths, not {paths!r}")
    return [as_path(p, "notebook path") for p in paths]


def collect(paths: Iterable[str | os.PathLike]) -> pd.DataFrame:
    """The headline results shown in executed notebooks, one row each (`COLUMNS`)."""
    rows = []
    for path in _paths(paths):
        for output in _outputs(path):
            data = output.get("data")
            fields = data.get(MIME) if isinstance(data, dict) else None
            if isinstance(fields, dict):
                rows.append(
                    {"notebook": path.stem, **{k: str(fields.get(k, "")) for k in COLUMNS[1:]}}
                )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def to_markdown(table: pd.DataFrame) -> str:
    """The headline table as Markdown (one section per notebook)."""
    if not isinstance(table, pd.DataFrame) or not set(COLUMNS) <= set(table.columns):
        raise PuzzleError(f"to_markdown needs the table of `collect` (columns {COLUMNS})")
    lines = ["# Headline results", "", "Generated from the notebooks' own outputs by"]
    lines[-1] += " `python -m puzzlelab.report` (`make reports`, `make notebooks`); do not edit."
    for notebook, rows in table.groupby("notebook", sort=True):
        lines += ["", f"## {notebook}", "", "| result | value | published | source |"]
        lines.append("|---|---|---|---|")
        for row in rows.itertuples():
            cells = (row.result, row.value, row.published or "", row.source or "")
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def write_results(paths: Iterable[str | os.PathLike], out: str | os.PathLike) -> Path:
    """Collect the headlines of `paths` and write them to `out` as Markdown (atomically)."""
    out = as_path(out, "output file")
    table = collect(paths)
    if table.empty:
        raise PuzzleError("no headline results found: were the notebooks executed?")
    return atomic_write_text(out, to_markdown(table))


def main(argv: list[str] | None = None) -> int:
    """`python -m puzzlelab.report OUT NOTEBOOK...`: write the headline table."""
    argv = sys.argv[1:] if argv is None else argv
    if not isinstance(argv, list | tuple) or not all(isinstance(a, str) for a in argv):
        raise PuzzleError(f"main takes a list of command-line words, not {argv!r}")
    if len(argv) < 2:
        print("usage: python -m puzzlelab.report OUT.md NOTEBOOK.ipynb...", file=sys.stderr)
        return 2
    try:
        print(write_results(argv[1:], argv[0]))
    except PuzzleError as exc:
        print(f"puzzlelab.report: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
