"""Run one function over many seeded cases, in-process or on a Dask cluster, into a DataFrame.

A *case* is a small dict of scalars (``{"colors": 8, "empty": 1, "deal": 17, "seed": 0}``) that
fully determines its result; a *row function* ``fn(case) -> dict`` computes the result columns.
`run_batch` runs `fn` over the cases and returns one pandas row per case, in case order::

    from puzzlelab.batch import run_batch
    table = run_batch(fn, cases)                           # in this process
    table = run_batch(fn, cases, cluster="local")          # every core of this machine
    table = run_batch(fn, cases, cluster="tcp://host:8786")  # a running Dask scheduler

Guarantees:

- **The same table whatever the cluster.** Random numbers come from the case
  (`case_rng(case)`, a `numpy.random.SeedSequence` of a stable hash of the case), never from
  the worker, the chunking or the order in which chunks finish.
- **Nothing is lost.** An exception in `fn` becomes the text of that row's ``error`` column;
  a chunk whose worker died is resubmitted by the scheduler, and a chunk that still cannot be
  computed has every row marked with the reason (and is computed again on resume).
- **Resumable.** With ``resume="name"`` finished chunks are kept as Parquet files under
  ``cache/batch/<name>/`` (atomic writes, a manifest naming the function, the cases' hash and
  the chunking); a rerun computes only the missing chunks, and a run folder holding another
  run's chunks is refused (or replaced with ``overwrite=True``), never mixed in.

Row functions should keep expensive set-up (pattern databases, numba compilation) in a
module-level `functools.cache`, so each worker process pays for it once.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import os
import re
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .cache import warn_once
from .checks import integer
from .errors import PuzzleError, WriteError
from .paths import atomic_path, cache_dir

BATCH_VERSION = 1
RESERVED = ("error", "_case")
ADDRESS = re.compile(
    r"^(?P<scheme>tcp|tls|ws|wss)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:(?P<port>\d+))?$"
)
SCHEMES = "tcp://, tls://, ws:// or wss://"
MAX_AUTO_CHUNK = 1000
AUTO_CHUNKS = 64  # the automatic chunk size aims at about this many chunks
CONNECT_TIMEOUT = "20s"  # how long to wait for a scheduler address to answer

Case = dict[str, Any]
Row = dict[str, Any]


# ------------------------------------------------------------------------------ cases


def _scalar(value: object, where: str) -> bool | int | float | str | None:
    """`value` as a plain Python scalar (numpy scalars unwrapped); PuzzleError otherwise."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, numbers.Integral):
        if not -(2**63) <= int(value) < 2**63:
            raise PuzzleError(f"{where} is {value}, beyond 64-bit integers; store it as text")
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    raise PuzzleError(
        f"{where} is {value!r} ({type(value).__name__}); "
        "cases and results hold scalars only (int, float, bool, str or None)"
    )


def check_cases(cases: object) -> list[Case]:
    """The cases as a list of dicts of scalars with one set of column names.

    Accepts a list (or any iterable) of mappings, or a DataFrame (one case per row).
    Raises `PuzzleError` naming the first bad case.
    """
    if isinstance(cases, pd.DataFrame):
        cases = cases.to_dict("records")
    if isinstance(cases, Mapping | str | bytes) or not isinstance(cases, Iterable):
        raise PuzzleError(f"cases must be a list of dicts (one per case), not {type(cases)}")
    out: list[Case] = []
    keys: list[str] | None = None
    for i, case in enumerate(cases):
        if not isinstance(case, Mapping):
            raise PuzzleError(f"case {i} is {case!r}; each case must be a dict of scalars")
        for key in case:
            if not isinstance(key, str) or not key:
                raise PuzzleError(f"case {i} has column name {key!r}; use non-empty strings")
            if key in RESERVED:
                raise PuzzleError(f"case {i} uses the reserved column name {key!r}")
        if keys is None:
            keys = list(case)
        elif set(case) != set(keys):
            raise PuzzleError(f"case {i} has columns {sorted(case)}, case 0 has {sorted(keys)}")
        out.append({k: _scalar(case[k], f"case {i} column {k!r}") for k in keys})
    return out


def _canonical(obj: object) -> bytes:
    """Stable JSON bytes of cases (sorted keys; the same on every machine)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=True).encode()


def cases_hash(cases: list[Case]) -> str:
    """SHA-256 of the checked case list: names a run's input in its manifest."""
    return hashlib.sha256(_canonical(cases)).hexdigest()


