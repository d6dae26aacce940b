"""Fair, auditable server dice: a committed seed per scene and a generator derived from it.

At the start of a scene the server draws a secret seed with :mod:`secrets` and publishes only its SHA-256
(the *commitment*). Every server roll of the scene comes from :class:`HmacRng`, which turns the seed, the
campaign id, the version of the command and a counter into numbers with HMAC-SHA256. At the end of the scene
the seed is revealed; anyone holding the record can then check that it matches the commitment and re-derive
every roll (``talespin verify``). The server could not choose the seed after seeing the commands, and no one
could predict the rolls before the reveal.

>>> rng = HmacRng(bytes(32), "c1", 7)
>>> [rng.randrange(6) for _ in range(5)]
[3, 2, 5, 0, 3]
>>> commitment(bytes(32))[:16]
'66687aadf862bd77'
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

__all__ = ["SEED_BYTES", "HmacRng", "commitment", "draw_seed"]

SEED_BYTES: Final = 32
"""A seed is 256 random bits."""

_BLOCK_BITS: Final = 256


def draw_seed() -> bytes:
    """A fresh secret seed from the operating system's cryptographic generator."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, in hex."""
    return hashlib.sha256(seed).hexdigest()


class HmacRng:
    """A reproducible, unbiased generator: block ``i`` is HMAC-SHA256(seed, "campaign:nonce:NONCE:i").

    The *nonce* is the rolling client's fresh random contribution, sent with its command: the server, who
    knows the seed, cannot know it before the command arrives, and the client cannot know the seed, so no
    single party can steer the roll. The derivation names no version, so nothing the server appends first
    (a hidden note shifting the entry number) changes it. A roll recorded before nonces existed has none:
    its blocks are HMAC-SHA256(seed, "campaign:version:i").

    ``randrange(n)`` takes as many bits as ``n - 1`` needs from successive blocks and rejects a draw at or
    above ``n`` (rejection sampling), so every outcome has exactly probability 1/n. ``used`` says whether any
    number was drawn, so the table can record a roll as server dice.
    """

    def __init__(self, seed: bytes, campaign_id: str, version: int, nonce: str | None = None) -> None:
        self._seed = seed
        self._prefix = (
            f"{campaign_id}:{version}:" if nonce is None else f"{campaign_id}:nonce:{nonce}:"
        ).encode()
        self._counter = 0
        self.draws = 0

    @property
    def used(self) -> bool:
        """True once any number has been drawn."""
        return self.draws > 0

    def _block(self) -> int:
        message = self._prefix + str(self._counter).encode()
        self._counter += 1
        return int.from_bytes(hmac.new(self._seed, message, hashlib.sha256).digest(), "big")

    def randrange(self, stop: int, /) -> int:
        """A uniformly random integer in ``0 .. stop-1``."""
        if isinstance(stop, bool) or not isinstance(stop, int) or stop < 1:
            raise ValueError(f"randrange needs a whole number of outcomes ≥ 1, got {stop!r}")
        self.draws += 1
        if stop == 1:
            return 0
        bits = (stop - 1).bit_length()
        if bits > _BLOCK_BITS:
            raise ValueError(f"randrange supports at most 2**{_BLOCK_BITS} outcomes")
        while True:
            candidate = self._block() >> (_BLOCK_BITS - bits)
            if candidate < stop:
                return candidate
