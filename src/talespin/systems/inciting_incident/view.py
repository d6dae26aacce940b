"""``view(state, role)`` and ``redact(event)``: the state and events as a GM or a player may see them.

The shape is the one of ``docs/state-views.md``. Players never receive a GM-only Trigger that has not fired;
one that has is named by its place among the GM-only Triggers they have seen fire (-1, -2, …, in the order
they first fired: ``GameState.revealed_triggers``), never by the GM's id, which counts the unfired ones too.
A blind roll (``visibility: gm``) reaches them only as ``BlindRollMade`` with the character's name.
"""

from __future__ import annotations

from typing import Any

from ..protocol import Event, Role
from ..registry import registered
from .sheet import defences, max_hits, sheet_cost
from .state import GameState, Obstacle, Scene

__all__ = ["ROLL_EVENTS", "redact", "view"]

ROLL_EVENTS = frozenset({"TalentRolled", "AbilityRolled"})


def _obstacle(obstacle: Obstacle | None) -> dict[str, Any] | None:
    if obstacle is None:
        return None
    return {
        "kind": obstacle.kind,
        "obstruction": obstacle.obstruction,
        "attempts": obstacle.attempts,
        "attempts_left": obstacle.attempts_left,
        "beaten": obstacle.beaten,
        "difficulty": obstacle.difficulty,
        "last_actor": obstacle.last_actor,
        "used_talents": {name: list(talents) for name, talents in obstacle.used_talents},
        "presented_to": obstacle.presented_to,
        "must_pass": list(obstacle.must_pass),
        "passed": list(obstacle.passed),
    }


def _scene(state: GameState, scene: Scene, role: Role) -> dict[str, Any]:
    triggers = [
        {
            "id": t.id if role == "gm" else state.shown_trigger_id(t),
            "at": t.at,
            "every": t.every,
            "text": t.text,
            "visibility": t.visibility,
            "fired": list(t.fired),
        }
        for t in scene.triggers
        if role == "gm" or t.visibility != "gm" or t.fired
    ]
    conflict = None
    if scene.conflict is not None:
        c = scene.conflict
        conflict = {
            "flow": c.flow,
            "round": c.round,
            "acted": list(c.acted),
            "ended": c.ended,
            "winner": c.winner,
            "enemies": [
                {"name": e.name, "wounds": e.wounds, "max_hits": e.max_hits, "out": e.name in c.out}
                for e in c.enemies
            ],
            "out": list(c.out),
        }
    body: dict[str, Any] = {
        "number": scene.number,
        "kind": scene.kind,
        "difficulty": scene.difficulty,
        "location": scene.location,
        "present": list(scene.present),
        "montage": scene.montage,
        "restful": scene.restful,
        "crisis": scene.crisis,
        "triggers": triggers,
        "obstacle": _obstacle(scene.obstacle),
        "conflict": conflict,
        "changed_this_scene": list(scene.changed),
    }
    if role == "gm":
        body["prepared"] = [
            {"character": p.character, "disadvantage": p.disadvantage, "effects": dict(p.effects)}
            for p in scene.prepared
        ]
    return body


def view(state: GameState, role: Role) -> dict[str, Any]:
    """The campaign as JSON for ``role`` (``"gm"`` sees everything)."""
    rules = state.rules
    characters = [
        {
            "name": m.name,
            "sheet": m.sheet.to_json(),
            "cost": sheet_cost(m.sheet, rules),
            "wounds": m.wounds,
            "max_hits": max_hits(m.sheet, rules),
            "defences": defences(m.sheet, rules),
            "talent_dice": {
                t.name: [f"d{size}" for size in rules.levels.dice[t.level]] for t in m.sheet.talents
            },
        }
        for m in state.members
    ]
    scene = state.scene
    return {
        "system": registered(__package__ or __name__).name,
        "rules_version": rules.version,
        "rising_tension": state.rising_tension,
        "cooperative_streak": state.cooperative_streak,
        "scenes_played": state.scenes_played,
        "characters": characters,
        "scene": None if scene is None else _scene(state, scene, role),
        "wounds": {m.name: m.wounds for m in state.members},
        "obstacle_beaten": bool(scene and scene.obstacle and scene.obstacle.beaten),
        "changeable": list(rules.scenes.changeable),
    }


def redact(event: Event) -> Event | None:
    """The event as a player may see it: blind rolls become ``BlindRollMade``; other GM-only events vanish.

    A GM-only Trigger's ``TriggerFired`` names it by ``shown_as``, the number players know it by.
    """
    if event.type == "TriggerFired" and "shown_as" in event.data:
        return Event(event.type, {**event.data, "trigger": event.data["shown_as"]}, event.visibility)
    if event.visibility != "gm":
        return event
    if event.type in ROLL_EVENTS:
        return Event("BlindRollMade", {"character": event.data.get("character")}, "public")
    return None
