"""The exceptions of the dice engine.

Everything raised on purpose by :mod:`talespin.dice` derives from :class:`DiceError`::

    DiceError
    ├── NotationError    the text is not valid dice notation
    ├── LimitExceeded    valid, but asks for more work than the engine allows
    └── FacesError       physical dice entered by hand do not match the dice rolled

Each carries a ``code`` (stable, for JSON and HTTP) and a message that says what was expected.
Adapters map them to exit code 2 and HTTP 422 in one place each.
"""

from __future__ import annotations

__all__ = ["DiceError", "FacesError", "LimitExceeded", "NotationError"]


class DiceError(ValueError):
    """Root of every error the dice engine raises on purpose."""

    code = "dice_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotationError(DiceError):
    """Dice notation that cannot be parsed."""

    code = "bad_notation"


class LimitExceeded(DiceError):
    """An expression or roll beyond the engine's limits (too many dice, faces, chain length)."""

    code = "limit_exceeded"


class FacesError(DiceError):
    """Faces entered by hand that do not fit the dice: wrong count, out of range, or a broken chain.

    ``chain`` is the 0-based index of the offending chain, when there is one.
    """

    code = "bad_faces"

    def __init__(self, message: str, chain: int | None = None) -> None:
        super().__init__(message)
        self.chain = chain
