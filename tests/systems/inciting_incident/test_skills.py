"""Skills: modifiers with a roll, advanced actions, structured effects, recreation and learning."""

from __future__ import annotations

from typing import Any

import pytest

from talespin.systems.errors import IllegalCommand
from talespin.systems.inciting_incident import decide, new_state

LOW7 = [[1], [1], [1], [1], [1], [1], [1]]
LOW8 = [[1], [1], [1], [1], [1], [1], [1], [1]]
HIGH = [[6, 6, 6, 1], [5], [5], [5], [5], [4], [4]]
HIGH_MEDICINE = [[6, 6, 1], [5], [5], [1], [1], [8, 1]]
"""Bram's Medicine (1d8) at difficulty 5: a total of 34, a success."""
LOW_MEDICINE = [[1], [1], [1], [1], [1], [1]]
"""Bram's Medicine at difficulty 5: a total of 6, a failure by 14."""
GLIDE = {"name": "Glide", "cost": 6, "kind": "modifier", "effects": {"obstruction": 3}}


def test_modifier_skills_go_with_a_roll_of_their_talent(h: Any) -> None:
    """A modifier Skill changes a roll of its Talent; an advanced one is its own action."""
    # rule: II-SKILL-1
    state, events = h.run(
        [
            h.ACTION,
            h.OBSTACLE,
            {
                "do": "simple_obstacle",
                "character": "Ada",
                "talent": "Piloting",
                "skills": ["Barrel Roll"],
                "faces": LOW8,
            },
        ]
    )
    assert h.last(events, "TalentRolled").data["d6"] == 6
    assert h.last(events, "SkillUsed").data["skill"] == "Barrel Roll"
    state, _ = h.run([h.ACTION, h.OBSTACLE])
    for command in (
        {"do": "simple_obstacle", "character": "Ada", "talent": "Quickdraw", "skills": ["Barrel Roll"]},
        {"do": "use_skill", "character": "Ada", "skill": "Barrel Roll"},
        {"do": "simple_obstacle", "character": "Bram", "talent": "Medicine", "skills": ["Calm Voice"]},
    ):
        with pytest.raises(IllegalCommand) as refused:
            decide(state, command, None)
        assert refused.value.rule == "II-SKILL-1"


def test_structured_effects(h: Any) -> None:
    """crisis, protect, reduce_crisis and heal effects apply; a Skill without effects is narrative."""
    # rule: II-SKILL-2
    state, events = h.run(
        [
            {**h.ACTION, "triggers": [{"at": 1, "text": "Sparks"}]},
            h.OBSTACLE,
            {
                "do": "simple_obstacle",
                "character": "Ada",
                "talent": "Piloting",
                "skills": ["Steady Hands", "Show Off"],
                "faces": HIGH,
            },
        ]
    )
    assert state.scene.crisis == 1  # 2 − 1
    fired = h.last(events, "TriggerFired").data
    assert fired["protected"] is True and fired["affects"] is None and fired["character"] == "Ada"
    assert [e.data["narrative"] for e in events if e.type == "SkillUsed"] == [False, True]
    use = {"do": "use_skill", "character": "Bram", "skill": "Bedside Manner", "faces": HIGH_MEDICINE}
    state, events = h.run([use], state=state)
    assert h.last(events, "SkillUsed").data["narrative"] is True and state.scene.crisis == 1 + 2


def test_obstruction_and_heal_effects(h: Any) -> None:
    """An obstruction effect lowers Obstruction further on success; heal removes wounds."""
    # rule: II-SKILL-2
    sheet = {**h.ADA, "talents": [{**h.ADA["talents"][0], "skills": [GLIDE]}]}
    state = new_state({"characters": [sheet, h.BRAM]})
    state, _ = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 40},
            {
                "do": "regular_action",
                "character": "Ada",
                "talent": "Piloting",
                "skills": ["Glide"],
                "faces": HIGH,
            },
        ],
        state=state,
    )
    assert state.scene.obstacle.obstruction == 40 - 27 - 3


def test_recreate_skill_roll_and_crisis(h: Any) -> None:
    """Recreating rolls 5d6 with Disadvantage = cost, adds Crisis = cost; success applies the effect."""
    # rule: II-SKILL-3
    state, events = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 40},
            {
                "do": "recreate_skill",
                "character": "Ada",
                "talent": "Piloting",
                "skill": GLIDE,
                "faces": [[6, 6, 1], [5], [6, 6, 2], [4]],
            },
        ]
    )
    rolled = h.last(events, "TalentRolled").data
    assert rolled["base_d6"] == 5 and rolled["disadvantage"] == 6 and rolled["d6"] == 2
    assert state.scene.crisis == 6
    assert h.last(events, "SkillRecreated").data["success"] is True
    state, events = h.run(
        [{"do": "regular_action", "character": "Ada", "talent": "Piloting", "faces": HIGH}], state=state
    )
    assert state.scene.obstacle.obstruction == 40 - 27 - 3
    assert state.scene.prepared == ()


