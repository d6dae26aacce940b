"""``SYSTEM``: Ascend behind the :class:`~talespin.systems.protocol.RuleSystem` protocol.

The table and the CLI reach Ascend only through this object (found by ``get_system("ascend")``); each
method hands over to the module that owns the concept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dice import Rng
from ..protocol import Command, Event, Role, RuleSystem
from ..registry import registered
from .decide import decide
from .legal import legal_commands
from .odds import answer
from .rule_ids import HERO_2
from .rules import Rules, load_rules
from .sheet import check_hero
from .state import AscendState, evolve, new_state
from .view import actors, redact, view

__all__ = ["SYSTEM", "AscendSystem"]


class AscendSystem:
    """The rules of Ascend as pure functions over frozen :class:`~.state.AscendState`."""

    name = registered(__package__).name
    aliases = registered(__package__).aliases
    label = registered(__package__).label
    scenes = False
    joins = frozenset({"add_character", "add_hero"})

    def rules(self, variant: Mapping[str, Any] | None = None) -> Rules:
        """The rules data with ``variant`` laid over the shipped rules (see :func:`.rules.load_rules`)."""
        return load_rules(variant)

    def new_state(self, setup: Mapping[str, Any]) -> AscendState:
        """The starting state from ``{"variant": {...}, "heroes": [sheets]}``."""
        return new_state(setup)

    def decide(self, state: AscendState, command: Command, rng: Rng | int) -> list[Event]:
        """The events one command causes, or a RulesError with nothing changed."""
        return decide(state, command, rng)

    def evolve(self, state: AscendState, event: Event) -> AscendState:
        """The state after one event."""
        return evolve(state, event)

    def view(self, state: AscendState, role: Role) -> dict[str, Any]:
        """The state as JSON, as a GM or a player may see it."""
        return view(state, role)

    def redact(self, event: Event) -> Event | None:
        """An event as a player may see it (a blind roll reduced to its hero)."""
        return redact(event)

    def actors(self, state: AscendState, command: Command) -> frozenset[str]:
        """Every hero a command acts for; empty for the Storyteller's commands."""
        return actors(state, command)

    def legal_commands(self, state: AscendState, role: Role) -> list[dict[str, Any]]:
        """See :func:`.legal.legal_commands`."""
        return legal_commands(state, role)

    def validate_sheet(self, sheet: object, rules: Rules | None = None) -> dict[str, Any]:
        """``{"valid", "cost": None, "errors": [{"rule", "path", "message"}]}`` under ``rules`` (no cost in
        Ascend); the shipped rules by default."""
        errors = check_hero(sheet, rules)
        return {"valid": not errors, "cost": None, "errors": errors}

    def repeated_key_errors(self, paths: list[str]) -> list[dict[str, Any]]:
        """AS-HERO-2: each key a hero sheet's text repeats is a name given twice within its kind."""
        message = "this name appears twice: names are unique within their kind"
        return [{"rule": HERO_2, "path": path, "message": message} for path in paths]

    def odds(self, state: AscendState, query: Mapping[str, Any]) -> dict[str, Any]:
        """The answer to an odds query: ranked Dice Pools for a hero's Test, or odds by the numbers."""
        return answer(state, query)


SYSTEM: RuleSystem[AscendState, Rules] = AscendSystem()
"""The one instance the registry hands out (mypy checks it against the protocol)."""
