"""II-CHAR-7: every broken rule of a sheet at once, even when part of it does not parse.

:func:`check_sheet` parses a sheet with the pydantic models of :mod:`.sheet`. When the whole sheet parses,
every II-CHAR rule is checked on it. When a field has the wrong type (a Talent with ``level: "a"``, an
Ability ``fortitude: "x"``), pydantic's rows are reported *and* the rules are still checked on every part
that does parse, field by field, keeping each part's place in the sheet::

    talents:
      - {name: Piloting, ability: nimbleness, level: "a"}   # talents[0].level: not an integer (shape)
      - {name: Piloting, ability: nimbleness, level: 7}     # talents[1].name: used twice (II-CHAR-2)
                                                            # talents[1].level: above its Ability (II-CHAR-2)

A rule that needs a value which did not parse is not checked (a Talent under an Ability whose level is
``"x"`` is not compared with it), so nothing is reported twice or guessed. The budget (II-CHAR-5) is
checked only on a sheet that parses with no other error.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from ...text import excerpt
from ..errors import MalformedCommand
from . import rule_ids as ids
from .rules import Rules
from .sheet import Character, SheetError, Skill, Talent, sheet_cost

__all__ = ["check_sheet", "parse_sheet"]

_INT: TypeAdapter[int] = TypeAdapter(int)


@dataclass(frozen=True, slots=True)
class _SkillFacts:
    """What is known of one Skill: each field that parsed on its own (``None`` otherwise)."""

    kind: str | None
    cost: int | None
    effects: tuple[str, ...]

    @classmethod
    def of(cls, skill: Skill) -> _SkillFacts:
        return cls(skill.kind, skill.cost, tuple(skill.effects))

    @classmethod
    def salvaged(cls, raw: Any) -> _SkillFacts:
        """The fields of a Skill that does not parse as a whole."""
        if not isinstance(raw, Mapping):
            return cls(None, None, ())
        effects = raw.get("effects")
        kind = raw.get("kind")
        return cls(
            kind if isinstance(kind, str) else None,
            _int_or_none(raw.get("cost")),
            tuple(str(e) for e in effects) if isinstance(effects, Mapping) else (),
        )


@dataclass(frozen=True, slots=True)
class _TalentFacts:
    """What is known of one Talent: each field that parsed (``None`` otherwise) and what its Skills hold."""

    index: int
    name: str | None
    ability: str | None
    level: int | None
    skills: tuple[tuple[int, _SkillFacts], ...]


def _int_or_none(value: Any) -> int | None:
    try:
        return _INT.validate_python(value)
    except ValidationError:
        return None


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _facts(index: int, talent: Talent) -> _TalentFacts:
    """Everything of a Talent that parsed, at its place in the sheet."""
    skills = tuple((j, _SkillFacts.of(skill)) for j, skill in enumerate(talent.skills))
    return _TalentFacts(index, talent.name, talent.ability, talent.level, skills)


def _partial_facts(index: int, raw: Mapping[str, Any]) -> _TalentFacts:
    """The fields of a Talent that does not parse as a whole, each kept only if it parses on its own."""
    skills: list[tuple[int, _SkillFacts]] = []
    raw_skills = raw.get("skills", ())
    if isinstance(raw_skills, list | tuple):
        for j, item in enumerate(raw_skills):
            try:
                skills.append((j, _SkillFacts.of(Skill.model_validate(item))))
            except ValidationError:
                skills.append((j, _SkillFacts.salvaged(item)))
    name, ability = _text_or_none(raw.get("name")), _text_or_none(raw.get("ability"))
    return _TalentFacts(index, name, ability, _int_or_none(raw.get("level")), tuple(skills))


def _label(talent: _TalentFacts) -> str:
    return repr(talent.name) if talent.name is not None else f"talents[{talent.index}]"


def _level_errors(path: str, level: int, rules: Rules, rule: str) -> list[SheetError]:
    low, high = rules.levels.min, rules.levels.max
    if low <= level <= high:
        return []
    return [SheetError(rule, path, f"a level is a whole number from {low} to {high}, got {level}")]


def _ability_errors(abilities: Mapping[str, int], unparsed: frozenset[str], rules: Rules) -> list[SheetError]:
    """II-CHAR-1: the three Abilities, each a level in range; an unparsed one is not called missing."""
    errors: list[SheetError] = []
    known = ", ".join(rules.abilities)
    for name in rules.abilities:
        if name not in abilities and name not in unparsed:
            errors.append(SheetError(ids.CHAR_1, f"abilities.{name}", f"the Ability {name!r} is missing"))
    for name, level in abilities.items():
        if name not in rules.abilities:
            errors.append(
                SheetError(ids.CHAR_1, f"abilities.{name}", f"unknown Ability {name!r}; expected {known}")
            )
        else:
            errors += _level_errors(f"abilities.{name}", level, rules, ids.CHAR_1)
    return errors


def _talent_errors(
    abilities: Mapping[str, int], unparsed: frozenset[str], talents: list[_TalentFacts], rules: Rules
) -> list[SheetError]:
    """II-CHAR-2/3/6: unique names, levels in range and under the parent, room under each Ability, Skills."""
    errors: list[SheetError] = []
    seen: set[str] = set()
    held: dict[str, int] = {}
    for talent in talents:
        path = f"talents[{talent.index}]"
        if talent.name is not None:
            if talent.name in seen:
                message = f"the Talent name {talent.name!r} is used twice"
                errors.append(SheetError(ids.CHAR_2, f"{path}.name", message))
            seen.add(talent.name)
        if talent.level is not None:
            errors += _level_errors(f"{path}.level", talent.level, rules, ids.CHAR_2)
        errors += _parent_errors(path, talent, abilities, unparsed, held=held, rules=rules)
        errors += _skill_errors(path, talent.skills, rules)
    return errors


def _parent_errors(
    path: str,
    talent: _TalentFacts,
    abilities: Mapping[str, int],
    unparsed: frozenset[str],
    *,
    held: dict[str, int],
    rules: Rules,
) -> list[SheetError]:
    """II-CHAR-2/3: the Talent's Ability is known, its level is not above it, and it has room for it."""
    ability = talent.ability
    if ability is None or ability in unparsed:
        return []
    if ability not in rules.abilities:
        known = ", ".join(rules.abilities)
        return [SheetError(ids.CHAR_2, f"{path}.ability", f"unknown Ability {ability!r}; expected {known}")]
    errors: list[SheetError] = []
    parent = abilities.get(ability, 0)
    if talent.level is not None and talent.level > parent:
        message = f"Talent {_label(talent)} is level {talent.level}, above its Ability {ability} ({parent})"
        errors.append(SheetError(ids.CHAR_2, f"{path}.level", message))
    held[ability] = held.get(ability, 0) + 1
    room = parent * rules.talents_per_ability_level
    if held[ability] > room:
        message = (
            f"{ability} (level {parent}) may hold at most {room} Talents; {_label(talent)} is one too many"
        )
        errors.append(SheetError(ids.CHAR_3, path, message))
    return errors


