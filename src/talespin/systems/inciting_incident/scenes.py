"""Scenes, Triggers, Crisis adjustments, Rising Tension and the characters of a campaign.

The GM's commands (``start_scene``, ``end_scene``, ``add_trigger``, ``rearm_trigger``, ``adjust_crisis``,
``add_tension``, ``spend_tension``) and the cooperative-scene commands (``rest``, ``learn``, ``heal``),
each adding its events to a :class:`~.draft.Draft` (II-SCENE-*, II-RT-*, II-CRISIS-*).
"""

from __future__ import annotations

from typing import Any

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand
from ..protocol import Command
from . import rule_ids as ids
from .commands import check_keys, opt_bool, opt_int, opt_str, req_int, req_str, str_list, visibility
from .draft import Draft
from .obstacles import check_difficulty
from .sheet import check_sheet, parse_sheet, sheet_cost

__all__ = [
    "add_character",
    "add_tension",
    "add_trigger",
    "adjust_crisis",
    "end_scene",
    "heal",
    "learn",
    "rearm_trigger",
    "rest",
    "spend_tension",
    "start_scene",
]


def add_character(draft: Draft, command: Command, rng: Rng) -> None:
    """Add a character from its sheet (every II-CHAR rule checked)."""
    check_keys(command, {"sheet"})
    sheet = parse_sheet(command.get("sheet"), draft.rules)
    if draft.state.member(sheet.name) is not None:
        raise MalformedCommand(
            f"a character called {sheet.name!r} already exists", code="duplicate_character", path="sheet.name"
        )
    draft.emit("CharacterAdded", {"sheet": sheet.to_json()})


def start_scene(draft: Draft, command: Command, rng: Rng) -> None:
    """II-SCENE-1/3/4: start a scene (ending the one in play); cooperative streaks gain Rising Tension."""
    check_keys(command, {"kind", "difficulty", "location", "present", "triggers", "montage", "restful"})
    rules = draft.rules
    montage = opt_bool(command, "montage")
    kind = command.get("kind", "cooperative" if montage else None)
    if kind not in rules.scenes.kinds:
        raise MalformedCommand(
            f"kind must be one of {', '.join(rules.scenes.kinds)}, got {kind!r}",
            code="bad_field",
            rule=ids.SCENE_1,
            path="kind",
        )
    if montage and kind != "cooperative":
        raise MalformedCommand(
            "a montage is a cooperative scene", code="bad_field", rule=ids.SCENE_1, path="montage"
        )
    difficulty = check_difficulty(draft, command)
    present = (
        str_list(command, "present") if "present" in command else tuple(m.name for m in draft.state.members)
    )
    for name in present:
        if draft.state.member(name) is None:
            raise MalformedCommand(
                f"unknown character {name!r} in present", code="unknown_character", path="present"
            )
    restful = opt_bool(command, "restful")
    if restful and kind != "cooperative":
        raise IllegalCommand("only a cooperative scene can be restful", rule=ids.RT_4)
    triggers = command.get("triggers", [])
    if not isinstance(triggers, list):
        raise MalformedCommand("triggers must be a list", code="bad_field", path="triggers")
    if triggers and kind == "cooperative":
        raise IllegalCommand("a cooperative scene has no Crisis, so no Triggers", rule=ids.CRISIS_1)
    if draft.state.scene is not None:
        draft.emit("SceneEnded", {"number": draft.state.scene.number})
    streak = draft.state.cooperative_streak + 1 if kind == "cooperative" else 0
    number = draft.state.scenes_played + 1
    data = {
        "number": number,
        "kind": kind,
        "difficulty": difficulty,
        "location": opt_str(command, "location"),
        "present": list(present),
        "montage": montage,
        "restful": restful,
        "cooperative_streak": streak,
    }
    draft.emit("SceneStarted", data)
    if streak:
        gain = rules.scenes.cooperative_first_gain + (streak - 1) * rules.scenes.cooperative_gain_step
        draft.gain_tension(gain, f"cooperative scene {streak} in a row", streak=streak)
    for index, raw in enumerate(triggers):
        if not isinstance(raw, dict):
            raise MalformedCommand(
                f"triggers[{index}] must be a mapping", code="bad_field", path=f"triggers[{index}]"
            )
        add_trigger(draft, {"do": "add_trigger", **raw}, rng)
    if restful:
        rest(draft, {"do": "rest"}, rng)


