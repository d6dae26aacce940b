"""Skills and Ability Rolls: ``use_skill``, ``recreate_skill`` (II-SKILL-1..4) and ``ability_roll``.

An advanced Skill is an action of its own: its structured effects apply at once (``reduce_crisis`` lowers the
scene's Crisis, ``heal`` removes wounds, ``crisis`` raises Crisis); a Skill without structured effects is
narrative and only recorded. Recreating a Skill the character does not have is a Talent Roll from 5d6 with
Disadvantage equal to its cost, and Crisis equal to its cost; a recreated modifier (or a failed one's
Disadvantage) is carried into the character's next roll.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import ValidationError

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand
from ..protocol import Command
from . import rule_ids as ids
from .acting import character_sheet, is_auto, talent_roll
from .commands import ROLL_KEYS, check_keys, opt_int, opt_str, req_str
from .draft import Draft
from .rolls import RollSpec, make_roll, roll_data
from .sheet import Character, Skill

__all__ = ["ability_roll", "recreate_skill", "use_skill"]


def _apply_advanced(
    draft: Draft, name: str, skill: str, effects: Mapping[str, int], target: str | None
) -> None:
    """II-SKILL-1/2: the effects of an advanced action."""
    cause = f"Skill {skill}"
    if effects.get("reduce_crisis", 0) > 0:
        draft.lower_crisis(effects["reduce_crisis"], cause, name)
    if effects.get("crisis", 0) > 0:
        draft.raise_crisis(effects["crisis"], cause, name, protected=effects.get("protect", 0) > 0)
    if effects.get("heal", 0) > 0:
        who = target or name
        member = draft.state.member(who)
        if member is None:
            raise MalformedCommand(
                f"unknown character {who!r} to heal", code="unknown_character", path="target"
            )
        amount = min(effects["heal"], member.wounds)
        data = {"character": who, "amount": amount, "wounds": member.wounds - amount, "scene_change": False}
        draft.emit("WoundsHealed", data)


def _find_skill(sheet: Character, skill: str, talent: str | None) -> tuple[str, Skill]:
    for t in sheet.talents:
        if talent in (None, t.name):
            for s in t.skills:
                if s.name == skill:
                    return t.name, s
    raise IllegalCommand(
        f"{sheet.name} has no Skill {skill!r}: recreate it with recreate_skill", rule=ids.SKILL_1
    )


def use_skill(draft: Draft, command: Command, rng: Rng) -> None:
    """II-SKILL-1/2: an advanced Skill as an action of its own (a modifier goes with a roll's ``skills:``)."""
    check_keys(command, {"character", "talent", "skill", "target", "visibility"})
    sheet = character_sheet(draft, command)
    talent, skill = _find_skill(sheet, req_str(command, "skill"), opt_str(command, "talent"))
    if skill.kind != "advanced":
        raise IllegalCommand(
            f"{skill.name!r} is a modifier Skill: add it to a roll with skills: [...]", rule=ids.SKILL_1
        )
    data = {
        "character": sheet.name,
        "talent": talent,
        "skill": skill.name,
        "kind": skill.kind,
        "effects": dict(skill.effects),
        "narrative": not skill.effects,
    }
    draft.emit("SkillUsed", data)
    if skill.effects:
        draft.scene()
        _apply_advanced(draft, sheet.name, skill.name, skill.effects, opt_str(command, "target"))


def recreate_skill(draft: Draft, command: Command, rng: Rng) -> None:
    """II-SKILL-3: recreate a Skill the character lacks, from 5d6 with Disadvantage equal to its cost.

    The base d6 count is the rules' (no ``dice:`` override) and no other Skill rides on the attempt.
    """
    check_keys(command, (ROLL_KEYS - {"dice", "skills"}) | {"skill", "target"})
    sheet = character_sheet(draft, command)
    draft.scene("action", "conflict")
    raw = command.get("skill")
    try:
        skill = Skill.model_validate(raw)
    except ValidationError as error:
        raise MalformedCommand(
            f"skill must be a Skill mapping (name, cost, kind): {error.errors()[0]['msg']}",
            code="bad_field",
            rule=ids.CHAR_6,
            path="skill",
        ) from None
    if skill.cost < 0 or any(e not in draft.rules.skills.effects for e in skill.effects):
        raise MalformedCommand(
            "a Skill's cost is 0 or more and its effects use the II-SKILL-2 vocabulary",
            code="bad_field",
            rule=ids.SKILL_2,
            path="skill",
        )
    if any(s.name == skill.name for t in sheet.talents for s in t.skills):
        raise IllegalCommand(f"{sheet.name} already has the Skill {skill.name!r}: use it", rule=ids.SKILL_3)
    is_auto(command, allowed=False)
    rules = draft.rules
    extra = {**command, "disadvantage": opt_int(command, "disadvantage", 0, minimum=0) + skill.cost}
    result = talent_roll(
        draft,
        extra,
        sheet,
        rng,
        against=rules.roll.target,
        base_d6=rules.skills.recreate_base_d6,
        purpose="recreate_skill",
    )
    draft.raise_crisis(
        skill.cost * rules.skills.recreate_crisis_per_cost, f"recreating Skill {skill.name}", sheet.name
    )
    data = {
        "character": sheet.name,
        "skill": skill.name,
        "kind": skill.kind,
        "success": result.success,
        "cost": skill.cost,
    }
    draft.emit("SkillRecreated", data)
    if skill.kind == "modifier":
        follow = 0 if result.success else skill.cost // rules.skills.failed_modifier_cost_step
        effects = dict(skill.effects) if result.success else {}
        if effects or follow:
            draft.emit(
                "SkillPrepared",
                {"character": sheet.name, "skill": skill.name, "effects": effects, "disadvantage": follow},
            )
    elif result.success:
        _apply_advanced(draft, sheet.name, skill.name, skill.effects, opt_str(command, "target"))


def ability_roll(draft: Draft, command: Command, rng: Rng) -> None:
    """II-ROLL-1: an Ability Roll (instinct in an emergency): the d6 plus the Ability's dice, no Crisis."""
    check_keys(
        command,
        {"character", "ability", "advantage", "disadvantage", "dice", "faces", "visibility", "against"},
    )
    sheet = character_sheet(draft, command)
    ability = req_str(command, "ability")
    if ability not in sheet.abilities:
        raise MalformedCommand(
            f"unknown Ability {ability!r}; expected {', '.join(draft.rules.abilities)}",
            code="bad_field",
            rule=ids.CHAR_1,
            path="ability",
        )
    scene = draft.state.scene
    base_default = scene.difficulty if scene is not None else draft.rules.roll.difficulty.default
    spec = RollSpec(
        sheet.name,
        "ability",
        ability,
        sheet.abilities[ability],
        opt_int(command, "dice", base_default, minimum=0, rule=ids.ROLL_5),
        opt_int(command, "advantage", 0, minimum=0),
        opt_int(command, "disadvantage", 0, minimum=0),
        opt_int(command, "against", draft.rules.roll.target, minimum=0),
        draft.rules,
    )
    roll = make_roll(spec, command.get("faces"), rng)
    draft.emit("AbilityRolled", {**roll_data(spec, roll), "purpose": "ability_roll"})
