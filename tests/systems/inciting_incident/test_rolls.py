"""Advantage ladder, Talent and Ability Rolls, exploding dice and physical faces."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from talespin.systems.errors import MalformedCommand
from talespin.systems.inciting_incident import decide, default_rules, final_d6, ladder, load_rules, new_state
from talespin.systems.inciting_incident.plan import RollSpec
from talespin.systems.inciting_incident.rolling import make_roll

RULES = default_rules()


def test_ladder_thresholds() -> None:
    """|net| 1–2 → 1 d6, 3–5 → 2, 6–9 → 3, 10 or more → 4, signed."""
    # rule: II-ADV-2
    assert [ladder(n, RULES) for n in range(13)] == [0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4]
    assert [ladder(-n, RULES) for n in (1, 3, 6, 10, 25)] == [-1, -2, -3, -4, -4]


def test_advantage_and_disadvantage_cancel() -> None:
    """3 Advantage and 1 Disadvantage act as 2 Advantage."""
    # rule: II-ADV-1
    assert final_d6(5, 3, 1, RULES) == final_d6(5, 2, 0, RULES) == 6
    assert final_d6(5, 4, 4, RULES) == 5


def test_final_count_never_negative_and_may_exceed_nine() -> None:
    """The final d6 count is max(0, base + ladder) and may pass 9."""
    # rule: II-ADV-3
    assert final_d6(1, 0, 12, RULES) == 0
    assert final_d6(9, 10, 0, RULES) == 13


@given(st.integers(-30, 30))
def test_ladder_is_monotone_and_odd(net: int) -> None:
    """The ladder never shrinks with more net Advantage and mirrors Disadvantage."""
    # rule: II-ADV-2
    assert ladder(net + 1, RULES) >= ladder(net, RULES)
    assert ladder(-net, RULES) == -ladder(net, RULES)


def test_talent_roll_dice_and_total(h: Any) -> None:
    """A Talent Roll is the final d6 plus the Talent's dice, and the total sums every face."""
    # rule: II-ROLL-1 II-ROLL-3 II-ROLL-4
    state = new_state({"characters": [h.ADA]})
    state, _ = h.run([h.ACTION, h.OBSTACLE], state=state)
    faces = [[1], [2], [6, 3], [4], [5], [6, 1], [3]]
    events = decide(
        state, {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "faces": faces}, None
    )
    rolled = h.last(events, "TalentRolled").data
    assert rolled["d6"] == 5 and rolled["talent_dice"] == ["d6", "d6"]
    assert rolled["chains"][2] == {"size": 6, "faces": [6, 3]}
    assert rolled["total"] == 31 and rolled["success"] is True
    assert rolled["character"] == "Ada"


def test_every_die_explodes_without_limit() -> None:
    """A chain keeps rolling while it shows the maximum face, for every die size."""
    # rule: II-ROLL-2
    spec = RollSpec("Ada", "talent", "T", 9, 1, 0, 0, 20, RULES)
    roll = make_roll(spec, [[6, 6, 6, 6, 1], [10, 10, 2], [3], [10, 1]], None)
    assert roll.total == 25 + 22 + 3 + 11
    with pytest.raises(MalformedCommand) as bad:
        make_roll(spec, [[6, 6], [3], [3], [3]], None)
    assert bad.value.code == "bad_faces" and "chain 1" in bad.value.message


def test_bad_faces_are_refused_naming_the_chain() -> None:
    """Faces off the die, broken chains and wrong counts are refused with the chain named."""
    # rule: II-ROLL-4
    spec = RollSpec("Ada", "talent", "T", 3, 2, 0, 0, 20, RULES)  # d6, d6, d8
    for faces, words in [
        ([[1], [2]], "expected 3 chains"),
        ([[1], [7], [2]], "chain 2"),
        ([[1], [3, 2], [2]], "chain 2"),
        ([[1], [2], [9]], "chain 3"),
    ]:
        with pytest.raises(MalformedCommand, match=words) as bad:
            make_roll(spec, faces, None)
        assert bad.value.code == "bad_faces"
        assert bad.value.rule == "II-ROLL-4"


def test_target_is_rules_data(h: Any) -> None:
    """The standard target 20 comes from the rules data; a variant moves it."""
    # rule: II-ROLL-3
    state = new_state({"characters": [h.ADA], "variant": {"roll": {"target": 30}}})
    state, events = h.run(
        [
            h.ACTION,
            h.OBSTACLE,
            {
                "do": "simple_obstacle",
                "character": "Ada",
                "talent": "Piloting",
                "faces": [[1], [2], [6, 3], [4], [5], [6, 1], [1]],
            },
        ],
        state=state,
    )
    rolled = h.last(events, "TalentRolled").data
    assert rolled["against"] == 30 and rolled["success"] is False
    assert h.last(events, "CrisisRaised").data["amount"] == 2


def test_difficulty_range_and_overrides(h: Any) -> None:
    """The scene's base d6 is 1–9 (default 5) and can be changed per obstacle or per action."""
    # rule: II-ROLL-5
    with pytest.raises(MalformedCommand, match="between 1 and 9"):
        h.run([{"do": "start_scene", "kind": "action", "difficulty": 0}])
    state, events = h.run([{"do": "start_scene", "kind": "action"}])
    assert state.scene.difficulty == 5
    state, events = h.run(
        [
            {"do": "complex_obstacle", "obstruction": 10, "difficulty": 2},
            {"do": "regular_action", "character": "Ada", "talent": "Piloting"},
            {"do": "regular_action", "character": "Bram", "talent": "Brawling", "dice": 7},
        ],
        state=state,
    )
    rolls = [e.data for e in events if e.type == "TalentRolled"]
    assert [r["d6"] for r in rolls] == [2, 7]


def test_ability_roll(h: Any) -> None:
    """An Ability Roll uses the Ability's dice and adds no Crisis."""
    # rule: II-ROLL-1
    state, events = h.run([h.ACTION, {"do": "ability_roll", "character": "Bram", "ability": "fortitude"}])
    rolled = h.last(events, "AbilityRolled").data
    assert rolled["ability"] == "fortitude" and rolled["talent_dice"] == ["d6", "d6"]
    assert state.scene.crisis == 0


def test_seeded_rolls_repeat() -> None:
    """The same seed gives the same chains; rolls use only the generator passed in."""
    spec = RollSpec("Ada", "talent", "T", 5, 5, 0, 0, 20, load_rules())
    assert make_roll(spec, None, random.Random(3)) == make_roll(spec, None, random.Random(3))
