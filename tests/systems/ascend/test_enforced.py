"""Ascend rules the engine once let slip: who chooses a defender's side, who awards exceptional narration,
and refusals that name their rule."""

from __future__ import annotations

import random
from typing import Any

import pytest

from talespin.systems import Event
from talespin.systems.ascend import AscendState, advise, decide, evolve, new_state
from talespin.systems.ascend.sheet import Hero
from talespin.systems.errors import IllegalCommand, MalformedCommand, RulesError

ATTACK = {"hero": "Will", "skill": "Melee", "trait": "Strength", "faces": [0, 1, 2, 3]}
GUARDED = {"do": "opposed_test", "attacker": ATTACK, "defender": {"hero": "Susan"}}
EXCEPTIONAL = {
    "do": "test",
    "hero": "Susan",
    "skill": "Athletics",
    "trait": "Agility",
    "invoke": ["Strength", "Avanus"],
    "narration": "exceptional",
}


def _refused(state: AscendState, command: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as refused:
        decide(state, command, random.Random(1))
    return refused.value


def test_a_bare_defender_waits_for_its_controller_to_choose(state: AscendState, apply: Any) -> None:
    """An opposed Test naming only the defender is proposed; the defender's side is chosen by ``defend``."""
    # rule: AS-OPP-1
    proposed, events = apply(state, GUARDED)
    assert [e.type for e in events] == ["OpposedTestProposed"]
    assert proposed.pending is not None and proposed.pending.defender == "Susan"
    assert proposed.tests == 0
    assert _refused(proposed, GUARDED).rule == "AS-OPP-1"
    wrong = _refused(proposed, {"do": "defend", "hero": "Will", "skill": "Melee"})
    assert wrong.rule == "AS-OPP-1" and wrong.code == "not_the_defender"
    side = {"do": "defend", "skill": "Athletics", "trait": "Agility", "faces": [0, 9, 9]}
    decided, events = apply(proposed, side)
    assert [e.type for e in events] == ["TestRolled", "TestRolled", "OpposedTestDecided"]
    last = events[-1].data
    assert (last["attacker_successes"], last["defender_successes"], last["winner"]) == (4, 1, "attacker")
    assert decided.pending is None
    assert _refused(decided, side).code == "no_opposed_test"


def test_the_attackers_side_is_checked_when_proposed(state: AscendState) -> None:
    """A proposal whose attacker breaks a rule, or names no known defender, is refused at once."""
    # rule: AS-OPP-1 AS-TEST-1
    bad = {**GUARDED, "attacker": {**ATTACK, "skill": "Sailing"}}
    error = _refused(state, bad)
    assert error.rule == "AS-TEST-1" and error.path == "attacker.skill"
    nobody = _refused(state, {**GUARDED, "defender": {"hero": "Nobody"}})
    assert nobody.path == "defender.hero"


def test_a_proposal_can_be_withdrawn_and_both_sides_may_still_come_at_once(
    state: AscendState, apply: Any
) -> None:
    """The Storyteller withdraws a waiting opposed Test; a script may give both sides in one command."""
    # rule: AS-OPP-1
    proposed, _ = apply(state, GUARDED)
    cleared, events = apply(proposed, {"do": "withdraw_opposed"})
    assert [e.type for e in events] == ["OpposedTestWithdrawn"] and cleared.pending is None
    both = {
        **GUARDED,
        "defender": {"hero": "Susan", "skill": "Athletics", "trait": "Agility", "faces": [9, 9, 9]},
    }
    _, events = apply(cleared, both)
    assert events[-1].type == "OpposedTestDecided"
    old = new_state(
        {"heroes": [h.to_json() for h in state.heroes], "variant": {"opposed": {"defender_chooses": False}}}
    )
    assert _refused(old, GUARDED).path == "defender.skill"


def test_exceptional_narration_is_the_storytellers_award(state: AscendState, apply: Any) -> None:
    """A Test narrated exceptionally needs the Storyteller's award: the Player asks, the GM grants."""
    # rule: AS-POOL-3
    error = _refused(state, EXCEPTIONAL)
    assert isinstance(error, IllegalCommand) and error.rule == "AS-POOL-3" and error.code == "needs_award"
    asked, events = apply(
        state, {"do": "request_narration", "hero": "Susan", "text": "She sings as she climbs"}
    )
    assert [e.type for e in events] == ["NarrationRequested"] and asked.requests == ("Susan",)
    assert _refused(asked, EXCEPTIONAL).rule == "AS-POOL-3"
    granted, events = apply(asked, {"do": "award_narration", "hero": "Susan"})
    assert events[0].data["requested"] is True and granted.awards == ("Susan",) and granted.requests == ()
    spent, events = apply(granted, EXCEPTIONAL)
    assert [e.type for e in events] == ["NarrationUsed", "TestRolled"] and events[1].data["pool"] == 6
    assert spent.awards == ()
    assert _refused(spent, EXCEPTIONAL).rule == "AS-POOL-3"


def test_the_storyteller_declines_a_request(state: AscendState, apply: Any) -> None:
    """A declined request leaves no award; declining what nobody asked for is refused."""
    # rule: AS-POOL-3
    assert _refused(state, {"do": "award_narration", "hero": "Susan", "grant": False}).code == "no_request"
    asked, _ = apply(state, {"do": "request_narration", "hero": "Susan"})
    assert _refused(asked, {"do": "request_narration", "hero": "Susan"}).code == "already_requested"
    declined, events = apply(asked, {"do": "award_narration", "hero": "Susan", "grant": False})
    assert (
        [e.type for e in events] == ["NarrationDeclined"]
        and declined.requests == ()
        and declined.awards == ()
    )
    claimed = new_state(
        {
            "heroes": [h.to_json() for h in state.heroes],
            "variant": {"invokes": {"exceptional_award": "player"}},
        }
    )
    _, events = apply(claimed, EXCEPTIONAL)
    assert events[0].type == "NarrationAwarded" and events[0].data["by"] == "claimed"


@pytest.mark.parametrize(
    ("faces", "path"), [([0, 1, 10], "faces[2]"), ([0, 1], "faces"), ([0, -1, 2], "faces[1]")]
)
def test_bad_faces_name_their_rule(state: AscendState, faces: list[int], path: str) -> None:
    """Faces off the 0–9 die or of the wrong count are refused naming AS-TEST-3."""
    # rule: AS-TEST-3
    error = _refused(
        state, {"do": "test", "hero": "Susan", "skill": "Athletics", "trait": "Agility", "faces": faces}
    )
    assert isinstance(error, MalformedCommand)
    assert (error.rule, error.code, error.path) == ("AS-TEST-3", "bad_faces", path)


SHARED = {
    "name": "Mara",
    "skills": {"Lore": 2},
    "traits": {"Luck": 1, "Wits": 3},
    "backgrounds": {"Luck": 4},
    "aids": {},
}
"""A hero whose Trait and Background share a name."""


def test_an_ambiguous_invoke_names_its_rule_and_advice_plays_back() -> None:
    """A bare shared name is refused naming AS-POOL-1; advice names items by kind, so its pick plays back."""
    # rule: AS-POOL-1 AS-POOL-2 AS-ODDS-3
    state = new_state({"heroes": [SHARED]})
    bare = {
        "do": "test",
        "hero": "Mara",
        "skill": "Lore",
        "trait": "Wits",
        "invoke": ["Luck"],
        "narration": "narrated",
    }
    error = _refused(state, bare)
    assert (error.rule, error.code) == ("AS-POOL-1", "ambiguous_item")
    best = advise(Hero.model_validate(SHARED), skill="Lore", narration="narrated")
    invoked = [c for c in best if c.invoke == ("Luck",)]
    assert invoked and all(c.invoke_items in ([{"trait": "Luck"}], [{"background": "Luck"}]) for c in invoked)
    for choice in invoked:
        slots = {"trait": choice.trait, "background": choice.background, "aid": choice.aid}
        command = {
            "do": "test",
            "hero": "Mara",
            "skill": "Lore",
            "narration": "narrated",
            "invoke": choice.invoke_items,
        }
        command |= {k: v for k, v in slots.items() if v is not None}
        rolled = decide(state, command, random.Random(2))[-1]
        assert rolled.data["pool"] == choice.pool


def test_a_log_from_before_the_award_rule_replays_without_a_stale_award(state: AscendState) -> None:
    """Older logs recorded the award inside the exceptional Test itself; replayed, no award is left over."""
    # rule: AS-POOL-3
    award = Event("NarrationAwarded", {"hero": "Susan", "narration": "exceptional", "by": "storyteller"})
    rolled = Event("TestRolled", {"hero": "Susan", "narration": "exceptional", "successes": 2})
    assert evolve(evolve(state, award), rolled).awards == ()
