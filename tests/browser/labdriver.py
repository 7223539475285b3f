"""Drive JupyterLab in headless Chromium (Playwright for Python, the system Chromium).

`running_lab(root)` starts JupyterLab on a free localhost port with a token, in a temporary
settings and workspace folder, and stops it afterwards; `open_notebook`, `run_all`,
`error_outputs`, `step_first_stepper`, `play_sliding`, `play_watersort` do what a reader
does. Run as a script it takes the README's screenshot of the lab with a widget:

    python tests/browser/labdriver.py docs/lab_widgets.png
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEMO = HERE / "widget_demo.ipynb"
# the notebooks to run (another folder, e.g. notebooks with cells being tried out, via the env)
NOTEBOOKS = Path(os.environ.get("PUZZLELAB_BROWSER_NOTEBOOKS", ROOT / "notebooks"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SETTINGS = {
    # no news / update pop-ups over the notebook
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    # every cell stays in the page (no virtual scrolling), so every widget view can be found
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}
# the widgets of puzzlelab.widgets (their DOM classes) and the calls that display them
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"  # the notebook in front (tabs of earlier ones
# may be restored from the workspace: their widgets must not be counted or clicked)
WIDGET_CLASSES = (
    ".puzzlelab-stepper, .puzzlelab-sliding-board, .puzzlelab-watersort-board, .puzzlelab-explorer"
)
WIDGET_CALL = re.compile(r"widgets\.(stepper|SlidingBoard|WaterSortBoard|PoolSizeExplorer)\(")


def find_chromium() -> str | None:
    """The system Chromium: $PUZZLELAB_CHROMIUM, `chromium` on PATH, or /usr/bin/chromium."""
    for candidate in (
        os.environ.get("PUZZLELAB_CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        "/usr/bin/chromium",
    ):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    """A TCP port free on localhost right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    """A running JupyterLab: where it serves and with which token."""

    url: str
    token: str
    root: Path
    log: Path

    def notebook_url(self, name: str) -> str:
        """The address that opens notebook `name` (relative to the root) in the lab."""
        # a workspace of its own: the lab must not restore earlier notebooks' tabs in front
        space = f"{Path(name).stem}-{uuid.uuid4().hex[:8]}"
        return f"{self.url}/lab/workspaces/{space}/tree/{name}?token={self.token}"


def _settings(folder: Path) -> None:
    """Write the lab settings that keep pop-ups away."""
    for name, value in SETTINGS.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))


@contextlib.contextmanager
def running_lab(root: Path, timeout: float = 120.0) -> Iterator[Lab]:
    """JupyterLab serving `root` on a free localhost port until the block ends."""
    port, token = free_port(), secrets.token_hex(16)
    work = Path(tempfile.mkdtemp(prefix="puzzlelab-lab-"))
    _settings(work / "settings")
    log = work / "lab.log"
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
        f"--LabApp.user_settings_dir={work / 'settings'}",
        f"--LabApp.workspaces_dir={work / 'workspaces'}",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    env = dict(os.environ)  # kernels inherit PYTHONPATH, PUZZLELAB_SHARED, the venv
    env.setdefault("PYTHONPATH", str(ROOT / "lib"))
    env["JUPYTER_CONFIG_DIR"] = str(work / "config")  # no user config leaks in
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    lab = Lab(f"http://127.0.0.1:{port}", token, root, log)
    try:
        _wait_ready(lab, proc, timeout)
        yield lab
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        shutil.rmtree(work, ignore_errors=True)


def _wait_ready(lab: Lab, proc: subprocess.Popen, timeout: float) -> None:
    """Poll the server's status API until it answers (RuntimeError with its log if it dies)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {proc.returncode}:\n{lab.log.read_text()}")
        try:
            with urllib.request.urlopen(f"{lab.url}/api/status?token={lab.token}", timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"JupyterLab did not answer within {timeout:.0f} s:\n{lab.log.read_text()}")


@contextlib.contextmanager
def chromium_page(executable: str, width: int = 1280, height: int = 900):
    """A Playwright page in the system Chromium, headless."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            yield page
        finally:
            browser.close()


# ------------------------------------------------------------------------------ in the page

