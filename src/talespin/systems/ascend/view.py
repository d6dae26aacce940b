"""What each role may see: ``view`` of the state, ``redact`` of an event, and the ``actors`` of a command.

A blind roll (``visibility: gm``) is cut out on the server: for a player its ``TestRolled`` event becomes a
``BlindRollMade`` naming only the hero, every other event of it is absent, and an extended Test that a blind
roll counted toward shows players no Successes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..protocol import Command, Event, Role
from ..registry import registered
from .state import AscendState

__all__ = ["actors", "redact", "view"]

SYSTEM_NAME = registered(__package__ or __name__).name


def view(state: AscendState, role: Role) -> dict[str, Any]:
    """The state as JSON in the shape of docs/state-views.md, as a GM or a player may see it."""
    progress = state.extended
    hide = role != "gm" and progress is not None and progress.blind
    return {
        "system": SYSTEM_NAME,
        "rules_version": state.rules.version,
        "heroes": [{"name": hero.name, "sheet": hero.to_json()} for hero in state.heroes],
        "tests": state.tests,
        "narrated": state.narrated,
        "extended": None if progress is None else progress.to_json(hide=hide),
        "awards": list(state.awards),
        "requests": list(state.requests),
        "pending_opposed": _pending(state, role),
    }


def _pending(state: AscendState, role: Role) -> dict[str, Any] | None:
    """The opposed Test waiting for its defender (a blind one only for the GM)."""
    pending = state.pending
    if pending is None or (pending.visibility == "gm" and role != "gm"):
        return None
    return pending.to_json()


def redact(event: Event) -> Event | None:
    """An event as a player may see it: public events unchanged, a blind roll reduced to its hero."""
    if event.visibility != "gm":
        return event
    if event.type == "TestRolled":
        return Event("BlindRollMade", {"hero": event.data.get("hero")})
    return None


def _hero(value: Any) -> frozenset[str]:
    hero = value.get("hero") if isinstance(value, Mapping) else None
    return frozenset({hero}) if isinstance(hero, str) else frozenset()


def actors(state: AscendState, command: Command) -> frozenset[str]:
    """Every hero a command acts for, in every position it names one; empty for the Storyteller's.

    A Test acts for its hero; an extended Test for its hero and every step's (a step without a hero is the
    extended Test's hero's); an opposed Test for its attacker, and for its defender too when the command
    makes the defender's choices (AS-OPP-1: a bare ``defender: {hero}`` leaves them to its controller);
    ``defend`` for the defender; ``request_narration`` for the hero asking.
    """
    if not isinstance(command, Mapping):
        return frozenset()
    named = _ACTORS.get(str(command.get("do")))
    return named(state, command) if named is not None else frozenset()


def _step_hero(state: AscendState, command: Command) -> frozenset[str]:
    named = _hero(command)
    if named or state.extended is None or state.extended.hero is None:
        return named
    return frozenset({state.extended.hero})


def _extended_heroes(state: AscendState, command: Command) -> frozenset[str]:
    steps = command.get("steps")
    own = _hero(command)
    found = set(own)
    for step in steps if isinstance(steps, list) else []:
        found |= _hero(step) or own
    return frozenset(found)


def _opposed_heroes(state: AscendState, command: Command) -> frozenset[str]:
    defender = command.get("defender")
    chosen = isinstance(defender, Mapping) and bool(set(defender) - {"hero"})
    return _hero(command.get("attacker")) | (_hero(defender) if chosen else frozenset())


_ACTORS: dict[str, Callable[[AscendState, Command], frozenset[str]]] = {
    "test": lambda state, command: _hero(command),
    "defend": lambda state, command: _hero(command),
    "request_narration": lambda state, command: _hero(command),
    "extended_step": _step_hero,
    "extended_test": _extended_heroes,
    "opposed_test": _opposed_heroes,
}
