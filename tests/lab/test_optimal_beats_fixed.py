"""What the solver calls optimal is never worse than any fixed policy on a sweep of small obstacles."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from talespin.dice import pool_total
from talespin.lab.obstacle import Spot, solve, utility
from talespin.lab.party import parse_party
from talespin.systems.inciting_incident import default_rules

RULES = default_rules()
LEVELS = [[5, 2], [3]]
Choice = tuple[str, int, int | None]
Policy = Callable[[int, int, int], Choice]


def _policy_value(policy: Policy, obstruction: int, attempts: int, cap: int) -> float:
    """-E[min(Crisis, cap)] of a fixed policy, by direct recursion over the dice (II-COMPLEX-2..7)."""
    dists = {
        lv: pool_total([6] * 5 + list(RULES.levels.dice[lv]), 20 + obstruction) for r in LEVELS for lv in r
    }

    @cache
    def value(o: int, a: int, last: int, used: frozenset[tuple[int, int]], c: int) -> float:
        if c >= cap:
            return -float(cap)
        kind, i, j = policy(o, a, last)
        if kind == "auto":
            return value(max(0, o - 4), a, i, used, c + 4)
        assert j is not None
        total = 0.0
        for t, p in dists[LEVELS[i][j]].items():
            if kind == "regular":
                extra = 3 if (i, j) in used else 0
                after = used | {(i, j)}
                if t >= 20:
                    total += float(p) * value(max(0, o - (t - 20)), a, i, after, c + 2 + extra)
                else:
                    total += float(p) * value(o, a, i, after, c + max(2, 20 - t) + extra)
            elif t >= o:
                total += float(p) * -float(min(c + 2, cap))
            elif a == 1:
                total += float(p) * -float(min(c + max(2, o - t), cap))
            else:
                total += float(p) * value(o, a - 1, i, used, c + max(2, o - t))
        return total

    return value(obstruction, attempts, -1, frozenset(), 0)


def _other(last: int) -> int:
    return 1 if last == 0 else 0


POLICIES: dict[str, Policy] = {
    "auto, then decisive": lambda o, a, last: (
        ("auto", _other(last), None) if o > 0 else ("decisive", _other(last), 0)
    ),
    "decisive at once": lambda o, a, last: ("decisive", _other(last), 0),
    "roll until 8, then decisive": lambda o, a, last: (
        ("regular", _other(last), 0) if o > 8 else ("decisive", _other(last), 0)
    ),
}


@pytest.mark.parametrize("obstruction", [4, 9, 14])
@pytest.mark.parametrize("name", sorted(POLICIES))
def test_optimal_never_loses_to_a_fixed_policy(name: str, obstruction: int) -> None:
    """The solver's best value is at least each fixed policy's value."""
    # rule: II-COMPLEX-4
    # rule: II-COMPLEX-6
    raw = [
        {"name": f"C{i}", "talents": {f"T{j}": lv for j, lv in enumerate(r)}} for i, r in enumerate(LEVELS)
    ]
    party = parse_party(raw, RULES)
    best = max(
        solve(party, Spot(obstruction, 2), RULES, terminal=utility("crisis", 24), base_d6=5).values.values()
    )
    fixed = _policy_value(POLICIES[name], obstruction, 2, 24)
    assert best >= fixed - 1e-9
