"""The Ascend lab against independent plain-Python oracles: extended, opposed, narration, variant grid."""

from __future__ import annotations

import doctest
import importlib
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb

import pytest

from talespin.lab.ascend_tests import extended_table, narration_value, opposed_table
from talespin.lab.ascend_variants import compare_ascend
from talespin.systems.ascend import load_rules, parse_hero
from talespin.systems.ascend import test_odds as odds_of_test
from talespin.systems.errors import MalformedCommand

RULES = load_rules()


def _binomial(target: int, pool: int) -> list[Fraction]:
    """P(k Successes) of ``pool`` d10 read 0–9 at ``target``, from the binomial formula."""
    p = Fraction(min(max(target + 1, 0), 10), 10)
    return [comb(pool, k) * p**k * (1 - p) ** (pool - k) for k in range(pool + 1)]


def test_extended_within_matches_a_plain_recursion() -> None:
    """P(goal reached within n Tests) equals a recursion over Successes still needed and Tests left."""
    # rule: AS-EXT-1
    # rule: AS-ODDS-2
    target, goal, limit = 3, 5, 4
    table = extended_table(RULES, target=target, pools=[0, 2, 5], goal=goal, limit=limit)
    for pool, row in zip(table.pools, table.within, strict=True):
        dist = _binomial(target, pool)

        @cache
        def reach(need: int, left: int, dist: tuple[Fraction, ...] = tuple(dist)) -> Fraction:
            if need <= 0:
                return Fraction(1)
            if left == 0:
                return Fraction(0)
            return sum((p * reach(need - k, left - 1) for k, p in enumerate(dist)), Fraction(0))

        assert list(row) == [reach(goal, n) for n in range(1, limit + 1)]
    assert table.within[0] == (0, 0, 0, 0)  # an empty pool never gets anywhere
    assert table.to_json()["rows"][2]["within"][3][2] == f"{row[3].numerator}/{row[3].denominator}"


def test_opposed_under_both_tie_rules_matches_enumeration() -> None:
    """Every pair of faces enumerated: a tie is the defender's, or rolled again up to the reroll limit."""
    # rule: AS-OPP-1
    table = opposed_table(
        RULES, attacker_target=3, defender_target=2, attacker_pools=[1, 2], defender_pools=[2]
    )
    for i, pool in enumerate(table.attacker_pools):
        win = tie = Fraction(0)
        for faces in product(range(10), repeat=pool + 2):
            mine = sum(f <= 3 for f in faces[:pool])
            theirs = sum(f <= 2 for f in faces[pool:])
            win += Fraction(mine > theirs, 10 ** (pool + 2))
            tie += Fraction(mine == theirs, 10 ** (pool + 2))
        rolls = RULES.opposed.reroll_limit + 1
        assert table.wins["defender"][i][0] == win
        assert table.ties[i][0] == tie
        assert table.wins["reroll"][i][0] == win * sum(tie**k for k in range(rolls))


def test_narration_value_is_the_best_pool_at_each_level() -> None:
    """One item of each kind, then one or two more Invoked: the best pools come from the largest ratings."""
    # rule: AS-POOL-1
    # rule: AS-POOL-2
    # rule: AS-POOL-3
    hero = parse_hero(
        {
            "name": "Tam",
            "skills": {"Climb": 4},
            "convictions": {"Loyal": 2},
            "traits": {"Quick": 3, "Tough": 2, "Sly": 1},
            "backgrounds": {"Sailor": 2},
            "aids": {"Rope": 1},
        },
        RULES,
    )
    table = narration_value(hero, RULES, difficulty=1, required=2)
    climb = table.rows[0]
    assert (climb.name, climb.target) == ("Climb", 3)
    assert climb.pools == (3 + 2 + 1, 3 + 2 + 1 + 2, 3 + 2 + 1 + 2 + 1)  # Quick, Sailor, Rope; + Tough; + Sly
    assert climb.best == tuple(odds_of_test(n, 3, required=2, rules=RULES).p_success for n in climb.pools)
    assert climb.gains == (climb.best[1] - climb.best[0], climb.best[2] - climb.best[1])
    assert [r.kind for r in table.rows] == ["skill", "conviction"]
    body = table.to_json()["rows"][1]
    assert body["narrated"]["pool"] == 8 and body["exceptional_gain"] > 0
    assert "<table>" in table._repr_html_()


def test_variant_grid_cells_are_the_engines_exact_odds() -> None:
    """Each cell is the Test's exact P(success); a d12 makes every cell harder or equal."""
    # rule: AS-ODDS-1
    # rule: AS-TEST-3
    cmp = compare_ascend({"shipped": {}, "d12": {"die": {"size": 12}}}, max_pool=6, max_required=3)
    for t, n, k in [(0, 1, 1), (3, 5, 2), (9, 6, 3), (4, 0, 1)]:
        assert cmp.exact["shipped"][t][n][k - 1] == sum(_binomial(t, n)[k:], Fraction(0))
        assert cmp.p_success["shipped"][t, n, k - 1] == pytest.approx(
            float(cmp.exact["shipped"][t][n][k - 1])
        )
    assert (cmp.difference("d12") <= 1e-15).all() and cmp.difference("d12").min() < 0
    assert cmp.dice_for_even_odds["shipped"][2, 0] == 2  # 1 − 0.7² ≥ 1/2 at Target 2
    assert cmp.changed_choices("d12") > 0
    body = cmp.to_json()
    assert body["system"] == "ascend" and body["variants"][1]["changed_choices"] == cmp.changed_choices("d12")


def test_variant_grid_refuses_unknown_keys_by_name() -> None:
    """A typo in a variant is refused, naming the key."""
    with pytest.raises(MalformedCommand, match="dye"):
        compare_ascend({"typo": {"dye": {"size": 12}}})


@pytest.mark.parametrize("name", ["talespin.lab.ascend_tests", "talespin.lab.ascend_variants"])
def test_docstring_examples_hold(name: str) -> None:
    """Every ``>>>`` example of the module gives the output its docstring shows."""
    failed, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failed == 0
