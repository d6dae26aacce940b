"""Exact, immutable probability distributions over the integers.

A :class:`Distribution` holds integer weights for a contiguous run of outcomes ``low .. low+len-1``
(zero weights allowed inside, never at the ends). Probabilities are exact :class:`fractions.Fraction`
values; nothing is rounded until a caller asks for a float.

>>> d6 = Distribution.die(6)
>>> (d6 + d6).p_at_least(10)
Fraction(1, 6)
>>> (d6 + d6).cap(8).probability(8)
Fraction(5, 12)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from math import gcd, lcm
from typing import Final

import numpy as np
import numpy.typing as npt

from .limits import check_dice_count, check_faces
from .polynomial import convolve, uniform_power

__all__ = ["Distribution", "Probability"]

Probability = Fraction
"""An exact probability."""

_OutcomeFunction = Callable[[int], int | Fraction]
_OutcomeMap = Callable[[int], int]

_MAX_SPAN: Final = 2_000_000
"""The widest run of outcomes an exact distribution may hold (guards memory, not correctness)."""


def _trim(low: int, weights: list[int]) -> tuple[int, tuple[int, ...]]:
    start = 0
    while start < len(weights) and weights[start] == 0:
        start += 1
    end = len(weights)
    while end > start and weights[end - 1] == 0:
        end -= 1
    if start == end:
        raise ValueError("a distribution needs at least one outcome with positive weight")
    kept = weights[start:end]
    common = 0
    for w in kept:
        common = gcd(common, w)
        if common == 1:
            return low + start, tuple(kept)
    return low + start, tuple(w // common for w in kept)


class Distribution:
    """An exact distribution over integers, immutable and hashable.

    Build one with :meth:`die`, :meth:`constant` or :meth:`from_weights`, then combine with ``+`` (sum of
    independent variables, i.e. convolution), ``-``, :meth:`scale`, :meth:`cap` and :meth:`repeat_sum`.
    """

    __slots__ = ("_hash", "_low", "_total", "_weights")

    def __init__(self, low: int, weights: Iterable[int]) -> None:
        values = [int(w) for w in weights]
        if any(w < 0 for w in values):
            raise ValueError("weights must be 0 or more")
        if len(values) > _MAX_SPAN:
            raise ValueError(f"a distribution may span at most {_MAX_SPAN} outcomes")
        self._low, self._weights = _trim(low, values)
        self._total = sum(self._weights)
        self._hash = hash((self._low, self._weights))

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_weights(cls, weights: Mapping[int, int | Fraction]) -> Distribution:
        """A distribution from ``{outcome: weight}``; weights may be integers or fractions."""
        if not weights:
            raise ValueError("a distribution needs at least one outcome")
        denominators = [Fraction(w).denominator for w in weights.values()]
        scale = lcm(*denominators)
        low, high = min(weights), max(weights)
        dense = [0] * (high - low + 1)
        for outcome, weight in weights.items():
            dense[outcome - low] += int(Fraction(weight) * scale)
        return cls(low, dense)

    @classmethod
    def constant(cls, value: int) -> Distribution:
        """The distribution that is ``value`` with certainty."""
        return cls(value, [1])

    @classmethod
    def die(cls, size: int, *, zero_based: bool = False) -> Distribution:
        """A fair die: ``1..size``, or ``0..size-1`` with ``zero_based`` (a ``zS``)."""
        check_faces(size)
        return cls(0 if zero_based else 1, [1] * size)

    @classmethod
    def dice_sum(cls, count: int, size: int, *, zero_based: bool = False) -> Distribution:
        """The sum of ``count`` fair dice of ``size`` faces (``NdS``, or ``NzS`` with ``zero_based``).

        Equal to ``Distribution.die(size).repeat_sum(count)``, computed in time linear in the number of
        outcomes (see :func:`~talespin.dice.polynomial.uniform_power`).

        >>> Distribution.dice_sum(3, 6).probability(10)
        Fraction(1, 8)
        """
        check_dice_count(count)
        check_faces(size)
        return cls(count * (0 if zero_based else 1), uniform_power(count, size))

    @classmethod
    def bernoulli(cls, p: Fraction) -> Distribution:
        """1 with probability ``p``, else 0 (one die counted as a success or not)."""
        if not 0 <= p <= 1:
            raise ValueError(f"a probability lies in [0, 1], got {p}")
        return cls.from_weights({0: 1 - p, 1: p})

    # -- inspection ---------------------------------------------------------------------------

    @property
    def low(self) -> int:
        """The smallest possible outcome."""
        return self._low

    @property
    def high(self) -> int:
        """The largest possible outcome."""
        return self._low + len(self._weights) - 1

    @property
    def denominator(self) -> int:
        """The sum of the integer weights (every probability is ``weight / denominator``)."""
        return self._total

    def outcomes(self) -> list[int]:
        """The outcomes with positive probability, ascending."""
        return [self._low + i for i, w in enumerate(self._weights) if w]

    def weight(self, outcome: int) -> int:
        """The integer weight of ``outcome`` (0 when impossible)."""
        index = outcome - self._low
        return self._weights[index] if 0 <= index < len(self._weights) else 0

    def weights_between(self, first: int, last: int) -> list[int]:
        """The integer weights of the outcomes ``first..last`` in order, 0 for the impossible ones.

        >>> Distribution.die(4).weights_between(-1, 5)
        [0, 0, 1, 1, 1, 1, 0]
        """
        if last < first:
            return []
        start, stop = first - self._low, last - self._low + 1
        inside = list(self._weights[max(start, 0) : max(stop, 0)])
        before = min(max(-start, 0), stop - start)
        after = stop - start - before - len(inside)
        return [0] * before + inside + [0] * after

    def probability(self, outcome: int) -> Fraction:
        """P(X = outcome), exactly."""
        return Fraction(self.weight(outcome), self._total)

    def items(self) -> Iterator[tuple[int, Fraction]]:
        """``(outcome, probability)`` for every possible outcome, ascending."""
        for i, w in enumerate(self._weights):
            if w:
                yield self._low + i, Fraction(w, self._total)

    def p_at_least(self, threshold: int) -> Fraction:
        """P(X ≥ threshold), exactly."""
        start = max(0, threshold - self._low)
        return Fraction(sum(self._weights[start:]), self._total)

    def p_at_most(self, threshold: int) -> Fraction:
        """P(X ≤ threshold), exactly."""
        return 1 - self.p_at_least(threshold + 1)

    def mean(self) -> Fraction:
        """E[X], exactly."""
        return Fraction(sum((self._low + i) * w for i, w in enumerate(self._weights)), self._total)

    def expectation(self, f: _OutcomeFunction) -> Fraction:
        """E[f(X)] for a function of the outcome returning an int or a Fraction."""
        total = Fraction(0)
        for i, w in enumerate(self._weights):
            if w:
                total += Fraction(f(self._low + i)) * w
        return total / self._total

    def to_numpy(self) -> tuple[int, npt.NDArray[np.float64]]:
        """``(low, probabilities)`` as floats: the bridge to the fast path."""
        weights = np.array([float(Fraction(w, self._total)) for w in self._weights], dtype=np.float64)
        return self._low, weights

    # -- combination --------------------------------------------------------------------------

    def __add__(self, other: Distribution | int) -> Distribution:
        if isinstance(other, int):
            return Distribution(self._low + other, self._weights)
        return Distribution(self._low + other._low, convolve(self._weights, other._weights))

    __radd__ = __add__

    def __neg__(self) -> Distribution:
        return Distribution(-self.high, reversed(self._weights))

    def __sub__(self, other: Distribution | int) -> Distribution:
        return self + (-other)

    def __rsub__(self, other: int) -> Distribution:
        return (-self) + other

    def scale(self, factor: int) -> Distribution:
        """The distribution of ``factor · X``."""
        if factor == 0:
            return Distribution.constant(0)
        if factor < 0:
            return (-self).scale(-factor)
        out = [0] * ((len(self._weights) - 1) * factor + 1)
        for i, w in enumerate(self._weights):
            out[i * factor] = w
        return Distribution(self._low * factor, out)

    def cap(self, ceiling: int) -> Distribution:
        """The distribution of ``min(X, ceiling)``: all mass at or above the ceiling lumped on it."""
        if ceiling >= self.high:
            return self
        if ceiling < self._low:
            return Distribution.constant(ceiling)
        keep = ceiling - self._low
        head = list(self._weights[:keep])
        head.append(sum(self._weights[keep:]))
        return Distribution(self._low, head)

    def repeat_sum(self, count: int, cap: int | None = None) -> Distribution:
        """The sum of ``count`` independent copies, optionally capped after every step.

        Capping each partial sum is exact for ``min(sum, cap)`` when outcomes are never negative.
        """
        check_dice_count(count)
        result = Distribution.constant(0)
        base = self
        n = count
        while n:
            if n & 1:
                result = result + base
                if cap is not None:
                    result = result.cap(cap)
            n >>= 1
            if n:
                base = base + base
                if cap is not None:
                    base = base.cap(cap)
        return result

    def map(self, f: _OutcomeMap) -> Distribution:
        """The distribution of ``f(X)`` for an integer function ``f``."""
        mapped: dict[int, int] = {}
        for i, w in enumerate(self._weights):
            if w:
                key = f(self._low + i)
                mapped[key] = mapped.get(key, 0) + w
        return Distribution.from_weights(dict(mapped))

    # -- value semantics ----------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self._low == other._low and self._weights == other._weights

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        shown = ", ".join(f"{o}: {p}" for o, p in list(self.items())[:8])
        more = ", …" if len(self.outcomes()) > 8 else ""
        return f"Distribution({{{shown}{more}}})"
