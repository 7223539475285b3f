# ruff: noqa: E402, B018  (notebook cells: imports where used, tables shown by last expression)
# %% [markdown]
# ## At the limit: Korf's 100 in under a second, and the 24-puzzle
#
# The 6-6-3 databases above solve Korf's 100 optimally, but the best published heuristic
# for this set is Korf & Felner's (2002) **7-8 split with the reflected lookup**: 18,601
# nodes per instance, against 617,555 for 6-6-3. Its 8-tile pattern has 16!/8! = 519
# million placements, and the same paper's **6-6-6-6** split solves the easiest random
# 24-puzzles. Two ideas make both fit here: a database stores each value as a 4-bit
# difference from the pattern's Manhattan distance (the difference is even and small), and
# its build tracks the blank only up to its free *region*, not its cell. A compiled IDA*
# updates h incrementally, tries children in order of f and never undoes its last move.
#
# The defaults below use small databases (built in a minute or two); `PARAMS=full` switches
# on 7-8 and the three easiest 24-puzzles (`notebooks/params/02_full.yaml`).

# %%
# parameters of this section (the notebook's parameters cell holds them)
limit_partition = "6-6-3"  # full: "7-8" (the 'pdb:best' of 4x4)
limit_korf = 20  # Korf instances for the limit runs; full: 100
limit_24_partition = "4-4-4-4-4-4"  # full: "6-6-6-6" (the 'pdb:best' of 5x5)
limit_24_ids = []  # Korf & Felner 24-puzzles by id; full: [40, 38, 25]
limit_24_walk = 60  # default only: a start this many random moves from the goal

# %%
import pandas as pd

from puzzlelab.report import headline
from puzzlelab.sliding import ida, is_solution
from puzzlelab.sliding import pdb as pdbs
from puzzlelab.sliding.data import korf24, korf100
from puzzlelab.sliding.solve import solve_with_database

GOAL4, GOAL5 = tuple(range(16)), tuple(range(25))
korf = korf100().sort_values(["optimal_length", "id"]).head(limit_korf).reset_index(drop=True)
cost4 = pdbs.compact_cost((4, 4), GOAL4, limit_partition)
cost4

# %% [markdown]
# The cost of the 4x4 databases, before they are built: `cached` says whether they only
# need loading (seconds); otherwise `build_cpu_minutes` estimates the build, `peak_gib`
# its memory (the build refuses with `TooLargeError` when less is available) and
# `table_mib` what stays in memory and on disk.

# %%
db4 = pdbs.compact_database((4, 4), GOAL4, limit_partition, progress=False)
db663 = pdbs.pattern_database((4, 4), GOAL4, "6-6-3", progress=False)
print(f"{db4.name}: {db4.n_entries:,} entries in {db4.nbytes / 2**20:.0f} MiB, "
      f"ready in {db4.seconds:.1f} s")  # fmt: skip

# %% [markdown]
# Now the searches, each on the same instances: the present IDA* with the 6-6-3 byte
# tables (the kernel used above), the fast kernel with the same 6-6-3 databases in 4 bits
# (same heuristic, so the node counts differ only by the order of children), and the fast
# kernel with this section's databases. On the default 20 instances this takes a few
# seconds; under `PARAMS=full` (100 instances) about 10 s for 6-6-3 and under 1 s for 7-8.

# %%
runs = {
    "6-6-3, present IDA*": ida.solve_all(db663, korf.state),
    "6-6-3, fast IDA*": ida.solve_all(ida.to_compact(db663), korf.state),
    f"{db4.name}, fast IDA*": ida.solve_all(db4, korf.state),
}
for name, r in runs.items():
    assert (r.length == korf.optimal_length).all(), name
limit_table = pd.DataFrame(
    {"expanded": r.expanded.sum(), "per instance": round(r.expanded.mean()),
     "cpu s": round(r.cpu_seconds.sum(), 2),
     "M expanded / cpu s": round(r.expanded.sum() / r.cpu_seconds.sum() / 1e6, 1)}
    for r in runs.values()
).set_axis(list(runs))  # fmt: skip
limit_table

# %% [markdown]
# `expanded` counts nodes whose children were generated (the root of every iteration
# included). Korf & Felner report, per instance over all 100, 18,601 nodes for 7-8 with
# the reflection (36,710 without) and 617,555 for 6-6-3. Under `PARAMS=full` our 7-8 count
# is within 2 % of theirs (the order of children in the last iteration differs); for
# 6-6-3 ours is about a third of theirs (220,064), a gap we have not traced: the lab's
# 6-6-3 split may not be the paper's.

