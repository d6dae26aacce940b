"""PostgreSQL's LISTEN/NOTIFY as the store's :class:`~.port.ChangeFeed`: commits announced across processes.

Every append runs ``pg_notify(channel, "<campaign id> <version>")`` (:func:`announcement`) in the statement
that inserts its events, so the announcement is delivered exactly when, and only if, the events are
committed. The channel is the campaign's own (:func:`campaign_channel`), so a process hears only of the
campaigns it asked for: those its sockets follow (:meth:`PostgresFeed.watch`). With many campaigns over many
processes, each process reads and parses only the announcements someone on it is waiting for, and a
process without sockets hears nothing at all; every read still checks the store's newest version itself.

Each process keeps one dedicated connection for LISTEN, on a thread of its own. :meth:`PostgresFeed.watch`
returns a future that is done once the campaign's ``LISTEN`` has taken hold, so a socket that reads its
backlog after that misses nothing: an event committed before is in the backlog, one after is announced.
When the connection is lost the thread reconnects with a growing pause (capped at a second), LISTENs again
on every watched campaign and, once it does, tells the process so: nothing was announced meanwhile, so the
process catches up from the database itself. Announcements are hints; the events always come from the store.

Channels are named after the store's schema too, so stores sharing one database (tests, several tables on
one server) do not hear each other.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import select
import threading
from collections import Counter
from concurrent.futures import Future
from typing import TYPE_CHECKING, Final

from ..extras import require
from .port import ChangeHandler, LinkHandler

if TYPE_CHECKING:
    import psycopg

__all__ = ["LISTEN_APPLICATION", "PostgresFeed", "announcement", "campaign_channel", "channel_for"]

_log = logging.getLogger(__name__)
_BATCH: Final = 256
"""At most this many announcements are read before the campaigns they name are brought up to date."""
_LISTEN_CHUNK: Final = 200
"""At most this many ``LISTEN``/``UNLISTEN`` statements are sent in one round trip."""
LISTEN_APPLICATION: Final = "talespin-listen"
"""How every LISTEN connection names itself to PostgreSQL, followed by its process id
(``application_name`` ``"talespin-listen 4242"``), so an operator finds each process's link in
``pg_stat_activity``."""


def channel_for(schema: str | None) -> str:
    """The store's own name among stores on one database (one per schema): every campaign channel of the store
    is made from it, and processes starting together migrate the schema under a lock of that name."""
    if schema is None:
        return "talespin_events"
    return "talespin_events_" + hashlib.sha256(schema.encode()).hexdigest()[:20]


def campaign_channel(store_channel: str, campaign_id: str) -> str:
    """The NOTIFY channel of one campaign of a store: short enough for PostgreSQL's 63-byte names whatever
    the id.

    >>> campaign_channel("talespin_events", "abc") == campaign_channel("talespin_events", "abc")
    True
    >>> len(campaign_channel("talespin_events", "x" * 64))
    41
    >>> campaign_channel("one_store", "abc") != campaign_channel("another_store", "abc")
    True
    """
    digest = hashlib.sha256(f"{store_channel}\n{campaign_id}".encode()).hexdigest()[:32]
    return f"talespin_{digest}"


def announcement(campaign_id: str, version: int) -> str:
    """What is announced of a commit: the campaign and its newest version, ``"<campaign id> <version>"``."""
    return f"{campaign_id} {version}"


def _parse(payload: str) -> tuple[str, int] | None:
    campaign_id, _, version = payload.partition(" ")
    return (campaign_id, int(version)) if campaign_id and version.isdigit() else None


def _quoted(channel: str) -> str:
    """A channel as a quoted identifier (its name is ``talespin_`` and hex digits: nothing to escape)."""
    return f'"{channel}"'


class PostgresFeed:
    """One LISTEN connection and its thread: the campaigns watched, reconnection, the link's state."""

    def __init__(self, conninfo: str, channel: str, *, poll_seconds: float = 1.0) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self.poll_seconds = poll_seconds
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._linked = False
        self._lock = threading.Lock()
        self._watchers: Counter[str] = Counter()
        """How many watchers each campaign has (a campaign is listened to while it has one)."""
        self._listening: set[str] = set()
        """The campaigns whose ``LISTEN`` holds on the current connection (the feed's thread only)."""
        self._waiting: dict[str, Future[None]] = {}
        """Futures of campaigns watched but not yet listened to, done once their ``LISTEN`` holds."""
        self._wake_read, self._wake_write = os.pipe()
        self._closed = False
        os.set_blocking(self._wake_write, False)

    @property
    def linked(self) -> bool:
        """Whether the LISTEN connection is up right now."""
        return self._linked

    def watch(self, campaign_id: str) -> Future[None]:
        """Hear of the campaign's commits from now on (until as many :meth:`unwatch`).

        The future is done once the feed's thread has made a pass after this call with the campaign's
        ``LISTEN`` holding (a pass that was about to drop it, its last watcher gone, does not count), or at
        once while the link is down: the catch-up that follows the reconnection covers what is committed
        meanwhile."""
        with self._lock:
            self._watchers[campaign_id] += 1
            waiting = self._waiting.get(campaign_id)
            if waiting is None:
                waiting = Future()
                if self._linked:
                    self._waiting[campaign_id] = waiting
                else:
                    waiting.set_result(None)
        self._wake()
        return waiting

    def unwatch(self, campaign_id: str) -> None:
        """One watcher of the campaign fewer; with none left it is no longer listened to."""
        with self._lock:
            self._watchers[campaign_id] -= 1
            if self._watchers[campaign_id] <= 0:
                del self._watchers[campaign_id]
        self._wake()

    def watching(self) -> set[str]:
        """The campaigns watched now."""
        with self._lock:
            return set(self._watchers)

    def start(self, on_change: ChangeHandler, on_link: LinkHandler) -> None:
        """Listen on a daemon thread until :meth:`stop`."""
        self._thread = threading.Thread(
            target=self._run, args=(on_change, on_link), name="talespin-listen", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread and close the connection (and the thread's wake-up pipe, once it has ended)."""
        self._stopping.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
            if self._thread.is_alive():
                return  # still closing its connection: it is a daemon, and the pipe goes with the process
        with self._lock:  # no wake-up is written once the pipe's numbers may belong to another file
            self._closed = True
            for end in (self._wake_read, self._wake_write):
                with contextlib.suppress(OSError):
                    os.close(end)

    def _wake(self) -> None:
        """Make the feed's thread look at the watched campaigns now (a byte down its pipe)."""
        with self._lock, contextlib.suppress(OSError):  # a full pipe: the thread is woken already
            if not self._closed:
                os.write(self._wake_write, b".")

    def _run(self, on_change: ChangeHandler, on_link: LinkHandler) -> None:
        psycopg = require("psycopg")  # the [postgres] extra: imported only when a server LISTENs
        pause = 0.05
        while not self._stopping.is_set():
            try:
                with psycopg.connect(
                    self.conninfo,
                    autocommit=True,
                    keepalives=1,
                    keepalives_idle=5,
                    connect_timeout=5,
                    application_name=f"{LISTEN_APPLICATION} {os.getpid()}",
                ) as connection:
                    with self._lock:  # from here a watcher waits for this connection's LISTEN
                        self._linked, self._listening, pause = True, set(), 0.05
                    self._relisten(connection)
                    on_link(True)  # anything committed before LISTEN took hold is caught up from the store
                    self._listen(connection, on_change)
            except (psycopg.Error, OSError) as error:
                _log.warning("LISTEN link lost (%s); reconnecting", error)
            finally:
                with self._lock:
                    was_linked, self._linked = self._linked, False
                    self._listening = set()
                    # No LISTEN holds now: a watcher need not wait for the link, whose return catches up.
                    settled, self._waiting = list(self._waiting.values()), {}
                for future in settled:
                    future.set_result(None)
                if was_linked:
                    on_link(False)
            self._stopping.wait(pause)
            pause = min(pause * 2, 1.0)

    def _relisten(self, connection: psycopg.Connection[tuple[object, ...]]) -> None:
        """Bring the connection's LISTENs to the watched campaigns, then settle the futures of those that
        now hold (the link's thread only)."""
        wanted = self.watching()
        start = sorted(wanted - self._listening)
        stop = sorted(self._listening - wanted)
        statements = [f"LISTEN {_quoted(campaign_channel(self.channel, c))}" for c in start]
        statements += [f"UNLISTEN {_quoted(campaign_channel(self.channel, c))}" for c in stop]
        for first in range(0, len(statements), _LISTEN_CHUNK):
            connection.execute("; ".join(statements[first : first + _LISTEN_CHUNK]).encode())
        self._listening = (self._listening | set(start)) - set(stop)
        with self._lock:
            held = [c for c in self._waiting if c in self._listening or c not in self._watchers]
            settled = [self._waiting.pop(c) for c in held]
        for future in settled:
            future.set_result(None)

    def _drain_wakes(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self._wake_read, 4096):
                pass

    def _listen(self, connection: psycopg.Connection[tuple[object, ...]], on_change: ChangeHandler) -> None:
        os.set_blocking(self._wake_read, False)
        while not self._stopping.is_set():
            ready, _, _ = select.select([connection.fileno(), self._wake_read], [], [], self.poll_seconds)
            if self._wake_read in ready:
                self._drain_wakes()
                if self._stopping.is_set():
                    return
                self._relisten(connection)  # announcements it meets wait in psycopg's backlog
            elif not ready:
                connection.execute("SELECT 1")  # a silently dead link raises here, not never
            heads: dict[str, int] = {}
            for notice in connection.notifies(timeout=0.0, stop_after=_BATCH):  # what has arrived
                found = _parse(notice.payload)
                if found is not None:
                    heads[found[0]] = max(found[1], heads.get(found[0], 0))
            for campaign_id, version in heads.items():
                try:
                    on_change(campaign_id, version)
                except Exception:  # one campaign's failure must not silence the others
                    _log.exception("catching campaign %s up to version %s failed", campaign_id, version)
