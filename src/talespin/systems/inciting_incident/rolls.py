"""Talent and Ability Rolls: the Advantage ladder, the dice of a roll, and rolling them.

A roll is ``final d6`` six-sided dice plus the dice of a Talent (or Ability) level, every die exploding
(II-ROLL-1/2). The final d6 count is the base count (the scene difficulty, an obstacle's, an action's, or a
defence) moved by the ladder of the net Advantage (II-ADV-1..3)::

    >>> from .rules import default_rules
    >>> ladder(4, default_rules())
    2
    >>> final_d6(5, advantage=1, disadvantage=11, rules=default_rules())
    1

Dice come from physical faces (checked with :func:`talespin.dice.chains_from_faces`, II-ROLL-4) or from the
generator passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...dice import DiceError, PoolRoll, Rng, chains_from_faces, roll_pool
from ...dice.limits import check_dice_count
from ..errors import MalformedCommand
from . import rule_ids as ids
from .rules import Rules

__all__ = ["RollSpec", "final_d6", "ladder", "make_roll", "roll_data"]


def ladder(net: int, rules: Rules) -> int:
    """II-ADV-2: the d6 added (positive net) or removed (negative net) by net Advantage."""
    step = 0
    for rung in rules.ladder:
        if abs(net) >= rung.at_least:
            step = rung.d6
    return step if net >= 0 else -step


def final_d6(base: int, advantage: int, disadvantage: int, rules: Rules) -> int:
    """II-ADV-1/3: ``max(0, base + ladder(advantage − disadvantage))``; it may exceed 9.

    A negative base, or more base d6 than one roll may hold, is refused
    (:class:`~talespin.dice.LimitExceeded`) before any dice are built.
    """
    check_dice_count(base)
    return max(0, base + ladder(advantage - disadvantage, rules))


@dataclass(frozen=True, slots=True)
class RollSpec:
    """What is rolled: whose roll, with which Talent or Ability, how many d6, against what."""

    character: str
    kind: str  # "talent" | "ability"
    name: str
    level: int
    base_d6: int
    advantage: int
    disadvantage: int
    against: int
    rules: Rules

    @property
    def d6(self) -> int:
        """The final d6 count."""
        return final_d6(self.base_d6, self.advantage, self.disadvantage, self.rules)

    @property
    def talent_dice(self) -> tuple[int, ...]:
        """The die sizes of the Talent's (or Ability's) level."""
        return self.rules.levels.dice[self.level]

    @property
    def sizes(self) -> tuple[int, ...]:
        """Every die in the order faces are written: the d6 first, then the Talent's dice."""
        return (self.rules.roll.d6_size,) * self.d6 + self.talent_dice


def make_roll(spec: RollSpec, faces: Sequence[Any] | None, rng: Rng) -> PoolRoll:
    """Roll the spec's dice, or check physical ``faces`` against them (a mismatch names the chain)."""
    try:
        if faces is None:
            return roll_pool(spec.sizes, rng)
        if isinstance(faces, str) or not isinstance(faces, Sequence):
            raise MalformedCommand(
                "faces is a list of chains, e.g. [[6, 2], [3], [4]]",
                code="bad_faces",
                rule=ids.ROLL_4,
                path="faces",
            )
        return chains_from_faces(spec.sizes, faces)
    except DiceError as error:
        raise MalformedCommand(error.message, code=error.code, rule=ids.ROLL_4, path="faces") from None


def roll_data(spec: RollSpec, roll: PoolRoll) -> dict[str, Any]:
    """The JSON-ready body of a roll event: chains, total, d6 count, Talent dice, character, success."""
    return {
        "character": spec.character,
        spec.kind: spec.name,
        "level": spec.level,
        "base_d6": spec.base_d6,
        "advantage": spec.advantage,
        "disadvantage": spec.disadvantage,
        "d6": spec.d6,
        "talent_dice": [f"d{s}" for s in spec.talent_dice],
        "chains": [chain.to_json() for chain in roll.chains],
        "total": roll.total,
        "against": spec.against,
        "success": roll.total >= spec.against,
    }
