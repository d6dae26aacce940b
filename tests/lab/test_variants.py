"""Variants side by side: the lab's grid agrees with the table's odds and sees a rule change."""

from __future__ import annotations

import pytest

from talespin.lab.variants import compare
from talespin.systems.errors import MalformedCommand
from talespin.systems.inciting_incident import default_rules, roll_chances


def test_a_dearer_automatic_pass_turns_cells_to_rolling() -> None:
    """Raising the automatic pass's Crisis makes rolling the better choice in more cells, never fewer."""
    # rule: II-SIMPLE-2
    # rule: II-SIMPLE-3
    cmp = compare({"shipped": {}, "auto 5": {"crisis": {"auto": 5}}}, max_net=2)
    assert (cmp.rolls["auto 5"] >= cmp.rolls["shipped"]).all()
    assert cmp.changed_choices("auto 5") > 0
    assert abs(cmp.difference("auto 5")).max() == 0  # P(success) does not depend on the auto cost


def test_grid_cell_equals_the_tables_exact_odds() -> None:
    """Level 5, base 5d6, net 0 gives the exact figures the table shows."""
    # rule: II-ODDS-1
    cmp = compare({"shipped": {}}, max_net=2)
    exact = roll_chances(5, default_rules().levels.dice[5], 20)
    cell = (5, 4, 2)  # level 5, base 5, net 0
    assert cmp.p_success["shipped"][cell] == pytest.approx(float(exact.p_success), abs=1e-12)
    assert cmp.expected_crisis["shipped"][cell] == pytest.approx(float(exact.expected_crisis), abs=1e-12)
    assert len(cmp.to_json()["variants"]) == 1 and "<table>" in cmp._repr_html_()


def test_unknown_variant_key_is_refused_by_name() -> None:
    """A typo in a variant is refused, naming the key."""
    with pytest.raises(MalformedCommand, match="crisys"):
        compare({"typo": {"crisys": {"auto": 5}}})
