"""The characters a lab question is about, and the outcome table of each Talent's roll.

The lab asks the rules engine, never itself, what a roll does: the capped distribution of a total comes
from :func:`talespin.systems.inciting_incident.chances.total_distribution` and the Crisis of each total from
the same ``roll_crisis`` / ``action_crisis`` the table plays with, so the lab and the table cannot disagree.

A party member is a name, its Talents' levels and the modifier Skills of those Talents (II-SKILL-1/2), read
from a full sheet (each Talent's ``skills``) or from a short form (``skills: {Talent: [Skill, …]}``)::

    >>> party = parse_party([{"name": "Ada", "talents": {"Piloting": 5, "Wits": 3},
    ...     "skills": {"Wits": [{"name": "Quick Study", "cost": 3, "kind": "modifier",
    ...                          "effects": {"advantage": 3}}]}}])
    >>> party[0].talents
    (('Piloting', 5), ('Wits', 3))
    >>> [(m.talent, m.name) for m in party[0].modifiers]
    [('Wits', 'Quick Study')]

Only a modifier Skill whose structured effects change a roll on a Complex Obstacle is kept (its Advantage,
Disadvantage, ``crisis`` or ``obstruction``); the roll it rides on is weighed with the systems' own
:class:`~talespin.systems.inciting_incident.plan.RollPlan` (:meth:`Member.plan_talent`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from ..systems.errors import MalformedCommand
from ..systems.inciting_incident.chances import action_crisis, roll_crisis, total_distribution
from ..systems.inciting_incident.plan import final_d6
from ..systems.inciting_incident.rules import Rules
from ..systems.inciting_incident.sheet import Skill, Talent

__all__ = ["ROLL_EFFECTS", "Member", "Modifier", "RollTable", "parse_party", "roll_table", "total_table"]

ROLL_EFFECTS = ("advantage", "disadvantage", "crisis", "obstruction")
"""The II-SKILL-2 effects that change what a roll on a Complex Obstacle does to Obstruction and Crisis."""


@dataclass(frozen=True, slots=True)
class Modifier:
    """A modifier Skill of one Talent (II-SKILL-1): its name and structured effects, as sorted pairs."""

    talent: str
    name: str
    effects: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Member:
    """One character present: its name, its Talents as ``(name, level)`` pairs in sheet order, and the
    modifier Skills of those Talents that change a roll (:data:`ROLL_EFFECTS`), in sheet order."""

    name: str
    talents: tuple[tuple[str, int], ...]
    modifiers: tuple[Modifier, ...] = ()

    def modifiers_of(self, talent: str) -> tuple[Modifier, ...]:
        """The modifier Skills of ``talent``, in sheet order."""
        return tuple(m for m in self.modifiers if m.talent == talent)

    def plan_talent(self, talent: str) -> Talent:
        """``talent`` as the sheet model the systems' roll plan reads (its level and modifier Skills)."""
        level = dict(self.talents)[talent]
        skills = tuple(
            Skill(name=m.name, cost=0, kind="modifier", effects=dict(m.effects))
            for m in self.modifiers_of(talent)
        )
        return Talent(name=talent, ability="", level=level, skills=skills)


def _modifiers(raw: Any, talent: str, where: str, rules: Rules) -> list[Modifier]:
    """The modifier Skills of one Talent that change a roll; advanced and narrative ones are left out."""
    if raw is None:
        return []
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise MalformedCommand(f"{where} must be a list of Skills", code="bad_party", path=where)
    out = []
    for k, entry in enumerate(raw):
        try:
            skill = Skill.model_validate(entry)
        except ValidationError as error:
            raise MalformedCommand(
                f"{where}[{k}] must be a Skill (name, cost, kind, effects): {error.errors()[0]['msg']}",
                code="bad_party",
                path=f"{where}[{k}]",
            ) from None
        unknown = [e for e in skill.effects if e not in rules.skills.effects]
        if unknown:
            raise MalformedCommand(
                f"{where}[{k}]: unknown effect {unknown[0]!r}; expected {', '.join(rules.skills.effects)}",
                code="bad_party",
                path=f"{where}[{k}].effects",
            )
        effects = tuple(sorted((e, v) for e, v in skill.effects.items() if e in ROLL_EFFECTS and v))
        if skill.kind == "modifier" and effects:
            out.append(Modifier(talent, skill.name, effects))
    return out


