"""Shared fixtures of the Ascend tests: the heroes of the rules text and a campaign holding them."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from talespin.systems import Event
from talespin.systems.ascend import AscendState, decide, evolve, new_state


def _susan() -> dict[str, Any]:
    """Susan of the cliff example: Agility 3, Strength 2, Avanus 1 (AS-POOL-5)."""
    return {
        "name": "Susan",
        "skills": {"Athletics": 3, "Stealth": 2, "Persuasion": 3},
        "convictions": {"Protect the weak": 4},
        "traits": {"Agility": 3, "Strength": 2},
        "backgrounds": {"Avanus": 1},
        "aids": {"Climbing rope": 1},
    }


def _will() -> dict[str, Any]:
    """Will's hero of the Ghost example: Strength 4, Exorcist 2, Soul Blade 3 (AS-POOL-5)."""
    return {
        "name": "Will",
        "skills": {"Melee": 3},
        "convictions": {"No soul left behind": 3},
        "traits": {"Strength": 4, "Wits": 2},
        "backgrounds": {"Exorcist": 2},
        "aids": {"Soul Blade": 3},
    }


@pytest.fixture
def state() -> AscendState:
    """A campaign with Susan and Will, shipped rules."""
    return new_state({"heroes": [_susan(), _will()]})


@pytest.fixture
def susan_sheet() -> dict[str, Any]:
    """A fresh copy of Susan's sheet."""
    return _susan()


@pytest.fixture
def will_sheet() -> dict[str, Any]:
    """A fresh copy of Will's sheet."""
    return _will()


@pytest.fixture
def rng() -> random.Random:
    """A seeded generator."""
    return random.Random(20261202)


Apply = Callable[[AscendState, Mapping[str, Any]], tuple[AscendState, list[Event]]]


@pytest.fixture
def apply(rng: random.Random) -> Apply:
    """Decide one command and fold its events: ``(new_state, events)``."""

    def run(state: AscendState, command: Mapping[str, Any]) -> tuple[AscendState, list[Event]]:
        events = decide(state, command, rng)
        for event in events:
            state = evolve(state, event)
        return state, events

    return run
