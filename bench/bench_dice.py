"""Dice engine figures: the exploding-odds grid against icepool (exact against exact, float apart), and
vectorized sampling speed.

The grid is P(sum ≥ T) for T = 1..60 and 22 exploding pools (N d6 for N = 1..13, then 1d4!, 1d6!, 1d8!,
1d10!, 2d6!, 2d8!, 2d10!, 3d8!, 3d10!): 1,320 cells. Every engine computes it the way its author would:

* each die is exploded only as deep as the largest target needs and every partial sum is capped at it
  (``min(total, 60)`` keeps every P(total ≥ T ≤ 60) exact): talespin's exact grid
  (:func:`talespin.dice.at_least_grid_exact`, which adds each die by
  :func:`~talespin.dice.add_exploding_die`'s O(cap) recurrence); icepool's ``Die.explode(depth=⌈60/S⌉ − 1)``
  and ``Die.clip(max_outcome=60)``;
* pools are built incrementally: pools sharing a sorted prefix of dice share its sums (N d6 is (N−1) d6
  plus one more die, never rebuilt; talespin's grid functions do this themselves);
* the thresholds of a row come from one pass over its outcomes (icepool: ``Die.quantities(">=")``), each
  cell an exact :class:`~fractions.Fraction` on both sides (a threshold no outcome reaches keeps the same
  fraction object as the one above it, on both sides).

Figures (each pair of engines runs side by side :data:`REPEATS` times, alternating, every run from cold
caches, the float paths 20 times a turn as one run takes under a millisecond; a ratio is the median of the
ratios within each pair, a time the best of its runs):

* ``odds_grid_exact_vs_icepool_exact``: icepool's time / talespin's exact time, both giving exact
  fractions; ``odds_grid_exact_mismatches`` counts cells where the two fractions differ (must be 0);
* ``odds_grid_float_vs_icepool``: icepool's time / the time of talespin's float path
  (:func:`talespin.dice.at_least_grid`), side by side, each the best of five runs a turn. icepool has no
  float path: its exact answer is the fastest it offers, so this ratio mixes float with exact and is
  reported apart, never as the exact figure;
* ``odds_grid_float_vs_numpy``: a plain-numpy float grid written directly (the same capped arrays, the same
  shared prefixes, ``np.convolve``) / talespin's float path: float against float;
* ``odds_grid_max_abs_diff``: the largest difference between the float grid and the exact one;
* ``exploding_d6_per_second``: exploding d6 totals per second from
  :func:`talespin.dice.sample_exploding_die`; ``exploding_d6_vs_numpy_integers`` divides it by the rate of
  ``rng.integers(1, 7, size=n)`` (numpy's plain call, default int64) for the same ``n`` in the same run;
  ``exploding_d6_vs_numpy_int8`` by the rate of the same call asking for int8, the type drawn inside. These
  ratios are the median of ratios measured in adjacent pairs, so both sides see the same load.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from math import ceil
from statistics import median
from typing import Any

import icepool
import numpy as np

from talespin.dice import at_least_grid, at_least_grid_exact, sample_exploding_die
from talespin.dice.fast import _exploding_die_cached

LARGEST_TARGET = 60
POOLS: list[list[int]] = [[6] * n for n in range(1, 14)] + [
    [4],
    [6],
    [8],
    [10],
    [6, 6],
    [8, 8],
    [10, 10],
    [8, 8, 8],
    [10, 10, 10],
]
REPEATS = 7
SAMPLES = 2_000_000
PAIRS = 15

ExactGrid = list[list[Fraction]]


def _best(work: Callable[[], object], repeats: int = REPEATS) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def _paired(
    ours: Callable[[], object], theirs: Callable[[], object], inner: int = 1
) -> tuple[float, float, float]:
    """Run the two side by side :data:`REPEATS` times, alternating (each turn the best of ``inner`` runs, for
    work too short to time once): each one's best time, and the median of the ratios theirs / ours within
    each pair (both saw the same load on the machine)."""
    pairs = [(_best(ours, inner), _best(theirs, inner)) for _ in range(REPEATS)]
    return min(a for a, _ in pairs), min(b for _, b in pairs), median(b / a for a, b in pairs)


def _incremental(pools: Sequence[Sequence[int]], start: Any, add: Callable[[Any, int], Any]) -> list[Any]:
    """Each pool's capped total, pools sharing a sorted prefix of dice sharing its partial sums."""
    prefixes: dict[tuple[int, ...], Any] = {(): start}
    totals = []
    for pool in pools:
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


