"""The rules data: one versioned YAML file, frozen, overridable per campaign, never spelled in code."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pydantic
import pytest

from talespin.systems import MalformedCommand
from talespin.systems.ascend import default_rules, load_rules

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "talespin" / "systems" / "ascend"


def test_the_shipped_rules_hold_the_numbers_of_the_text() -> None:
    """Ratings 0–9, a d10 read 0–9, Difficulty 0, one Success, Invokes 1 and 2, ties to the defender."""
    # rule: AS-HERO-2, AS-TEST-2, AS-TEST-3, AS-TEST-4, AS-POOL-1, AS-POOL-2, AS-POOL-3, AS-OPP-1
    rules = default_rules()
    assert rules.version == "1"
    assert (rules.ratings.min, rules.ratings.max) == (0, 9)
    assert (rules.die.size, rules.die.lowest) == (10, 0)
    assert rules.difficulty.default == 0
    assert rules.required.default == 1
    assert rules.pool.per_kind == 1
    assert (rules.invokes.none, rules.invokes.narrated, rules.invokes.exceptional) == (0, 1, 2)
    assert rules.opposed.tie == "defender"


def test_the_rules_are_frozen() -> None:
    """A loaded rules object cannot be changed in place."""
    with pytest.raises(pydantic.ValidationError):
        default_rules().die.size = 6  # type: ignore[misc]


def test_a_variant_overrides_nested_keys() -> None:
    """A campaign's variant changes only the keys it names."""
    # rule: AS-OPP-1
    rules = load_rules({"opposed": {"tie": "reroll"}, "invokes": {"exceptional": 3}})
    assert rules.opposed.tie == "reroll"
    assert rules.invokes.exceptional == 3
    assert rules.invokes.narrated == 1


def test_an_unknown_variant_key_is_refused_by_name() -> None:
    """A typo in a variant is an error naming the key, not a silent no-op."""
    with pytest.raises(MalformedCommand) as caught:
        load_rules({"opposed": {"ties": "reroll"}})
    assert caught.value.path == "opposed.ties"
    assert "opposed.ties" in caught.value.message


def test_a_variant_value_of_the_wrong_kind_is_refused() -> None:
    """A tie rule must be defender or reroll."""
    with pytest.raises(MalformedCommand) as caught:
        load_rules({"opposed": {"tie": "attacker"}})
    assert caught.value.code == "bad_variant"


def test_a_reroll_limit_that_could_run_forever_is_refused() -> None:
    """Two empty pools tie forever, so a variant may let ties be rolled again at most 100 times."""
    # rule: AS-OPP-1
    assert load_rules({"opposed": {"tie": "reroll", "reroll_limit": 100}}).opposed.reroll_limit == 100
    with pytest.raises(MalformedCommand) as caught:
        load_rules({"opposed": {"tie": "reroll", "reroll_limit": 10**9}})
    assert caught.value.code == "bad_variant"


def test_a_variant_cannot_let_zero_successes_succeed() -> None:
    """Requiring 0 Successes would make an empty roll a success, which AS-TEST-4 forbids: refused by key."""
    # rule: AS-TEST-4
    with pytest.raises(MalformedCommand) as caught:
        load_rules({"required": {"min": 0, "default": 0}})
    assert "'required'" in caught.value.message
    assert load_rules({"required": {"min": 2, "default": 2}}).required.default == 2


def test_p_success_per_die_is_clamped() -> None:
    """One die succeeds with (Target + 1)/10, never below 0 or above 1."""
    # rule: AS-TEST-3, AS-ODDS-1
    die = default_rules().die
    assert die.p_success(-1) == 0
    assert die.p_success(0) == Fraction(1, 10)
    assert die.p_success(2) == Fraction(3, 10)
    assert die.p_success(9) == 1
    assert die.p_success(15) == 1


def test_no_rule_number_is_spelled_in_the_engine() -> None:
    """The engine's modules never spell the rating ceiling 9 or the die size 10: they read the rules data."""
    suspicious = re.compile(r"(?<![\w.\[])(?:9|10)(?![\w.\]])")
    for module in PACKAGE.glob("*.py"):
        code = "\n".join(
            line
            for line in module.read_text(encoding="utf-8").splitlines()
            if not line.lstrip().startswith((">>>", "#"))
        )
        body = re.sub(r'"""(?:.|\n)*?"""', "", code)
        assert not suspicious.search(body), f"{module.name} spells a rules number"
