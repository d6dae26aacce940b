"""Hypothesis strategies that mirror ``grammar.lark``: notation text, and syntax trees, rule by rule."""

from __future__ import annotations

from hypothesis import strategies as st

from talespin.dice import Constant, Dice, Expression, Part, SuccessCount

# Terminals of the grammar, sometimes outside the limits so that LimitExceeded is exercised too.
ints = st.one_of(st.integers(0, 12), st.integers(0, 1100), st.integers(0, 10**10)).map(str)
small_ints = st.integers(0, 12).map(str)
kinds = st.sampled_from(["d", "z", "D", "Z"])
explode = st.sampled_from(["", "!"])
spaces = st.sampled_from(["", " ", "  ", "\t"])
signs = st.tuples(spaces, st.sampled_from(["+", "-"]), spaces).map("".join)
compares = st.tuples(spaces, st.sampled_from(["<=", ">="]), spaces).map("".join)
targets = st.one_of(small_ints, st.integers(-12, -1).map(str))


@st.composite
def dice_text(draw: st.DrawFn) -> str:
    """``dice: INT? KIND INT EXPLODE?``"""
    count = draw(st.one_of(st.just(""), small_ints, ints))
    return f"{count}{draw(kinds)}{draw(st.one_of(small_ints, ints))}{draw(explode)}"


@st.composite
def term_text(draw: st.DrawFn) -> str:
    """``?term: dice | constant | success_count``"""
    kind = draw(st.sampled_from(["dice", "constant", "count"]))
    if kind == "dice":
        return draw(dice_text())
    if kind == "constant":
        return draw(ints)
    return f"{draw(dice_text())}{draw(compares)}{draw(targets)}"


@st.composite
def notation_text(draw: st.DrawFn) -> str:
    """``start: _WS? expression _WS?`` with ``expression: first_part part*``."""
    lead = draw(st.sampled_from(["", "-", "+"]))
    first = f"{lead}{draw(term_text())}"
    rest = draw(st.lists(st.tuples(signs, term_text()).map("".join), max_size=4))
    return f"{draw(spaces)}{first}{''.join(rest)}{draw(spaces)}"


def _dice(explodable: bool = True) -> st.SearchStrategy[Dice]:
    @st.composite
    def build(draw: st.DrawFn) -> Dice:
        zero_based = draw(st.booleans())
        explodes = explodable and not zero_based and draw(st.booleans())
        size = draw(st.integers(2 if explodes else 1, 20))
        return Dice(draw(st.integers(0, 6)), size, explodes, zero_based)

    return build()


@st.composite
def expressions(draw: st.DrawFn) -> Expression:
    """Valid syntax trees within the limits: a success count alone, or a signed sum of dice and constants."""
    if draw(st.integers(0, 4)) == 0:
        count = SuccessCount(
            draw(_dice(explodable=False)), draw(st.sampled_from(["<=", ">="])), draw(st.integers(-3, 21))
        )
        return Expression((Part(1, count),))
    terms = st.one_of(_dice(), st.integers(0, 50).map(Constant))
    parts = draw(st.lists(st.tuples(st.sampled_from([1, -1]), terms), min_size=1, max_size=5))
    return Expression(tuple(Part(sign, term) for sign, term in parts))
