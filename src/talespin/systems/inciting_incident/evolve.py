"""``evolve(state, event) -> state``: apply one event to the frozen state.

Events carry the values they set (the new Crisis, the new Rising Tension, every rolled face), so applying
them needs no generator and no rule arithmetic: replaying a campaign's events reproduces its state exactly.
Roll events and narrative records (``TalentRolled``, ``SkillUsed``) change nothing; they are the audit trail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Final

from ..errors import MalformedCommand
from ..protocol import Event
from .sheet import Character
from .state import Combatant, Conflict, GameState, Member, Obstacle, Prepared, Scene, Trigger

__all__ = ["EVENT_TYPES", "evolve"]

Data = Mapping[str, Any]


def _scene(state: GameState) -> Scene:
    if state.scene is None:
        raise MalformedCommand("this event needs a scene in play", code="bad_event")
    return state.scene


def _with_scene(state: GameState, **changes: Any) -> GameState:
    return replace(state, scene=replace(_scene(state), **changes))


def _obstacle(state: GameState, **changes: Any) -> GameState:
    obstacle = _scene(state).obstacle
    assert obstacle is not None, "an obstacle event needs an obstacle"  # events come from decide
    return _with_scene(state, obstacle=replace(obstacle, **changes))


def _conflict(state: GameState, **changes: Any) -> GameState:
    conflict = _scene(state).conflict
    assert conflict is not None, "a conflict event needs a conflict"
    return _with_scene(state, conflict=replace(conflict, **changes))


def _member(state: GameState, name: str, **changes: Any) -> GameState:
    members = tuple(replace(m, **changes) if m.name == name else m for m in state.members)
    return replace(state, members=members)


def _changed(state: GameState, name: str) -> GameState:
    scene = _scene(state)
    return _with_scene(state, changed=(*scene.changed, name)) if name not in scene.changed else state


def _character_added(s: GameState, d: Data) -> GameState:
    return replace(s, members=(*s.members, Member(Character.model_validate(d["sheet"]))))


def _character_changed(s: GameState, d: Data) -> GameState:
    return _changed(_member(s, d["character"], sheet=Character.model_validate(d["sheet"])), d["character"])


def _wounds_healed(s: GameState, d: Data) -> GameState:
    healed = _member(s, d["character"], wounds=d["wounds"])
    return _changed(healed, d["character"]) if d.get("scene_change") else healed


def _scene_started(s: GameState, d: Data) -> GameState:
    scene = Scene(
        number=d["number"],
        kind=d["kind"],
        difficulty=d["difficulty"],
        location=d["location"],
        present=tuple(d["present"]),
        montage=d["montage"],
        restful=d["restful"],
    )
    return replace(s, scene=scene, scenes_played=d["number"], cooperative_streak=d["cooperative_streak"])


def _trigger_added(s: GameState, d: Data) -> GameState:
    trigger = Trigger(d["trigger"], d["at"], d["every"], d["text"], d["visibility"])
    added = _with_scene(s, triggers=(*_scene(s).triggers, trigger))
    if d["trigger"] < 0:  # GM-only, numbered apart (a record made before that numbered them with the rest)
        return replace(added, next_hidden_trigger_id=min(s.next_hidden_trigger_id, d["trigger"] - 1))
    return replace(added, next_trigger_id=max(s.next_trigger_id, d["trigger"] + 1))


def _trigger_update(
    s: GameState, trigger_id: int, fired: Callable[[tuple[int, ...]], tuple[int, ...]]
) -> GameState:
    triggers = tuple(
        replace(t, fired=fired(t.fired)) if t.id == trigger_id else t for t in _scene(s).triggers
    )
    return _with_scene(s, triggers=triggers)


def _trigger_fired(s: GameState, d: Data) -> GameState:
    hidden = any(t.id == d["trigger"] and t.visibility == "gm" for t in _scene(s).triggers)
    if hidden and d["trigger"] not in s.revealed_triggers:  # players see it now: it takes the next number
        s = replace(s, revealed_triggers=(*s.revealed_triggers, d["trigger"]))
    return _trigger_update(s, d["trigger"], lambda f: f if d["value"] in f else (*f, d["value"]))


def _trigger_rearmed(s: GameState, d: Data) -> GameState:
    return _trigger_update(s, d["trigger"], lambda f: tuple(v for v in f if v not in d["values"]))


def _tension(s: GameState, d: Data) -> GameState:
    s = replace(s, rising_tension=d["rising_tension"])
    if d.get("rest_scene") is not None:
        s = replace(s, last_rest_scene=d["rest_scene"])
    if d.get("on") == "disadvantage" and d.get("character"):
        s = _prepare(
            s, {"character": d["character"], "disadvantage": d["count"], "effects": {}, "skill": "GM"}
        )
    return s


def _prepare(s: GameState, d: Data) -> GameState:
    scene = _scene(s)
    old = scene.prepared_for(d["character"]) or Prepared(d["character"])
    effects = dict(old.effects)
    for key, value in d["effects"].items():
        effects[key] = effects.get(key, 0) + value
    new = Prepared(
        d["character"],
        old.disadvantage + d["disadvantage"],
        tuple(sorted(effects.items())),
        (*old.sources, d["skill"]),
    )
    rest = tuple(p for p in scene.prepared if p.character != d["character"])
    return _with_scene(s, prepared=(*rest, new))


def _preparation_used(s: GameState, d: Data) -> GameState:
    return _with_scene(s, prepared=tuple(p for p in _scene(s).prepared if p.character != d["character"]))


def _skill_recreated(s: GameState, d: Data) -> GameState:
    key = (d["character"], d["skill"])
    if d["success"] and key not in s.recreated:
        return replace(s, recreated=(*s.recreated, key))
    return s


def _simple_presented(s: GameState, d: Data) -> GameState:
    obstacle = Obstacle("simple", presented_to=d["to"], must_pass=tuple(d["must_pass"]))
    return _with_scene(s, obstacle=obstacle)


def _simple_faced(s: GameState, d: Data) -> GameState:
    obstacle = _scene(s).obstacle
    assert obstacle is not None
    return _obstacle(s, passed=(*obstacle.passed, d["character"]))


def _complex_set(s: GameState, d: Data) -> GameState:
    obstacle = Obstacle(
        "complex", d["obstruction"], d["attempts"], d["attempts"], difficulty=d.get("difficulty")
    )
    return _with_scene(s, obstacle=obstacle)


def _regular_taken(s: GameState, d: Data) -> GameState:
    obstacle = _scene(s).obstacle
    assert obstacle is not None
    used = dict(obstacle.used_talents)
    if d["talent"] is not None:
        used[d["character"]] = (*used.get(d["character"], ()), d["talent"])
    return _obstacle(s, last_actor=d["character"], used_talents=tuple(sorted(used.items())))


def _enemies(d: Data) -> tuple[Combatant, ...]:
    return tuple(Combatant(Character.model_validate(e["sheet"]), e["max_hits"]) for e in d["enemies"])


def _conflict_of(s: GameState) -> Conflict:
    conflict = _scene(s).conflict
    assert conflict is not None, "a conflict event needs a conflict"
    return conflict


def _wound_taken(s: GameState, d: Data) -> GameState:
    if d["side"] == "characters":
        return _member(s, d["character"], wounds=d["wounds"])
    conflict = _scene(s).conflict
    assert conflict is not None
    enemies = tuple(
        replace(e, wounds=d["wounds"]) if e.name == d["character"] else e for e in conflict.enemies
    )
    return _conflict(s, enemies=enemies)


def _attack_made(s: GameState, d: Data) -> GameState:
    conflict = _scene(s).conflict
    assert conflict is not None
    return _conflict(s, acted=(*conflict.acted, d["attacker"]))


def _taken_out(s: GameState, d: Data) -> GameState:
    conflict = _scene(s).conflict
    assert conflict is not None
    return _conflict(s, out=(*conflict.out, d["character"]))


def _advanced_taken(s: GameState, d: Data) -> GameState:
    """II-SKILL-5: an Advanced Action is the character's action on the obstacle and in the round."""
    if d.get("on_obstacle"):
        s = _obstacle(s, last_actor=d["character"])
    if d.get("in_conflict"):
        s = _attack_made(s, {"attacker": d["character"]})
    return s


