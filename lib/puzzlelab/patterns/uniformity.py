"""Are the pictures equally frequent, and do they share one pool of patterns?"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import special, stats

from .. import checks
from ..errors import InvalidPuzzleError, TooLargeError
from ..game import N_PICTURES
from .occupancy import probabilities
from .richness import MAX_COUNT
from .samples import patterns_of, picture_counts


@dataclass(frozen=True, kw_only=True)
class UniformityTest:
    """Are the pictures equally frequent? Chi-square and an exact (or Monte-Carlo) test."""

    counts: tuple[int, ...]
    expected: tuple[float, ...]
    chi2: float
    dof: int
    p_chi2: float  # asymptotic chi-square p-value
    p_value: float  # exact multinomial (small n) or Monte-Carlo p-value of the same statistic
    method: str  # 'exact' or 'monte-carlo'
    conclusion: str  # 'equal' (no evidence against) or 'unequal'


def uniformity_test(
    counts: Sequence[int],
    alpha: float = 0.05,
    max_enumerate: int = 200_000,
    n_simulations: int = 20_000,
    rng: int | np.random.Generator | None = 0,
) -> UniformityTest:
    """Test equal frequencies: P(X^2 >= observed), exact for small tables, else simulated.

    Parameters
    ----------
    counts : sequence of int
        Observations per category (at least two categories, not all zero).
    alpha : float
        Level below which the conclusion is 'unequal', strictly between 0 and 1.
    max_enumerate : int
        Largest number of tables enumerated for the exact test.
    n_simulations : int
        Monte-Carlo tables when there are more.
    rng : int, Generator or None
        Seed or generator of the Monte-Carlo draws (SPEC 7).

    Returns
    -------
    UniformityTest

    Raises
    ------
    PuzzleError
        Negative, fractional or NaN counts, fewer than two categories, bad settings.
    """
    c = np.asarray(checks.counts(counts, "counts"), dtype=np.int64)
    alpha = checks.fraction(alpha, "alpha")
    max_enumerate = checks.integer(max_enumerate, "max_enumerate", minimum=0, maximum=10**7)
    n_simulations = checks.integer(n_simulations, "n_simulations", minimum=1, maximum=10**7)
    rng = checks.rng(rng)
    if c.ndim != 1 or len(c) < 2 or c.sum() == 0:
        raise InvalidPuzzleError("need counts for at least two pictures, non-negative, not all 0")
    if c.max() > MAX_COUNT or len(c) > 10_000:
        raise TooLargeError(f"at most 10,000 categories of up to {MAX_COUNT:,} counts each")
    n, k = int(c.sum()), len(c)
    p = np.full(k, 1.0 / k)
    expected = n * p
    obs = float(_chi2(c, expected))
    p_chi2 = float(stats.chi2.sf(obs, k - 1))
    if math.comb(n + k - 1, k - 1) <= max_enumerate:
        tables = _compositions(n, k)
        pmf = np.exp(
            special.gammaln(n + 1)
            - special.gammaln(tables + 1).sum(axis=1)
            + (tables * np.log(p)).sum(axis=1)
        )
        p_value, method = float(pmf[_chi2(tables, expected) >= obs - 1e-9].sum()), "exact"
    else:
        sims = rng.multinomial(n, p, size=n_simulations)
        hits = int(np.sum(_chi2(sims, expected) >= obs - 1e-9))
        p_value, method = (1 + hits) / (1 + n_simulations), "monte-carlo"
    return UniformityTest(
        counts=tuple(int(x) for x in c),
        expected=tuple(float(e) for e in expected),
        chi2=obs,
        dof=k - 1,
        p_chi2=p_chi2,
        p_value=min(1.0, p_value),
        method=method,
        conclusion="equal" if p_value >= alpha else "unequal",
    )


def _chi2(tables: np.ndarray, expected: np.ndarray) -> np.ndarray | float:
    """Pearson's X^2 of each row against the expected counts."""
    return np.sum((tables - expected) ** 2 / expected, axis=-1)


def _compositions(n: int, k: int) -> np.ndarray:
    """Every way to write n as an ordered sum of k non-negative ints (stars and bars)."""
    bars = np.array(list(combinations(range(n + k - 1), k - 1)), dtype=np.int64).reshape(-1, k - 1)
    edges = np.hstack([np.full((len(bars), 1), -1), bars, np.full((len(bars), 1), n + k - 1)])
    return np.diff(edges, axis=1) - 1


# ----------------------------------------------------------------------------- shared patterns


def shared_pattern_matrix(samples: pd.DataFrame, n_pictures: int = N_PICTURES) -> np.ndarray:
    """M[i, j] = distinct patterns seen with both picture i+1 and picture j+1 (the write-up's)."""
    n_pictures = checks.integer(n_pictures, "n_pictures", minimum=1, maximum=10_000)
    pics, codes = _encode(samples, n_pictures)
    return _shared(_presence(pics, codes, n_pictures, codes.max() + 1 if len(codes) else 0))


