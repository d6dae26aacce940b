"""The rules data of Inciting Incident: one versioned YAML file, loaded once into a frozen, typed object.

Every number and decision of the rules document lives in ``rules.yaml`` beside this module; rule functions
read it from a :class:`Rules` object and never spell a number themselves. A campaign may override any key
with a ``variant`` mapping (nested keys too) — game designers compare rule changes this way::

    >>> load_rules({"crisis": {"auto": 5}}).crisis.auto
    5
    >>> load_rules().roll.target
    20

Unknown keys are refused with a :class:`~talespin.systems.errors.MalformedCommand` naming the key, and so
are values the engine could not play with (a negative cost, a ladder out of order, a d1 that would explode
forever, a level table shorter than its levels), each by its key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ...dice.limits import MAX_CAP, MAX_DICE, MAX_FACES
from ..rules_data import RulesSource

__all__ = ["Rules", "default_rules", "load_rules"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Levels(_Frozen):
    """II-CHAR-4/5: the dice and the point cost of each level."""

    min: int = Field(ge=0)
    max: int = Field(ge=0)
    dice: tuple[tuple[Annotated[int, Field(ge=2, le=MAX_FACES)], ...], ...]
    cost: tuple[Annotated[int, Field(ge=0)], ...]

    @model_validator(mode="after")
    def _one_entry_per_level(self) -> Levels:
        if self.min > self.max:
            raise ValueError(f"levels.min ({self.min}) must not exceed levels.max ({self.max})")
        if len(self.dice) != self.max + 1 or len(self.cost) != self.max + 1:
            raise ValueError(f"levels.dice and levels.cost need one entry per level 0..{self.max}")
        return self


class Defences(_Frozen):
    """II-CHAR-8: the attacker's base d6 count against an Ability."""

    base: int = Field(ge=0, le=MAX_DICE)
    minimum: int = Field(ge=0, le=MAX_DICE)
    default_ability: str


class Hits(_Frozen):
    """II-CHAR-9: maximum hits."""

    base: int = Field(ge=0)
    ability: str


class Rung(_Frozen):
    """One rung of the II-ADV-2 ladder."""

    at_least: int = Field(ge=1)
    d6: int = Field(ge=0, le=MAX_DICE)


class Difficulty(_Frozen):
    """II-ROLL-5: the range and default of the base d6 count."""

    min: int = Field(ge=0)
    max: int = Field(ge=0, le=MAX_DICE)
    default: int

    @model_validator(mode="after")
    def _default_in_range(self) -> Difficulty:
        if not self.min <= self.default <= self.max:
            raise ValueError(f"the default {self.default} must lie between min {self.min} and max {self.max}")
        return self


class RollRules(_Frozen):
    """II-ROLL-3/5."""

    target: int = Field(ge=1, le=MAX_CAP)
    d6_size: int = Field(ge=2, le=MAX_FACES)
    difficulty: Difficulty


class CrisisRules(_Frozen):
    """Crisis amounts of II-SIMPLE, II-COMPLEX and II-CRISIS."""

    floor: int = Field(ge=0)
    auto: int = Field(ge=0)
    success: int = Field(ge=0)
    failure_minimum: int = Field(ge=0)
    repeated_talent: int = Field(ge=0)
    once_per_value: bool


class SimpleRules(_Frozen):
    """II-SIMPLE-2."""

    auto_rising_tension: int = Field(ge=0)
    gm_presents: bool


class Range(_Frozen):
    """An inclusive integer range (of whole numbers 1 or more)."""

    min: int = Field(ge=1)
    max: int = Field(ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) must not exceed max ({self.max})")
        return self


class ComplexRules(_Frozen):
    """II-COMPLEX-1/2/7."""

    obstruction_min: int = Field(ge=0)
    obstruction_reduction: int = Field(ge=0)
    auto_rising_tension: int = Field(ge=0)
    attempts: Range
    last_attempt_beats: bool


class SkillRules(_Frozen):
    """II-CHAR-6, II-SKILL-2/3/4."""

    kinds: tuple[str, ...]
    effects: tuple[str, ...]
    recreate_base_d6: int = Field(ge=0, le=MAX_DICE)
    recreate_crisis_per_cost: int = Field(ge=0)
    failed_modifier_cost_step: int = Field(ge=1)
    learning_requires_recreation: bool
    advanced_action_rolls: bool


class SceneRules(_Frozen):
    """II-SCENE-1/2/3."""

    kinds: tuple[str, ...]
    cooperative_first_gain: int = Field(ge=0)
    cooperative_gain_step: int = Field(ge=0)
    changes_per_cooperative_scene: int = Field(ge=0)
    heal_removes_all: bool
    changeable: tuple[str, ...]
    heal_uses_change: bool


class SpendCosts(_Frozen):
    """II-RT-3: what the GM pays for each purchase."""

    disadvantage: int = Field(ge=0)
    trigger: int = Field(ge=0)
    obstacle: int = Field(ge=0)
    enemy: int = Field(ge=0)


class TensionRules(_Frozen):
    """II-RT-1/3/4."""

    floor: int = Field(ge=0)
    costs: SpendCosts
    restful_reduction: int = Field(ge=0)
    restful_every_scenes: int = Field(ge=1)


class ConflictRules(_Frozen):
    """II-FLOW-1..4 (provisional)."""

    flow_start: int
    success_minimum_flow: int = Field(ge=0)
    enemy_failure_flow: int = Field(ge=0)
    guard: int = Field(ge=0, le=MAX_CAP)
    guard_minimum: int = Field(ge=1, le=MAX_CAP)
    wounds_per_decisive: int = Field(ge=1)
    flow_after_wound: int
    one_action_per_round: bool


class Rules(_Frozen):
    """The whole rules data, frozen. Read it; never copy a number out of it into code."""

    version: str
    levels: Levels
    abilities: tuple[str, ...]
    talents_per_ability_level: int = Field(ge=0)
    budget: int | None = Field(ge=0)
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

    @field_validator("ladder")
    @classmethod
    def _ladder_ascends(cls, ladder: tuple[Rung, ...]) -> tuple[Rung, ...]:
        steps = [rung.at_least for rung in ladder]
        if steps != sorted(set(steps)):
            raise ValueError(f"the ladder's at_least thresholds must strictly ascend, got {steps}")
        return ladder


_SOURCE = RulesSource(Rules, __name__.rpartition(".")[0])


def load_rules(variant: Mapping[str, Any] | None = None) -> Rules:
    """The rules data, with a campaign's ``variant`` overrides applied and checked."""
    return _SOURCE.load(variant)


def default_rules() -> Rules:
    """The rules data as shipped (loaded once)."""
    return _SOURCE.default()
