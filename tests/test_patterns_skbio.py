"""The lab's richness estimators against scikit-bio's (a test-only dependency).

scikit-bio's `chao1` / `chao1_ci` are the classic bias-corrected Chao1 with EstimateS 8's
variance; the lab's `chao1(counts, small_sample=False)` must give the same numbers wherever both
use the same equations (two or more singletons), and its default must differ from it only by
the (n-1)/n small-sample factor. Good's coverage and the counts the Gamma-Poisson estimator is
built from (observed, singletons, doubletons) must match exactly. Notebook 04 lists where the
lab deliberately differs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from puzzlelab import patterns as pt

alpha = pytest.importorskip("skbio.diversity.alpha")

Z95 = float(stats.norm.ppf(0.975))


def abundance_vectors(n_vectors: int = 300, seed: int = 0) -> list[np.ndarray]:
    """Seeded random abundance vectors: 1-60 patterns, Dirichlet weights, 1-300 draws."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_vectors):
        k = int(rng.integers(1, 60))
        weights = rng.dirichlet(np.full(k, rng.choice([0.3, 1.0, 5.0])))
        draws = rng.choice(k, size=int(rng.integers(1, 300)), p=weights)
        out.append(np.bincount(draws, minlength=k))
    return out


VECTORS = abundance_vectors()


def test_the_vectors_cover_every_case():
    """Zero, one and several singletons, with and without doubletons, all occur."""
    f1 = [int(np.sum(c == 1)) for c in VECTORS]
    f2 = [int(np.sum(c == 2)) for c in VECTORS]
    assert {0, 1} <= set(f1) and max(f1) >= 5
    assert any(a >= 2 and b == 0 for a, b in zip(f1, f2, strict=True))
    assert any(a >= 2 and b >= 1 for a, b in zip(f1, f2, strict=True))


def test_goods_coverage_and_building_blocks_match():
    """1 - f1/n, observed patterns, singletons and doubletons: identical to scikit-bio."""
    for c in VECTORS:
        cov = pt.coverage(c)
        assert cov.coverage == pytest.approx(alpha.goods_coverage(c), abs=1e-12)
        assert cov.n_distinct == alpha.observed_features(c)
        assert cov.singletons == alpha.singles(c)
        assert cov.doubletons == alpha.doubles(c)
        assert cov.n_samples == c.sum()


def test_classic_chao1_equals_scikit_bio():
    """small_sample=False: the same estimate everywhere, the same interval with f1 >= 2."""
    for c in VECTORS:
        lab = pt.chao1(c, 0.95, small_sample=False)
        assert lab.estimate == pytest.approx(alpha.chao1(c), rel=1e-12)
        if lab.singletons >= 2:
            low, high = alpha.chao1_ci(c, zscore=Z95)
            assert (lab.low, lab.high) == pytest.approx((low, high), rel=1e-12)


def test_default_chao1_is_scikit_bios_with_the_small_sample_factor():
    """The default multiplies the unseen term by (n-1)/n (Chao et al. 2005, EstimateS 9)."""
    for c in VECTORS:
        lab, n, d = pt.chao1(c), int(c.sum()), int(np.count_nonzero(c))
        unseen = alpha.chao1(c) - d
        assert lab.estimate - d == pytest.approx((n - 1) / n * unseen, rel=1e-12, abs=1e-12)


def test_where_the_lab_differs_on_purpose():
    """One singleton: scikit-bio's interval is the single point D; the lab's reaches above D.

    No singleton: both start at D, and the lab's upper end uses the actual counts where
    scikit-bio treats every count as n/D.
    """
    one = [c for c in VECTORS if np.sum(c == 1) == 1]
    assert one
    for c in one:
        d = int(np.count_nonzero(c))
        assert alpha.chao1_ci(c, zscore=Z95) == (d, d)
        lab = pt.chao1(c)
        assert lab.low == d == lab.estimate < lab.high
    for c in (c for c in VECTORS if np.sum(c == 1) == 0):
        low, high = alpha.chao1_ci(c, zscore=Z95)
        lab = pt.chao1(c)
        assert lab.low == low == np.count_nonzero(c) and math.isfinite(lab.high)
        assert high >= low
