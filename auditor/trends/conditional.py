"""The exact upper tail of a sum of independent binomials: the test of a dealer given its
tables (and of a table given its dealers) in auditor/trends/analysis.py.

Small sums are convolved as they are (numpy's direct convolution of the binomials'
probabilities). A year of a large floor is not small: a dealer who worked 60 tables, each
with hundreds of findings, is a convolution of 60 binomials whose support grows to tens of
thousands of counts, and convolving them directly costs about a billion operations a unit.
There the sum is *tilted* (the Esscher transform): each binomial's chance p is replaced by
p·e^θ / (1 − p + p·e^θ), with θ chosen so that the tilted sum's mean is the count whose
tail is wanted, and

    P(X ≥ k) = M(θ) · Σ_{x ≥ k} e^{−θx} · P_θ(X = x),    M(θ) = Π (1 − p + p·e^θ)^n.

Under the tilt the counts near k carry the mass, so the tilted distribution can be trimmed,
as it is convolved, to the counts within 10⁻⁴⁰ of its largest: what is dropped is below
the p-value's own rounding however small the p-value (10⁻¹⁰⁰ keeps its digits), and a
unit's support stays a few hundred counts wide. tests/floor/test_trends.py holds the two ways
to each other.
"""

from __future__ import annotations

import math

import numpy as np

from auditor.trends.distributions import binomial_pmf

DIRECT_WORK = 20_000_000  # multiply-adds of a direct convolution worth doing as it is
TRIM = 1e-40  # tilted probabilities below this share of the largest are dropped


def conditional_p(found: int, cells: list[tuple[int, int, int]]) -> tuple[float, float]:
    """The exact one-sided p of `found` findings at a unit, and their expected count, given
    each stratum's findings: `cells` are (the unit's rounds in the stratum, the stratum's
    rounds, the stratum's findings); in each stratum the findings fall at the unit with its
    share of the stratum's rounds (a binomial), the strata independent (a convolution)."""
    binomials = []
    expected = 0.0
    work, width = 0, 1
    for rounds, stratum_rounds, stratum_found in cells:
        if not stratum_found:
            continue
        share = rounds / stratum_rounds
        expected += stratum_found * share
        binomials.append((stratum_found, share))
        work += width * (stratum_found + 1)
        width += stratum_found
    if work <= DIRECT_WORK:
        return _direct(found, binomials), expected
    return _tilted(found, binomials), expected


def _direct(found: int, binomials: list[tuple[int, float]]) -> float:
    distribution = np.ones(1)
    for trials, share in binomials:
        distribution = np.convolve(distribution, binomial_pmf(np.arange(trials + 1), trials,
                                                              share))
    return float(min(1.0, distribution[found:].sum()))


def _tilted_share(share: float, theta: float) -> float:
    if share >= 1.0 or share <= 0.0:
        return share
    return 1.0 / (1.0 + (1.0 - share) / share * math.exp(-theta))


def _log_moment(binomials: list[tuple[int, float]], theta: float) -> float:
    """log M(θ) = Σ n·log(1 − p + p·e^θ), without overflow for a large θ."""
    total = 0.0
    for trials, share in binomials:
        if share <= 0.0:
            continue
        if theta > 30:
            total += trials * (theta + math.log(share + (1 - share) * math.exp(-theta)))
        else:
            total += trials * math.log1p(share * math.expm1(theta))
    return total


def _theta(found: int, binomials: list[tuple[int, float]]) -> float:
    """About the tilt at which the sum's mean is `found` (bisection: the mean rises with
    θ). Any θ gives the exact tail; this one puts the mass where the tail begins."""
    trials = np.array([n for n, share in binomials if 0 < share < 1], dtype=float)
    shares = np.array([share for share in (s for _, s in binomials) if 0 < share < 1])
    certain = sum(n for n, share in binomials if share >= 1)
    odds = (1 - shares) / shares

    def mean(theta: float) -> float:
        return certain + float((trials / (1 + odds * np.exp(-theta))).sum())

    low, high = 0.0, 1.0
    while mean(high) < found and high < 700:
        low, high = high, 2 * high
    for _ in range(30):
        middle = (low + high) / 2
        if mean(middle) < found:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _trimmed(probabilities: np.ndarray) -> tuple[np.ndarray, int]:
    """The counts within TRIM of the largest probability, and where they begin."""
    kept = np.flatnonzero(probabilities >= probabilities.max() * TRIM)
    return probabilities[kept[0]:kept[-1] + 1], int(kept[0])


def _tilted(found: int, binomials: list[tuple[int, float]]) -> float:
    most = sum(trials for trials, share in binomials if share > 0)
    if found > most:
        return 0.0
    if found <= 0:
        return 1.0
    mean = sum(trials * share for trials, share in binomials)
    theta = _theta(found, binomials) if found > mean else 0.0
    distribution, start = np.ones(1), 0
    for trials, share in binomials:
        tilted = _tilted_share(share, theta)
        centre, spread = trials * tilted, math.sqrt(trials * tilted * (1 - tilted))
        first = max(0, math.floor(centre - 20 * spread - 20))  # far beyond TRIM either side
        last = min(trials, math.ceil(centre + 20 * spread + 60))
        part, offset = _trimmed(binomial_pmf(np.arange(first, last + 1), trials, tilted))
        distribution, shift = _trimmed(np.convolve(distribution, part))
        start += first + offset + shift
    counts = np.arange(start, start + len(distribution), dtype=float)
    above = counts >= found
    if not above.any():
        return 0.0 if theta > 0 else float(min(1.0, distribution.sum()))
    weights = np.exp(-theta * (counts[above] - found)) * distribution[above]
    log_tail = _log_moment(binomials, theta) - theta * found + math.log(weights.sum()) \
        if weights.sum() > 0 else -math.inf
    return float(min(1.0, math.exp(log_tail))) if log_tail > -745 else 0.0
