"""Replaying events reproduces the state exactly, and refused commands change nothing."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from talespin.systems.errors import RulesError
from talespin.systems.inciting_incident import decide, evolve, new_state
from talespin.systems.inciting_incident.script import run_script
from talespin.systems.protocol import Event

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

NAMES = st.sampled_from(["Ada", "Bram", "Guard", "Nobody"])
TALENTS = st.sampled_from(["Piloting", "Quickdraw", "Mechanics", "Brawling", "Medicine", "Spear"])
ROLL = st.fixed_dictionaries(
    {"character": NAMES},
    optional={"talent": TALENTS, "advantage": st.integers(0, 4), "disadvantage": st.integers(0, 4)},
)


def _commands(guard: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    roll_kinds = st.sampled_from(
        ["simple_obstacle", "regular_action", "decisive_action", "regular_attack", "decisive_attack"]
    )
    return st.one_of(
        st.builds(
            lambda k, d: {"do": "start_scene", "kind": k, "difficulty": d},
            st.sampled_from(["action", "cooperative", "conflict"]),
            st.integers(1, 9),
        ),
        st.builds(
            lambda o, a: {"do": "complex_obstacle", "obstruction": o, "attempts": a},
            st.integers(0, 40),
            st.integers(1, 3),
        ),
        st.builds(
            lambda kind, r, auto: {"do": kind, **r, **({"choice": "auto"} if auto else {})},
            roll_kinds,
            ROLL,
            st.booleans(),
        ),
        st.builds(lambda a: {"do": "adjust_crisis", "amount": a}, st.integers(-5, 12)),
        st.builds(
            lambda at, ev: {"do": "add_trigger", "at": at, "every": ev, "text": "t"},
            st.integers(1, 20),
            st.integers(1, 6),
        ),
        st.just({"do": "start_conflict", "enemies": [guard]}),
        st.just({"do": "rest"}),
        st.just({"do": "heal", "character": "Bram"}),
        st.builds(
            lambda n: {"do": "spend_tension", "on": "disadvantage", "character": "Ada", "count": n},
            st.integers(1, 3),
        ),
        st.just({"do": "end_scene"}),
    )


def _replay(start: Any, events: list[Event]) -> Any:
    state = start
    for event in events:
        state = evolve(state, Event.from_json(event.to_json()))
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_random_sessions_replay_exactly(h: Any, data: st.DataObject, seed: int) -> None:
    """Any command sequence: replayed events (through JSON) give the same state; refusals change nothing."""
    start = new_state({"characters": [h.ADA, h.BRAM], "rising_tension": 4})
    state, log = start, []
    rng = random.Random(seed)
    for command in data.draw(st.lists(_commands(h.GUARD), max_size=25)):
        before = state
        try:
            events = decide(state, command, rng)
        except RulesError:
            assert state == before
            continue
        for event in events:
            state = evolve(state, event)
        log += events
    assert _replay(start, log) == state
    if state.scene is not None:
        assert state.scene.crisis >= 0
    assert state.rising_tension >= 0


def test_example_scripts_replay_exactly() -> None:
    """Each example script's events rebuild its final state."""
    for path in sorted(EXAMPLES.glob("ii-*.yaml")):
        script = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "commands" not in script:
            continue
        result = run_script(script, random.Random(0), lambda p: yaml.safe_load((EXAMPLES / p).read_text()))
        characters = [
            yaml.safe_load((EXAMPLES / c).read_text()) if isinstance(c, str) else c
            for c in script["characters"]
        ]
        start = new_state({"characters": characters, "rising_tension": script.get("rising_tension", 0)})
        assert _replay(start, result.events) == result.state, path.name
