"""Exploding dice: exact capped sums against brute force and icepool, the closed-form mean, the grid."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import ceil

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from talespin.dice import (
    Distribution,
    LimitExceeded,
    add_exploding_die,
    at_least_grid,
    at_least_grid_exact,
    exploding_die,
    exploding_mean,
    pool_total,
    pool_total_array,
)
from talespin.dice.fast import exploding_die_array

LARGEST_TARGET = 60


def _chains(size: int, depth: int) -> list[tuple[int, Fraction]]:
    """Every chain of at most ``depth`` explosions, as (total, probability), plus the remaining mass."""
    found: list[tuple[int, Fraction]] = []
    for explosions in range(depth + 1):
        for last in range(1, size):
            found.append((explosions * size + last, Fraction(1, size ** (explosions + 1))))
    # The chains that exploded depth+1 times total at least (depth+1)·size: kept as that lower bound.
    found.append(((depth + 1) * size, Fraction(1, size ** (depth + 1))))
    return found


def _brute_at_least(sizes: list[int], threshold: int) -> Fraction:
    """P(sum ≥ threshold) by listing chains of every die (deep enough that the bound never matters)."""
    per_die = [_chains(size, ceil(threshold / size)) for size in sizes]
    total = Fraction(0)
    for combo in itertools.product(*per_die):
        if sum(value for value, _ in combo) >= threshold:
            p = Fraction(1)
            for _, q in combo:
                p *= q
            total += p
    return total


# rule: II-ROLL-2
@pytest.mark.parametrize("sizes", [[4], [6], [2, 3], [4, 6], [3, 3, 4]])
def test_capped_sums_match_brute_force(sizes: list[int]) -> None:
    """Every P(sum ≥ T) of a small exploding pool equals the brute-force count over chains, T up to 14."""
    cap = 14
    exact = pool_total(sizes, cap=cap)
    for threshold in range(1, cap + 1):
        assert exact.p_at_least(threshold) == _brute_at_least(sizes, threshold), threshold


def test_one_exploding_die_by_hand() -> None:
    """One exploding d6: a multiple of 6 below the cap is impossible, 6 then 1 is 1/36, the tail exact."""
    d = exploding_die(6, cap=13)
    assert d.probability(6) == 0
    assert d.probability(7) == Fraction(1, 36)
    assert d.probability(12) == 0
    assert d.probability(13) == Fraction(1, 36)  # 6, 6 and anything
    assert sum(p for _, p in d.items()) == 1


def _icepool_die(size: int) -> icepool.Die:
    return icepool.Die(range(1, size + 1)).explode(depth=ceil(LARGEST_TARGET / size) - 1)


ORACLE_POOLS = [[6], [6, 6, 8], [4, 10], [6] * 5, [8, 10, 10], [12, 6, 4], [20, 2], [6] * 9 + [8, 8]]


# rule: II-ROLL-2
@pytest.mark.parametrize("sizes", ORACLE_POOLS, ids=lambda s: "+".join(f"d{x}!" for x in s))
def test_exact_sums_match_icepool(sizes: list[int]) -> None:
    """Exact capped sums of mixed exploding dice equal icepool's P(sum ≥ T) for every T in 1..60."""
    oracle = icepool.Die([0])
    for size in sizes:
        oracle = oracle + _icepool_die(size)
    denominator = oracle.denominator()
    exact = pool_total(sizes, cap=LARGEST_TARGET)
    floats = pool_total_array(sizes, cap=LARGEST_TARGET)
    for threshold in range(1, LARGEST_TARGET + 1):
        expected = Fraction(sum(q for o, q in oracle.items() if o >= threshold), denominator)
        assert exact.p_at_least(threshold) == expected, threshold
        assert abs(float(floats[threshold:].sum()) - float(expected)) < 1e-12


@pytest.mark.parametrize("size", [2, 3, 6, 8, 10, 12, 20, 100])
def test_mean_closed_form_matches_series(size: int) -> None:
    """The closed-form mean equals the series Σ P(total ≥ t) (to 1e-12, summed far past the mass)."""
    cap = 40 * size
    series = float(exploding_die_array(size, cap)[1:] @ np.arange(1, cap + 1))
    assert abs(float(exploding_mean(size)) - series) < 1e-9 * size
    assert exploding_mean(6) == Fraction(21, 5)


def test_float_and_exact_die_arrays_agree() -> None:
    """The cached float die array equals the exact capped die to 1e-12 for many sizes and caps."""
    for size in (2, 3, 6, 10, 37):
        for cap in (1, 5, 36, 60, 111):
            exact = exploding_die(size, cap)
            low, p = exact.to_numpy()
            floats = exploding_die_array(size, cap)
            assert np.abs(floats[low : low + len(p)] - p).max() < 1e-12
            assert floats.sum() == pytest.approx(1.0, abs=1e-12)


# rule: II-ROLL-2
def test_grid_matches_exact_sums() -> None:
    """The threshold grid of many pools equals the exact capped sums to 1e-12 at every target 1..60."""
    pools = [[6] * n for n in range(1, 14)] + [[4], [10], [6, 6], [10, 10, 10], [8, 6, 4]]
    grid = at_least_grid(pools, LARGEST_TARGET)
    assert grid.shape == (len(pools), LARGEST_TARGET)
    for row, pool in enumerate(pools):
        exact = pool_total(pool, cap=LARGEST_TARGET)
        expected = [float(exact.p_at_least(t)) for t in range(1, LARGEST_TARGET + 1)]
        assert np.abs(grid[row] - expected).max() < 1e-12


