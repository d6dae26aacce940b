"""The SQLAlchemy adapter of the store port, for SQLite (the default) and PostgreSQL (psycopg 3).

SQLite runs in WAL mode with ``synchronous=FULL``, so an acknowledged append survives a crash of the process
or the machine, and every write transaction starts with ``BEGIN IMMEDIATE`` so concurrent writers queue for
the lock instead of failing half-way. Both databases enforce the primary key ``(campaign_id, version)``:
a second writer of the same version gets :class:`~.port.VersionConflict` and nothing is written.

On PostgreSQL every append also announces itself with ``NOTIFY`` on its campaign's channel inside its own
transaction, and :meth:`SqlStore.changes` hands out the LISTEN side (:mod:`.notify`); SQLite has no such
machinery, so its processes rely on :meth:`SqlStore.head`, the cheap check of a campaign's latest version.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from sqlalchemy import Engine, TextClause, bindparam, create_engine, delete, event, func, insert, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError

from ..extras import require
from .batch import GroupCommit
from .migrate import upgrade
from .notify import PostgresFeed, announcement, campaign_channel, channel_for
from .port import (
    CampaignRecord,
    ChangeFeed,
    NewEvent,
    PlayerRecord,
    Snapshot,
    StoredEvent,
    UnknownCampaign,
    VersionConflict,
)
from .schema import campaigns, events, players, rate_buckets, snapshots

__all__ = ["POOL_OVERFLOW", "POOL_SIZE", "SCHEMES", "SqlStore", "engine_url"]

SCHEMES: Final = ("sqlite", "postgresql", "postgres", "postgresql+psycopg")
"""The URL schemes a store may use (a bare path is a SQLite file)."""

POOL_SIZE: Final = 10
POOL_OVERFLOW: Final = 0
"""PostgreSQL connections a store keeps open, and how many more it may open at a busy moment. An append is
one round trip, so ten serve a process's worker threads; a thread that finds all ten busy waits for one. The
bound matters more than the speed: every ``--workers`` process and every server on the database holds its
own (plus one LISTEN connection), and PostgreSQL refuses clients past ``max_connections`` (100 by default),
which a store answered with 500s when each process could open 30. All ten are kept rather than five kept and
five more opened at a busy moment: a connection opened for one append and closed after it cost PostgreSQL a
new backend process each time, under exactly the load where appends queue."""

T = TypeVar("T")
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


def engine_url(url: str) -> str:
    """The SQLAlchemy URL for a user's URL: a bare path means SQLite, ``postgresql://`` means psycopg 3."""
    if "://" not in url:
        return f"sqlite:///{url}"
    scheme, rest = url.split("://", 1)
    if scheme.lower() not in SCHEMES:
        raise ValueError(
            f"the scheme {scheme[:20]!r} is not supported; a store URL begins with sqlite:/// or postgresql://"
        )
    if scheme.lower() in {"postgresql", "postgres"}:
        return "postgresql+psycopg://" + rest
    return url


