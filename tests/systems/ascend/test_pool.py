"""Preparing a Test: what is Tested, its Target, and the Dice Pool of one of each kind plus Invokes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from talespin.systems import IllegalCommand, MalformedCommand
from talespin.systems.ascend import AscendState, load_rules, parse_hero, prepare_test
from talespin.systems.ascend.commands import TestSpec
from talespin.systems.ascend.pool import Item
from talespin.systems.ascend.rolling import roll_data


def _prepare(state: AscendState, **spec: Any) -> Any:
    hero = state.hero(spec.setdefault("hero", "Susan"))
    assert hero is not None
    return prepare_test(TestSpec(**spec), hero, state.rules)


def test_worked_example_stealth_two_is_target_two(state: AscendState) -> None:
    """Jayme's Stealth 2 gives Target 2: dice showing 0, 1 or 2 succeed."""
    # rule: AS-POOL-5, AS-TEST-2, AS-TEST-3
    test = _prepare(state, skill="Stealth", trait="Agility")
    assert test.target == 2
    one_die = replace(test, chosen=(Item("trait", "Agility", 1),), invoked=())
    succeeding = [face for face in range(10) if roll_data(one_die, [face], None, state.rules)["success"]]
    assert succeeding == [0, 1, 2]


def test_worked_example_persuasion_three_difficulty_two_is_target_one(state: AscendState) -> None:
    """Trent's Persuasion 3 against the wary Council's Difficulty 2 gives Target 1."""
    # rule: AS-POOL-5, AS-TEST-2
    test = _prepare(state, skill="Persuasion", difficulty=2, trait="Agility")
    assert test.target == 1


def test_worked_example_strength_exorcist_soul_blade_is_nine_dice(state: AscendState) -> None:
    """Will's Strength 4 + Exorcist 2 + Soul Blade 3 is a pool of 9d10."""
    # rule: AS-POOL-5, AS-POOL-1
    test = _prepare(
        state, hero="Will", skill="Melee", trait="Strength", background="Exorcist", aid="Soul Blade"
    )
    assert test.pool == 9


def test_worked_example_agility_avanus_and_invoked_strength_is_six_dice(state: AscendState) -> None:
    """Susan's Agility 3 + Avanus 1, with Strength 2 Invoked by narrating the leap, is 6d10."""
    # rule: AS-POOL-5, AS-POOL-2
    test = _prepare(
        state,
        skill="Athletics",
        trait="Agility",
        background="Avanus",
        invoke=["Strength"],
        narration="narrated",
    )
    assert test.pool == 6
    assert [item.name for item in test.invoked] == ["Strength"]


def test_a_test_is_of_a_skill_or_of_a_conviction(state: AscendState) -> None:
    """Either may be Tested; its rating is the Hero's."""
    # rule: AS-TEST-1
    assert _prepare(state, skill="Athletics").rating == 3
    conviction = _prepare(state, conviction="Protect the weak")
    assert (conviction.kind, conviction.rating) == ("conviction", 4)


def test_the_skill_must_be_the_heroes_own(state: AscendState) -> None:
    """An unknown Skill is illegal, naming AS-TEST-1 and listing the Hero's Skills."""
    # rule: AS-TEST-1
    with pytest.raises(IllegalCommand) as caught:
        _prepare(state, skill="Climbing")
    assert (caught.value.rule, caught.value.code) == ("AS-TEST-1", "unknown_skill")
    assert "Athletics" in caught.value.message


def test_both_or_neither_of_skill_and_conviction_is_malformed(state: AscendState) -> None:
    """A Test is of exactly one thing."""
    # rule: AS-TEST-1
    with pytest.raises(MalformedCommand):
        _prepare(state, skill="Athletics", conviction="Protect the weak")
    with pytest.raises(MalformedCommand):
        _prepare(state)


def test_difficulty_defaults_to_zero_and_is_never_negative(state: AscendState) -> None:
    """No Difficulty means 0; a negative one is refused."""
    # rule: AS-TEST-2
    assert _prepare(state, skill="Athletics").difficulty == 0
    with pytest.raises(MalformedCommand) as caught:
        _prepare(state, skill="Athletics", difficulty=-1)
    assert caught.value.rule == "AS-TEST-2"


def test_required_defaults_to_one_and_is_at_least_one(state: AscendState) -> None:
    """One Success is needed unless the Storyteller says more; zero Successes can never succeed."""
    # rule: AS-TEST-4
    assert _prepare(state, skill="Athletics").required == 1
    with pytest.raises(MalformedCommand) as caught:
        _prepare(state, skill="Athletics", required=0)
    assert caught.value.rule == "AS-TEST-4"


def test_only_one_trait_without_narration(state: AscendState) -> None:
    """Two Traits in the Trait slot are refused under AS-POOL-1 with a hint to Invoke instead."""
    # rule: AS-POOL-1
    with pytest.raises(IllegalCommand) as caught:
        _prepare(state, skill="Athletics", trait=["Agility", "Strength"])
    assert (caught.value.rule, caught.value.code) == ("AS-POOL-1", "one_of_each")
    assert "Invoke" in caught.value.message


