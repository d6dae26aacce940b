"""The store port: what the game table needs from a durable, append-only event log.

The table service speaks only to :class:`EventStore`; the SQLAlchemy adapter in :mod:`.sql` implements it for
SQLite and PostgreSQL, and one contract test suite (``tests/store/``) runs against both. This module imports
no database library, so the table layer stays pure of database code.

A campaign's log is a sequence of events numbered 1, 2, 3, … (its *version* is the number of the last one).
Appending names the version it expects to extend; the database's uniqueness of ``(campaign, version)``
refuses a second writer of the same number, even from another process, and the adapter reports it as
:class:`VersionConflict` with nothing written.

Several processes may share one store. :meth:`EventStore.head` is the cheap check of a campaign's latest
committed version (one index lookup), so a process can tell whether its cached copy is behind; a store that
can announce commits (PostgreSQL's LISTEN/NOTIFY) also offers a :class:`ChangeFeed`, so a process learns of
another's commits as they happen instead of on its next read.

A store also keeps *snapshots*: a campaign's folded ledger at some version, as opaque bytes the table
layer writes and reads back (:mod:`talespin.table.snapshots`: plain data it checks before use, for the
store is not trusted to run code), each tagged with a *fingerprint* of the code that folded it. Events
are never changed, so a snapshot at version *v* holds for every process that runs
the same code; one with another fingerprint is never handed out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = [
    "CampaignRecord",
    "ChangeFeed",
    "ChangeHandler",
    "EventStore",
    "LinkHandler",
    "NewEvent",
    "PlayerRecord",
    "Snapshot",
    "StoreError",
    "StoredEvent",
    "UnknownCampaign",
    "VersionConflict",
]


class StoreError(Exception):
    """Root of the errors a store raises on purpose."""

    code = "store_error"


class VersionConflict(StoreError):
    """The log has moved past the version the writer expected; nothing was written."""

    code = "stale_version"

    def __init__(self, campaign_id: str, expected: int) -> None:
        super().__init__(f"campaign {campaign_id} is no longer at version {expected}")
        self.campaign_id = campaign_id
        self.expected = expected


class UnknownCampaign(StoreError):
    """No campaign has this id."""

    code = "unknown_campaign"


@dataclass(frozen=True, slots=True)
class CampaignRecord:
    """A campaign's fixed facts: who may run it is known only by the SHA-256 of its tokens."""

    id: str
    name: str
    system: str
    variant: Mapping[str, Any]
    gm_token_hash: str
    invite_token_hash: str
    created_at: str


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player who joined a campaign by its invite."""

    id: str
    campaign_id: str
    name: str
    token_hash: str
    joined_at: str


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event about to be appended; the store numbers it.

    ``visibility`` is ``"public"``, ``"gm"`` (the GM only) or ``"server"`` (no viewer at all: a scene's seed
    before it is revealed). ``schema`` is the event schema version its shapes are in
    (:mod:`talespin.table.upcast`); the table service writes every event at today's, and 0 (the default) means
    "written before versions were recorded", as an exported event without ``"schema"`` does.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    visibility: str = "public"
    actor: str | None = None
    schema: int = 0


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as recorded: its campaign, its version (1-based, gap-free), when it was written, and the
    event schema version it was written in (``schema``: readers upcast from it, :mod:`talespin.table.upcast`).
    """

    campaign_id: str
    version: int
    type: str
    data: Mapping[str, Any]
    visibility: str
    actor: str | None
    at: str
    schema: int


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A campaign's ledger folded up to ``version`` by the code whose ``fingerprint`` it names."""

    campaign_id: str
    version: int
    fingerprint: str
    data: bytes
    at: str


ChangeHandler = Callable[[str, int], None]
"""Told a campaign id and the version it has reached, after another process (or this one) committed."""

LinkHandler = Callable[[bool], None]
"""Told ``True`` when the feed's link is up (after every reconnection), ``False`` when it is lost."""


class ChangeFeed(Protocol):
    """Announcements of committed appends, from every process that writes to the same store.

    Announcements are hints, never the record: a handler reads the events themselves from the store. Only
    the campaigns watched (:meth:`watch`) are announced. While the link is down nothing is announced, so
    :data:`LinkHandler` is told ``True`` after each (re)connection, and that is when a process catches every
    campaign it holds up from the store.
    """

    @property
    def linked(self) -> bool:
        """Whether the feed is listening right now."""
        ...

    def watch(self, campaign_id: str) -> Future[None]:
        """Announce the campaign's commits from now on, until as many :meth:`unwatch`; the future is done
        once announcements of it flow (or at once while the link is down)."""
        ...

    def unwatch(self, campaign_id: str) -> None:
        """One watch of the campaign fewer; with none left its commits are no longer announced."""
        ...

    def start(self, on_change: ChangeHandler, on_link: LinkHandler) -> None:
        """Listen on a thread of the feed's own until :meth:`stop`, reconnecting when the link is lost."""
        ...

    def stop(self) -> None:
        """Stop listening and close the link."""
        ...


class EventStore(Protocol):
    """A durable home for campaigns, their players and their append-only event logs."""

    def create_campaign(
        self, campaign: CampaignRecord, events: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        """Record a new campaign and its first events (versions 1..n) in one transaction."""
        ...

    def add_player(
        self, player: PlayerRecord, expected_version: int, events: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        """Record a player and append ``events`` after ``expected_version``, all or nothing."""
        ...

    def append(
        self, campaign_id: str, expected_version: int, events: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        """Append ``events`` as versions ``expected_version + 1 …``; VersionConflict when that is taken.

        Returns the events as stored. When it returns, they are durable.
        """
        ...

    def campaign(self, campaign_id: str) -> CampaignRecord:
        """The campaign with this id; UnknownCampaign when there is none."""
        ...

    def campaign_ids(self) -> list[str]:
        """Every campaign's id, oldest first."""
        ...

    def players(self, campaign_id: str) -> list[PlayerRecord]:
        """The players of a campaign, in the order they joined."""
        ...

    def events(self, campaign_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """The events of a campaign with a version greater than ``after`` (and at most ``upto``), in order."""
        ...

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` as the campaign's newest; older ones of the campaign may be dropped.

        One already there with the same campaign, version and fingerprint is replaced (the table replaces a
        snapshot it could not use); saving one that another process saves at the same moment is no error.
        """
        ...

    def latest_snapshot(self, campaign_id: str, fingerprint: str) -> Snapshot | None:
        """The newest snapshot of the campaign made by code of this ``fingerprint`` (``None`` if none)."""
        ...

    def head(self, campaign_id: str) -> int:
        """The latest committed version of a campaign (0 when it has no event): the cheap staleness check."""
        ...

    @property
    def kind(self) -> str:
        """``"sqlite"`` or ``"postgresql"``: what ``/api/health`` reports."""
        ...

    def changes(self) -> ChangeFeed | None:
        """A feed of other processes' commits, or ``None`` when this kind of store cannot announce them."""
        ...

    def close(self) -> None:
        """Release the store's connections."""
        ...
