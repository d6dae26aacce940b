"""How the CLI shows probabilities and exact fractions to people."""

from __future__ import annotations

import doctest
from fractions import Fraction

from talespin import text
from talespin.cli.output import fraction
from talespin.text import percent


def test_percent_never_rounds_to_a_false_certainty() -> None:
    """A probability just below 1 or just above 0 is shown as '>99.9%' or '<0.1%', never 100% or 0%."""
    assert percent(Fraction(99999, 100000)) == ">99.9%"
    assert percent(Fraction(1, 100000)) == "<0.1%"
    assert percent(Fraction(1)) == "100%"
    assert percent(Fraction(0)) == "0%"


def test_percent_digits_and_sign() -> None:
    """Ordinary values are rounded to the asked number of digits, with or without the sign."""
    assert percent(Fraction(1, 3)) == "33.3%"
    assert percent(Fraction(2, 3), 2) == "66.67%"
    assert percent(0.5, sign=False) == "50.0"
    assert percent(Fraction(99999, 100000), 2, sign=False) == ">99.99"


def test_fraction_is_lowest_terms() -> None:
    """Exact probabilities print as 'numerator/denominator' in lowest terms."""
    assert fraction(Fraction(6, 8)) == "3/4"
    assert fraction(Fraction(1)) == "1/1"


def test_doctests() -> None:
    """The examples in the module's docstrings are true."""
    assert doctest.testmod(text).failed == 0
