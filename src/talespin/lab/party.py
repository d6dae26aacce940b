"""The characters a lab question is about, and the outcome table of each Talent's roll.

The lab asks the rules engine, never itself, what a roll does: the capped distribution of a total comes
from :func:`talespin.systems.inciting_incident.chances.total_distribution` and the Crisis of each total from
the same ``roll_crisis`` / ``action_crisis`` the table plays with, so the lab and the table cannot disagree.

A party member is a name and its Talents' levels, read from a full sheet or from a short form::

    >>> party = parse_party([{"name": "Ada", "talents": {"Piloting": 5, "Wits": 3}}])
    >>> party[0].talents
    (('Piloting', 5), ('Wits', 3))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..systems.errors import MalformedCommand
from ..systems.inciting_incident.chances import action_crisis, roll_crisis, total_distribution
from ..systems.inciting_incident.plan import final_d6
from ..systems.inciting_incident.rules import Rules

__all__ = ["Member", "RollTable", "parse_party", "roll_table"]


@dataclass(frozen=True, slots=True)
class Member:
    """One character present: its name and its Talents as ``(name, level)`` pairs, in sheet order."""

    name: str
    talents: tuple[tuple[str, int], ...]


def _talents(raw: Any, where: str, rules: Rules) -> tuple[tuple[str, int], ...]:
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
    return tuple(out)


def parse_party(raw: Any, rules: Rules | None = None) -> tuple[Member, ...]:
    """Characters from sheets or ``{"name", "talents": {name: level}}`` mappings; names must be unique."""
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
        members.append(Member(entry["name"], _talents(entry.get("talents"), where, rules)))
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


@lru_cache(maxsize=512)
def roll_table(base_d6: int, net_advantage: int, level: int, cap: int, rules: Rules) -> RollTable:
    """A Talent of ``level`` rolled at base d6 ``base_d6`` moved by net Advantage, capped at ``cap``."""
    d6 = final_d6(base_d6, max(net_advantage, 0), max(-net_advantage, 0), rules)
    dist = total_distribution(d6, rules.levels.dice[level], cap, rules=rules)
    p = tuple(dist.probability(t) for t in range(cap + 1))
    return RollTable(d6, level, cap, p, tuple(float(x) for x in p))
