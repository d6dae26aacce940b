"""Cooperative scenes: rest (II-RT-4), and one change, upgrade, learning or heal per character (II-SCENE-2).

A cooperative scene has no stakes: no Crisis, no obstacles. Each character present may change, upgrade or
learn one Talent or Skill (checked against every II-CHAR rule and the budget, if any; what may change is the
rules' ``scenes.changeable``, and an Ability is not among them), and may heal all its wounds apart from that
change; a restful scene lowers Rising Tension, at most once per so many scenes.
"""

from __future__ import annotations

from typing import Any

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand
from . import rule_ids as ids
from .commands import Heal, Learn, Rest
from .draft import Draft
from .sheet import sheet_cost
from .sheet_checks import check_sheet

__all__ = ["heal", "learn", "once_per_scene", "rest"]


def rest(draft: Draft, command: Rest, rng: Rng) -> None:
    """II-RT-4: a restful cooperative scene lowers Rising Tension, at most once per so many scenes.

    A rest while the last one is too recent is refused. A rest with Rising Tension already at its floor
    is allowed but lowers nothing, so it does not use up the rest: the event records ``amount: 0`` and
    ``rest_scene: null``, and the next scene may still rest. (Refusing it would make a restful scene at
    Rising Tension 0 unplayable, and using it up would cost the players their rest for nothing.)
    """
    scene = draft.scene("cooperative")
    rules = draft.rules.rising_tension
    last = draft.state.last_rest_scene
    if last is not None and scene.number - last < rules.restful_every_scenes:
        raise IllegalCommand(
            f"the last restful scene was scene {last}; "
            f"rest is allowed once per {rules.restful_every_scenes} scenes",
            rule=ids.RT_4,
        )
    amount = max(0, min(rules.restful_reduction, draft.state.rising_tension - rules.floor))
    data = {
        "amount": amount,
        "rising_tension": draft.state.rising_tension - amount,
        "cause": "restful scene" if amount else "restful scene: nothing to lower, the rest is not used up",
        "rest_scene": scene.number if amount else None,
    }
    draft.emit("RisingTensionLowered", data)


def once_per_scene(draft: Draft, name: str) -> None:
    """II-SCENE-2: refuse a second change (learning, or an advanced Skill used) in this cooperative scene."""
    scene = draft.scene("cooperative")
    limit = draft.rules.scenes.changes_per_cooperative_scene
    if scene.changed.count(name) >= limit:
        raise IllegalCommand(
            f"{name} already changed, learned or healed in this cooperative scene", rule=ids.SCENE_2
        )


def learn(draft: Draft, command: Learn, rng: Rng) -> None:
    """II-SCENE-2 / II-SKILL-4: change, upgrade or learn one Talent or Skill (what ``changeable`` lists)."""
    name = command.character
    member = draft.state.member(name)
    if member is None:
        raise MalformedCommand(f"unknown character {name!r}", code="unknown_character", path="character")
    once_per_scene(draft, name)
    sheet: dict[str, Any] = member.sheet.to_json()
    talent, skill = command.talent, command.skill
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
    elif command.ability is not None:
        change = "ability"
        ability = command.ability
        if ability not in sheet["abilities"]:
            raise MalformedCommand(
                f"unknown Ability {ability!r}", code="bad_field", rule=ids.CHAR_1, path="ability"
            )
        if command.level is None:
            raise MalformedCommand("learn: level is required", code="missing_field", path="level")
        sheet["abilities"][ability] = command.level
    else:
        raise MalformedCommand(
            "learn needs talent: {…}, or talent: NAME with skill: {…}, or ability: NAME with level: N",
            code="missing_field",
            path="talent",
        )
    changeable = draft.rules.scenes.changeable
    if change not in changeable:
        raise IllegalCommand(
            f"{name} may change one {' or '.join(changeable)} in a cooperative scene; not its {change}",
            rule=ids.SCENE_2,
            path=change,
        )
    new, errors = check_sheet(sheet, draft.rules)
    if new is None or errors:
        first = errors[0]
        listed = "; ".join(f"{e.path}: {e.message} ({e.rule})" for e in errors)
        raise IllegalCommand(
            f"the changed sheet breaks {len(errors)} rule(s): {listed}", rule=first.rule, path=first.path
        )
    cost = sheet_cost(new, draft.rules)
    delta = cost - sheet_cost(member.sheet, draft.rules)
    draft.emit(
        "CharacterChanged",
        {"character": name, "sheet": new.to_json(), "change": change, "cost": cost, "cost_delta": delta},
    )


def heal(draft: Draft, command: Heal, rng: Rng) -> None:
    """II-SCENE-2: in a cooperative scene a character heals (all wounds, per the rules data).

    Healing is listed apart from the one change: it does not use it up (unless ``heal_uses_change``).
    """
    name = command.character
    member = draft.state.member(name)
    if member is None:
        raise MalformedCommand(f"unknown character {name!r}", code="unknown_character", path="character")
    uses_change = draft.rules.scenes.heal_uses_change
    if uses_change:
        once_per_scene(draft, name)
    else:
        draft.scene("cooperative")
    amount = member.wounds if draft.rules.scenes.heal_removes_all else command.amount
    amount = min(amount, member.wounds)
    data = {
        "character": name,
        "amount": amount,
        "wounds": member.wounds - amount,
        "scene_change": uses_change,
    }
    draft.emit("WoundsHealed", data)