def _skill_errors(path: str, skills: Iterable[tuple[int, _SkillFacts]], rules: Rules) -> list[SheetError]:
    """II-CHAR-6 / II-SKILL-2: a known kind, a cost of 0 or more, effects from the closed vocabulary.

    Every one of them is reported: a bad kind does not hide a negative cost or an unknown effect.
    """
    errors: list[SheetError] = []
    for j, skill in skills:
        where = f"{path}.skills[{j}]"
        if skill.kind is not None and skill.kind not in rules.skills.kinds:
            allowed = ", ".join(rules.skills.kinds)
            message = f"Skill kind {skill.kind!r} is not allowed; expected {allowed}"
            errors.append(SheetError(ids.CHAR_6, f"{where}.kind", message))
        if skill.cost is not None and skill.cost < 0:
            message = f"a Skill's cost is 0 or more, got {skill.cost}"
            errors.append(SheetError(ids.CHAR_6, f"{where}.cost", message))
        for effect in skill.effects:
            if effect not in rules.skills.effects:
                message = f"unknown effect {effect!r}; expected {', '.join(rules.skills.effects)}"
                errors.append(SheetError(ids.SKILL_2, f"{where}.effects.{effect}", message))
    return errors


def _salvaged_errors(raw: Mapping[str, Any], rules: Rules) -> list[SheetError]:
    """II-CHAR-7: the rules broken by the parts of a sheet that parse, when the whole does not."""
    abilities: dict[str, int] = {}
    unparsed: set[str] = set()
    raw_abilities = raw.get("abilities")
    if isinstance(raw_abilities, Mapping):
        for name, value in raw_abilities.items():
            level = _int_or_none(value)
            if level is None:
                unparsed.add(str(name))
            else:
                abilities[str(name)] = level
    else:
        unparsed.update(rules.abilities)
    talents: list[_TalentFacts] = []
    raw_talents = raw.get("talents", ())
    if isinstance(raw_talents, list | tuple):
        for i, item in enumerate(raw_talents):
            if not isinstance(item, Mapping):
                continue
            try:
                talents.append(_facts(i, Talent.model_validate(item)))
            except ValidationError:
                talents.append(_partial_facts(i, item))
    frozen = frozenset(unparsed)
    return _ability_errors(abilities, frozen, rules) + _talent_errors(abilities, frozen, talents, rules)