def test_failed_modifier_gives_follow_up_disadvantage(h: Any) -> None:
    """A failed modifier recreation leaves 1 Disadvantage per full 5 of cost on the next roll."""
    # rule: II-SKILL-3
    big = {"name": "Loop", "cost": 11, "kind": "modifier", "effects": {"advantage": 3}}
    state, events = h.run(
        [
            h.ACTION,
            {
                "do": "recreate_skill",
                "character": "Ada",
                "talent": "Piloting",
                "skill": big,
                "faces": [[1], [1], [1]],
            },
        ]
    )
    assert h.last(events, "SkillRecreated").data["success"] is False and state.scene.crisis == 11
    state, events = h.run(
        [h.OBSTACLE, {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "faces": LOW7[:6]}],
        state=state,
    )
    assert h.last(events, "TalentRolled").data["disadvantage"] == 2


def test_advanced_recreation(h: Any) -> None:
    """A recreated advanced Skill acts on success; a failed one does nothing more."""
    # rule: II-SKILL-3
    soothe = {"name": "Soothe", "cost": 1, "kind": "advanced", "effects": {"reduce_crisis": 5}}
    state, _ = h.run(
        [
            h.ACTION,
            {"do": "adjust_crisis", "amount": 10},
            {
                "do": "recreate_skill",
                "character": "Ada",
                "talent": "Piloting",
                "skill": soothe,
                "faces": [[6, 6, 6, 1], [3], [3], [3], [2], [2]],
            },
        ]
    )
    assert state.scene.crisis == 10 + 1 - 5
    state, _ = h.run(
        [
            {
                "do": "recreate_skill",
                "character": "Ada",
                "talent": "Piloting",
                "skill": soothe,
                "faces": [[1], [1], [1], [1], [1], [1]],
            }
        ],
        state=state,
    )
    assert state.scene.crisis == 7
    with pytest.raises(IllegalCommand) as refused:
        decide(
            state,
            {
                "do": "recreate_skill",
                "character": "Ada",
                "talent": "Piloting",
                "skill": {"name": "Barrel Roll", "cost": 1, "kind": "modifier"},
            },
            None,
        )
    assert refused.value.rule == "II-SKILL-3"


def test_a_skill_is_learned_without_recreation_by_default(h: Any) -> None:
    """The optional learning rule is off as shipped: a cooperative scene's change may add a new Skill."""
    # rule: II-SKILL-4
    state, _ = h.run(
        [
            {"do": "start_scene", "kind": "cooperative"},
            {"do": "learn", "character": "Ada", "talent": "Piloting", "skill": GLIDE},
        ]
    )
    skills = [s.name for s in state.members[0].sheet.talent("Piloting").skills]
    assert GLIDE["name"] in skills


def test_optional_learning_rule(h: Any) -> None:
    """With the optional rule on, a Skill is learned only after one successful recreation."""
    # rule: II-SKILL-4 II-SCENE-2
    setup = {"characters": [h.ADA, h.BRAM], "variant": {"skills": {"learning_requires_recreation": True}}}
    state, _ = h.run([{"do": "start_scene", "kind": "cooperative"}], setup=setup)
    learn = {"do": "learn", "character": "Ada", "talent": "Piloting", "skill": GLIDE}
    with pytest.raises(IllegalCommand) as refused:
        decide(state, learn, None)
    assert refused.value.rule == "II-SKILL-4"
    state, _ = h.run(
        [
            h.ACTION,
            {
                "do": "recreate_skill",
                "character": "Ada",
                "talent": "Piloting",
                "skill": GLIDE,
                "faces": [[6, 6, 1], [5], [6, 6, 2], [4]],
            },
            {"do": "start_scene", "kind": "cooperative"},
            learn,
        ],
        setup=setup,
    )
    assert any(s.name == "Glide" for s in state.members[0].sheet.talents[0].skills)


def test_a_skill_named_twice_in_one_action_is_refused(h: Any) -> None:
    """Naming one modifier Skill twice would add its effect twice; it is refused and nothing is rolled."""
    # rule: II-SKILL-1 II-SKILL-2
    state, _ = h.run([h.ACTION, h.OBSTACLE])
    command = {
        "do": "simple_obstacle",
        "character": "Ada",
        "talent": "Piloting",
        "skills": ["Barrel Roll", "Barrel Roll"],
    }
    with pytest.raises(IllegalCommand, match="named twice") as refused:
        decide(state, command, None)
    assert refused.value.rule == "II-SKILL-1"
    assert state.scene.crisis == 0


def test_recreating_keeps_the_rules_base_and_carries_no_other_skill(h: Any) -> None:
    """A recreation always starts from the rules' 5d6: a dice override or another Skill is refused."""
    # rule: II-SKILL-3
    from talespin.systems.errors import MalformedCommand

    state, _ = h.run([h.ACTION])
    base = {"do": "recreate_skill", "character": "Ada", "talent": "Piloting", "skill": GLIDE}
    for extra in ({"dice": 9}, {"skills": ["Barrel Roll"]}):
        with pytest.raises(MalformedCommand, match="unknown key"):
            decide(state, {**base, **extra}, None)
    assert state.scene.crisis == 0
