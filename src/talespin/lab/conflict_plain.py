"""The same conflicts as :mod:`.conflict_sim`, one at a time in plain Python: the readable reference.

It follows the rules action by action, with :class:`random.Random`, so it can be read against the rules
text; the vectorised simulation is checked against it statistically and measured against it for speed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..systems.inciting_incident.chances import action_crisis, failure_crisis
from ..systems.inciting_incident.rules import Rules, default_rules
from .conflict_spec import Conflict

__all__ = ["play_conflict", "roll_total"]


def roll_total(rng: random.Random, sizes: Sequence[int]) -> int:
    """One total of exploding dice (II-ROLL-2)."""
    total = 0
    for size in sizes:
        face = rng.randint(1, size)
        total += face
        while face == size:
            face = rng.randint(1, size)
            total += face
    return total


def play_conflict(
    conflict: Conflict, rng: random.Random, rules: Rules | None = None
) -> tuple[int, int, int, list[int]]:
    """One conflict: ``(winner, rounds, crisis, wounds)``; winner 1 characters, 2 enemies, 0 unfinished."""
    rules = rules or default_rules()
    c = rules.conflict
    fighters = conflict.fighters
    wounds = [0] * len(fighters)
    flow, crisis = c.flow_start, 0
    for rounds in range(1, conflict.max_rounds + 1):
        for f, me in enumerate(fighters):
            if wounds[f] >= me.hits:
                continue
            foes = [k for k, x in enumerate(fighters) if x.side != me.side and wounds[k] < x.hits]
            policy = conflict.policies[me.side]
            if policy.target == "weakest":
                foe = min(foes, key=lambda k: fighters[k].hits - wounds[k])
            else:
                foe = foes[0]
            sign = 1 if me.side == 0 else -1
            total = roll_total(rng, [rules.roll.d6_size] * fighters[foe].defence + list(me.dice))
            favour = sign * flow
            decisive = favour >= policy.decisive_at
            against = max(c.guard_minimum, c.guard - favour) if decisive else rules.roll.target
            if total >= against and decisive:
                wounds[foe] += c.wounds_per_decisive
                flow = c.flow_after_wound
            elif total >= against:
                flow += sign * max(c.success_minimum_flow, total - against)
            elif me.side == 0:
                crisis += action_crisis(failure_crisis(total, rules.roll.target, rules), 0, rules=rules)
            else:
                flow += c.enemy_failure_flow
            for side in (0, 1):
                if all(wounds[k] >= x.hits for k, x in enumerate(fighters) if x.side == side):
                    return 2 - side, rounds, crisis, wounds
    return 0, conflict.max_rounds, crisis, wounds
