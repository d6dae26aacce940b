"""The ledger: a campaign as the fold of its event log.

The log holds the rule system's events and the table's own (:data:`TABLE_EVENTS`). A *command entry* starts
with ``CommandIssued`` (the command as sent, who sent it, which dice it used) and holds every event the
command caused. The game state is the rule system's ``evolve`` over the events of the entries not undone; undo
(``EntryUndone``) never erases anything, it marks an entry, and the state is rebuilt from what remains. The
seed commitments are facts about the dice, not the game: undo never touches them.

The ledger is the in-memory cache the service keeps per campaign, so a command does not replay the log; it
changes only through :meth:`Ledger.apply`, one recorded event at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..store.port import StoredEvent
from ..systems import Event, RuleSystem, Visibility, get_system
from .chain import Heads

__all__ = [
    "OUTSIDE_ENTRIES",
    "PHYSICAL_DICE",
    "TABLE_EVENTS",
    "Entry",
    "Ledger",
    "Note",
    "Seed",
    "is_secret",
    "system_event",
]

TABLE_EVENTS: Final = frozenset(
    {
        "CampaignCreated",
        "PlayerJoined",
        "InviteRenewed",
        "CommandIssued",
        "NoteAdded",
        "EntryUndone",
        "SeedDrawn",
        "SeedCommitted",
        "SeedRevealed",
        "SettingChanged",
        "ChatSaid",
        "PlayerRemoved",
        "CharacterHanded",
    }
)
"""The table's own event types; every other type belongs to the rule system."""
OUTSIDE_ENTRIES: Final = frozenset(
    {"CampaignCreated", "PlayerJoined", "InviteRenewed", "ChatSaid", "PlayerRemoved", "CharacterHanded"}
)
"""Table events that belong to no command entry (so undo never touches them)."""

PHYSICAL_DICE: Final = ("players", "gm")
"""Who may enter physical dice (``faces``): the players for their own characters (the first, the default, as
at a real table), or only the GM."""


