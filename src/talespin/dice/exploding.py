"""Exploding dice, exactly, with no depth limit.

An exploding die of size S shows a face; on the maximum face S another die is rolled and added, again and
again. Its total is unbounded, but every question the rules ask is "is the total at least T?" for T up to
some largest target C. The distribution of ``min(total, C)`` is finite, and it is exact: a total of
``q·S + r`` (with ``1 ≤ r < S``) needs ``q`` maxima followed by the face ``r``, so

    P(total = q·S + r) = (1/S)^(q+1)        and      P(total = q·S) = 0   (q ≥ 1)

for every value below C; the rest of the mass, ``P(total ≥ C)``, sits on C. Sums of capped dice are
capped again after each convolution, which is exact because faces are positive:
``min(X + Y, C) = min(min(X, C) + min(Y, C), C)``.

>>> exploding_die(6, cap=8).probability(7)
Fraction(1, 36)
>>> pool_total([6, 6], cap=20).p_at_least(20)
Fraction(13, 432)

Adding one more exploding die to a capped total needs no convolution. The die's weights repeat themselves
one level down, ``w[u + S] = w[u] / S``, so the ways of reaching ``v`` below the cap obey

    out[v] = S^d · (t[v−1] + … + t[v−S+1]) + out[v−S] / S

(``t`` the total's weights, ``d`` the deepest explosion that stays below the cap; the division is exact):
:func:`add_exploding_die` costs O(cap) integer operations where a convolution costs O(cap²).

>>> add_exploding_die(exploding_die(6, cap=20), 6, cap=20) == pool_total([6, 6], cap=20)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from math import log2

from .distribution import Distribution
from .errors import LimitExceeded
from .limits import MAX_EXACT_BITS, check_cap, check_dice_count, check_exploding, check_faces

__all__ = ["add_exploding_die", "exploding_die", "exploding_mean", "pool_total"]


@lru_cache(maxsize=4096)
def exploding_die(size: int, cap: int) -> Distribution:
    """The exact distribution of ``min(total, cap)`` for one exploding die of ``size`` faces."""
    check_exploding(size)
    check_cap(cap)
    # Integer weights over the common denominator size^(depth+1), depth = the most maxima below cap.
    depth = (cap - 1) // size
    denominator = size ** (depth + 1)
    weights = [0] * (cap + 1)
    for value in range(1, cap):
        q, r = divmod(value, size)
        if r:
            weights[value] = size ** (depth - q)
    weights[cap] = denominator - sum(weights)
    return Distribution(0, weights)


def add_exploding_die(total: Distribution, size: int, cap: int) -> Distribution:
    """``min(total + one exploding die of size faces, cap)``, exactly, by the recurrence above.

    Equal to ``(total + exploding_die(size, cap)).cap(cap)`` for a total of 0 or more, and exact for any
    total (a negative one is given the die's deeper explosions it can still use).
    """
    check_exploding(size)
    check_cap(cap)
    low = total.low
    if low >= cap:
        return Distribution.constant(cap)
    width = cap - low  # outcomes low .. cap-1 are kept apart, the rest lumped on cap
    depth = (width - 1) // size
    top = size**depth
    ways = total.weights_between(low, cap - 1)
    out = [0] * (width + 1)
    window = 0  # t[v−1] + … + t[v−S+1], relative to low
    for v in range(1, width):
        window += ways[v - 1]
        if v >= size:
            window -= ways[v - size]
            out[v] = top * window + out[v - size] // size
        else:
            out[v] = top * window
    out[width] = total.denominator * top * size - sum(out)
    return Distribution(low, out)


def exploding_mean(size: int) -> Fraction:
    """The exact uncapped mean of one exploding die: ``(S + 1)/2 · S/(S − 1)``."""
    check_exploding(size)
    return Fraction(size + 1, 2) * Fraction(size, size - 1)


def _check_work(counts: dict[int, int], cap: int, explode: bool) -> None:
    """Refuse a pool whose exact capped distribution exceeds :data:`~.limits.MAX_EXACT_BITS` before any work.

    The size is estimated as outcomes (``cap + 1``) × bits of the common denominator, as for notation odds:
    nine d6 and three d10 capped at 100,000 would need gigabytes of exact weights and hours of work.
    """
    bits = 0.0
    for size, count in counts.items():
        depth = (cap - 1) // size if explode else 0
        bits += count * (depth + 1) * (log2(size) if size > 1 else 0.0)
    estimate = (cap + 1) * max(bits, 1.0)
    if estimate > MAX_EXACT_BITS:
        dice = " + ".join(f"{count}d{size}{'!' if explode else ''}" for size, count in sorted(counts.items()))
        raise LimitExceeded(
            f"the exact distribution of {dice} capped at {cap} is too large to compute (about "
            f"{estimate / 8e6:.1f} MB of exact weights; the limit is {MAX_EXACT_BITS / 8e6:.1f} MB): "
            "use fewer dice or a lower target"
        )


def check_exploding_work(sizes: Iterable[int], cap: int) -> None:
    """Refuse a pool of exploding dice (a list of sizes) too large to compute exactly at this cap."""
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    _check_work(counts, cap, explode=True)


def pool_total(sizes: Iterable[int], cap: int, *, explode: bool = True) -> Distribution:
    """``min(sum, cap)`` for a pool of dice of the given sizes, exploding by default.

    Equal dice are combined by repeated doubling, so a pool of many d6 costs a handful of convolutions.
    """
    check_cap(cap)
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    check_dice_count(sum(counts.values()))
    _check_work(counts, cap, explode)
    total = Distribution.constant(0)
    for size, count in sorted(counts.items()):
        if explode:
            one = exploding_die(size, cap)
        else:
            check_faces(size)
            one = Distribution.die(size).cap(cap)
        total = (total + one.repeat_sum(count, cap=cap)).cap(cap)
    return total
