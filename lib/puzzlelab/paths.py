"""Where files live: the repository root, data/, cache/, reports/ and ../shared."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT: Path = Path(os.environ.get("PUZZLELAB_ROOT", Path(__file__).resolve().parents[2]))


def root() -> Path:
    """The repository root (where Makefile and lib/ are)."""
    return ROOT


def data_dir(*parts: str) -> Path:
    """A path under data/ (small committed inputs and samples)."""
    return ROOT.joinpath("data", *parts)


def cache_dir(*parts: str, create: bool = True) -> Path:
    """A folder under cache/ (built artefacts, git-ignored); created on demand."""
    path = Path(os.environ.get("PUZZLELAB_CACHE", ROOT / "cache")).joinpath(*parts)
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def reports_dir(*parts: str) -> Path:
    """A path under reports/ (papermill outputs, git-ignored)."""
    return ROOT.joinpath("reports", *parts)


def shared_dir(*parts: str) -> Path | None:
    """A path under ../shared (reference data beside the clone), or None when absent."""
    base = Path(os.environ.get("PUZZLELAB_SHARED", ROOT.parent / "shared"))
    path = base.joinpath(*parts)
    return path if path.exists() else None


def shared_or_skip(*parts: str) -> Path | None:
    """A path under ../shared, or None after printing that the section needing it is skipped.

    Notebooks call this once per section that reads reference data, so a user's clone
    without ../shared runs end to end and says what it left out.
    """
    path = shared_dir(*parts)
    if path is None:
        where = "/".join(("shared", *parts))
        print(f"Skipped: this section needs ../{where} (reference data beside the clone).")
    return path


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside `target`; on success it replaces `target` atomically."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=suffix)
    os.close(fd)
    tmp_path = Path(tmp)
    umask = os.umask(0)
    os.umask(umask)
    tmp_path.chmod(0o666 & ~umask)  # mkstemp makes 0600 files; give the usual permissions
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def atomic_write_text(target: str | os.PathLike, text: str) -> Path:
    """Write text to `target` atomically (readers never see half a file)."""
    with atomic_path(target) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(target)
