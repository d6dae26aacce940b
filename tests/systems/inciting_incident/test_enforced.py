"""Rules the engine once let slip: each case is refused (or applied) as its rule says, state unchanged."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest

from talespin.systems.errors import IllegalCommand, MalformedCommand, RulesError
from talespin.systems.inciting_incident import decide, new_state
from talespin.systems.inciting_incident.chances import failure_crisis, total_distribution
from talespin.systems.inciting_incident.odds import odds
from talespin.systems.inciting_incident.rules import default_rules

HIGH_MEDICINE = [[6, 6, 1], [5], [5], [1], [1], [8, 1]]
"""Bram's Medicine (1d8) at difficulty 5: a total of 34."""
LOW_MEDICINE = [[1], [1], [1], [1], [1], [1]]
"""Bram's Medicine at difficulty 5: a total of 6 (20 − 6 = 14 Crisis)."""
HIGH_QUICKDRAW = [[6, 6, 1], [5], [5], [5], [5], [5], [4]]
"""Ada's Quickdraw (1d10) with 6d6 (against a Nimbleness of 3): a total of 42."""
COOP = {"do": "start_scene", "kind": "cooperative"}
KIT = {
    "name": "Kit",
    "abilities": {"fortitude": 0, "perseverance": 3, "nimbleness": 3},
    "talents": [{"name": "Knife", "ability": "nimbleness", "level": 3}],
}
"""A character with no Fortitude: one wound takes her out (II-CHAR-9)."""


