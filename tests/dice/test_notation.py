"""Dice notation: parsing, printing back, refusals with clear messages, and the grammar fuzzed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from talespin.dice import (
    Constant,
    Dice,
    DiceError,
    Expression,
    LimitExceeded,
    NotationError,
    Part,
    SuccessCount,
    odds,
    parse,
    roll,
)

from .strategies import expressions, notation_text


def test_sums_parse_into_signed_parts() -> None:
    """``2d6! + d8 - 3`` is three parts: exploding 2d6, one d8 (count optional), minus the constant 3."""
    tree = parse("2d6! + d8 - 3")
    assert tree == Expression(
        (Part(1, Dice(2, 6, explodes=True)), Part(1, Dice(1, 8)), Part(-1, Constant(3)))
    )
    assert str(tree) == "2d6! + 1d8 - 3"


# rule: AS-TEST-3
def test_an_ascend_pool_is_zero_based_success_count() -> None:
    """``6z10<=2`` is six dice numbered 0..9, each showing 2 or less counting as a success."""
    tree = parse("6z10<=2")
    count = tree.success_count
    assert count == SuccessCount(Dice(6, 10, zero_based=True), "<=", 2)
    assert [face for face in range(10) if count.succeeds(face)] == [0, 1, 2]


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("d6", "1d6"),
        ("  3D6  ", "3d6"),
        ("-2", "-2"),
        ("-1d4+1d4", "-1d4 + 1d4"),
        ("4d6 >= 5", "4d6>=5"),
        ("3z10<=-1", "3z10<=-1"),
        ("0d6", "0d6"),
        ("1d6!+1d6!", "1d6! + 1d6!"),
    ],
)
def test_notation_prints_back_canonically(text: str, printed: str) -> None:
    """Each notation prints in canonical form, and that form parses to the same tree."""
    tree = parse(text)
    assert str(tree) == printed
    assert parse(printed) == tree


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2d", "at column 3: expected a whole number"),
        ("", "at column 1: expected"),
        ("2 d6", "at column 3"),
        ("3d6 +", "expected 'd' or 'z' (a die) or a whole number"),
        ("3d6<", "'<=' or '>='"),
        ("x", "at column 1"),
        ("3d6<=2 + 1", "stands alone"),
        ("-3d6<=2", "stands alone"),
        ("3d6!>=5", "cannot count successes"),
        ("2z10!", "do not explode"),
    ],
)
def test_bad_notation_says_what_was_expected(text: str, message: str) -> None:
    """Bad notation raises NotationError whose message names the column or the rule broken."""
    with pytest.raises(NotationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1001d6", "at most 1000 dice"),
        ("500d6 + 501d4", "at most 1000 dice"),
        ("0d1!", "d1 cannot explode"),
        ("1d1001", "at most 1000 faces"),
        ("3d0", "at least 1 face"),
        ("1234567890d6", "at most 9 digits"),
        ("1d6 + " * 200 + "1", "at most 1000 characters"),
    ],
)
def test_limits_are_enforced_for_the_whole_expression(text: str, message: str) -> None:
    """Expressions beyond the limits raise LimitExceeded at parse time, before any work."""
    with pytest.raises(LimitExceeded, match=message):
        parse(text)


@settings(max_examples=400, deadline=None)
@given(notation_text())
def test_grammar_shaped_text_parses_or_is_refused_cleanly(text: str) -> None:
    """Grammar-shaped text parses (and round-trips, rolls, has odds summing to 1) or raises a DiceError."""
    try:
        tree = parse(text)
    except DiceError as error:
        assert error.message
        return
    assert parse(str(tree)) == tree
    rolled = roll(tree, random.Random(0))
    assert len(rolled.chains) == sum(dice.count for _, dice in tree.dice_terms)
    try:
        result = odds(tree, cap=30)
    except DiceError as error:
        assert error.message
        return
    assert sum(p for _, p in result.distribution.items()) == 1


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_arbitrary_text_never_breaks_the_parser(text: str) -> None:
    """Any text at all yields a tree or a DiceError, never another exception."""
    try:
        tree = parse(text)
    except DiceError:
        return
    assert isinstance(tree, Expression)


@settings(max_examples=300, deadline=None)
@given(expressions())
def test_every_tree_round_trips_through_its_notation(tree: Expression) -> None:
    """``parse(str(tree)) == tree`` for every valid syntax tree."""
    assert parse(str(tree)) == tree


def test_hand_built_trees_follow_the_same_rules_as_text() -> None:
    """Trees built by hand are refused for the same reasons as notation text, with a NotationError."""
    count = SuccessCount(Dice(3, 6), ">=", 5)
    with pytest.raises(NotationError, match="stands alone"):
        Expression((Part(1, count), Part(1, Constant(1))))
    with pytest.raises(NotationError, match="cannot count successes"):
        SuccessCount(Dice(3, 6, explodes=True), ">=", 5)
    with pytest.raises(NotationError, match="do not explode"):
        Dice(2, 10, explodes=True, zero_based=True)
    with pytest.raises(NotationError, match="at least one term"):
        Expression(())
    with pytest.raises(NotationError, match="sign is"):
        Part(2, Constant(1))
    with pytest.raises(NotationError, match="without its sign"):
        Constant(-1)
