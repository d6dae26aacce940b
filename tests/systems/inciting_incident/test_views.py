"""view(), redact(), actors() and the registry entry."""

from __future__ import annotations

from typing import Any

from talespin.systems import get_system
from talespin.systems.inciting_incident import SYSTEM, actors, new_state, redact, view


def test_registry_finds_the_system() -> None:
    """get_system('ii') returns the Inciting Incident system."""
    assert get_system("ii") is SYSTEM and get_system("inciting-incident").name == "inciting-incident"


def test_view_shape(h: Any) -> None:
    """view() has the keys of docs/state-views.md."""
    state, _ = h.run(
        [
            {**h.ACTION, "triggers": [{"at": 10, "every": 10, "text": "A patrol arrives"}]},
            {"do": "complex_obstacle", "obstruction": 30, "attempts": 2},
            {"do": "regular_action", "character": "Ada", "talent": "Piloting"},
        ]
    )
    body = view(state, "gm")
    assert {
        "system",
        "rules_version",
        "rising_tension",
        "cooperative_streak",
        "characters",
        "scene",
        "wounds",
        "obstacle_beaten",
    } <= set(body)
    ada = body["characters"][0]
    assert ada["cost"] == 62 and ada["max_hits"] == 4
    assert ada["defences"] == {"fortitude": 6, "perseverance": 5, "nimbleness": 4}
    scene = body["scene"]
    assert {"kind", "difficulty", "crisis", "triggers", "obstacle", "conflict", "changed_this_scene"} <= set(
        scene
    )
    assert scene["triggers"][0] == {
        "id": 1,
        "at": 10,
        "every": 10,
        "text": "A patrol arrives",
        "visibility": "public",
        "fired": scene["triggers"][0]["fired"],
    }
    assert (
        scene["obstacle"]["used_talents"] == {"Ada": ["Piloting"]}
        and scene["obstacle"]["last_actor"] == "Ada"
    )
    assert body["wounds"] == {"Ada": 0, "Bram": 0}


def test_players_never_see_unfired_gm_triggers(h: Any) -> None:
    """A GM-only Trigger is absent from a player's view until it fires."""
    # rule: II-CRISIS-2
    state, _ = h.run([h.ACTION, {"do": "add_trigger", "at": 5, "text": "Trap", "visibility": "gm"}])
    assert view(state, "player")["scene"]["triggers"] == []
    assert view(state, "gm")["scene"]["triggers"][0]["text"] == "Trap"
    state, _ = h.run([{"do": "adjust_crisis", "amount": 5}], state=state)
    assert view(state, "player")["scene"]["triggers"][0]["fired"] == [5]


def test_blind_roll_is_redacted(h: Any) -> None:
    """A blind roll's events are GM-only; players see only BlindRollMade with the character."""
    state, events = h.run(
        [
            h.ACTION,
            h.OBSTACLE,
            {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "visibility": "gm"},
        ]
    )
    rolled = h.last(events, "TalentRolled")
    assert rolled.visibility == "gm"
    shown = redact(rolled)
    assert shown is not None and shown.to_json() == {
        "type": "BlindRollMade",
        "data": {"character": "Ada"},
        "visibility": "public",
    }
    assert redact(h.last(events, "CrisisRaised")) is None
    added = h.run([{"do": "add_trigger", "at": 50, "text": "x", "visibility": "gm"}], state=state)[1][0]
    assert redact(added) is None
    public = h.last(events, "SceneStarted")
    assert redact(public) is public


def test_actors_names_the_acting_character() -> None:
    """actors() is the character of a character action (not its target); none for the GM's commands."""
    state = new_state({})
    assert actors(state, {"do": "regular_action", "character": "Ada"}) == {"Ada"}
    assert actors(state, {"do": "regular_attack", "character": "Guard", "target": "Ada"}) == {"Guard"}
    for gm in ("start_scene", "adjust_crisis", "spend_tension", "add_character", "complex_obstacle"):
        assert actors(state, {"do": gm, "character": "Ada"}) == frozenset()