def _refused(state: Any, command: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as refused:
        decide(state, command, None)
    return refused.value


def test_a_modifier_crisis_effect_applies_to_a_successful_attack(h: Any) -> None:
    """A modifier Skill's crisis effect is added when an attack succeeds, as on any action."""
    # rule: II-SKILL-2 II-FLOW-2
    reckless = {"name": "Reckless", "cost": 2, "kind": "modifier", "effects": {"crisis": 2}}
    ada = copy.deepcopy(h.ADA)
    ada["talents"][1]["skills"] = [reckless]
    attack = {"do": "regular_attack", "character": "Ada", "target": "Guard", "talent": "Quickdraw"}
    state, events = h.run(
        [
            {"do": "start_scene", "kind": "conflict"},
            {"do": "start_conflict", "enemies": [h.GUARD]},
            {**attack, "skills": ["Reckless"], "faces": HIGH_QUICKDRAW},
        ],
        setup={"characters": [ada, h.BRAM]},
    )
    assert h.last(events, "AttackMade").data["success"] is True
    assert state.scene.crisis == 2 and h.last(events, "CrisisRaised").data["amount"] == 2
    answer = odds(state, {"character": "Ada", "skills": ["Reckless"], "target": "Guard"})
    quick = next(c for c in answer["choices"] if c["talent"] == "Quickdraw")
    assert Fraction(quick["expected_crisis_exact"]) > 2  # the Skill's 2, plus the failure amount sometimes


def test_a_character_taken_out_stays_out_until_healed(h: Any) -> None:
    """A character whose wounds reached its maximum hits neither acts nor counts in the next conflict."""
    # rule: II-FLOW-4 II-CHAR-9
    hit = {"do": "decisive_attack", "character": "Guard", "target": "Kit", "talent": "Spear"}
    state, events = h.run(
        [
            {"do": "start_scene", "kind": "conflict"},
            {"do": "start_conflict", "enemies": [h.GUARD]},
            {**hit, "faces": [[6, 6, 6, 6, 6, 1], [1], [1], [1], [1], [1], [8, 1]]},
            {"do": "end_conflict"},
            {"do": "start_scene", "kind": "conflict"},
            {"do": "start_conflict", "enemies": [{**h.GUARD, "name": "Raider"}]},
        ],
        setup={"characters": [KIT, h.BRAM]},
    )
    assert h.last(events, "TakenOut").data["character"] == "Kit"
    before = state
    error = _refused(state, {"do": "move", "character": "Kit"})
    assert state == before and error.code == "unknown_character"
    error = _refused(state, {**hit, "character": "Kit", "target": "Raider", "talent": "Knife"})
    assert error.rule == "II-FLOW-4"
    state, events = h.run(
        [{"do": "move", "character": "Bram"}, {"do": "move", "character": "Raider"}], state=state
    )
    assert h.last(events, "RoundStarted").data["round"] == 2  # Kit is not waited for
    healed, _ = h.run([COOP, {"do": "heal", "character": "Kit"}], state=state)
    assert healed.member("Kit").wounds == 0


def test_a_cooperative_scene_changes_no_ability_and_healing_is_apart(h: Any) -> None:
    """learn never raises an Ability; healing does not use up the one Talent or Skill change."""
    # rule: II-SCENE-2
    state, _ = h.run([COOP])
    error = _refused(state, {"do": "learn", "character": "Ada", "ability": "fortitude", "level": 9})
    assert error.rule == "II-SCENE-2" and state.member("Ada").sheet.abilities["fortitude"] == 3
    skill = {"name": "Loop", "cost": 3, "kind": "modifier", "effects": {"advantage": 1}}
    state, _ = h.run(
        [
            {"do": "heal", "character": "Ada"},
            {"do": "learn", "character": "Ada", "talent": "Piloting", "skill": skill},
            {"do": "heal", "character": "Ada"},
        ],
        state=state,
    )
    assert any(s.name == "Loop" for s in state.member("Ada").sheet.talents[0].skills)
    assert _refused(
        state, {"do": "learn", "character": "Ada", "talent": "Piloting", "skill": skill}
    ).rule == ("II-SCENE-2")
    variant = new_state(
        {"characters": [h.ADA], "variant": {"scenes": {"changeable": ["talent", "skill", "ability"]}}}
    )
    changed, _ = h.run(
        [COOP, {"do": "learn", "character": "Ada", "ability": "fortitude", "level": 4}], state=variant
    )
    assert changed.member("Ada").sheet.abilities["fortitude"] == 4


def test_an_advanced_skill_in_a_cooperative_scene_has_no_crisis_and_uses_the_change(h: Any) -> None:
    """A cooperative scene has no Crisis: an advanced Skill there changes none, and is the one change."""
    # rule: II-CRISIS-1 II-SKILL-5 II-SCENE-2
    sheet = copy.deepcopy(h.BRAM)
    sheet["talents"][1]["skills"].append(
        {"name": "Rally", "cost": 2, "kind": "advanced", "effects": {"crisis": 3}}
    )
    state, events = h.run(
        [COOP, {"do": "use_skill", "character": "Bram", "skill": "Rally"}], setup={"characters": [sheet]}
    )
    assert not [e for e in events if e.type in ("CrisisRaised", "CrisisLowered", "TalentRolled")]
    assert state.scene.crisis == 0 and "Bram" in state.scene.changed
    error = _refused(state, {"do": "use_skill", "character": "Bram", "skill": "Calm Voice"})
    assert error.rule == "II-SCENE-2"


@pytest.mark.parametrize(
    ("command", "path"),
    [
        ({"do": "spend_tension", "on": "trigger"}, "trigger"),
        ({"do": "spend_tension", "on": "obstacle"}, "obstacle"),
        ({"do": "spend_tension", "on": "enemy"}, "enemies"),
        ({"do": "spend_tension", "on": "trigger", "trigger": {"text": "no threshold"}}, "trigger.at"),
        ({"do": "spend_tension", "on": "obstacle", "obstacle": {"kind": "complex"}}, "obstacle.obstruction"),
    ],
)
def test_rising_tension_is_spent_only_on_what_it_buys(h: Any, command: dict[str, Any], path: str) -> None:
    """Spending on a Trigger, obstacle or enemy without the thing itself is refused and nothing vanishes."""
    # rule: II-RT-3
    state, _ = h.run([{"do": "start_scene", "kind": "conflict"}])
    before = state
    error = _refused(state, command)
    assert error.rule == "II-RT-3" or error.path == path
    assert error.path == path and state == before and state.rising_tension == 5


def test_rising_tension_buys_the_trigger_or_obstacle_in_the_same_command(h: Any) -> None:
    """A Trigger or an obstacle bought with Rising Tension is added by the spending command itself."""
    # rule: II-RT-3 II-CRISIS-2 II-COMPLEX-1
    trigger = {"at": 6, "text": "The roof groans", "visibility": "gm"}
    state, events = h.run(
        [
            h.ACTION,
            {"do": "spend_tension", "on": "trigger", "trigger": trigger, "reason": "the storm"},
            {
                "do": "spend_tension",
                "on": "obstacle",
                "obstacle": {"kind": "complex", "obstruction": 25, "attempts": 2},
            },
        ]
    )
    assert h.types(events)[-4:] == [
        "RisingTensionSpent",
        "TriggerAdded",
        "RisingTensionSpent",
        "ComplexObstacleSet",
    ]
    assert state.rising_tension == 1 and state.scene.triggers[0].visibility == "gm"
    assert state.scene.obstacle.obstruction == 25


def test_an_advanced_skill_is_an_advanced_action_with_a_roll(h: Any) -> None:
    """An owned advanced Skill rolls its Talent: success applies it with +2 Crisis, failure only costs."""
    # rule: II-SKILL-5 II-SKILL-2
    state, _ = h.run([h.ACTION, {"do": "adjust_crisis", "amount": 12}])
    calm = {"do": "use_skill", "character": "Bram", "skill": "Calm Voice"}
    after, events = h.run([{**calm, "faces": HIGH_MEDICINE}], state=state)
    assert h.last(events, "TalentRolled").data["purpose"] == "use_skill"
    assert after.scene.crisis == 12 - 3 + 2
    failed, events = h.run([{**calm, "faces": LOW_MEDICINE}], state=state)
    assert failed.scene.crisis == 12 + 14 and not [e for e in events if e.type == "CrisisLowered"]
    assert h.last(events, "AdvancedActionTaken").data["success"] is False


def test_an_advanced_action_counts_as_the_action_on_an_obstacle_and_in_a_round(h: Any) -> None:
    """An Advanced Action is not taken twice in a row on a Complex Obstacle, nor twice in a conflict round."""
    # rule: II-SKILL-5 II-COMPLEX-5 II-FLOW-1
    calm = {"do": "use_skill", "character": "Bram", "skill": "Calm Voice", "faces": HIGH_MEDICINE}
    state, _ = h.run([h.ACTION, {"do": "complex_obstacle", "obstruction": 20}, calm])
    assert _refused(state, calm).rule == "II-COMPLEX-5"
    assert (
        _refused(state, {"do": "regular_action", "character": "Bram", "choice": "auto"}).rule
        == "II-COMPLEX-5"
    )
    fight, _ = h.run(
        [{"do": "start_scene", "kind": "conflict"}, {"do": "start_conflict", "enemies": [h.GUARD]}, calm]
    )
    assert _refused(fight, calm).rule == "II-FLOW-1"
    assert fight.scene.conflict.acted == ("Bram",)


def test_advanced_action_odds_are_shown_before_the_click(h: Any) -> None:
    """The odds answer lists each advanced Skill's Advanced Action with its exact P(success) and Crisis."""
    # rule: II-SKILL-5 II-ODDS-1
    state, _ = h.run([h.ACTION, {"do": "adjust_crisis", "amount": 12}])
    rows = {r["skill"]: r for r in odds(state, {"character": "Bram"})["advanced"]}
    assert set(rows) == {"Field Dressing", "Calm Voice", "Bedside Manner"}
    rules = default_rules()
    dist = total_distribution(5, (8,), 20, rules=rules)
    p = dist.p_at_least(20)
    crisis = dist.expectation(lambda t: 2 if t >= 20 else failure_crisis(t, 20, rules))
    calm = rows["Calm Voice"]
    assert calm["rolled"] and calm["can_act"] and calm["d6"] == 5 and calm["talent_dice"] == ["d8"]
    assert Fraction(calm["p_success_exact"]) == p and Fraction(calm["expected_crisis_exact"]) == crisis
    coop, _ = h.run([COOP])
    assert odds(coop, {"character": "Bram"})["advanced"][0]["rolled"] is False


def test_a_character_acts_only_on_the_obstacle_the_gm_presented(h: Any) -> None:
    """No Simple Obstacle in play (none yet, or the last one passed): acting on one is refused."""
    # rule: II-SIMPLE-4 II-SIMPLE-1
    state, _ = h.run([h.ACTION])
    auto = {"do": "simple_obstacle", "character": "Ada", "choice": "auto"}
    before = state
    assert _refused(state, auto).rule == "II-SIMPLE-4" and state == before
    answer = odds(state, {"character": "Ada"})
    assert answer["can_act"] is False and "no obstacle" in answer["reason"]
    state, _ = h.run([h.OBSTACLE], state=state)
    assert odds(state, {"character": "Ada"})["can_act"] is True
    state, _ = h.run([auto], state=state)
    assert state.rising_tension == 6 and state.scene.crisis == 4
    assert _refused(state, auto).rule == "II-SIMPLE-4"
    assert _refused(state, {**auto, "character": "Bram"}).rule == "II-SIMPLE-4"
    assert odds(state, {"character": "Bram"})["can_act"] is False
    old = new_state({"characters": [h.ADA], "variant": {"simple": {"gm_presents": False}}})
    played, _ = h.run([h.ACTION, auto], state=old)
    assert played.scene.obstacle.beaten


def test_a_complex_obstacle_odds_say_who_must_wait(h: Any) -> None:
    """After a Regular Action the same character's odds say it may not act again in a row."""
    # rule: II-COMPLEX-5
    state, _ = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 20},
            {"do": "regular_action", "character": "Ada", "choice": "auto"},
        ]
    )
    assert odds(state, {"character": "Ada"})["can_act"] is False
    assert odds(state, {"character": "Bram"})["can_act"] is True


