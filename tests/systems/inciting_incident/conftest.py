"""Shared sheets and a tiny runner for the Inciting Incident tests."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from talespin.systems.inciting_incident import GameState, decide, evolve, new_state
from talespin.systems.protocol import Event

ADA: dict[str, Any] = {
    "name": "Ada",
    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
    "talents": [
        {
            "name": "Piloting",
            "ability": "nimbleness",
            "level": 5,
            "limitations": ["only vehicles she knows"],
            "skills": [
                {"name": "Barrel Roll", "cost": 4, "kind": "modifier", "effects": {"advantage": 2}},
                {
                    "name": "Steady Hands",
                    "cost": 2,
                    "kind": "modifier",
                    "effects": {"crisis": -1, "protect": 1},
                },
                {"name": "Show Off", "cost": 1, "kind": "modifier"},
            ],
        },
        {"name": "Quickdraw", "ability": "nimbleness", "level": 4},
        {"name": "Mechanics", "ability": "perseverance", "level": 3},
    ],
}
BRAM: dict[str, Any] = {
    "name": "Bram",
    "abilities": {"fortitude": 5, "perseverance": 3, "nimbleness": 2},
    "talents": [
        {"name": "Brawling", "ability": "fortitude", "level": 4},
        {
            "name": "Medicine",
            "ability": "perseverance",
            "level": 3,
            "skills": [
                {"name": "Field Dressing", "cost": 3, "kind": "advanced", "effects": {"heal": 1}},
                {"name": "Calm Voice", "cost": 4, "kind": "advanced", "effects": {"reduce_crisis": 3}},
                {"name": "Bedside Manner", "cost": 1, "kind": "advanced"},
            ],
        },
    ],
}
GUARD: dict[str, Any] = {
    "name": "Guard",
    "abilities": {"fortitude": 2, "perseverance": 2, "nimbleness": 3},
    "talents": [{"name": "Spear", "ability": "nimbleness", "level": 3}],
}

Play = Callable[..., tuple[GameState, list[Event]]]


def run(
    commands: Sequence[Mapping[str, Any]],
    *,
    state: GameState | None = None,
    setup: Mapping[str, Any] | None = None,
    seed: int = 1,
) -> tuple[GameState, list[Event]]:
    """Apply ``commands`` in order and return the final state and every event."""
    if state is None:
        state = new_state(setup if setup is not None else {"characters": [ADA, BRAM], "rising_tension": 5})
    rng = random.Random(seed)
    events: list[Event] = []
    for command in commands:
        new = decide(state, command, rng)
        for event in new:
            state = evolve(state, event)
        events += new
    return state, events


@pytest.fixture
def play() -> Play:
    """The runner, as a fixture."""
    return run


def types(events: Sequence[Event]) -> list[str]:
    """The event types in order."""
    return [e.type for e in events]


def last(events: Sequence[Event], kind: str) -> Event:
    """The last event of a type."""
    return [e for e in events if e.type == kind][-1]


ACTION = {"do": "start_scene", "kind": "action", "difficulty": 5}
OBSTACLE = {"do": "simple_obstacle"}
"""The GM presents a Simple Obstacle to the group (II-SIMPLE-4: characters act only on one in play)."""


@pytest.fixture
def h() -> Any:
    """These helpers and sheets as one namespace (test modules are imported by path, not by name)."""
    return sys.modules[__name__]
