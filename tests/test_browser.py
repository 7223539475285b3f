"""The widgets in JupyterLab itself, in headless Chromium (Playwright, the system Chromium).

The demo notebook tests/browser/widget_demo.ipynb shows every widget once (a stepper of each
study, both boards, the pool explorer): the test runs it in the lab, checks there is no error
output and every widget rendered, steps a stepper and plays both boards, and saves a
screenshot under reports/browser/.

The seven notebooks run once in `make test`, under nbval, which already checks that each
widget cell displays its widget. Running them again here would double the suite's longest
part to re-test the same widget classes, so the per-notebook lab run is opt-in:
``PUZZLELAB_BROWSER_ALL=1`` (e.g. after changing how a notebook displays its widgets).
Skipped, with the reason, when no Chromium (or Playwright) is found.
"""

from __future__ import annotations

import os
import sys
import tempfile
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "browser"))
import labdriver as lab  # noqa: E402

pytestmark = pytest.mark.browser

NOTEBOOKS = sorted(lab.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
SHOTS = lab.ROOT / "reports" / "browser"


def has_stepper(path: Path) -> bool:
    """Does the notebook show a solution stepper?"""
    return "stepper(" in path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def chromium() -> str:
    """The system Chromium (skips the module when there is none, or no Playwright)."""
    if os.environ.get("PUZZLELAB_SKIP_BROWSER"):
        pytest.skip("browser test skipped: PUZZLELAB_SKIP_BROWSER is set")
    pytest.importorskip("playwright", reason="browser test skipped: Playwright is not installed")
    path = lab.find_chromium()
    if path is None:
        pytest.skip(
            "browser test skipped: no Chromium found (apt-get install chromium, "
            "or set PUZZLELAB_CHROMIUM to its path)"
        )
    return path


@pytest.fixture(scope="module")
def running(chromium):
    """One JupyterLab for the module, serving a temporary copy of the notebooks."""
    with tempfile.TemporaryDirectory(prefix="puzzlelab-nb-") as tmp:
        with lab.running_lab(lab.copy_notebooks(Path(tmp))) as server:
            yield server


@pytest.fixture(scope="module")
def browser_page(chromium, running):
    """One headless Chromium page for the module."""
    with lab.chromium_page(chromium) as page:
        yield page


def run_notebook(page, server, name: str) -> None:
    """Open `name`, run all its cells, and check that nothing failed."""
    lab.open_notebook(page, server, name)
    outcome = lab.run_all(page)
    errors = lab.error_outputs(page)
    assert not errors, f"{name}: error output in JupyterLab: {errors}"
    assert not lab.unexecuted_cells(page), f"{name}: cells not run: {lab.unexecuted_cells(page)}"
    assert outcome == "true", f"{name}: run all cells ended with {outcome}"


def check_widgets(page, path: Path) -> None:
    """Every puzzlelab widget the run displayed is rendered as a widget view (at least one)."""
    expected = lab.panel_outputs(page)
    assert expected >= 1, f"{path.name} has widget cells but displayed no widget"
    found = lab.rendered_widgets(page, expected)
    errors = lab.widget_errors(page)
    assert found == expected, f"{path.name}: {found} of {expected} widgets rendered {errors}"


def check_widgets_or_rerun(page, server, path: Path) -> None:
    """`check_widgets`; if a view is missing, save the evidence and run the notebook once more.

    Seen once on a cold cache (notebook 02 building its pattern databases while the lab
    rendered): one view of three never appeared. A second run of the whole notebook must then
    render every widget, so a real rendering bug still fails the test.
    """
    try:
        check_widgets(page, path)
    except AssertionError as first:
        screenshot(page, f"{path.stem}-first-run-failed")
        warnings.warn(f"{first}; running the notebook again", stacklevel=2)
        run_notebook(page, server, path.name)
        check_widgets(page, path)


def check_stepper(page, name: str) -> None:
    """The first stepper's "next" button changes its picture."""
    page.wait_for_selector(f"{lab.PANEL} .puzzlelab-stepper img", timeout=60_000)
    before, after = lab.step_first_stepper(page)
    assert before and after != before, f"{name}: the stepper's picture did not change"


def screenshot(page, name: str) -> None:
    """Save what the lab shows under reports/browser/."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{Path(name).stem}.png"))


def test_widget_demo_in_jupyterlab(browser_page, running):
    page, name = browser_page, lab.DEMO.name
    run_notebook(page, running, name)
    check_widgets(page, lab.DEMO)
    assert not lab.widget_errors(page), lab.widget_errors(page)
    check_stepper(page, name)
    before, after = lab.play_sliding(page)
    assert before.startswith("0 moves made") and after.startswith("1 move made"), after
    before, after = lab.play_watersort(page)
    assert before.startswith("0 pours made") and after.startswith("1 pour made"), after
    assert "optimal pours left: 12" in after  # 13 from the start, one optimal pour made
    page.locator(lab.PANEL).locator(".puzzlelab-stepper").first.scroll_into_view_if_needed()
    screenshot(page, name)
    lab.shutdown_kernel(page)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[nb.stem for nb in NOTEBOOKS])
def test_notebook_in_jupyterlab(browser_page, running, notebook):
    if not os.environ.get("PUZZLELAB_BROWSER_ALL"):
        pytest.skip("notebooks run once, under nbval; PUZZLELAB_BROWSER_ALL=1 runs them in the lab")
    page = browser_page
    run_notebook(page, running, notebook.name)
    if lab.widget_calls(notebook):
        check_widgets_or_rerun(page, running, notebook)
    if has_stepper(notebook):
        check_stepper(page, notebook.name)
    screenshot(page, notebook.name)
    lab.shutdown_kernel(page)
