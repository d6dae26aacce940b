"""The Inciting Incident rule system: the object the registry returns for ``get_system("ii")``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dice import Rng
from ..errors import MalformedCommand
from ..protocol import Command, Event, Role, RuleSystem
from ..registry import registered
from .decide import actors, decide
from .evolve import evolve
from .legal import legal_commands
from .odds import odds
from .rules import Rules, load_rules
from .sheet import sheet_cost
from .sheet_checks import check_sheet
from .state import GameState
from .view import redact, view

__all__ = ["SYSTEM", "IncitingIncident", "new_state"]


def new_state(setup: Mapping[str, Any] | None = None) -> GameState:
    """The starting state from ``{"variant": {...}, "rising_tension": n, "characters": [sheets]}``."""
    setup = setup or {}
    unknown = set(setup) - {"variant", "rising_tension", "characters", "system"}
    if unknown:
        raise MalformedCommand(f"unknown setup key(s): {', '.join(sorted(unknown))}", code="unknown_key")
    rules = load_rules(setup.get("variant") or {})
    tension = setup.get("rising_tension", 0)
    if isinstance(tension, bool) or not isinstance(tension, int) or tension < rules.rising_tension.floor:
        raise MalformedCommand(
            f"rising_tension must be a whole number ≥ 0, got {tension!r}", code="bad_field"
        )
    state = GameState(rules, rising_tension=tension)
    for raw in setup.get("characters") or []:
        for event in decide(state, {"do": "add_character", "sheet": raw}, _NoDice()):
            state = evolve(state, event)
    return state


class _NoDice:
    def randrange(self, stop: int, /) -> int:
        raise MalformedCommand("no dice are rolled while setting up", code="malformed")


class IncitingIncident:
    """Inciting Incident: pure functions over :class:`~.state.GameState`."""

    name = registered(__package__).name
    aliases = registered(__package__).aliases
    label = registered(__package__).label
    scenes = True
    joins = frozenset({"add_character"})

    def rules(self, variant: Mapping[str, Any] | None = None) -> Rules:
        """The rules data with ``variant`` laid over the shipped rules (see :func:`.rules.load_rules`)."""
        return load_rules(variant or {})

    def new_state(self, setup: Mapping[str, Any]) -> GameState:
        """See :func:`new_state`."""
        return new_state(setup)

    def decide(self, state: GameState, command: Command, rng: Rng | int) -> list[Event]:
        """See :func:`.decide.decide`."""
        return decide(state, command, rng)

    def evolve(self, state: GameState, event: Event) -> GameState:
        """See :func:`.evolve.evolve`."""
        return evolve(state, event)

    def view(self, state: GameState, role: Role) -> dict[str, Any]:
        """See :func:`.view.view`."""
        return view(state, role)

    def redact(self, event: Event) -> Event | None:
        """See :func:`.view.redact`."""
        return redact(event)

    def actors(self, state: GameState, command: Command) -> frozenset[str]:
        """See :func:`.decide.actors`."""
        return actors(state, command)

    def legal_commands(self, state: GameState, role: Role) -> list[dict[str, Any]]:
        """See :func:`.legal.legal_commands`."""
        return legal_commands(state, role)

    def validate_sheet(self, sheet: object, rules: Rules | None = None) -> dict[str, Any]:
        """``{"valid", "cost", "errors"}`` for a character sheet under ``rules`` (II-CHAR-7: every broken
        rule at once); the shipped rules by default."""
        rules = rules or load_rules({})
        parsed, errors = check_sheet(sheet, rules)
        cost = sheet_cost(parsed, rules) if parsed is not None and not errors else None
        return {"valid": not errors, "cost": cost, "errors": [e.to_json() for e in errors]}

    def odds(self, state: GameState, query: Mapping[str, Any]) -> dict[str, Any]:
        """See :func:`.odds.odds`."""
        return odds(state, query)


SYSTEM: RuleSystem[GameState, Rules] = IncitingIncident()
"""The one instance the registry returns for ``get_system("ii")`` (mypy checks it against the protocol)."""
