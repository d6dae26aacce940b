"""The rules data of Inciting Incident: one versioned YAML file, loaded once into a frozen, typed object.

Every number and decision of the rules document lives in ``rules.yaml`` beside this module; rule functions
read it from a :class:`Rules` object and never spell a number themselves. A campaign may override any key
with a ``variant`` mapping (nested keys too) — game designers compare rule changes this way::

    >>> load_rules({"crisis": {"auto": 5}}).crisis.auto
    5
    >>> load_rules().roll.target
    20

Unknown keys are refused with a :class:`~talespin.systems.errors.MalformedCommand` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..rules_data import RulesSource

__all__ = ["Rules", "default_rules", "load_rules"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Levels(_Frozen):
    """II-CHAR-4/5: the dice and the point cost of each level."""

    min: int
    max: int
    dice: tuple[tuple[int, ...], ...]
    cost: tuple[int, ...]


class Defences(_Frozen):
    """II-CHAR-8: the attacker's base d6 count against an Ability."""

    base: int
    minimum: int
    default_ability: str


class Hits(_Frozen):
    """II-CHAR-9: maximum hits."""

    base: int
    ability: str


class Rung(_Frozen):
    """One rung of the II-ADV-2 ladder."""

    at_least: int
    d6: int


class Difficulty(_Frozen):
    """II-ROLL-5: the range and default of the base d6 count."""

    min: int
    max: int
    default: int


class RollRules(_Frozen):
    """II-ROLL-3/5."""

    target: int
    d6_size: int
    difficulty: Difficulty


class CrisisRules(_Frozen):
    """Crisis amounts of II-SIMPLE, II-COMPLEX and II-CRISIS."""

    floor: int
    auto: int
    success: int
    failure_minimum: int
    repeated_talent: int
    once_per_value: bool


class SimpleRules(_Frozen):
    """II-SIMPLE-2."""

    auto_rising_tension: int


class Range(_Frozen):
    """An inclusive integer range."""

    min: int
    max: int


class ComplexRules(_Frozen):
    """II-COMPLEX-1/2/7."""

    obstruction_min: int
    obstruction_reduction: int
    auto_rising_tension: int
    attempts: Range
    last_attempt_beats: bool


class SkillRules(_Frozen):
    """II-CHAR-6, II-SKILL-2/3/4."""

    kinds: tuple[str, ...]
    effects: tuple[str, ...]
    recreate_base_d6: int
    recreate_crisis_per_cost: int
    failed_modifier_cost_step: int
    learning_requires_recreation: bool


class SceneRules(_Frozen):
    """II-SCENE-1/2/3."""

    kinds: tuple[str, ...]
    cooperative_first_gain: int
    cooperative_gain_step: int
    changes_per_cooperative_scene: int
    heal_removes_all: bool


class SpendCosts(_Frozen):
    """II-RT-3: what the GM pays for each purchase."""

    disadvantage: int
    trigger: int
    obstacle: int
    enemy: int


class TensionRules(_Frozen):
    """II-RT-1/3/4."""

    floor: int
    costs: SpendCosts
    restful_reduction: int
    restful_every_scenes: int


class ConflictRules(_Frozen):
    """II-FLOW-1..4 (provisional)."""

    flow_start: int
    success_minimum_flow: int
    enemy_failure_flow: int
    guard: int
    guard_minimum: int
    wounds_per_decisive: int
    flow_after_wound: int
    one_action_per_round: bool


class Rules(_Frozen):
    """The whole rules data, frozen. Read it; never copy a number out of it into code."""

    version: str
    levels: Levels
    abilities: tuple[str, ...]
    talents_per_ability_level: int
    budget: int | None
    defences: Defences
    hits: Hits
    ladder: tuple[Rung, ...]
    roll: RollRules
    crisis: CrisisRules
    simple: SimpleRules
    complex: ComplexRules
    skills: SkillRules
    scenes: SceneRules
    rising_tension: TensionRules
    conflict: ConflictRules


_SOURCE = RulesSource(Rules, __name__.rpartition(".")[0])


def load_rules(variant: Mapping[str, Any] | None = None) -> Rules:
    """The rules data, with a campaign's ``variant`` overrides applied and checked."""
    return _SOURCE.load(variant)


def default_rules() -> Rules:
    """The rules data as shipped (loaded once)."""
    return _SOURCE.default()
