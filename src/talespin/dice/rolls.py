"""Rolling a parsed notation: every chain of every term kept, in the order written.

:func:`roll` rolls each dice term with :func:`~talespin.dice.roller.roll_pool` and keeps the chains;
:func:`roll_from_faces` checks physical dice entered by hand instead (each bad chain named). The result,
an :class:`ExpressionRoll`, answers with the total, the successes of a success count, and the contract's
JSON (``{"notation", "total", "chains", "successes"}``).

For a success count the ``total`` is the plain sum of the faces and ``successes`` the number of dice that
compare true with the target; for a sum ``successes`` is ``None``.

>>> import random
>>> result = roll(parse("2d6! + 1"), random.Random(3))
>>> result.total == sum(chain.total for chain in result.chains) + 1
True
>>> roll_from_faces(parse("6z10<=2"), [0, 3, 9, 4, 7, 2]).successes
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import FacesError
from .notation import Constant, Dice, Expression, Part, SuccessCount, check_limits, parse
from .roller import Chain, PoolRoll, Rng, chains_from_faces, generator, roll_pool

__all__ = ["ExpressionRoll", "PartRoll", "roll", "roll_from_faces"]


@dataclass(frozen=True, slots=True)
class PartRoll:
    """One part of the expression as rolled: its dice (none for a constant) and its signed value."""

    part: Part
    pool: PoolRoll | None = None

    @property
    def value(self) -> int:
        """The part's contribution to the total, sign included."""
        if self.pool is not None:
            return self.part.sign * self.pool.total
        term = self.part.term
        return self.part.sign * term.value if isinstance(term, Constant) else 0

    @property
    def chains(self) -> tuple[Chain, ...]:
        """The chains this part rolled (empty for a constant)."""
        return self.pool.chains if self.pool is not None else ()


@dataclass(frozen=True, slots=True)
class ExpressionRoll:
    """A whole notation as rolled."""

    expression: Expression
    parts: tuple[PartRoll, ...]

    @property
    def total(self) -> int:
        """The signed sum of every face and constant."""
        return sum(part.value for part in self.parts)

    @property
    def chains(self) -> tuple[Chain, ...]:
        """Every chain of every term, in the order written."""
        return tuple(chain for part in self.parts for chain in part.chains)

    @property
    def successes(self) -> int | None:
        """The number of successes of a success count, ``None`` for a sum."""
        count = self.expression.success_count
        if count is None:
            return None
        return sum(1 for chain in self.chains if count.succeeds(chain.faces[0]))

    def to_json(self) -> dict[str, object]:
        """The contract's ``{"notation", "total", "chains": [{"size", "faces"}], "successes"}``."""
        return {
            "notation": str(self.expression),
            "total": self.total,
            "chains": [chain.to_json() for chain in self.chains],
            "successes": self.successes,
        }


def _dice_of(part: Part) -> Dice | None:
    term = part.term
    if isinstance(term, SuccessCount):
        return term.dice
    return term if isinstance(term, Dice) else None


def roll(expression: Expression | str, rng: Rng | int) -> ExpressionRoll:
    """Roll every dice term with ``rng``, a generator or a whole-number seed (limits checked first)."""
    rng = generator(rng)
    tree = parse(expression) if isinstance(expression, str) else expression
    check_limits(tree)
    rolled = []
    for part in tree.parts:
        dice = _dice_of(part)
        pool = None
        if dice is not None:
            pool = roll_pool(dice.sizes, rng, explodes=dice.explodes, zero_based=dice.zero_based)
        rolled.append(PartRoll(part, pool))
    return ExpressionRoll(tree, tuple(rolled))


def roll_from_faces(expression: Expression | str, faces: Iterable[Iterable[int] | int]) -> ExpressionRoll:
    """Take physical dice instead of rolling: one entry per die over all terms, in the order written.

    Each entry is a chain (a list of faces) or one face. Every chain is validated as in
    :func:`~talespin.dice.roller.chains_from_faces`; a bad one is named by its position in the whole
    expression.
    """
    tree = parse(expression) if isinstance(expression, str) else expression
    check_limits(tree)
    entries: Sequence[Iterable[int] | int] = list(faces)
    needed = sum(dice.count for _, dice in tree.dice_terms)
    if len(entries) != needed:
        raise FacesError(f"expected {needed} chains of faces for {tree}, got {len(entries)}")
    rolled = []
    start = 0
    for part in tree.parts:
        dice = _dice_of(part)
        pool = None
        if dice is not None:
            chunk = entries[start : start + dice.count]
            try:
                pool = chains_from_faces(
                    dice.sizes, chunk, explodes=dice.explodes, zero_based=dice.zero_based
                )
            except FacesError as error:
                index = start + (error.chain or 0)
                message = error.message.replace(f"chain {(error.chain or 0) + 1} ", f"chain {index + 1} ", 1)
                raise FacesError(message, chain=index) from None
            start += dice.count
        rolled.append(PartRoll(part, pool))
    return ExpressionRoll(tree, tuple(rolled))
