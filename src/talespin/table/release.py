"""What the players have been shown, in the order they were shown it: blind rolls held back until revealed.

A *blind roll* is a GM command sent with ``"visibility": "gm"`` that the rule system decided with dice (its
``CommandIssued`` says ``"blind": {"number", "commitment"}``). Its dice, its total, its success and every
consequence it has (Crisis, Obstruction, an obstacle passed, Flow, wounds, Rising Tension, Triggers fired,
Successes, margins) are *held*: no player receives any of them until the GM reveals the roll. In their place
the players receive one ``BlindRollMade`` ``{"blind", "by", "actor", "commitment"}`` (who rolled, for
which character, and the SHA-256 of the roll's own secret seed), nothing that depends on the dice.

While a blind roll is held, every later command entry is held too (its outcome was decided on a state that
includes the blind roll's consequences, so it could give them away): the players receive an
``EntryWithheld`` ``{"by", "do", "actor"}`` for it, naming the command but nothing it caused. Public notes
and table talk are not held. ``BlindRollRevealed`` (the GM's ``reveal``, or a scene's end when the campaign
says so) releases the revealed roll and every entry held after it up to the next blind roll still held, in
the order they were recorded.

A GM-only command (a hidden Trigger, say) sent while a blind roll is held gets no stand-in players can see:
it is held like the others, but nothing of it, not even its count, reaches them.

The GM may ``undo`` a blind roll before revealing it (only once every entry after it is undone, as undo
walks back). The players then receive the undo and an ``EntryUndone`` naming the roll's stand-in (its
``do`` left out: what was rolled stays secret), the roll stops being pending, and what was held behind it
is released, except the entries that were undone while held (their outcomes were decided on the roll's
consequences, so they stay with the GM, as the roll's dice do; the roll can no longer be revealed).

:class:`Release` folds the log into that sequence of :class:`Shown` items (shared by all players; a whisper
is kept for the one player it is with) and into the game state the players know: the rule system's fold of
the events released so far. Everything a player receives — state, events, odds, exports — is made from
it, so nothing a blind roll or a GM-only note changed can reach a player before the reveal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final

from ..store.port import StoredEvent
from ..systems import Event, RulesData, SystemState, get_system
from .placeholders import BLIND_MADE, BLIND_REVEALED, WITHHELD

__all__ = ["FREE_WHILE_HELD", "NotStarted", "Release", "Shown"]

FREE_WHILE_HELD: Final = frozenset({"note", "reveal"})
"""Table commands never held back behind a blind roll: they cause nothing a blind roll could change."""


class NotStarted:
    """The game state of a log that has no ``CampaignCreated`` yet: there are no rules to read."""

    @property
    def rules(self) -> RulesData:
        """Always refused: a campaign's state begins with its ``CampaignCreated``."""
        raise LookupError("the campaign has no state before its CampaignCreated event")


@dataclass(frozen=True, slots=True)
class Shown:
    """One item the players receive: a recorded event (``stored``) or a stand-in for a held entry.

    ``at`` is the version of the recorded event whose arrival released it (a reveal releases many at once);
    ``entry`` the version of the command entry it belongs to; ``revealed`` marks the events of a revealed
    blind roll (shown to players as public).
    """

    at: int
    stored: StoredEvent
    entry: int | None
    revealed: bool = False
    stand_in: bool = False


