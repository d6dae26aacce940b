"""Scenes, cooperative streaks, changes and heals, and Rising Tension."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from talespin.systems.errors import IllegalCommand, MalformedCommand
from talespin.systems.inciting_incident import decide

COOP = {"do": "start_scene", "kind": "cooperative"}


def test_scene_kinds_and_new_scenes(h: Any) -> None:
    """A scene has a kind, a location and the characters present; starting another ends the first."""
    # rule: II-SCENE-1
    state, events = h.run(
        [
            {"do": "start_scene", "kind": "action", "location": "Docks", "present": ["Ada"]},
            {"do": "start_scene", "kind": "conflict", "location": "Roof"},
        ]
    )
    assert h.types(events) == ["SceneStarted", "SceneEnded", "SceneStarted"]
    assert state.scene.kind == "conflict" and state.scene.location == "Roof"
    assert state.scene.present == ("Ada", "Bram") and state.scenes_played == 2
    with pytest.raises(MalformedCommand) as refused:
        decide(state, {"do": "start_scene", "kind": "dream"}, None)
    assert refused.value.rule == "II-SCENE-1"
    with pytest.raises(IllegalCommand):
        decide(h.run([{"do": "end_scene"}], state=state)[0], {"do": "end_scene"}, None)


def test_cooperative_streaks_generate_tension(h: Any) -> None:
    """Consecutive cooperative scenes add 0, 1, 2, …; a montage counts; other scenes reset the streak."""
    # rule: II-SCENE-3 II-RT-2
    state, events = h.run([COOP, {"do": "start_scene", "montage": True}, COOP, h.ACTION, COOP, COOP])
    gains = [e.data["amount"] for e in events if e.type == "RisingTensionGained"]
    assert gains == [1, 2, 1]
    assert state.rising_tension == 5 + 4 and state.cooperative_streak == 2


def test_one_change_or_heal_per_character_per_cooperative_scene(h: Any) -> None:
    """Each character may change one Talent or Skill per cooperative scene; healing is apart from it."""
    # rule: II-SCENE-2
    upgrade = {"name": "Mechanics", "ability": "perseverance", "level": 4}
    state, _ = h.run([COOP, {"do": "learn", "character": "Ada", "talent": upgrade}])
    assert state.members[0].sheet.talent("Mechanics").level == 4
    state, events = h.run([{"do": "heal", "character": "Ada"}], state=state)
    assert h.last(events, "WoundsHealed").data["scene_change"] is False
    for command in (
        {"do": "learn", "character": "Ada", "talent": {**upgrade, "name": "Tinkering"}},
        {"do": "learn", "character": "Bram", "ability": "fortitude", "level": 9},
    ):
        with pytest.raises(IllegalCommand) as refused:
            decide(state, command, None)
        assert refused.value.rule == "II-SCENE-2"
    with pytest.raises(IllegalCommand) as broken:
        decide(
            state,
            {
                "do": "learn",
                "character": "Bram",
                "talent": {"name": "Art", "ability": "nimbleness", "level": 3},
            },
            None,
        )
    assert broken.value.rule == "II-CHAR-2"
    action, _ = h.run([h.ACTION])
    with pytest.raises(IllegalCommand):
        decide(action, {"do": "heal", "character": "Bram"}, None)


def test_heal_removes_all_wounds(h: Any) -> None:
    """Healing in a cooperative scene removes every wound."""
    # rule: II-SCENE-2 II-FLOW-3
    state, _ = h.run(
        [
            {"do": "start_scene", "kind": "conflict"},
            {"do": "start_conflict", "enemies": [h.GUARD]},
            {
                "do": "decisive_attack",
                "character": "Guard",
                "target": "Bram",
                "talent": "Spear",
                "faces": [[6, 6, 6, 6, 6, 1], [1], [1], [1], [1], [1], [1], [8, 1]],
            },
            COOP,
            {"do": "heal", "character": "Bram"},
        ]
    )
    assert state.members[1].wounds == 0


def test_heal_removes_every_wound_whatever_amount_is_asked(h: Any) -> None:
    """Two wounds, a heal asking for one: both are gone (healing removes all wounds)."""
    # rule: II-SCENE-2
    state, _ = h.run([COOP])
    hurt = dataclasses.replace(state.members[1], wounds=2)
    state = dataclasses.replace(state, members=(state.members[0], hurt, *state.members[2:]))
    state, events = h.run([{"do": "heal", "character": "Bram", "amount": 1}], state=state)
    assert state.members[1].wounds == 0
    assert h.last(events, "WoundsHealed").data["amount"] == 2


def test_action_scene_has_difficulty_triggers_obstacles(h: Any) -> None:
    """An action scene carries a difficulty, Triggers and obstacles."""
    # rule: II-SCENE-4
    state, _ = h.run(
        [
            {
                "do": "start_scene",
                "kind": "action",
                "difficulty": 3,
                "triggers": [{"at": 5, "text": "Smoke"}],
            },
            {"do": "complex_obstacle", "obstruction": 5},
        ]
    )
    assert state.scene.difficulty == 3 and len(state.scene.triggers) == 1 and state.scene.obstacle is not None
    with pytest.raises(IllegalCommand):
        decide(h.run([COOP])[0], {"do": "add_trigger", "at": 3, "text": "x"}, None)


def test_rising_tension_never_below_zero_with_causes(h: Any) -> None:
    """Rising Tension changes carry a cause and never drop below 0."""
    # rule: II-RT-1
    state, events = h.run(
        [{"do": "add_tension", "amount": 2, "reason": "the duke learns of it"}],
        setup={"characters": [h.ADA], "rising_tension": 0},
    )
    assert events[0].data["cause"] == "the duke learns of it" and state.rising_tension == 2
    state, events = h.run([COOP, {"do": "rest"}], setup={"characters": [h.ADA], "rising_tension": 0})
    assert state.rising_tension == 0 and h.last(events, "RisingTensionLowered").data["amount"] == 0
    with pytest.raises(MalformedCommand):
        decide(state, {"do": "add_tension", "amount": 2}, None)


def test_gm_spending_costs_and_overspend(h: Any) -> None:
    """The GM pays 1 per Disadvantage, 2 per Trigger or obstacle, 3 per enemy; over-spending is refused."""
    # rule: II-RT-3
    state, events = h.run(
        [
            h.ACTION,
            {"do": "spend_tension", "on": "disadvantage", "count": 2, "character": "Ada"},
            {"do": "add_trigger", "at": 9, "text": "Rockfall", "spend": True},
        ]
    )
    assert state.rising_tension == 5 - 2 - 2
    state, events = h.run(
        [
            h.OBSTACLE,
            {
                "do": "simple_obstacle",
                "character": "Ada",
                "talent": "Piloting",
                "faces": [[1], [1], [1], [1], [1], [1]],
            },
        ],
        state=state,
    )
    assert h.last(events, "TalentRolled").data["disadvantage"] == 2
    before = state
    with pytest.raises(IllegalCommand, match="only 1") as refused:
        decide(state, {"do": "spend_tension", "on": "enemy", "enemies": [h.GUARD]}, None)
    assert refused.value.rule == "II-RT-3"
    assert state == before


def test_restful_scene_once_per_three(h: Any) -> None:
    """A restful cooperative scene lowers Rising Tension by 1, at most once per 3 scenes."""
    # rule: II-RT-4
    state, _ = h.run([{"do": "start_scene", "kind": "cooperative", "restful": True}])
    assert state.rising_tension == 4 and state.last_rest_scene == 1
    state, _ = h.run([h.ACTION, COOP], state=state)
    with pytest.raises(IllegalCommand) as refused:
        decide(state, {"do": "rest"}, None)
    assert refused.value.rule == "II-RT-4"
    state, _ = h.run([COOP, {"do": "rest"}], state=state)
    assert state.last_rest_scene == 4
    with pytest.raises(IllegalCommand):
        decide(h.run([h.ACTION])[0], {"do": "rest"}, None)


def test_only_present_characters_act(h: Any) -> None:
    """A character who is not present in the scene cannot act in it."""
    # rule: II-SCENE-1
    state, _ = h.run([{"do": "start_scene", "kind": "action", "present": ["Ada"]}])
    with pytest.raises(IllegalCommand, match="not present") as refused:
        decide(state, {"do": "simple_obstacle", "character": "Bram", "choice": "auto"}, None)
    assert refused.value.rule == "II-SCENE-1"


def test_a_character_listed_twice_as_present_is_refused(h: Any) -> None:
    """A repeated name in present would make a lone character look like two (II-COMPLEX-5); it is refused."""
    # rule: II-SCENE-1 II-COMPLEX-5
    state, _ = h.run([])
    with pytest.raises(MalformedCommand, match="listed twice") as refused:
        decide(state, {"do": "start_scene", "kind": "action", "present": ["Ada", "Ada"]}, None)
    assert refused.value.path == "present[1]"
    assert state.scene is None


def test_a_bad_trigger_in_start_scene_names_its_place_and_starts_nothing(h: Any) -> None:
    """A malformed Trigger listed in start_scene is refused with the path triggers[i].key; no scene starts."""
    # rule: II-CRISIS-2 II-SCENE-4
    state, _ = h.run([])
    command = {"do": "start_scene", "kind": "action", "triggers": [{"at": 5, "text": "ok"}, {"at": -1}]}
    with pytest.raises(MalformedCommand) as refused:
        decide(state, command, None)
    assert refused.value.path == "triggers[1].at"
    assert state.scene is None


def test_disadvantage_bought_for_nobody_is_refused(h: Any) -> None:
    """Rising Tension spent on Disadvantage with no character to receive it is refused; nothing is spent."""
    # rule: II-RT-3
    state, _ = h.run([h.ACTION])
    with pytest.raises(MalformedCommand, match="needs character") as refused:
        decide(state, {"do": "spend_tension", "on": "disadvantage", "count": 2}, None)
    assert refused.value.rule == "II-RT-3" and refused.value.path == "character"
    assert state.rising_tension == 5


RAIDER = {"name": "Raider", "abilities": {"fortitude": 2, "perseverance": 2, "nimbleness": 3}}


@pytest.mark.parametrize(
    "setup",
    [
        [],
        [{"do": "start_scene", "kind": "action"}],
        [
            {"do": "start_scene", "kind": "conflict"},
            {"do": "start_conflict", "enemies": [RAIDER]},
            {"do": "end_conflict", "winner": "characters", "reason": "the guard flees"},
        ],
    ],
    ids=["no scene", "action scene", "conflict over"],
)
def test_enemy_bought_outside_a_conflict_is_refused(h: Any, setup: list[dict[str, Any]]) -> None:
    """Rising Tension spent on an enemy outside a conflict (none in play, or one that is over) is refused."""
    # rule: II-RT-3
    state, _ = h.run(setup)
    with pytest.raises(IllegalCommand, match="needs a conflict scene") as refused:
        decide(state, {"do": "spend_tension", "on": "enemy", "enemies": [h.GUARD]}, None)
    assert refused.value.rule == "II-RT-3"
    assert state.rising_tension == 5


def test_enemy_bought_in_a_conflict_scene_is_spent(h: Any) -> None:
    """In a conflict scene the GM buys an enemy (3 Rising Tension each): it starts or joins the conflict."""
    # rule: II-RT-3
    buy = {"do": "spend_tension", "on": "enemy", "enemies": [h.GUARD]}
    state, events = h.run(
        [{"do": "start_scene", "kind": "conflict"}, buy],
        setup={"characters": [h.ADA, h.BRAM], "rising_tension": 6},
    )
    assert h.last(events, "RisingTensionSpent").data["on"] == "enemy"
    assert state.rising_tension == 6 - 3 and [e.name for e in state.scene.conflict.enemies] == ["Guard"]
    state, events = h.run([{**buy, "enemies": [{**RAIDER}]}], state=state)
    assert h.types(events) == ["RisingTensionSpent", "EnemiesJoined"]
    assert state.rising_tension == 0 and [e.name for e in state.scene.conflict.enemies] == ["Guard", "Raider"]


def test_a_rest_that_lowers_nothing_is_not_used_up(h: Any) -> None:
    """Resting at Rising Tension 0 lowers nothing and leaves the once-per-3-scenes rest available."""
    # rule: II-RT-4 II-RT-1
    setup = {"characters": [h.ADA], "rising_tension": 0}
    state, events = h.run([COOP, {"do": "rest"}], setup=setup)
    lowered = h.last(events, "RisingTensionLowered").data
    assert lowered["amount"] == 0 and lowered["rest_scene"] is None
    assert state.rising_tension == 0 and state.last_rest_scene is None
    state, _ = h.run([{"do": "add_tension", "amount": 2, "reason": "the duke learns of it"}], state=state)
    state, events = h.run([{"do": "rest"}], state=state)
    assert h.last(events, "RisingTensionLowered").data["amount"] == 1
    assert state.rising_tension == 1 and state.last_rest_scene == 1