def case_seed(case: Mapping[str, Any]) -> np.random.SeedSequence:
    """A `SeedSequence` derived from the case's values alone (not the worker, not the order)."""
    if not isinstance(case, Mapping):
        raise PuzzleError(f"a case is a dict of column -> value, not {type(case).__name__}")
    checked = {k: _scalar(v, f"case column {k!r}") for k, v in case.items()}
    digest = hashlib.sha256(_canonical(checked)).digest()
    return np.random.SeedSequence(int.from_bytes(digest[:16], "little"))


def case_rng(case: Mapping[str, Any]) -> np.random.Generator:
    """A random generator seeded by the case (`case_seed`): same case, same numbers."""
    return np.random.default_rng(case_seed(case))


def grid(**columns: Iterable[Any]) -> list[Case]:
    """Every combination of the given column values, the last column varying fastest."""
    cases: list[Case] = [{}]
    for name, values in columns.items():
        values = list(values)
        cases = [{**c, name: v} for c in cases for v in values]
    return cases


# ------------------------------------------------------------------------------ one chunk


def _run_case(fn: Callable[[Case], Mapping], case: Case) -> Row:
    """fn(case) as a row of result columns plus ``error`` (the failure text, or None)."""
    try:
        result = fn(dict(case))
        if not isinstance(result, Mapping):
            raise PuzzleError(f"fn returned {type(result).__name__}, expected a dict of columns")
        row: Row = {}
        for key, value in result.items():
            if not isinstance(key, str) or key in case or key in RESERVED:
                raise PuzzleError(
                    f"fn returned column {key!r}, which is not a new non-reserved name"
                )
            row[key] = _scalar(value, f"fn's column {key!r}")
    except Exception as exc:  # a failed case is reported in its row, never lost
        return {"error": f"{type(exc).__name__}: {exc}"}
    row["error"] = None
    return row


def run_chunk(fn: Callable[[Case], Mapping], cases: list[Case]) -> list[Row]:
    """The result rows of a list of cases (what one Dask task computes)."""
    if not callable(fn):
        raise PuzzleError(f"fn must be a function of one case, not {fn!r}")
    return [_run_case(fn, case) for case in check_cases(cases)]


def _chunks(n: int, size: int) -> list[tuple[int, int]]:
    """(start, stop) of consecutive chunks covering range(n)."""
    return [(s, min(s + size, n)) for s in range(0, n, size)]


def auto_chunk_size(n_cases: int) -> int:
    """The default chunk size: about 64 chunks, at most 1000 cases each (depends on n only)."""
    n_cases = integer(n_cases, "n_cases", minimum=0)
    return max(1, min(MAX_AUTO_CHUNK, math.ceil(n_cases / AUTO_CHUNKS)))


# ------------------------------------------------------------------------------ tables


def _column(values: list[Any]):
    """An Arrow array of one column (mixed types fall back to text)."""
    import pyarrow as pa

    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        return pa.array([None if v is None else str(v) for v in values], type=pa.string())


def _chunk_table(cases: list[Case], rows: list[Row], start: int):
    """One chunk as an Arrow table: case index, case columns, result columns, error."""
    import pyarrow as pa

    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(k for k in row if k != "error"))
    columns = {"_case": pa.array(range(start, start + len(cases)), type=pa.int64())}
    for key in cases[0] if cases else []:
        columns[key] = _column([c[key] for c in cases])
    for key in names:
        columns[key] = _column([r.get(key) for r in rows])
    columns["error"] = pa.array([r.get("error") for r in rows], type=pa.string())
    return pa.table(columns)


def _unify(tables: list) -> list:
    """Chunk tables whose columns mix types (bool in one chunk, text in another) as text.

    Numbers mix freely (Arrow promotes int to float); any other mix is stored as the values'
    text, exactly as `_column` does for a mix within one chunk, so the chunking never matters.
    """
    import pyarrow as pa

    kinds: dict[str, set] = {}
    for table in tables:
        for field in table.schema:
            if not pa.types.is_null(field.type):
                kinds.setdefault(field.name, set()).add(field.type)
    numeric = {pa.int64(), pa.float64()}
    mixed = [n for n, types in kinds.items() if len(types) > 1 and not types <= numeric]
    out = []
    for table in tables:
        for name in mixed:
            if name in table.column_names:
                values = table.column(name).to_pylist()
                text = pa.array([None if v is None else str(v) for v in values], pa.string())
                table = table.set_column(table.column_names.index(name), name, text)
        out.append(table)
    return out


