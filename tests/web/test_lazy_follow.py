"""Two apps on one PostgreSQL: a commit is pushed at once where a socket follows its campaign, and read
when next asked for everywhere else, never folded for nobody."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_support import Campaign

from talespin.store.sql import SqlStore
from talespin.table import Viewer
from talespin.web import create_app

POSTGRES = os.environ.get("TALESPIN_TEST_POSTGRES")
pytestmark = pytest.mark.postgres


@pytest.fixture
def two_apps() -> Iterator[tuple[TestClient, TestClient]]:
    if not POSTGRES:
        pytest.skip("TALESPIN_TEST_POSTGRES is unset: the two-app PostgreSQL test is SKIPPED")
    schema = f"talespin_follow_{secrets.token_hex(6)}"
    SqlStore(POSTGRES, schema=schema).close()
    try:
        with (
            TestClient(create_app(POSTGRES, schema=schema)) as first,
            TestClient(create_app(POSTGRES, schema=schema)) as second,
        ):
            yield first, second
    finally:
        store = SqlStore(POSTGRES, schema=schema)
        store.drop_schema()
        store.close()


def _frames_until(socket: Any, version: int, seconds: float = 20.0) -> list[dict[str, Any]]:
    """Frames from ``socket`` until an event of ``version`` arrives (fails after ``seconds``, never hangs)."""
    frames: list[dict[str, Any]] = []

    def read() -> None:
        while not frames or frames[-1].get("version") != version:
            frames.append(socket.receive_json())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(seconds)
    assert not reader.is_alive(), f"no event of version {version} within {seconds} s: {frames}"
    return frames


def test_a_watched_campaign_is_pushed_and_an_unwatched_one_waits_for_its_next_read(
    two_apps: tuple[TestClient, TestClient],
) -> None:
    first, second = two_apps
    watched = Campaign.create(first, "ascend", "Watched")
    quiet = Campaign.create(first, "ascend", "Quiet")
    on_second = {c.id: Campaign(second, c.id, c.gm_token, c.invite_token, {}) for c in (watched, quiet)}
    quiet_before = on_second[quiet.id].version()  # the second app has the quiet campaign cached
    service = second.app.state.service
    gm = Viewer("gm")
    path = f"{watched.base}/ws?token={watched.gm_token}&after={watched.version()}"
    with second.websocket_connect(path) as socket:
        noted = quiet.send({"do": "note", "text": "nobody here watches this"})["version"]
        pushed = watched.send({"do": "note", "text": "the table waits for this"})["version"]
        # Commits are announced in order: once the watched one has been pushed, the quiet one was heard.
        frames = _frames_until(socket, pushed)
        assert [f["data"]["text"] for f in frames if f.get("type") == "NoteAdded"] == [
            "the table waits for this"
        ]
    assert service.version(quiet.id, gm) == quiet_before  # heard of, not read: no socket here wanted it
    assert service.version(watched.id, gm) == pushed
    state = on_second[quiet.id].state()  # a read brings it up to date first
    assert state["version"] == noted > quiet_before
    assert service.version(quiet.id, gm) == noted
