"""Rolling a planned roll, and the record of it: the dice a :class:`~.plan.RollSpec` names, rolled.

Dice come from physical faces (checked with :func:`talespin.dice.chains_from_faces`, II-ROLL-4) or from the
generator passed in; :func:`roll_data` is the body of the roll's event, every chain kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...dice import DiceError, PoolRoll, Rng, chains_from_faces, roll_pool
from ..errors import MalformedCommand
from . import rule_ids as ids
from .plan import RollSpec

__all__ = ["make_roll", "roll_data"]


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
