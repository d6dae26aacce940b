"""The designer's lab: conflicts simulated per second, vectorised against plain Python.

The conflict: Ada (Piloting 2d6) and Bo (Climb 1d8) against an Orc (Axe 1d10) and an Imp (Bite 1d6), every
sheet's Abilities 1–6; the characters go Decisive once the Flow favours them by 4 and strike the weakest, the
enemies go Decisive at 1 and strike the first (as ``tests/lab/test_conflict_sim.py``'s skirmish). Figures:

* ``lab_conflict_sims_per_s``: conflicts per second of :func:`talespin.lab.conflict_sim.simulate_conflict`
  (100,000 conflicts, median of 3);
* ``lab_conflict_plain_per_s``: the same conflicts one at a time in plain Python
  (:func:`talespin.lab.conflict_plain.play_conflict`, 5,000 conflicts);
* ``lab_conflict_vs_plain``: the ratio (target ≥ 50×).
"""

from __future__ import annotations

import random
import statistics
import time

from talespin.lab.conflict_plain import play_conflict
from talespin.lab.conflict_sim import simulate_conflict
from talespin.lab.conflict_spec import parse_conflict
from talespin.systems.inciting_incident import default_rules


def _sheet(name: str, fortitude: int, nimbleness: int, talent: str, level: int) -> dict[str, object]:
    return {
        "name": name,
        "abilities": {"fortitude": fortitude, "perseverance": 1, "nimbleness": nimbleness},
        "talents": [{"name": talent, "ability": "nimbleness", "level": level}],
    }


CONFLICT = {
    "characters": [_sheet("Ada", 2, 5, "Piloting", 5), _sheet("Bo", 3, 3, "Climb", 3)],
    "enemies": [_sheet("Orc", 2, 4, "Axe", 4), _sheet("Imp", 0, 6, "Bite", 2)],
    "policies": {"characters": {"decisive_at": 4}, "enemies": {"decisive_at": 1, "target": "first"}},
}


def run() -> dict[str, float | int | str]:
    """Time both simulations on the same conflict."""
    rules = default_rules()
    conflict = parse_conflict(CONFLICT, rules)
    sims, times = 100_000, []
    for seed in range(3):
        started = time.perf_counter()
        simulate_conflict(conflict, rules, sims=sims, seed=seed)
        times.append(time.perf_counter() - started)
    fast = sims / statistics.median(times)
    rng, plain_sims = random.Random(0), 5_000
    started = time.perf_counter()
    for _ in range(plain_sims):
        play_conflict(conflict, rng, rules)
    plain = plain_sims / (time.perf_counter() - started)
    return {
        "lab_conflict_sims_per_s": round(fast),
        "lab_conflict_plain_per_s": round(plain),
        "lab_conflict_vs_plain": round(fast / plain, 1),
    }
