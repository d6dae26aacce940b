"""The small protocol every rule system implements, so the table and the CLI treat them alike.

A system is a set of pure functions over frozen state:

* ``new_state(setup)`` builds the starting state of a campaign from its setup (rules-data overrides,
  characters, starting counters);
* ``decide(state, command, rng)`` checks one command (a mapping with ``"do"``, the vocabulary of scene
  scripts and the HTTP API) against the rules and returns the events it causes — or raises a
  :class:`~talespin.systems.errors.RulesError` and changes nothing;
* ``evolve(state, event)`` applies one event. Events carry every rolled face, so replaying them gives the
  state back exactly, with no generator;
* ``view(state, role)`` is the JSON-ready state as a GM or a player may see it (GM-only Triggers and notes cut
  out for players), and ``redact(event)`` is an event as a player may see it (``None`` when a player must not
  learn of it at all; a blind roll keeps only the fact that a roll happened);
* ``validate_sheet(sheet)`` checks a character or hero sheet (every broken rule at once);
* ``actors(state, command)`` names every character a command acts for, in every position it names one (an
  opposed Test's attacker and defender, every step of an extended Test; empty for the GM's own commands), so
  the table can let a player act only for the characters it owns;
* ``odds(state, query)`` answers "what would each choice likely cost?" before anyone clicks: for Inciting
  Incident the actions a character may take now, each with P(success) and expected Crisis; for Ascend the
  ranked Dice Pool choices of a Test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ..dice import Rng

__all__ = ["Command", "Event", "Role", "RuleSystem", "Visibility"]

Visibility = Literal["public", "gm"]
Role = Literal["gm", "player"]
Command = Mapping[str, Any]
"""A command as written in a script or sent over HTTP: ``{"do": "simple_obstacle", ...}``."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in the past tense (``"CrisisRaised"``), with JSON-ready data.

    ``visibility`` is ``"gm"`` for what only the GM may see (a GM-only Trigger being added, a blind roll).
    ``actor`` names the character whose action caused it, when there is one.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visibility: Visibility = "public"

    def to_json(self) -> dict[str, Any]:
        """``{"type", "data", "visibility"}``."""
        return {"type": self.type, "data": dict(self.data), "visibility": self.visibility}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Event:
        """The inverse of :meth:`to_json`."""
        return cls(str(raw["type"]), dict(raw.get("data", {})), raw.get("visibility", "public"))


class RuleSystem(Protocol):
    """What the table, the CLI and the lab need from a rule system."""

    name: str
    """The canonical name, e.g. ``"inciting-incident"``."""
    aliases: tuple[str, ...]
    """Other names it is found by, e.g. ``("ii",)``."""

    def new_state(self, setup: Mapping[str, Any]) -> Any:
        """The starting state from a setup mapping (``variant``, characters or heroes, counters)."""
        ...

    def decide(self, state: Any, command: Command, rng: Rng | int) -> list[Event]:
        """The events one command causes, or a RulesError, nothing changed (``rng``: generator or seed)."""
        ...

    def evolve(self, state: Any, event: Event) -> Any:
        """The state after one event."""
        ...

    def view(self, state: Any, role: Role) -> dict[str, Any]:
        """The state as JSON, as a GM or a player may see it."""
        ...

    def redact(self, event: Event) -> Event | None:
        """An event as a player may see it, or ``None`` when a player must not see it at all."""
        ...

    def actors(self, state: Any, command: Command) -> frozenset[str]:
        """Every character (or hero) the command acts for; empty for a GM's command."""
        ...

    def validate_sheet(self, sheet: Any) -> dict[str, Any]:
        """A character or hero sheet checked against every sheet rule at once.

        Returns the contract's ``{"valid": bool, "cost": int | None, "errors": [...]}``, each error
        ``{"rule", "path", "message"}``.
        """
        ...

    def odds(self, state: Any, query: Mapping[str, Any]) -> dict[str, Any]:
        """The choices open now with their exact odds, JSON-ready (see docs/state-views.md)."""
        ...
