"""Crisis and Triggers: floor, firing order, the causing character, once per value, re-arming, causes."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from talespin.systems import Event
from talespin.systems.bounds import MAX_EVENTS_PER_COMMAND
from talespin.systems.errors import IllegalCommand, MalformedCommand
from talespin.systems.inciting_incident import decide, evolve
from talespin.systems.inciting_incident.commands import MAX_WHOLE_NUMBER
from talespin.systems.inciting_incident.view import redact, view


def _scene(h: Any, *triggers: dict[str, Any]) -> Any:
    state, _ = h.run([{**h.ACTION, "triggers": list(triggers)}])
    return state


def test_crisis_starts_at_zero_and_never_goes_below(h: Any) -> None:
    """Every action scene starts at Crisis 0; lowering it stops at 0."""
    # rule: II-CRISIS-1 II-FLOW-5
    state = _scene(h)
    assert state.scene.crisis == 0
    state, events = h.run(
        [{"do": "adjust_crisis", "amount": 3}, {"do": "adjust_crisis", "amount": -10}], state=state
    )
    assert state.scene.crisis == 0
    assert h.last(events, "CrisisLowered").data["amount"] == 3
    conflict, _ = h.run(
        [
            {"do": "start_scene", "kind": "conflict", "triggers": [{"at": 2, "text": "x"}]},
            {"do": "adjust_crisis", "amount": 2},
        ]
    )
    assert conflict.scene.crisis == 2 and conflict.scene.triggers[0].fired == (2,)


def test_one_increase_fires_several_values_in_ascending_order(h: Any) -> None:
    """One rise fires every passed value of every Trigger, in ascending order of value."""
    # rule: II-CRISIS-2
    state = _scene(h, {"at": 10, "every": 5, "text": "A"}, {"at": 12, "text": "B"}, {"at": 30, "text": "C"})
    state, events = h.run([{"do": "adjust_crisis", "amount": 21, "character": "Ada"}], state=state)
    fired = [(e.data["value"], e.data["text"]) for e in events if e.type == "TriggerFired"]
    assert fired == [(10, "A"), (12, "B"), (15, "A"), (20, "A")]
    state, events = h.run([{"do": "adjust_crisis", "amount": 9}], state=state)
    assert [(e.data["value"], e.data["text"]) for e in events if e.type == "TriggerFired"] == [
        (25, "A"),
        (30, "A"),
        (30, "C"),
    ]


def test_firing_records_the_causing_character(h: Any) -> None:
    """A Trigger firing names the character whose action raised Crisis."""
    # rule: II-CRISIS-3
    state = _scene(h, {"at": 4, "text": "Alarm"})
    state, events = h.run(
        [h.OBSTACLE, {"do": "simple_obstacle", "character": "Bram", "choice": "auto"}], state=state
    )
    fired = h.last(events, "TriggerFired").data
    assert fired["character"] == "Bram" and fired["affects"] == "Bram"


def test_each_value_fires_once_until_rearmed(h: Any) -> None:
    """A value fires at most once per scene; the GM may re-arm it by hand."""
    # rule: II-CRISIS-4
    state = _scene(h, {"at": 5, "text": "Alarm"})
    state, events = h.run(
        [
            {"do": "adjust_crisis", "amount": 5},
            {"do": "adjust_crisis", "amount": -3},
            {"do": "adjust_crisis", "amount": 3},
        ],
        state=state,
    )
    assert [e.type for e in events].count("TriggerFired") == 1
    with pytest.raises(IllegalCommand) as refused:
        decide(state, {"do": "rearm_trigger", "trigger": 1, "value": 10}, None)
    assert refused.value.rule == "II-CRISIS-4"
    state, events = h.run(
        [
            {"do": "rearm_trigger", "trigger": 1},
            {"do": "adjust_crisis", "amount": -1},
            {"do": "adjust_crisis", "amount": 1},
        ],
        state=state,
    )
    assert [e.type for e in events].count("TriggerFired") == 1


HIGH_MEDICINE = [[6, 6, 1], [5], [5], [1], [1], [8, 1]]
"""Bram's Medicine (1d8) at difficulty 5: a total of 34."""


