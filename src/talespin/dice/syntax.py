"""The syntax tree of dice notation: one frozen node class per grammar rule.

``str()`` of every node prints canonical notation (``d6`` prints as ``1d6``), which
:func:`~talespin.dice.notation.parse` reads back to an equal tree. The nodes are plain values: build them
by hand, compare them, use them as dictionary keys.

>>> str(Expression((Part(1, Dice(2, 6, explodes=True)), Part(-1, Constant(1)))))
'2d6! - 1'
>>> SuccessCount(Dice(6, 10, zero_based=True), "<=", 2).succeeds(0)
True

The choices of meaning are made here, once, for text and hand-built trees alike: a success count stands
alone and its dice do not explode; zero-based dice do not explode. Breaking one raises
:class:`~talespin.dice.errors.NotationError` saying what is expected.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import NotationError

__all__ = ["Comparison", "Constant", "Dice", "Expression", "Part", "SuccessCount", "Term"]

Comparison = Literal["<=", ">="]


@dataclass(frozen=True, slots=True)
class Dice:
    """``NdS`` (or ``NzS``, faces 0..S-1), ``!`` when each die explodes on its maximum face."""

    count: int
    size: int
    explodes: bool = False
    zero_based: bool = False

    def __post_init__(self) -> None:
        if self.explodes and self.zero_based:
            raise NotationError(
                f"zero-based dice do not explode: expected {self.count}z{self.size} without '!'"
            )

    def __str__(self) -> str:
        return f"{self.count}{'z' if self.zero_based else 'd'}{self.size}{'!' if self.explodes else ''}"

    @property
    def sizes(self) -> list[int]:
        """One entry per die: the pool as :func:`~talespin.dice.roller.roll_pool` takes it."""
        return [self.size] * self.count


@dataclass(frozen=True, slots=True)
class Constant:
    """A whole number added to (or subtracted from) the sum."""

    value: int

    def __post_init__(self) -> None:
        if self.value < 0:
            raise NotationError(
                f"a constant is written without its sign, got {self.value}: put it in the Part"
            )

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class SuccessCount:
    """``NdS<=T`` or ``NdS>=T``: the number of dice whose face compares true with the target."""

    dice: Dice
    comparison: Comparison
    target: int

    def __post_init__(self) -> None:
        if self.dice.explodes:
            raise NotationError(
                f"exploding dice cannot count successes ({self.dice}): expected NdS<=T or NdS>=T without '!'"
            )
        if self.comparison not in ("<=", ">="):
            raise NotationError(f"a success count compares with '<=' or '>=', got {self.comparison!r}")

    def __str__(self) -> str:
        return f"{self.dice}{self.comparison}{self.target}"

    def succeeds(self, face: int) -> bool:
        """True when one die showing ``face`` is a success."""
        return face <= self.target if self.comparison == "<=" else face >= self.target


Term = Dice | Constant | SuccessCount


@dataclass(frozen=True, slots=True)
class Part:
    """One term of the sum with its sign (+1 or -1)."""

    sign: int
    term: Term

    def __post_init__(self) -> None:
        if self.sign not in (1, -1):
            raise NotationError(f"a part's sign is +1 or -1, got {self.sign}")

    def __str__(self) -> str:
        return f"{'-' if self.sign < 0 else ''}{self.term}"


@dataclass(frozen=True, slots=True)
class Expression:
    """A whole notation: the signed sum of its parts, in the order written."""

    parts: tuple[Part, ...]

    def __post_init__(self) -> None:
        if not self.parts:
            raise NotationError("an expression needs at least one term")
        counts = [part for part in self.parts if isinstance(part.term, SuccessCount)]
        if counts and (len(self.parts) > 1 or self.parts[0].sign < 0):
            raise NotationError(
                f"a success count ({counts[0].term}) stands alone: it cannot be added to, subtracted from "
                "or negated; expected just NdS<=T or NdS>=T"
            )

    def __str__(self) -> str:
        text = str(self.parts[0])
        for part in self.parts[1:]:
            text += f" {'-' if part.sign < 0 else '+'} {part.term}"
        return text

    @property
    def dice_terms(self) -> list[tuple[int, Dice]]:
        """``(sign, dice)`` for every term that rolls dice, success counts included, in order."""
        found: list[tuple[int, Dice]] = []
        for part in self.parts:
            if isinstance(part.term, Dice):
                found.append((part.sign, part.term))
            elif isinstance(part.term, SuccessCount):
                found.append((part.sign, part.term.dice))
        return found

    @property
    def success_count(self) -> SuccessCount | None:
        """The success count when the expression is one (it then has exactly one part)."""
        term = self.parts[0].term
        return term if isinstance(term, SuccessCount) else None

    @property
    def explodes(self) -> bool:
        """True when any die of the expression explodes (its total is then unbounded)."""
        return any(dice.explodes for _, dice in self.dice_terms)
