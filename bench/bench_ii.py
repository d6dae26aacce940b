"""Inciting Incident: the full odds grid by talespin's float path against icepool.

The grid is every Talent level 0–9 × base d6 count 1–13 × net Advantage −10..10 (the ladder of II-ADV-2
maps each cell to a final d6 count), with P(success) and expected Crisis against 20 (II-SIMPLE-3). Both
engines compute each distinct (level, final d6) pool once and fill the grid from it, the way their authors
would: talespin's :func:`talespin.lab.ii_table.fast_grid` (float arrays capped at the target, the d6 pools by
repeated convolution); icepool with each die exploded only as deep as the target needs
(``explode(depth=⌈20/S⌉−1)``), every sum clipped at the target (``clip(max_outcome=20)``, exact below it),
the d6 pools built incrementally (N d6 is (N−1) d6 plus one die) and each level's Talent dice once. icepool
is exact only, so its answer is exact fractions turned into floats at the end. Figures:

* ``ii_grid_talespin_s``: seconds for the whole grid by talespin (median of 5 runs after one warm-up run);
* ``ii_grid_icepool_s``: seconds for the same grid by icepool (median of 5 runs after one warm-up run);
* ``ii_grid_float_vs_icepool``: icepool time / talespin time (talespin's float path against icepool's exact
  one, the fastest it has);
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


def _icepool_grid() -> dict[tuple[int, int, int], Cell]:
    rules = default_rules()
    target = rules.roll.target
    dice = {
        size: icepool.Die(range(1, size + 1)).explode(depth=math.ceil(target / size) - 1)
        for size in {rules.roll.d6_size, *(s for level in range(10) for s in rules.levels.dice[level])}
    }
    finals = {
        (base, net): final_d6(base, max(net, 0), max(-net, 0), rules)
        for base in range(1, 14)
        for net in range(-10, 11)
    }
    d6_pools = [icepool.Die([0])]
    for _ in range(max(finals.values())):
        d6_pools.append((d6_pools[-1] + dice[rules.roll.d6_size]).clip(max_outcome=target))
    grid = {}
    for level in range(10):
        talent = icepool.Die([0])
        for size in rules.levels.dice[level]:
            talent = (talent + dice[size]).clip(max_outcome=target)
        cells: dict[int, Cell] = {}
        for d6 in sorted(set(finals.values())):
            total = (d6_pools[d6] + talent).clip(max_outcome=target)
            crisis = total.map(lambda t: 2 if t >= target else max(2, target - t))
            cells[d6] = (float(total.probability(">=", target)), float(crisis.mean()))
        for (base, net), d6 in finals.items():
            grid[(level, base, net)] = cells[d6]
    return grid


def _median(work: Callable[[], object], runs: int = 5) -> float:
    work()  # warm-up run
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run() -> dict[str, float | int | str]:
    """Time both grids alike and compare them cell by cell."""
    ours_s = _median(lambda: fast_grid(20, max_base=13, max_net=10))
    theirs_s = _median(_icepool_grid)
    p_grid, crisis_grid = fast_grid(20, max_base=13, max_net=10)
    theirs = _icepool_grid()
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
        "ii_grid_icepool_s": round(theirs_s, 4),
        "ii_grid_float_vs_icepool": round(theirs_s / ours_s, 1),
        "ii_grid_max_abs_diff": diff,
    }


if __name__ == "__main__":
    print(run())