def end_scene(draft: Draft, command: Command, rng: Rng) -> None:
    """End the scene in play."""
    check_keys(command, set())
    draft.emit("SceneEnded", {"number": draft.scene().number})


def add_trigger(draft: Draft, command: Command, rng: Rng) -> None:
    """II-CRISIS-2: add a Trigger (GM-only ones stay hidden from players until they fire)."""
    check_keys(command, {"at", "every", "text", "visibility", "spend", "reason"})
    draft.scene("action", "conflict")
    at = req_int(command, "at", minimum=1, rule=ids.CRISIS_2)
    every = command.get("every")
    if every is not None:
        every = opt_int(command, "every", 1, minimum=1, rule=ids.CRISIS_2)
    text = req_str(command, "text")
    shown = visibility(command)
    if opt_bool(command, "spend"):
        draft.spend_tension("trigger", 1, opt_str(command, "reason"))
    data = {
        "trigger": draft.state.next_trigger_id,
        "at": at,
        "every": every,
        "text": text,
        "visibility": shown,
    }
    draft.emit("TriggerAdded", data, "gm" if shown == "gm" else "public")


def rearm_trigger(draft: Draft, command: Command, rng: Rng) -> None:
    """II-CRISIS-4: re-arm one fired value of a Trigger (or all of them) so it can fire again."""
    check_keys(command, {"trigger", "value"})
    trigger_id = req_int(command, "trigger")
    trigger = draft.scene().trigger(trigger_id)
    if trigger is None:
        raise MalformedCommand(
            f"no Trigger with id {trigger_id} in this scene", code="unknown_trigger", path="trigger"
        )
    if "value" in command:
        value = req_int(command, "value")
        if value not in trigger.fired:
            raise IllegalCommand(f"Trigger {trigger_id} has not fired at {value}", rule=ids.CRISIS_4)
        values = [value]
    else:
        values = list(trigger.fired)
    draft.emit(
        "TriggerRearmed",
        {"trigger": trigger_id, "values": values},
        "gm" if trigger.visibility == "gm" else None,
    )


def adjust_crisis(draft: Draft, command: Command, rng: Rng) -> None:
    """II-CRISIS-5: the GM raises or lowers Crisis by hand, with a reason."""
    check_keys(command, {"amount", "reason", "character"})
    draft.scene("action", "conflict")
    amount = req_int(command, "amount")
    cause = f"GM adjustment: {opt_str(command, 'reason') or 'no reason given'}"
    character = opt_str(command, "character")
    if amount >= 0:
        draft.raise_crisis(amount, cause, character)
    else:
        draft.lower_crisis(-amount, cause, character)


def add_tension(draft: Draft, command: Command, rng: Rng) -> None:
    """II-RT-2: the GM declares a story condition that adds Rising Tension (any amount, with a reason)."""
    check_keys(command, {"amount", "reason"})
    amount = req_int(command, "amount", minimum=1, rule=ids.RT_2)
    reason = opt_str(command, "reason")
    if not reason:
        raise MalformedCommand(
            "add_tension needs a reason", code="missing_field", rule=ids.RT_2, path="reason"
        )
    draft.gain_tension(amount, reason)


def spend_tension(draft: Draft, command: Command, rng: Rng) -> None:
    """II-RT-3: the GM spends Rising Tension on Disadvantage (for a character's next roll) or other things."""
    check_keys(command, {"on", "count", "reason", "character"})
    on = command.get("on")
    costs = draft.rules.rising_tension.costs.model_dump()
    if on not in costs:
        raise MalformedCommand(
            f"on must be one of {', '.join(costs)}, got {on!r}", code="bad_field", rule=ids.RT_3, path="on"
        )
    count = opt_int(command, "count", 1, minimum=1)
    character = opt_str(command, "character")
    if on == "disadvantage" and character is not None:
        draft.scene()
        if draft.state.member(character) is None:
            raise MalformedCommand(
                f"unknown character {character!r}", code="unknown_character", path="character"
            )
    draft.spend_tension(str(on), count, opt_str(command, "reason"), character)


