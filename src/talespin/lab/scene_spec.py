"""An action scene as the lab reads it: difficulty, Triggers, obstacles in order and the characters present.

A scene is written the way a GM prepares one (YAML or JSON, read by the caller)::

    difficulty: 5                      # base d6 count (II-ROLL-5); an obstacle may set its own
    triggers: [{at: 10, every: 10}, {at: 15}]
    characters:                        # sheets, or {name, talents: {Talent: level}}
      - {name: Ada, talents: {Piloting: 5, Wits: 3}}
      - {name: Bo, talents: {Brawl: 4}}
    obstacles:
      - {kind: simple, to: Ada}        # presented to Ada; or choose: group | random; or individually: true
      - {kind: complex, obstruction: 20, attempts: 2}

>>> scene = parse_scene({"triggers": [{"at": 8}], "characters": [{"name": "Ada", "talents": {"Wits": 3}}],
...                      "obstacles": [{"kind": "simple"}]})
>>> scene.steps[0].faced_by, scene.steps[0].choose
(('Ada',), 'group')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..systems.errors import MalformedCommand
from ..systems.inciting_incident.rules import Rules, default_rules
from .party import Member, parse_party

__all__ = ["ComplexStep", "Scene", "SimpleStep", "Trigger", "parse_scene"]


@dataclass(frozen=True, slots=True)
class Trigger:
    """II-CRISIS-2: fires when Crisis reaches ``at``; a repeating one again at ``at + every``, …"""

    at: int
    every: int | None = None
    text: str = ""

    def firings(self, crisis: int) -> int:
        """How many of its values a scene ending at ``crisis`` has reached (each fires once, II-CRISIS-4)."""
        if crisis < self.at:
            return 0
        return 1 if self.every is None else 1 + (crisis - self.at) // self.every


@dataclass(frozen=True, slots=True)
class SimpleStep:
    """A Simple Obstacle faced once: by one of ``faced_by``, picked as ``choose`` says.

    ``choose`` is ``"named"`` (one character), ``"group"`` (the players pick who, II-SIMPLE-1) or
    ``"random"`` (each with equal chance). An obstacle every character must pass is one step per character.
    """

    faced_by: tuple[str, ...]
    choose: str
    difficulty: int


@dataclass(frozen=True, slots=True)
class ComplexStep:
    """A Complex Obstacle (II-COMPLEX-1): its Obstruction and Decisive attempts."""

    obstruction: int
    attempts: int
    difficulty: int


Step = SimpleStep | ComplexStep


@dataclass(frozen=True)
class Scene:
    """Everything the analysis needs, checked: the steps are in the order they are played."""

    party: tuple[Member, ...]
    triggers: tuple[Trigger, ...]
    steps: tuple[Step, ...]
    difficulty: int
    advantage: int = 0


def _int(  # noqa: PLR0917 -- the value, where it is and its bounds read as one phrase
    raw: Mapping[str, Any], key: str, where: str, low: int, high: int | None, default: int | None
) -> int:
    value = raw.get(key, default)
    ok = isinstance(value, int) and not isinstance(value, bool)
    if not ok or value < low or (high is not None and value > high):  # None is not an int: refused
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise MalformedCommand(
            f"{where}.{key} must be a whole number {span}, got {value!r}",
            code="bad_scene",
            path=f"{where}.{key}",
        )
    return int(value)


def _check_keys(raw: Any, allowed: set[str], where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise MalformedCommand(f"{where} must be a mapping", code="bad_scene", path=where)
    unknown = sorted(set(map(str, raw)) - allowed)
    if unknown:
        raise MalformedCommand(
            f"{where} has unknown key {unknown[0]!r}; expected {', '.join(sorted(allowed))}",
            code="bad_scene",
            path=f"{where}.{unknown[0]}",
        )
    return raw


def _triggers(raw: Any) -> tuple[Trigger, ...]:
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise MalformedCommand("triggers must be a list of {at, every}", code="bad_scene", path="triggers")
    out = []
    for i, item in enumerate(raw):
        where = f"triggers[{i}]"
        entry = _check_keys(item, {"at", "every", "text", "visibility"}, where)
        at = _int(entry, "at", where, 1, None, None)
        every = _int(entry, "every", where, 1, None, 1) if entry.get("every") is not None else None
        out.append(Trigger(at, every, str(entry.get("text", ""))))
    return tuple(out)


def _simple(entry: Mapping[str, Any], where: str, names: tuple[str, ...], d6: int) -> list[Step]:
    if entry.get("individually"):
        return [SimpleStep((name,), "named", d6) for name in names]
    to, choose = entry.get("to"), entry.get("choose", "group")
    if to is not None:
        if to not in names:
            raise MalformedCommand(f"{where}.to: {to!r} is not present", code="bad_scene", path=f"{where}.to")
        return [SimpleStep((to,), "named", d6)]
    if choose not in ("group", "random"):
        raise MalformedCommand(
            f"{where}.choose must be 'group' or 'random', got {choose!r}",
            code="bad_scene",
            path=f"{where}.choose",
        )
    return [SimpleStep(names, "named" if len(names) == 1 else str(choose), d6)]


def parse_scene(raw: Any, rules: Rules | None = None) -> Scene:
    """A checked :class:`Scene` from a mapping; every problem is refused with the path that holds it."""
    rules = rules or default_rules()
    scene = _check_keys(raw, {"difficulty", "triggers", "characters", "obstacles", "advantage"}, "scene")
    low, high = rules.roll.difficulty.min, rules.roll.difficulty.max
    difficulty = _int(scene, "difficulty", "scene", low, high, rules.roll.difficulty.default)
    # A scene is played with plain Talent rolls: its characters' modifier Skills are not weighed.
    party = tuple(replace(m, modifiers=()) for m in parse_party(scene.get("characters"), rules))
    names = tuple(m.name for m in party)
    obstacles = scene.get("obstacles")
    if not isinstance(obstacles, Sequence) or isinstance(obstacles, str) or not obstacles:
        raise MalformedCommand("obstacles must be a non-empty list", code="bad_scene", path="obstacles")
    steps: list[Step] = []
    span = rules.complex.attempts
    for i, item in enumerate(obstacles):
        where = f"obstacles[{i}]"
        entry = _check_keys(
            item, {"kind", "to", "choose", "individually", "obstruction", "attempts", "difficulty"}, where
        )
        d6 = _int(entry, "difficulty", where, low, high, difficulty)
        if entry.get("kind") == "simple":
            steps += _simple(entry, where, names, d6)
        elif entry.get("kind") == "complex":
            obstruction = _int(entry, "obstruction", where, rules.complex.obstruction_min, None, None)
            attempts = _int(entry, "attempts", where, span.min, span.max, span.max)
            steps.append(ComplexStep(obstruction, attempts, d6))
        else:
            raise MalformedCommand(
                f"{where}.kind must be 'simple' or 'complex', got {entry.get('kind')!r}",
                code="bad_scene",
                path=f"{where}.kind",
            )
    advantage = scene.get("advantage", 0)
    if not isinstance(advantage, int) or isinstance(advantage, bool):
        raise MalformedCommand("advantage must be a whole number", code="bad_scene", path="advantage")
    return Scene(party, _triggers(scene.get("triggers", [])), tuple(steps), difficulty, advantage)
