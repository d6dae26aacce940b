"""Conflict scenes: the provisional Flow of Battle."""

from __future__ import annotations

from typing import Any

import pytest

from talespin.systems.errors import IllegalCommand
from talespin.systems.inciting_incident import decide

ADA_HIT = [[5], [4], [6, 2], [3], [3], [2], [7]]  # 6d6 + d10 vs Guard: 32
ADA_MISS = [[1], [1], [1], [1], [1], [1], [1]]  # 7
GUARD_MISS = [[1], [2], [3], [1], [4]]  # 4d6 + d8 vs Ada: 11


def _conflict(h: Any, *enemies: dict[str, Any]) -> Any:
    state, _ = h.run(
        [
            {"do": "start_scene", "kind": "conflict", "triggers": [{"at": 8, "text": "Shouts"}]},
            {"do": "start_conflict", "enemies": list(enemies) or [h.GUARD]},
        ]
    )
    return state


def test_conflict_start_and_rounds(h: Any) -> None:
    """Enemies enter with sheets and maximum hits, Flow starts at 0, each participant acts once per round."""
    # rule: II-FLOW-1
    state = _conflict(h)
    assert state.scene.conflict.flow == 0 and state.scene.conflict.enemies[0].max_hits == 3
    state, _ = h.run(
        [
            {
                "do": "regular_attack",
                "character": "Ada",
                "target": "Guard",
                "talent": "Quickdraw",
                "faces": ADA_MISS,
            }
        ],
        state=state,
    )
    with pytest.raises(IllegalCommand) as refused:
        decide(
            state,
            {"do": "regular_attack", "character": "Ada", "target": "Guard", "talent": "Quickdraw"},
            None,
        )
    assert refused.value.rule == "II-FLOW-1"
    state, events = h.run(
        [
            {"do": "regular_attack", "character": "Guard", "target": "Ada", "talent": "Spear"},
            {"do": "regular_attack", "character": "Bram", "target": "Guard", "talent": "Brawling"},
        ],
        state=state,
    )
    assert h.last(events, "RoundStarted").data["round"] == 2 and state.scene.conflict.acted == ()
    with pytest.raises(IllegalCommand):
        decide(h.run([h.ACTION])[0], {"do": "regular_attack", "character": "Ada", "target": "Guard"}, None)


def test_regular_attack(h: Any) -> None:
    """Success shifts Flow by total − 20 (≥ 1); a character's failure adds Crisis; an enemy's Flow +2."""
    # rule: II-FLOW-2 II-CHAR-8 II-FLOW-5
    state = _conflict(h)
    state, events = h.run(
        [
            {
                "do": "regular_attack",
                "character": "Ada",
                "target": "Guard",
                "talent": "Quickdraw",
                "faces": ADA_HIT,
            }
        ],
        state=state,
    )
    assert h.last(events, "TalentRolled").data["d6"] == 6
    assert state.scene.conflict.flow == 12
    state, _ = h.run(
        [
            {
                "do": "regular_attack",
                "character": "Guard",
                "target": "Ada",
                "talent": "Spear",
                "faces": GUARD_MISS,
            }
        ],
        state=state,
    )
    assert state.scene.conflict.flow == 14
    state, events = h.run(
        [
            {
                "do": "regular_attack",
                "character": "Bram",
                "target": "Guard",
                "ability": "fortitude",
                "talent": "Brawling",
                "faces": [[1], [1], [2], [1], [2], [1], [1], [3]],
            }
        ],
        state=state,
    )
    assert state.scene.crisis == 8 and h.last(events, "TriggerFired").data["character"] == "Bram"
    with pytest.raises(IllegalCommand) as refused:
        decide(
            state, {"do": "regular_attack", "character": "Ada", "target": "Bram", "talent": "Quickdraw"}, None
        )
    assert refused.value.rule == "II-FLOW-2"


def test_a_success_by_nothing_still_moves_the_flow_by_one(h: Any) -> None:
    """A regular attack totalling exactly 20 succeeds and shifts the Flow by 1, not by 20 − 20 = 0."""
    # rule: II-FLOW-2
    exactly = [[3], [3], [3], [3], [3], [1], [4]]  # 6d6 + d10 vs Guard: 16 + 4 = 20
    state, events = h.run(
        [
            {
                "do": "regular_attack",
                "character": "Ada",
                "target": "Guard",
                "talent": "Quickdraw",
                "faces": exactly,
            }
        ],
        state=_conflict(h),
    )
    assert h.last(events, "TalentRolled").data["total"] == 20
    assert state.scene.conflict.flow == 1


