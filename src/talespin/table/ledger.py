"""The ledger: a campaign as the fold of its event log.

The log holds the rule system's events and the table's own (:data:`TABLE_EVENTS`). A *command entry* starts
with ``CommandIssued`` (the command as sent, who sent it, which dice it used) and holds every event the
command caused. The game state is the rule system's ``evolve`` over the events of the entries not undone; undo
(``EntryUndone``) never erases anything, it marks an entry, and the state is rebuilt from what remains. The
seed commitments are facts about the dice, not the game: undo never touches them.

The ledger is the in-memory cache the service keeps per campaign, so a command does not replay the log; it
changes only through :meth:`Ledger.apply`, one recorded event at a time. Every :data:`CHECKPOINT_EVERY`
events it keeps the game state as it stands (a *checkpoint*; states are frozen, so this is one reference),
and an undo replays only from the newest checkpoint before the entry it undoes, not from the first event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..store.port import StoredEvent
from ..systems import AnySystem, Event, SystemState, Visibility, get_system
from .chain import Heads
from .log import Log
from .placeholders import BLIND_EVENTS, BLIND_REVEALED, BLIND_SEED, STAND_INS
from .release import NotStarted, Release
from .upcast import upcast_stored

__all__ = [
    "BLIND_REVEAL",
    "CHECKPOINT_EVERY",
    "OUTSIDE_ENTRIES",
    "PHYSICAL_DICE",
    "TABLE_EVENTS",
    "BlindSeed",
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
        *BLIND_EVENTS,
    }
)
"""The table's own event types; every other type belongs to the rule system."""
OUTSIDE_ENTRIES: Final = frozenset(
    {
        "CampaignCreated",
        "PlayerJoined",
        "InviteRenewed",
        "ChatSaid",
        "PlayerRemoved",
        "CharacterHanded",
        *STAND_INS,
    }
)
"""Table events that belong to no command entry (so undo never touches them)."""

CHECKPOINT_EVERY: Final = 64
"""How many events apart the ledger keeps a checkpoint of the game state (what an undo replays from)."""

BLIND_REVEAL: Final = ("gm", "scene_end")
"""When blind rolls are revealed (``set_blind_reveal``): when the GM sends ``reveal`` (the first, the
default), or also when a scene ends."""
PHYSICAL_DICE: Final = ("players", "gm")
"""Who may enter physical dice (``faces``): the players for their own characters (the first, the default, as
at a real table), or only the GM."""


_PLAIN: Final = (str, int, float, bool, type(None))
"""The types of a command's leaves: nothing in them can be secret, so they are not looked into."""


