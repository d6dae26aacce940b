"""What an odds query rolls with: base d6, net Advantage, ticked modifier Skills and carried effects.

An odds query may tick modifier Skills (``"skills": ["Barrel Roll"]``, II-SKILL-1). Each counts, on the rows
of the Talent that has it, with every structured effect (II-SKILL-2): ``advantage``/``disadvantage`` move the
d6 count along the ladder, ``crisis`` is added to the action's Crisis (never below the floor) and
``obstruction`` to the Obstruction reduction of a success. What a character carries from an earlier command
(a recreated modifier, a failed one's Disadvantage) counts the same way, as the engine applies it to the
next roll. A Skill the character lacks, or an advanced one, is refused with a clear error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import MalformedCommand
from .chances import talent_choice
from .commands import opt_int
from .rolls import final_d6
from .sheet import Character, Talent
from .state import GameState, Prepared

__all__ = ["RollQuery", "skill_effects"]


def _skill_names(query: Mapping[str, Any], sheet: Character) -> tuple[str, ...]:
    """The modifier Skills named by ``query["skills"]``; each must be a modifier Skill of the character."""
    names = query.get("skills", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise MalformedCommand("skills must be a list of Skill names", code="bad_field", path="skills")
    for name in names:
        found = [s for t in sheet.talents for s in t.skills if s.name == name]
        if not found:
            raise MalformedCommand(f"{sheet.name} has no Skill {name!r}", code="bad_field", path="skills")
        if all(s.kind != "modifier" for s in found):
            raise MalformedCommand(
                f"{name!r} is an advanced Skill, an action of its own, not part of a roll",
                code="bad_field",
                path="skills",
            )
    return tuple(names)


def skill_effects(talent: Talent, names: tuple[str, ...], prepared: Prepared | None) -> dict[str, int]:
    """II-SKILL-2: summed effects of ``talent``'s ticked modifier Skills and what the character carries."""
    effects: dict[str, int] = {}
    for skill in talent.skills:
        if skill.name in names and skill.kind == "modifier":
            for key, value in skill.effects.items():
                effects[key] = effects.get(key, 0) + value
    if prepared is not None:
        effects["disadvantage"] = effects.get("disadvantage", 0) + prepared.disadvantage
        for key, value in prepared.effects:
            effects[key] = effects.get(key, 0) + value
    return effects


def _applied(talent: Talent, names: tuple[str, ...]) -> list[str]:
    own = {s.name for s in talent.skills if s.kind == "modifier"}
    return [name for name in names if name in own]


class RollQuery:
    """The per-Talent numbers of one query: base d6, net Advantage, ticked Skills and carried effects."""

    def __init__(self, state: GameState, query: Mapping[str, Any], sheet: Character, base: int) -> None:
        self.rules = state.rules
        self.base = base
        self.advantage = opt_int(query, "advantage", 0, minimum=0)
        self.disadvantage = opt_int(query, "disadvantage", 0, minimum=0)
        self.names = _skill_names(query, sheet)
        scene = state.scene
        self.prepared = scene.prepared_for(sheet.name) if scene is not None else None

    def effects(self, talent: Talent) -> dict[str, int]:
        """The Skill effects (ticked and carried) this Talent's roll would use."""
        return skill_effects(talent, self.names, self.prepared)

    def d6(self, talent: Talent, *, base: int | None = None, disadvantage: int = 0) -> int:
        """The final d6 count of a roll of ``talent`` (II-ADV-1..3), every Advantage counted."""
        fx = self.effects(talent)
        return final_d6(
            self.base if base is None else base,
            self.advantage + fx.get("advantage", 0),
            self.disadvantage + disadvantage + fx.get("disadvantage", 0),
            self.rules,
        )

    def row(
        self, talent: Talent, against: int, *, extra_crisis: int = 0, cap: int = 0, d6: int | None = None
    ) -> dict[str, Any]:
        """One Talent's choice with its Skills' Crisis counted; ``"skills"`` names the ticked ones used."""
        fx = self.effects(talent)
        dice = self.d6(talent) if d6 is None else d6
        extra = extra_crisis + fx.get("crisis", 0)
        row = talent_choice(talent, talent.level, dice, against, self.rules, extra_crisis=extra, cap=cap)
        applied = _applied(talent, self.names)
        if applied:
            row["skills"] = applied
        return row
