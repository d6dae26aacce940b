"""Exact integer weight sequences as polynomials: products and powers without floating point.

A sequence of weights ``w[0..n-1]`` is the polynomial ``Σ w[i]·xⁱ``; adding independent dice multiplies
their polynomials. These are the two workhorses behind :class:`~talespin.dice.distribution.Distribution`:

- :func:`convolve`: the product of two sequences. Small ones use the schoolbook double loop; large ones use
  Kronecker substitution: each sequence is packed into one big integer (a fixed-width slot per weight, wide
  enough that no slot of the product overflows), the two integers are multiplied (by GMP when the
  ``[fast]`` extra is installed, else by Python's sub-quadratic multiplication: :mod:`.bigint`), and the
  product is unpacked slot by slot.
- :func:`uniform_power`: ``(1 + x + … + x^(S−1))^N``, the ways N dice of S faces reach each total, by
  J. C. P. Miller's recurrence for powers of a series. With all coefficients 1 the recurrence needs only two
  running window sums, so each coefficient costs O(1) big-integer operations (``1000d6`` in milliseconds).

>>> convolve((1, 1), (1, 2, 1))
[1, 3, 3, 1]
>>> uniform_power(2, 6)
[1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .bigint import multiply

__all__ = ["convolve", "uniform_power"]

_SCHOOLBOOK_LIMIT: Final = 4096
"""Below this many weight products, the double loop beats packing into big integers."""


def convolve(
    a: Sequence[int], b: Sequence[int], *, product: Callable[[int, int], int] = multiply
) -> list[int]:
    """The coefficients of the product of two polynomials with non-negative integer coefficients.

    ``product`` multiplies the two packed big integers (:mod:`.bigint`; the fastest installed by default).
    """
    if len(a) * len(b) <= _SCHOOLBOOK_LIMIT:
        out = [0] * (len(a) + len(b) - 1)
        for i, wa in enumerate(a):
            if wa:
                for j, wb in enumerate(b):
                    out[i + j] += wa * wb
        return out
    bound = min(len(a), len(b)) * max(a) * max(b)
    width = (bound.bit_length() + 8) // 8
    packed_a = int.from_bytes(b"".join(w.to_bytes(width, "little") for w in a), "little")
    packed_b = int.from_bytes(b"".join(w.to_bytes(width, "little") for w in b), "little")
    size = len(a) + len(b) - 1
    raw = product(packed_a, packed_b).to_bytes(size * width, "little")
    return [int.from_bytes(raw[i * width : (i + 1) * width], "little") for i in range(size)]


def uniform_power(count: int, faces: int) -> list[int]:
    """The coefficients of ``(1 + x + … + x^(faces−1))^count``, for ``count ≥ 0`` and ``faces ≥ 1``.

    Miller's recurrence for ``P = Qᴺ`` with ``q₀ = 1`` reads ``k·p[k] = Σⱼ ((N+1)·j − k)·q[j]·p[k−j]``;
    here ``q[j] = 1`` for ``j = 1..m`` (``m = faces − 1``), so with ``B = Σⱼ p[k−j]`` and
    ``A = Σⱼ j·p[k−j]`` it becomes ``p[k] = ((N+1)·A − k·B) / k``, an exact division, and both sums slide
    by one step in O(1).
    """
    if count < 0 or faces < 1:
        raise ValueError(f"need count ≥ 0 and faces ≥ 1, got {count} and {faces}")
    m = faces - 1
    span = count * m + 1
    p = [0] * span
    p[0] = 1
    window = 0  # B: Σ_{j=1..m} p[k−j]
    weighted = 0  # A: Σ_{j=1..m} j·p[k−j]
    for k in range(1, span):
        leaving = p[k - 1 - m] if k - 1 - m >= 0 else 0
        window += p[k - 1] - leaving
        weighted += window - m * leaving
        p[k] = ((count + 1) * weighted - k * window) // k
    return p
