"""The roll step every character action shares: choice, Talent, Skills, Advantage, dice, faces.

A rolled action names its Talent (``talent: Piloting``) or passes without rolling (``choice: auto``). Modifier
Skills of that Talent (``skills: [Barrel Roll]``, II-SKILL-1) add their structured effects (II-SKILL-2): their
Advantage and Disadvantage go into the roll, the rest (``crisis``, ``obstruction``, ``flow``, ``protect``) is
returned for the action to apply. What the character carries from an earlier command (a recreated modifier,
a failed one's Disadvantage, Disadvantage the GM bought) is used up by this roll.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand
from . import rule_ids as ids
from .commands import AbilityRoll, Roll, check_base
from .draft import Draft
from .plan import plan_for
from .rolling import make_roll, roll_data
from .sheet import Character, Talent

__all__ = ["RollResult", "character_sheet", "is_auto", "talent_roll"]


@dataclass(frozen=True, slots=True)
class RollResult:
    """The outcome of a rolled action, with the Skill effects the action still has to apply."""

    total: int
    against: int
    talent: str
    effects: dict[str, int] = field(default_factory=dict)

    @property
    def success(self) -> bool:
        """True when the total reached the target."""
        return self.total >= self.against

    @property
    def protect(self) -> bool:
        """II-SKILL-2 ``protect``: Triggers this action fires do not primarily affect the character."""
        return self.effects.get("protect", 0) > 0


def character_sheet(draft: Draft, command: Roll | AbilityRoll) -> Character:
    """The sheet of the acting ``character:``, a character present in the scene (II-SCENE-1)."""
    name = command.character
    if name is None:
        raise MalformedCommand(f"{command.do}: character is required", code="missing_field", path="character")
    member = draft.state.member(name)
    if member is None:
        known = ", ".join(m.name for m in draft.state.members) or "none yet"
        raise MalformedCommand(
            f"unknown character {name!r} (known: {known})", code="unknown_character", path="character"
        )
    scene = draft.state.scene
    if scene is not None and name not in scene.present:
        raise IllegalCommand(f"{name} is not present in this scene", rule=ids.SCENE_1)
    return member.sheet


def is_auto(command: Roll, *, allowed: bool = True) -> bool:
    """True for ``choice: auto``; a roll needs ``talent: NAME``; anything else is refused."""
    if command.choice == "auto":
        if command.talent is not None:
            raise MalformedCommand(
                "give either choice: auto or talent: NAME, not both", code="bad_field", path="choice"
            )
        if not allowed:
            raise MalformedCommand(
                f"{command.do} is a Talent Roll: give talent: NAME", code="bad_field", path="choice"
            )
        return True
    if command.talent is None:
        raise MalformedCommand(
            f"{command.do}: give choice: auto or talent: NAME", code="missing_field", path="talent"
        )
    return False


def _skill_names(sheet: Character, talent: Talent, command: Roll) -> tuple[str, ...]:
    """II-SKILL-1: the ``skills:`` of a roll, each a modifier Skill of the Talent rolled, named once."""
    names = command.skills
    repeated = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if repeated is not None:
        raise IllegalCommand(
            f"the Skill {repeated!r} is named twice: each Skill applies once to an action", rule=ids.SKILL_1
        )
    for name in names:
        skill = next((s for s in talent.skills if s.name == name), None)
        if skill is None:
            raise IllegalCommand(
                f"{sheet.name}'s Talent {talent.name} has no Skill {name!r}", rule=ids.SKILL_1
            )
        if skill.kind != "modifier":
            raise IllegalCommand(
                f"{name!r} is an advanced Skill, an action of its own: use use_skill", rule=ids.SKILL_1
            )
    return tuple(names)


def talent_roll(
    draft: Draft,
    command: Roll,
    sheet: Character,
    rng: Rng,
    *,
    against: int,
    base_d6: int,
    purpose: str,
    talent_name: str | None = None,
    extra_disadvantage: int = 0,
) -> RollResult:
    """Roll the named Talent (``talent_name``, else the command's) for ``sheet`` and record it.

    The dice are those of the roll's :class:`~.plan.RollPlan`, the same plan an odds query weighs; the
    Skills ticked and what the character carries are recorded with it. ``extra_disadvantage`` is a rule's
    own Disadvantage (II-SKILL-3: a recreated Skill's cost), on top of the command's.
    """
    talent_name = talent_name or command.talent
    talent = sheet.talent(talent_name) if talent_name is not None else None
    if talent is None:
        known = ", ".join(t.name for t in sheet.talents) or "none"
        raise MalformedCommand(
            f"{sheet.name} has no Talent {talent_name!r} (Talents: {known})",
            code="unknown_talent",
            rule=ids.ROLL_1,
            path="talent",
        )
    skills = _skill_names(sheet, talent, command)
    plan = plan_for(
        draft.state,
        sheet.name,
        advantage=command.advantage,
        disadvantage=command.disadvantage + extra_disadvantage,
        base=check_base(
            command.dice, base_d6, draft.rules.roll.difficulty, key="dice", do=command.do, rule=ids.ROLL_5
        ),
        skills=skills,
    )
    spec = plan.talent_spec(sheet.name, talent, against)
    roll = make_roll(spec, command.faces, rng)
    draft.emit("TalentRolled", {**roll_data(spec, roll), "purpose": purpose, "skills": list(skills)})
    for name in skills:
        skill = next(s for s in talent.skills if s.name == name)
        data = {
            "character": sheet.name,
            "talent": talent.name,
            "skill": name,
            "kind": skill.kind,
            "effects": dict(skill.effects),
            "narrative": not skill.effects,
        }
        draft.emit("SkillUsed", data)
    if plan.prepared is not None:
        draft.emit("PreparationUsed", {"character": sheet.name, "sources": list(plan.prepared.sources)})
    return RollResult(roll.total, against, talent.name, plan.effects(talent))