def _talents(raw: Any, where: str, rules: Rules) -> tuple[tuple[tuple[str, int], ...], list[Modifier]]:
    modifiers: list[Modifier] = []
    if isinstance(raw, Mapping):
        pairs = list(raw.items())
    elif isinstance(raw, Sequence) and not isinstance(raw, str):
        pairs = []
        for k, t in enumerate(raw):
            if not isinstance(t, Mapping) or "name" not in t or "level" not in t:
                raise MalformedCommand(
                    f"{where}.talents[{k}] must be a mapping with name and level",
                    code="bad_party",
                    path=f"{where}.talents[{k}]",
                )
            pairs.append((t["name"], t["level"]))
            if isinstance(t["name"], str):
                modifiers += _modifiers(t.get("skills"), t["name"], f"{where}.talents[{k}].skills", rules)
    else:
        raise MalformedCommand(
            f"{where}.talents must map Talent names to levels, e.g. {{Piloting: 5}}",
            code="bad_party",
            path=f"{where}.talents",
        )
    out = []
    for name, level in pairs:
        ok = isinstance(level, int) and not isinstance(level, bool)
        if not isinstance(name, str) or not ok or not rules.levels.min <= level <= rules.levels.max:
            raise MalformedCommand(
                f"{where}: Talent {name!r} needs a whole-number level "
                f"{rules.levels.min}..{rules.levels.max}, got {level!r}",
                code="bad_party",
                path=f"{where}.talents",
            )
        out.append((name, level))
    if not out:
        raise MalformedCommand(f"{where} has no Talents to roll", code="bad_party", path=f"{where}.talents")
    return tuple(out), modifiers


def _short_skills(raw: Any, talents: tuple[tuple[str, int], ...], where: str, rules: Rules) -> list[Modifier]:
    """The short form's ``skills: {Talent: [Skill, …]}``: each named Talent must be one of the character's."""
    if raw is None:
        return []
    if not isinstance(raw, Mapping):
        raise MalformedCommand(
            f"{where}.skills must map Talent names to lists of Skills",
            code="bad_party",
            path=f"{where}.skills",
        )
    names = [t for t, _ in talents]
    out: list[Modifier] = []
    for talent, skills in raw.items():
        if talent not in names:
            raise MalformedCommand(
                f"{where}.skills names {talent!r}, not one of its Talents ({', '.join(names)})",
                code="bad_party",
                path=f"{where}.skills",
            )
        out += _modifiers(skills, talent, f"{where}.skills.{talent}", rules)
    return sorted(out, key=lambda m: names.index(m.talent))


def parse_party(raw: Any, rules: Rules | None = None) -> tuple[Member, ...]:
    """Characters from sheets or ``{"name", "talents": {name: level}, "skills"?: {Talent: [Skill]}}``
    mappings; names must be unique."""
    from ..systems.inciting_incident.rules import default_rules  # noqa: PLC0415 -- keeps the signature light

    rules = rules or default_rules()
    if not isinstance(raw, Sequence) or isinstance(raw, str) or not raw:
        raise MalformedCommand(
            "characters must be a non-empty list of {name, talents}", code="bad_party", path="characters"
        )
    members = []
    for i, entry in enumerate(raw):
        where = f"characters[{i}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str) or not entry["name"]:
            raise MalformedCommand(f"{where} needs a name", code="bad_party", path=where)
        talents, modifiers = _talents(entry.get("talents"), where, rules)
        modifiers += _short_skills(entry.get("skills"), talents, where, rules)
        members.append(Member(entry["name"], talents, tuple(modifiers)))
    names = [m.name for m in members]
    if len(set(names)) != len(names):
        raise MalformedCommand("character names must be unique", code="bad_party", path="characters")
    return tuple(members)


@dataclass(frozen=True, slots=True)
class RollTable:
    """A Talent roll's capped total: ``p[t]`` = P(min(total, cap) = t), exact and as floats."""

    d6: int
    level: int
    cap: int
    p: tuple[Fraction, ...]
    floats: tuple[float, ...]

    def regular(self, rules: Rules, extra: int) -> list[tuple[Fraction, int, int]]:
        """Regular Action outcomes ``(p, Obstruction reduction, Crisis)`` (II-COMPLEX-3/4)."""
        target = rules.roll.target
        out = []
        for t, p in enumerate(self.p):
            if p:
                reduction = t - target if t >= target else 0
                out.append((p, reduction, action_crisis(roll_crisis(t, target, rules), extra, rules=rules)))
        return out

    def decisive(self, rules: Rules, obstruction: int) -> list[tuple[Fraction, bool, int]]:
        """Decisive Action outcomes ``(p, beaten, Crisis)`` against the Obstruction (II-COMPLEX-6)."""
        out = []
        for t, p in enumerate(self.p):
            if p:
                crisis = action_crisis(roll_crisis(t, obstruction, rules), 0, rules=rules)
                out.append((p, t >= obstruction, crisis))
        return out


def roll_table(base_d6: int, net_advantage: int, level: int, cap: int, rules: Rules) -> RollTable:
    """A Talent of ``level`` rolled at base d6 ``base_d6`` moved by net Advantage, capped at ``cap``."""
    d6 = final_d6(base_d6, max(net_advantage, 0), max(-net_advantage, 0), rules)
    return total_table(d6, level, cap, rules)


@lru_cache(maxsize=512)
def total_table(d6: int, level: int, cap: int, rules: Rules) -> RollTable:
    """A Talent of ``level`` rolled with ``d6`` final d6 (a roll plan's count), capped at ``cap``."""
    dist = total_distribution(d6, rules.levels.dice[level], cap, rules=rules)
    p = tuple(dist.probability(t) for t in range(cap + 1))
    return RollTable(d6, level, cap, p, tuple(float(x) for x in p))
