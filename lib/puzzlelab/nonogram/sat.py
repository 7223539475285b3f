"""The residual problem as CNF, finished by a CDCL SAT solver (python-sat's Glucose 4).

After line logic and probing, the unknown cells of a hard puzzle form a problem that a
clause-learning SAT solver settles far faster than chronological backtracking: it learns
from each contradiction and jumps back past irrelevant guesses.

Encoding (one per row and column, only over the cells still unknown): the clue is a small
deterministic automaton, `0* 1^a1 0+ 1^a2 ... 0*`, whose states say how much of the clue has
been read. A variable s[i, q] says "after i cells the line is in state q"; only states
reachable from the start and co-reachable to an accepting state given the known cells get a
variable. Clauses:

* forward: s[i, q] and cell i = v imply s[i + 1, delta(q, v)] (or are forbidden when the
  transition is missing);
* backward: s[i + 1, q] implies cell i has the value that enters q, and one of q's
  predecessors holds at i;
* supports: s[i, q] implies one of its successors, a filled (empty) cell implies a state
  entered by 1 (0), and the last layer holds an accepting state.

With both directions unit propagation does what the DP line solver does on each line
(generalised arc consistency of the automaton), so the SAT solver starts where our
propagation stopped and keeps propagating line logic while it searches.

Every state of the automaton is entered by one value only (gap states by 0, block states by
1), which the backward clauses use.

A second solution is looked for by adding a blocking clause: one unknown cell must differ.
Budgets: `conf_budget` (conflicts) for a node limit, `interrupt` from a timer for seconds.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from .puzzle import Clue, Puzzle

SAT_SOLVER = "glucose4"  # measured against cadical195 / minisat22 in the README (Study 05)


def automaton(clue: Clue) -> tuple[dict[tuple[int, int], int], list[int], list[int]]:
    """Transitions {(state, value): next}, accepting states and the value entering each state."""
    trans = {(0, 0): 0}
    state, nxt, finals = 0, 1, [0]
    for length in clue:
        first = nxt
        trans[(state, 1)] = first
        for t in range(length - 1):
            trans[(first + t, 1)] = first + t + 1
        last = first + length - 1
        gap = last + 1
        trans[(last, 0)] = gap
        trans[(gap, 0)] = gap
        state, nxt = gap, gap + 1
        finals = [last, gap]
    entering = [0] * nxt
    for (_, value), q in trans.items():
        entering[q] = value
    return trans, finals, entering


def _layers(trans: dict, finals: list[int], known: np.ndarray) -> list[set[int]] | None:
    """States alive after i cells (reachable and co-reachable given known cells); None = clash."""
    n = len(known)
    allowed = [(0, 1) if v == 0 else ((1,) if v == 1 else (0,)) for v in known.tolist()]
    fwd = [{0}]
    for i in range(n):
        fwd.append({trans[q, v] for q in fwd[-1] for v in allowed[i] if (q, v) in trans})
    live = [set() for _ in range(n + 1)]
    live[n] = fwd[n] & set(finals)
    for i in range(n - 1, -1, -1):
        live[i] = {
            q for q in fwd[i] for v in allowed[i] if (q, v) in trans and trans[q, v] in live[i + 1]
        }
    return live if live[0] else None


def line_clauses(cells: list[int], clue: Clue, known: np.ndarray, counter: list[int]) -> list:
    """Clauses saying the variables `cells` spell a line that fits `clue` (see module notes).

    `counter[0]` is the last variable number used; new state variables are numbered after it.
    Known cells (1 / -1) only prune states; their unit clauses are added by the caller.
    """
    n = len(cells)
    if not clue:
        return [[-v] for v, k in zip(cells, known.tolist(), strict=True) if k == 0]
    trans, finals, entering = automaton(clue)
    live = _layers(trans, finals, known)
    if live is None:
        return [[]]
    var: list[dict[int, int]] = [{} for _ in range(n + 1)]
    for i in range(1, n + 1):
        for q in live[i]:
            counter[0] += 1
            var[i][q] = counter[0]
    out: list[list[int]] = []
    for i in range(n):
        x = cells[i]
        for q in live[i]:
            s = [-var[i][q]] if i else []
            succ = []
            for v in (0, 1):
                t = var[i + 1].get(trans.get((q, v), -1))
                lit = -x if v else x  # "cell i is not v"
                out.append([*s, lit] if t is None else [*s, lit, t])
                if t is not None:
                    succ.append(t)
            if i:
                out.append([*s, *succ])
    for i in range(1, n + 1):
        x = cells[i - 1]
        ones, zeros = [], []
        for q, s in var[i].items():
            out.append([-s, x if entering[q] else -x])
            (ones if entering[q] else zeros).append(s)
            preds = [var[i - 1][p] for (p, v), t in trans.items() if t == q and p in var[i - 1]]
            if i > 1:
                out.append([-s, *preds])
            elif not (0 in live[0] and trans.get((0, entering[q])) == q):
                out.append([-s])
        out.append([-x, *ones])
        out.append([x, *zeros])
    out.append(list(var[n].values()))
    return out


def encode(puzzle: Puzzle, grid: np.ndarray) -> tuple[list[list[int]], np.ndarray]:
    """CNF of the puzzle given the known cells of `grid`; cell (r, c) is variable r*C + c + 1."""
    R, C = puzzle.shape
    cell = np.arange(1, R * C + 1, dtype=np.int64).reshape(R, C)
    counter = [R * C]
    clauses: list[list[int]] = []
    for r, clue in enumerate(puzzle.rows):
        clauses += line_clauses(cell[r].tolist(), clue, grid[r], counter)
    for c, clue in enumerate(puzzle.cols):
        clauses += line_clauses(cell[:, c].tolist(), clue, grid[:, c], counter)
    for v, k in zip(cell.ravel().tolist(), grid.ravel().tolist(), strict=True):
        if k:
            clauses.append([v if k == 1 else -v])
    return clauses, cell


@dataclass
class SatOutcome:
    """What the SAT stage found: solutions, whether the search was complete, and its effort."""

    solutions: list[np.ndarray]
    complete: bool
    conflicts: int = 0
    decisions: int = 0


def sat_solutions(
    puzzle: Puzzle,
    grid: np.ndarray,
    max_solutions: int,
    max_conflicts: int | None = None,
    max_seconds: float | None = None,
) -> SatOutcome:
    """Up to `max_solutions` solutions that agree with the known cells of `grid`.

    `complete` is False when a budget (conflicts, seconds) stopped the solver first.
    """
    from pysat.solvers import Solver

    clauses, cell = encode(puzzle, grid)
    unknown = cell[grid == 0].tolist()
    n = cell.size
    found: list[np.ndarray] = []
    complete = True
    with Solver(name=SAT_SOLVER, bootstrap_with=clauses) as solver:
        timer = None
        if max_seconds is not None:
            timer = threading.Timer(max(max_seconds, 0.0), solver.interrupt)
            timer.daemon = True
            timer.start()
        try:
            while len(found) < max_solutions:
                if max_conflicts is not None:
                    left = max_conflicts - (solver.accum_stats() or {}).get("conflicts", 0)
                    if left <= 0:
                        complete = False
                        break
                    solver.conf_budget(left)
                if max_seconds is not None and max_seconds <= 0:
                    complete = False
                    break
                answer = solver.solve_limited(expect_interrupt=max_seconds is not None)
                if answer is None:
                    complete = False
                    break
                if not answer:
                    break
                model = np.array(solver.get_model()[:n], dtype=np.int64)
                found.append((model > 0).reshape(puzzle.shape))
                if not unknown:
                    break
                solver.add_clause([-v if model[v - 1] > 0 else v for v in unknown])
        finally:
            if timer is not None:
                timer.cancel()
        stats = solver.accum_stats() or {}
    return SatOutcome(found, complete, int(stats.get("conflicts", 0)), stats.get("decisions", 0))
