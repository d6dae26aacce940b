"""The rules-data loader both systems share: shipped defaults and checked campaign variants."""

from __future__ import annotations

import doctest

import pytest

from talespin.systems import MalformedCommand, rules_data
from talespin.systems.ascend.rules import Rules as AscendRules
from talespin.systems.inciting_incident.rules import Rules as IIRules
from talespin.systems.rules_data import RulesSource


@pytest.mark.parametrize(
    ("model", "package"),
    [(AscendRules, "talespin.systems.ascend"), (IIRules, "talespin.systems.inciting_incident")],
)
def test_an_empty_variant_is_the_shipped_rules(model: type, package: str) -> None:
    """No variant (or an empty one) gives the very object the default gives."""
    source = RulesSource(model, package)
    assert source.load(None) is source.default()
    assert source.load({}) is source.default()


def test_a_variant_changes_only_the_keys_it_names() -> None:
    """A nested override changes that value and leaves its neighbours as shipped."""
    source = RulesSource(IIRules, "talespin.systems.inciting_incident")
    changed = source.load({"crisis": {"auto": 5}})
    assert changed.crisis.auto == 5
    assert changed.roll == source.default().roll


def test_an_unknown_key_is_refused_by_name() -> None:
    """A typo in a variant is an error naming the key, never silently ignored."""
    source = RulesSource(IIRules, "talespin.systems.inciting_incident")
    with pytest.raises(MalformedCommand, match=r"crisis\.automatic") as caught:
        source.load({"crisis": {"automatic": 5}})
    assert caught.value.code == "unknown_rules_key"


def test_a_value_of_the_wrong_type_is_refused_with_its_path() -> None:
    """A value the rules model cannot take is refused, naming where it is."""
    source = RulesSource(IIRules, "talespin.systems.inciting_incident")
    with pytest.raises(MalformedCommand) as caught:
        source.load({"crisis": {"auto": "lots"}})
    assert caught.value.code == "bad_variant"
    assert caught.value.path == "crisis.auto"


def test_a_variant_must_be_a_mapping() -> None:
    """A list or a number is not a variant."""
    source = RulesSource(AscendRules, "talespin.systems.ascend")
    with pytest.raises(MalformedCommand, match="mapping"):
        source.load([1, 2])


def test_doctests() -> None:
    """The module's examples are true."""
    assert doctest.testmod(rules_data).failed == 0
