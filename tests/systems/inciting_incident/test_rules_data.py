"""The rules data file: complete, frozen, overridable by a campaign's variant."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from talespin.systems.errors import MalformedCommand
from talespin.systems.inciting_incident import default_rules, load_rules

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "talespin" / "systems" / "inciting_incident"


def test_rules_file_is_versioned() -> None:
    """The shipped rules data carries a version string."""
    assert default_rules().version == "1"


def test_level_table_matches_the_rules_document() -> None:
    """The level → dice → cost table is the published one, costs n(n+1)/2."""
    # rule: II-CHAR-4 II-CHAR-5
    rules = default_rules()
    assert rules.levels.dice[0] == ()
    assert rules.levels.dice[5] == (6, 6)
    assert rules.levels.dice[9] == (10, 10, 10)
    assert [rules.levels.dice[n] for n in (1, 2, 3, 4)] == [(4,), (6,), (8,), (10,)]
    assert list(rules.levels.cost) == [n * (n + 1) // 2 for n in range(10)]


def test_numbers_of_the_rules_are_data() -> None:
    """Targets, Crisis amounts, costs and conflict numbers come from the rules file."""
    rules = default_rules()
    assert rules.roll.target == 20
    assert (rules.crisis.auto, rules.crisis.success, rules.crisis.failure_minimum) == (4, 2, 2)
    assert rules.crisis.repeated_talent == 3
    assert rules.complex.obstruction_reduction == 4
    assert (rules.complex.attempts.min, rules.complex.attempts.max) == (1, 3)
    assert (rules.roll.difficulty.min, rules.roll.difficulty.max, rules.roll.difficulty.default) == (1, 9, 5)
    assert rules.rising_tension.costs.model_dump() == {
        "disadvantage": 1,
        "trigger": 2,
        "obstacle": 2,
        "enemy": 3,
    }
    assert (rules.conflict.guard, rules.conflict.guard_minimum, rules.conflict.enemy_failure_flow) == (
        30,
        10,
        2,
    )
    assert rules.budget is None
    assert rules.skills.learning_requires_recreation is False


def test_variant_overrides_nested_keys() -> None:
    """A campaign's variant changes one nested key and leaves the rest."""
    rules = load_rules({"crisis": {"auto": 5}, "budget": 60})
    assert rules.crisis.auto == 5
    assert rules.crisis.success == 2
    assert rules.budget == 60


def test_variant_refuses_unknown_keys() -> None:
    """An unknown key in a variant is refused with an error naming it."""
    with pytest.raises(MalformedCommand, match=r"crisis\.autoo"):
        load_rules({"crisis": {"autoo": 5}})
    with pytest.raises(MalformedCommand, match="targett"):
        load_rules({"targett": 1})


def test_variant_refuses_wrong_types() -> None:
    """A variant value of the wrong type is refused, naming the key."""
    with pytest.raises(MalformedCommand, match=r"crisis\.auto"):
        load_rules({"crisis": {"auto": "four"}})


def test_rules_object_is_frozen() -> None:
    """The loaded rules cannot be changed in place."""
    with pytest.raises(ValidationError):
        default_rules().crisis.auto = 9  # type: ignore[misc]


RULE_NUMBERS = {4, 20, 30, 45}


def test_no_rule_number_is_a_literal_in_the_engine() -> None:
    """The engine's modules spell none of the rules' distinctive numbers (they are read from the data)."""
    for module in PACKAGE.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and type(node.value) is int:
                assert node.value not in RULE_NUMBERS, f"{module.name}:{node.lineno} spells {node.value}"


@pytest.mark.parametrize(
    ("variant", "key"),
    [
        ({"skills": {"failed_modifier_cost_step": 0}}, "skills.failed_modifier_cost_step"),
        ({"roll": {"d6_size": 1}}, "roll.d6_size"),
        ({"roll": {"target": 10**9}}, "roll.target"),
        ({"crisis": {"auto": -5}}, "crisis.auto"),
        ({"rising_tension": {"costs": {"trigger": -2}}}, "rising_tension.costs.trigger"),
        ({"rising_tension": {"restful_every_scenes": 0}}, "rising_tension.restful_every_scenes"),
        ({"ladder": [{"at_least": 3, "d6": 2}, {"at_least": 1, "d6": 1}]}, "ladder"),
        ({"levels": {"max": 12}}, "levels"),
        ({"roll": {"difficulty": {"default": 12}}}, "roll.difficulty"),
        ({"complex": {"attempts": {"min": 3, "max": 1}}}, "complex.attempts"),
        ({"conflict": {"guard_minimum": 0}}, "conflict.guard_minimum"),
    ],
)
def test_variant_values_the_engine_cannot_play_are_refused_by_key(variant: dict[str, Any], key: str) -> None:
    """A value that would divide by zero, explode a d1 forever or break a table is refused, naming its key."""
    # rule: II-SKILL-3 II-ROLL-2 II-ROLL-3 II-SIMPLE-2 II-RT-3 II-RT-4 II-ADV-2
    # rule: II-CHAR-4 II-ROLL-5 II-COMPLEX-1
    with pytest.raises(MalformedCommand) as refused:
        load_rules(variant)
    assert f"'{key}'" in refused.value.message
