"""Skills and Ability Rolls: ``use_skill``, ``recreate_skill`` (II-SKILL-1..5) and ``ability_roll``.

Using an owned advanced Skill is an Advanced Action (II-SKILL-5): a Talent Roll of its Talent at the current
difficulty against the target. On success its structured effects apply (``reduce_crisis`` lowers the scene's
Crisis, ``heal`` removes wounds) and Crisis rises by the success amount (plus the Skill's ``crisis``); on
failure Crisis rises as for any failed roll and nothing else happens. It is an action like the others: not
twice in a row on a Complex Obstacle (II-COMPLEX-5), once per conflict round (II-FLOW-1). In a cooperative
scene, which has no Crisis (II-CRISIS-1), it needs no roll but uses up the character's one change. A Skill
without structured effects is narrative and only recorded.

Recreating a Skill the character does not have is a Talent Roll from 5d6 with Disadvantage equal to its cost,
and Crisis equal to its cost; a recreated modifier (or a failed one's Disadvantage) is carried into the
character's next roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand
from . import rule_ids as ids
from .acting import character_sheet, is_auto, talent_roll
from .chances import action_crisis, roll_crisis
from .commands import AbilityRoll, RecreateSkill, UseSkill, check_base
from .conflict import next_round, participants
from .cooperative import once_per_scene
from .crisis import lower_crisis, raise_crisis
from .draft import Draft
from .plan import RollPlan
from .rolling import make_roll, roll_data
from .sheet import Character, Skill

__all__ = ["ability_roll", "recreate_skill", "use_skill"]


def _apply_advanced(
    draft: Draft,
    name: str,
    skill: str,
    effects: Mapping[str, int],
    target: str | None,
    *,
    crisis: bool = True,
) -> None:
    """II-SKILL-1/2: the effects of an advanced action (its Crisis ones only where ``crisis``)."""
    cause = f"Skill {skill}"
    if crisis and effects.get("reduce_crisis", 0) > 0:
        lower_crisis(draft, effects["reduce_crisis"], cause, name)
    if crisis and effects.get("crisis", 0) > 0:
        raise_crisis(draft, effects["crisis"], cause, name, protected=effects.get("protect", 0) > 0)
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


def _heal_target(draft: Draft, skill: Skill, command: UseSkill) -> str | None:
    """The character a healing Skill heals (checked before any roll), ``None`` for the user."""
    target = command.target
    if target is not None and skill.effects.get("heal", 0) > 0 and draft.state.member(target) is None:
        raise MalformedCommand(
            f"unknown character {target!r} to heal", code="unknown_character", path="target"
        )
    return target


def _advanced_turn(draft: Draft, name: str) -> dict[str, bool]:
    """II-SKILL-5 with II-COMPLEX-5 / II-FLOW-1: may ``name`` take an action now, and what it counts for."""
    scene = draft.scene()
    obstacle = scene.obstacle
    on_obstacle = obstacle is not None and obstacle.kind == "complex" and not obstacle.beaten
    if on_obstacle and obstacle is not None and obstacle.last_actor == name and len(scene.present) > 1:
        raise IllegalCommand(
            f"{name} took the last action on this obstacle; another character must act first",
            rule=ids.COMPLEX_5,
        )
    conflict = scene.conflict
    in_conflict = conflict is not None and not conflict.ended
    if in_conflict and conflict is not None:
        if name not in participants(draft.state):
            raise IllegalCommand(f"{name} is out of the conflict", rule=ids.FLOW_4)
        if draft.rules.conflict.one_action_per_round and name in conflict.acted:
            raise IllegalCommand(f"{name} has already acted this round", rule=ids.FLOW_1)
    return {"on_obstacle": on_obstacle, "in_conflict": in_conflict}


def use_skill(draft: Draft, command: UseSkill, rng: Rng) -> None:
    """II-SKILL-1/5: an owned advanced Skill, an Advanced Action (a modifier rides on a roll instead)."""
    sheet = character_sheet(draft, command)
    talent, skill = _find_skill(sheet, command.skill, command.talent)
    if skill.kind != "advanced":
        raise IllegalCommand(
            f"{skill.name!r} is a modifier Skill: add it to a roll with skills: [...]", rule=ids.SKILL_1
        )
    scene = draft.scene()
    target = _heal_target(draft, skill, command)
    data: dict[str, Any] = {
        "character": sheet.name,
        "talent": talent,
        "skill": skill.name,
        "kind": skill.kind,
        "effects": dict(skill.effects),
        "narrative": not skill.effects,
    }
    rules = draft.rules
    if scene.kind == "cooperative":
        once_per_scene(draft, sheet.name)
        draft.emit("SkillUsed", {**data, "success": True, "scene_change": True})
        _apply_advanced(draft, sheet.name, skill.name, skill.effects, target, crisis=False)
        return
    if not rules.skills.advanced_action_rolls:
        draft.emit("SkillUsed", {**data, "success": True})
        _apply_advanced(draft, sheet.name, skill.name, skill.effects, target)
        return
    turn = _advanced_turn(draft, sheet.name)
    obstacle = scene.obstacle
    base = scene.difficulty
    if turn["on_obstacle"] and obstacle is not None and obstacle.difficulty is not None:
        base = obstacle.difficulty
    result = talent_roll(
        draft,
        command,
        sheet,
        rng,
        against=rules.roll.target,
        base_d6=base,
        purpose="use_skill",
        talent_name=talent,
    )
    draft.emit("AdvancedActionTaken", {**data, **turn, "success": result.success, "total": result.total})
    extra = skill.effects.get("crisis", 0) if result.success else 0
    if result.success:
        draft.emit("SkillUsed", {**data, "success": True})
        _apply_advanced(draft, sheet.name, skill.name, skill.effects, target, crisis=False)
        lower_crisis(draft, skill.effects.get("reduce_crisis", 0), f"Skill {skill.name}", sheet.name)
    crisis = action_crisis(roll_crisis(result.total, result.against, rules), extra, rules=rules)
    outcome = "" if result.success else "failed "
    raise_crisis(
        draft,
        crisis,
        f"{outcome}Advanced Action {skill.name}, {talent} roll of {result.total}",
        sheet.name,
        protected=result.success and skill.effects.get("protect", 0) > 0,
    )
    if turn["in_conflict"]:
        next_round(draft)


def recreate_skill(draft: Draft, command: RecreateSkill, rng: Rng) -> None:
    """II-SKILL-3: recreate a Skill the character lacks, from 5d6 with Disadvantage equal to its cost.

    The base d6 count is the rules' (no ``dice:`` override) and no other Skill rides on the attempt.
    """
    sheet = character_sheet(draft, command)
    draft.scene("action", "conflict")
    raw = command.skill
    try:
        skill = Skill.model_validate(raw)
    except ValidationError as error:
        raise MalformedCommand(
            f"skill must be a Skill mapping (name, cost, kind): {error.errors()[0]['msg']}",
            code="bad_field",
            rule=ids.CHAR_6,
            path="skill",
        ) from None
    rules = draft.rules
    if (
        skill.kind not in rules.skills.kinds
        or skill.cost < 0
        or any(e not in rules.skills.effects for e in skill.effects)
    ):
        raise MalformedCommand(
            f"a Skill's kind is one of {', '.join(rules.skills.kinds)}, its cost is 0 or more and its "
            "effects use the II-SKILL-2 vocabulary",
            code="bad_field",
            rule=ids.SKILL_2,
            path="skill",
        )
    if any(s.name == skill.name for t in sheet.talents for s in t.skills):
        raise IllegalCommand(f"{sheet.name} already has the Skill {skill.name!r}: use it", rule=ids.SKILL_3)
    is_auto(command, allowed=False)
    rules = draft.rules
    result = talent_roll(
        draft,
        command,
        sheet,
        rng,
        against=rules.roll.target,
        base_d6=rules.skills.recreate_base_d6,
        purpose="recreate_skill",
        extra_disadvantage=skill.cost,
    )
    raise_crisis(
        draft,
        skill.cost * rules.skills.recreate_crisis_per_cost,
        f"recreating Skill {skill.name}",
        sheet.name,
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
        _apply_advanced(draft, sheet.name, skill.name, skill.effects, command.target)


def ability_roll(draft: Draft, command: AbilityRoll, rng: Rng) -> None:
    """II-ROLL-1: an Ability Roll (instinct in an emergency): the d6 plus the Ability's dice, no Crisis."""
    sheet = character_sheet(draft, command)
    ability = command.ability
    if ability not in sheet.abilities:
        raise MalformedCommand(
            f"unknown Ability {ability!r}; expected {', '.join(draft.rules.abilities)}",
            code="bad_field",
            rule=ids.CHAR_1,
            path="ability",
        )
    scene = draft.state.scene
    base_default = scene.difficulty if scene is not None else draft.rules.roll.difficulty.default
    plan = RollPlan(
        draft.rules,
        check_base(
            command.dice,
            base_default,
            draft.rules.roll.difficulty,
            key="dice",
            do=command.do,
            rule=ids.ROLL_5,
        ),
        command.advantage,
        command.disadvantage,
    )
    against = draft.rules.roll.target if command.against is None else command.against
    spec = plan.ability_spec(sheet.name, ability, sheet.abilities[ability], against)
    roll = make_roll(spec, command.faces, rng)
    draft.emit("AbilityRolled", {**roll_data(spec, roll), "purpose": "ability_roll"})
