"""The rules-data mutation harness itself: every value has a mutant, and a mutant can be caught or survive.

The full run (``make mutate``) takes minutes, so the suite checks the harness on one value: unmutated, the
tests naming its rules pass; with the value changed, they fail.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutants import Mutant, mutants, rule_ids, unmutated
from run import _pytest, files_for, files_naming_rules


def test_every_rules_value_but_two_has_a_mutant_naming_its_rules() -> None:
    """Each value of both rules files gets a change the model accepts, and the rules its comment names."""
    found = mutants()
    assert len(found) > 70
    assert all(m.rules for m in found), [m.key for m in found if not m.rules]
    # levels.max is tied to the lengths of levels.dice and levels.cost; required.min must stay 1
    assert set(unmutated()) == {("inciting_incident", ("levels", "max")), ("ascend", ("required", "min"))}


def test_rule_ranges_and_slashes_are_spelled_out() -> None:
    """A comment's ``II-COMPLEX-2..4`` and ``II-SIMPLE-2/3`` name each rule they cover."""
    assert rule_ids("# II-FLOW-1..3 (D)") == ["II-FLOW-1", "II-FLOW-2", "II-FLOW-3"]
    assert rule_ids("# AS-POOL-2, AS-POOL-3") == ["AS-POOL-2", "AS-POOL-3"]
    assert rule_ids("# no rule here") == []


@pytest.mark.slow
def test_a_changed_target_fails_the_tests_that_name_it_and_the_shipped_one_passes() -> None:
    """Target 20 → 21: the tests naming II-ROLL-3 fail; with the shipped rules the same tests pass."""
    target = next(m for m in mutants() if m.key == "roll.target")
    assert isinstance(target, Mutant) and target.value == 21
    files = [f for f in files_for(target, files_naming_rules()) if f.name == "test_rules_data.py"]
    assert files, "no rules-data test names II-ROLL-3"
    assert _pytest(files, None) == 0
    assert _pytest(files, target) == 1