def _sqlite_engine(url: str) -> Engine:
    engine = create_engine(url, connect_args={"timeout": 60, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # let SQLAlchemy's "begin" hook below issue BEGIN
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


_COLUMNS: Final = ("campaign_id", "version", "type", "data", "visibility", "actor", "at", "schema_version")


@functools.lru_cache(maxsize=16)
def _append_and_announce(count: int) -> TextClause:
    """PostgreSQL: insert ``count`` events and ``pg_notify`` their announcement, as one statement.

    The INSERT rides along as a common table expression (PostgreSQL runs a data-modifying one whether or not
    the query reads it), so rows and announcement are one round trip and, outside a transaction, one atomic
    commit. The text is made once per row count (a compiled SQLAlchemy construct would be compiled anew each
    time); the parameters are ``<column><row>``, ``channel`` and ``payload``.
    """
    values = ", ".join("(" + ", ".join(f":{name}{i}" for name in _COLUMNS) + ")" for i in range(count))
    statement = text(
        f"WITH appended AS (INSERT INTO events ({', '.join(_COLUMNS)}) VALUES {values} RETURNING version) "
        "SELECT pg_notify(:channel, :payload)"
    )
    return statement.bindparams(*(bindparam(f"data{i}", type_=events.c.data.type) for i in range(count)))


@functools.lru_cache(maxsize=16)
def _append_and_announce_driver(count: int) -> str:
    """:func:`_append_and_announce` in psycopg's own placeholders (``%s``, positional: the columns of each
    row in turn, then the channel and the payload), for the append that goes to the driver directly."""
    row = "(" + ", ".join("%s::json" if name == "data" else "%s" for name in _COLUMNS) + ")"
    return (
        f"WITH appended AS (INSERT INTO events ({', '.join(_COLUMNS)}) VALUES {', '.join([row] * count)} "
        "RETURNING version) SELECT pg_notify(%s, %s)"
    )


def _integrity_error() -> type[Exception]:
    """psycopg's ``IntegrityError`` (a taken key, an unknown campaign), imported only on PostgreSQL."""
    return require("psycopg").IntegrityError  # type: ignore[no-any-return]


def _sqlalchemy_error(statement: str, error: Exception) -> Exception:
    """A driver's error as SQLAlchemy would have raised it (``OperationalError`` for a lost connection …)."""
    return DBAPIError.instance(statement, None, error, require("psycopg").Error)


class SqlStore:
    """An :class:`~.port.EventStore` on any SQLAlchemy URL (SQLite file or PostgreSQL)."""

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        full_url = engine_url(url)
        self.url = full_url
        self.schema = schema
        # SQLite has one writer at a time: this process's writers share commits (batch.py) rather than
        # queue in SQLite's busy handler, which sleeps and retries; other processes meet the database's lock.
        self._group: GroupCommit | None = None
        self._channel: str | None = None
        if full_url.startswith("sqlite"):
            self.engine = _sqlite_engine(full_url)
            self._group = GroupCommit(self.engine)
        else:
            if full_url.startswith("postgresql+psycopg"):
                require("psycopg")  # the [postgres] extra: a clear message rather than SQLAlchemy's
            connect_args: dict[str, Any] = {}
            if schema is not None:
                if not _SCHEMA_NAME.match(schema):
                    raise ValueError(f"schema must be lower-case letters, digits and _, got {schema!r}")
                connect_args["options"] = f"-csearch_path={schema}"
            self.engine = create_engine(
                full_url, connect_args=connect_args, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW
            )
            self._channel = channel_for(schema)
        with self.engine.begin() as connection:
            if self._channel is not None:
                # processes starting together migrate one at a time; the lock ends with the transaction
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": self._channel}
                )
                if schema is not None:
                    connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
            upgrade(connection)

    def _write(
        self,
        campaign_id: str,
        expected_version: int,
        work: Callable[[Connection], T],
        *,
        one_statement: bool = False,
    ) -> T:
        """Run ``work`` in a durable transaction. ``one_statement`` says ``work`` is a single statement:
        on PostgreSQL it then runs as its own transaction (autocommit: atomic and committed, with its
        NOTIFY, when it returns), one round trip instead of BEGIN, statement and COMMIT."""
        try:
            if self._group is not None:
                return self._group.run(work)
            if one_statement:
                with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                    return work(connection)
            with self.engine.begin() as connection:
                return work(connection)
        except IntegrityError as error:
            if expected_version > 0 and not self._exists(campaign_id):
                raise UnknownCampaign(f"no campaign has id {campaign_id!r}") from None
            raise VersionConflict(campaign_id, expected_version) from error

    def _exists(self, campaign_id: str) -> bool:
        with self.engine.connect() as connection:
            query = select(campaigns.c.id).where(campaigns.c.id == campaign_id)
            return connection.execute(query).first() is not None

    def create_campaign(
        self, campaign: CampaignRecord, new: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        """Record a new campaign and its first events (versions 1..n) in one transaction."""

        def work(connection: Connection) -> list[StoredEvent]:
            connection.execute(
                insert(campaigns).values(
                    id=campaign.id,
                    name=campaign.name,
                    system=campaign.system,
                    variant=dict(campaign.variant),
                    gm_token_hash=campaign.gm_token_hash,
                    invite_token_hash=campaign.invite_token_hash,
                    created_at=campaign.created_at,
                )
            )
            return self._insert_events(connection, campaign.id, 0, new, at)

        return self._write(campaign.id, 0, work)

    def add_player(
        self, player: PlayerRecord, expected_version: int, new: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        """Record a player and append ``new`` after ``expected_version``, all or nothing."""

        def work(connection: Connection) -> list[StoredEvent]:
            self._check_campaign(connection, player.campaign_id)
            connection.execute(
                insert(players).values(
                    id=player.id,
                    campaign_id=player.campaign_id,
                    name=player.name,
                    token_hash=player.token_hash,
                    joined_at=player.joined_at,
                )
            )
            return self._insert_events(connection, player.campaign_id, expected_version, new, at)

        return self._write(player.campaign_id, expected_version, work)

    def append(
        self, campaign_id: str, expected_version: int, new: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        """Append ``new`` as versions ``expected_version + 1 …``; VersionConflict when one is taken."""
        if expected_version == 0 and not self._exists(campaign_id):
            raise UnknownCampaign(f"no campaign has id {campaign_id!r}")
        if self._channel is not None:
            channel = campaign_channel(self._channel, campaign_id)
            return self._append_announced(campaign_id, expected_version, new, at, channel)
        return self._write(
            campaign_id,
            expected_version,
            lambda connection: self._insert_events(connection, campaign_id, expected_version, new, at),
            one_statement=True,
        )

    def _append_announced(
        self, campaign_id: str, expected_version: int, new: Sequence[NewEvent], at: str, channel: str
    ) -> list[StoredEvent]:
        """PostgreSQL's append, straight to psycopg on a pooled connection: one statement, in autocommit,
        announced on ``channel``.

        The statement is :func:`_append_and_announce`'s (rows and ``pg_notify`` together, atomic and
        committed when it returns); only SQLAlchemy's work around it is skipped: compiling the parameters,
        its JSON type's serializer (the data is written with ``json.dumps`` here, as that type would) and its
        execution context, which together cost more CPU than the driver's round trip. psycopg prepares the
        statement on each connection after a few uses. The errors are SQLAlchemy's, as :meth:`_write` maps
        them: a taken version is :class:`~.port.VersionConflict`, a lost connection is dropped from the pool.
        """
        if not new:
            return []
        stored = [
            StoredEvent(
                campaign_id, expected_version + i, e.type, dict(e.data), e.visibility, e.actor, at, e.schema
            )
            for i, e in enumerate(new, start=1)
        ]
        parameters: list[Any] = []
        for s in stored:
            parameters += [
                s.campaign_id,
                s.version,
                s.type,
                json.dumps(s.data),
                s.visibility,
                s.actor,
                s.at,
                s.schema,
            ]
        parameters += [channel, announcement(campaign_id, stored[-1].version)]
        statement = _append_and_announce_driver(len(stored))
        pooled = self.engine.raw_connection()
        try:
            driver: Any = pooled.driver_connection
            driver.autocommit = True  # a pooled connection is idle (the pool rolled it back on return)
            try:
                driver.execute(statement, parameters)
            finally:
                if not driver.closed:
                    driver.autocommit = False  # as SQLAlchemy expects the connections of its pool
        except _integrity_error() as error:
            pooled.close()
            if expected_version > 0 and not self._exists(campaign_id):
                raise UnknownCampaign(f"no campaign has id {campaign_id!r}") from None
            raise VersionConflict(campaign_id, expected_version) from error
        except Exception as error:
            if getattr(pooled.driver_connection, "closed", True):
                pooled.invalidate()  # the connection is lost: the pool opens a fresh one next time
            pooled.close()
            if isinstance(error, require("psycopg").Error):
                raise _sqlalchemy_error(statement, error) from error
            raise
        pooled.close()
        return stored

    def _check_campaign(self, connection: Connection, campaign_id: str) -> None:
        found = connection.execute(select(campaigns.c.id).where(campaigns.c.id == campaign_id)).first()
        if found is None:
            raise UnknownCampaign(f"no campaign has id {campaign_id!r}")

    def _insert_events(
        self, connection: Connection, campaign_id: str, after: int, new: Sequence[NewEvent], at: str
    ) -> list[StoredEvent]:
        if not new:
            return []
        stored = [
            StoredEvent(campaign_id, after + i, e.type, dict(e.data), e.visibility, e.actor, at, e.schema)
            for i, e in enumerate(new, start=1)
        ]
        rows = [
            {
                "campaign_id": s.campaign_id,
                "version": s.version,
                "type": s.type,
                "data": s.data,
                "visibility": s.visibility,
                "actor": s.actor,
                "at": s.at,
                "schema_version": s.schema,
            }
            for s in stored
        ]
        if self._channel is None:
            connection.execute(insert(events), rows)
        else:  # the rows and their announcement in one statement: one round trip to the server
            parameters = {f"{name}{i}": value for i, row in enumerate(rows) for name, value in row.items()}
            parameters["channel"] = campaign_channel(self._channel, campaign_id)
            parameters["payload"] = announcement(campaign_id, stored[-1].version)
            connection.execute(_append_and_announce(len(rows)), parameters)
        return stored

    def campaign(self, campaign_id: str) -> CampaignRecord:
        """The campaign with this id; UnknownCampaign when there is none."""
        with self.engine.connect() as connection:
            row = connection.execute(select(campaigns).where(campaigns.c.id == campaign_id)).first()
        if row is None:
            raise UnknownCampaign(f"no campaign has id {campaign_id!r}")
        return CampaignRecord(
            row.id,
            row.name,
            row.system,
            dict(row.variant),
            row.gm_token_hash,
            row.invite_token_hash,
            row.created_at,
        )

    def campaign_ids(self) -> list[str]:
        """Every campaign's id, oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(campaigns.c.id).order_by(campaigns.c.created_at, campaigns.c.id))
            return [row.id for row in rows]

    def players(self, campaign_id: str) -> list[PlayerRecord]:
        """The players of a campaign, in the order they joined."""
        query = (
            select(players)
            .where(players.c.campaign_id == campaign_id)
            .order_by(players.c.joined_at, players.c.id)
        )
        with self.engine.connect() as connection:
            return [
                PlayerRecord(row.id, row.campaign_id, row.name, row.token_hash, row.joined_at)
                for row in connection.execute(query)
            ]

    def events(self, campaign_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """The events of a campaign with a version greater than ``after`` (and at most ``upto``), in order."""
        query = select(events).where(events.c.campaign_id == campaign_id, events.c.version > after)
        if upto is not None:
            query = query.where(events.c.version <= upto)
        query = query.order_by(events.c.version)
        with self.engine.connect() as connection:
            return [
                StoredEvent(
                    row.campaign_id,
                    row.version,
                    row.type,
                    dict(row.data),
                    row.visibility,
                    row.actor,
                    row.at,
                    row.schema_version,
                )
                for row in connection.execute(query)
            ]

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Keep ``snapshot``, drop the campaign's older ones and any one of the same key (it is replaced)."""

        def work(connection: Connection) -> None:
            connection.execute(
                delete(snapshots).where(
                    snapshots.c.campaign_id == snapshot.campaign_id,
                    (snapshots.c.version < snapshot.version)
                    | (
                        (snapshots.c.version == snapshot.version)
                        & (snapshots.c.fingerprint == snapshot.fingerprint)
                    ),
                )
            )
            connection.execute(
                insert(snapshots).values(
                    campaign_id=snapshot.campaign_id,
                    version=snapshot.version,
                    fingerprint=snapshot.fingerprint,
                    data=snapshot.data,
                    at=snapshot.at,
                )
            )

        try:
            if self._group is not None:
                self._group.run(work)
            else:
                with self.engine.begin() as connection:
                    work(connection)
        except IntegrityError:
            # another process saved the same version at the same moment (identical by construction),
            # or the campaign is unknown: check which
            if not self._exists(snapshot.campaign_id):
                raise UnknownCampaign(f"no campaign has id {snapshot.campaign_id!r}") from None

    def latest_snapshot(self, campaign_id: str, fingerprint: str) -> Snapshot | None:
        """The newest snapshot of the campaign made by code of this ``fingerprint``."""
        query = (
            select(snapshots)
            .where(snapshots.c.campaign_id == campaign_id, snapshots.c.fingerprint == fingerprint)
            .order_by(snapshots.c.version.desc())
            .limit(1)
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        if row is None:
            return None
        return Snapshot(row.campaign_id, row.version, row.fingerprint, bytes(row.data), row.at)

    def head(self, campaign_id: str) -> int:
        """The latest committed version of a campaign (0 when it has none): one primary-key index lookup."""
        query = select(func.max(events.c.version)).where(events.c.campaign_id == campaign_id)
        with self.engine.connect() as connection:
            return int(connection.execute(query).scalar() or 0)

    @property
    def kind(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return "sqlite" if self._channel is None else "postgresql"

    def shared_rates(self) -> Callable[[str, int, float], float] | None:
        """On PostgreSQL :meth:`take_rate`, the rate limits every process on this database shares; on
        SQLite ``None`` (one process serves a SQLite file: its limits stay in its memory)."""
        return None if self._channel is None else self.take_rate

    def take_rate(self, key: str, count: int, seconds: float) -> float:
        """Take one request from the shared bucket ``key`` (it holds ``count``, refilled evenly over
        ``seconds``): 0 when it had one, else the seconds until it will have one.

        One transaction on the bucket's row (locked, so processes taking at once queue), timed by the
        database's clock, so every process agrees whatever its own clock says. A bucket untouched for
        ``seconds`` is full again, the same as no row: such rows of the same kind are deleted on the way.
        """
        per_second = count / seconds
        kind = key.partition(":")[0] + ":%"
        now = text("SELECT extract(epoch from clock_timestamp())")
        with self.engine.begin() as connection:
            at = float(connection.execute(now).scalar_one())
            connection.execute(
                delete(rate_buckets).where(rate_buckets.c.key.like(kind), rate_buckets.c.at < at - seconds)
            )
            fresh = {"key": key, "level": float(count), "at": at}
            connection.execute(pg_insert(rate_buckets).values(fresh).on_conflict_do_nothing())
            row = connection.execute(
                select(rate_buckets.c.level, rate_buckets.c.at)
                .where(rate_buckets.c.key == key)
                .with_for_update()
            ).one()
            at = float(connection.execute(now).scalar_one())  # after the lock: the time of this take
            level = min(float(count), row.level + max(0.0, at - row.at) * per_second)
            wait = 0.0 if level >= 1 else (1 - level) / per_second
            update = rate_buckets.update().where(rate_buckets.c.key == key)
            connection.execute(update.values(level=level - 1 if wait == 0 else level, at=at))
        return wait

    def changes(self) -> ChangeFeed | None:
        """On PostgreSQL a new LISTEN feed of this store's channel (not started); on SQLite ``None``."""
        if self._channel is None:
            return None
        conninfo = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        return PostgresFeed(conninfo, self._channel)

    def drop_schema(self) -> None:
        """Drop this store's PostgreSQL schema and everything in it (tests clean up with it)."""
        if self.schema is not None and not self.url.startswith("sqlite"):
            with self.engine.begin() as connection:
                connection.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))

    def close(self) -> None:
        """Release the store's connections."""
        self.engine.dispose()