@pytest.mark.parametrize("dice", [0, 10, 50])
@pytest.mark.parametrize(
    "command",
    [
        {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting"},
        {"do": "ability_roll", "character": "Ada", "ability": "nimbleness"},
        {"do": "use_skill", "character": "Bram", "skill": "Calm Voice"},
    ],
)
def test_every_base_d6_count_lies_in_the_difficulty_range(h: Any, command: dict[str, Any], dice: int) -> None:
    """A per-action dice: of 0, 10 or 50 is refused like a scene difficulty out of 1–9."""
    # rule: II-ROLL-5
    state, _ = h.run([h.ACTION, h.OBSTACLE])
    error = _refused(state, {**command, "dice": dice})
    assert isinstance(error, MalformedCommand) and error.rule == "II-ROLL-5" and error.path == "dice"
    with pytest.raises(MalformedCommand) as query:
        odds(state, {"character": "Ada", "dice": dice})
    assert query.value.rule == "II-ROLL-5"
    assert not isinstance(error, IllegalCommand)


def test_an_enemy_is_offered_no_advanced_action(h: Any) -> None:
    """An enemy is no character of the campaign: its odds list no Advanced Action the server would refuse."""
    # rule: II-SKILL-5 II-FLOW-1
    medic = {**h.BRAM, "name": "Field Medic"}
    state, _ = h.run(
        [{"do": "start_scene", "kind": "conflict"}, {"do": "start_conflict", "enemies": [medic]}]
    )
    assert odds(state, {"character": "Field Medic", "target": "Ada"})["advanced"] == []
    assert _refused(state, {"do": "use_skill", "character": "Field Medic", "skill": "Calm Voice"}).code == (
        "unknown_character"
    )
