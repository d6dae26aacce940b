"""How numbers are written for people, the same in the terminal, on plots and on pages.

Exact values stay exact everywhere else; this module only decides how a probability reads.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["percent"]


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
