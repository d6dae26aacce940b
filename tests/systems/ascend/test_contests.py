"""Opposed and extended Tests: both sides roll, ties by campaign setting; Successes add up toward a goal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from talespin.systems import IllegalCommand, MalformedCommand
from talespin.systems.ascend import AscendState, decide, new_state

WILL = {"hero": "Will", "skill": "Melee", "trait": "Wits"}
SUSAN = {"hero": "Susan", "skill": "Athletics", "trait": "Strength"}


def _opposed(attacker: list[Any], defender: list[Any]) -> dict[str, Any]:
    return {
        "do": "opposed_test",
        "attacker": {**WILL, "faces": attacker},
        "defender": {**SUSAN, "faces": defender},
    }


def test_more_successes_wins_the_opposed_test(state: AscendState, apply: Any) -> None:
    """Both sides roll their own pool against their own Target; more Successes wins."""
    # rule: AS-OPP-1
    _, events = apply(state, _opposed([0, 1], [0, 9]))
    assert [e.type for e in events] == ["TestRolled", "TestRolled", "OpposedTestDecided"]
    assert [e.data["side"] for e in events[:2]] == ["attacker", "defender"]
    decided = events[-1].data
    assert (decided["attacker_successes"], decided["defender_successes"]) == (2, 1)
    assert (decided["winner"], decided["winning_hero"], decided["tie"]) == ("attacker", "Will", False)


def test_a_tie_goes_to_the_defender_by_default(state: AscendState, apply: Any) -> None:
    """With the shipped tie rule, equal Successes are the defender's win, in one roll."""
    # rule: AS-OPP-1
    decided = apply(state, _opposed([0, 9], [0, 9]))[1][-1].data
    assert (decided["winner"], decided["tie"], decided["rolls"], decided["tie_rule"]) == (
        "defender",
        True,
        1,
        "defender",
    )


def test_a_campaign_may_roll_ties_again(
    susan_sheet: dict[str, Any], will_sheet: dict[str, Any], apply: Any
) -> None:
    """With ``tie: reroll`` a tie is rolled again; physical faces give one list per roll."""
    # rule: AS-OPP-1
    state = new_state({"variant": {"opposed": {"tie": "reroll"}}, "heroes": [susan_sheet, will_sheet]})
    _, events = apply(state, _opposed([[0, 9], [9, 9]], [[0, 9], [1, 9]]))
    rolled = [e for e in events if e.type == "TestRolled"]
    assert [(e.data["side"], e.data["roll"]) for e in rolled] == [
        ("attacker", 1),
        ("defender", 1),
        ("attacker", 2),
        ("defender", 2),
    ]
    decided = events[-1].data
    assert (decided["winner"], decided["rolls"], decided["tie"]) == ("defender", 2, False)


def test_a_reroll_without_faces_for_it_is_refused(
    susan_sheet: dict[str, Any], will_sheet: dict[str, Any]
) -> None:
    """A tie that must be rolled again, with no faces left for the next roll, asks for them."""
    # rule: AS-OPP-1
    state = new_state({"variant": {"opposed": {"tie": "reroll"}}, "heroes": [susan_sheet, will_sheet]})
    with pytest.raises(MalformedCommand) as caught:
        decide(state, _opposed([0, 9], [0, 9]), random.Random(1))
    assert (caught.value.code, caught.value.path) == ("more_faces_needed", "attacker.faces")


def test_rerolls_stop_at_the_limit_and_the_defender_takes_the_tie(
    susan_sheet: dict[str, Any], will_sheet: dict[str, Any]
) -> None:
    """Two empty pools always tie: after the reroll limit the defender wins, no endless loop."""
    # rule: AS-OPP-1
    variant = {"opposed": {"tie": "reroll", "reroll_limit": 3}}
    state = new_state({"variant": variant, "heroes": [susan_sheet, will_sheet]})
    command = {
        "do": "opposed_test",
        "attacker": {"hero": "Will", "skill": "Melee"},
        "defender": {"hero": "Susan", "skill": "Athletics"},
    }
    decided = decide(state, command, random.Random(1))[-1].data
    assert (decided["winner"], decided["rolls"], decided["tie"]) == ("defender", 4, True)