@dataclass(slots=True)
class Release:
    """The players' side of the record, kept up to date one recorded event at a time."""

    system_name: str = ""
    variant: dict[str, Any] = field(default_factory=dict)
    shown: list[Shown] = field(default_factory=list)
    state: SystemState = field(default_factory=NotStarted)
    """The game state as the players know it."""
    held_blind: list[int] = field(default_factory=list)
    """Entry versions of blind rolls not yet revealed, oldest first."""
    revealed_blind: set[int] = field(default_factory=set)
    _blind_entries: dict[int, int] = field(default_factory=dict)
    _revealed_numbers: set[int] = field(default_factory=set)
    _held: list[tuple[StoredEvent, int]] = field(default_factory=list)
    _held_entries: set[int] = field(default_factory=set)
    _events: list[tuple[StoredEvent, int]] = field(default_factory=list)
    _undone: set[int] = field(default_factory=set)
    _unseen_held: set[int] = field(default_factory=set)
    """Held GM-only entries: players get no stand-in for them, and they are not counted."""
    cancelled_blind: set[int] = field(default_factory=set)
    """Entry versions of blind rolls the GM undid before revealing them."""
    _undo_held: set[int] = field(default_factory=set)
    """Blind rolls undone whose undo is itself held behind an earlier blind roll: still pending to players."""

    @property
    def pending_blind(self) -> int:
        """How many blind rolls players have received neither the reveal nor the undo of."""
        return len(self.held_blind) + len(self._undo_held)

    @property
    def withheld(self) -> int:
        """How many command entries the players have not seen the outcome of yet (that they know of)."""
        return len(self._held_entries - self._unseen_held)

    def held(self, entry: int) -> bool:
        """Whether the entry starting at ``entry`` is held back from the players now."""
        return entry in self._held_entries

    def start(self, system_name: str, variant: dict[str, Any]) -> None:
        """The campaign's system and variant are known (its ``CampaignCreated``)."""
        self.system_name, self.variant = system_name, dict(variant)
        self.state = get_system(system_name).new_state({"variant": self.variant})

    def take(
        self, stored: StoredEvent, entry: int | None, do: str | None, table_events: frozenset[str]
    ) -> None:
        """Fold one recorded event: show it, hold it, or stand in for it (``entry``: its entry's version)."""
        if stored.visibility == "server":
            return
        if stored.type == "CommandIssued":
            self._issued(stored, do)
            return
        if stored.type == "EntryUndone":
            stored = self._undo_shown(stored)
            if int(stored.data["entry"]) in self.held_blind:
                self._cancel(int(stored.data["entry"]), stored.version, table_events)
                if entry is not None and entry in self._held_entries:
                    self._undo_held.add(int(stored.data["entry"]))
        if stored.type == BLIND_REVEALED and entry is not None and entry in self._held_entries:
            self._reveal_number(stored, table_events)  # at a scene's end: the end itself may be released
        if entry is not None and entry in self._held_entries:
            self._held.append((stored, entry))
            return
        self._show(Shown(stored.version, stored, entry), table_events)
        if stored.type == BLIND_REVEALED and int(stored.data["blind"]) not in self._revealed_numbers:
            self._reveal_number(stored, table_events)

    def _reveal_number(self, stored: StoredEvent, table_events: frozenset[str]) -> None:
        number = int(stored.data["blind"])
        self._revealed_numbers.add(number)
        if number in self._blind_entries:
            self._reveal(self._blind_entries[number], stored.version, table_events)

    def _undo_shown(self, stored: StoredEvent) -> StoredEvent:
        """The ``EntryUndone`` players get: of a blind roll, public, naming no command before its reveal."""
        target = int(stored.data["entry"])
        if target not in self._blind_entries.values():
            return stored
        data = dict(stored.data)
        if target not in self.revealed_blind:
            data["do"] = None
        return replace(stored, data=data, visibility="public")

    def _cancel(self, blind: int, at: int, table_events: frozenset[str]) -> None:
        """The GM undid the held blind roll of entry ``blind``: release what it held, keep what it decided."""
        undone = {blind} | {
            int(s.data["entry"]) for s, e in self._held if s.type == "EntryUndone" and e > blind
        }
        self.held_blind.remove(blind)
        self.cancelled_blind.add(blind)
        boundary = min(self.held_blind, default=None)
        kept = [(s, e) for s, e in self._held if e not in undone]
        released = [(s, e) for s, e in kept if boundary is None or e < boundary]
        self._held = [(s, e) for s, e in kept if boundary is not None and e >= boundary]
        self._held_entries = {e for _, e in self._held}
        self._unseen_held &= self._held_entries
        for stored, of in released:
            self._show(Shown(at, stored, of), table_events)

    def _issued(self, stored: StoredEvent, do: str | None) -> None:
        data, version = stored.data, stored.version
        blind = data.get("blind")
        if blind is not None and int(blind["number"]) in self._revealed_numbers:
            blind = None  # a record read in a player's order: its reveal came first
        if blind is not None:
            self._blind_entries[int(blind["number"])] = version
            self.held_blind.append(version)
            self._stand_in(
                stored,
                BLIND_MADE,
                {
                    "blind": blind.get("number"),
                    "by": data.get("by"),
                    "actor": stored.actor,
                    "commitment": blind.get("commitment"),
                },
            )
        elif self.held_blind and do not in FREE_WHILE_HELD:
            withheld = {"by": data.get("by"), "do": do, "actor": stored.actor}
            self._stand_in(stored, WITHHELD, withheld, stored.visibility)  # a GM-only one: unseen
            if stored.visibility != "public":
                self._unseen_held.add(version)
        else:
            self.shown.append(Shown(version, stored, version))
            return
        self._held_entries.add(version)
        self._held.append((stored, version))

    def _stand_in(
        self, stored: StoredEvent, kind: str, data: dict[str, Any], visibility: str = "public"
    ) -> None:
        stand_in = replace(stored, type=kind, data=data, visibility=visibility)
        self.shown.append(Shown(stored.version, stand_in, None, stand_in=True))

    def _show(self, shown: Shown, table_events: frozenset[str]) -> None:
        self.shown.append(shown)
        stored = shown.stored
        if stored.type == "EntryUndone":
            self._undone.add(int(stored.data["entry"]))
            self._undo_held.discard(int(stored.data["entry"]))
            self._refold()
        elif stored.type not in table_events and shown.entry is not None:
            self._events.append((stored, shown.entry))
            if shown.entry not in self._undone:
                self.state = self._evolve(self.state, stored)

    def _reveal(self, entry: int, at: int, table_events: frozenset[str]) -> None:
        if entry in self.held_blind:
            self.held_blind.remove(entry)
        self.revealed_blind.add(entry)
        boundary = min(self.held_blind, default=None)
        released = [(s, e) for s, e in self._held if boundary is None or e < boundary]
        self._held = [(s, e) for s, e in self._held if boundary is not None and e >= boundary]
        self._held_entries = {e for _, e in self._held}
        for stored, of in released:
            self._show(Shown(at, stored, of, revealed=of in self.revealed_blind), table_events)

    def _evolve(self, state: SystemState, stored: StoredEvent) -> SystemState:
        event = Event(stored.type, dict(stored.data), "gm" if stored.visibility == "gm" else "public")
        return get_system(self.system_name).evolve(state, event)

    def _refold(self) -> None:
        state = get_system(self.system_name).new_state({"variant": self.variant})
        for stored, entry in self._events:
            if entry not in self._undone:
                state = self._evolve(state, stored)
        self.state = state
