"""The engine: decide/evolve of Tests, narrated outcomes, physical dice, replay, refusals changing nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from talespin.systems import Event, IllegalCommand, MalformedCommand, RulesError, get_system
from talespin.systems.ascend import SYSTEM, AscendState, decide, evolve, new_state

ATHLETICS: dict[str, Any] = {"do": "test", "hero": "Susan", "skill": "Athletics", "trait": "Agility"}


def test_the_registry_finds_ascend() -> None:
    """``get_system("ascend")`` and its alias give the one SYSTEM."""
    assert get_system("ascend") is SYSTEM
    assert get_system("cn-ascend") is SYSTEM
    assert SYSTEM.name == "ascend"


def test_dice_at_or_below_the_target_are_successes(state: AscendState, apply: Any) -> None:
    """With Target 2, faces 0, 1 and 2 count; 3 and 9 do not; 0 is zero, not ten."""
    # rule: AS-TEST-3, AS-POOL-5
    command = {
        "do": "test",
        "hero": "Susan",
        "skill": "Stealth",
        "trait": "Agility",
        "background": "Avanus",
        "faces": [0, 3, 2, 9],
    }
    _, events = apply(state, command)
    data = events[-1].data
    assert (data["target"], data["pool"], data["successes"]) == (2, 4, 2)
    assert data["chains"] == [{"size": 10, "faces": [f]} for f in (0, 3, 2, 9)]


def test_a_negative_target_has_no_success_and_nine_makes_every_die_one(
    state: AscendState, apply: Any
) -> None:
    """Target −1 counts nothing, not even a 0; Target 9 counts every die."""
    # rule: AS-TEST-3
    low = {
        "do": "test",
        "hero": "Susan",
        "skill": "Stealth",
        "difficulty": 3,
        "trait": "Agility",
        "faces": [0, 0, 0],
    }
    assert apply(state, low)[1][-1].data["successes"] == 0
    sheet = {"name": "Ace", "skills": {"Everything": 9}, "traits": {"Grace": 3}}
    ace_state, _ = apply(state, {"do": "add_hero", "sheet": sheet})
    high = {"do": "test", "hero": "Ace", "skill": "Everything", "trait": "Grace", "faces": [9, 9, 9]}
    assert apply(ace_state, high)[1][-1].data["successes"] == 3


def test_success_needs_the_required_successes_and_margin_is_the_excess(
    state: AscendState, apply: Any
) -> None:
    """Two Successes against required 2 succeed with margin 0; one fails with margin −1; zero always fails."""
    # rule: AS-TEST-4
    base = {**ATHLETICS, "required": 2}
    two = apply(state, {**base, "faces": [0, 1, 8]})[1][-1].data
    assert (two["success"], two["margin"]) == (True, 0)
    one = apply(state, {**base, "faces": [0, 8, 8]})[1][-1].data
    assert (one["success"], one["margin"]) == (False, -1)
    zero = apply(state, {**ATHLETICS, "faces": [9, 9, 9]})[1][-1].data
    assert (zero["successes"], zero["success"], zero["margin"]) == (0, False, -1)


def test_an_empty_pool_rolls_nothing_and_has_no_success(state: AscendState, apply: Any) -> None:
    """No items: 0 dice, 0 Successes, a failure; faces must then be empty."""
    # rule: AS-POOL-4
    data = apply(state, {"do": "test", "hero": "Susan", "skill": "Athletics"})[1][-1].data
    assert (data["pool"], data["faces"], data["successes"], data["success"]) == (0, [], 0, False)
    with pytest.raises(MalformedCommand):
        decide(state, {"do": "test", "hero": "Susan", "skill": "Athletics", "faces": [1]}, random.Random(1))


def test_a_narrated_outcome_rolls_no_dice(state: AscendState, apply: Any) -> None:
    """``narrate`` records the Storyteller's outcome: no dice, no Test counted."""
    # rule: AS-TEST-5
    after, events = apply(state, {"do": "narrate", "hero": "Susan", "text": "She climbs the wall unseen."})
    assert [e.type for e in events] == ["OutcomeNarrated"]
    assert "faces" not in events[0].data
    assert (after.tests, after.narrated) == (0, 1)
    assert SYSTEM.actors(state, {"do": "narrate", "hero": "Susan", "text": "x"}) == frozenset()


def test_rolls_come_from_the_generator_when_no_faces_are_given(state: AscendState) -> None:
    """The same seed gives the same faces; every face lies on the die."""
    # rule: AS-TEST-3
    first = decide(state, ATHLETICS, random.Random(5))[-1].data
    second = decide(state, ATHLETICS, random.Random(5))[-1].data
    assert first["faces"] == second["faces"]
    assert len(first["faces"]) == 3
    assert all(0 <= f <= 9 for f in first["faces"])
    assert first["physical"] is False


@pytest.mark.parametrize(
    ("faces", "path"),
    [
        ([1, 2, 10], "faces[2]"),
        ([1, -1, 2], "faces[1]"),
        ([1, 2], "faces"),
        ([1, 2, 3, 4], "faces"),
        ([1, "a", 2], "faces[1]"),
    ],
)
def test_bad_faces_are_refused_naming_the_die(state: AscendState, faces: list[Any], path: str) -> None:
    """Faces off the die or of the wrong count are ``bad_faces`` with the die's path; nothing changes."""
    # rule: AS-TEST-3
    with pytest.raises(MalformedCommand) as caught:
        decide(state, {**ATHLETICS, "faces": faces}, random.Random(1))
    assert (caught.value.code, caught.value.path) == ("bad_faces", path)


