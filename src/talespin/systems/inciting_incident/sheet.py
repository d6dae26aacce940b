"""Character sheets: the pydantic models, every II-CHAR rule checked at once, cost, defences and hits.

A sheet is plain YAML or JSON (see ``contracts.md``, "Sheets")::

    name: Ada
    abilities: {fortitude: 3, perseverance: 4, nimbleness: 5}
    talents:
      - {name: Piloting, ability: nimbleness, level: 5, limitations: [only vehicles she knows]}

:func:`check_sheet` returns the parsed :class:`Character` (or ``None`` when its shape is wrong) together with
*every* broken rule as :class:`SheetError` (rule ID, field path such as ``talents[2]`` or
``abilities.nimbleness``, and a plain message). Nothing is clamped.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import MalformedCommand
from . import rule_ids as ids
from .rules import Rules

__all__ = [
    "Character",
    "SheetError",
    "Skill",
    "Talent",
    "check_sheet",
    "defences",
    "level_cost",
    "level_dice",
    "max_hits",
    "parse_sheet",
    "sheet_cost",
]


class _Sheet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Skill(_Sheet):
    """II-CHAR-6: a Skill of a Talent. ``effects`` uses the closed vocabulary of II-SKILL-2."""

    name: str = Field(min_length=1)
    cost: int
    kind: Literal["modifier", "advanced"]
    text: str = ""
    effects: dict[str, int] = Field(default_factory=dict)


class Talent(_Sheet):
    """II-CHAR-2: a named Talent under one Ability."""

    name: str = Field(min_length=1)
    ability: str
    level: int
    description: str = ""
    limitations: tuple[str, ...] = ()
    skills: tuple[Skill, ...] = ()


class Character(_Sheet):
    """A character (or an enemy: same shape): three Abilities and its Talents."""

    name: str = Field(min_length=1)
    abilities: dict[str, int]
    talents: tuple[Talent, ...] = ()

    def talent(self, name: str) -> Talent | None:
        """The Talent called ``name``, if the character has it."""
        return next((t for t in self.talents if t.name == name), None)

    def to_json(self) -> dict[str, Any]:
        """The sheet as plain JSON (the contract's shape)."""
        return self.model_dump(mode="json")


@dataclass(frozen=True, slots=True)
class SheetError:
    """One broken rule: ``{"rule", "path", "message"}``."""

    rule: str
    path: str
    message: str

    def to_json(self) -> dict[str, str]:
        """The contract's error row."""
        return {"rule": self.rule, "path": self.path, "message": self.message}


def level_dice(level: int, rules: Rules) -> tuple[int, ...]:
    """II-CHAR-4: the die sizes of a level (``()`` for level 0)."""
    return rules.levels.dice[level]


def level_cost(level: int, rules: Rules) -> int:
    """II-CHAR-5: the total point price of a level."""
    return rules.levels.cost[level]


def sheet_cost(character: Character, rules: Rules) -> int:
    """II-CHAR-5: the sum of the prices of every Ability and Talent."""
    abilities = sum(level_cost(v, rules) for v in character.abilities.values())
    return abilities + sum(level_cost(t.level, rules) for t in character.talents)


def defences(character: Character, rules: Rules) -> dict[str, int]:
    """II-CHAR-8: the base d6 count an attacker rolls against each Ability."""
    d = rules.defences
    return {a: max(d.minimum, d.base - character.abilities[a]) for a in rules.abilities}


def max_hits(character: Character, rules: Rules) -> int:
    """II-CHAR-9: the wounds a character can take before being taken out."""
    return rules.hits.base + character.abilities[rules.hits.ability]


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "sheet"


def _shape_rule(loc: tuple[int | str, ...]) -> str:
    if loc and loc[0] == "abilities":
        return ids.CHAR_1
    if "skills" in loc:
        return ids.CHAR_6
    if loc and loc[0] == "talents":
        return ids.CHAR_2
    return ids.CHAR_7


def _level_errors(path: str, level: int, rules: Rules, rule: str) -> list[SheetError]:
    low, high = rules.levels.min, rules.levels.max
    if low <= level <= high:
        return []
    return [SheetError(rule, path, f"a level is a whole number from {low} to {high}, got {level}")]


def _rule_errors(sheet: Character, rules: Rules) -> list[SheetError]:
    errors: list[SheetError] = []
    expected = set(rules.abilities)
    for name in rules.abilities:
        if name not in sheet.abilities:
            errors.append(SheetError(ids.CHAR_1, f"abilities.{name}", f"the Ability {name!r} is missing"))
    for name, level in sheet.abilities.items():
        if name not in expected:
            known = ", ".join(rules.abilities)
            errors.append(
                SheetError(ids.CHAR_1, f"abilities.{name}", f"unknown Ability {name!r}; expected {known}")
            )
        else:
            errors += _level_errors(f"abilities.{name}", level, rules, ids.CHAR_1)
    seen: set[str] = set()
    held: dict[str, int] = {}
    for i, talent in enumerate(sheet.talents):
        path = f"talents[{i}]"
        if talent.name in seen:
            errors.append(
                SheetError(ids.CHAR_2, f"{path}.name", f"the Talent name {talent.name!r} is used twice")
            )
        seen.add(talent.name)
        errors += _level_errors(f"{path}.level", talent.level, rules, ids.CHAR_2)
        if talent.ability not in expected:
            known = ", ".join(rules.abilities)
            errors.append(
                SheetError(
                    ids.CHAR_2, f"{path}.ability", f"unknown Ability {talent.ability!r}; expected {known}"
                )
            )
            continue
        parent = sheet.abilities.get(talent.ability, 0)
        if talent.level > parent:
            errors.append(
                SheetError(
                    ids.CHAR_2,
                    f"{path}.level",
                    f"Talent {talent.name!r} is level {talent.level}, above its Ability "
                    f"{talent.ability} ({parent})",
                )
            )
        held[talent.ability] = held.get(talent.ability, 0) + 1
        if held[talent.ability] > parent * rules.talents_per_ability_level:
            errors.append(
                SheetError(
                    ids.CHAR_3,
                    path,
                    f"{talent.ability} (level {parent}) may hold at most "
                    f"{parent * rules.talents_per_ability_level} Talents; {talent.name!r} is one too many",
                )
            )
        errors += _skill_errors(path, talent, rules)
    if rules.budget is not None and not errors and sheet_cost(sheet, rules) > rules.budget:
        errors.append(
            SheetError(
                ids.CHAR_5,
                "sheet",
                f"costs {sheet_cost(sheet, rules)} points, over the budget {rules.budget}",
            )
        )
    return errors


def _skill_errors(path: str, talent: Talent, rules: Rules) -> list[SheetError]:
    errors: list[SheetError] = []
    for j, skill in enumerate(talent.skills):
        where = f"{path}.skills[{j}]"
        if skill.kind not in rules.skills.kinds:
            allowed = ", ".join(rules.skills.kinds)
            errors.append(
                SheetError(
                    ids.CHAR_6,
                    f"{where}.kind",
                    f"Skill kind {skill.kind!r} is not allowed; expected {allowed}",
                )
            )
        if skill.cost < 0:
            errors.append(
                SheetError(ids.CHAR_6, f"{where}.cost", f"a Skill's cost is 0 or more, got {skill.cost}")
            )
        for effect in skill.effects:
            if effect not in rules.skills.effects:
                known = ", ".join(rules.skills.effects)
                errors.append(
                    SheetError(
                        ids.SKILL_2,
                        f"{where}.effects.{effect}",
                        f"unknown effect {effect!r}; expected {known}",
                    )
                )
    return errors


def check_sheet(raw: Any, rules: Rules) -> tuple[Character | None, list[SheetError]]:
    """Parse ``raw`` and check every II-CHAR rule; the character is ``None`` when its shape is wrong."""
    if not isinstance(raw, Mapping):
        return None, [
            SheetError(ids.CHAR_7, "sheet", "a character sheet is a mapping with name, abilities, talents")
        ]
    try:
        sheet = Character.model_validate(raw)
    except ValidationError as error:
        rows = []
        for item in error.errors():
            loc = tuple(item["loc"])
            rows.append(
                SheetError(_shape_rule(loc), _path(loc), f"{item['msg']} (got {item.get('input')!r})")
            )
        return None, rows + _errors_beside_unknown_keys(raw, error, rules)
    return sheet, _rule_errors(sheet, rules)


def _errors_beside_unknown_keys(
    raw: Mapping[str, Any], error: ValidationError, rules: Rules
) -> list[SheetError]:
    """II-CHAR-7: when unknown keys are the only shape errors, the rules are still checked without them."""
    if any(item["type"] != "extra_forbidden" for item in error.errors()):
        return []
    pruned = copy.deepcopy(dict(raw))
    for item in error.errors():
        *parents, key = item["loc"]
        holder: Any = pruned
        for part in parents:
            holder = holder[part]
        holder.pop(key, None)
    try:
        sheet = Character.model_validate(pruned)
    except ValidationError:
        return []
    return _rule_errors(sheet, rules)


def parse_sheet(raw: Any, rules: Rules, where: str = "sheet") -> Character:
    """A valid character, or :class:`MalformedCommand` listing every broken rule."""
    sheet, errors = check_sheet(raw, rules)
    if sheet is None or errors:
        listed = "; ".join(f"{e.path}: {e.message} ({e.rule})" for e in errors)
        first = errors[0]
        raise MalformedCommand(
            f"invalid {where}: {listed}", rule=first.rule, path=first.path, code="invalid_sheet"
        )
    return sheet
