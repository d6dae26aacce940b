"""The float path: the same distributions as numpy arrays, for speed.

Exact :class:`~talespin.dice.distribution.Distribution` objects answer questions with fractions; when a
page or a designer's grid needs thousands of answers at once, these functions compute the same numbers in
float64 (agreeing with the exact path to about 1e-15). A float distribution is a pair ``(low, p)``:
``p[i]`` is P(X = low + i).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .limits import check_cap, check_dice_count, check_exploding, check_faces

__all__ = [
    "FloatArray",
    "cap_array",
    "convolve_arrays",
    "exploding_die_array",
    "mean_array",
    "p_at_least_array",
    "pool_total_array",
    "scale_array",
    "sum_arrays",
]

FloatArray = npt.NDArray[np.float64]


@lru_cache(maxsize=1024)
def _exploding_die_cached(size: int, cap: int) -> FloatArray:
    values = np.arange(cap + 1)
    q, r = np.divmod(values, size)
    p = np.where((r != 0) & (values >= 1) & (values < cap), float(size) ** -(q + 1.0), 0.0)
    p[cap] = _tail_mass(size, cap)
    p.setflags(write=False)
    return p


def _tail_mass(size: int, cap: int) -> float:
    """P(total ≥ cap) for one exploding die, in closed form (no subtraction of nearly equal numbers)."""
    # total ≥ cap  ⇔  the first q = ⌊(cap−1)/S⌋ faces are maxima and then the next face ≥ cap − q·S.
    q = (cap - 1) // size
    rest = cap - q * size  # 1..S
    return float(size) ** -q * (size - rest + 1) / size


def exploding_die_array(size: int, cap: int) -> FloatArray:
    """P(min(total, cap) = v) for v = 0..cap, one exploding die (read-only array)."""
    check_exploding(size)
    check_cap(cap)
    return _exploding_die_cached(size, cap)


def cap_array(p: FloatArray, cap: int) -> FloatArray:
    """Lump the mass at indices ≥ cap onto index cap (for arrays starting at outcome 0)."""
    if len(p) <= cap + 1:
        return p
    out = p[: cap + 1].copy()
    out[cap] += p[cap + 1 :].sum()
    return out


def sum_arrays(a: FloatArray, b: FloatArray, cap: int) -> FloatArray:
    """``min(X + Y, cap)`` for two capped arrays starting at outcome 0."""
    return cap_array(np.convolve(a, b), cap)


def pool_total_array(sizes: Iterable[int], cap: int, *, explode: bool = True) -> FloatArray:
    """The float twin of :func:`talespin.dice.exploding.pool_total`: P(min(sum, cap) = v), v = 0..cap."""
    check_cap(cap)
    sizes = list(sizes)
    check_dice_count(len(sizes))
    total = np.zeros(cap + 1)
    total[0] = 1.0
    for size in sizes:
        if explode:
            one = exploding_die_array(size, cap)
        else:
            check_faces(size)
            one = np.zeros(size + 1)
            one[1:] = 1.0 / size
            one = cap_array(one, cap)
        total = sum_arrays(total, one, cap)
    return total


def p_at_least_array(p: FloatArray, threshold: int, low: int = 0) -> float:
    """P(X ≥ threshold) from a float distribution starting at ``low``."""
    start = max(0, threshold - low)
    return float(p[start:].sum())


def convolve_arrays(a: FloatArray, b: FloatArray) -> FloatArray:
    """The uncapped sum of two independent float distributions (their ``low`` s add)."""
    return np.convolve(a, b)


def scale_array(p: FloatArray, factor: int) -> FloatArray:
    """The distribution of ``factor · X`` for ``factor ≥ 1`` (its ``low`` is multiplied by ``factor``)."""
    if factor < 1:
        raise ValueError(f"a scale factor for a float distribution is 1 or more, got {factor}")
    out = np.zeros((len(p) - 1) * factor + 1)
    out[::factor] = p
    return out


def mean_array(p: FloatArray, low: int = 0) -> float:
    """E[X] of a float distribution starting at ``low``."""
    return float(np.dot(p, np.arange(low, low + len(p))))
