"""Headline results: shown by the notebooks, collected from executed notebooks into one table."""

from __future__ import annotations

import json

import IPython
import IPython.display
import pytest

from puzzlelab import report
from puzzlelab.errors import PuzzleError
from puzzlelab.paths import root


def notebook(path, *outputs) -> str:
    """Write an executed notebook whose one code cell has `outputs`; return its path."""
    cells = [
        {"cell_type": "markdown", "source": "prose", "metadata": {}},
        {"cell_type": "code", "source": "", "metadata": {}, "outputs": list(outputs)},
    ]
    path.write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}))
    return str(path)


def shown(fields: dict) -> dict:
    """A display_data output carrying headline `fields`, as a notebook stores it."""
    return {"output_type": "display_data", "data": {report.MIME: fields, "text/plain": "x"}}


def test_headline_is_one_readable_sentence(capsys):
    sentence = report.headline("3x3 states", 181440, published=181440, source="OEIS A089473")
    assert sentence == "3x3 states: 181,440 (published 181,440; OEIS A089473)"
    assert capsys.readouterr().out.strip() == sentence
    assert report.headline("mean  moves\n", 21.9734567) == "mean moves: 21.97"
    assert report.headline("share", float("nan"), source="census") == "share: nan (census)"


def test_headline_in_a_notebook_carries_its_fields(monkeypatch):
    shown_bundles = []
    monkeypatch.setattr(IPython, "get_ipython", lambda: object())
    monkeypatch.setattr(IPython.display, "display", lambda b, raw: shown_bundles.append(b))
    report.headline("optimum", 9, published=10, source="write-up")
    (bundle,) = shown_bundles
    assert bundle["text/plain"] == "optimum: 9 (published 10; write-up)"
    assert bundle[report.MIME] == {
        "result": "optimum",
        "value": "9",
        "published": "10",
        "source": "write-up",
    }


@pytest.mark.parametrize("name", ["", "   ", None, 3])
def test_headline_needs_a_name(name):
    with pytest.raises(PuzzleError, match="name"):
        report.headline(name, 1)


def test_collect_reads_the_headlines_of_executed_notebooks(tmp_path):
    a = notebook(
        tmp_path / "01_a.ipynb",
        shown({"result": "states", "value": "181,440", "published": "", "source": ""}),
        {"output_type": "stream", "name": "stdout", "text": "not a headline"},
        {"output_type": "display_data", "data": "junk"},
    )
    b = notebook(tmp_path / "02_b.ipynb", shown({"result": "moves | max", "value": "31"}))
    table = report.collect([a, b])
    assert list(table.columns) == list(report.COLUMNS)
    assert table.to_dict("records") == [
        {"notebook": "01_a", "result": "states", "value": "181,440", "published": "", "source": ""},
        {"notebook": "02_b", "result": "moves | max", "value": "31", "published": "", "source": ""},
    ]
    text = report.to_markdown(table)
    assert "## 01_a" in text and "| states | 181,440 |  |  |" in text
    assert "| moves \\| max | 31 |" in text  # a pipe in a name does not split the row


def test_write_results_and_the_command_line(tmp_path, capsys):
    nb = notebook(tmp_path / "05_x.ipynb", shown({"result": "unique", "value": "0.25"}))
    out = tmp_path / "reports" / "results.md"
    assert report.main([str(out), nb]) == 0
    assert out.read_text() == report.to_markdown(report.collect([nb]))
    empty = notebook(tmp_path / "06_y.ipynb")
    assert report.main([str(out), empty]) == 1  # no headlines: said, and the old table kept
    assert "no headline results" in capsys.readouterr().err
    assert "0.25" in out.read_text()
    assert report.main([str(out)]) == 2


def test_collect_refuses_what_is_not_an_executed_notebook(tmp_path):
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    nested = tmp_path / "nested.ipynb"
    nested.write_text('{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for path in (bad, nested, tmp_path / "missing.ipynb"):
        with pytest.raises(PuzzleError, match="not a readable notebook"):
            report.collect([path])
    with pytest.raises(PuzzleError, match="list of notebook paths"):
        report.collect(str(bad))  # one path, not a list: refused, not read letter by letter
    with pytest.raises(PuzzleError):
        report.to_markdown("not a table")


def test_committed_results_table_matches_the_committed_notebooks():
    """docs/results.md is generated (`make results`): each number lives in its notebook only."""
    notebooks = sorted((root() / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    committed = root() / "docs" / "results.md"
    assert committed.exists(), "docs/results.md is missing: run `make results`"
    want = report.to_markdown(report.collect(notebooks))
    assert committed.read_text(encoding="utf-8") == want, "stale docs/results.md: `make results`"