def expected_shared_matrix(picture_counts: Sequence[int], weights: Sequence[float]) -> np.ndarray:
    """E[M] if every picture draws from one common pool with these pattern probabilities.

    Given the picture counts n_i, the draws for different pictures are independent, so
    E[M_ij] = sum_k q_ik q_jk with q_ik = 1 - (1 - p_k)^n_i (and E[M_ii] = sum_k q_ik).
    `picture_counts` may be fractional (counts inferred from the write-up's diagonal).
    """
    p = probabilities(weights)
    try:
        n = np.asarray(picture_counts, dtype=float)
    except (TypeError, ValueError):
        raise InvalidPuzzleError("picture_counts must be a list of numbers") from None
    if n.ndim != 1 or len(n) == 0 or not np.isfinite(n).all() or np.any(n < 0):
        raise InvalidPuzzleError("picture_counts must be a non-empty list of finite numbers >= 0")
    q = 1.0 - np.power.outer(1.0 - p, n).T  # q[i, k]: pattern k seen with picture i
    m = q @ q.T
    np.fill_diagonal(m, q.sum(axis=1))
    return m


@dataclass(frozen=True, kw_only=True)
class SharedPatternTest:
    """Do the pictures share one pattern pool? Observed sharing against one common pool."""

    observed: np.ndarray  # the shared-pattern matrix
    expected: np.ndarray  # its mean under one common pool (over picture-label permutations)
    statistic: float  # mean off-diagonal sharing
    null_mean: float  # mean of the statistic over label permutations
    p_value: float  # P(statistic <= observed) under permutation (few shared = own pools)
    n_permutations: int
    conclusion: str  # 'one common pool' or 'separate pools'


def shared_pattern_test(
    samples: pd.DataFrame,
    n_pictures: int = N_PICTURES,
    n_permutations: int = 2000,
    alpha: float = 0.05,
    rng: int | np.random.Generator | None = 0,
) -> SharedPatternTest:
    """Permutation test: shuffle the picture labels (keeping every count) and recount sharing.

    Parameters
    ----------
    samples : DataFrame
        A samples table (`picture`, `pattern`), e.g. from `read_samples`.
    n_pictures : int
        Pictures are 1..n_pictures (at least 2).
    n_permutations : int
        Label shuffles (at least 1).
    alpha : float
        Level below which the conclusion is 'separate pools'.
    rng : int, Generator or None
        Seed or generator of the shuffles (SPEC 7).

    Returns
    -------
    SharedPatternTest

    Raises
    ------
    PuzzleError
        Bad samples or settings.
    """
    n_pictures = checks.integer(n_pictures, "n_pictures", minimum=2)
    n_permutations = checks.integer(n_permutations, "n_permutations", minimum=1, maximum=10**6)
    alpha = checks.fraction(alpha, "alpha")
    rng = checks.rng(rng)
    pics, codes = _encode(samples, n_pictures)
    if len(codes) == 0:
        raise InvalidPuzzleError("no samples to test")
    n_patterns = int(codes.max()) + 1
    observed = _shared(_presence(pics, codes, n_pictures, n_patterns))
    stat = _off_diagonal_mean(observed)
    null = np.empty(n_permutations)
    total = np.zeros_like(observed, dtype=float)
    for b in range(n_permutations):
        perm = _shared(_presence(rng.permutation(pics), codes, n_pictures, n_patterns))
        null[b] = _off_diagonal_mean(perm)
        total += perm
    p_value = (1 + int(np.sum(null <= stat + 1e-12))) / (1 + n_permutations)
    return SharedPatternTest(
        observed=observed,
        expected=total / n_permutations,
        statistic=stat,
        null_mean=float(null.mean()),
        p_value=p_value,
        n_permutations=n_permutations,
        conclusion="one common pool" if p_value >= alpha else "separate pools",
    )


def _encode(samples: pd.DataFrame, n_pictures: int) -> tuple[np.ndarray, np.ndarray]:
    """Pictures as 0-based ints and patterns as codes 0..K-1."""
    picture_counts(samples, n_pictures)  # validates the range
    pics = np.asarray(samples["picture"], dtype=np.int64) - 1
    _, codes = np.unique(np.asarray(patterns_of(samples), dtype=str), return_inverse=True)
    return pics, codes.astype(np.int64).ravel()


def _presence(pics: np.ndarray, codes: np.ndarray, n_pictures: int, n_patterns: int) -> np.ndarray:
    """Boolean picture x pattern table: was the pattern ever seen with the picture?"""
    seen = np.zeros((n_pictures, n_patterns), dtype=np.int64)
    seen[pics, codes] = 1
    return seen


def _shared(seen: np.ndarray) -> np.ndarray:
    """Patterns in common between every pair of pictures."""
    return seen @ seen.T


def _off_diagonal_mean(m: np.ndarray) -> float:
    """Mean of the entries above the diagonal."""
    iu = np.triu_indices(len(m), k=1)
    return float(m[iu].mean())
