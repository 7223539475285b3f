"""The write-up's published figures for the statistics study, each defined once with its source.

Source: the mobile game's 3x3 slide-puzzle write-up (the "last origin" pattern study), which
opened the game again and again and wrote down (picture, pattern) for each opening. Notebook 04
checks every figure here against the closed forms of `occupancy`, `richness` and `difficulty`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SOURCE = "the slide-puzzle write-up's pattern study (mobile game, 3x3, goal 789456B23)"


@dataclass(frozen=True)
class Survey:
    """One of the write-up's samples: openings filmed and distinct patterns seen among them."""

    openings: int
    distinct: int


FIRST_SURVEY = Survey(openings=80, distinct=48)  # its first sample of openings
FIRST_GUESS = 70  # the pool size its simulated chart (pools 1-100, 100 runs each) pointed to
CHART_POOLS = range(1, 101)  # the pool sizes of that chart
CHART_RUNS = 100  # simulated runs per pool size
RELIABILITY = 0.001  # its accepted risk of an unseen extra pattern, (N/(N+1))^n
SAMPLES_NEEDED = {70: 487, 80: 557}  # its sample-size rule for pools of 70 and 80
SECOND_SURVEY = Survey(openings=500, distinct=80)  # the 500 filmed openings
SIMULATED_DISTINCT = 79.81  # its simulated mean distinct count for N = 80, n = 500
MEAN_MOVES = 22.456  # frequency-weighted mean minimum moves over its 500 openings
PATTERN_MEAN_MOVES = 22.4875  # unweighted mean over its 80 patterns
MOVE_RANGE = (17, 28)  # fewest and most minimum moves among its patterns
UNIFORM_MEAN_MOVES = 21.97  # its mean for a uniformly random solvable shuffle

# Its 500-opening "similarity matrix": patterns seen with both picture i and picture j.
SHARED = np.array(
    [
        [60, 33, 41, 42, 37, 36],
        [33, 44, 34, 25, 27, 26],
        [41, 34, 57, 37, 37, 36],
        [42, 25, 37, 52, 30, 27],
        [37, 27, 37, 30, 50, 31],
        [36, 26, 36, 27, 31, 49],
    ]
)
SHARED.setflags(write=False)
