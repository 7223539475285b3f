"""Estimates of the pours still needed: our admissible bound and the write-up's estimate.

`lower_bound` (admissible and consistent). Let B be the number of maximal one-colour runs
over all tubes, and for each colour c let bot(c) be the number of tubes with c at the
bottom and m(c) = count(c) / capacity the number of tubes c fills when sorted. Then

    h = B - sum_c min(bot(c), m(c))

Proof that no pour lowers h by more than 1 (consistency), and that h = 0 exactly at goals:
- A pour moves k units of colour c from the top run of a source onto an empty tube or onto
  a c-topped tube. It never creates a new run in the destination except when the
  destination was empty; it removes a run from the source only when the whole run leaves.
- Onto a c-topped tube: B falls by 1 if the whole run leaves and is unchanged otherwise;
  bottoms change only if the source becomes empty, which lowers bot(c) and so can only
  raise h. Net change of h is -1, 0 or +1.
- Onto an empty tube: the run lands as one new run (B unchanged, or +1 if the run was split);
  bot(c) rises by at most 1 (by 0 if the source was c alone and becomes empty). So h falls
  by at most 1.
- At a goal every non-empty tube is one full run, so B = sum_c m(c) = sum_c bot(c) and h = 0.
  Conversely h = 0 forces every non-empty tube to be a single run (B >= number of non-empty
  tubes >= sum min(bot, m)) and each colour to sit in exactly m(c) tubes, i.e. full ones.
Hence h(s) <= 1 + h(s') for every pour s -> s', h(goal) = 0: consistent, so admissible.

`seed_estimate` is the write-up's estimate: tubes + colour switches - sorted tubes - empty
tubes. It counts every tube that is not yet sorted, so it overestimates: a level one pour
from solved with three unfinished tubes scores 2 or more. A* with it is not guaranteed
shortest.
"""

from __future__ import annotations

from collections import Counter

from .level import Level, is_complete, n_runs


def lower_bound(level: Level) -> int:
    """Admissible, consistent bound: runs minus the tubes' bottoms each colour can use."""
    runs = sum(n_runs(t) for t in level.tubes)
    need = {c: n // level.capacity for c, n in level.counts().items()}
    bottoms = Counter(t[0] for t in level.tubes if t)
    return runs - sum(min(b, need[c]) for c, b in bottoms.items())


def seed_estimate(level: Level) -> int:
    """The write-up's estimate (not admissible): tubes + switches - sorted - empty."""
    switches = sum(n_runs(t) - 1 for t in level.tubes if t)
    done = sum(1 for t in level.tubes if is_complete(t, level.capacity))
    return level.n_tubes + switches - done - level.n_empty
