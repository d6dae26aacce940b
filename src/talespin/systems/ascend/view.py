"""What each role may see: ``view`` of the state, ``redact`` of an event, and the ``actor`` of a command.

A blind roll (``visibility: gm``) is cut out on the server: for a player its ``TestRolled`` event becomes a
``BlindRollMade`` naming only the hero, every other event of it is absent, and an extended Test that a blind
roll counted toward shows players no Successes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..protocol import Command, Event, Role
from .state import AscendState

__all__ = ["actor", "redact", "view"]

SYSTEM_NAME = "ascend"


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
    }


def redact(event: Event) -> Event | None:
    """An event as a player may see it: public events unchanged, a blind roll reduced to its hero."""
    if event.visibility != "gm":
        return event
    if event.type == "TestRolled":
        return Event("BlindRollMade", {"hero": event.data.get("hero")})
    return None


def actor(command: Command) -> str | None:
    """The hero a command acts for (an opposed Test's attacker); ``None`` for the Storyteller's."""
    if not isinstance(command, Mapping):
        return None
    do = command.get("do")
    if do in {"test", "extended_step", "extended_test"}:
        hero = command.get("hero")
        if hero is None and do == "extended_test":
            steps = command.get("steps")
            first = steps[0] if isinstance(steps, list) and steps and isinstance(steps[0], Mapping) else {}
            hero = first.get("hero")
        return hero if isinstance(hero, str) else None
    if do == "opposed_test":
        attacker = command.get("attacker")
        hero = attacker.get("hero") if isinstance(attacker, Mapping) else None
        return hero if isinstance(hero, str) else None
    return None
