"""A draft of the events one command causes, with the state kept current as each is added.

Deciding a command often needs the state *between* its events (Crisis after the Obstruction fell, which
Trigger values are still armed). :class:`Draft` applies each event with :func:`.evolve.evolve` as it is
emitted, so the rule code reads the up-to-date state; nothing outside the draft changes until the caller
keeps the events. The rules every action shares work on a draft from their own modules: Crisis and its
Triggers in :mod:`.crisis`, Rising Tension in :mod:`.tension`.
"""

from __future__ import annotations

from typing import Any

from ..bounds import MAX_EVENTS_PER_COMMAND, too_many_events
from ..errors import IllegalCommand
from ..protocol import Event, Visibility
from . import rule_ids as ids
from .evolve import evolve
from .rules import Rules
from .state import GameState, Scene

__all__ = ["Draft"]


class Draft:
    """Events being decided, and the state they lead to."""

    def __init__(self, state: GameState, visibility: Visibility = "public") -> None:
        self.state = state
        self.events: list[Event] = []
        self.visibility: Visibility = visibility

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self.state.rules

    def scene(self, *kinds: str) -> Scene:
        """The scene in play (of one of ``kinds`` when given), or IllegalCommand."""
        scene = self.state.scene
        if scene is None:
            raise IllegalCommand("no scene is in play: start one with start_scene", rule=ids.SCENE_1)
        if kinds and scene.kind not in kinds:
            raise IllegalCommand(
                f"this needs a {' or '.join(kinds)} scene; the scene in play is {scene.kind}",
                rule=ids.SCENE_4,
            )
        return scene

    def emit(self, type_: str, data: dict[str, Any], visibility: Visibility | None = None) -> None:
        """Add one event and apply it to the draft state."""
        if len(self.events) >= MAX_EVENTS_PER_COMMAND:
            raise too_many_events()
        event = Event(type_, data, visibility or self.visibility)
        self.state = evolve(self.state, event)
        self.events.append(event)
