"""Inciting Incident: the full odds grid by talespin's float path against icepool.

The grid is every Talent level 0–9 × base d6 count 1–13 × net Advantage −10..10 (the ladder of II-ADV-2
maps each cell to a final d6 count), with P(success) and expected Crisis against 20 (II-SIMPLE-3). Both
engines compute each distinct (level, final d6) pool once and fill the grid from it; icepool's exploding
dice use explosion depth ⌈20/S⌉−1, which is exact below the target. Figures:

* ``ii_grid_talespin_s``: seconds for the whole grid by :func:`talespin.lab.ii_table.fast_grid` (median of 7
  runs after one warm-up run);
* ``ii_grid_icepool_s``: seconds for the same grid by icepool (one run: it is the slow side);
* ``ii_grid_vs_icepool``: icepool time / talespin time (how many times faster talespin is);
* ``ii_grid_max_abs_diff``: the largest difference between the two over every cell and both figures;
* ``ii_grid_cells``: cells in the grid.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable

import icepool

from talespin.lab.ii_table import fast_grid
from talespin.systems.inciting_incident import default_rules, final_d6

Cell = tuple[float, float]


def _grid(pool_odds: Callable[[int, int], Cell]) -> dict[tuple[int, int, int], Cell]:
    rules = default_rules()
    cache: dict[tuple[int, int], Cell] = {}
    grid = {}
    for level in range(10):
        for base in range(1, 14):
            for net in range(-10, 11):
                key = (level, final_d6(base, max(net, 0), max(-net, 0), rules))
                if key not in cache:
                    cache[key] = pool_odds(*key)
                grid[(level, base, net)] = cache[key]
    return grid


def _icepool(level: int, d6: int) -> Cell:
    rules = default_rules()
    target = rules.roll.target
    total = icepool.Die([0])
    for size in [6] * d6 + list(rules.levels.dice[level]):
        total = total + icepool.Die(range(1, size + 1)).explode(depth=math.ceil(target / size) - 1)
    crisis = total.map(lambda t: 2 if t >= target else max(2, target - t))
    return float(total.probability(">=", target)), float(crisis.mean())


def run() -> dict[str, float | int | str]:
    """Time both grids once and compare them cell by cell."""
    fast_grid(20, max_base=13, max_net=10)  # warm the caches of the float path
    times = []
    for _ in range(7):
        start = time.perf_counter()
        p_grid, crisis_grid = fast_grid(20, max_base=13, max_net=10)
        times.append(time.perf_counter() - start)
    ours_s = statistics.median(times)
    mid = time.perf_counter()
    theirs = _grid(_icepool)
    end = time.perf_counter()
    ours = {
        (level, base, net): (
            float(p_grid[level, base - 1, net + 10]),
            float(crisis_grid[level, base - 1, net + 10]),
        )
        for level, base, net in theirs
    }
    diff = max(abs(a - b) for key in ours for a, b in zip(ours[key], theirs[key], strict=True))
    return {
        "ii_grid_cells": len(ours),
        "ii_grid_talespin_s": round(ours_s, 5),
        "ii_grid_icepool_s": round(end - mid, 3),
        "ii_grid_vs_icepool": round((end - mid) / ours_s, 1),
        "ii_grid_max_abs_diff": diff,
    }


if __name__ == "__main__":
    print(run())
