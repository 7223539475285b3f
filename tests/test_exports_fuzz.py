"""Every exported name, fuzzed: odd arguments give a `PuzzleError` or a result, quickly.

The names come from each package's `__all__` (or, for a module without one, its public
functions and classes), so a new export is fuzzed without anyone remembering to add it.
Each callable is called with each odd value as its first argument, then in every required
argument at once; a call its signature cannot take is not made. A `PuzzleError` or a return
within the deadline (CPU seconds; a call still running after `HANG` wall seconds is stopped)
passes; any other exception, or a call past the deadline, fails.

Calls run in a temporary folder with a temporary cache, so nothing a user has is touched.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import signal
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from puzzlelab.errors import PuzzleError


def packages() -> tuple[str, ...]:
    """Every top-level module and package of puzzlelab (a new study is found by itself)."""
    import puzzlelab

    return tuple(
        f"puzzlelab.{info.name}"
        for info in sorted(pkgutil.iter_modules(puzzlelab.__path__), key=lambda i: i.name)
        if not info.name.startswith("_")
    )


MODULES = packages()
DEADLINE = 10.0  # CPU seconds per call (CPU, so a busy machine does not fail the test)
HANG = 3 * DEADLINE  # wall seconds after which a call is stopped as hanging


def nested(depth: int) -> list:
    """[[[...]]] `depth` lists deep."""
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


ODD = {
    "None": None,
    "str": "x",
    "float": 1.5,
    "nan": math.nan,
    "inf": math.inf,
    "negative": -1,
    "huge": 2**70,
    "list": [],
    "dict": {},
    "nested": nested(200),
}


def exported(module_name: str) -> list[str]:
    """The module's `__all__`, else its public functions and classes defined there."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            name
            for name, obj in vars(module).items()
            if not name.startswith("_")
            and (inspect.isfunction(obj) or inspect.isclass(obj))
            and getattr(obj, "__module__", "") == module_name
        ]
    return sorted(names)


# Records the library builds and hands out (their constructors are not entry points: users get
# them from the builder named here, which is fuzzed like every other export).
BUILT_RECORDS = {
    "puzzlelab.sliding.DistanceTable": "distance_table",
    "puzzlelab.sliding.PatternDatabase": "pattern_database",
}


def callables() -> Iterator[tuple[str, str]]:
    """(module, name) of every exported callable."""
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in exported(module_name):
            obj = getattr(module, name, None)
            if f"{module_name}.{name}" in BUILT_RECORDS:
                continue
            if callable(obj) and not inspect.isclass(obj) or _callable_class(obj):
                yield module_name, name


def _callable_class(obj: object) -> bool:
    """A class users construct (not a Protocol, not a typing alias)."""
    return inspect.isclass(obj) and not getattr(obj, "_is_protocol", False)


def argument_lists(fn: Callable) -> Iterator[tuple[str, tuple]]:
    """(label, args) of every odd call `fn`'s signature accepts."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin without a signature
        return
    positional = [
        p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    required = [p for p in positional if p.default is p.empty]
    for label, value in ODD.items():
        for args in {1: (value,), len(required): (value,) * len(required)}.items():
            n, call_args = args
            if n == 0 or (n > 1 and label == "nested"):
                continue
            try:
                sig.bind(*call_args)
            except TypeError:
                continue
            yield f"{label} x{n}", call_args


class Overtime(BaseException):
    """Raised in the main thread when a call runs past the deadline."""


def within(seconds: float, fn: Callable, *args) -> object:
    """`fn(*args)`, interrupted with `Overtime` after `seconds` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)

    def alarm(signum, frame):
        raise Overtime(f"over {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def params() -> list:
    """One pytest parameter per exported callable."""
    out = []
    for module_name, name in callables():
        key = f"{module_name.removeprefix('puzzlelab.')}.{name}"
        out.append(pytest.param(module_name, name, id=key))
    return out


@pytest.fixture(autouse=True)
def sandbox(tmp_path, monkeypatch):
    """Run in a temporary folder with a temporary cache."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PUZZLELAB_CACHE", str(tmp_path / "cache"))
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.mark.filterwarnings("ignore")  # warnings are allowed answers; only exceptions count
@pytest.mark.parametrize(("module_name", "name"), params())
def test_odd_arguments_give_a_puzzle_error_or_a_result(module_name, name):
    fn = getattr(importlib.import_module(module_name), name)
    failures = []
    for label, args in argument_lists(fn):
        t0 = time.process_time()
        try:
            within(HANG, fn, *args)
        except PuzzleError:
            pass
        except Overtime:
            failures.append(f"{label}: no answer within {HANG:g} s")
        except Exception as exc:  # noqa: BLE001 - every other exception is the failure
            failures.append(f"{label}: {type(exc).__name__}: {str(exc)[:120]}")
        took = time.process_time() - t0
        if took > DEADLINE:
            failures.append(f"{label}: took {took:.1f} s of CPU")
    assert not failures, f"{name}: " + "; ".join(failures)


def test_every_package_is_fuzzed():
    """Each package exports something, and nothing exported is missing."""
    studies = {"sliding", "watersort", "nonogram", "video", "patterns", "batch", "widgets"}
    assert {f"puzzlelab.{name}" for name in studies} <= set(MODULES)
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        names = exported(module_name)
        assert names, f"{module_name} exports nothing"
        missing = [n for n in names if not hasattr(module, n)]
        assert not missing, f"{module_name}.__all__ names what it lacks: {missing}"