def test_an_opposed_side_error_names_the_side(state: AscendState) -> None:
    """A broken side is refused with its path (``defender.trait``)."""
    # rule: AS-POOL-1
    command = {"do": "opposed_test", "attacker": WILL, "defender": {**SUSAN, "trait": "Charm"}}
    with pytest.raises(IllegalCommand) as caught:
        decide(state, command, random.Random(1))
    assert caught.value.path == "defender.trait"


def test_an_extended_test_accumulates_successes_over_different_items(state: AscendState, apply: Any) -> None:
    """Steps may use different Skills and items; the Successes add up until the goal ends it."""
    # rule: AS-EXT-1
    command = {
        "do": "extended_test",
        "hero": "Susan",
        "goal": 4,
        "limit": 3,
        "steps": [
            {"skill": "Stealth", "trait": "Agility", "faces": [0, 5, 2]},
            {"skill": "Athletics", "trait": "Strength", "background": "Avanus", "faces": [1, 3, 8]},
        ],
    }
    after, events = apply(state, command)
    assert [e.type for e in events] == [
        "ExtendedTestStarted",
        "TestRolled",
        "TestRolled",
        "ExtendedTestEnded",
    ]
    assert events[-1].data == {"successes": 4, "tests": 2, "goal": 4, "reached": True}
    assert after.extended is not None and after.extended.done and after.extended.reached
    with pytest.raises(IllegalCommand) as caught:
        decide(after, {"do": "extended_step", "skill": "Athletics"}, random.Random(1))
    assert (caught.value.rule, caught.value.code) == ("AS-EXT-1", "no_extended_test")


def test_an_extended_test_continues_step_by_step_until_its_limit(state: AscendState, apply: Any) -> None:
    """Started without steps, it stays open; each extended_step adds one Test; the limit ends it unreached."""
    # rule: AS-EXT-1
    after, _ = apply(state, {"do": "extended_test", "hero": "Susan", "goal": 5, "limit": 2})
    assert after.extended is not None and after.extended.open
    with pytest.raises(IllegalCommand) as caught:
        decide(after, {"do": "extended_test", "goal": 2}, random.Random(1))
    assert caught.value.code == "extended_test_open"
    after, events = apply(
        after, {"do": "extended_step", "skill": "Athletics", "trait": "Agility", "faces": [0, 1, 9]}
    )
    assert [e.type for e in events] == ["TestRolled"]
    after, events = apply(
        after, {"do": "extended_step", "hero": "Will", "skill": "Melee", "trait": "Wits", "faces": [3, 7]}
    )
    assert events[-1].type == "ExtendedTestEnded"
    assert events[-1].data["reached"] is False
    assert (after.extended.successes, after.extended.tests) == (3, 2)  # type: ignore[union-attr]


def test_the_storyteller_may_close_an_extended_test(state: AscendState, apply: Any) -> None:
    """``end_extended`` closes it where it stands; a new one may then start."""
    # rule: AS-EXT-1
    after, _ = apply(state, {"do": "extended_test", "hero": "Susan"})
    assert after.extended is not None and after.extended.goal == 5 and after.extended.limit is None
    after, events = apply(after, {"do": "end_extended"})
    assert events[-1].data["closed_by"] == "storyteller"
    after, _ = apply(after, {"do": "extended_test", "goal": 1})
    assert after.extended is not None and after.extended.open


def test_steps_after_the_goal_are_refused_naming_the_step(state: AscendState) -> None:
    """A step listed after the goal is reached is illegal, with its path."""
    # rule: AS-EXT-1
    command = {
        "do": "extended_test",
        "hero": "Susan",
        "goal": 1,
        "steps": [
            {"skill": "Stealth", "trait": "Agility", "faces": [0, 0, 0]},
            {"skill": "Stealth", "trait": "Agility", "faces": [0, 0, 0]},
        ],
    }
    with pytest.raises(IllegalCommand) as caught:
        decide(state, command, random.Random(1))
    assert caught.value.path == "steps[1]"


def test_a_goal_below_one_is_malformed(state: AscendState) -> None:
    """Goal and limit are 1 or more."""
    # rule: AS-EXT-1
    with pytest.raises(MalformedCommand) as caught:
        decide(state, {"do": "extended_test", "goal": 0}, random.Random(1))
    assert caught.value.path == "goal"
