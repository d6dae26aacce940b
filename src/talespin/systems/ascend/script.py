"""Running a scene script: parsed mappings in, results out (no files are read here).

A script is ``{"system": "ascend", "variant": {...}, "heroes": [sheets], "commands": [{do: ...}, ...]}``; the
caller reads the file and hands sheet paths to a ``load_hero`` callable. Each command is decided and its
events folded in order; a command the rules refuse stops the run with a :class:`ScriptError` that names its
index. The result keeps one object per rolled or narrated command, each with its ``"do"``::

    {"results": [{"do": "test", "target", "pool", "faces", "successes", "success", "margin", ...}, ...],
     "state": {...}, "events": [...]}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...dice import Rng, generator
from ..errors import MalformedCommand, RulesError
from ..protocol import Event
from .decide import decide
from .state import AscendState, evolve, new_state
from .view import view

__all__ = ["ScriptError", "run_script"]

_SCRIPT_KEYS = {"system", "variant", "heroes", "commands", "description"}
_NAMES = {"ascend", "cn-ascend"}
_ROLL_KEYS = (
    "hero",
    "kind",
    "skill",
    "conviction",
    "target",
    "pool",
    "faces",
    "successes",
    "success",
    "margin",
)


class ScriptError(RulesError):
    """A command of a script was refused; ``command_index`` is its 0-based position in ``commands``.

    The message counts from 1 as a person does, naming the place too: "command 3 (commands[2]): …".
    """

    def __init__(self, error: RulesError, command_index: int) -> None:
        super().__init__(
            f"command {command_index + 1} (commands[{command_index}]): {error.message}",
            rule=error.rule,
            path=error.path,
            code=error.code,
        )
        self.command_index = command_index

    def to_json(self) -> dict[str, object]:
        """The contract's ``{"code", "rule", "command_index", "message"}`` (and ``path``)."""
        return {**super().to_json(), "command_index": self.command_index}


def _roll(data: Mapping[str, Any]) -> dict[str, Any]:
    return {key: data[key] for key in _ROLL_KEYS if key in data}


def _result(do: str, events: list[Event], state: AscendState) -> dict[str, Any] | None:
    rolled = [event.data for event in events if event.type == "TestRolled"]
    by_type = {event.type: event.data for event in events}
    if do == "test":
        return {"do": do, **_roll(rolled[-1]), "narration": rolled[-1]["narration"]}
    if do == "opposed_test" and "OpposedTestProposed" in by_type:
        proposed = by_type["OpposedTestProposed"]
        return {
            "do": do,
            "proposed": True,
            "attacker": proposed["attacker_hero"],
            "defender": proposed["defender"],
        }
    if do in ("opposed_test", "defend"):
        decided = by_type["OpposedTestDecided"]
        sides = {side: [_roll(r) for r in rolled if r["side"] == side] for side in ("attacker", "defender")}
        return {
            "do": do,
            "attacker": sides["attacker"][-1],
            "defender": sides["defender"][-1],
            "winner": decided["winner"],
            "winning_hero": decided["winning_hero"],
            "tie": decided["tie"],
            "rolls": decided["rolls"],
        }
    if do in {"extended_test", "extended_step", "end_extended"}:
        progress = state.extended
        assert progress is not None  # every extended command leaves one behind
        body: dict[str, Any] = {"do": do, **progress.to_json()}
        if do == "extended_test":
            body["steps"] = [_roll(r) for r in rolled]
        elif do == "extended_step":
            body["step"] = _roll(rolled[-1])
        return body
    if do == "narrate":
        told = by_type["OutcomeNarrated"]
        return {"do": do, "hero": told["hero"], "text": told["text"], "success": told["success"]}
    return None


def _heroes(entries: Any, load_hero: Callable[[str], Any] | None) -> list[Any]:
    if not isinstance(entries, list):
        raise MalformedCommand(
            "heroes must be a list of sheets or sheet paths", code="bad_script", path="heroes"
        )
    sheets = []
    for index, entry in enumerate(entries):
        if isinstance(entry, str):
            if load_hero is None:
                raise MalformedCommand(
                    f"hero {entry!r} is a path, but no loader was given",
                    code="bad_script",
                    path=f"heroes[{index}]",
                )
            sheets.append(load_hero(entry))
        else:
            sheets.append(entry)
    return sheets


def _setup(
    script: Mapping[str, Any], load_hero: Callable[[str], Any] | None
) -> tuple[AscendState, list[Any]]:
    if not isinstance(script, Mapping):
        raise MalformedCommand(
            "a script is a mapping with system, heroes and commands", code="bad_script", path=""
        )
    unknown = sorted(set(script) - _SCRIPT_KEYS)
    if unknown:
        expected = ", ".join(sorted(_SCRIPT_KEYS))
        raise MalformedCommand(
            f"unknown script key {unknown[0]!r}; expected {expected}", code="unknown_key", path=unknown[0]
        )
    system = script.get("system", "ascend")
    if not isinstance(system, str) or system.strip().lower() not in _NAMES:
        raise MalformedCommand(
            f"this script is for {system!r}, not ascend", code="wrong_system", path="system"
        )
    commands = script.get("commands") or []
    if not isinstance(commands, list):
        raise MalformedCommand(
            "commands must be a list of {do: ...} mappings", code="bad_script", path="commands"
        )
    heroes = _heroes(script.get("heroes") or [], load_hero)
    state = new_state({"variant": script.get("variant") or {}, "heroes": heroes})
    return state, commands


def run_script(
    script: Mapping[str, Any], rng: Rng | int, load_hero: Callable[[str], Any] | None = None
) -> dict[str, Any]:
    """Run every command of ``script`` in order; ``{"results", "state", "events"}`` or a ScriptError.

    ``rng`` rolls what the script gives no faces for: a generator or a whole-number seed.

    Hero entries that are strings are handed to ``load_hero`` (the CLI reads them as paths beside the script).
    """
    rng = generator(rng)  # one generator for the whole script, even from a seed
    state, commands = _setup(script, load_hero)
    results: list[dict[str, Any]] = []
    log: list[dict[str, Any]] = []
    for index, command in enumerate(commands):
        try:
            events = decide(state, command, rng)
        except RulesError as error:
            raise ScriptError(error, index) from None
        for event in events:
            state = evolve(state, event)
            log.append(event.to_json())
        result = _result(str(command["do"]), events, state)
        if result is not None:
            results.append(result)
    return {"results": results, "state": view(state, "gm"), "events": log}
