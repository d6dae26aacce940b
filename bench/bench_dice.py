"""Dice engine figures: the exploding-odds grid against icepool, and vectorized sampling speed.

- ``odds_grid_*``: P(sum ≥ T) for T = 1..60 and 22 exploding pools (N d6 for N = 1..13, then 1d4!, 1d6!,
  1d8!, 1d10!, 2d6!, 2d8!, 2d10!, 3d8!, 3d10!), computed by :func:`talespin.dice.at_least_grid` and by
  icepool (each die exploded to depth ⌈60/S⌉ − 1, so every threshold ≤ 60 is exact there too).
  ``odds_grid_vs_icepool`` is icepool's time / talespin's time; ``odds_grid_max_abs_diff`` the largest
  difference between the two grids. talespin starts each timed run with its die cache cleared.
- ``exploding_d6_per_second``: exploding d6 totals per second from
  :func:`talespin.dice.sample_exploding_die`; ``exploding_d6_vs_numpy_integers`` divides it by the rate of
  ``rng.integers(1, 7, size=n)`` (numpy's plain call, default int64) for the same ``n`` in the same run;
  ``exploding_d6_vs_numpy_int8`` by the rate of the same call asking for int8, the type drawn inside.

Timings are the best of a few repeats (the machine is shared); the sampling ratios are the median of
ratios measured in adjacent pairs (numpy call, then the sampler), so both sides see the same load.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from math import ceil
from statistics import median

import icepool
import numpy as np

from talespin.dice import at_least_grid, sample_exploding_die
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
SAMPLES = 2_000_000
PAIRS = 15


def _best(work: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def _talespin_grid() -> np.ndarray:
    _exploding_die_cached.cache_clear()
    return at_least_grid(POOLS, LARGEST_TARGET)


def _icepool_grid() -> np.ndarray:
    dice = {
        size: icepool.Die(range(1, size + 1)).explode(depth=ceil(LARGEST_TARGET / size) - 1)
        for size in {s for pool in POOLS for s in pool}
    }
    grid = np.empty((len(POOLS), LARGEST_TARGET))
    for row, pool in enumerate(POOLS):
        total = icepool.Die([0])
        for size in pool:
            total = total + dice[size]
        denominator = total.denominator()
        for threshold in range(1, LARGEST_TARGET + 1):
            grid[row, threshold - 1] = sum(q for o, q in total.items() if o >= threshold) / denominator
    return grid


def run() -> dict[str, float | int | str]:
    """Measure the dice figures (about 20 s on two shared cores, most of it icepool)."""
    ours = _talespin_grid()
    theirs = _icepool_grid()
    talespin_time = _best(_talespin_grid, 20)
    icepool_time = _best(_icepool_grid, 2)

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
        "odds_grid_cells": int(ours.size),
        "odds_grid_talespin_seconds": talespin_time,
        "odds_grid_icepool_seconds": icepool_time,
        "odds_grid_vs_icepool": icepool_time / talespin_time,
        "odds_grid_max_abs_diff": float(np.abs(ours - theirs).max()),
        "exploding_d6_per_second": SAMPLES / min(exploding_times),
        "exploding_d6_vs_numpy_integers": median(versus_int64),
        "exploding_d6_vs_numpy_int8": median(versus_int8),
    }
