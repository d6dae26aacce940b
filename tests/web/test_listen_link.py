"""A process whose LISTEN link is lost catches up from the database once the link is back.

The app runs in this process on a PostgreSQL schema of its own; "another process" is a second table service
on the same schema. The link's reconnection is held back (its connections wait for a gate) so that commits
are certain to land while nothing can announce them. Skipped loudly when TALESPIN_TEST_POSTGRES is unset.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from talespin.store import StoredEvent, open_store
from talespin.store.notify import LISTEN_APPLICATION
from talespin.store.sql import SqlStore
from talespin.table import TableService
from talespin.web import create_app
from talespin.web.throttle import RateLimits

pytestmark = pytest.mark.postgres

POSTGRES = os.environ.get("TALESPIN_TEST_POSTGRES")
SKIP = (
    "TALESPIN_TEST_POSTGRES is unset: the test of a lost LISTEN link is SKIPPED "
    "(export TALESPIN_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5432/test to run it)"
)
WAIT = 10.0


def _until(test: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not test():
        assert time.monotonic() < deadline, f"{what}: not within {WAIT} s"
        time.sleep(0.01)


def test_commits_made_while_the_link_is_down_are_caught_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three notes are committed elsewhere while the link is down: none is heard then; all three are
    published, in order, once the link is back, and /api/health tells the link's state throughout."""
    if not POSTGRES:
        pytest.skip(SKIP)
    schema = f"talespin_link_{secrets.token_hex(6)}"
    gate = threading.Event()
    connect = psycopg.connect

    def held_back(*args: Any, **kwargs: Any) -> Any:
        if str(kwargs.get("application_name", "")).startswith(LISTEN_APPLICATION) and not gate.wait(WAIT):
            raise psycopg.OperationalError("the test held the link back too long")
        return connect(*args, **kwargs)

    app = create_app(POSTGRES, schema=schema, limits=RateLimits.off())
    try:
        with TestClient(app) as client:
            _until(lambda: client.get("/api/health").json()["listen"] == "up", "the link is up")
            made = client.post("/api/campaigns", json={"name": "Link", "system": "ascend"}).json()
            campaign_id, gm = made["id"], made["gm_token"]
            headers = {"Authorization": f"Bearer {gm}"}
            assert client.get(f"/api/campaigns/{campaign_id}/state", headers=headers).status_code == 200
            published: list[StoredEvent] = []
            app.state.service.listen(lambda _campaign, events: published.extend(events))
            app.state.feed.watch(campaign_id).result(timeout=WAIT)  # as a socket on the campaign does

            monkeypatch.setattr(psycopg, "connect", held_back)
            with psycopg.connect(POSTGRES, autocommit=True) as admin:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                    (f"{LISTEN_APPLICATION} {os.getpid()}",),
                )
            _until(lambda: client.get("/api/health").json()["listen"] == "down", "the link is down")

            elsewhere = TableService(open_store(POSTGRES, schema=schema))
            who = elsewhere.viewer(campaign_id, gm)
            before = elsewhere.version(campaign_id, who)
            for number in range(3):
                version = elsewhere.version(campaign_id, who)
                elsewhere.command(campaign_id, who, {"do": "note", "text": f"n{number}"}, version)
            newest = elsewhere.version(campaign_id, who)
            time.sleep(0.3)
            assert published == []  # nothing was announced while the link was down

            gate.set()
            _until(lambda: bool(published) and published[-1].version == newest, "the notes are published")
            assert [event.version for event in published] == list(range(before + 1, newest + 1))
            assert client.get("/api/health").json()["listen"] == "up"
            state = client.get(f"/api/campaigns/{campaign_id}/state", headers=headers).json()
            assert state == elsewhere.state(campaign_id, who)
            elsewhere.store.close()
    finally:
        gate.set()
        cleaner = SqlStore(POSTGRES, schema=schema)
        cleaner.drop_schema()
        cleaner.close()
