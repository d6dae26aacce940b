"""Inciting Incident scene scripts: played by the one runner of :mod:`talespin.systems.script`, summarised.

The caller parses the file (YAML or JSON) and hands over the mapping; character entries that are not
mappings are given to ``load_character`` (the CLI resolves them as paths relative to the script). The
runner does no I/O itself::

    result = run_script(script, rng=random.Random(7))
    result.summary()   # {"state": {...}, "triggers_fired": [...], "events": [...]}

An illegal or malformed command stops the run with :class:`ScriptError` naming the command's index.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...dice import Rng
from ..protocol import Event
from ..script import ScriptError, ScriptShape, play_script
from .state import GameState
from .system import SYSTEM

__all__ = ["SHAPE", "ScriptError", "ScriptResult", "run_script"]

SHAPE = ScriptShape(sheets="characters", sheet="character", setup=("rising_tension",))
"""An Inciting Incident script: ``characters`` and a starting ``rising_tension`` besides the common keys."""


@dataclass
class ScriptResult:
    """The state after a script, its events, and the last scene's Crisis, Obstruction and Flow."""

    state: GameState
    events: list[Event] = field(default_factory=list)
    crisis: int = 0
    obstruction: int | None = None
    obstacle_beaten: bool = False
    flow: int | None = None

    def note(self, state: GameState) -> None:
        """Remember the figures of the scene in play (they outlive ``end_scene``)."""
        scene = state.scene
        if scene is None:
            return
        obstacle, conflict = scene.obstacle, scene.conflict
        self.crisis = scene.crisis
        self.obstruction = (
            obstacle.obstruction if obstacle is not None and obstacle.kind == "complex" else None
        )
        self.obstacle_beaten = obstacle is not None and obstacle.beaten
        self.flow = conflict.flow if conflict is not None else None

    def summary(self) -> dict[str, Any]:
        """The contract's ``play --json`` document."""
        fired = [
            {"text": e.data["text"], "value": e.data["value"], "character": e.data["character"]}
            for e in self.events
            if e.type == "TriggerFired"
        ]
        return {
            "state": {
                "crisis": self.crisis,
                "rising_tension": self.state.rising_tension,
                "obstruction": self.obstruction,
                "obstacle_beaten": self.obstacle_beaten,
                "flow": self.flow,
                "wounds": {m.name: m.wounds for m in self.state.members},
            },
            "triggers_fired": fired,
            "events": [e.to_json() for e in self.events],
        }


def run_script(
    script: Mapping[str, Any], rng: Rng | int, load_character: Callable[[str], Any] | None = None
) -> ScriptResult:
    """Play every command of ``script`` (:func:`talespin.systems.script.play_script`); the first refused one
    raises :class:`ScriptError`.

    ``rng`` rolls what the script gives no faces for: a generator or a whole-number seed.
    """
    start, steps = play_script(SYSTEM, SHAPE, script, rng, load_character)
    result = ScriptResult(start)
    for step in steps:
        result.state = step.state
        result.events.extend(step.events)
        result.note(step.state)
    return result
