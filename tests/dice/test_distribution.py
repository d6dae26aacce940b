"""Exact distributions: brute-force enumeration, exact big-integer convolution, and the float twin."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from talespin.dice import Distribution
from talespin.dice.fast import (
    cap_array,
    convolve_arrays,
    mean_array,
    p_at_least_array,
    scale_array,
    sum_arrays,
)
from talespin.dice.polynomial import convolve, uniform_power

TOLERANCE = 1e-12


def _enumerate(sizes: list[int]) -> dict[int, Fraction]:
    """P(sum = s) by listing every face combination (the brute-force oracle)."""
    counts = Counter(sum(faces) for faces in itertools.product(*(range(1, s + 1) for s in sizes)))
    total = sum(counts.values())
    return {outcome: Fraction(n, total) for outcome, n in counts.items()}


@pytest.mark.parametrize("sizes", [[6], [6, 6], [4, 6, 8], [2, 2, 2, 2, 2], [10, 3], [1, 6]])
def test_sums_match_enumeration(sizes: list[int]) -> None:
    """A sum of plain dice has exactly the distribution found by listing every combination of faces."""
    total = Distribution.constant(0)
    for size in sizes:
        total = total + Distribution.die(size)
    assert dict(total.items()) == _enumerate(sizes)


def test_difference_matches_enumeration() -> None:
    """Subtracting a die gives the distribution of the difference, outcome by outcome."""
    diff = Distribution.die(6) - Distribution.die(4)
    counts = Counter(a - b for a in range(1, 7) for b in range(1, 5))
    assert dict(diff.items()) == {o: Fraction(n, 24) for o, n in counts.items()}


def test_repeat_sum_equals_repeated_addition() -> None:
    """Summing copies by doubling gives the same distribution as adding them one at a time."""
    d = Distribution.die(5)
    slow = Distribution.constant(0)
    for _ in range(7):
        slow = slow + d
    assert d.repeat_sum(7) == slow


def test_big_integer_convolution_matches_the_double_loop() -> None:
    """Packing weights into big integers convolves exactly like the schoolbook double loop."""
    rng = random.Random(11)
    for _ in range(30):
        a = tuple(rng.randrange(10 ** rng.randrange(1, 60)) for _ in range(rng.randrange(60, 400)))
        b = tuple(rng.randrange(10 ** rng.randrange(1, 60)) for _ in range(rng.randrange(60, 400)))
        expected = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                expected[i + j] += x * y
        assert convolve(a, b) == expected


def test_large_sums_are_exact() -> None:
    """A sum large enough for the packed convolution still totals 1 and matches the known extremes."""
    d = Distribution.die(6).repeat_sum(200)
    assert sum(p for _, p in d.items()) == 1
    assert d.probability(200) == Fraction(1, 6**200)
    assert d.probability(201) == Fraction(200, 6**200)
    assert d.mean() == 700


def test_distribution_is_a_frozen_value() -> None:
    """Equal distributions are equal and hash alike, whatever the common factor of their weights."""
    assert Distribution(0, [2, 2]) == Distribution(0, [1, 1])
    assert hash(Distribution(0, [2, 2])) == hash(Distribution.bernoulli(Fraction(1, 2)))


def _float(d: Distribution) -> tuple[int, np.ndarray]:
    return d.to_numpy()


@pytest.mark.parametrize("sizes", [[6, 6], [4, 8, 10], [20, 3], [2] * 9])
def test_exact_and_float_sums_agree(sizes: list[int]) -> None:
    """The exact sum and the float convolution give the same probabilities to 1e-12."""
    exact = Distribution.constant(0)
    low, p = 0, np.array([1.0])
    for size in sizes:
        exact = exact + Distribution.die(size)
        die_low, die_p = _float(Distribution.die(size))
        low, p = low + die_low, convolve_arrays(p, die_p)
    exact_low, exact_p = _float(exact)
    assert exact_low == low
    assert np.abs(exact_p - p).max() < TOLERANCE


@pytest.mark.parametrize("factor", [1, 2, 3, 7])
def test_exact_and_float_scale_agree(factor: int) -> None:
    """Scaling exactly and scaling the float array give the same distribution (zeros between outcomes)."""
    d = Distribution.die(6) + Distribution.die(4)
    low, p = _float(d)
    exact_low, exact_p = _float(d.scale(factor))
    assert exact_low == low * factor
    assert np.abs(exact_p - scale_array(p, factor)).max() < TOLERANCE


def test_exact_and_float_shift_threshold_mean_agree() -> None:
    """Shifting by a constant, P(X ≥ T) and the mean agree between the exact and float paths."""
    d = Distribution.die(10) + Distribution.die(8) - Distribution.die(4)
    shifted = d + 5
    low, p = _float(d)
    for threshold in range(-10, 30):
        assert abs(float(shifted.p_at_least(threshold)) - p_at_least_array(p, threshold, low + 5)) < TOLERANCE
        assert abs(float(d.p_at_least(threshold)) - p_at_least_array(p, threshold, low)) < TOLERANCE
    assert abs(float(shifted.mean()) - mean_array(p, low + 5)) < TOLERANCE
    assert abs(float(d.mean()) - mean_array(p, low)) < TOLERANCE


@pytest.mark.parametrize("ceiling", [2, 5, 11, 16, 30])
def test_exact_and_float_cap_agree(ceiling: int) -> None:
    """Capping exactly and capping the float array lump the same mass on the ceiling."""
    d = Distribution.die(8) + Distribution.die(8)
    low, p = _float(d)
    padded = np.concatenate([np.zeros(low), p])
    exact_low, exact_p = _float(d.cap(ceiling))
    capped = cap_array(padded, ceiling)[exact_low:]
    assert np.abs(exact_p - capped).max() < TOLERANCE


def test_capped_float_sum_matches_exact_capped_sum() -> None:
    """``sum_arrays`` is min(X + Y, cap), as the exact path computes it."""
    a = Distribution.die(6).cap(5)
    b = Distribution.die(10).cap(5)
    pa = np.concatenate([[0.0], _float(a)[1]])
    pb = np.concatenate([[0.0], _float(b)[1]])
    exact_low, exact_p = _float((a + b).cap(5))
    assert np.abs(sum_arrays(pa, pb, 5)[exact_low:] - exact_p).max() < TOLERANCE


def test_bad_distributions_are_refused() -> None:
    """Negative weights, an all-zero distribution and a probability outside [0, 1] raise ValueError."""
    with pytest.raises(ValueError, match="0 or more"):
        Distribution(0, [1, -1])
    with pytest.raises(ValueError, match="positive weight"):
        Distribution(0, [0, 0])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        Distribution.bernoulli(Fraction(3, 2))
    with pytest.raises(ValueError, match="1 or more"):
        scale_array(np.array([1.0]), 0)


SUMS = [(0, 6), (1, 1), (4, 1), (1, 6), (5, 6), (7, 3), (40, 7), (13, 20)]


@pytest.mark.parametrize(("count", "size"), SUMS)
def test_dice_sum_equals_repeated_convolution(count: int, size: int) -> None:
    """The linear-time sum of equal dice equals summing the die by convolution, 1-based and 0-based."""
    assert Distribution.dice_sum(count, size) == Distribution.die(size).repeat_sum(count)
    assert Distribution.dice_sum(count, size, zero_based=True) == Distribution.die(
        size, zero_based=True
    ).repeat_sum(count)


def test_uniform_power_is_the_polynomial_power() -> None:
    """``uniform_power(N, S)`` is the coefficient list of (1 + … + x^(S−1))^N, and refuses bad input."""
    assert uniform_power(3, 2) == [1, 3, 3, 1]
    assert uniform_power(0, 9) == [1]
    assert sum(uniform_power(1000, 6)) == 6**1000
    with pytest.raises(ValueError, match="faces ≥ 1"):
        uniform_power(2, 0)


def test_weights_between_reads_each_outcome_in_order() -> None:
    """A run of weights equals the weight of each outcome in turn, inside, across and outside the support."""
    rng = random.Random(7)
    for _ in range(500):
        d = Distribution(rng.randint(-5, 5), [rng.randint(1, 9) for _ in range(rng.randint(1, 6))])
        first, last = rng.randint(-12, 12), rng.randint(-12, 14)
        assert d.weights_between(first, last) == [d.weight(o) for o in range(first, last + 1)]
    assert Distribution.die(4).weights_between(3, 2) == []
