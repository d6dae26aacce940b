"""SIGKILL one of three server processes under load: its clients move on and nothing acknowledged is lost.

Also ``talespin serve --workers N`` (several processes on one port over PostgreSQL) and the refusals that
keep SQLite to one process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from cluster_support import POSTGRES, SKIP, Listener, cluster, replayed_state, visible_versions
from web_support import ServerProcess, bearer, free_port

WRITERS = 6
NOTES_EACH = 15


def _writer(
    servers: list[ServerProcess], campaign_id: str, token: str, number: int, acked: list[str]
) -> None:
    """Add this writer's notes, retrying on 409 and moving to the next process when one is gone.

    A note whose answer was lost with its process may have been committed: before sending it again the
    writer looks for it in the log, as a careful client would, and counts it as landed but unacknowledged.
    """
    index = number % len(servers)
    base = f"/api/campaigns/{campaign_id}"
    with httpx.Client(timeout=5.0) as http:
        for note in range(NOTES_EACH):
            text = f"writer {number} note {note}"
            unsure = False
            for _attempt in range(300):
                url = servers[index].url
                try:
                    state = http.get(f"{url}{base}/state", headers=bearer(token)).json()
                    if unsure and text in [n["text"] for n in state["notes"]]:
                        break  # committed by the process that died before it answered
                    body = {"command": {"do": "note", "text": text}, "expected_version": state["version"]}
                    answer = http.post(f"{url}{base}/commands", json=body, headers=bearer(token))
                except httpx.HTTPError:
                    index = (index + 1) % len(servers)  # this process is gone; a sent note may have landed
                    unsure = True
                    continue
                if answer.status_code == 200:
                    acked.append(text)
                    break
                assert answer.status_code == 409, answer.text
            else:
                raise AssertionError(f"{text} never got through")


@pytest.mark.postgres
def test_sigkill_one_process_under_load_loses_nothing() -> None:
    """Writers on 3 processes, one SIGKILLed mid-way: every acknowledged note is there once, every socket
    (those of the killed process reconnected elsewhere) received every event once, in order."""
    with cluster() as servers:
        made = httpx.post(f"{servers[0].url}/api/campaigns", json={"name": "Con", "system": "ascend"}).json()
        campaign_id, gm = made["id"], made["gm_token"]
        base = f"/api/campaigns/{campaign_id}"
        start = int(httpx.get(f"{servers[0].url}{base}/state", headers=bearer(gm)).json()["version"])
        victim, survivors = servers[1], [servers[0], servers[2]]
        listeners = [Listener([s, *survivors], base, gm, start) for s in servers for _ in range(2)]
        for listener in listeners:
            listener.start()
        for listener in listeners:
            listener.wait_open()
        acked: list[str] = []
        threads = [
            threading.Thread(target=_writer, args=(servers, campaign_id, gm, n, acked))
            for n in range(WRITERS)
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 20
        while len(acked) < WRITERS * NOTES_EACH // 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        victim.kill()
        for thread in threads:
            thread.join(timeout=60)
        assert not any(thread.is_alive() for thread in threads)
        assert len(acked) >= WRITERS * NOTES_EACH - WRITERS  # at most one answer lost per writer

        replay = replayed_state(servers[0], campaign_id)
        logged = [note["text"] for note in replay["notes"]]
        assert len(logged) == len(set(logged)) == WRITERS * NOTES_EACH  # every note once, none twice
        assert set(acked) <= set(logged)  # 0 acknowledged commands lost
        expected = visible_versions(servers[0], base, gm, start)
        for listener in listeners:
            listener.wait_for(expected[-1])
            listener.close()
            assert listener.versions == expected
        assert all(listener.reconnects == 1 for listener in listeners[2:4])
        for server in survivors:
            state = httpx.get(f"{server.url}{base}/state", headers=bearer(gm)).json()
            assert state == replay


@pytest.mark.postgres
def test_workers_share_one_port_over_postgresql() -> None:
    """`serve --workers 2` answers on one port with the LISTEN link up, and its answers agree."""
    if not POSTGRES:
        pytest.skip(SKIP)
    with cluster(size=1) as (single,):  # borrow a fresh schema; the pair of workers shares it
        server = ServerProcess(POSTGRES, free_port(), schema=single.schema, extra=("--workers", "2"))
        server.start()
        try:
            health = httpx.get(f"{server.url}/api/health", timeout=5).json()
            assert health == {"status": "ok", "store": "postgresql", "listen": "up"}
            made = httpx.post(f"{server.url}/api/campaigns", json={"name": "W", "system": "ii"}).json()
            base = f"{server.url}/api/campaigns/{made['id']}"
            versions = {
                httpx.get(f"{base}/state", headers=bearer(made["gm_token"])).json()["version"]
                for _ in range(10)
            }
            assert versions == {made["version"]}
        finally:
            server.stop()
        assert "2 processes" in server.output


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("talespin")
    return subprocess.run(
        [str(script), "serve", *args, "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )


def test_sqlite_refuses_several_workers(tmp_path: Path) -> None:
    """`serve --workers 2` on a SQLite file exits 2 and says to use PostgreSQL."""
    result = _serve("--db", str(tmp_path / "one.db"), "--workers", "2")
    assert result.returncode == 2
    assert "PostgreSQL" in result.stderr + result.stdout


def test_a_second_server_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    """While one server holds a SQLite file, a second `serve` on it exits 2 naming PostgreSQL."""
    db = tmp_path / "shared.db"
    first = ServerProcess(db, free_port())
    first.start()
    try:
        result = _serve("--db", f"sqlite:///{db}")
    finally:
        first.stop()
    assert result.returncode == 2
    assert "another talespin serve already runs" in result.stderr + result.stdout
    assert "PostgreSQL" in result.stderr + result.stdout
