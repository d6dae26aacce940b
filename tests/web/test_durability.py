"""A real server killed with SIGKILL mid-stream loses no acknowledged command and duplicates none."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import Campaign, ServerProcess, bearer, free_port

from talespin.store import open_store
from talespin.table import TableService, Viewer
from talespin.table.views import NOTES_SHOWN

CLIENTS = 10
COMMANDS = 200


def _client_loop(url: str, campaign: Campaign, number: int, acked: list[str], stop: threading.Event) -> None:
    """Send this client's share of notes, retrying on 409 with a fresh version; record each acknowledged."""
    headers = bearer(campaign.gm_token)
    with httpx.Client(base_url=url, timeout=5.0) as http:
        for index in range(COMMANDS // CLIENTS):
            text = f"client {number} note {index}"
            for _attempt in range(200):
                if stop.is_set():
                    return
                try:
                    version = http.get(f"{campaign.base}/state", headers=headers).json()["version"]
                    body = {"command": {"do": "note", "text": text}, "expected_version": version}
                    response = http.post(f"{campaign.base}/commands", json=body, headers=headers)
                except httpx.HTTPError:
                    return  # the server is gone
                if response.status_code == 200:
                    acked.append(text)
                    break
                if response.status_code != 409:
                    raise AssertionError(response.text)


@pytest.mark.slow
def test_sigkill_mid_stream_keeps_every_acknowledged_command(tmp_path: Path) -> None:
    """200 notes from 10 clients, SIGKILL part-way: after a restart each acknowledged note is there once."""
    db = tmp_path / "durable.db"
    server = ServerProcess(db, free_port())
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=5.0) as http:
            campaign = Campaign.create(http, "ascend")
        acked: list[str] = []
        stop = threading.Event()
        threads = [
            threading.Thread(target=_client_loop, args=(server.url, campaign, n, acked, stop))
            for n in range(CLIENTS)
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while len(acked) < COMMANDS // 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        server.kill()
        stop.set()
        for thread in threads:
            thread.join(timeout=15)
        assert not any(thread.is_alive() for thread in threads)
        assert len(acked) >= COMMANDS // 2 - CLIENTS
    finally:
        server.stop()

    restarted = ServerProcess(db, free_port())
    restarted.start()
    try:
        with httpx.Client(base_url=restarted.url, timeout=5.0) as http:
            events: list[dict[str, Any]] = http.get(
                f"{campaign.base}/events", headers=bearer(campaign.gm_token)
            ).json()["events"]
            state = http.get(f"{campaign.base}/state", headers=bearer(campaign.gm_token)).json()
    finally:
        restarted.stop()

    logged = [e["data"]["text"] for e in events if e["type"] == "NoteAdded"]
    for text in acked:
        assert logged.count(text) == 1, f"{text!r} is in the log {logged.count(text)} times"
    assert len(logged) == len(set(logged))
    # the state carries the newest notes and counts them all; the log has every one
    assert state["notes_total"] == len(logged)
    assert [n["text"] for n in state["notes"]] == logged[-NOTES_SHOWN:]

    store = open_store(f"sqlite:///{db}")
    replayed = TableService(store)
    ledger = replayed.ledger(campaign.id)
    assert [e.version for e in ledger.log] == list(range(1, ledger.version + 1))
    assert replayed.state(campaign.id, Viewer("gm")) == state
    store.close()
