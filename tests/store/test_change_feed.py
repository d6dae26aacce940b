"""PostgreSQL's change feed: only watched campaigns are announced, and a lost link comes back listening.

Runs against a real PostgreSQL (a schema of its own, dropped after); skipped loudly when
TALESPIN_TEST_POSTGRES is unset.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator

import psycopg
import pytest

from talespin.store import CampaignRecord, NewEvent
from talespin.store.notify import LISTEN_APPLICATION, PostgresFeed
from talespin.store.sql import SqlStore

pytestmark = pytest.mark.postgres

POSTGRES = os.environ.get("TALESPIN_TEST_POSTGRES")
SKIP_POSTGRES = (
    "TALESPIN_TEST_POSTGRES is unset: the tests of PostgreSQL's change feed are SKIPPED "
    "(export TALESPIN_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5432/test to run them)"
)
AT = "2026-12-05T20:00:00+00:00"
WAIT = 10.0


class Heard:
    """What a feed told: the announcements ``(campaign, version)`` and the link's ups and downs."""

    def __init__(self) -> None:
        self.changes: list[tuple[str, int]] = []
        self.links: list[bool] = []
        self._changed = threading.Condition()

    def change(self, campaign_id: str, version: int) -> None:
        with self._changed:
            self.changes.append((campaign_id, version))
            self._changed.notify_all()

    def link(self, up: bool) -> None:
        with self._changed:
            self.links.append(up)
            self._changed.notify_all()

    def wait(self, what: str, test: object) -> None:
        with self._changed:
            assert self._changed.wait_for(test, WAIT), f"no {what} in {WAIT} s: {self.changes} {self.links}"  # type: ignore[arg-type]


@pytest.fixture
def store() -> Iterator[SqlStore]:
    """A fresh PostgreSQL store with the campaigns c1, c2 and c3 (one event each)."""
    if not POSTGRES:
        pytest.skip(SKIP_POSTGRES)
    opened = SqlStore(POSTGRES, schema=f"talespin_feed_{secrets.token_hex(6)}")
    for campaign_id in ("c1", "c2", "c3"):
        record = CampaignRecord(campaign_id, "Feed", "ascend", {}, "a" * 64, "b" * 64, AT)
        opened.create_campaign(record, [NewEvent("CampaignCreated", {}, "public", None)], AT)
    yield opened
    opened.drop_schema()
    opened.close()


@pytest.fixture
def feed(store: SqlStore) -> Iterator[tuple[PostgresFeed, Heard]]:
    """The store's feed, started and linked."""
    changes = store.changes()
    assert isinstance(changes, PostgresFeed)
    heard = Heard()
    changes.start(heard.change, heard.link)
    heard.wait("link", lambda: heard.links == [True])
    yield changes, heard
    changes.stop()


def _note(store: SqlStore, campaign_id: str, after: int) -> None:
    store.append(campaign_id, after, [NewEvent("NoteAdded", {"text": "x"}, "public", None)], AT)


def test_a_watch_before_the_link_is_up_does_not_wait(store: SqlStore) -> None:
    """With no link yet there is nothing to wait for: the catch-up after linking covers the campaign."""
    changes = store.changes()
    assert isinstance(changes, PostgresFeed)
    assert changes.watch("c1").done()
    assert changes.watching() == {"c1"}


def test_only_watched_campaigns_are_announced(store: SqlStore, feed: tuple[PostgresFeed, Heard]) -> None:
    """A commit to a campaign nobody watches is not announced; unwatched, a campaign falls silent."""
    changes, heard = feed
    changes.watch("c1").result(timeout=WAIT)
    _note(store, "c2", 1)  # first: had it been announced, it would arrive before c1's
    _note(store, "c1", 1)
    heard.wait("announcement of c1", lambda: ("c1", 2) in heard.changes)
    assert heard.changes == [("c1", 2)]
    changes.unwatch("c1")
    changes.watch("c3").result(timeout=WAIT)  # the same pass of the feed's thread stops listening to c1
    _note(store, "c1", 2)
    _note(store, "c3", 1)
    heard.wait("announcement of c3", lambda: ("c3", 2) in heard.changes)
    assert heard.changes == [("c1", 2), ("c3", 2)]
    assert changes.watching() == {"c3"}


def test_two_watches_of_one_campaign_need_two_unwatches(
    store: SqlStore, feed: tuple[PostgresFeed, Heard]
) -> None:
    """Each socket of a campaign watches it: the campaign is heard until the last one leaves."""
    changes, heard = feed
    changes.watch("c1").result(timeout=WAIT)
    changes.watch("c1").result(timeout=WAIT)  # already listening: settled by the thread's next pass
    changes.unwatch("c1")
    changes.watch("c2").result(timeout=WAIT)
    _note(store, "c1", 1)
    heard.wait("announcement of c1", lambda: ("c1", 2) in heard.changes)


def test_a_lost_link_comes_back_listening(store: SqlStore, feed: tuple[PostgresFeed, Heard]) -> None:
    """The LISTEN connection is killed: the feed says so, reconnects, says so, and hears c1 again."""
    changes, heard = feed
    changes.watch("c1").result(timeout=WAIT)
    assert POSTGRES is not None
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        killed = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            (f"{LISTEN_APPLICATION} {os.getpid()}",),
        ).fetchall()
    assert killed == [(True,)]
    heard.wait("reconnection", lambda: heard.links == [True, False, True])
    assert changes.linked
    changes.watch("c1").result(timeout=WAIT)  # listening again
    _note(store, "c1", 1)
    heard.wait("announcement of c1 after the reconnection", lambda: ("c1", 2) in heard.changes)


def test_a_stopped_feed_closes_its_pipe_and_wakes_nothing(store: SqlStore) -> None:
    """Sockets may still leave after the feed stopped (a server shutting down): their unwatch writes no
    byte into a file descriptor that may by then belong to another file."""
    changes = store.changes()
    assert isinstance(changes, PostgresFeed)
    heard = Heard()
    changes.start(heard.change, heard.link)
    heard.wait("link", lambda: heard.links == [True])
    changes.watch("c1").result(timeout=WAIT)
    ends = (changes._wake_read, changes._wake_write)
    changes.stop()
    for end in ends:
        with pytest.raises(OSError):
            os.fstat(end)
    reader, writer = os.pipe()  # may take the closed numbers
    try:
        changes.unwatch("c1")
        os.set_blocking(reader, False)
        with pytest.raises(BlockingIOError):
            os.read(reader, 1)  # nothing was written into it
    finally:
        os.close(reader)
        os.close(writer)