def _rule_errors(sheet: Character, rules: Rules) -> list[SheetError]:
    """Every II-CHAR rule on a sheet that parses, the budget last (only when nothing else is broken)."""
    none: frozenset[str] = frozenset()
    errors = _ability_errors(sheet.abilities, none, rules)
    errors += _talent_errors(
        sheet.abilities, none, [_facts(i, t) for i, t in enumerate(sheet.talents)], rules
    )
    if rules.budget is not None and not errors and sheet_cost(sheet, rules) > rules.budget:
        message = f"costs {sheet_cost(sheet, rules)} points, over the budget {rules.budget}"
        errors.append(SheetError(ids.CHAR_5, "sheet", message))
    return errors


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


_KINDS = {
    dict: "a mapping",
    list: "a list",
    tuple: "a list",
    str: "a text",
    bool: "true or false",
    int: "a whole number",
    float: "a decimal number",
    type(None): "nothing (null)",
}


def _shown(value: Any) -> str:
    """What a person gave, in words: a short quote of a text or number, the kind of anything else."""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return excerpt(value)
    return _KINDS.get(type(value), "a value of another kind")


def _shape_message(item: ErrorDetails) -> str:
    """One field pydantic refuses, in the words Ascend's sheets use: what was expected, and what came."""
    loc = tuple(item["loc"])
    field = str(loc[-1]) if loc and isinstance(loc[-1], str) else "this entry"
    kind = item["type"]
    got = _shown(item.get("input"))
    context = item.get("ctx") or {}
    words = {
        "missing": f"{field} is missing",
        "extra_forbidden": f"{field!r} is not a field here; remove it or check its spelling",
        "int_type": f"{field} must be a whole number, got {got}",
        "int_parsing": f"{field} must be a whole number, got {got}",
        "int_from_float": f"{field} must be a whole number, got {got}",
        "string_type": f"{field} must be a text, got {got}",
        "string_too_short": f"{field} must not be empty",
        "dict_type": f"{field} must be a mapping of names to values, got {got}",
        "model_type": f"{field} must be a mapping of fields, got {got}",
        "model_attributes_type": f"{field} must be a mapping of fields, got {got}",
        "list_type": f"{field} must be a list, got {got}",
        "tuple_type": f"{field} must be a list, got {got}",
        "bool_type": f"{field} must be true or false, got {got}",
        "bool_parsing": f"{field} must be true or false, got {got}",
        "less_than_equal": f"{field} must be at most {context.get('le')}, got {got}",
        "greater_than_equal": f"{field} must be at least {context.get('ge')}, got {got}",
    }
    return words.get(kind, f"{field} is not valid here, got {got}")


def check_sheet(raw: Any, rules: Rules) -> tuple[Character | None, list[SheetError]]:
    """Parse ``raw`` and check every II-CHAR rule; the character is ``None`` when its shape is wrong.

    Shape errors come first (one row per field pydantic refuses), then the rules broken by the parts that
    parse. Nothing is clamped and ``raw`` is not changed.
    """
    if not isinstance(raw, Mapping):
        return None, [
            SheetError(
                ids.CHAR_7,
                "sheet",
                f"a character sheet is a mapping with name, abilities, talents, got {_shown(raw)}",
            )
        ]
    try:
        sheet = Character.model_validate(raw)
    except ValidationError as error:
        rows = []
        for item in error.errors():
            loc = tuple(item["loc"])
            rows.append(SheetError(_shape_rule(loc), _path(loc), _shape_message(item)))
        return None, rows + _salvaged_errors(raw, rules)
    return sheet, _rule_errors(sheet, rules)


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
