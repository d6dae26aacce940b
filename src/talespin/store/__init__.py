"""Durable storage of campaigns and their event logs.

:mod:`.port` defines what the table needs (:class:`EventStore`); :func:`open_store` builds the SQLAlchemy
adapter for a URL (``sqlite:///talespin.db``, ``postgresql://user@host/db``), migrating its schema to the
newest version with Alembic before first use.
"""

from __future__ import annotations

from .port import (
    CampaignRecord,
    EventStore,
    NewEvent,
    PlayerRecord,
    Snapshot,
    StoredEvent,
    StoreError,
    UnknownCampaign,
    VersionConflict,
)

__all__ = [
    "CampaignRecord",
    "EventStore",
    "NewEvent",
    "PlayerRecord",
    "Snapshot",
    "StoreError",
    "StoredEvent",
    "UnknownCampaign",
    "VersionConflict",
    "open_store",
]


def open_store(url: str, *, schema: str | None = None) -> EventStore:
    """The store behind ``url``, its schema migrated to the newest version.

    ``schema`` (PostgreSQL only) keeps the tables in their own schema, created when missing, so several
    stores can share one database (the contract tests use a fresh one per run).
    """
    from .sql import SqlStore  # noqa: PLC0415 - the database libraries load only when a store is opened

    return SqlStore(url, schema=schema)
