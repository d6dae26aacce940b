"""Checking the arguments of the library's own functions, for people calling them from Python.

A notebook user who passes ``narration="loud"`` or ``cap="x"`` should read what was expected, not an
``AttributeError`` from deep inside the solver. Each check raises :class:`BadArgument` (a
:class:`~talespin.systems.MalformedCommand`, so also a ``ValueError``) naming the argument, what it must
be and what it got:

>>> whole(3, "cap", low=1)
3
>>> one_of("loud", "narration", ("none", "narrated", "exceptional"))
Traceback (most recent call last):
...
talespin.systems.arguments.BadArgument: narration must be one of 'none', 'narrated', 'exceptional'; got 'loud'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from ..text import excerpt
from .errors import MalformedCommand

__all__ = ["BadArgument", "described", "instance", "one_of", "optional_text", "optional_whole", "whole"]

T = TypeVar("T")


class BadArgument(MalformedCommand):
    """An argument of a library function of the wrong kind or out of its range; ``path`` names it."""

    code = "bad_argument"


def described(value: object) -> str:
    """What was given, in words: a short quote of a text or number, otherwise the name of its type."""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return excerpt(value)
    return "None" if value is None else f"a {type(value).__name__}"


def _refuse(name: str, expected: str, value: object) -> BadArgument:
    return BadArgument(f"{name} must be {expected}; got {described(value)}", path=name)


def whole(value: object, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is a whole number (not a bool) within ``low``..``high``, else :class:`BadArgument`."""
    span = ""
    if low is not None:
        span = f" from {low} to {high}" if high is not None else f" of {low} or more"
    elif high is not None:
        span = f" of {high} or less"
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refuse(name, f"a whole number{span}", value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise _refuse(name, f"a whole number{span}", value)
    return value


def optional_whole(
    value: object, name: str, *, low: int | None = None, high: int | None = None
) -> int | None:
    """:func:`whole`, or ``None`` when ``value`` is ``None`` (the rules' default)."""
    return None if value is None else whole(value, name, low=low, high=high)


def optional_text(value: object, name: str) -> str | None:
    """``value`` if it is a non-empty text or ``None``, else :class:`BadArgument`."""
    if value is None or (isinstance(value, str) and value):
        return value
    raise _refuse(name, "a name (a non-empty text) or None", value)


def one_of(value: object, name: str, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``, else :class:`BadArgument` listing them."""
    if isinstance(value, str) and value in choices:
        return value
    listed = ", ".join(repr(choice) for choice in choices)
    raise _refuse(name, f"one of {listed}", value)


def instance(value: Any, name: str, kind: type[T], how: str) -> T:
    """``value`` if it is a ``kind``, else :class:`BadArgument` saying how to make one (``how``)."""
    if isinstance(value, kind):
        return value
    raise _refuse(name, f"a {kind.__name__} ({how})", value)
