"""The tables of the store, as SQLAlchemy Core sees them.

The schema itself is created and changed only by the Alembic migrations in :mod:`.migrations`; these
definitions mirror the newest migration so the adapter can build its queries. The primary key of
``events`` is ``(campaign_id, version)``: the database itself refuses two events with the same number.
"""

from __future__ import annotations

from sqlalchemy import JSON, Column, Float, ForeignKey, Integer, LargeBinary, MetaData, String, Table, Text

__all__ = ["campaigns", "events", "metadata", "players", "rate_buckets", "snapshots"]

metadata = MetaData()

campaigns = Table(
    "campaigns",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", Text, nullable=False),
    Column("system", String(64), nullable=False),
    Column("variant", JSON, nullable=False),
    Column("gm_token_hash", String(64), nullable=False),
    Column("invite_token_hash", String(64), nullable=False),
    Column("created_at", String(40), nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("campaign_id", String(64), ForeignKey("campaigns.id"), nullable=False, index=True),
    Column("name", Text, nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("joined_at", String(40), nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("campaign_id", String(64), ForeignKey("campaigns.id"), primary_key=True),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("type", String(64), nullable=False),
    Column("data", JSON, nullable=False),
    Column("visibility", String(16), nullable=False),
    Column("actor", Text, nullable=True),
    Column("at", String(40), nullable=False),
    Column("schema_version", Integer, nullable=False, server_default="0"),
)
"""Each event's ``schema_version`` is the event schema its ``type`` and ``data`` were written in
(:mod:`talespin.table.upcast`); a row written before the column existed holds 0 (see migration 0004)."""

snapshots = Table(
    "snapshots",
    metadata,
    Column("campaign_id", String(64), ForeignKey("campaigns.id"), primary_key=True),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("fingerprint", String(64), primary_key=True),
    Column("data", LargeBinary, nullable=False),
    Column("at", String(40), nullable=False),
)
"""A campaign's folded ledger at a version, by the code of a fingerprint (see :class:`.port.Snapshot`)."""

rate_buckets = Table(
    "rate_buckets",
    metadata,
    Column("key", String(128), primary_key=True),
    Column("level", Float, nullable=False),
    Column("at", Float, nullable=False),
)
"""Rate-limit buckets every server process on one PostgreSQL shares (:meth:`.sql.SqlStore.take_rate`)."""
