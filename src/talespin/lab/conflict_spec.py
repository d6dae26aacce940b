"""A conflict as the lab simulates it: both sides' sheets, each side's stated policy, a limit on rounds.

::

    characters: [<sheet>, …]           # full sheets (II-CHAR rules checked); the CLI reads file names
    enemies: [<sheet>, …]
    policies:
      characters: {decisive_at: 4, target: weakest}   # Decisive once the Flow in the side's favour is ≥ 4
      enemies: {decisive_at: 2, target: first}
    max_rounds: 30

Every participant attacks with its highest-level Talent (the first listed among equals), through the
target's default defence (II-CHAR-8); ``target`` is ``weakest`` (the opponent with the fewest hits left)
or ``first`` (the first opponent still in). In a round the characters act in order, then the enemies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..systems.errors import MalformedCommand
from ..systems.inciting_incident.rules import Rules, default_rules
from ..systems.inciting_incident.sheet import defences, max_hits
from ..systems.inciting_incident.sheet_checks import parse_sheet

__all__ = ["SIDES", "Conflict", "Fighter", "SidePolicy", "parse_conflict"]

SIDES = ("characters", "enemies")
TARGETS = ("weakest", "first")
MAX_ROUNDS = 1000
"""At most this many rounds may be asked for (a conflict that long is a stalemate)."""


@dataclass(frozen=True, slots=True)
class Fighter:
    """One participant: its side, its attack's Talent dice, its defence (base d6 against it), its hits."""

    name: str
    side: int
    talent: str | None
    dice: tuple[int, ...]
    defence: int
    hits: int


@dataclass(frozen=True, slots=True)
class SidePolicy:
    """How one side fights: Decisive once the Flow in its favour reaches ``decisive_at``; whom it targets."""

    decisive_at: int = 3
    target: str = "weakest"


@dataclass(frozen=True)
class Conflict:
    """Both sides in acting order (characters first), the two policies and the round limit."""

    fighters: tuple[Fighter, ...]
    policies: tuple[SidePolicy, SidePolicy]
    max_rounds: int = 30


MAX_ROUNDS_DEFAULT = 30
"""The round limit when a conflict names none."""


def _fighter(raw: Any, side: int, where: str, rules: Rules) -> Fighter:
    sheet = parse_sheet(raw, rules, where=where)
    ability = rules.defences.default_ability
    best = max(sheet.talents, key=lambda t: t.level, default=None)
    dice = rules.levels.dice[best.level] if best is not None else ()
    return Fighter(
        sheet.name,
        side,
        best.name if best else None,
        dice,
        defences(sheet, rules)[ability],
        max_hits(sheet, rules),
    )


def _policy(raw: Any, where: str) -> SidePolicy:
    if raw is None:
        return SidePolicy()
    if not isinstance(raw, Mapping) or set(map(str, raw)) - {"decisive_at", "target"}:
        raise MalformedCommand(f"{where} takes decisive_at and target", code="bad_conflict", path=where)
    at = raw.get("decisive_at", SidePolicy().decisive_at)
    if not isinstance(at, int) or isinstance(at, bool) or abs(at) > MAX_ROUNDS:
        raise MalformedCommand(f"{where}.decisive_at must be a whole number", code="bad_conflict", path=where)
    target = raw.get("target", SidePolicy().target)
    if target not in TARGETS:
        raise MalformedCommand(
            f"{where}.target must be one of {', '.join(TARGETS)}, got {target!r}",
            code="bad_conflict",
            path=f"{where}.target",
        )
    return SidePolicy(at, str(target))


def parse_conflict(raw: Any, rules: Rules | None = None) -> Conflict:
    """A checked :class:`Conflict`; every problem is refused with the path that holds it."""
    rules = rules or default_rules()
    if not isinstance(raw, Mapping):
        raise MalformedCommand("a conflict is a mapping with characters and enemies", code="bad_conflict")
    unknown = sorted(set(map(str, raw)) - {"characters", "enemies", "policies", "max_rounds"})
    if unknown:
        raise MalformedCommand(f"unknown conflict key {unknown[0]!r}", code="bad_conflict", path=unknown[0])
    fighters: list[Fighter] = []
    for side, key in enumerate(SIDES):
        entries = raw.get(key)
        if not isinstance(entries, Sequence) or isinstance(entries, str) or not entries:
            raise MalformedCommand(f"{key} must be a non-empty list of sheets", code="bad_conflict", path=key)
        fighters += [_fighter(e, side, f"{key}[{i}]", rules) for i, e in enumerate(entries)]
    names = [f.name for f in fighters]
    if len(set(names)) != len(names):
        raise MalformedCommand("every participant needs its own name", code="bad_conflict", path="enemies")
    policies = raw.get("policies") or {}
    if not isinstance(policies, Mapping) or set(map(str, policies)) - set(SIDES):
        raise MalformedCommand("policies maps characters and enemies", code="bad_conflict", path="policies")
    rounds = raw.get("max_rounds", MAX_ROUNDS_DEFAULT)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise MalformedCommand(
            f"max_rounds must be a whole number 1..{MAX_ROUNDS}", code="bad_conflict", path="max_rounds"
        )
    pair = (
        _policy(policies.get(SIDES[0]), "policies.characters"),
        _policy(policies.get(SIDES[1]), "policies.enemies"),
    )
    return Conflict(tuple(fighters), pair, rounds)
