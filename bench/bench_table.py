"""The game table under load: durable rolls per second against the real server, and their p99 latency.

A real ``talespin serve`` process runs on loopback over SQLite (WAL, ``synchronous=FULL``: every
acknowledged command is on disk). 50 concurrent clients (one asyncio process, a minimal keep-alive
HTTP/1.1 client each), each with its own Ascend campaign and hero, send ``test`` commands (server dice,
committed seed) as fast as the answers come back; the same clients also hit the bare ``/api/health``
endpoint of the same app. The two loads alternate (5 rounds of 2 s rolls and 1 s no-ops) so a change of
load on a shared machine affects both; ``table_roll_vs_noop`` is the ratio of the two rates. Figures:
``table_roll_rps``, ``table_roll_p99_ms`` (p99 latency of a roll, ms), ``table_noop_rps``,
``table_roll_vs_noop``, ``table_clients``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

CLIENTS = 50
ROUNDS = 5
ROLL_SECONDS = 2.0
NOOP_SECONDS = 1.0
HERO = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "convictions": {"Protect the weak": 4},
    "traits": {"Agility": 3, "Strength": 2},
    "backgrounds": {"Avanus": 1},
    "aids": {},
}
TEST = {"do": "test", "hero": "Susan", "skill": "Athletics", "difficulty": 0, "trait": "Agility"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    script = Path(sys.executable).with_name("talespin")
    command = (
        [str(script)] if script.exists() else [sys.executable, "-c", "from talespin.cli import main; main()"]
    )
    process = subprocess.Popen(
        [*command, "serve", "--db", f"sqlite:///{db}", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return process
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


class _Connection:
    """A minimal HTTP/1.1 keep-alive client on one socket, so the clients cost little next to the server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, json.loads(await self.reader.readexactly(length))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _setup(http: _Connection) -> tuple[str, str, int]:
    _, made = await http.request("POST", "/api/campaigns", {"name": "bench", "system": "ascend"})
    body = {"command": {"do": "add_character", "sheet": HERO}, "expected_version": made["version"]}
    _, added = await http.request("POST", f"/api/campaigns/{made['id']}/commands", body, made["gm_token"])
    return made["id"], made["gm_token"], int(added["version"])


async def _rolls(
    http: _Connection, campaign: tuple[str, str, int], until: float, latencies: list[float]
) -> int:
    campaign_id, token, version = campaign
    while time.perf_counter() < until:
        started = time.perf_counter()
        body = {"command": TEST, "expected_version": version}
        status, answer = await http.request("POST", f"/api/campaigns/{campaign_id}/commands", body, token)
        if status != 200:
            raise RuntimeError(str(answer))
        version = int(answer["version"])
        latencies.append(time.perf_counter() - started)
    return version


async def _noops(http: _Connection, until: float, latencies: list[float]) -> None:
    while time.perf_counter() < until:
        started = time.perf_counter()
        status, answer = await http.request("GET", "/api/health")
        if status != 200:
            raise RuntimeError(str(answer))
        latencies.append(time.perf_counter() - started)


def _p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


async def _measure(port: int) -> dict[str, Any]:
    connections = [_Connection(port) for _ in range(CLIENTS)]
    try:
        campaigns = list(await asyncio.gather(*(_setup(http) for http in connections)))
        rolls: list[float] = []
        noops: list[float] = []
        roll_time = noop_time = 0.0
        for _ in range(ROUNDS):  # interleaved, so a change of load on the machine hits both alike
            started = time.perf_counter()
            versions = await asyncio.gather(
                *(
                    _rolls(http, c, started + ROLL_SECONDS, rolls)
                    for http, c in zip(connections, campaigns, strict=True)
                )
            )
            roll_time += time.perf_counter() - started
            campaigns = [(c[0], c[1], v) for c, v in zip(campaigns, versions, strict=True)]
            started = time.perf_counter()
            await asyncio.gather(*(_noops(http, started + NOOP_SECONDS, noops) for http in connections))
            noop_time += time.perf_counter() - started
        roll_rate, noop_rate = len(rolls) / roll_time, len(noops) / noop_time
    finally:
        for http in connections:
            http.close()
    return {
        "table_roll_rps": round(roll_rate, 1),
        "table_roll_p99_ms": round(_p99(rolls), 2),
        "table_noop_rps": round(noop_rate, 1),
        "table_roll_vs_noop": round(roll_rate / noop_rate, 3),
        "table_clients": CLIENTS,
    }


def run() -> dict[str, float | int | str]:
    """Start a server on a temporary SQLite file, measure, stop it."""
    with tempfile.TemporaryDirectory(prefix="talespin-bench-") as directory:
        port = _free_port()
        server = _start_server(Path(directory) / "bench.db", port)
        try:
            return asyncio.run(_measure(port))
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    print(run())
