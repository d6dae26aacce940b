"""PostgreSQL's LISTEN/NOTIFY as the store's :class:`~.port.ChangeFeed`: commits announced across processes.

Every append runs ``pg_notify(channel, "<campaign id> <version>")`` (:func:`announcement`) in the statement
that inserts its events, so the announcement is delivered exactly when, and only if, the events are
committed. Each process keeps one dedicated connection that LISTENs on the channel (:class:`PostgresFeed`),
on a thread of its own. When that connection is lost the thread reconnects with a growing pause (capped at a
second) and, once LISTENing again, tells the process so: nothing was announced meanwhile, so the process
catches up from the database itself. Announcements are hints; the events always come from the store.

The channel is named after the store's schema, so stores sharing one database (tests, several tables on one
server) do not hear each other.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from typing import TYPE_CHECKING

from ..extras import require
from .port import ChangeHandler, LinkHandler

if TYPE_CHECKING:
    import psycopg

__all__ = ["PostgresFeed", "announcement", "channel_for"]

_log = logging.getLogger(__name__)
_BATCH = 256
"""At most this many announcements are read before the campaigns they name are brought up to date."""


def channel_for(schema: str | None) -> str:
    """The NOTIFY channel of a store: one per schema, short enough for PostgreSQL's 63-byte names."""
    if schema is None:
        return "talespin_events"
    return "talespin_events_" + hashlib.sha256(schema.encode()).hexdigest()[:20]


def announcement(campaign_id: str, version: int) -> str:
    """What is announced of a commit: the campaign and its newest version, ``"<campaign id> <version>"``."""
    return f"{campaign_id} {version}"


def _parse(payload: str) -> tuple[str, int] | None:
    campaign_id, _, version = payload.partition(" ")
    return (campaign_id, int(version)) if campaign_id and version.isdigit() else None


class PostgresFeed:
    """One LISTEN connection and its thread; reconnects and reports the link's state."""

    def __init__(self, conninfo: str, channel: str, *, poll_seconds: float = 1.0) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self.poll_seconds = poll_seconds
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._linked = False
        self._connection: psycopg.Connection[tuple[object, ...]] | None = None

    @property
    def linked(self) -> bool:
        """Whether the LISTEN connection is up right now."""
        return self._linked

    def start(self, on_change: ChangeHandler, on_link: LinkHandler) -> None:
        """Listen on a daemon thread until :meth:`stop`."""
        self._thread = threading.Thread(
            target=self._run, args=(on_change, on_link), name="talespin-listen", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and close the connection."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self, on_change: ChangeHandler, on_link: LinkHandler) -> None:
        psycopg = require("psycopg")  # the [postgres] extra: imported only when a server LISTENs
        from psycopg import sql  # noqa: PLC0415 - with the extra just checked

        pause = 0.05
        while not self._stopping.is_set():
            try:
                with psycopg.connect(
                    self.conninfo, autocommit=True, keepalives=1, keepalives_idle=5, connect_timeout=5
                ) as connection:
                    connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self._linked, pause = True, 0.05
                    on_link(True)  # anything committed before LISTEN took hold is caught up from the store
                    self._listen(connection, on_change)
            except (psycopg.Error, OSError) as error:
                _log.warning("LISTEN link lost (%s); reconnecting", error)
            finally:
                if self._linked:
                    self._linked = False
                    on_link(False)
            self._stopping.wait(pause)
            pause = min(pause * 2, 1.0)

    def _listen(self, connection: psycopg.Connection[tuple[object, ...]], on_change: ChangeHandler) -> None:
        while not self._stopping.is_set():
            heads: dict[str, int] = {}
            for notice in connection.notifies(timeout=self.poll_seconds, stop_after=1):
                found = _parse(notice.payload)
                if found is not None:
                    heads[found[0]] = max(found[1], heads.get(found[0], 0))
            if not heads:
                connection.execute("SELECT 1")  # a silently dead link raises here, not never
                continue
            for notice in connection.notifies(timeout=0.0, stop_after=_BATCH):  # what else has arrived
                found = _parse(notice.payload)
                if found is not None:
                    heads[found[0]] = max(found[1], heads.get(found[0], 0))
            for campaign_id, version in heads.items():
                try:
                    on_change(campaign_id, version)
                except Exception:  # one campaign's failure must not silence the others
                    _log.exception("catching campaign %s up to version %s failed", campaign_id, version)