def test_grid_of_no_dice_is_certain_zero() -> None:
    """An empty pool totals 0, so P(total ≥ T) is 0 for every positive target."""
    assert not at_least_grid([[]], 5).any()


def test_a_pool_too_large_to_compute_exactly_is_refused_before_any_work() -> None:
    """Nine d6 and three d10 capped at 100,000 (gigabytes of exact weights) raise LimitExceeded at once."""
    with pytest.raises(LimitExceeded, match="capped at 100000 is too large"):
        pool_total([6] * 9 + [10] * 3, 100_000)
    assert pool_total([6] * 9 + [10] * 3, 1000).p_at_least(1000) > 0


# A total to add a die to: a small distribution of arbitrary integer weights, sometimes reaching past the cap
# or starting below 0.
totals = st.builds(
    Distribution,
    st.integers(-8, 70),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=12).filter(any),
)


# rule: II-ROLL-2
@settings(max_examples=300, deadline=None)
@given(total=totals, size=st.integers(2, 21), cap=st.integers(1, 65))
def test_adding_a_die_by_recurrence_equals_the_convolution(total: Distribution, size: int, cap: int) -> None:
    """The O(cap) recurrence gives the same distribution as convolving with the capped die and capping.

    A total below 0 can still use explosions past the cap, so its reference die is capped ``−low`` deeper.
    """
    deeper = cap - min(total.low, 0)
    expected = (total + exploding_die(size, deeper)).cap(cap)
    assert add_exploding_die(total, size, cap) == expected


def test_adding_dice_one_by_one_builds_the_pool() -> None:
    """Adding d4!, d6!, d6! and d10! one at a time from 0 gives pool_total's distribution, cap 1 to 60."""
    for cap in (1, 2, 5, 17, 60):
        total = Distribution.constant(0)
        for size in (4, 6, 6, 10):
            total = add_exploding_die(total, size, cap)
        assert total == pool_total([4, 6, 6, 10], cap=cap), cap


def test_adding_a_die_to_a_total_at_the_cap_leaves_it_there() -> None:
    """A total that is already at least the cap stays on the cap whatever the die shows."""
    assert add_exploding_die(Distribution.constant(9), 6, cap=9) == Distribution.constant(9)
    assert add_exploding_die(Distribution.die(6) + 20, 6, cap=9) == Distribution.constant(9)


def test_adding_a_die_refuses_a_d1_and_a_bad_cap() -> None:
    """The recurrence checks its die and cap as exploding_die does."""
    with pytest.raises(LimitExceeded, match="d1 cannot explode"):
        add_exploding_die(Distribution.constant(0), 1, cap=10)
    with pytest.raises(LimitExceeded, match="a cap must lie between"):
        add_exploding_die(Distribution.constant(0), 6, cap=0)


GRID_POOLS = [[6] * n for n in range(1, 14)] + [[4], [10], [6, 6], [8, 8, 8], [10, 10, 10], [8, 6, 4], []]


# rule: II-ROLL-2
def test_exact_grid_matches_icepool_cell_by_cell() -> None:
    """Every exact cell equals icepool's fraction for the same pool (its dice exploded deep enough)."""
    grid = at_least_grid_exact(GRID_POOLS, LARGEST_TARGET)
    assert len(grid) == len(GRID_POOLS)
    for row, pool in zip(grid, GRID_POOLS, strict=True):
        oracle = icepool.Die([0])
        for size in pool:
            oracle = oracle + _icepool_die(size)
        denominator = oracle.denominator()
        assert len(row) == LARGEST_TARGET
        for threshold, cell in enumerate(row, start=1):
            expected = Fraction(sum(q for o, q in oracle.items() if o >= threshold), denominator)
            assert isinstance(cell, Fraction)
            assert cell == expected, (pool, threshold)


def test_exact_grid_agrees_with_pool_total_and_the_float_grid() -> None:
    """Each exact row is pool_total's P(≥ T) for every T, and the float grid is within 1e-12 of it."""
    cap = 25
    exact = at_least_grid_exact(GRID_POOLS, cap)
    floats = at_least_grid(GRID_POOLS, cap)
    for index, pool in enumerate(GRID_POOLS):
        total = pool_total(pool, cap=cap)
        assert exact[index] == [total.p_at_least(t) for t in range(1, cap + 1)]
        assert np.abs(floats[index] - [float(p) for p in exact[index]]).max() < 1e-12


def test_exact_grid_refuses_a_pool_too_large_before_any_work() -> None:
    """The exact grid refuses what pool_total refuses: too many dice, a bad cap, gigabytes of weights."""
    with pytest.raises(LimitExceeded, match="capped at 100000 is too large"):
        at_least_grid_exact([[6], [6] * 9 + [10] * 3], 100_000)
    with pytest.raises(LimitExceeded, match="a cap must lie between"):
        at_least_grid_exact([[6]], 0)
    with pytest.raises(LimitExceeded, match="d1 cannot explode"):
        at_least_grid_exact([[6, 1]], 10)