def test_exceptional_narration_is_recorded_as_the_storytellers_award(state: AscendState, apply: Any) -> None:
    """An exceptional Test spends the award the Storyteller recorded with NarrationAwarded."""
    # rule: AS-POOL-3
    awarded, events = apply(state, {"do": "award_narration", "hero": "Susan"})
    assert events[0].data == {
        "hero": "Susan",
        "narration": "exceptional",
        "by": "storyteller",
        "requested": False,
    }
    command = {**ATHLETICS, "invoke": ["Strength", "Avanus"], "narration": "exceptional"}
    after, events = apply(awarded, command)
    assert [e.type for e in events] == ["NarrationUsed", "TestRolled"]
    assert events[1].data["pool"] == 6 and after.awards == ()


@pytest.mark.parametrize(
    ("command", "error", "code"),
    [
        ({**ATHLETICS, "invoke": ["Agility"], "narration": "narrated"}, IllegalCommand, "item_used_twice"),
        ({**ATHLETICS, "invoke": ["Strength"]}, IllegalCommand, "needs_narration"),
        ({**ATHLETICS, "skill": "Sailing"}, IllegalCommand, "unknown_skill"),
        ({**ATHLETICS, "hero": "Nobody"}, IllegalCommand, "unknown_hero"),
        ({**ATHLETICS, "faces": [0, 1, 12]}, MalformedCommand, "bad_faces"),
        ({**ATHLETICS, "faces": [0]}, MalformedCommand, "bad_faces"),
        ({**ATHLETICS, "colour": "red"}, MalformedCommand, "malformed"),
        ({"do": "fly"}, MalformedCommand, "unknown_command"),
        ({"do": "extended_step", "skill": "Athletics"}, IllegalCommand, "no_extended_test"),
        ({"do": "end_extended"}, IllegalCommand, "no_extended_test"),
    ],
)
def test_bad_commands_are_refused_and_change_nothing(
    state: AscendState, command: dict[str, Any], error: type[RulesError], code: str
) -> None:
    """Each refusal is the right error with a stable code, and the state is the same object as before."""
    # rule: AS-POOL-2, AS-TEST-1, AS-EXT-1
    before = SYSTEM.view(state, "gm")
    with pytest.raises(error) as caught:
        decide(state, command, random.Random(1))
    assert caught.value.code == code
    assert caught.value.message
    assert SYSTEM.view(state, "gm") == before


def test_add_character_and_add_hero_bring_a_sheet_in(state: AscendState, apply: Any) -> None:
    """Both spellings add a hero; a second hero of the same name or a broken sheet is refused."""
    # rule: AS-HERO-1, AS-HERO-3
    after, events = apply(
        state, {"do": "add_character", "sheet": {"name": "Ghost", "skills": {"Haunting": 4}}}
    )
    assert events[0].type == "HeroAdded"
    assert after.hero("Ghost") is not None
    with pytest.raises(IllegalCommand):
        decide(after, {"do": "add_hero", "sheet": {"name": "Ghost"}}, random.Random(1))
    with pytest.raises(MalformedCommand) as caught:
        decide(after, {"do": "add_hero", "sheet": {"name": "Imp", "traits": {"Spite": 12}}}, random.Random(1))
    assert (caught.value.rule, caught.value.path) == ("AS-HERO-2", "sheet.traits.Spite")


def test_replaying_the_events_gives_the_state_back(state: AscendState) -> None:
    """Folding the recorded events over the starting state, without a generator, reproduces the state."""
    # rule: AS-EXT-1, AS-OPP-1
    rng = random.Random(11)
    commands = [
        {"do": "add_hero", "sheet": {"name": "Ghost", "skills": {"Haunting": 4}, "traits": {"Dread": 3}}},
        ATHLETICS,
        {"do": "request_narration", "hero": "Susan"},
        {"do": "award_narration", "hero": "Susan"},
        {**ATHLETICS, "invoke": ["Strength", "Avanus"], "narration": "exceptional", "visibility": "gm"},
        {"do": "request_narration", "hero": "Will"},
        {"do": "award_narration", "hero": "Will", "grant": False},
        {
            "do": "opposed_test",
            "attacker": {"hero": "Susan", "skill": "Athletics"},
            "defender": {"hero": "Will"},
        },
        {"do": "defend", "hero": "Will", "skill": "Melee", "trait": "Strength"},
        {
            "do": "opposed_test",
            "attacker": {"hero": "Will", "skill": "Melee", "trait": "Strength"},
            "defender": {"hero": "Ghost", "skill": "Haunting", "trait": "Dread"},
        },
        {
            "do": "extended_test",
            "hero": "Susan",
            "goal": 4,
            "steps": [{"skill": "Athletics", "trait": "Agility"}],
        },
        {"do": "extended_step", "skill": "Stealth", "trait": "Strength"},
        {"do": "end_extended"},
        {"do": "narrate", "text": "Dawn."},
    ]
    live, log = state, []
    for command in commands:
        events = decide(live, command, rng)
        for event in events:
            live = evolve(live, event)
        log.extend(event.to_json() for event in events)
    replayed = state
    for raw in log:
        replayed = evolve(replayed, Event.from_json(raw))
    assert replayed == live
    assert live.tests >= 5


def test_new_state_takes_a_variant_and_heroes(susan_sheet: dict[str, Any]) -> None:
    """The setup's variant reaches the rules; bad setups are refused."""
    made = new_state({"variant": {"opposed": {"tie": "reroll"}}, "heroes": [susan_sheet]})
    assert made.rules.opposed.tie == "reroll"
    with pytest.raises(MalformedCommand):
        new_state({"heroes": [susan_sheet, susan_sheet]})
    with pytest.raises(MalformedCommand):
        new_state({"characters": []})
    with pytest.raises(MalformedCommand):
        new_state({"variant": {"dice": 6}})
