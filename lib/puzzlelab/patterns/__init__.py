"""Pattern-frequency statistics: how many shuffles does a game draw from, and how hard are they?

The slide-puzzle write-up opened its game many times, wrote down (picture, pattern) for each
opening and asked: how big is the pool of shuffles, how many openings make an unseen extra
pattern unlikely, are the six pictures equally frequent, does each picture have its own pool,
and how many moves does a typical opening need? It answered by simulation; here are the
closed forms (the classical occupancy model) next to seeded simulations of the same question.

Modules: `data` (the write-up's published figures, each once with its source), `samples`
(the samples CSV: one reader, one writer), `occupancy` (the equal-weights
model: E[D], P(D = k), sample sizes), `richness` (pool-size estimators: MLE, Good-Turing,
Chao1, Gamma-Poisson), `uniformity` (equal pictures? one shared pool?), `difficulty`
(minimum moves of the openings), `plots` (the study's figures).
"""

from . import data
from .difficulty import Difficulty, difficulty, game_table, hardest_pattern, minimum_moves
from .occupancy import (
    distinct_distribution,
    distinct_distribution_enumerated,
    distinct_distribution_exact,
    expected_distinct,
    prob_all_seen,
    prob_at_least,
    prob_at_most,
    samples_for_distinct,
    samples_needed,
    samples_to_see_all,
    simulate_curve,
    simulate_distinct,
    stirling2,
    unseen_probability,
    variance_distinct,
)
from .plots import draw_difficulty, draw_frequencies, draw_pool_estimate, draw_risk
from .richness import (
    Chao1,
    Coverage,
    CoverageCheck,
    MixtureEstimate,
    PoolEstimate,
    chao1,
    check_coverage,
    coverage,
    estimate_pool_size,
    interval_coverage,
    is_pool_estimate,
    log_likelihood,
    mixture_pool_size,
    mle_pool,
    moment_estimate,
)
from .samples import (
    Pattern,
    format_samples,
    frequency_counts,
    parse_samples,
    picture_counts,
    read_samples,
    samples_path,
    unflagged,
    write_samples,
)
from .uniformity import (
    SharedPatternTest,
    UniformityTest,
    expected_shared_matrix,
    shared_pattern_matrix,
    shared_pattern_test,
    uniformity_test,
)

__all__ = [
    "data",
    "Chao1",
    "Coverage",
    "CoverageCheck",
    "Difficulty",
    "MixtureEstimate",
    "Pattern",
    "PoolEstimate",
    "SharedPatternTest",
    "UniformityTest",
    "chao1",
    "check_coverage",
    "coverage",
    "difficulty",
    "distinct_distribution",
    "distinct_distribution_enumerated",
    "distinct_distribution_exact",
    "draw_difficulty",
    "draw_frequencies",
    "draw_pool_estimate",
    "draw_risk",
    "estimate_pool_size",
    "expected_distinct",
    "expected_shared_matrix",
    "format_samples",
    "frequency_counts",
    "game_table",
    "hardest_pattern",
    "interval_coverage",
    "is_pool_estimate",
    "log_likelihood",
    "minimum_moves",
    "mixture_pool_size",
    "mle_pool",
    "moment_estimate",
    "parse_samples",
    "picture_counts",
    "prob_all_seen",
    "prob_at_least",
    "prob_at_most",
    "read_samples",
    "samples_for_distinct",
    "samples_needed",
    "samples_path",
    "samples_to_see_all",
    "shared_pattern_matrix",
    "shared_pattern_test",
    "simulate_curve",
    "simulate_distinct",
    "stirling2",
    "uniformity_test",
    "unflagged",
    "unseen_probability",
    "variance_distinct",
    "write_samples",
]
