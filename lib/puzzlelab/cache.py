"""Self-verifying cache files, written atomically and read back only when they check out.

A cache file is a magic line, one JSON header line and a payload of raw bytes::

    PUZZLELAB-CACHE 1
    {"kind": "sliding-table", "version": 3, "key": {...}, "size": 181440, "sha256": "...",
     "meta": {...}}
    <size bytes>

`read` checks all of it on every read (magic, kind, version, the key the caller expects,
size and SHA-256) and raises `CacheError` for anything wrong: damaged or truncated files,
non-UTF-8 or non-JSON headers, a file written for another puzzle. `load_or_build` turns a
`CacheError` into a rebuild, so a bad file is never trusted.

Caching is best effort: when the cache folder cannot be made or written (under a regular
file, read-only disk) a warning is issued once and the work is computed without it.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .checks import as_path, integer
from .errors import CacheError, PuzzleError, WriteError
from .paths import atomic_path, cache_dir, check_parts

__all__ = [
    "MAGIC",
    "array_payload",
    "cache_file",
    "load_array",
    "load_or_build",
    "payload_array",
    "read",
    "save_array",
    "warn_once",
    "write",
]

MAGIC = b"PUZZLELAB-CACHE 1\n"
_warned: set[str] = set()


def warn_once(message: str) -> None:
    """Issue a `RuntimeWarning` once per distinct message and process."""
    message = str(message)
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, RuntimeWarning, stacklevel=3)


def cache_file(*parts: str) -> Path | None:
    """A path under cache/ whose folder exists, or None (with one warning) if it cannot be made."""
    parts = check_parts(parts, "cache_file")
    if not parts:
        raise PuzzleError("cache_file needs at least a file name")
    try:
        folder = cache_dir(*parts[:-1])
    except OSError as exc:
        warn_once(f"cache folder unusable ({exc}); working without a cache")
        return None
    return folder / parts[-1]


def write(path: Path | None, kind: str, version: int, key: dict, payload: bytes, meta=None):
    """Write `payload` with a checked header to `path` atomically; False (warned) if impossible."""
    if path is None:
        return False
    path, kind, version, key = _checked(path, kind, version, key)
    if not isinstance(payload, bytes | bytearray | memoryview):
        raise PuzzleError(f"a cache payload is bytes, not {type(payload).__name__}")
    if meta is not None and not isinstance(meta, dict):
        raise PuzzleError(f"cache meta must be a dict, not {type(meta).__name__}")
    payload = bytes(payload)
    header = {
        "kind": kind,
        "version": version,
        "key": key,
        "size": len(payload),
        "sha256": hashlib.sha256(payload).hexdigest(),
        "meta": meta or {},
    }
    try:
        with atomic_path(path) as tmp, open(tmp, "wb") as fh:
            fh.write(MAGIC)
            fh.write(json.dumps(header).encode("utf-8") + b"\n")
            fh.write(payload)
    except (OSError, WriteError) as exc:
        warn_once(f"cannot write cache file {path} ({exc}); working without a cache")
        return False
    return True


def _checked(path: object, kind: object, version: object, key: object) -> tuple:
    """The arguments naming a cache file, checked: (Path, kind, version, key)."""
    path = as_path(path, "cache path")
    if not isinstance(kind, str) or not kind:
        raise PuzzleError(f"a cache kind is a non-empty str, not {kind!r}")
    version = integer(version, "cache version", minimum=0)
    if not isinstance(key, dict):
        raise PuzzleError(f"a cache key is a dict, not {type(key).__name__}")
    try:
        json.dumps(key)
    except (TypeError, ValueError, RecursionError) as exc:
        raise PuzzleError(f"a cache key must be plain JSON values ({exc})") from None
    return path, kind, version, key


def read(path: Path, kind: str, version: int, key: dict) -> tuple[dict, bytes]:
    """The (meta, payload) of a cache file; `CacheError` unless every check passes."""
    path, kind, version, key = _checked(path, kind, version, key)
    try:
        with open(path, "rb") as fh:
            if fh.readline() != MAGIC:
                raise CacheError(f"{path} is not a puzzlelab cache file")
            line = fh.readline()
            payload = fh.read()
    except OSError as exc:
        raise CacheError(f"cannot read cache file {path}: {exc}") from exc
    try:
        header = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CacheError(f"{path}: damaged header") from exc
    if not isinstance(header, dict):
        raise CacheError(f"{path}: damaged header (not a JSON object)")
    expected = {"kind": kind, "version": version, "key": json.loads(json.dumps(key))}
    for name, want in expected.items():
        if header.get(name) != want:
            raise CacheError(f"{path}: {name} is {header.get(name)!r}, expected {want!r}")
    if header.get("size") != len(payload):
        raise CacheError(f"{path} is truncated ({len(payload)} of {header.get('size')} bytes)")
    if header.get("sha256") != hashlib.sha256(payload).hexdigest():
        raise CacheError(f"{path} fails its checksum")
    meta = header.get("meta")
    if not isinstance(meta, dict):
        raise CacheError(f"{path}: damaged header (meta is not an object)")
    return meta, payload


def load_or_build(
    path: Path | None,
    kind: str,
    version: int,
    key: dict,
    build: Callable[[], tuple[bytes, dict]],
) -> tuple[dict, bytes]:
    """Read a verified cache file, or build (payload, meta), cache it best-effort and return it.

    A file that fails any check is reported with one warning and rebuilt (then replaced).
    """
    if path is not None:
        path = _checked(path, kind, version, key)[0]
    if not callable(build):
        raise PuzzleError(f"build must be a function returning (payload, meta), not {build!r}")
    if path is not None and path.exists():
        try:
            return read(path, kind, version, key)
        except CacheError as exc:
            warn_once(f"{exc}; rebuilding it")
    built = build()
    if not isinstance(built, tuple) or len(built) != 2:
        raise PuzzleError(f"build must return (payload, meta), not {type(built).__name__}")
    payload, meta = built
    write(path, kind, version, key, payload, meta)
    return meta, payload


def array_payload(array: np.ndarray) -> tuple[bytes, dict]:
    """A numpy array as (raw bytes, meta with dtype and shape)."""
    if not isinstance(array, np.ndarray) or array.dtype.kind not in "biuf":
        raise PuzzleError(f"only numeric numpy arrays are cached, not {type(array).__name__}")
    array = np.ascontiguousarray(array)
    return array.tobytes(), {"dtype": array.dtype.str, "shape": list(array.shape)}


def payload_array(payload: bytes, meta: dict[str, Any]) -> np.ndarray:
    """The numpy array stored by `array_payload` (a writable copy); `CacheError` if inconsistent."""
    if not isinstance(payload, bytes | bytearray) or not isinstance(meta, dict):
        raise CacheError("a cached array is (bytes, meta dict)")
    try:
        dtype = np.dtype(meta["dtype"])
        shape = tuple(int(s) for s in meta["shape"])
        return np.frombuffer(payload, dtype=dtype).reshape(shape).copy()
    except (KeyError, TypeError, ValueError) as exc:
        raise CacheError(f"cached array does not match its header ({exc})") from exc


def save_array(path: Path | None, kind: str, version: int, key: dict, array, meta=None) -> bool:
    """Cache a numpy array (atomic, checked); False (warned) when the cache is unusable."""
    payload, info = array_payload(array)
    return write(path, kind, version, key, payload, {**(meta or {}), **info})


def load_array(path: Path, kind: str, version: int, key: dict) -> tuple[np.ndarray, dict]:
    """A verified cached array and its meta; `CacheError` if anything is wrong."""
    meta, payload = read(path, kind, version, key)
    return payload_array(payload, meta), meta