CURRENT = "window.jupyterapp && window.jupyterapp.shell.currentWidget"

KERNEL_READY = f"""() => {{
  const w = {CURRENT};
  return !!(w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel
            && w.sessionContext.kernelDisplayStatus === 'idle' && w.content && w.content.widgets);
}}"""

RUN_ALL = f"""() => {{
  window.__puzzlelabRun = undefined;
  {CURRENT}.context.sessionContext.ready
    .then(() => window.jupyterapp.commands.execute('notebook:run-all-cells'))
    .then(ok => {{ window.__puzzlelabRun = String(ok); }},
          err => {{ window.__puzzlelabRun = 'failed: ' + err; }});
}}"""

RUN_DONE = f"""() => {{
  const w = {CURRENT};
  const ran = c => c.model.type !== 'code' || !c.model.sharedModel.getSource().trim()
                   || c.model.executionCount !== null;
  return window.__puzzlelabRun !== undefined && w.sessionContext.kernelDisplayStatus === 'idle'
    && (window.__puzzlelabRun !== 'true' || w.content.widgets.every(ran));
}}"""

OUTPUTS = f"""() => {CURRENT}.content.widgets
  .filter(c => c.model.type === 'code')
  .map(c => c.model.toJSON())"""


def open_notebook(page, lab: Lab, name: str, timeout_ms: int = 120_000) -> None:
    """Open a notebook and wait for its kernel to be idle."""
    page.goto(lab.notebook_url(name))
    page.wait_for_function(KERNEL_READY, timeout=timeout_ms, polling=500)


def run_all(page, timeout_ms: int = 600_000) -> str:
    """Run all cells and wait until they finished and the kernel is idle; the run's result."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate(RUN_ALL)
    try:  # done: the run resolved, the kernel is idle and every code cell has its count
        page.wait_for_function(RUN_DONE, timeout=timeout_ms, polling=500)
    except PlaywrightTimeout:
        return f"timeout after {timeout_ms / 1000:.0f} s: " + str(
            page.evaluate("() => window.__puzzlelabRun")
        )
    return page.evaluate("() => window.__puzzlelabRun")


def error_outputs(page) -> list[str]:
    """'ename: evalue' of every error output in the open notebook."""
    errors = []
    for cell in page.evaluate(OUTPUTS):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                errors.append(f"{out.get('ename')}: {out.get('evalue')}")
    return errors


def unexecuted_cells(page) -> list[str]:
    """The first line of each code cell without an execution count (a run that stopped early)."""
    cells = page.evaluate(OUTPUTS)
    return [
        "".join(c["source"]).splitlines()[0]
        for c in cells
        if "".join(c.get("source") or "").strip() and c.get("execution_count") is None
    ]


def widget_calls(path: Path) -> int:
    """How many puzzlelab widgets the notebook's code cells display."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    return sum(len(WIDGET_CALL.findall(src)) for src in code)


def panel_outputs(page) -> int:
    """Outputs in the run notebook that display a puzzlelab widget (widget view + PNG)."""
    return sum(
        1
        for cell in page.evaluate(OUTPUTS)
        for out in cell.get("outputs", [])
        if {"application/vnd.jupyter.widget-view+json", "image/png"} <= set(out.get("data", {}))
    )


def rendered_widgets(page, expected: int, timeout_ms: int = 60_000) -> int:
    """Wait until `expected` puzzlelab widget views are in the page; return how many are."""
    deadline = time.monotonic() + timeout_ms / 1000
    found = page.locator(PANEL).locator(WIDGET_CLASSES).count()
    while found < expected and time.monotonic() < deadline:
        page.wait_for_timeout(300)
        found = page.locator(PANEL).locator(WIDGET_CLASSES).count()
    return found


def widget_errors(page) -> list[str]:
    """Texts of widget views that failed to render ('Error displaying widget ...')."""
    return page.locator(PANEL).locator(":text('Error displaying widget')").all_inner_texts()


def shutdown_kernel(page) -> None:
    """Shut the open notebook's kernel down (frees its memory before the next notebook)."""
    page.evaluate(f"() => {CURRENT}.sessionContext.shutdown()")


def _image_src(locator) -> str:
    """The src of the first image inside `locator`."""
    return locator.locator("img").first.get_attribute("src") or ""


