"""Where files live: the repository root, data/, cache/, reports/ and ../shared."""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .checks import as_path
from .errors import PuzzleError, WriteError

__all__ = [
    "ROOT",
    "atomic_path",
    "atomic_write_text",
    "cache_dir",
    "check_parts",
    "data_dir",
    "remove_stale_temporaries",
    "reports_dir",
    "root",
    "shared_dir",
    "shared_or_skip",
]

ROOT: Path = Path(os.environ.get("PUZZLELAB_ROOT", Path(__file__).resolve().parents[2]))


def check_parts(parts: tuple, where: str = "path") -> tuple[str, ...]:
    """Path parts as plain names: non-empty str without NUL bytes, else a PuzzleError."""
    if not isinstance(parts, tuple | list):
        raise PuzzleError(f"{where}: path parts come as a tuple of names, not {parts!r}")
    for part in parts:
        if not isinstance(part, str | os.PathLike) or not os.fspath(part) or "\x00" in str(part):
            raise PuzzleError(f"{where}: each part of a path is a name (str), not {part!r}")
    return tuple(os.fspath(p) for p in parts)


def root() -> Path:
    """The repository root (where Makefile and lib/ are)."""
    return ROOT


def data_dir(*parts: str) -> Path:
    """A path under data/ (small committed inputs and samples)."""
    return ROOT.joinpath("data", *check_parts(parts, "data_dir"))


def cache_dir(*parts: str, create: bool = True) -> Path:
    """A folder under cache/ (built artefacts, git-ignored); created on demand."""
    path = Path(os.environ.get("PUZZLELAB_CACHE", ROOT / "cache")).joinpath(
        *check_parts(parts, "cache_dir")
    )
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def reports_dir(*parts: str) -> Path:
    """A path under reports/ (papermill outputs, git-ignored)."""
    return ROOT.joinpath("reports", *check_parts(parts, "reports_dir"))


def shared_dir(*parts: str) -> Path | None:
    """A path under ../shared (reference data beside the clone), or None when absent."""
    base = Path(os.environ.get("PUZZLELAB_SHARED", ROOT.parent / "shared"))
    path = base.joinpath(*check_parts(parts, "shared_dir"))
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
    """Yield a temporary path beside `target`; on success it replaces `target` atomically.

    The temporary file's name carries this process's id; temporaries of `target` left by a
    process that no longer runs (killed mid-write) are removed first.
    """
    if not isinstance(target, str | os.PathLike) or not os.fspath(target):
        raise PuzzleError(f"a file path (str or Path) is needed, not {target!r}")
    if not isinstance(suffix, str):
        raise PuzzleError(f"suffix must be a str, not {suffix!r}")
    target = Path(target)
    if target.is_dir():
        raise WriteError(f"{target} is a folder: give a file name inside it")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(target)
        prefix = f".{target.name}.{TMP_MARK}{os.getpid()}."
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=prefix, suffix=suffix)
        os.close(fd)
    except OSError as exc:
        raise _write_error(target, exc) from exc
    tmp_path = Path(tmp)
    umask = os.umask(0)
    os.umask(umask)
    tmp_path.chmod(0o666 & ~umask)  # mkstemp makes 0600 files; give the usual permissions
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    except OSError as exc:
        raise _write_error(target, exc) from exc
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def _write_error(target: Path, exc: OSError) -> WriteError:
    """A WriteError saying why `target` could not be written."""
    return WriteError(
        f"cannot write {target}: {exc.strerror or exc}; choose a folder you can write to"
    )


TMP_MARK = "tmp-pid"  # temporaries are named .<target>.tmp-pid<pid>.<random><suffix>


def _alive(pid: int) -> bool:
    """Is process `pid` running on this machine?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):  # another user's process, or not a pid at all
        return True
    return True


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Delete the temporaries of `target` whose writer died (e.g. `kill -9` mid-write)."""
    target = as_path(target, "target")
    removed = []
    mark = f".{target.name}.{TMP_MARK}"
    try:
        siblings = list(target.parent.glob(f".{glob.escape(target.name)}.{TMP_MARK}*"))
    except OSError:
        return removed
    for tmp in siblings:
        pid = tmp.name[len(mark) :].split(".", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                tmp.unlink()
                removed.append(tmp)
    return removed


def atomic_write_text(target: str | os.PathLike, text: str) -> Path:
    """Write text to `target` atomically (readers never see half a file)."""
    if not isinstance(text, str):
        raise PuzzleError(f"atomic_write_text writes a str, not {type(text).__name__}")
    with atomic_path(target) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(target)
