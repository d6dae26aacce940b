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
    "MAX_EXACT_BITS",
    "MAX_FACES",
    "MAX_NOTATION_LENGTH",
    "MAX_NUMBER_DIGITS",
    "check_cap",
    "check_dice_count",
    "check_exploding",
    "check_faces",
    "check_notation",
    "check_number",
]

MAX_DICE: Final = 1000
"""At most this many dice in one expression or roll."""
MAX_FACES: Final = 1000
"""A die has at most this many faces."""
MAX_CHAIN: Final = 100
"""A rolled exploding chain is stopped with an error after this many faces (probability ≤ 2⁻¹⁰⁰)."""
MAX_CAP: Final = 100_000
"""The largest cap an exact exploding distribution may be computed to."""
MAX_NOTATION_LENGTH: Final = 1000
"""Dice notation is at most this many characters long."""
MAX_NUMBER_DIGITS: Final = 9
"""A number written in dice notation has at most this many digits."""
MAX_EXACT_BITS: Final = 2**24
"""The largest exact distribution computed, in bits: outcomes × bits of the common denominator (2 MiB).

``1000d6`` (5,001 outcomes over 6¹⁰⁰⁰, about 1.6 MiB) fits and takes about two seconds; ``1000d1000``
(about a million outcomes of 10,000 bits each) is refused before any work instead of running for hours.
"""


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


def check_notation(text: str) -> None:
    """Refuse notation longer than :data:`MAX_NOTATION_LENGTH` characters."""
    if len(text) > MAX_NOTATION_LENGTH:
        raise LimitExceeded(
            f"dice notation may be at most {MAX_NOTATION_LENGTH} characters long, got {len(text)}"
        )


def check_number(digits: str, what: str) -> None:
    """Refuse a number written with more than :data:`MAX_NUMBER_DIGITS` digits (``what`` names it)."""
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise LimitExceeded(f"{what} may have at most {MAX_NUMBER_DIGITS} digits, got {digits[:20]}…")