def _to_frame(tables: list, case_keys: list[str]) -> pd.DataFrame:
    """Chunk tables joined into one DataFrame in case order (nullable ints and bools)."""
    import pyarrow as pa

    if not tables:
        return pd.DataFrame(columns=[*case_keys, "error"])
    table = pa.concat_tables(_unify(tables), promote_options="permissive")
    result_keys = [n for n in table.column_names if n not in ("_case", "error", *case_keys)]
    table = table.select([*case_keys, *result_keys, "error"])
    mapping = {pa.int64(): pd.Int64Dtype(), pa.bool_(): pd.BooleanDtype()}
    frame = table.to_pandas(types_mapper=mapping.get)
    frame["error"] = frame["error"].astype(object).where(frame["error"].notna(), None)
    return frame


# ------------------------------------------------------------------------------ run folder


def _fn_name(fn: Callable) -> str:
    """module.qualname of a function (partials named after the function they wrap)."""
    inner = getattr(fn, "func", fn)
    return f"{getattr(inner, '__module__', '?')}.{getattr(inner, '__qualname__', repr(inner))}"


def run_folder(resume: str | os.PathLike) -> Path:
    """The run folder: cache/batch/<name> for a bare name, else the given path."""
    if isinstance(resume, str) and resume and not any(s in resume for s in ("/", "\\", "..")):
        return cache_dir("batch", create=False) / resume
    if isinstance(resume, str | os.PathLike) and str(resume):
        return Path(resume)
    raise PuzzleError(f"resume must be None, a run name or a folder path, not {resume!r}")


def _read_manifest(path: Path) -> dict | None:
    """A run folder's manifest, or None when it is unreadable (damaged, absurdly nested)."""
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return old if isinstance(old, dict) else None


class _Store:
    """Finished chunks of one run as Parquet files beside a manifest."""

    def __init__(self, folder: Path, manifest: dict, overwrite: bool):
        self.folder = folder
        self.manifest = manifest
        path = folder / "manifest.json"
        folder.mkdir(parents=True, exist_ok=True)  # OSError: the caller runs without resume
        old = _read_manifest(path) if path.exists() else None
        if path.exists() and old != manifest:
            if not overwrite:
                raise PuzzleError(self._refusal(old))
            for chunk in folder.glob("chunk-*.parquet"):
                chunk.unlink()
        if old != manifest:
            with atomic_path(path) as tmp:
                tmp.write_text(json.dumps(manifest, indent=1), encoding="utf-8")

    def _refusal(self, old: dict | None) -> str:
        """Why an existing run folder is not reused."""
        if not isinstance(old, dict):
            what = "an unreadable manifest"
        else:
            diff = [k for k in self.manifest if old.get(k) != self.manifest[k]]
            what = "another run (different " + ", ".join(diff) + ")"
        return (
            f"run folder {self.folder} holds {what}; its chunks are not mixed with this run. "
            "Pass another run name, or overwrite=True to delete them and start fresh"
        )

    def path(self, index: int) -> Path:
        """The Parquet file of chunk `index`."""
        return self.folder / f"chunk-{index:06d}.parquet"

    def load(self, index: int, start: int, stop: int):
        """A finished chunk's table, or None when absent or not this run's (then recomputed)."""
        import pyarrow.parquet as pq

        path = self.path(index)
        if not path.exists():
            return None
        try:
            table = pq.read_table(path)
            meta = json.loads((table.schema.metadata or {})[b"puzzlelab-batch"])
            want = {"cases_sha256": self.manifest["cases_sha256"], "start": start, "stop": stop}
            ok = meta == want and table.column("_case").to_pylist() == list(range(start, stop))
        except Exception as exc:  # a damaged file is recomputed, never trusted
            warnings.warn(
                f"{path} is unreadable ({exc}); recomputing it", RuntimeWarning, stacklevel=3
            )
            return None
        if not ok:
            warnings.warn(
                f"{path} does not belong to this run; recomputing it", RuntimeWarning, stacklevel=3
            )
            return None
        return table.replace_schema_metadata(None)

    def save(self, index: int, start: int, stop: int, table) -> None:
        """Write a finished chunk atomically with the run's identity in its metadata."""
        import pyarrow.parquet as pq

        meta = {"cases_sha256": self.manifest["cases_sha256"], "start": start, "stop": stop}
        tagged = table.replace_schema_metadata({"puzzlelab-batch": json.dumps(meta)})
        try:
            with atomic_path(self.path(index), suffix=".parquet") as tmp:
                pq.write_table(tagged, tmp)
        except (OSError, WriteError) as exc:  # best effort: the run goes on, chunk not kept
            warn_once(f"cannot keep finished chunks in {self.folder} ({exc})")


# ------------------------------------------------------------------------------ clusters