def _talespin_exact() -> ExactGrid:
    return at_least_grid_exact(POOLS, LARGEST_TARGET)


def _icepool_exact() -> ExactGrid:
    cap = LARGEST_TARGET
    dice = {
        size: icepool.Die(range(1, size + 1)).explode(depth=ceil(cap / size) - 1)
        for size in {s for pool in POOLS for s in pool}
    }
    totals = _incremental(
        POOLS, icepool.Die([0]), lambda total, size: (total + dice[size]).clip(max_outcome=cap)
    )
    grid = []
    for total in totals:
        denominator = total.denominator()
        at_least = dict(zip(total.outcomes(), total.quantities(">="), strict=True))
        row = [Fraction(0)] * cap
        above = row[0]
        for threshold in range(cap, 0, -1):
            # An outcome the pool cannot show keeps the fraction above it (as talespin's grid does).
            if threshold in at_least:
                above = Fraction(at_least[threshold], denominator)
            row[threshold - 1] = above
        grid.append(row)
    return grid


def _talespin_float() -> np.ndarray:
    _exploding_die_cached.cache_clear()
    return at_least_grid(POOLS, LARGEST_TARGET)


def _numpy_die(size: int, cap: int) -> np.ndarray:
    """One exploding die capped at ``cap`` as a float array: P(q·S + r) = S^−(q+1), the rest on ``cap``."""
    values = np.arange(cap + 1)
    q, r = np.divmod(values, size)
    p = np.where((r > 0) & (values > 0), float(size) ** -(q + 1.0), 0.0)
    p[cap] = 0.0
    p[cap] = 1.0 - p.sum()
    return p


def _numpy_float() -> np.ndarray:
    cap = LARGEST_TARGET
    dice = {size: _numpy_die(size, cap) for size in {s for pool in POOLS for s in pool}}

    def add(total: np.ndarray, size: int) -> np.ndarray:
        summed = np.convolve(total, dice[size])
        summed[cap] = summed[cap:].sum()
        return summed[: cap + 1]

    totals = _incremental(POOLS, np.eye(1, cap + 1)[0], add)
    return np.array([np.cumsum(total[::-1])[::-1][1:] for total in totals])


def run() -> dict[str, float | int | str]:
    """Measure the dice figures (a few seconds on two shared cores, most of it icepool)."""
    exact, oracle, floats, plain = _talespin_exact(), _icepool_exact(), _talespin_float(), _numpy_float()
    mismatches = sum(
        a != b for ours, theirs in zip(exact, oracle, strict=True) for a, b in zip(ours, theirs, strict=True)
    )
    exact_grid = np.array([[float(p) for p in row] for row in exact])
    exact_time, icepool_time, exact_ratio = _paired(_talespin_exact, _icepool_exact)
    float_time, numpy_time, float_ratio = _paired(_talespin_float, _numpy_float, inner=20)
    # Both sides the best of the same number of runs a turn (one float run alone is too short to time).
    _, _, float_versus_icepool = _paired(_talespin_float, _icepool_exact, inner=5)

    rng = np.random.default_rng(20260101)
    versus_int64, versus_int8, exploding_times = [], [], []
    for _ in range(PAIRS):
        integers_time = _best(lambda: rng.integers(1, 7, size=SAMPLES), 1)
        int8_time = _best(lambda: rng.integers(1, 7, size=SAMPLES, dtype=np.int8), 1)
        exploding_time = _best(lambda: sample_exploding_die(rng, 6, SAMPLES), 1)
        exploding_times.append(exploding_time)
        versus_int64.append(integers_time / exploding_time)
        versus_int8.append(int8_time / exploding_time)
    return {
        "odds_grid_cells": int(floats.size),
        "odds_grid_exact_seconds": exact_time,
        "odds_grid_icepool_seconds": icepool_time,
        "odds_grid_float_seconds": float_time,
        "odds_grid_numpy_float_seconds": numpy_time,
        "odds_grid_exact_vs_icepool_exact": exact_ratio,
        "odds_grid_exact_mismatches": mismatches,
        "odds_grid_float_vs_icepool": float_versus_icepool,
        "odds_grid_float_vs_numpy": float_ratio,
        "odds_grid_max_abs_diff": float(
            max(np.abs(floats - exact_grid).max(), np.abs(plain - exact_grid).max())
        ),
        "exploding_d6_per_second": SAMPLES / min(exploding_times),
        "exploding_d6_vs_numpy_integers": median(versus_int64),
        "exploding_d6_vs_numpy_int8": median(versus_int8),
    }


if __name__ == "__main__":
    print(run())
