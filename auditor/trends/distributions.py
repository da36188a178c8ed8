"""The few distributions `auditor trends` needs, from scipy.special alone, and the
Benjamini–Hochberg procedure.

scipy.stats and statsmodels (which brings pandas) cost about 80 MiB of memory to import,
half of what a year's trends may use. Their functions that trends called are thin
wrappers of scipy.special's: these call the same functions with the same arguments, as the
wrappers do within their support, so every value is the same float (tests/floor/test_trends.py
holds them to scipy.stats and statsmodels).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import special
from scipy.special import _ufuncs


def binomial_pmf(counts: np.ndarray, trials: int, chance: float) -> np.ndarray:
    """P(X = k) for each k of `counts` (all within 0..trials), X ~ Binomial(trials,
    chance): scipy.stats.binom.pmf."""
    return _ufuncs._binom_pmf(counts, trials, chance)


def binomial_at_least(found: Sequence[int], trials: Sequence[int],
                      chance: Sequence[float]) -> np.ndarray:
    """P(X ≥ k), X ~ Binomial(n, p), for each (k, n, p): the one-sided exact binomial
    test's p (scipy.stats.binomtest, alternative "greater": binom.sf(k − 1, n, p))."""
    below = np.asarray(found, dtype=float) - 1
    trials = np.asarray(trials, dtype=float)
    inside = (below >= 0) & (below < trials)
    values = np.where(below < 0, 1.0, 0.0)
    if inside.any():
        values[inside] = _ufuncs._binom_sf(np.floor(below[inside]), trials[inside],
                                           np.asarray(chance, dtype=float)[inside])
    return values


def normal_above(z: Sequence[float]) -> np.ndarray:
    """P(Z > z), Z standard normal: scipy.stats.norm.sf."""
    return special.ndtr(-np.asarray(z, dtype=float))


def poisson_at_most(count: float, mean: float) -> float:
    """P(X ≤ count), X ~ Poisson(mean): scipy.stats.poisson.cdf."""
    if count < 0:
        return 0.0
    return float(special.pdtr(np.floor(count), mean))


def poisson_quantile(probability: float, mean: float) -> float:
    """The least count c with P(X ≤ c) ≥ probability, 0 < probability < 1:
    scipy.stats.poisson.ppf."""
    above = np.ceil(special.pdtrik(probability, mean))
    below = max(above - 1, 0)
    return float(below if special.pdtr(below, mean) >= probability else above)


def benjamini_hochberg(p_values: Sequence[float], fdr: float) -> tuple[np.ndarray, np.ndarray]:
    """Which hypotheses are rejected at false discovery rate `fdr`, and each one's q-value
    (statsmodels' multipletests, method "fdr_bh", step by step)."""
    values = np.asarray(p_values, dtype=float)
    order = np.argsort(values)
    ranked = np.take(values, order)
    factor = np.arange(1, len(ranked) + 1) / float(len(ranked))
    rejected = ranked <= factor * fdr
    if rejected.any():
        rejected[:max(np.nonzero(rejected)[0])] = True
    q_values = np.minimum.accumulate((ranked / factor)[::-1])[::-1]
    q_values[q_values > 1] = 1
    in_order_q = np.empty_like(q_values)
    in_order_q[order] = q_values
    in_order_rejected = np.empty_like(rejected)
    in_order_rejected[order] = rejected
    return in_order_rejected, in_order_q
