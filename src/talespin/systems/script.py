"""The one scene-script runner: a script's setup checked, its commands decided and folded, for any system.

A scene script is a mapping: ``system`` (a name or alias), an optional ``description``, rules-data
overrides in ``variant``, the sheets of the system's characters (``characters:`` or ``heroes:``, each a
sheet or a path the caller's ``load`` reads), the system's other setup keys, and ``commands``, each a
``{do: …}`` mapping as the table sends. :func:`play_script` builds the starting state with the system's
``new_state`` and plays every command through its ``decide`` and ``evolve``; each system only turns the
:class:`Step` list into its own result (``talespin ii play`` and ``talespin ascend play`` print different
documents). No file is read here: the CLI hands over parsed mappings and a loader for sheet paths.

A command the rules refuse stops the run with :class:`ScriptError`, which counts commands from 1 as a
person does and keeps the contract's 0-based ``command_index``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..dice import Rng, generator
from .errors import MalformedCommand, RulesError
from .protocol import Event, RulesT, RuleSystem, StateT
from .registry import get_system

__all__ = ["ScriptError", "ScriptShape", "Step", "play_script"]


class ScriptError(MalformedCommand):
    """A command of a script that was refused: the rules error plus the command's 0-based index.

    The message counts commands from 1 and names the place too: "command 3 (commands[2]): …".
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


@dataclass(frozen=True, slots=True)
class ScriptShape:
    """What a system's scripts hold besides the common keys: where the sheets are, what else is setup."""

    sheets: str
    """The key of the sheet list, and of the setup entry it becomes (``characters``, ``heroes``)."""
    sheet: str
    """One sheet in words, for messages (``character``, ``hero``)."""
    setup: tuple[str, ...] = ()
    """Other keys handed to ``new_state`` as they are (``rising_tension``)."""

    def keys(self) -> set[str]:
        """Every key a script of this shape may hold."""
        return {"system", "description", "variant", "commands", self.sheets, *self.setup}


@dataclass(frozen=True, slots=True)
class Step:
    """One command played: its index and mapping, the events it caused, and the state after them."""

    index: int
    command: Mapping[str, Any]
    events: list[Event]
    state: Any


def _sheets(entries: Any, shape: ScriptShape, load: Callable[[str], Any] | None) -> list[Any]:
    if not isinstance(entries, list):
        raise MalformedCommand(
            f"{shape.sheets} must be a list of sheets or sheet paths", code="bad_script", path=shape.sheets
        )
    sheets = []
    for index, entry in enumerate(entries):
        if isinstance(entry, str):
            if load is None:
                raise MalformedCommand(
                    f"{shape.sheet} {entry!r} is a path, but no loader was given",
                    code="bad_script",
                    path=f"{shape.sheets}[{index}]",
                )
            sheets.append(load(entry))
        else:
            sheets.append(entry)
    return sheets


def _check(script: Any, system: RuleSystem[StateT, RulesT], shape: ScriptShape) -> list[Any]:
    """The script's commands, once its shape, keys and system are checked."""
    if not isinstance(script, Mapping):
        raise MalformedCommand(
            f"a scene script is a mapping with system, {shape.sheets} and commands",
            code="bad_script",
            path="",
        )
    unknown = sorted(map(str, set(script) - shape.keys()))
    if unknown:
        expected = ", ".join(sorted(shape.keys()))
        raise MalformedCommand(
            f"unknown script key {unknown[0]!r}; expected {expected}", code="unknown_key", path=unknown[0]
        )
    named = script.get("system", system.name)
    try:
        same = isinstance(named, str) and get_system(named).name == system.name
    except MalformedCommand:
        same = False
    if not same:
        raise MalformedCommand(
            f"this script is for {named!r}, not {system.name}", code="wrong_system", path="system"
        )
    commands = script.get("commands") or []
    if not isinstance(commands, list):
        raise MalformedCommand(
            "commands must be a list of {do: ...} mappings", code="bad_script", path="commands"
        )
    return commands


def play_script(
    system: RuleSystem[StateT, RulesT],
    shape: ScriptShape,
    script: Any,
    rng: Rng | int,
    load: Callable[[str], Any] | None = None,
) -> tuple[Any, list[Step]]:
    """The starting state and every command of ``script`` played in order, or the first refusal.

    ``rng`` (a generator or a whole-number seed) rolls what the script gives no faces for: one generator
    for the whole script.
    """
    rng = generator(rng)
    commands = _check(script, system, shape)
    setup: dict[str, Any] = {"variant": script.get("variant") or {}}
    setup[shape.sheets] = _sheets(script.get(shape.sheets) or [], shape, load)
    setup |= {key: script[key] for key in shape.setup if key in script}
    state = start = system.new_state(setup)
    steps: list[Step] = []
    for index, command in enumerate(commands):
        try:
            events = system.decide(state, command, rng)
        except RulesError as error:
            raise ScriptError(error, index) from None
        for event in events:
            state = system.evolve(state, event)
        steps.append(Step(index, command, events, state))
    return start, steps
