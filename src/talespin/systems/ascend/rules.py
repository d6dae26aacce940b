"""The rules data of Ascend: one versioned YAML file, loaded into a frozen, typed object.

Every number and decision of the rules document lives in ``rules.yaml`` beside this module; the engine reads
it from a :class:`Rules` object and never spells a number itself. A campaign may override any key with a
``variant`` mapping (nested keys too)::

    >>> load_rules({"opposed": {"tie": "reroll"}}).opposed.tie
    'reroll'
    >>> load_rules().die.size
    10

Unknown keys are refused with a :class:`~talespin.systems.errors.MalformedCommand` naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ...dice.limits import MAX_FACES
from ..rules_data import RulesSource

__all__ = ["Narration", "Rules", "default_rules", "load_rules"]

Narration = Literal["none", "narrated", "exceptional"]
"""How a Player narrated a Test: not at all, narrated (AS-POOL-2), or exceptionally (AS-POOL-3)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Ratings(_Frozen):
    """AS-HERO-2: the inclusive range of every rating."""

    min: int
    max: int

    @model_validator(mode="after")
    def _ordered(self) -> Ratings:
        if self.min > self.max:
            raise ValueError(f"ratings.min ({self.min}) must not exceed ratings.max ({self.max})")
        return self


class Die(_Frozen):
    """AS-TEST-3: the die of the Dice Pool and its lowest face (0 for a d10 read 0–9)."""

    size: int = Field(ge=2, le=MAX_FACES)
    lowest: Literal[0, 1]

    def p_success(self, target: int) -> Fraction:
        """P(one die ≤ target), clamped to [0, 1]: ``(target − lowest + 1)/size``."""
        hits = min(max(target - self.lowest + 1, 0), self.size)
        return Fraction(hits, self.size)


class Setting(_Frozen):
    """A number the Storyteller sets, with its smallest value and its default."""

    min: int
    default: int

    @model_validator(mode="after")
    def _default_in_range(self) -> Setting:
        if self.default < self.min:
            raise ValueError(f"default {self.default} is below min {self.min}")
        return self


class PoolRules(_Frozen):
    """AS-POOL-1: how many items of each kind a Test may use before any Invoke."""

    per_kind: int = Field(ge=0)


class InvokeRules(_Frozen):
    """AS-POOL-2/3: the additional items each narration level allows."""

    none: int = Field(ge=0)
    narrated: int = Field(ge=0)
    exceptional: int = Field(ge=0)
    exceptional_award: Literal["storyteller", "player"]
    """AS-POOL-3 (D): who awards exceptional narration (``player``: a Player may claim it for itself)."""

    def allowed(self, narration: Narration) -> int:
        """How many items may be Invoked at this narration level."""
        return int(getattr(self, narration))


class OpposedRules(_Frozen):
    """AS-OPP-1 (D): who takes a tie, and how often it may be rolled again (at most 100 times, so a tie of
    two empty pools, which repeats forever, ends and its exact odds stay quick to compute)."""

    tie: Literal["defender", "reroll"]
    reroll_limit: int = Field(ge=0, le=100)
    defender_chooses: bool
    """AS-OPP-1 (D): the defender's controller chooses its side; a bare ``defender: {hero}`` waits."""


class ExtendedRules(_Frozen):
    """AS-EXT-1 (D): defaults of an extended Test."""

    goal: int = Field(ge=1)
    limit: int | None = Field(default=None, ge=1)
    odds_horizon: int = Field(ge=1)


class AdviceRules(_Frozen):
    """AS-ODDS-3: how many ranked choices are shown by default."""

    shown: int = Field(ge=1)


class Rules(_Frozen):
    """The whole rules data, frozen. Read it; never copy a number out of it into code."""

    version: str
    ratings: Ratings
    die: Die
    difficulty: Setting
    required: Setting
    pool: PoolRules
    invokes: InvokeRules
    opposed: OpposedRules
    extended: ExtendedRules
    advice: AdviceRules

    @field_validator("required")
    @classmethod
    def _zero_successes_fail(cls, required: Setting) -> Setting:
        """AS-TEST-4: zero Successes is always a failure, so at least 1 Success is required."""
        if required.min < 1:
            raise ValueError(f"min must be 1 or more (zero Successes always fails), got {required.min}")
        return required


_SOURCE = RulesSource(Rules, __name__.rpartition(".")[0])


def load_rules(variant: Mapping[str, Any] | None = None) -> Rules:
    """The rules data, with a campaign's ``variant`` overrides applied and checked."""
    return _SOURCE.load(variant)


def default_rules() -> Rules:
    """The rules data as shipped (loaded once)."""
    return _SOURCE.default()