def test_every_change_records_its_cause(h: Any) -> None:
    """Crisis changes carry their cause: an action, a Skill or a GM adjustment."""
    # rule: II-CRISIS-5
    state = _scene(h)
    state, events = h.run(
        [
            h.OBSTACLE,
            {"do": "simple_obstacle", "character": "Ada", "choice": "auto"},
            {"do": "adjust_crisis", "amount": 2, "reason": "the storm"},
            {"do": "use_skill", "character": "Bram", "skill": "Calm Voice", "faces": HIGH_MEDICINE},
        ],
        state=state,
    )
    causes = [e.data["cause"] for e in events if e.type in ("CrisisRaised", "CrisisLowered")]
    assert causes == [
        "passed a Simple Obstacle automatically",
        "GM adjustment: the storm",
        "Skill Calm Voice",
        "Advanced Action Calm Voice, Medicine roll of 34",
    ]


def test_gm_only_trigger_fires_publicly(h: Any) -> None:
    """A GM-only Trigger is added in a GM-only event and fires in a public one."""
    # rule: II-CRISIS-2
    _, events = h.run(
        [
            h.ACTION,
            {"do": "add_trigger", "at": 3, "text": "Ambush", "visibility": "gm"},
            {"do": "adjust_crisis", "amount": 4},
        ]
    )
    assert h.last(events, "TriggerAdded").visibility == "gm"
    assert h.last(events, "TriggerFired").visibility == "public"


@pytest.mark.parametrize(
    "command",
    [
        {"do": "adjust_crisis", "amount": 10**12},
        {"do": "adjust_crisis", "amount": -(10**12)},
        {"do": "complex_obstacle", "obstruction": 10**20, "attempts": 1},
        {"do": "add_trigger", "at": 1, "every": 10**30, "text": "far"},
    ],
)
def test_a_number_beyond_the_command_limit_is_refused_and_changes_nothing(
    h: Any, command: dict[str, Any]
) -> None:
    """A number far beyond any table (it could fire a Trigger 10¹² times) is refused, state unchanged."""
    # rule: II-CRISIS-2
    state = _scene(h, {"at": 1, "every": 1, "text": "every point"})
    with pytest.raises(MalformedCommand, match=f"between -{MAX_WHOLE_NUMBER} and {MAX_WHOLE_NUMBER}"):
        decide(state, command, random.Random(1))
    assert state.scene.crisis == 0


def test_a_rise_within_the_event_cap_fires_every_value_in_order(h: Any) -> None:
    """A rise past a Trigger repeating every 1 fires each value once, ascending, up to the event cap."""
    # rule: II-CRISIS-2 II-CRISIS-4
    state = _scene(h, {"at": 1, "every": 1, "text": "every point"})
    amount = MAX_EVENTS_PER_COMMAND - 1  # the CrisisRaised event and one TriggerFired per point
    state, events = h.run([{"do": "adjust_crisis", "amount": amount}], state=state)
    fired = [e.data["value"] for e in events if e.type == "TriggerFired"]
    assert fired == list(range(1, amount + 1))


def test_a_rise_causing_more_events_than_the_cap_is_refused_before_any_work(h: Any) -> None:
    """adjust_crisis 10,000 past 50 Triggers repeating every 1 is refused with too_many_events, state kept."""
    # rule: II-CRISIS-2
    triggers = [{"at": 1, "every": 1, "text": f"trigger {n}"} for n in range(50)]
    state = _scene(h, *triggers)
    with pytest.raises(IllegalCommand) as refused:
        decide(state, {"do": "adjust_crisis", "amount": MAX_WHOLE_NUMBER}, random.Random(1))
    assert refused.value.code == "too_many_events"
    assert str(MAX_EVENTS_PER_COMMAND) in refused.value.message
    assert state.scene.crisis == 0


