"""Exact odds of notation: against brute-force rolls, capping, success counts, and the work budget."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings

from talespin.dice import (
    Constant,
    Distribution,
    Expression,
    LimitExceeded,
    NotationError,
    SuccessCount,
    odds,
    parse,
    pool_total,
)
from talespin.dice.limits import MAX_EXACT_BITS

from .strategies import expressions


def _enumerate(tree: Expression) -> Distribution:
    """The distribution of a tree without exploding dice, by listing every face of every die."""
    dice: list[tuple[int, int, int]] = []  # (sign, low face, high face), one per die
    constant = 0
    for part in tree.parts:
        term = part.term
        if isinstance(term, Constant):
            constant += part.sign * term.value
            continue
        spec = term.dice if isinstance(term, SuccessCount) else term
        low = 0 if spec.zero_based else 1
        dice += [(part.sign, low, low + spec.size - 1)] * spec.count
    count = tree.success_count
    outcomes: Counter[int] = Counter()
    for faces in itertools.product(*(range(lo, hi + 1) for _, lo, hi in dice)):
        if count is not None:
            outcomes[sum(1 for face in faces if count.succeeds(face))] += 1
        else:
            outcomes[constant + sum(sign * face for (sign, _, _), face in zip(dice, faces, strict=True))] += 1
    return Distribution.from_weights(dict(outcomes))


@pytest.mark.parametrize(
    "text",
    ["2d6", "3d6 - 1d4 + 2", "-1d8 + 5", "2z10 + 1d3", "4d6>=5", "5z10<=2", "3d4<=0", "3d4>=9", "0d6 + 3"],
)
def test_bounded_expressions_match_enumeration(text: str) -> None:
    """Sums, differences, constants and success counts equal the count over every combination of faces."""
    tree = parse(text)
    result = odds(tree)
    assert not result.capped
    assert result.cap is None
    assert result.distribution == _enumerate(tree)
    assert result.mean == result.distribution.mean()


# rule: AS-ODDS-1
def test_ascend_pool_is_binomial() -> None:
    """``4z10<=2`` is binomial with p = 3/10: P(no success) = (7/10)^4, mean 4·3/10."""
    result = odds("4z10<=2")
    assert result.distribution.probability(0) == Fraction(7, 10) ** 4
    assert result.distribution.probability(4) == Fraction(3, 10) ** 4
    assert result.mean == Fraction(6, 5)


# rule: II-ROLL-2
def test_exploding_sum_is_capped_with_the_exact_tail() -> None:
    """An exploding sum lists outcomes up to the cap, the last one P(total ≥ cap); the mean is uncapped."""
    result = odds("2d6! + 1d8!", cap=40)
    assert result.capped
    assert result.cap == 40
    assert result.distribution == pool_total([6, 6, 8], cap=40)
    assert result.mean == Fraction(42, 5) + Fraction(36, 7)


def test_bounded_terms_shift_the_capped_exploding_part_exactly() -> None:
    """With constants and plain dice beside exploding ones, P(total ≥ T) stays exact up to the cap."""
    result = odds("1d6! + 1d4 - 3", cap=12).distribution
    die = pool_total([6], cap=30)
    weights: dict[int, Fraction] = {}
    for outcome, p in die.items():
        for face in range(1, 5):
            key = min(outcome + face - 3, 12)
            weights[key] = weights.get(key, Fraction(0)) + p / 4
    assert result == Distribution.from_weights(weights)


def test_a_cap_below_every_outcome_is_certain() -> None:
    """When every total is at least the cap, the whole mass sits on the cap."""
    result = odds("20d6!", cap=10)
    assert result.distribution == Distribution.constant(10)
    assert result.mean == 84


def test_subtracted_exploding_dice_have_no_listed_odds() -> None:
    """A subtracted exploding term has no lowest outcome: its odds are refused with a clear message."""
    with pytest.raises(NotationError, match="subtracted exploding term"):
        odds("2d6! - 1d4!")


def test_large_but_feasible_sums_are_computed_exactly() -> None:
    """``300d6`` is within the exact budget and its extremes are exact."""
    result = odds("300d6").distribution
    assert result.probability(1800) == Fraction(1, 6**300)


@pytest.mark.parametrize("text", ["1000d1000", "1000d20", "500d100 + 500d100"])
def test_exact_work_beyond_the_budget_is_refused_at_once(text: str) -> None:
    """Distributions too large to compute exactly raise LimitExceeded before any work (no hang)."""
    with pytest.raises(LimitExceeded, match="too large to compute"):
        odds(text)


def test_a_huge_cap_on_many_exploding_dice_is_refused() -> None:
    """A cap that would make the exact exploding sum enormous is refused by the same budget."""
    with pytest.raises(LimitExceeded, match="too large"):
        odds("100d2!", cap=100_000)
    with pytest.raises(LimitExceeded, match="cap must lie between"):
        odds("2d6", cap=0)
    assert MAX_EXACT_BITS == 2**24


@settings(max_examples=60, deadline=None)
@given(expressions())
def test_odds_of_any_tree_sum_to_one_or_are_refused(tree: Expression) -> None:
    """Every valid tree has odds whose probabilities sum to 1, or a clear refusal (subtracted explosions)."""
    try:
        result = odds(tree, cap=30)
    except NotationError as error:
        assert "subtracted exploding" in error.message
        return
    assert sum(p for _, p in result.distribution.items()) == 1
    if not tree.explodes:
        assert result.mean == result.distribution.mean()
