"""Rolling a prepared Test: from the generator or from physical dice, counted against the Target.

Each die showing a number ≤ Target is a Success (AS-TEST-3); a Test succeeds with at least the required
number of Successes and its margin is Successes − required (AS-TEST-4). Physical dice (``faces``) must be
exactly as many as the pool and each on the die, or the roll is refused with ``bad_faces`` naming the die.

>>> from .pool import PreparedTest, Item
>>> stealth = PreparedTest("Jayme", "skill", "Stealth", 2, 0, 1, (Item("trait", "Quiet", 3),), (), "none")
>>> roll_data(stealth, [0, 2, 3], None, default_rules())["successes"]
2
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...dice import FacesError, LimitExceeded, Rng, chains_from_faces, roll_pool
from ...dice.limits import check_dice_count
from ..errors import MalformedCommand
from .pool import PreparedTest
from .rule_ids import TEST_3
from .rules import Rules, default_rules

__all__ = ["roll_data", "roll_faces"]


def roll_faces(
    pool: int, faces: Sequence[Any] | None, rng: Rng | None, rules: Rules, *, path: str = "faces"
) -> list[int]:
    """The faces of ``pool`` dice: the physical ``faces`` checked, or rolled from ``rng``."""
    try:
        check_dice_count(pool)
    except LimitExceeded as error:
        raise MalformedCommand(error.message, code=error.code, path=path) from None
    sizes = [rules.die.size] * pool
    zero_based = rules.die.lowest == 0
    try:
        if faces is not None:
            rolled = chains_from_faces(sizes, faces, explodes=False, zero_based=zero_based)
        elif rng is None:
            raise MalformedCommand(
                f"no dice given and no generator to roll {pool} dice", code="bad_faces", path=path
            )
        else:
            rolled = roll_pool(sizes, rng, explodes=False, zero_based=zero_based)
    except FacesError as error:
        where = path if error.chain is None else f"{path}[{error.chain}]"
        message = error.message.replace("chains of faces", "faces").replace("chain ", "die ")
        raise MalformedCommand(
            f"{message} (one face per die of the {pool}d{rules.die.size} pool, each "
            f"{rules.die.lowest}–{rules.die.lowest + rules.die.size - 1})",
            rule=TEST_3,
            code=error.code,
            path=where,
        ) from None
    except LimitExceeded as error:
        raise MalformedCommand(error.message, code=error.code, path=path) from None
    return [chain.faces[0] for chain in rolled.chains]


def roll_data(
    test: PreparedTest,
    faces: Sequence[Any] | None,
    rng: Rng | None,
    rules: Rules | None = None,
    *,
    path: str = "faces",
) -> dict[str, Any]:
    """The data of a ``TestRolled`` event: the Test as prepared, its dice and its outcome."""
    rules = rules or default_rules()
    rolled = roll_faces(test.pool, faces, rng, rules, path=path)
    count = sum(1 for face in rolled if face <= test.target)
    return {
        "hero": test.hero,
        "kind": test.kind,
        test.kind: test.tested,
        "rating": test.rating,
        "difficulty": test.difficulty,
        "target": test.target,
        "required": test.required,
        "trait": test.slot("trait"),
        "background": test.slot("background"),
        "aid": test.slot("aid"),
        "invoke": [item.name for item in test.invoked],
        "items": [item.to_json() for item in test.chosen + test.invoked],
        "narration": test.narration,
        "pool": test.pool,
        "physical": faces is not None,
        "faces": rolled,
        "chains": [{"size": rules.die.size, "faces": [face]} for face in rolled],
        "successes": count,
        "success": count >= test.required,
        "margin": count - test.required,
    }
