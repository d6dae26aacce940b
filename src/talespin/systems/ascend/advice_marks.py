"""What the table adds to invoke advice: the best choice marked, what each other choice costs, and — while an
extended Test is under way — each pool's chance to reach the goal in the Tests left (AS-ODDS-2, AS-ODDS-3).

``cost_vs_best`` is the P(success) a choice gives up against the best one, exactly. ``p_reach_goal`` assumes
every Test left is rolled with that same pool (at the Test's Target and the Successes still needed), so the
rows compare pools for the whole rest of the extended Test; without a limit, the horizon of the rules data
bounds "the Tests left".

>>> from fractions import Fraction
>>> from .rules import default_rules
>>> from .state import ExtendedProgress
>>> reach = goal_chances(default_rules(), ExtendedProgress(goal=4, limit=2, successes=2, tests=1), target=4)
>>> reach(2)    # one Test left, 2 Successes still needed, 2 dice at Target 4: both must succeed
Fraction(1, 4)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

from .chances import exact, extended_odds
from .rules import Rules
from .state import ExtendedProgress

__all__ = ["goal_chances", "mark_rows"]


def goal_chances(rules: Rules, progress: ExtendedProgress, *, target: int) -> Callable[[int], Fraction]:
    """P(reaching the goal in the Tests left), as a function of the pool rolled in each of them."""
    needed = max(progress.goal - progress.successes, 0)
    left = (progress.limit - progress.tests) if progress.limit is not None else rules.extended.odds_horizon

    @cache
    def reach(pool: int) -> Fraction:
        if needed == 0:
            return Fraction(1)
        if left <= 0:
            return Fraction(0)
        return extended_odds(pool, target, needed, limit=left, rules=rules).p_within

    return reach


def mark_rows(
    rows: list[dict[str, Any]], chances: list[Fraction], reach: Callable[[int], Fraction] | None
) -> None:
    """Add ``optimal``, ``cost_vs_best`` (and ``p_reach_goal``) to each advice row, in place."""
    best = max(chances, default=Fraction(0))
    for row, p in zip(rows, chances, strict=True):
        row["optimal"] = p == best
        row["cost_vs_best"], row["cost_vs_best_exact"] = float(best - p), exact(best - p)
        if reach is not None:
            chance = reach(int(row["pool"]))
            row["p_reach_goal"], row["p_reach_goal_exact"] = float(chance), exact(chance)
