"""Invoke advice: every legal Dice Pool for a Hero's Test, ranked by P(success), checked by brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import chain, combinations, product
from math import comb
from typing import Any

import pytest

from talespin.systems import IllegalCommand
from talespin.systems.ascend import SYSTEM, AscendState, advise, parse_hero

NARRATION_INVOKES = {"none": 0, "narrated": 1, "exceptional": 2}
KINDS = {"traits": "trait", "backgrounds": "background", "aids": "aid"}


def _legal_sets(sheet: dict[str, Any], narration: str) -> dict[frozenset[tuple[str, str]], int]:
    """Every set of items a Test may use, by hand: at most one per kind before Invokes pay for the rest."""
    items = [(KINDS[kind], name, rating) for kind in KINDS for name, rating in sheet.get(kind, {}).items()]
    legal = {}
    for subset in chain.from_iterable(combinations(items, n) for n in range(len(items) + 1)):
        invoked = sum(max(0, sum(1 for i in subset if i[0] == kind) - 1) for kind in KINDS.values())
        if invoked <= NARRATION_INVOKES[narration]:
            legal[frozenset((i[0], i[1]) for i in subset)] = sum(i[2] for i in subset)
    return legal


def _binomial_at_least(pool: int, p: Fraction, required: int) -> Fraction:
    return sum((comb(pool, k) * p**k * (1 - p) ** (pool - k) for k in range(required, pool + 1)), Fraction(0))


@pytest.mark.parametrize("narration", ["none", "narrated", "exceptional"])
@pytest.mark.parametrize(("difficulty", "required"), [(0, 1), (2, 2), (4, 1)])
def test_distinct_advice_lists_every_legal_set_of_items_once_ranked(
    susan_sheet: dict[str, Any], narration: str, difficulty: int, required: int
) -> None:
    """The listed item sets are exactly the legal ones, each with the brute-force P(success), best first."""
    # rule: AS-ODDS-3, AS-POOL-1, AS-POOL-2, AS-POOL-3
    hero = parse_hero(susan_sheet)
    choices = advise(
        hero,
        skill="Athletics",
        difficulty=difficulty,
        required=required,
        narration=narration,
        distinct=True,  # type: ignore[arg-type]
    )
    legal = _legal_sets(susan_sheet, narration)
    listed = {}
    for c in choices:
        names = {("trait", c.trait), ("background", c.background), ("aid", c.aid)}
        used = {(k, n) for k, n in names if n is not None}
        for name in c.invoke:
            used.add(next((k, n) for k in KINDS.values() for n in susan_sheet[k + "s"] if n == name))
        listed[frozenset(used)] = c
    assert len(listed) == len(choices)
    assert set(listed) == set(legal)
    p = Fraction(max(0, min(10, 3 - difficulty + 1)), 10)
    for items, choice in listed.items():
        assert choice.pool == legal[items]
        assert choice.p_success == _binomial_at_least(choice.pool, p, required)
    keys = [(-c.p_success, -c.expected, c.items) for c in choices]
    assert keys == sorted(keys)


@pytest.mark.parametrize("narration", ["none", "narrated", "exceptional"])
def test_advice_lists_every_legal_assignment(susan_sheet: dict[str, Any], narration: str) -> None:
    """Without ``distinct`` each way of filling the slots and Invokes is one row, none missing or twice."""
    # rule: AS-ODDS-3, AS-POOL-1, AS-POOL-2, AS-POOL-3
    slots = {kind: [None, *susan_sheet[kind + "s"]] for kind in KINDS.values()}
    every = [name for kind in KINDS.values() for name in susan_sheet[kind + "s"]]
    expected = set()
    for trait, background, aid in product(slots["trait"], slots["background"], slots["aid"]):
        rest = [name for name in every if name not in (trait, background, aid)]
        for count in range(NARRATION_INVOKES[narration] + 1):
            for invoked in combinations(rest, count):
                expected.add((trait, background, aid, frozenset(invoked)))
    choices = advise(parse_hero(susan_sheet), skill="Athletics", narration=narration)  # type: ignore[arg-type]
    listed = [(c.trait, c.background, c.aid, frozenset(c.invoke)) for c in choices]
    assert len(listed) == len(set(listed))
    assert set(listed) == expected


def test_the_cliff_example_is_the_best_narrated_choice_without_aids() -> None:
    """Susan without her rope: Agility + Avanus with Strength Invoked (6d10) tops the narrated ranking."""
    # rule: AS-ODDS-3, AS-POOL-5
    hero = parse_hero(
        {
            "name": "Susan",
            "skills": {"Athletics": 3},
            "traits": {"Agility": 3, "Strength": 2},
            "backgrounds": {"Avanus": 1},
        }
    )
    best = advise(hero, skill="Athletics", narration="narrated", distinct=True)[0]
    assert (best.trait, best.background, best.aid, best.invoke, best.pool) == (
        "Agility",
        "Avanus",
        None,
        ("Strength",),
        6,
    )
    assert best.p_success == 1 - Fraction(6, 10) ** 6


def test_ties_prefer_fewer_items() -> None:
    """A rating-0 item adds nothing: the choice without it ranks first."""
    # rule: AS-ODDS-3
    hero = parse_hero({"name": "Kit", "skills": {"Dice": 2}, "traits": {"Luck": 2}, "aids": {"Charm": 0}})
    first, second = advise(hero, skill="Dice")[:2]
    assert (first.trait, first.aid) == ("Luck", None)
    assert (second.trait, second.aid) == ("Luck", "Charm")
    assert first.p_success == second.p_success


def test_advice_is_refused_for_a_skill_the_hero_lacks(susan_sheet: dict[str, Any]) -> None:
    """The Test is checked as a Test would be."""
    # rule: AS-TEST-1
    with pytest.raises(IllegalCommand):
        advise(parse_hero(susan_sheet), skill="Sailing")


def test_the_odds_query_has_the_documented_shape(state: AscendState) -> None:
    """``odds(state, {"hero", "skill", ...})`` gives hero, target, required and ranked advice rows."""
    # rule: AS-ODDS-3
    answer = SYSTEM.odds(
        state,
        {
            "hero": "Susan",
            "skill": "Athletics",
            "difficulty": 0,
            "required": 1,
            "narration": "narrated",
            "limit": 3,
        },
    )
    assert (answer["hero"], answer["target"], answer["required"]) == ("Susan", 3, 1)
    assert len(answer["advice"]) == 3
    assert answer["choices"] > 3
    row = answer["advice"][0]
    assert set(row) >= {
        "trait",
        "background",
        "aid",
        "invoke",
        "pool",
        "p_success",
        "p_success_exact",
        "distribution",
    }
    assert Fraction(row["p_success_exact"]) == sum(Fraction(r[2]) for r in row["distribution"] if r[0] >= 1)


def test_advice_for_a_sheet_with_millions_of_pools_is_refused_before_any_work() -> None:
    """A Hero with 30 items of each kind has ~10⁸ pools under exceptional narration: refused, not ranked."""
    # rule: AS-ODDS-3 AS-POOL-3
    from talespin.dice import LimitExceeded
    from talespin.systems.ascend.advice import MAX_ADVICE_CHOICES, advise
    from talespin.systems.ascend.sheet import Hero

    def hero(n: int) -> Hero:
        items = {f"item {i}": 1 for i in range(n)}
        return Hero(name="Many", skills={"Lore": 3}, traits=items, backgrounds=items, aids=items)

    with pytest.raises(LimitExceeded, match=str(MAX_ADVICE_CHOICES)):
        advise(hero(30), skill="Lore", narration="exceptional")
    assert len(advise(hero(3), skill="Lore", narration="exceptional")) == 1756