def _skill_used(s: GameState, d: Data) -> GameState:
    return _changed(s, d["character"]) if d.get("scene_change") else s


def _unchanged(s: GameState, d: Data) -> GameState:
    return s


_APPLY: dict[str, Callable[[GameState, Data], GameState]] = {
    "CharacterAdded": _character_added,
    "CharacterChanged": _character_changed,
    "WoundsHealed": _wounds_healed,
    "SceneStarted": _scene_started,
    "SceneEnded": lambda s, d: replace(s, scene=None),
    "TriggerAdded": _trigger_added,
    "TriggerFired": _trigger_fired,
    "TriggerRearmed": _trigger_rearmed,
    "CrisisRaised": lambda s, d: _with_scene(s, crisis=d["crisis"]),
    "CrisisLowered": lambda s, d: _with_scene(s, crisis=d["crisis"]),
    "RisingTensionGained": _tension,
    "RisingTensionSpent": _tension,
    "RisingTensionLowered": _tension,
    "SkillPrepared": _prepare,
    "PreparationUsed": _preparation_used,
    "SkillRecreated": _skill_recreated,
    "SimpleObstaclePresented": _simple_presented,
    "SimpleObstacleFaced": _simple_faced,
    "ObstaclePassed": lambda s, d: _obstacle(s, beaten=True),
    "ComplexObstacleSet": _complex_set,
    "RegularActionTaken": _regular_taken,
    "ObstructionReduced": lambda s, d: _obstacle(s, obstruction=d["obstruction"]),
    "DecisiveActionTaken": lambda s, d: _obstacle(
        s, attempts_left=d["attempts_left"], last_actor=d["character"]
    ),
    "ObstacleBeaten": lambda s, d: _obstacle(s, beaten=True),
    "ConflictStarted": lambda s, d: _with_scene(s, conflict=Conflict(d["flow"], _enemies(d))),
    "EnemiesJoined": lambda s, d: _conflict(s, enemies=(*_conflict_of(s).enemies, *_enemies(d))),
    "AttackMade": _attack_made,
    "Moved": lambda s, d: _attack_made(s, {"attacker": d["character"]}),
    "RoundStarted": lambda s, d: _conflict(s, round=d["round"], acted=()),
    "FlowShifted": lambda s, d: _conflict(s, flow=d["flow"]),
    "WoundTaken": _wound_taken,
    "TakenOut": _taken_out,
    "ConflictEnded": lambda s, d: _conflict(s, ended=True, winner=d["winner"]),
    "TalentRolled": _unchanged,
    "AbilityRolled": _unchanged,
    "SkillUsed": _skill_used,
    "AdvancedActionTaken": _advanced_taken,
    "SideYielded": _unchanged,
}

EVENT_TYPES: Final = frozenset(_APPLY)
"""Every event type of Inciting Incident: the ones :func:`evolve` folds (it refuses any other)."""


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``; an unknown event type is refused (it would make replays diverge)."""
    apply = _APPLY.get(event.type)
    if apply is None:
        raise MalformedCommand(f"unknown Inciting Incident event {event.type!r}", code="bad_event")
    return apply(state, event.data)
