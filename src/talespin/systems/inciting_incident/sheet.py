"""Character sheets: the pydantic models, cost, defences and hits.

A sheet is plain YAML or JSON (see ``contracts.md``, "Sheets")::

    name: Ada
    abilities: {fortitude: 3, perseverance: 4, nimbleness: 5}
    talents:
      - {name: Piloting, ability: nimbleness, level: 5, limitations: [only vehicles she knows]}

:func:`.sheet_checks.check_sheet` returns the parsed :class:`Character` (or ``None`` when its shape is
wrong) together with *every* broken rule as :class:`SheetError` (rule ID, field path such as ``talents[2]``
or ``abilities.nimbleness``, and a plain message). Nothing is clamped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .rules import Rules, default_rules

__all__ = [
    "Character",
    "SheetError",
    "Skill",
    "Talent",
    "defences",
    "level_cost",
    "level_dice",
    "max_hits",
    "sheet_cost",
]


class _Sheet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Skill(_Sheet):
    """II-CHAR-6: a Skill of a Talent. ``effects`` uses the closed vocabulary of II-SKILL-2.

    ``kind`` is any text here: the rules data's ``skills.kinds`` decides which are allowed, so a bad kind is
    reported beside the Skill's other broken rules (II-CHAR-7) instead of hiding them.
    """

    name: str = Field(min_length=1)
    cost: int
    kind: str = Field(json_schema_extra={"enum": list(default_rules().skills.kinds)})
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
