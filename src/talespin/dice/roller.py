"""Rolling dice: chains of faces, from a generator or from physical dice.

A roll keeps every face. One die is a :class:`Chain`: its faces in order, more than one only when it
exploded (every face but the last is the maximum). Randomness always comes in as an argument — any object
with ``randrange(n)``, such as ``random.Random(seed)`` or ``random.SystemRandom()`` — never the
module-level ``random``, so a seeded roll is reproducible and a server can use a cryptographic source.
A whole number is accepted wherever a generator is, as a seed (:func:`generator`):

>>> import random
>>> roll_pool([6, 6, 8], random.Random(1)).total
9
>>> roll_pool([6, 6, 8], 1).total
9
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, overload

from .errors import FacesError, LimitExceeded
from .limits import MAX_CHAIN, check_dice_count, check_exploding, check_faces

__all__ = ["Chain", "PoolRoll", "Rng", "chains_from_faces", "generator", "roll_chain", "roll_pool"]


class Rng(Protocol):
    """The one thing a roller needs from a random generator."""

    def randrange(self, stop: int, /) -> int:
        """A uniformly random integer in ``0 .. stop-1``."""
        ...


@overload
def generator(rng: Rng | int) -> Rng: ...
@overload
def generator(rng: None) -> None: ...
def generator(rng: Rng | int | None) -> Rng | None:
    """The generator to roll with: ``rng`` itself, or ``random.Random(rng)`` when it is a whole-number seed.

    ``None`` stays ``None`` (a command that rolls nothing needs no generator). Anything else is refused
    with a :class:`TypeError` that says what was expected:

    >>> generator(7).randrange(6) == random.Random(7).randrange(6)
    True
    >>> generator("7")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: rng must be a random generator with randrange(stop), ... or a whole-number seed; got str
    """
    if rng is None:
        return None
    if isinstance(rng, bool) or not (isinstance(rng, int) or callable(getattr(rng, "randrange", None))):
        raise TypeError(
            "rng must be a random generator with randrange(stop), such as random.Random(seed), "
            f"or a whole-number seed; got {type(rng).__name__}"
        )
    return random.Random(rng) if isinstance(rng, int) else rng


@dataclass(frozen=True, slots=True)
class Chain:
    """One die as rolled: its size, whether it explodes, whether it is numbered from 0, and its faces."""

    size: int
    faces: tuple[int, ...]
    explodes: bool = True
    zero_based: bool = False

    @property
    def total(self) -> int:
        """The sum of the chain's faces."""
        return sum(self.faces)

    @property
    def exploded(self) -> bool:
        """True when the die showed its maximum at least once and was rolled again."""
        return len(self.faces) > 1

    def to_json(self) -> dict[str, object]:
        """The contract's ``{"size": 6, "faces": [6, 2]}``."""
        return {"size": self.size, "faces": list(self.faces)}


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """A whole pool as rolled: every chain in order."""

    chains: tuple[Chain, ...]

    @property
    def total(self) -> int:
        """The sum of every face of every chain."""
        return sum(chain.total for chain in self.chains)

    def faces(self) -> list[list[int]]:
        """The faces chain by chain, as the scripts and the CLI write them."""
        return [list(chain.faces) for chain in self.chains]


def roll_chain(size: int, rng: Rng | int, *, explodes: bool = True, zero_based: bool = False) -> Chain:
    """Roll one die with ``rng`` (a generator or a seed); an exploding one rolls on at its maximum."""
    rng = generator(rng)
    if explodes:
        check_exploding(size)
    else:
        check_faces(size)
    offset = 0 if zero_based else 1
    faces = [rng.randrange(size) + offset]
    while explodes and faces[-1] == size - 1 + offset:
        if len(faces) >= MAX_CHAIN:
            raise LimitExceeded(f"an exploding d{size} chain passed {MAX_CHAIN} faces; the roll was stopped")
        faces.append(rng.randrange(size) + offset)
    return Chain(size, tuple(faces), explodes, zero_based)


def roll_pool(
    sizes: Sequence[int], rng: Rng | int, *, explodes: bool = True, zero_based: bool = False
) -> PoolRoll:
    """Roll one die of each size in ``sizes``, in order, with ``rng`` (a generator or a seed)."""
    rng = generator(rng)
    check_dice_count(len(sizes))
    return PoolRoll(tuple(roll_chain(s, rng, explodes=explodes, zero_based=zero_based) for s in sizes))


def chains_from_faces(
    sizes: Sequence[int],
    faces: Iterable[Iterable[int] | int],
    *,
    explodes: bool = True,
    zero_based: bool = False,
) -> PoolRoll:
    """Check physical dice entered by hand against the dice that should have been rolled.

    ``faces`` has one entry per die, in the order of ``sizes``: a list of faces (a chain) or a single face.
    A face must lie on the die; an exploding chain continues exactly when its previous face was the maximum.
    The first inconsistency raises :class:`FacesError` naming the chain (1-based in the message).
    """
    check_dice_count(len(sizes))
    entries = [[entry] if isinstance(entry, int) else list(entry) for entry in faces]
    if len(entries) != len(sizes):
        expected = ", ".join(f"d{s}" for s in sizes) or "no dice"
        raise FacesError(f"expected {len(sizes)} chains of faces ({expected}), got {len(entries)}")
    low = 0 if zero_based else 1
    chains = []
    for index, (size, chain) in enumerate(zip(sizes, entries, strict=True)):
        high = size - 1 + low
        label = f"chain {index + 1} (d{size})"
        if not chain:
            raise FacesError(f"{label} is empty: each die needs at least one face", chain=index)
        if len(chain) > MAX_CHAIN:
            raise FacesError(f"{label} has more than {MAX_CHAIN} faces", chain=index)
        for position, face in enumerate(chain):
            if isinstance(face, bool) or not isinstance(face, int):
                raise FacesError(f"{label}: face {face!r} is not a whole number", chain=index)
            if not low <= face <= high:
                raise FacesError(
                    f"{label}: face {face} is not on the die (expected {low}..{high})", chain=index
                )
            is_last = position == len(chain) - 1
            if explodes and not is_last and face != high:
                raise FacesError(
                    f"{label}: {face} is not the maximum {high}, so the chain should stop there "
                    f"(faces {chain})",
                    chain=index,
                )
            if explodes and is_last and face == high:
                raise FacesError(
                    f"{label}: it ends on the maximum {high}, so it explodes: add the next face",
                    chain=index,
                )
            if not explodes and len(chain) > 1:
                raise FacesError(f"{label}: this die does not explode, give one face", chain=index)
        chains.append(Chain(size, tuple(chain), explodes, zero_based))
    return PoolRoll(tuple(chains))