def is_secret(value: Any) -> bool:
    """Whether a command (or any part of it) carries ``"visibility": "gm"``."""
    if isinstance(value, Mapping):
        return value.get("visibility") == "gm" or any(is_secret(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(is_secret(v) for v in value)
    return False


def system_event(stored: StoredEvent) -> Event:
    """A recorded rule-system event as the system's own :class:`~talespin.systems.Event`."""
    visibility: Visibility = "gm" if stored.visibility == "gm" else "public"
    return Event(stored.type, dict(stored.data), visibility)


@dataclass(slots=True)
class Entry:
    """One command and the events it caused (versions ``version .. last``)."""

    version: int
    command: Mapping[str, Any]
    by: str
    handled_by: str
    visibility: str
    last: int
    undone: bool = False


@dataclass(frozen=True, slots=True)
class Note:
    """A table-level note."""

    entry: int
    text: str
    visibility: str
    by: str


@dataclass(slots=True)
class Seed:
    """One commitment: its hash, the seed (known to the server until revealed, to all after)."""

    number: int
    sha256: str
    seed: bytes | None = None
    revealed: bool = False


@dataclass(slots=True)
class Ledger:
    """A campaign folded from its log: game state, entries, players, owners, notes and seeds."""

    campaign_id: str
    name: str = ""
    system_name: str = ""
    variant: Mapping[str, Any] = field(default_factory=dict)
    version: int = 0
    state: Any = None
    log: list[StoredEvent] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)
    seeds: dict[int, Seed] = field(default_factory=dict)
    _entry_of: dict[int, int] = field(default_factory=dict)
    _undone: set[int] = field(default_factory=set)
    _notes: list[Note] = field(default_factory=list)
    _owners: dict[str, str | None] = field(default_factory=dict)
    physical_dice: str = PHYSICAL_DICE[0]
    """Who may enter physical dice in this campaign (a table setting: ``set_physical_dice``)."""
    _nonces: set[tuple[int, str]] = field(default_factory=set)
    chains: dict[str, Heads] = field(default_factory=dict)
    """Each role's hash chain over what it sees (kept by :mod:`.views`)."""
    removed: set[str] = field(default_factory=set)

    @property
    def system(self) -> RuleSystem:
        """The campaign's rule system."""
        return get_system(self.system_name)

    @classmethod
    def replay(cls, campaign_id: str, log: Iterable[StoredEvent]) -> Ledger:
        """The ledger of a whole log, folded from the first event."""
        ledger = cls(campaign_id)
        for stored in log:
            ledger.apply(stored)
        return ledger

    def entry_of(self, version: int) -> int | None:
        """The version of the command entry an event belongs to (``None`` outside any entry)."""
        return self._entry_of.get(version)

    def entry(self, version: int) -> Entry | None:
        """The entry starting at ``version``."""
        for entry in reversed(self.entries):
            if entry.version == version:
                return entry
        return None

    def active_entries(self) -> list[Entry]:
        """The entries not undone, oldest first."""
        return [entry for entry in self.entries if not entry.undone]

    def latest_undoable(self) -> Entry | None:
        """The entry ``undo`` would undo now: the newest not undone that is not itself an undo."""
        for entry in reversed(self.entries):
            if not entry.undone and entry.command.get("do") != "undo":
                return entry
        return None

    def open_seed(self) -> Seed | None:
        """The newest commitment not yet revealed (the one server rolls use now)."""
        open_seeds = [seed for seed in self.seeds.values() if not seed.revealed]
        return max(open_seeds, key=lambda seed: seed.number) if open_seeds else None

    def nonce_used(self, seed_number: int, nonce: str) -> bool:
        """Whether a roll under seed ``seed_number`` already used ``nonce``."""
        return (seed_number, nonce) in self._nonces

    def owners(self) -> dict[str, str | None]:
        """Each character's owner (a player id, or ``None`` for the GM's), from ``add_character`` entries."""
        return dict(self._owners)

    def owner_of(self, character: str) -> str | None:
        """The player owning ``character`` (``None`` for the GM's or an unknown one)."""
        return self._owners.get(character)

    def notes(self) -> list[Note]:
        """The notes of entries not undone, oldest first."""
        return [note for note in self._notes if note.entry not in self._undone]

    def _spend_nonce(self, data: Mapping[str, Any]) -> None:
        if data.get("nonce") is not None and data.get("seed_number") is not None:
            self._nonces.add((int(data["seed_number"]), str(data["nonce"])))

    def _own(self, entry: Entry) -> None:
        sheet = entry.command.get("sheet")
        if entry.command.get("do") in {"add_character", "add_hero"} and isinstance(sheet, Mapping):
            self._owners[str(sheet.get("name"))] = None if entry.by == "gm" else entry.by

    def apply(self, stored: StoredEvent) -> None:
        """Fold one recorded event into the ledger."""
        if stored.version <= self.version:
            raise ValueError(f"event {stored.version} does not follow version {self.version}")
        self.log.append(stored)
        self.version = stored.version
        data = stored.data
        kind = stored.type
        if kind == "CampaignCreated":
            self.name = str(data["name"])
            self.system_name = str(data["system"])
            self.variant = dict(data.get("variant") or {})
            self.state = self.system.new_state({"variant": self.variant})
        elif kind == "PlayerJoined":
            self.players[str(data["player_id"])] = str(data["name"])
        elif kind in {"PlayerRemoved", "CharacterHanded"}:
            self._seat(stored)
        elif kind == "CommandIssued":
            entry = Entry(
                stored.version,
                dict(data["command"]),
                str(data["by"]),
                str(data.get("handled_by", "system")),
                stored.visibility,
                stored.version,
            )
            self.entries.append(entry)
            self._own(entry)
            self._spend_nonce(data)
        elif kind == "NoteAdded":
            entry_version = self.entries[-1].version if self.entries else 0
            self._notes.append(
                Note(entry_version, str(data.get("text", "")), stored.visibility, str(data.get("by", "")))
            )
        elif kind in {"SeedDrawn", "SeedCommitted", "SeedRevealed"}:
            self._seed_fact(kind, data)
        elif kind == "SettingChanged":
            self.physical_dice = str(data.get("physical_dice", self.physical_dice))
        elif kind == "EntryUndone":
            target = self.entry(int(data["entry"]))
            if target is not None:
                target.undone = True
                self._undone.add(target.version)
                self._rebuild()
        elif kind not in TABLE_EVENTS:
            self.state = self.system.evolve(self.state, system_event(stored))
        self._attach(stored)

    def _seed_fact(self, kind: str, data: Mapping[str, Any]) -> None:
        """A seed drawn (its bytes, on the server only), committed (its hash) or revealed."""
        seed = self._seed(data)
        if kind == "SeedDrawn":
            seed.seed = bytes.fromhex(str(data["seed"]))
        elif kind == "SeedCommitted":
            seed.sha256 = str(data["commitment"])
        else:
            seed.seed, seed.revealed = bytes.fromhex(str(data["seed"])), True

    def _seat(self, stored: StoredEvent) -> None:
        """A seat change: a removed player's characters pass to the GM; a handed one to its new owner."""
        data = stored.data
        if stored.type == "PlayerRemoved":
            self.players.pop(str(data["player_id"]), None)
            self.removed.add(str(data["player_id"]))
            for name, owner in list(self._owners.items()):
                if owner == data["player_id"]:
                    self._owners[name] = None
        elif stored.type == "CharacterHanded" and str(data["character"]) in self._owners:
            to = data.get("to")
            self._owners[str(data["character"])] = None if to is None else str(to)

    def _attach(self, stored: StoredEvent) -> None:
        if stored.type in OUTSIDE_ENTRIES or not self.entries:
            return
        current = self.entries[-1]
        if stored.type != "CommandIssued" or current.version == stored.version:
            current.last = stored.version
            self._entry_of[stored.version] = current.version

    def _seed(self, data: Mapping[str, Any]) -> Seed:
        number = int(data["number"])
        return self.seeds.setdefault(number, Seed(number, str(data.get("commitment", ""))))

    def _rebuild(self) -> None:
        self.physical_dice = PHYSICAL_DICE[0]
        for stored in self.log:
            if stored.type == "SettingChanged" and self._entry_of.get(stored.version) not in self._undone:
                self.physical_dice = str(stored.data.get("physical_dice", self.physical_dice))
        self._owners = {}
        entries = {entry.version: entry for entry in self.entries}
        for stored in self.log:  # in order: who added a character, then every seat change after it
            entry = entries.get(stored.version)
            if entry is not None and not entry.undone:
                self._own(entry)
            elif stored.type in {"PlayerRemoved", "CharacterHanded"}:
                self._seat(stored)
        state = self.system.new_state({"variant": self.variant})
        for stored in self.log:
            if stored.type in TABLE_EVENTS or self._entry_of.get(stored.version) in self._undone:
                continue
            state = self.system.evolve(state, system_event(stored))
        self.state = state