def test_a_public_trigger_id_does_not_count_gm_only_triggers(h: Any) -> None:
    """Public Triggers are numbered 1, 2, …; GM-only ones -1, -2, …: a hidden one shifts no public id."""
    # rule: II-CRISIS-2
    public = {"at": 10, "text": "A patrol arrives"}
    hidden = {"at": 10, "text": "The bridge gives way", "visibility": "gm"}
    alone = _scene(h, public)
    after_hidden = _scene(h, hidden, public, hidden)
    assert [t.id for t in alone.scene.triggers] == [1]
    assert [(t.id, t.visibility) for t in after_hidden.scene.triggers] == [
        (-1, "gm"),
        (1, "public"),
        (-2, "gm"),
    ]
    state, events = h.run([{"do": "add_trigger", "at": 20, "text": "Later"}], state=after_hidden)
    assert h.last(events, "TriggerAdded").data["trigger"] == 2
    state, events = h.run([{"do": "adjust_crisis", "amount": 10}], state=state)
    fired = [e.data["trigger"] for e in events if e.type == "TriggerFired"]
    assert fired == [-1, 1, -2]  # one value: in the order they were added
    state, events = h.run([{"do": "rearm_trigger", "trigger": -2}], state=state)
    assert h.last(events, "TriggerRearmed").data == {"trigger": -2, "values": [10]}
    assert h.last(events, "TriggerRearmed").visibility == "gm"


def test_a_record_that_numbered_hidden_triggers_with_the_rest_gets_no_repeated_id(h: Any) -> None:
    """An older record's GM-only Trigger with a positive id still moves the public count past it."""
    # rule: II-CRISIS-2
    state = _scene(h, {"at": 10, "text": "A"})
    old = {"trigger": 2, "at": 15, "every": None, "text": "B", "visibility": "gm"}
    state = evolve(state, Event("TriggerAdded", old, "gm"))
    _, events = h.run([{"do": "add_trigger", "at": 20, "text": "C"}], state=state)
    assert h.last(events, "TriggerAdded").data["trigger"] == 3


def test_players_know_a_fired_gm_only_trigger_by_the_order_gm_only_ones_fired(h: Any) -> None:
    """Players name a fired GM-only Trigger -1, -2, … as they saw them fire: unfired ones shift nothing."""
    # rule: II-CRISIS-2
    unfired = {"at": 50, "every": 7, "text": "The dam bursts", "visibility": "gm"}
    first = {"at": 4, "text": "Rocks fall", "visibility": "gm"}
    second = {"at": 2, "text": "A horn sounds", "visibility": "gm"}
    worlds = []
    for triggers in ((unfired, first, second), (first, second)):
        state = _scene(h, *triggers)
        state, events = h.run([{"do": "adjust_crisis", "amount": 2}], state=state)
        shown = [redact(e) for e in events]
        state, more = h.run([{"do": "adjust_crisis", "amount": 3}], state=state)
        shown += [redact(e) for e in more]
        fired = [e for e in shown if e is not None and e.type == "TriggerFired"]
        named = [(e.data["trigger"], e.data["text"]) for e in fired]
        assert named == [(-1, "A horn sounds"), (-2, "Rocks fall")]
        seen = view(state, "player")["scene"]["triggers"]
        assert [(t["id"], t["text"]) for t in seen] == [(-2, "Rocks fall"), (-1, "A horn sounds")]
        assert "The dam bursts" not in json.dumps(view(state, "player"))  # nor its at or every
        worlds.append((json.dumps(view(state, "player")), [e.to_json() for e in fired]))
        gm_ids = [t["id"] for t in view(state, "gm")["scene"]["triggers"]]
        assert gm_ids == [t.id for t in state.scene.triggers]  # the GM keeps the real ids
    assert worlds[0] == worlds[1]
