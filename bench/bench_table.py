"""The game table under load: durable rolls per second against the real server, and their p99 latency.

A real ``talespin serve`` process runs on loopback over SQLite (WAL, ``synchronous=FULL``: every
acknowledged command is on disk). 50 concurrent clients (one asyncio process, a minimal keep-alive
HTTP/1.1 client each), each with its own Ascend campaign and hero, send ``test`` commands (server dice,
committed seed) as fast as the answers come back; the same clients also hit the bare ``/api/health``
endpoint of the same app. The two loads alternate (5 rounds of 2 s rolls and 1 s no-ops) so a change of
load on a shared machine affects both; ``table_roll_vs_noop`` is the ratio of the two rates. Figures:
``table_roll_rps``, ``table_roll_p99_ms`` (p99 latency of a roll, ms), ``table_noop_rps``,
``table_roll_vs_noop``, ``table_clients``. The server, the clients and the campaigns are :mod:`load`'s, as
for the other table benchmarks (its rate limits are off: every client comes from one loopback address).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from load import TEST, Http, Server, Table, percentile, table_for

CLIENTS = 50
ROUNDS = 5
ROLL_SECONDS = 2.0
NOOP_SECONDS = 1.0


async def _rolls(http: Http, table: Table, until: float, latencies: list[float]) -> None:
    while time.perf_counter() < until:
        started = time.perf_counter()
        body = {"command": TEST, "expected_version": table.version}
        status, answer = await http.request("POST", f"{table.base}/commands", body, table.gm_token)
        if status != 200:
            raise RuntimeError(str(answer))
        table.version = int(answer["version"])
        latencies.append(time.perf_counter() - started)


async def _noops(http: Http, until: float, latencies: list[float]) -> None:
    while time.perf_counter() < until:
        started = time.perf_counter()
        status, answer = await http.request("GET", "/api/health")
        if status != 200:
            raise RuntimeError(str(answer))
        latencies.append(time.perf_counter() - started)


async def _measure(port: int) -> dict[str, Any]:
    connections = [Http(port) for _ in range(CLIENTS)]
    try:
        tables = await asyncio.gather(*(table_for(http) for http in connections))
        rolls: list[float] = []
        noops: list[float] = []
        roll_time = noop_time = 0.0
        for _ in range(ROUNDS):  # interleaved, so a change of load on the machine hits both alike
            started = time.perf_counter()
            await asyncio.gather(
                *(
                    _rolls(http, table, started + ROLL_SECONDS, rolls)
                    for http, table in zip(connections, tables, strict=True)
                )
            )
            roll_time += time.perf_counter() - started
            started = time.perf_counter()
            await asyncio.gather(*(_noops(http, started + NOOP_SECONDS, noops) for http in connections))
            noop_time += time.perf_counter() - started
        roll_rate, noop_rate = len(rolls) / roll_time, len(noops) / noop_time
    finally:
        for http in connections:
            http.close()
    return {
        "table_roll_rps": round(roll_rate, 1),
        "table_roll_p99_ms": round(percentile(rolls), 2),
        "table_noop_rps": round(noop_rate, 1),
        "table_roll_vs_noop": round(roll_rate / noop_rate, 3),
        "table_clients": CLIENTS,
    }


def run() -> dict[str, float | int | str]:
    """Start a server on a temporary SQLite file (:class:`load.Server`), measure, stop it."""
    server = Server("sqlite").start()
    try:
        return asyncio.run(_measure(server.port))
    finally:
        server.stop()


if __name__ == "__main__":
    print(run())