# %%
# NBVAL_CHECK_OUTPUT
best = runs[f"{db4.name}, fast IDA*"]
which = "all 100 of Korf's" if len(korf) == 100 else f"the {len(korf)} easiest of Korf's"
paper = {"7-8": "18,601", "6-6-3": "617,555"}.get(db4.name) if len(korf) == 100 else None
_ = headline(f"{db4.name} + reflection on {which} 15-puzzles: nodes expanded per instance",
             f"{best.expanded.mean():,.0f}", published=paper,
             source="Korf & Felner 2002" if paper else None)  # fmt: skip
_ = headline(f"{db4.name} + reflection on {which} 15-puzzles: all optimal",
             bool((best.length == korf.optimal_length).all()))  # fmt: skip

# %%
speed = limit_table["M expanded / cpu s"]
_ = headline("fast / present IDA*, same 6-6-3 databases: nodes per CPU second",
             f"{speed.iloc[1] / speed.iloc[0]:.1f}x")  # fmt: skip
_ = headline(f"{db4.name} + reflection on {which} 15-puzzles: CPU seconds in all",
             f"{best.cpu_seconds.sum():.2f} s")  # fmt: skip

# %% [markdown]
# ### The 24-puzzle
#
# With `PARAMS=full` this part loads Korf & Felner's 6-6-6-6 databases (a few seconds; the
# first build took 508 s of CPU and 1 GiB of memory here) and solves their three easiest
# random 24-puzzles, #40 (82 moves), #38 (96) and #25 (81): about 5, 20 and 27 s of CPU
# on this machine. The default solves a start 60 random moves from the goal with small
# 4-tile databases instead (well under a second).

# %%
cost5 = pdbs.compact_cost((5, 5), GOAL5, limit_24_partition)
print(cost5)
db5 = pdbs.compact_database((5, 5), GOAL5, limit_24_partition, progress=False)
table24 = korf24().set_index("id")
starts = ([table24.state[i] for i in limit_24_ids]
          or [ida.scramble(GOAL5, (5, 5), limit_24_walk, rng=2)])  # fmt: skip
sols = [solve_with_database(s, db5, f"pdb:{db5.name}", max_seconds=1800) for s in starts]
[(s.verdict, s.length, s.expanded) for s in sols]

# %%
rows24 = pd.DataFrame({"length": [s.length for s in sols], "expanded": [s.expanded for s in sols],
                       "seconds": [round(s.seconds, 1) for s in sols]},
                      index=limit_24_ids or ["random walk"])  # fmt: skip
if limit_24_ids:
    rows24["optimal (published)"] = table24.optimal_length[limit_24_ids].values
    rows24["Korf & Felner nodes"] = table24.expansions_korf_felner_2002[limit_24_ids].values
    assert (rows24.length == rows24["optimal (published)"]).all()
assert all(s.verdict == "optimal" and is_solution(s.start, s.moves, GOAL5, (5, 5)) for s in sols)
rows24

# %%
# NBVAL_CHECK_OUTPUT
for name, s in zip(rows24.index, sols, strict=True):
    published = table24.expansions_korf_felner_2002.get(name) if limit_24_ids else None
    _ = headline(f"24-puzzle {name} with {db5.name}: moves (optimal), nodes expanded",
                 f"{s.length} moves, {s.expanded:,} nodes",
                 published=None if published is None else f"{published:,} nodes",
                 source="Korf & Felner 2002" if limit_24_ids else None)  # fmt: skip

# %% [markdown]
# The first of these solutions, move by move (the stepper needs a live kernel; a static
# picture is shown otherwise).

# %%
from puzzlelab import widgets

widgets.stepper(sols[0])

# %% [markdown]
# **At the limit, in short.** Four bits per entry and the blank's region instead of its
# cell make Korf & Felner's 7-8 databases (275 MiB; 765 s of CPU and 1.5 GiB to build
# once) and 6-6-6-6 databases (243 MiB; 508 s, 1 GiB) buildable on this machine. The
# compiled IDA* with the same heuristic runs two to three times as many nodes per CPU
# second as the kernel above (2.1x on all 100 in `benchmarks/bench_search.py`). With 7-8
# it solves all of Korf's 100 under `PARAMS=full` with 18,332 expansions per instance
# (the paper: 18,601) in under a second of CPU, and the three easiest 24-puzzles
# optimally in under a minute of CPU in all. The hardest 24-puzzles need up to 10^12
# nodes with these databases: they end in verdict `limit` within `max_seconds`.
