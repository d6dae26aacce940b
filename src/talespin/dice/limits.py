"""Limits on the work one expression or roll may ask for.

They keep abusive input from hanging a process: each is checked before any work is done and raises
:class:`~talespin.dice.errors.LimitExceeded` with a message naming the limit.
"""

from __future__ import annotations

from typing import Final

from .errors import LimitExceeded

__all__ = [
    "MAX_CAP",
    "MAX_CHAIN",
    "MAX_DICE",
    "MAX_FACES",
    "check_cap",
    "check_dice_count",
    "check_exploding",
    "check_faces",
]

MAX_DICE: Final = 1000
"""At most this many dice in one expression or roll."""
MAX_FACES: Final = 1000
"""A die has at most this many faces."""
MAX_CHAIN: Final = 100
"""A rolled exploding chain is stopped with an error after this many faces (probability ≤ 2⁻¹⁰⁰)."""
MAX_CAP: Final = 100_000
"""The largest cap an exact exploding distribution may be computed to."""


def check_dice_count(count: int) -> None:
    """Refuse a negative count or more than :data:`MAX_DICE` dice."""
    if count < 0:
        raise LimitExceeded(f"a dice count must be 0 or more, got {count}")
    if count > MAX_DICE:
        raise LimitExceeded(f"at most {MAX_DICE} dice may be rolled in one expression, got {count}")


def check_faces(size: int) -> None:
    """Refuse a die with fewer than 1 or more than :data:`MAX_FACES` faces."""
    if size < 1:
        raise LimitExceeded(f"a die needs at least 1 face, got d{size}")
    if size > MAX_FACES:
        raise LimitExceeded(f"a die may have at most {MAX_FACES} faces, got d{size}")


def check_exploding(size: int) -> None:
    """Refuse an exploding die that could never stop (a d1 always shows its maximum)."""
    check_faces(size)
    if size == 1:
        raise LimitExceeded("a d1 cannot explode: it always shows its maximum face and would never stop")


def check_cap(cap: int) -> None:
    """Refuse a cap below 1 or above :data:`MAX_CAP`."""
    if cap < 1 or cap > MAX_CAP:
        raise LimitExceeded(f"a cap must lie between 1 and {MAX_CAP}, got {cap}")