def is_secret(value: Any) -> bool:
    """Whether a command (or any part of it) carries ``"visibility": "gm"``.

    >>> is_secret({"do": "note", "text": "x", "visibility": "gm"}), is_secret({"do": "test", "hero": "Ann"})
    (True, False)
    >>> is_secret({"do": "opposed_test", "attacker": {"hero": "Ann", "visibility": "gm"}})
    True
    """
    if isinstance(value, Mapping):
        if value.get("visibility") == "gm":
            return True
        parts: Iterable[Any] = value.values()
    elif isinstance(value, list | tuple):
        parts = value
    else:
        return False
    return any(type(part) not in _PLAIN and is_secret(part) for part in parts)


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
class BlindSeed:
    """A blind roll's own seed: its number, the entry it rolled for, its hash and (on the server) the seed."""

    number: int
    entry: int
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
    state: SystemState = field(default_factory=NotStarted)
    log: Log = field(default_factory=Log)
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
    invite_hash: str | None = None
    """The hash of the newest renewed invite (``None``: the one made with the campaign is in force)."""
    checkpoints: list[tuple[int, SystemState]] = field(default_factory=list)
    """``(version, state)``: the game state after every event up to ``version``, oldest first."""
    _settings: list[tuple[int, str]] = field(default_factory=list)
    blind_reveal: str = BLIND_REVEAL[0]
    """When blind rolls are revealed: by the GM's ``reveal`` only, or also at every scene's end."""
    _reveal_settings: list[tuple[int, str]] = field(default_factory=list)
    _seatings: list[Entry | StoredEvent] = field(default_factory=list)
    _system: AnySystem | None = None
    release: Release = field(default_factory=Release)
    """What the players have been shown: blind rolls and what followed them held until revealed."""
    streams: dict[str, Any] = field(default_factory=dict)
    """Each player's numbered stream of what it received (kept by :mod:`.stream`)."""
    blind: dict[int, BlindSeed] = field(default_factory=dict)
    """Every blind roll's seed, by its number."""
    legal_memo: dict[tuple[str, int], list[dict[str, Any]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """The rule system's legal commands by ``(role, version)``, newest version only (kept by :mod:`.legal`):
    found once per version for the GM's true state and once for the state every player knows, however
    many viewers ask."""
    offers_memo: tuple[list[dict[str, Any]], list[tuple[dict[str, Any], frozenset[str]]]] | None = field(
        default=None, compare=False, repr=False
    )
    """The players' legal commands last found and those a player could be offered, each with the
    characters it acts for (kept by :mod:`.legal`): each player's list is cut from it by ownership."""

    @property
    def system(self) -> AnySystem:
        """The campaign's rule system."""
        if self._system is None or self._system.name != self.system_name:
            self._system = get_system(self.system_name)
        return self._system

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
        """The entry ``undo`` would undo now: the newest not undone that is not an undo (nor a reveal)."""
        for entry in reversed(self.entries):
            if not entry.undone and entry.command.get("do") not in {"undo", "reveal"}:
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

    def _adds_character(self, entry: Entry) -> bool:
        return entry.command.get("do") in self.system.joins and isinstance(
            entry.command.get("sheet"), Mapping
        )

    def _own(self, entry: Entry) -> None:
        if self._adds_character(entry):
            sheet = entry.command["sheet"]
            self._owners[str(sheet.get("name"))] = None if entry.by == "gm" else entry.by

    def apply(self, stored: StoredEvent) -> None:
        """Fold one recorded event into the ledger, upcast first from the schema it was written in."""
        if stored.version <= self.version:
            raise ValueError(f"event {stored.version} does not follow version {self.version}")
        stored = upcast_stored(stored)  # SchemaError (a ValueError) for a schema newer than this code's
        self.log.append(stored)
        self.version = stored.version
        data = stored.data
        kind = stored.type
        if kind == "CampaignCreated":
            self.name = str(data["name"])
            self.system_name = str(data["system"])
            self.variant = dict(data.get("variant") or {})
            self.state = self.system.new_state({"variant": self.variant})
            self.release.start(self.system_name, dict(self.variant))
        elif kind == "PlayerJoined":
            self.players[str(data["player_id"])] = str(data["name"])
        elif kind in {"InviteRenewed", "SettingChanged"}:
            self._setting(stored)
        elif kind in {"PlayerRemoved", "CharacterHanded"}:
            self._seatings.append(stored)
            self._seat(stored)
        elif kind == "CommandIssued":
            self._issue(stored)
        elif kind == "NoteAdded":
            entry_version = self.entries[-1].version if self.entries else 0
            self._notes.append(
                Note(entry_version, str(data.get("text", "")), stored.visibility, str(data.get("by", "")))
            )
        elif kind in {"SeedDrawn", "SeedCommitted", "SeedRevealed"}:
            self._seed_fact(kind, data)
        elif kind in {BLIND_SEED, BLIND_REVEALED}:
            self._blind_fact(kind, data)
        elif kind == "EntryUndone":
            target = self.entry(int(data["entry"]))
            if target is not None:
                target.undone = True
                self._undone.add(target.version)
                self._rebuild(target.version)
        elif kind not in TABLE_EVENTS:
            self.state = self.system.evolve(self.state, system_event(stored))
        self._attach(stored)
        self._checkpoint(stored.version)
        do = self.entries[-1].command.get("do") if kind == "CommandIssued" else None
        self.release.take(
            stored, self.entry_of(stored.version), None if do is None else str(do), TABLE_EVENTS
        )

    def _setting(self, stored: StoredEvent) -> None:
        """A table setting changed (who may enter physical dice), or the GM renewed the invite."""
        if stored.type == "InviteRenewed":
            self.invite_hash = str(stored.data["invite_token_hash"])
        elif "blind_reveal" in stored.data:
            self.blind_reveal = str(stored.data["blind_reveal"])
            self._reveal_settings.append((stored.version, self.blind_reveal))
        else:
            self.physical_dice = str(stored.data.get("physical_dice", self.physical_dice))
            self._settings.append((stored.version, self.physical_dice))

    def _checkpoint(self, version: int) -> None:
        if version % CHECKPOINT_EVERY == 0 and (not self.checkpoints or self.checkpoints[-1][0] < version):
            self.checkpoints.append((version, self.state))

    def _issue(self, stored: StoredEvent) -> None:
        """A command entry begins: who sent what, the nonce it spent, the blind roll it is."""
        data = stored.data
        entry = Entry(
            stored.version,
            dict(data["command"]),
            str(data["by"]),
            str(data.get("handled_by", "system")),
            stored.visibility,
            stored.version,
        )
        self.entries.append(entry)
        if self._adds_character(entry):
            self._seatings.append(entry)
        self._own(entry)
        self._spend_nonce(data)
        blind = data.get("blind")
        if isinstance(blind, Mapping):
            number = int(blind["number"])
            self.blind[number] = BlindSeed(number, stored.version, str(blind["commitment"]))

    def _blind_fact(self, kind: str, data: Mapping[str, Any]) -> None:
        """A blind roll's seed drawn (on the server only) or revealed."""
        found = self.blind.get(int(data["blind"]))
        if found is not None:
            found.seed = bytes.fromhex(str(data["seed"]))
            found.revealed = found.revealed or kind == BLIND_REVEALED

    def blind_of(self, entry: int) -> BlindSeed | None:
        """The blind roll recorded by the entry starting at ``entry``, if it is one."""
        return next((seed for seed in self.blind.values() if seed.entry == entry), None)

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

    def _rebuild(self, undone: int) -> None:
        """Fold again what the undo of the entry at version ``undone`` changes.

        Settings and seats are refolded from their own short lists; the game state from the newest
        checkpoint before ``undone`` (the entry's events all come after it), so an undo near the end of a
        long log replays a few events, not the log.
        """
        self.physical_dice, self.blind_reveal = PHYSICAL_DICE[0], BLIND_REVEAL[0]
        for version, value in self._settings:
            if self._entry_of.get(version) not in self._undone:
                self.physical_dice = value
        for version, value in self._reveal_settings:
            if self._entry_of.get(version) not in self._undone:
                self.blind_reveal = value
        self._owners = {}
        for fact in self._seatings:  # in order: who added a character, then every seat change after it
            if isinstance(fact, Entry):
                if not fact.undone:
                    self._own(fact)
            else:
                self._seat(fact)
        while self.checkpoints and self.checkpoints[-1][0] >= undone:
            self.checkpoints.pop()
        start, state = (
            self.checkpoints[-1]
            if self.checkpoints
            else (0, self.system.new_state({"variant": self.variant}))
        )
        for stored in self.log[start:]:
            if stored.type not in TABLE_EVENTS and self._entry_of.get(stored.version) not in self._undone:
                state = self.system.evolve(state, system_event(stored))
            self.state = state
            self._checkpoint(stored.version)
        self.state = state
