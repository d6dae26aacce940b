"""Benchmarks of Ascend: the exact odds grid against icepool, invoke advice, and the engine's throughput.

The grid is P(at least one Success) for every Target −1..10 × pool 0–30 d10, exact on both sides: talespin's
:func:`~talespin.systems.ascend.successes` (cache cleared before each run) and icepool built incrementally
(one Success die per Target, each pool the previous one plus a die). Both are timed alike (median of 5
runs); ``ascend_grid_exact_vs_icepool_exact`` is icepool's time over talespin's, and
``ascend_grid_mismatches`` counts cells where the two fractions differ.

``run()`` returns the figures; ``bench/run.py`` prints them with every other module's.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction
from statistics import median

import icepool

from talespin.systems.ascend import advise, decide, default_rules, evolve, new_state, parse_hero, successes
from talespin.systems.ascend.chances import _binomial

Figure = float | int | str

POOLS = range(31)
TARGETS = range(-1, 11)


def _grid() -> dict[tuple[int, int], Fraction]:
    rules = default_rules()
    return {(t, n): successes(n, t, rules=rules).p_at_least(1) for t in TARGETS for n in POOLS}


def _icepool_grid() -> dict[tuple[int, int], Fraction]:
    """The same grid as icepool's author would build it: one Success die per Target, each pool the pool
    one smaller plus one die, and P(at least one) read with ``Die.probability``."""
    grid = {}
    for t in TARGETS:
        one = (icepool.d10 - 1 <= t).map(int, star=False)
        pool = icepool.Die([0])
        for n in POOLS:
            grid[(t, n)] = pool.probability(">=", 1)
            pool = pool + one
    return grid


def _timed(work: object, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return median(times)


def run() -> dict[str, Figure]:
    """Every Ascend figure, in seconds unless named otherwise."""

    def cold_grid() -> None:
        _binomial.cache_clear()
        _grid()

    ours = _timed(cold_grid)
    icepool_s = _timed(_icepool_grid)
    oracle = _icepool_grid()
    grid = _grid()
    mismatches = sum(1 for key, p in grid.items() if oracle[key] != p)

    hero = parse_hero(
        {
            "name": "Many",
            "skills": {"Everything": 4},
            "traits": {f"T{i}": i + 1 for i in range(4)},
            "backgrounds": {f"B{i}": i + 1 for i in range(3)},
            "aids": {f"A{i}": i + 1 for i in range(3)},
        }
    )
    choices = advise(hero, skill="Everything", narration="exceptional")
    advice_s = _timed(lambda: advise(hero, skill="Everything", narration="exceptional"))

    sheet = {
        "name": "Susan",
        "skills": {"Athletics": 3},
        "traits": {"Agility": 3, "Strength": 2},
        "backgrounds": {"Avanus": 1},
    }
    state = new_state({"heroes": [sheet]})
    rng = random.Random(1)
    command = {
        "do": "test",
        "hero": "Susan",
        "skill": "Athletics",
        "trait": "Agility",
        "background": "Avanus",
        "invoke": ["Strength"],
        "narration": "narrated",
    }
    count = 2000
    start = time.perf_counter()
    for _ in range(count):
        for event in decide(state, command, rng):
            state = evolve(state, event)
    per_second = count / (time.perf_counter() - start)
    return {
        "ascend_grid_cells": len(grid),
        "ascend_grid_exact_s": round(ours, 5),
        "ascend_grid_icepool_s": round(icepool_s, 5),
        "ascend_grid_exact_vs_icepool_exact": round(icepool_s / ours, 2),
        "ascend_grid_mismatches": mismatches,
        "ascend_advice_choices": len(choices),
        "ascend_advice_s": round(advice_s, 5),
        "ascend_tests_per_s": round(per_second),
    }
