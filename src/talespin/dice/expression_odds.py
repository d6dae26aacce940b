"""The exact distribution of a parsed notation.

:func:`odds` turns an :class:`~talespin.dice.notation.Expression` into :class:`Odds`: an exact
:class:`~talespin.dice.distribution.Distribution` plus what a reader needs to interpret it.

- A sum without exploding dice: its whole distribution, no cap.
- A sum with exploding dice: unbounded above, so the distribution is of ``min(total, cap)`` (``capped`` is
  true and the last outcome, ``cap``, holds the exact mass of "≥ cap"); every P(total ≥ T) for T ≤ cap is
  exact. The bounded terms are summed first; the exploding ones are capped at ``cap − lowest bounded
  value``, which loses nothing. The ``mean`` is the exact *uncapped* mean (closed form, see
  :func:`~talespin.dice.exploding.exploding_mean`).
- A subtracted exploding term has no lowest outcome, so its odds are refused (rolling it is fine).
- A success count: the binomial distribution of successes.

Exact work is bounded before it starts: an estimate of the result's size (outcomes × bits of the common
denominator) above :data:`~talespin.dice.limits.MAX_EXACT_BITS` raises
:class:`~talespin.dice.errors.LimitExceeded` (``1000d6`` is computed, ``1000d1000`` is refused at once).

>>> odds(parse("2d6")).distribution.probability(7)
Fraction(1, 6)
>>> result = odds(parse("1d6!"), cap=10)
>>> result.capped, result.distribution.probability(10), result.mean
(True, Fraction(1, 12), Fraction(21, 5))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, log2

from .distribution import Distribution
from .errors import LimitExceeded, NotationError
from .exploding import exploding_mean, pool_total
from .limits import MAX_EXACT_BITS, check_cap
from .notation import Constant, Dice, Expression, SuccessCount, check_limits, parse

__all__ = ["DEFAULT_CAP", "Odds", "odds"]

DEFAULT_CAP = 100
"""The cap of an exploding sum when none is given."""


@dataclass(frozen=True, slots=True)
class Odds:
    """An expression's exact distribution; ``capped`` when the last outcome means "this or more"."""

    expression: Expression
    distribution: Distribution
    mean: Fraction
    capped: bool = False

    @property
    def cap(self) -> int | None:
        """The outcome that holds "≥ cap" when capped, else ``None``."""
        return self.distribution.high if self.capped else None


def _faces_bits(size: int) -> float:
    return log2(size) if size > 1 else 0.0


def _estimate(bounded: list[tuple[int, Dice]], exploding: list[Dice], exploding_cap: int) -> float:
    """Outcomes × bits of the denominator of the result: the size of the exact work, roughly."""
    span, bits = 1, 0.0
    for _, dice in bounded:
        span += dice.count * (dice.size - 1)
        bits += dice.count * _faces_bits(dice.size)
    if exploding:
        span += exploding_cap
        for dice in exploding:
            depth = (exploding_cap - 1) // dice.size
            bits += dice.count * (depth + 1) * _faces_bits(dice.size)
    return span * max(bits, 1.0)


def _check_budget(expression: Expression, estimate: float) -> None:
    if estimate > MAX_EXACT_BITS:
        raise LimitExceeded(
            f"the exact distribution of {expression} is too large to compute (about {estimate / 8e6:.1f} MB "
            f"of exact weights; the limit is {MAX_EXACT_BITS / 8e6:.1f} MB): use fewer dice, fewer faces "
            "or a lower cap (rolling it still works)"
        )


def _success_odds(expression: Expression, count: SuccessCount) -> Odds:
    dice = count.dice
    low = 0 if dice.zero_based else 1
    hits = sum(1 for face in range(low, low + dice.size) if count.succeeds(face))
    misses = dice.size - hits
    weights = [comb(dice.count, k) * hits**k * misses ** (dice.count - k) for k in range(dice.count + 1)]
    return Odds(expression, Distribution(0, weights), Fraction(dice.count * hits, dice.size))


def _plain(dice: Dice) -> Distribution:
    return Distribution.dice_sum(dice.count, dice.size, zero_based=dice.zero_based)


def odds(expression: Expression | str, cap: int = DEFAULT_CAP) -> Odds:
    """The exact distribution of ``expression``; exploding sums are capped at ``cap`` (see the module)."""
    tree = parse(expression) if isinstance(expression, str) else expression
    check_limits(tree)
    check_cap(cap)
    count = tree.success_count
    if count is not None:
        return _success_odds(tree, count)
    bounded = [(sign, dice) for sign, dice in tree.dice_terms if not dice.explodes]
    exploding = [dice for sign, dice in tree.dice_terms if dice.explodes and sign > 0]
    for sign, dice in tree.dice_terms:
        if dice.explodes and sign < 0:
            raise NotationError(
                f"the odds of a subtracted exploding term (- {dice}) cannot be listed: it has no lowest "
                "outcome; expected exploding terms to be added (rolling it works)"
            )
    shift = sum(part.sign * part.term.value for part in tree.parts if isinstance(part.term, Constant))
    low = shift + sum(sign * (dice.count * (0 if dice.zero_based else 1)) for sign, dice in bounded)
    low -= sum(dice.count * (dice.size - 1) for sign, dice in bounded if sign < 0)
    exploding_cap = 0
    if exploding:
        exploding_cap = cap - low
    _check_budget(tree, _estimate(bounded, exploding, exploding_cap))

    total = Distribution.constant(shift)
    for sign, dice in bounded:
        total = total + (_plain(dice) if sign > 0 else -_plain(dice))
    mean = total.mean()
    if not exploding:
        return Odds(tree, total, mean)

    mean += sum(dice.count * exploding_mean(dice.size) for dice in exploding)
    fewest = sum(dice.count for dice in exploding)
    if exploding_cap <= fewest:
        return Odds(tree, Distribution.constant(cap), mean, capped=True)
    check_cap(exploding_cap)
    sizes = [size for dice in exploding for size in dice.sizes]
    explosive = pool_total(sizes, exploding_cap)
    return Odds(tree, (explosive + total).cap(cap), mean, capped=True)