def test_a_second_trait_without_narration_is_refused(state: AscendState) -> None:
    """Invoking a second Trait needs narration."""
    # rule: AS-POOL-2
    with pytest.raises(IllegalCommand) as caught:
        _prepare(state, skill="Athletics", trait="Agility", invoke=["Strength"])
    assert (caught.value.rule, caught.value.code) == ("AS-POOL-2", "needs_narration")
    assert "second Trait" in caught.value.message


def test_narration_invokes_any_kind_even_one_already_used(state: AscendState) -> None:
    """A narrated Test may Invoke a second Trait, a second Background (none here) or an Aid."""
    # rule: AS-POOL-2
    assert (
        _prepare(state, skill="Athletics", trait="Agility", invoke=["Strength"], narration="narrated").pool
        == 5
    )
    assert (
        _prepare(
            state, skill="Athletics", trait="Agility", invoke=["Climbing rope"], narration="narrated"
        ).pool
        == 4
    )


def test_an_item_already_in_the_test_cannot_be_invoked(state: AscendState) -> None:
    """Invoking the Trait already chosen, or the same item twice, is refused."""
    # rule: AS-POOL-2
    with pytest.raises(IllegalCommand) as caught:
        _prepare(state, skill="Athletics", trait="Agility", invoke=["Agility"], narration="narrated")
    assert caught.value.code == "item_used_twice"
    with pytest.raises(IllegalCommand) as again:
        _prepare(state, skill="Athletics", invoke=["Strength", "Strength"], narration="exceptional")
    assert (again.value.code, again.value.path) == ("item_used_twice", "invoke[1]")


def test_narration_invokes_one_item_exceptional_narration_two(state: AscendState) -> None:
    """One Invoke for narration, two for exceptional narration, never more."""
    # rule: AS-POOL-2, AS-POOL-3
    with pytest.raises(IllegalCommand) as caught:
        _prepare(
            state, skill="Athletics", trait="Agility", invoke=["Strength", "Avanus"], narration="narrated"
        )
    assert (caught.value.rule, caught.value.code) == ("AS-POOL-3", "too_many_invokes")
    test = _prepare(
        state, skill="Athletics", trait="Agility", invoke=["Strength", "Avanus"], narration="exceptional"
    )
    assert test.pool == 6
    with pytest.raises(IllegalCommand):
        _prepare(
            state,
            skill="Athletics",
            trait="Agility",
            invoke=["Strength", "Avanus", "Climbing rope"],
            narration="exceptional",
        )


def test_unknown_items_are_refused(state: AscendState) -> None:
    """A Trait or an Invoked item the Hero does not have is illegal."""
    # rule: AS-POOL-1, AS-POOL-2
    with pytest.raises(IllegalCommand) as caught:
        _prepare(state, skill="Athletics", trait="Charm")
    assert (caught.value.rule, caught.value.path) == ("AS-POOL-1", "trait")
    with pytest.raises(IllegalCommand):
        _prepare(state, skill="Athletics", invoke=["Charm"], narration="narrated")


def test_a_name_shared_by_two_kinds_must_be_qualified() -> None:
    """When a Trait and an Aid share a name, ``{aid: Luck}`` picks one; a bare name is ambiguous."""
    # rule: AS-POOL-2
    hero = parse_hero({"name": "Kit", "skills": {"Dice": 2}, "traits": {"Luck": 1}, "aids": {"Luck": 3}})
    rules = load_rules()
    with pytest.raises(MalformedCommand) as caught:
        prepare_test(TestSpec(hero="Kit", skill="Dice", invoke=["Luck"], narration="narrated"), hero, rules)
    assert caught.value.code == "ambiguous_item"
    test = prepare_test(
        TestSpec(hero="Kit", skill="Dice", invoke=[{"aid": "Luck"}], narration="narrated"), hero, rules
    )
    assert test.pool == 3


def test_no_items_is_an_empty_pool(state: AscendState) -> None:
    """Without Trait, Background or Aid the pool has 0 dice."""
    # rule: AS-POOL-4
    assert _prepare(state, skill="Athletics").pool == 0


@pytest.mark.parametrize(("rating", "difficulty", "expected"), [(0, 1, 0), (2, 3, 0), (9, 0, 4), (9, 9, 2)])
def test_edge_targets_count_dice_as_the_rules_say(
    state: AscendState, rating: int, difficulty: int, expected: int
) -> None:
    """A Target below 0 gives no Success even on a 0; a Target of 9 makes every die, 9 included, a Success."""
    # rule: AS-TEST-3 AS-TEST-2
    test = replace(
        _prepare(state, skill="Stealth", trait="Agility"),
        rating=rating,
        difficulty=difficulty,
        chosen=(Item("trait", "Agility", 4),),
    )
    rolled = roll_data(test, [0, 0, 9, 9], None, state.rules)
    assert rolled["target"] == rating - difficulty
    assert rolled["successes"] == expected
