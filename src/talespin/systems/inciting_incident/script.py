"""Scene scripts: run a parsed script's commands through decide/evolve and summarise the outcome.

The caller parses the file (YAML or JSON) and hands over the mapping; character entries that are not
mappings are given to ``load_character`` (the CLI resolves them as paths relative to the script). The
runner is shared by the CLI and the table service, so it does no I/O itself::

    result = run_script(script, rng=random.Random(7))
    result.summary()   # {"state": {...}, "triggers_fired": [...], "events": [...]}

An illegal or malformed command stops the run with :class:`ScriptError` naming the command's index.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...dice import Rng, generator
from ..errors import MalformedCommand, RulesError
from ..protocol import Event
from .decide import decide
from .evolve import evolve
from .state import GameState
from .system import new_state

__all__ = ["ScriptError", "ScriptResult", "run_script"]

_SCRIPT_KEYS = {"system", "variant", "rising_tension", "characters", "commands", "description"}


class ScriptError(MalformedCommand):
    """A command of a script that was refused: the rules error plus the command's 0-based index.

    The message counts commands from 1, as a person does, and names the place too: "command 3
    (commands[2]): …"; ``command_index`` stays the 0-based position of the contract.
    """

    def __init__(self, error: RulesError, index: int) -> None:
        super().__init__(
            f"command {index + 1} (commands[{index}]): {error.message}",
            rule=error.rule,
            path=error.path,
            code=error.code,
        )
        self.command_index = index

    def to_json(self) -> dict[str, object]:
        """``{"code", "rule", "command_index", "message"}`` (and ``path`` when known)."""
        return {**super().to_json(), "command_index": self.command_index}


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
    """Play every command of ``script``; the first refused one raises :class:`ScriptError`.

    ``rng`` rolls what the script gives no faces for: a generator or a whole-number seed.
    """
    rng = generator(rng)
    if not isinstance(script, Mapping):
        raise MalformedCommand("a scene script is a mapping with characters and commands", code="bad_script")
    unknown = set(script) - _SCRIPT_KEYS
    if unknown:
        raise MalformedCommand(
            f"unknown script key(s): {', '.join(sorted(map(str, unknown)))}", code="unknown_key"
        )
    system = script.get("system", "inciting-incident")
    if system not in ("inciting-incident", "ii", "inciting_incident"):
        raise MalformedCommand(f"this script is for {system!r}, not inciting-incident", code="wrong_system")
    characters = []
    for entry in script.get("characters") or []:
        if isinstance(entry, str):
            if load_character is None:
                raise MalformedCommand(
                    f"character {entry!r} is a path, but no loader was given", code="bad_script"
                )
            characters.append(load_character(entry))
        else:
            characters.append(entry)
    setup = {
        "variant": script.get("variant") or {},
        "rising_tension": script.get("rising_tension", 0),
        "characters": characters,
    }
    result = ScriptResult(new_state(setup))
    commands = script.get("commands") or []
    if not isinstance(commands, list):
        raise MalformedCommand("commands must be a list", code="bad_script", path="commands")
    for index, command in enumerate(commands):
        try:
            events = decide(result.state, command, rng)
        except RulesError as error:
            raise ScriptError(error, index) from None
        for event in events:
            result.state = evolve(result.state, event)
            result.events.append(event)
            result.note(result.state)
    return result