def step_first_stepper(page, timeout_ms: int = 30_000) -> tuple[str, str]:
    """Click the first stepper's "next"; return the picture's src before and after."""
    stepper = page.locator(PANEL).locator(".puzzlelab-stepper").first
    stepper.scroll_into_view_if_needed()
    before = _image_src(stepper)
    stepper.locator(".puzzlelab-next").click()
    deadline = time.monotonic() + timeout_ms / 1000
    after = before
    while after == before and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        after = _image_src(stepper)
    return before, after


def _status(board) -> str:
    """The board's status line."""
    return board.locator(".puzzlelab-status").first.inner_text()


def _wait_status(page, board, pattern: str, timeout_ms: int = 30_000) -> str:
    """Wait until the board's status matches `pattern`; return it."""
    deadline = time.monotonic() + timeout_ms / 1000
    text = _status(board)
    while not re.search(pattern, text) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        text = _status(board)
    return text


def _hint(page, css: str, pattern: str) -> tuple[Any, str, re.Match]:
    """Scroll to the first board matching `css` and press hint: (board, status before, match
    of `pattern` in the hint shown)."""
    board = page.locator(PANEL).locator(css).first
    board.scroll_into_view_if_needed()
    before = _status(board)
    board.get_by_role("button", name="hint").click()
    return board, before, re.search(pattern, _wait_status(page, board, pattern))


def play_sliding(page) -> tuple[str, str]:
    """Ask the first sliding board for a hint and click the hinted tile: (before, after)."""
    board, before, hint = _hint(page, ".puzzlelab-sliding-board", r"hint: slide tile (\d+)")
    board.locator(".puzzlelab-tile", has_text=re.compile(rf"^{hint.group(1)}$")).click()
    return before, _wait_status(page, board, r"^1 move made|^solved")


def play_watersort(page) -> tuple[str, str]:
    """Ask the first water-sort board for a hint and click its two tubes: (before, after)."""
    pattern = r"hint: pour tube (\d+) onto tube (\d+)"
    board, before, hint = _hint(page, ".puzzlelab-watersort-board", pattern)
    src, dst = hint.groups()
    tubes = board.locator(".puzzlelab-tube")
    tubes.nth(int(src)).click()
    _wait_status(page, board, rf"pour tube {src} onto")
    tubes.nth(int(dst)).click()
    return before, _wait_status(page, board, r"^1 pour made|^sorted")


def copy_notebooks(dest: Path) -> Path:
    """Copy the notebooks (notebooks/*.ipynb) and the demo notebook into `dest` (the lab's root)."""
    dest.mkdir(parents=True, exist_ok=True)
    for nb in sorted(NOTEBOOKS.glob("*.ipynb")) + [DEMO]:
        shutil.copy2(nb, dest / nb.name)
    return dest


def readme_screenshot(target: Path, width: int = 1100, height: int = 760) -> Path:
    """Run the demo notebook in the lab, step its first stepper, and save a small PNG."""
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("no Chromium found: install Debian's chromium or set PUZZLELAB_CHROMIUM")
    with tempfile.TemporaryDirectory() as tmp, running_lab(copy_notebooks(Path(tmp))) as lab:
        with chromium_page(chromium, width, height) as page:
            open_notebook(page, lab, DEMO.name)
            run_all(page)
            page.evaluate(
                "() => window.jupyterapp.commands.execute('application:toggle-left-area')"
            )
            for _ in range(3):
                step_first_stepper(page)
            play_sliding(page)
            page.locator(PANEL).locator(
                ".jp-Cell", has=page.locator(".puzzlelab-stepper")
            ).first.evaluate("cell => cell.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(800)
            png = page.screenshot()
    return small_png(png, target)


def small_png(png: bytes, target: Path, width: int = 900, colors: int = 96) -> Path:
    """Save a screenshot scaled to `width` pixels with a reduced palette (a small file)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(image.height * width / image.width)
    image = image.resize((width, height), Image.LANCZOS).quantize(colors)
    target.parent.mkdir(parents=True, exist_ok=True)
    image.save(target, optimize=True)
    return target


if __name__ == "__main__":
    print(readme_screenshot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/lab_widgets.png")))
