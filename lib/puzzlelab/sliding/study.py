"""Tables and figures of notebook 01 (distance tables), so the notebook only narrates."""

from __future__ import annotations

import math
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..errors import UnsolvableError
from .board import Shape, State, is_solvable, move_between, read_board, solved_state, to_text
from .tables import DistanceTable, distance_table

BLANK_HOMES = {"corner": 8, "edge": 1, "centre": 4}  # 3x3 blank cells named as in OEIS


def reachable_states(shape: Shape, goal: State) -> int:
    """How many boards can reach `goal`: (n)!/2 (one blank), n!/k! (k blanks), strips fewer."""
    n, k = shape[0] * shape[1], goal.count(0)
    if min(shape) == 1:
        return math.comb(n, k)  # tiles keep their order: only the blanks' cells vary
    return math.factorial(n) // (2 if k == 1 else math.factorial(k))


def examples_table(table: DistanceTable, examples: list[str]) -> pd.DataFrame:
    """Each example with its minimum number of moves ('unsolvable' in the other class)."""
    rows = []
    for text in examples:
        try:
            moves: int | str = table.distance(text)
        except UnsolvableError:
            moves = "unsolvable"
        rows.append({"pattern": text, "minimum moves": moves})
    return pd.DataFrame(rows)


def hardest_example(table: DistanceTable, examples: list[str]) -> State:
    """The solvable example farthest from the goal (first one on ties)."""
    boards = [read_board(e, table.shape)[0] for e in examples]
    solvable = [b for b in boards if is_solvable(b, table.goal, table.shape)]
    if not solvable:
        raise UnsolvableError("none of the examples can reach the goal")
    return max(solvable, key=table.distance)


def path_lines(path: list[State], shape: Shape) -> list[str]:
    """One line per move: step, tile, direction and the board after it."""
    out = []
    for step, (a, b) in enumerate(zip(path, path[1:], strict=False), start=1):
        tile, direction = move_between(a, b, shape)
        out.append(f"{step:2d}. tile {tile} {direction:<5}  ->  {to_text(b)}")
    return out


def swap_two_tiles(state: State) -> State:
    """The board with its first two tiles exchanged (the other parity class, one blank)."""
    cells = [i for i, t in enumerate(state) if t]
    s = list(state)
    s[cells[0]], s[cells[1]] = s[cells[1]], s[cells[0]]
    return tuple(s)


def draw_counts(table: DistanceTable, ax: plt.Axes | None = None, title: str = "") -> plt.Axes:
    """Bar chart of states per minimum number of moves, with the mean marked."""
    if ax is None:
        _, ax = plt.subplots()
    ax.bar(np.arange(len(table.counts)), table.counts, color="tab:blue")
    ax.axvline(table.mean, color="k", ls="--", lw=1, label=f"mean {table.mean:.2f}")
    ax.set(xlabel="minimum moves", ylabel="states", title=title)
    ax.legend()
    return ax


def blank_home_tables(shape: Shape = (3, 3)) -> dict[str, DistanceTable]:
    """Distance tables of the 3x3 goal with the blank home in a corner, an edge and the centre."""
    return {name: distance_table(shape, solved_state(shape, c)) for name, c in BLANK_HOMES.items()}


def blank_home_summary(by_home: dict[str, DistanceTable]) -> pd.DataFrame:
    """God's number, states at it, and the mean distance per blank home."""
    rows = [
        {"blank home": name, "max": t.max_depth, "states at max": int(t.counts[-1]),
         "mean": round(t.mean, 4)}
        for name, t in by_home.items()
    ]  # fmt: skip
    return pd.DataFrame(rows).set_index("blank home")


def draw_fractions(tables: dict[str, DistanceTable], ax: plt.Axes | None = None) -> plt.Axes:
    """Fraction of states per distance, one line per table (the legend gives max and mean)."""
    if ax is None:
        _, ax = plt.subplots()
    for name, t in tables.items():
        label = f"{name}: max {t.max_depth}, mean {t.mean:.3f}"
        ax.plot(np.arange(len(t.counts)), t.counts / t.n_states, marker="o", ms=3, label=label)
    ax.set(xlabel="minimum moves", ylabel="fraction of states")
    ax.legend()
    return ax


def boards_table(shapes: list) -> tuple[pd.DataFrame, dict[Shape, DistanceTable]]:
    """The table of every shape (blank last): states, God's number, mean, build/load time."""
    rows, tables = [], {}
    for r, c in shapes:
        t0 = time.perf_counter()
        t = tables[(r, c)] = distance_table((r, c))
        rows.append({"board": f"{r}x{c}", "states": t.n_states, "max depth": t.max_depth,
                     "mean": round(t.mean, 4),
                     "seconds (build or load)": round(time.perf_counter() - t0, 2)})  # fmt: skip
    return pd.DataFrame(rows).set_index("board"), tables


def draw_rescaled(tables: dict[Shape, DistanceTable], ax: plt.Axes | None = None) -> plt.Axes:
    """Distance distributions rescaled to God's number and the largest layer."""
    if ax is None:
        _, ax = plt.subplots()
    for (r, c), t in tables.items():
        if t.n_states > 12:
            x = np.arange(len(t.counts)) / t.max_depth
            ax.plot(x, t.counts / t.counts.max(), label=f"{r}x{c} (max {t.max_depth})")
    ax.set(xlabel="moves / God's number", ylabel="states / largest layer",
           title="Distance distributions, rescaled")  # fmt: skip
    ax.legend(ncol=2, fontsize=8)
    return ax
