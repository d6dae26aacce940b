"""The small protocol every rule system implements, so the table and the CLI treat them alike.

A system is a set of pure functions over frozen state, typed by its own state and rules data
(``RuleSystem[GameState, Rules]``; each system's module checks its object against the protocol):

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
* ``rules(variant)`` is the rules data of a campaign playing ``variant`` (overrides of the shipped rules), and
  ``validate_sheet(sheet, rules)`` checks a character or hero sheet against those rules (every broken rule
  at once), so a sheet is judged by the limits the campaign will apply;
* ``actors(state, command)`` names every character a command acts for, in every position it names one (an
  opposed Test's attacker and defender, every step of an extended Test; empty for the GM's own commands), so
  the table can let a player act only for the characters it owns;
* ``legal_commands(state, role)`` lists the commands ``role`` may send now, each a complete command the
  system accepts in ``state`` (as python-chess's legal moves); the table keeps a player's to those acting
  only for characters it owns;
* ``odds(state, query)`` answers "what would each choice likely cost?" before anyone clicks: for Inciting
  Incident the actions a character may take now, each with P(success) and expected Crisis; for Ascend the
  ranked Dice Pool choices of a Test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    from ..dice import Rng

__all__ = [
    "AnySystem",
    "Command",
    "Event",
    "Role",
    "RuleSystem",
    "RulesData",
    "SystemState",
    "Visibility",
]

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


class RulesData(Protocol):
    """What every system's rules data has: the version of the rules file it was read from."""

    @property
    def version(self) -> str:
        """The rules file's version, e.g. ``"1.2"``."""
        ...


class SystemState(Protocol):
    """What every system's frozen state has: the rules data it is played under."""

    @property
    def rules(self) -> RulesData:
        """The rules in force (the shipped rules with the campaign's variant laid over them)."""
        ...


StateT = TypeVar("StateT", bound=SystemState)
RulesT = TypeVar("RulesT", bound=RulesData)


class RuleSystem(Protocol[StateT, RulesT]):
    """What the table, the CLI and the lab need from a rule system whose state is ``StateT``."""

    name: str
    """The canonical name, e.g. ``"inciting-incident"`` (owned by the registry)."""
    aliases: tuple[str, ...]
    """Other names it is found by, e.g. ``("ii",)`` (owned by the registry)."""
    label: str
    """Its name for people, e.g. ``"Inciting Incident"``."""
    scenes: bool
    """Whether its rules have scenes; for a system without, the table runs ``start_scene``/``end_scene``."""
    joins: frozenset[str]
    """The commands by which a character enters the campaign (``add_character`` and its aliases)."""

    def rules(self, variant: Mapping[str, Any] | None = None) -> RulesT:
        """The rules data with a campaign's ``variant`` laid over the shipped rules (checked)."""
        ...

    def new_state(self, setup: Mapping[str, Any]) -> StateT:
        """The starting state from a setup mapping (``variant``, characters or heroes, counters)."""
        ...

    def decide(self, state: StateT, command: Command, rng: Rng | int) -> list[Event]:
        """The events one command causes, or a RulesError, nothing changed (``rng``: generator or seed)."""
        ...

    def evolve(self, state: StateT, event: Event) -> StateT:
        """The state after one event."""
        ...

    def view(self, state: StateT, role: Role) -> dict[str, Any]:
        """The state as JSON, as a GM or a player may see it."""
        ...

    def redact(self, event: Event) -> Event | None:
        """An event as a player may see it, or ``None`` when a player must not see it at all."""
        ...

    def actors(self, state: StateT, command: Command) -> frozenset[str]:
        """Every character (or hero) the command acts for; empty for a GM's command."""
        ...

    def legal_commands(self, state: StateT, role: Role) -> list[dict[str, Any]]:
        """Every command ``role`` may send now that ``decide`` accepts in ``state`` (see docs/contracts.md).

        Each is complete (it can be sent as it is); a roll's dice are the server's, modifiers left out.
        A player's list names characters of either side: the table keeps those acting for its own.
        """
        ...

    def validate_sheet(self, sheet: object, rules: RulesT | None = None) -> dict[str, Any]:
        """A character or hero sheet checked against every sheet rule of ``rules`` (default: shipped).

        Returns the contract's ``{"valid": bool, "cost": int | None, "errors": [...]}``, each error
        ``{"rule", "path", "message"}``.
        """
        ...

    def odds(self, state: StateT, query: Mapping[str, Any]) -> dict[str, Any]:
        """The choices open now with their exact odds, JSON-ready (see docs/state-views.md)."""
        ...


AnySystem = RuleSystem[SystemState, RulesData]
"""A system seen from the table, which runs every system alike: the state is any system's.

The registry hands systems out at this type; the table only ever passes a system the state that system
made (its ``new_state`` and ``evolve``), so each call meets the system's own state type.
"""
