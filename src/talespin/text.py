"""How numbers and quoted input are written for people, the same in the terminal, on plots and on pages.

Exact values stay exact everywhere else; this module only decides how a probability reads, and how much of
a person's input an error message quotes back.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Final

__all__ = ["EXCERPT", "UNSAFE_CHARACTERS", "excerpt", "percent", "words"]

EXCERPT: Final = 40
"""Error messages quote at most this many characters of the input."""
UNSAFE_CHARACTERS: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""Control characters other than tab and newline, and lone surrogates: no text a person sends holds one."""


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """``value`` quoted for an error message: at most ``limit`` characters, control characters escaped.

    >>> excerpt("x" * 100, limit=5)
    "'xxxxx'… (100 characters)"
    >>> excerpt("\\ud800[/]"), excerpt(10**30)
    ("'\\\\ud800[/]'", '1000000000000000000000000000000')
    """
    text = value if isinstance(value, str) else repr(value)
    head = text[:limit]
    shown = ascii(head) if UNSAFE_CHARACTERS.search(head) else repr(head) if isinstance(value, str) else head
    return shown if len(text) <= limit else f"{shown}… ({len(text)} characters)"


def percent(p: Fraction | float, digits: int = 1, *, sign: bool = True) -> str:
    """A probability for people, never rounded to a certainty it is not.

    >>> percent(Fraction(1999, 2000)), percent(1), percent(Fraction(1, 3), sign=False)
    ('>99.9%', '100%', '33.3')
    """
    suffix = "%" if sign else ""
    if p >= 1:
        return f"100{suffix}"
    if p <= 0:
        return f"0{suffix}"
    step = 10.0**-digits
    shown = round(float(p) * 100, digits)
    if shown >= 100:
        return f">{100 - step:.{digits}f}{suffix}"
    if shown <= 0:
        return f"<{step:.{digits}f}{suffix}"
    return f"{shown:.{digits}f}{suffix}"


def words(value: Any) -> str:
    """A value from an event or a state as a person reads it, never as a Python repr.

    Lists become comma-separated names (a mapping in a list in brackets), mappings ``name value`` pairs,
    ``None`` and empty collections "none", booleans "yes"/"no"; texts and numbers stay as they are.

    >>> words(["Ada", "Bram"]), words(None), words({"Ada": 0, "Bram": 1}), words(False), words([])
    ('Ada, Bram', 'none', 'Ada 0, Bram 1', 'no', 'none')
    >>> words([{"at": 10, "text": "A patrol"}])
    '(at 10, text A patrol)'
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{key} {words(item)}" for key, item in value.items()) or "none"
    if isinstance(value, list | tuple | set | frozenset):
        shown = (f"({words(item)})" if isinstance(item, dict) else words(item) for item in value)
        return ", ".join(shown) or "none"
    return str(value)
