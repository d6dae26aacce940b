"""The designer's lab: how long the exact Complex Obstacle solver takes on the issue's reference obstacle.

The obstacle: Obstruction 40, 3 Decisive attempts, 3 characters with 3 Talents each (levels 1–7, all
different, so no symmetry shrinks the 512 sets of Talents used), Crisis capped at 60, base 5d6, objective
"least expected Crisis". Figure:

* ``lab_obstacle_solve_s``: seconds for one full solve (median of 3 runs; target < 1 s);
* ``lab_obstacle_states``: the states it solves (Crisis × Obstruction × attempts × last actor × used);
* ``lab_variant_grid_s``: seconds to compare two variants (shipped, automatic pass at 5) on the full grid
  (levels 0–9 × base d6 1–13 × net Advantage −10..10; median of 5; target < 0.5 s).
"""

from __future__ import annotations

import statistics
import time

from talespin.lab.obstacle import Spot, solve, utility
from talespin.lab.party import parse_party
from talespin.lab.variants import compare
from talespin.systems.inciting_incident import default_rules

PARTY = [
    {"name": "Ada", "talents": {"Piloting": 5, "Wits": 3, "Charm": 1}},
    {"name": "Bo", "talents": {"Brawl": 4, "Climb": 6, "Lore": 2}},
    {"name": "Cy", "talents": {"Shoot": 7, "Hide": 2, "Mend": 4}},
]


def run() -> dict[str, float | int | str]:
    """Solve the reference obstacle three times; report the median."""
    rules = default_rules()
    party = parse_party(PARTY, rules)
    times = []
    for _ in range(3):
        started = time.perf_counter()
        solve(party, Spot(40, 3), rules, terminal=utility("crisis", 60), base_d6=5)
        times.append(time.perf_counter() - started)
    grids = []
    for _ in range(5):
        started = time.perf_counter()
        compare({"shipped": {}, "auto 5": {"crisis": {"auto": 5}}}, max_base=13, max_net=10)
        grids.append(time.perf_counter() - started)
    return {
        "lab_obstacle_solve_s": statistics.median(times),
        "lab_obstacle_states": 61 * 4 * 41 * 4 * 512,
        "lab_variant_grid_s": statistics.median(grids),
    }
