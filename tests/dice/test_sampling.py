"""Sampling exploding dice, one chain at a time and vectorized, checked against the exact law.

The goodness-of-fit tests use Pearson's chi-square statistic with a fixed seed and a bounded sample. The
critical values are the 0.999 quantiles of the chi-square distribution (a table value, scipy is not used):
29.588 for 10 degrees of freedom, 40.790 for 17. With a fixed seed each test is deterministic; a wrong law
(for example a depth limit, or a die that explodes on the wrong face) exceeds them by far.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from talespin.dice import LimitExceeded, pool_total, roll_chain, sample_exploding_die, sample_exploding_totals

CHI2_999 = {10: 29.588, 17: 40.790}


def _chi_square(observed: np.ndarray, expected: np.ndarray) -> float:
    return float(((observed - expected) ** 2 / expected).sum())


def _binned(totals: np.ndarray, outcomes: list[int], cap: int) -> np.ndarray:
    """Counts of each listed outcome, and of every total ≥ cap in the last bin."""
    counts = [int((totals == outcome).sum()) for outcome in outcomes]
    counts.append(int((totals >= cap).sum()))
    return np.array(counts, dtype=float)


D6_OUTCOMES = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11]  # below 12, possible; the last bin is "≥ 12"


def _d6_expected(n: int) -> np.ndarray:
    exact = pool_total([6], cap=12)
    return np.array([float(exact.probability(o)) for o in [*D6_OUTCOMES, 12]]) * n


# rule: II-ROLL-2
def test_rolled_exploding_d6_fits_the_exact_law() -> None:
    """20,000 exploding d6 rolled chain by chain fit the exact distribution (chi-square, 10 d.f.)."""
    rng = random.Random(12345)
    n = 20_000
    totals = np.array([roll_chain(6, rng).total for _ in range(n)])
    assert (totals % 6 != 0).all()  # a chain never ends on the maximum
    statistic = _chi_square(_binned(totals, D6_OUTCOMES, 12), _d6_expected(n))
    assert statistic < CHI2_999[10]


# rule: II-ROLL-2
def test_vectorized_exploding_d6_fits_the_exact_law() -> None:
    """200,000 vectorized exploding d6 fit the exact distribution (chi-square, 10 d.f.)."""
    n = 200_000
    totals = sample_exploding_die(np.random.default_rng(2024), 6, n)
    assert (totals % 6 != 0).all()
    statistic = _chi_square(_binned(totals, D6_OUTCOMES, 12), _d6_expected(n))
    assert statistic < CHI2_999[10]


def test_vectorized_mixed_pool_fits_the_exact_law() -> None:
    """100,000 vectorized pools 2d6! + 1d8! fit the exact capped sum (chi-square, 17 d.f.)."""
    n = 100_000
    totals = sample_exploding_totals(np.random.default_rng(99), [6, 8, 6], n)
    exact = pool_total([6, 6, 8], cap=20)
    outcomes = list(range(3, 20))
    expected = np.array([float(exact.probability(o)) for o in [*outcomes, 20]]) * n
    assert expected.min() > 5
    statistic = _chi_square(_binned(totals, outcomes, 20), expected)
    assert statistic < CHI2_999[17]


def test_vectorized_sampling_has_no_depth_limit() -> None:
    """Long chains occur as often as the law says: a d2 exploding 10+ times appears about n/1024 times."""
    n = 400_000
    totals = sample_exploding_die(np.random.default_rng(5), 2, n)
    long_chains = int((totals >= 21).sum())  # ten maxima (2 each) then anything
    assert abs(long_chains - n / 1024) < 5 * (n / 1024) ** 0.5
    assert totals.max() > 30


def test_sampling_is_reproducible_from_the_seed() -> None:
    """The same generator seed gives the same totals."""
    first = sample_exploding_totals(np.random.default_rng(8), [6, 10, 4], 1000)
    second = sample_exploding_totals(np.random.default_rng(8), [6, 10, 4], 1000)
    assert np.array_equal(first, second)
    assert sample_exploding_totals(np.random.default_rng(8), [], 3).tolist() == [0, 0, 0]


def test_sampling_limits() -> None:
    """Exploding d1, too many dice and too many samples are refused with LimitExceeded."""
    rng = np.random.default_rng(1)
    with pytest.raises(LimitExceeded, match="d1 cannot explode"):
        sample_exploding_totals(rng, [6, 1], 10)
    with pytest.raises(LimitExceeded, match="at most 1000 dice"):
        sample_exploding_totals(rng, [6] * 1001, 10)
    with pytest.raises(LimitExceeded, match="sampled at once"):
        sample_exploding_totals(rng, [6] * 1000, 10**6)
    with pytest.raises(LimitExceeded, match="0 or more"):
        sample_exploding_die(rng, 6, -1)
