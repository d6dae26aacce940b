"""Many threshold probabilities at once: P(total ≥ T) for many pools and every T up to a largest target.

A designer's grid (every pool a game allows × every target) asks the same question hundreds of times.
:func:`at_least_grid` answers it on the float path: each pool's dice are sorted, pools sharing a prefix of
dice share its sums (``N`` d6 for N = 1..13 costs thirteen additions of a die in all, not 91), every
die is the cached capped array of :func:`~talespin.dice.fast.exploding_die_array`, and the rows end with one
reversed cumulative sum over them all. Capping at the largest target makes every entry exact in law (see
:mod:`~talespin.dice.exploding`); the float results agree with :func:`~talespin.dice.exploding.pool_total`
to about 1e-15.

:func:`at_least_grid_exact` answers the same question in exact fractions, sharing prefixes the same way;
each die is added by :func:`~talespin.dice.exploding.add_exploding_die` (O(cap) integer steps, no
convolution) and each row's thresholds come from one pass down its outcomes.

>>> from talespin.dice.exploding import pool_total
>>> grid = at_least_grid([[6], [6, 6]], 12)
>>> round(float(grid[1, 11]), 6) == round(float(pool_total([6, 6], cap=12).p_at_least(12)), 6)
True
>>> at_least_grid_exact([[6, 6]], 12)[0][11] == pool_total([6, 6], cap=12).p_at_least(12)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

import numpy as np

from .distribution import Distribution
from .exploding import add_exploding_die, check_exploding_work
from .fast import FloatArray, exploding_die_array
from .limits import check_cap, check_dice_count

__all__ = ["at_least_grid", "at_least_grid_exact"]

_Total = TypeVar("_Total")


def _pool_totals(
    pools: Sequence[Sequence[int]], start: _Total, add: Callable[[_Total, int], _Total]
) -> list[_Total]:
    """Each pool's total, built die by die from ``start``; pools sharing a sorted prefix share its sums."""
    prefixes: dict[tuple[int, ...], _Total] = {(): start}
    totals = []
    for pool in pools:
        check_dice_count(len(pool))
        key = tuple(sorted(pool))
        done = len(key)
        while key[:done] not in prefixes:
            done -= 1
        current = prefixes[key[:done]]
        for index in range(done, len(key)):
            current = add(current, key[index])
            prefixes[key[: index + 1]] = current
        totals.append(current)
    return totals


def at_least_grid(pools: Sequence[Sequence[int]], largest_target: int) -> FloatArray:
    """``grid[i, T − 1] = P(total of pools[i] ≥ T)`` for T = 1..largest_target, all dice exploding.

    Each pool is a list of die sizes (``[6, 6, 8]`` is 2d6! + 1d8!).
    """
    check_cap(largest_target)
    cap = largest_target
    dice = {size: exploding_die_array(size, cap) for size in {size for pool in pools for size in pool}}

    def add(total: FloatArray, size: int) -> FloatArray:
        summed = np.convolve(total, dice[size])
        summed[cap] = summed[cap:].sum()  # min(total, cap): the mass beyond the cap lumped on it
        return summed[: cap + 1]

    start = np.zeros(cap + 1)
    start[0] = 1.0
    totals = _pool_totals(pools, start, add)
    if not totals:
        return np.empty((0, cap))
    tails = np.cumsum(np.array(totals)[:, ::-1], axis=1)[:, ::-1]  # tails[i, T] = P(total ≥ T)
    return np.ascontiguousarray(tails[:, 1 : cap + 1])


def at_least_grid_exact(pools: Sequence[Sequence[int]], largest_target: int) -> list[list[Fraction]]:
    """``grid[i][T − 1] = P(total of pools[i] ≥ T)`` exactly, for T = 1..largest_target, all dice exploding.

    The exact twin of :func:`at_least_grid`. A pool whose exact weights would be too large is refused
    before any work (:class:`~talespin.dice.errors.LimitExceeded`, as for
    :func:`~talespin.dice.exploding.pool_total`).
    """
    check_cap(largest_target)
    cap = largest_target
    for pool in pools:
        check_dice_count(len(pool))
        check_exploding_work(pool, cap)
    totals = _pool_totals(
        pools, Distribution.constant(0), lambda total, size: add_exploding_die(total, size, cap)
    )
    return [_at_least_row(total, cap) for total in totals]


def _at_least_row(total: Distribution, cap: int) -> list[Fraction]:
    """P(total ≥ T) for T = 1..cap, summing the weights once from the top down.

    Where a threshold adds no weight (an outcome the pool cannot show) its probability is the same value
    as the one above it, and the same immutable fraction is kept.
    """
    denominator = total.denominator
    row: list[Fraction] = [Fraction(0)] * cap
    tail, above = 0, row[0]
    weights = total.weights_between(1, cap)
    for threshold in range(cap, 0, -1):
        weight = weights[threshold - 1]
        if weight:
            tail += weight
            above = Fraction(tail, denominator)
        row[threshold - 1] = above
    return row
