"""Helpers of the multi-process tests: three `talespin serve` processes on one PostgreSQL schema, and
WebSocket listeners that record every frame (and can move to another process when theirs dies)."""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from web_support import ServerProcess, all_running, bearer, free_port
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from talespin.store import open_store
from talespin.store.sql import SqlStore
from talespin.table import TableService, Viewer

POSTGRES = os.environ.get("TALESPIN_TEST_POSTGRES")
SKIP = (
    "TALESPIN_TEST_POSTGRES is unset: the tests of several server processes on one PostgreSQL are SKIPPED "
    "(export TALESPIN_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5432/test to run them)"
)


@contextmanager
def cluster(
    size: int = 3, *, limits: str = "off", extra: tuple[str, ...] = ()
) -> Iterator[list[ServerProcess]]:
    """``size`` server processes on one fresh PostgreSQL schema of their own (dropped afterwards), with
    ``--limits limits`` and the options ``extra`` (``--workers 2``)."""
    if not POSTGRES:
        pytest.skip(SKIP)
    schema = f"talespin_cluster_{secrets.token_hex(6)}"
    SqlStore(POSTGRES, schema=schema).close()  # the schema exists before the processes race to it
    servers = [
        ServerProcess(POSTGRES, free_port(), schema=schema, limits=limits, extra=extra) for _ in range(size)
    ]
    try:
        with all_running(servers):
            yield servers
    finally:
        cleaner = SqlStore(POSTGRES, schema=schema)
        cleaner.drop_schema()
        cleaner.close()


def replayed_state(server: ServerProcess, campaign_id: str) -> dict[str, Any]:
    """The GM's state of a campaign as a replay of the database alone gives it."""
    assert server.schema is not None
    store = open_store(server.store_url, schema=server.schema)
    try:
        return TableService(store).state(campaign_id, Viewer("gm"))
    finally:
        store.close()


def visible_versions(server: ServerProcess, base: str, token: str, after: int) -> list[int]:
    """The versions after ``after`` that ``token`` may see, as the events endpoint lists them."""
    response = httpx.get(f"{server.url}{base}/events?after={after}", headers=bearer(token), timeout=10)
    assert response.status_code == 200, response.text
    return [event["version"] for event in response.json()["events"]]


class Listener(threading.Thread):
    """One WebSocket client: records every event frame; on a lost connection moves to the next process
    still up, reconnecting with ``?after=`` the last version it received."""

    def __init__(self, servers: list[ServerProcess], base: str, token: str, after: int) -> None:
        super().__init__(daemon=True)
        self.servers, self.base, self.token = servers, base, token
        self.after = after
        self.events: list[dict[str, Any]] = []
        self.reconnects = 0
        self.errors: list[str] = []
        self._stopping = threading.Event()
        self._opened = threading.Event()

    @property
    def versions(self) -> list[int]:
        """The versions received so far, in the order they arrived."""
        return [event["version"] for event in self.events]

    def run(self) -> None:
        """Listen until stopped, moving along ``servers`` when one stops answering."""
        index = 0
        while not self._stopping.is_set() and index < len(self.servers):
            server = self.servers[index]
            mark = self.events[-1]["version"] if self.events else self.after
            url = f"{server.ws}{self.base}/ws?token={self.token}&after={mark}"
            try:
                with connect(url, open_timeout=5) as socket:
                    self._opened.set()
                    while not self._stopping.is_set():
                        try:
                            frame = socket.recv(timeout=0.2)
                        except TimeoutError:
                            continue
                        self.events.append(json.loads(frame))
                    return
            except (ConnectionClosed, InvalidHandshake, OSError) as error:
                self.errors.append(f"{server.url}: {type(error).__name__}")
            if self.servers[index].process is not None and self.servers[index].process.poll() is not None:
                index += 1  # that process is gone: go to the next one
                self.reconnects += 1
            else:
                time.sleep(0.05)

    def wait_open(self, timeout: float = 10.0) -> None:
        """Wait until the first connection is open."""
        assert self._opened.wait(timeout), f"the WebSocket did not open: {self.errors}"

    def wait_for(self, version: int, timeout: float = 15.0) -> None:
        """Wait until a frame of ``version`` or later has arrived."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.events and self.events[-1]["version"] >= version:
                return
            time.sleep(0.02)
        raise AssertionError(f"no frame reached version {version}: got {self.versions[-5:]} {self.errors}")

    def close(self) -> None:
        """Stop listening."""
        self._stopping.set()
        self.join(timeout=5)
