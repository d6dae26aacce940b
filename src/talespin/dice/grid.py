"""Many threshold probabilities at once: P(total ≥ T) for many pools and every T up to a largest target.

A designer's grid (every pool a game allows × every target) asks the same question hundreds of times.
:func:`at_least_grid` answers it on the float path: each pool's dice are sorted, pools sharing a prefix of
dice share its convolutions (``N`` d6 for N = 1..13 costs thirteen convolutions in all, not 91), every
die is the cached capped array of :func:`~talespin.dice.fast.exploding_die_array`, and each row ends with one
reversed cumulative sum. Capping at the largest target makes every entry exact in law (see
:mod:`~talespin.dice.exploding`); the float results agree with :func:`~talespin.dice.exploding.pool_total`
to about 1e-15.

>>> from talespin.dice.exploding import pool_total
>>> grid = at_least_grid([[6], [6, 6]], 12)
>>> round(float(grid[1, 11]), 6) == round(float(pool_total([6, 6], cap=12).p_at_least(12)), 6)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .fast import FloatArray, exploding_die_array, sum_arrays
from .limits import check_cap, check_dice_count

__all__ = ["at_least_grid"]


def at_least_grid(pools: Sequence[Sequence[int]], largest_target: int) -> FloatArray:
    """``grid[i, T − 1] = P(total of pools[i] ≥ T)`` for T = 1..largest_target, all dice exploding.

    Each pool is a list of die sizes (``[6, 6, 8]`` is 2d6! + 1d8!).
    """
    check_cap(largest_target)
    cap = largest_target
    prefixes: dict[tuple[int, ...], FloatArray] = {}
    start = np.zeros(cap + 1)
    start[0] = 1.0
    prefixes[()] = start
    grid = np.empty((len(pools), cap))
    for row, pool in enumerate(pools):
        check_dice_count(len(pool))
        key = tuple(sorted(pool))
        done = len(key)
        while key[:done] not in prefixes:
            done -= 1
        current = prefixes[key[:done]]
        for index in range(done, len(key)):
            current = sum_arrays(current, exploding_die_array(key[index], cap), cap)
            prefixes[key[: index + 1]] = current
        tail = np.cumsum(current[::-1])[::-1]
        grid[row] = tail[1 : cap + 1]
    return grid