def rest(draft: Draft, command: Command, rng: Rng) -> None:
    """II-RT-4: a restful cooperative scene lowers Rising Tension, at most once per so many scenes."""
    check_keys(command, set())
    scene = draft.scene("cooperative")
    rules = draft.rules.rising_tension
    last = draft.state.last_rest_scene
    if last is not None and scene.number - last < rules.restful_every_scenes:
        raise IllegalCommand(
            f"the last restful scene was scene {last}; "
            f"rest is allowed once per {rules.restful_every_scenes} scenes",
            rule=ids.RT_4,
        )
    amount = min(rules.restful_reduction, draft.state.rising_tension - rules.floor)
    data = {
        "amount": amount,
        "rising_tension": draft.state.rising_tension - amount,
        "cause": "restful scene",
        "rest_scene": scene.number,
    }
    draft.emit("RisingTensionLowered", data)


def _once_per_scene(draft: Draft, name: str) -> None:
    scene = draft.scene("cooperative")
    limit = draft.rules.scenes.changes_per_cooperative_scene
    if scene.changed.count(name) >= limit:
        raise IllegalCommand(
            f"{name} already changed, learned or healed in this cooperative scene", rule=ids.SCENE_2
        )


def learn(draft: Draft, command: Command, rng: Rng) -> None:
    """II-SCENE-2 / II-SKILL-4: change, upgrade or learn one Talent, Skill or Ability level."""
    check_keys(command, {"character", "talent", "skill", "ability", "level"})
    name = req_str(command, "character")
    member = draft.state.member(name)
    if member is None:
        raise MalformedCommand(f"unknown character {name!r}", code="unknown_character", path="character")
    _once_per_scene(draft, name)
    sheet: dict[str, Any] = member.sheet.to_json()
    talent, skill = command.get("talent"), command.get("skill")
    if isinstance(skill, dict):
        change = "skill"
        target = next((t for t in sheet["talents"] if t["name"] == talent), None)
        if target is None:
            raise MalformedCommand(f"{name} has no Talent {talent!r}", code="unknown_talent", path="talent")
        skill_name = skill.get("name")
        rules = draft.rules.skills
        if rules.learning_requires_recreation and (name, skill_name) not in draft.state.recreated:
            raise IllegalCommand(
                f"{name} must recreate {skill_name!r} successfully before learning it", rule=ids.SKILL_4
            )
        target["skills"] = [s for s in target["skills"] if s["name"] != skill_name] + [skill]
    elif isinstance(talent, dict):
        change = "talent"
        sheet["talents"] = [t for t in sheet["talents"] if t["name"] != talent.get("name")] + [talent]
    elif "ability" in command:
        change = "ability"
        ability = req_str(command, "ability")
        if ability not in sheet["abilities"]:
            raise MalformedCommand(
                f"unknown Ability {ability!r}", code="bad_field", rule=ids.CHAR_1, path="ability"
            )
        sheet["abilities"][ability] = req_int(command, "level")
    else:
        raise MalformedCommand(
            "learn needs talent: {…}, or talent: NAME with skill: {…}, or ability: NAME with level: N",
            code="missing_field",
            path="talent",
        )
    new, errors = check_sheet(sheet, draft.rules)
    if new is None or errors:
        first = errors[0]
        raise IllegalCommand(
            f"the changed sheet breaks a rule: {first.path}: {first.message}",
            rule=first.rule,
            path=first.path,
        )
    cost = sheet_cost(new, draft.rules)
    delta = cost - sheet_cost(member.sheet, draft.rules)
    draft.emit(
        "CharacterChanged",
        {"character": name, "sheet": new.to_json(), "change": change, "cost": cost, "cost_delta": delta},
    )


def heal(draft: Draft, command: Command, rng: Rng) -> None:
    """II-SCENE-2: in a cooperative scene a character heals (all wounds, per the rules data)."""
    check_keys(command, {"character", "amount"})
    name = req_str(command, "character")
    member = draft.state.member(name)
    if member is None:
        raise MalformedCommand(f"unknown character {name!r}", code="unknown_character", path="character")
    _once_per_scene(draft, name)
    amount = (
        member.wounds if draft.rules.scenes.heal_removes_all else opt_int(command, "amount", 1, minimum=1)
    )
    amount = min(amount, member.wounds)
    data = {"character": name, "amount": amount, "wounds": member.wounds - amount, "scene_change": True}
    draft.emit("WoundsHealed", data)
