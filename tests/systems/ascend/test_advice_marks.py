"""Invoke advice at the table: the best pool marked, each other's cost, and the chance to finish an extended
Test with each pool — checked against a plain recursion."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from talespin.systems.ascend import SYSTEM, AscendState

Apply = Callable[..., tuple[AscendState, list[Any]]]


def _query(**extra: Any) -> dict[str, Any]:
    return {"hero": "Susan", "skill": "Athletics", "narration": "narrated", **extra}


def test_the_best_pool_is_marked_and_every_other_costs_its_lost_chance(state: AscendState) -> None:
    """``cost_vs_best`` is the best P(success) minus the row's, exactly; ties with the best are optimal."""
    # rule: AS-ODDS-3
    rows = SYSTEM.odds(state, _query())["advice"]
    best = Fraction(rows[0]["p_success_exact"])
    for row in rows:
        lost = best - Fraction(row["p_success_exact"])
        assert Fraction(row["cost_vs_best_exact"]) == lost
        assert row["optimal"] == (lost == 0)
    assert rows[0]["optimal"] and not rows[-1]["optimal"]
    assert "p_reach_goal" not in rows[0]  # no extended Test under way


def test_an_open_extended_test_gives_each_pool_its_chance_to_finish(state: AscendState, apply: Apply) -> None:
    """After one step, each row's ``p_reach_goal`` is P(the Successes still needed in the Tests left)."""
    # rule: AS-EXT-1
    # rule: AS-ODDS-2
    start = {
        "do": "extended_test",
        "hero": "Susan",
        "goal": 5,
        "limit": 3,
        "steps": [{"skill": "Stealth", "trait": "Agility", "faces": [0, 5, 9]}],
    }
    state, _ = apply(state, start)
    answer = SYSTEM.odds(state, _query())
    assert answer["extended"] == {"successes_needed": 4, "tests_left": 2}
    p = Fraction(answer["target"] + 1, 10)

    for row in answer["advice"]:
        pool = row["pool"]

        @cache
        def reach(need: int, left: int, pool: int = pool) -> Fraction:
            if need <= 0:
                return Fraction(1)
            if left == 0:
                return Fraction(0)
            return sum(
                (
                    comb(pool, k) * p**k * (1 - p) ** (pool - k) * reach(need - k, left - 1)
                    for k in range(pool + 1)
                ),
                Fraction(0),
            )

        assert Fraction(row["p_reach_goal_exact"]) == reach(4, 2)
    assert answer["advice"][0]["p_reach_goal"] > answer["advice"][-1]["p_reach_goal"]


def test_a_blind_extended_test_gives_no_goal_chances(state: AscendState, apply: Apply) -> None:
    """A blind step's Successes are the GM's alone: the odds, which serve players too, leave them out."""
    start = {
        "do": "extended_test",
        "hero": "Susan",
        "goal": 5,
        "limit": 3,
        "visibility": "gm",
        "steps": [{"skill": "Stealth", "trait": "Agility", "faces": [0, 5, 9]}],
    }
    state, _ = apply(state, start)
    answer = SYSTEM.odds(state, _query())
    assert "extended" not in answer and "p_reach_goal" not in answer["advice"][0]