def _client(cluster: object) -> tuple[Any, bool]:
    """(a distributed Client, whether we own it) for "local", an address or a Client."""
    from distributed import Client, LocalCluster
    from distributed.deploy import Cluster

    if isinstance(cluster, Client):
        return cluster, False
    if isinstance(cluster, Cluster):
        return Client(cluster), True
    if cluster == "local":
        import logging

        workers = os.cpu_count() or 1
        local = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        )
        client = Client(local)
        print(f"Dask LocalCluster: {workers} worker processes; dashboard {client.dashboard_link}")
        return client, True
    if isinstance(cluster, str) and ADDRESS.match(cluster):
        try:
            client = Client(cluster, timeout=CONNECT_TIMEOUT)
        except Exception as exc:  # noqa: BLE001 - any failure to connect says the same
            raise PuzzleError(f"cannot reach the Dask scheduler at {cluster}: {exc}") from exc
        print(f"Dask cluster {cluster}: dashboard {client.dashboard_link}")
        return client, True
    raise PuzzleError(
        f"cluster must be None (this process), 'local', a scheduler address such as "
        f"'tcp://host:8786', or a distributed.Client; not {cluster!r}"
    )


def check_address(address: str) -> str:
    """A scheduler address `scheme://host[:port]` with a port 1..65535, else PuzzleError."""
    match = ADDRESS.match(address)
    if match is None:
        scheme = address.partition("://")[0] if "://" in address else ""
        why = (
            f"the {scheme}:// transport is not supported here (use {SCHEMES})"
            if scheme in ("ucx", "inproc", "udp")
            else "it is neither 'local' nor a scheduler address"
        )
        raise PuzzleError(f"cluster {address!r}: {why}; e.g. 'tcp://host:8786'")
    port = match.group("port")
    if port is not None and not 1 <= int(port) <= 65535:
        raise PuzzleError(f"cluster {address!r}: port {port} is outside 1..65535")
    return address


def check_cluster(cluster: object) -> None:
    """Refuse a cluster argument that is none of the four accepted kinds (before any work)."""
    if cluster is None:
        return
    if isinstance(cluster, str):
        if cluster == "local":
            return
        check_address(cluster)
        return
    from distributed import Client
    from distributed.deploy import Cluster

    if not isinstance(cluster, Client | Cluster):
        raise PuzzleError(
            "cluster must be None, 'local', a scheduler address or a distributed.Client, "
            f"not {type(cluster).__name__}"
        )


def _check_picklable(fn: object) -> None:
    """Refuse a function a worker could not receive (cloudpickle, as Dask uses)."""
    if not callable(fn):
        raise PuzzleError(f"fn must be a function of one case, not {fn!r}")
    import cloudpickle

    try:
        cloudpickle.dumps(fn)
    except Exception as exc:
        raise PuzzleError(
            f"fn {_fn_name(fn)} cannot be pickled for the workers ({exc}); "
            "use a module-level function or a functools.partial of one"
        ) from exc


# ------------------------------------------------------------------------------ front door


