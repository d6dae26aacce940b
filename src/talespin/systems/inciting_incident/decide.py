"""``decide(state, command, rng) -> events``: the command vocabulary and who acts for each command.

Each command (a mapping with ``do:``) is parsed into its typed model (:mod:`.commands`) and handled by one
function of :mod:`.scenes`, :mod:`.cooperative`, :mod:`.obstacles`, :mod:`.skills` or :mod:`.conflict`
working on a :class:`~.draft.Draft`. If any rule refuses the command, the
error propagates and no event is returned: the state is unchanged either way, because the draft never
touches the caller's state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...dice import Rng, generator
from ..protocol import Command, Event, Visibility
from . import conflict, cooperative, obstacles, scenes, skills
from .commands import IiCommand, parse_command
from .draft import Draft
from .state import GameState

__all__ = ["CHARACTER_COMMANDS", "COMMANDS", "actors", "decide"]

Handler = Callable[[Draft, Any, Rng], None]
"""A command's handler: the draft, the typed command (:mod:`.commands`) and the generator."""

COMMANDS: dict[str, Handler] = {
    "add_character": scenes.add_character,
    "start_scene": scenes.start_scene,
    "end_scene": scenes.end_scene,
    "add_trigger": scenes.add_trigger,
    "rearm_trigger": scenes.rearm_trigger,
    "adjust_crisis": scenes.adjust_crisis,
    "add_tension": scenes.add_tension,
    "spend_tension": scenes.spend_tension,
    "rest": cooperative.rest,
    "learn": cooperative.learn,
    "heal": cooperative.heal,
    "simple_obstacle": obstacles.simple_obstacle,
    "complex_obstacle": obstacles.complex_obstacle,
    "regular_action": obstacles.regular_action,
    "decisive_action": obstacles.decisive_action,
    "use_skill": skills.use_skill,
    "recreate_skill": skills.recreate_skill,
    "ability_roll": skills.ability_roll,
    "start_conflict": conflict.start_conflict,
    "regular_attack": conflict.attack,
    "decisive_attack": conflict.attack,
    "move": conflict.move,
    "yield": conflict.yield_conflict,
    "end_conflict": conflict.end_conflict,
}
"""Every command, by its ``do:`` name."""

CHARACTER_COMMANDS = frozenset(
    {
        "simple_obstacle",
        "regular_action",
        "decisive_action",
        "use_skill",
        "recreate_skill",
        "ability_roll",
        "learn",
        "heal",
        "regular_attack",
        "decisive_attack",
        "move",
    }
)
"""Commands a character takes (its ``character:`` acts); the rest are the GM's."""


def _visibility(command: IiCommand) -> Visibility:
    """The visibility of the command's events: a blind roll's are the GM's; a GM-only Trigger's own event
    is marked GM-only where it is made, and the Crisis it may cause later stays public."""
    shown: Visibility = getattr(command, "visibility", "public")
    return "public" if command.do == "add_trigger" else shown


def decide(state: GameState, command: Command, rng: Rng | int) -> list[Event]:
    """The events ``command`` causes in ``state``, or a RulesError (and nothing changes).

    ``rng`` is a generator or a whole-number seed (a command that rolls nothing may be given ``None``).
    """
    rng = generator(rng)
    parsed = parse_command(command)
    draft = Draft(state, _visibility(parsed))
    COMMANDS[parsed.do](draft, parsed, rng)
    return draft.events


def actors(state: GameState, command: Command) -> frozenset[str]:
    """The characters a command acts for (its ``character:``); empty for the GM's commands.

    Other names a command carries are not acted for: an attack's ``target``, a healing Skill's ``target``,
    the ``to`` of a presented obstacle, the ``character`` that Disadvantage bought by the GM goes to.
    """
    if command.get("do") in CHARACTER_COMMANDS:
        name = command.get("character")
        return frozenset({name}) if isinstance(name, str) else frozenset()
    return frozenset()