def test_decisive_attack_guard_and_wound(h: Any) -> None:
    """A Decisive Attack rolls against 30 − the Flow in the attacker's favour (at least 10) and wounds."""
    # rule: II-FLOW-3
    state = _conflict(h)
    state, _ = h.run(
        [
            {
                "do": "regular_attack",
                "character": "Ada",
                "target": "Guard",
                "talent": "Quickdraw",
                "faces": ADA_HIT,
            }
        ],
        state=state,
    )
    state, events = h.run(
        [
            {
                "do": "decisive_attack",
                "character": "Bram",
                "target": "Guard",
                "talent": "Brawling",
                "faces": [[4], [4], [3], [2], [2], [1], [5]],
            }
        ],
        state=state,
    )
    assert h.last(events, "AttackMade").data["against"] == 18
    assert state.scene.conflict.enemies[0].wounds == 1 and state.scene.conflict.flow == 0
    big = _conflict(h)
    state, _ = h.run([{"do": "adjust_crisis", "amount": 0}], state=big)
    answer = h.run(
        [
            {
                "do": "regular_attack",
                "character": "Guard",
                "target": "Ada",
                "talent": "Spear",
                "faces": [[6, 6, 6, 6, 1], [5], [5], [5], [8, 8, 3]],
            }
        ],
        state=state,
    )[0]
    assert answer.scene.conflict.flow == -(25 + 15 + 19 - 20)
    events = decide(
        answer,
        {
            "do": "decisive_attack",
            "character": "Bram",
            "target": "Guard",
            "talent": "Brawling",
            "faces": [[1], [1], [1], [1], [1], [1], [1]],
        },
        None,
    )
    assert h.last(events, "AttackMade").data["against"] == 30 + 39


def test_taken_out_and_conflict_end(h: Any) -> None:
    """Wounds reaching maximum hits take a participant out; a side with no one left ends the conflict."""
    # rule: II-FLOW-4
    weak = {**h.GUARD, "name": "Minion", "abilities": {"fortitude": 0, "perseverance": 2, "nimbleness": 3}}
    state = _conflict(h, weak)
    state, events = h.run(
        [
            {
                "do": "decisive_attack",
                "character": "Ada",
                "target": "Minion",
                "talent": "Quickdraw",
                "faces": [[6, 6, 6, 6, 1], [5], [5], [5], [5], [5], [7]],
            }
        ],
        state=state,
    )
    assert h.types(events)[-3:] == ["WoundTaken", "TakenOut", "ConflictEnded"]
    assert state.scene.conflict.winner == "characters"
    with pytest.raises(IllegalCommand):
        decide(
            state,
            {"do": "regular_attack", "character": "Bram", "target": "Minion", "talent": "Brawling"},
            None,
        )


def test_yield_and_end(h: Any) -> None:
    """A side that yields ends the conflict; the GM may also end it."""
    # rule: II-FLOW-4
    state, _ = h.run([{"do": "yield", "side": "characters"}], state=_conflict(h))
    assert state.scene.conflict.ended and state.scene.conflict.winner == "enemies"
    state, _ = h.run([{"do": "end_conflict"}], state=_conflict(h))
    assert state.scene.conflict.ended and state.scene.conflict.winner is None


def test_adding_enemies_costs_tension(h: Any) -> None:
    """Enemies bought with Rising Tension cost 3 each."""
    # rule: II-RT-3
    state, _ = h.run(
        [
            {"do": "start_scene", "kind": "conflict"},
            {"do": "start_conflict", "enemies": [h.GUARD], "spend": True},
        ]
    )
    assert state.rising_tension == 2


def test_moving_spends_the_action_of_the_round(h: Any) -> None:
    """A participant may spend its action of the round moving; once everyone acted a new round starts."""
    # rule: II-FLOW-1
    state, events = h.run(
        [
            {"do": "move", "character": "Ada", "text": "dives behind the crates"},
            {"do": "move", "character": "Guard"},
        ],
        state=_conflict(h),
    )
    with pytest.raises(IllegalCommand):
        decide(state, {"do": "move", "character": "Ada"}, None)
    state, events = h.run([{"do": "move", "character": "Bram"}], state=state)
    assert h.types(events) == ["Moved", "RoundStarted"] and state.scene.conflict.round == 2


def test_the_guard_never_falls_below_its_minimum(h: Any) -> None:
    """With the Flow 33 in the characters' favour the guard is 10, not 30 − 33; a failure costs 20 − total."""
    # rule: II-FLOW-3 II-FLOW-2
    huge = [[6, 6, 6, 6, 1], [5], [5], [5], [5], [5], [3]]  # 6d6 + d10 vs Guard: 53
    attack = {"do": "regular_attack", "character": "Ada", "target": "Guard", "talent": "Quickdraw"}
    state, _ = h.run([{**attack, "faces": huge}], state=_conflict(h))
    assert state.scene.conflict.flow == 33
    bram_low = [[1], [1], [1], [1], [1], [1], [2]]  # 6d6 + d10 vs Guard: 8, below the guard of 10
    state, events = h.run(
        [
            {
                "do": "decisive_attack",
                "character": "Bram",
                "target": "Guard",
                "talent": "Brawling",
                "faces": bram_low,
            }
        ],
        state=state,
    )
    made = h.last(events, "AttackMade").data
    assert made["against"] == 10 and made["success"] is False
    assert h.last(events, "CrisisRaised").data["amount"] == 20 - 8
    assert state.scene.conflict.enemies[0].wounds == 0