def run_batch(
    fn: Callable[[Case], Mapping],
    cases: Iterable[Mapping] | pd.DataFrame,
    *,
    cluster: object = None,
    chunk_size: int | None = None,
    progress: bool = True,
    resume: str | os.PathLike | None = None,
    overwrite: bool = False,
    desc: str | None = None,
) -> pd.DataFrame:
    """Run ``fn(case) -> dict`` over every case and return one row per case, in case order.

    Parameters
    ----------
    fn : callable
        A picklable function of one case (a dict of scalars) returning a dict of scalar result
        columns (names not used by the case). It must draw random numbers from the case only
        (see `case_rng`), so the table does not depend on where it ran.
    cases : list of dict or DataFrame
        The cases; every case has the same column names (not ``error`` or ``_case``).
    cluster : None, "local", str or distributed.Client
        None runs in this process; "local" starts a `LocalCluster` with one single-threaded
        worker process per core (its dashboard link is printed) and closes it afterwards; a
        scheduler address (``"tcp://host:8786"``) or an existing `Client` (or `LocalCluster`)
        uses that cluster.
    chunk_size : int, optional
        Cases per task (and per resume file); default `auto_chunk_size` (about 64 chunks).
    progress : bool
        Show a tqdm bar of finished cases.
    resume : str or path, optional
        Keep finished chunks on disk: a bare name means ``cache/batch/<name>``, anything else
        a folder. A rerun with the same function, cases and chunk size computes only the
        chunks that are missing.
    overwrite : bool
        Replace a run folder that holds another run's chunks (otherwise that is refused).
        A folder that cannot be written is not an error: one warning, and the run goes on
        without keeping its chunks.
    desc : str, optional
        Label of the progress bar (default: the function's name).

    Returns
    -------
    DataFrame
        Case columns, result columns (in order of first appearance), then ``error`` (None, or
        the exception text of a failed case). Integers and booleans use pandas' nullable
        dtypes. ``attrs`` holds ``chunks``, ``computed_chunks``, ``resumed_chunks``,
        ``failed`` (rows with an error) and ``run_folder``.

    Raises
    ------
    PuzzleError
        Bad cases, a non-picklable `fn`, a bad `chunk_size` or `cluster`, a run folder that
        holds another run (unless `overwrite`).
    """
    _check_picklable(fn)
    cases = check_cases(cases)
    n = len(cases)
    size = auto_chunk_size(n)
    if chunk_size is not None:
        size = integer(chunk_size, "chunk_size", minimum=1)
    check_cluster(cluster)
    bounds = _chunks(n, size)
    keys = list(cases[0]) if cases else []
    store = None
    if resume is not None:
        manifest = {
            "format": "puzzlelab-batch",
            "version": BATCH_VERSION,
            "function": _fn_name(fn),
            "cases_sha256": cases_hash(cases),
            "n_cases": n,
            "chunk_size": size,
        }
        folder = run_folder(resume)
        try:
            store = _Store(folder, manifest, overwrite)
        except (OSError, WriteError) as exc:
            warn_once(f"run folder {folder} is unusable ({exc}); running without resume")
    tables: dict[int, Any] = {}
    if store is not None:
        for i, (a, b) in enumerate(bounds):
            table = store.load(i, a, b)
            if table is not None:
                tables[i] = table
    todo = [i for i in range(len(bounds)) if i not in tables]
    resumed = len(tables)
    bar = _progress(progress, n, sum(bounds[i][1] - bounds[i][0] for i in tables), desc or fn)

    def finish(i: int, rows: list[Row], keep: bool = True) -> None:
        a, b = bounds[i]
        tables[i] = _chunk_table(cases[a:b], rows, a)
        if store is not None and keep:  # a chunk lost on the cluster is recomputed next time
            store.save(i, a, b, tables[i])
        if bar is not None:
            bar.update(b - a)

    try:
        if todo and cluster is None:
            for i in todo:
                a, b = bounds[i]
                finish(i, run_chunk(fn, cases[a:b]))
        elif todo:
            _run_on_cluster(fn, cases, bounds, todo, cluster, finish)
    finally:
        if bar is not None:
            bar.close()
    frame = _to_frame([tables[i] for i in range(len(bounds))], keys)
    frame.attrs.update(
        chunks=len(bounds),
        computed_chunks=len(todo),
        resumed_chunks=resumed,
        failed=int(frame["error"].notna().sum()),
        run_folder=str(store.folder) if store is not None else None,
    )
    return frame


def _progress(progress: bool, total: int, done: int, label: object):
    """A tqdm bar of cases (None when progress is off)."""
    if not progress:
        return None
    from tqdm import tqdm

    name = label if isinstance(label, str) else getattr(label, "__name__", "cases")
    return tqdm(total=total, initial=done, desc=name, unit="case")


def _run_on_cluster(fn, cases, bounds, todo, cluster, finish) -> None:
    """Submit the missing chunks to a Dask cluster and hand each finished one to `finish`."""
    from distributed import as_completed, wait

    client, owned = _client(cluster)
    token = hashlib.sha256(f"{time.time_ns()}-{os.getpid()}".encode()).hexdigest()[:12]
    try:
        futures = {}
        for i in todo:
            a, b = bounds[i]
            key = f"puzzlelab-batch-{token}-{i}"
            futures[client.submit(run_chunk, fn, cases[a:b], key=key, pure=False)] = i
        try:
            for future in as_completed(futures):
                i = futures[future]
                if future.status not in ("finished", "error", "cancelled"):
                    wait([future])  # finished, then lost with its worker: it is recomputed
                if future.status == "finished":
                    finish(i, future.result())
                    continue
                # the chunk could not be computed (its task failed, or was lost): say so per row
                exc = future.exception() if future.status == "error" else future.status
                a, b = bounds[i]
                text = f"chunk lost on the cluster: {type(exc).__name__}: {exc}"
                finish(i, [{"error": text}] * (b - a), keep=False)
        finally:
            client.cancel(list(futures))
    finally:
        if owned:
            cluster_obj = client.cluster
            client.close()
            if cluster_obj is not None and cluster == "local":
                cluster_obj.close()


__all__ = [
    "auto_chunk_size",
    "case_rng",
    "case_seed",
    "cases_hash",
    "check_cases",
    "grid",
    "run_batch",
    "run_chunk",
    "run_folder",
]
