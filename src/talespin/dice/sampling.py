"""Vectorized sampling of exploding dice with a numpy ``Generator``.

Simulation and checking the exact odds need millions of rolls; rolling them one chain at a time in Python
is slow. Here every die of every sample is rolled at once, then only the dice that showed their maximum are
rolled again, and again, until none is left exploding. There is no depth limit: the loop runs over the dice
still exploding, whose number shrinks geometrically (by a factor S each round), so the law of every total is
exactly that of :func:`~talespin.dice.roller.roll_pool` and the work is about ``S/(S−1)`` draws per die.

The generator is always passed in (``numpy.random.default_rng(seed)``), so a sample is reproducible.

>>> import numpy as np
>>> totals = sample_exploding_totals(np.random.default_rng(7), [6, 6, 8], 5)
>>> totals.shape, bool((totals >= 3).all())
((5,), True)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .errors import LimitExceeded
from .limits import check_dice_count, check_exploding

__all__ = ["MAX_SAMPLES", "IntArray", "sample_exploding_die", "sample_exploding_totals"]

IntArray = npt.NDArray[np.int64]

MAX_SAMPLES = 100_000_000
"""At most this many dice rolled (samples × dice) by one call, to bound memory."""


def _check_samples(count: int, dice: int) -> None:
    if count < 0:
        raise LimitExceeded(f"a number of samples must be 0 or more, got {count}")
    if count * max(dice, 1) > MAX_SAMPLES:
        raise LimitExceeded(f"at most {MAX_SAMPLES} dice may be sampled at once, asked for {count * dice}")


def sample_exploding_die(rng: np.random.Generator, size: int, n: int) -> IntArray:
    """``n`` independent totals of one exploding die of ``size`` faces."""
    check_exploding(size)
    _check_samples(n, 1)
    small = _face_type(size)
    faces = rng.integers(1, size + 1, size=n, dtype=small)
    live = np.flatnonzero(faces == size)
    totals = faces.astype(np.int64)
    while live.size:
        again = rng.integers(1, size + 1, size=live.size, dtype=small)
        totals[live] += again
        live = live[again == size]
    return totals


def _face_type(size: int) -> type[np.int8] | type[np.int16]:
    """The narrowest integer type holding one face: numpy draws narrow integers several times faster."""
    return np.int8 if size <= np.iinfo(np.int8).max else np.int16


def sample_exploding_totals(rng: np.random.Generator, sizes: Sequence[int], n: int) -> IntArray:
    """``n`` independent totals of the exploding pool ``sizes`` (one die per entry, sizes may differ).

    ``result[i]`` is the sum of every face of every chain of sample ``i``.
    """
    check_dice_count(len(sizes))
    for size in sizes:
        check_exploding(size)
    _check_samples(n, len(sizes))
    if not sizes:
        return np.zeros(n, dtype=np.int64)
    if len(set(sizes)) == 1:
        # One size: roll all n·k dice as one flat run and fold them into samples afterwards.
        flat = sample_exploding_die(rng, sizes[0], n * len(sizes))
        folded: IntArray = flat.reshape(n, len(sizes)).sum(axis=1)
        return folded
    tops = np.asarray(sizes, dtype=np.int16)
    faces = rng.integers(1, tops + 1, size=(n, len(sizes)), dtype=np.int16)
    totals: IntArray = faces.sum(axis=1, dtype=np.int64)
    rows, cols = np.nonzero(faces == tops)
    while rows.size:
        again = rng.integers(1, tops[cols] + 1, dtype=np.int16)
        np.add.at(totals, rows, again)
        keep = again == tops[cols]
        rows, cols = rows[keep], cols[keep]
    return totals
