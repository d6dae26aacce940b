"""The table as players feel it: open-loop load on many campaigns, fan-out across processes, and saturation.

Every figure comes from real ``talespin serve`` processes (:mod:`load`); the load comes from this process
(asyncio, minimal HTTP/1.1 clients, the ``websockets`` client), so server and load share the machine's cores.

* ``fanout_p99_ms``: three server processes on one PostgreSQL schema, one campaign, 50 WebSocket
  subscribers spread over the three. Commands are committed one at a time (20 a second) through each process
  in turn; for every frame a subscriber receives on a process *other* than the one that committed it, the
  latency is the receiving wall-clock time minus the event's ``at`` (stamped by the server just before the
  commit, on the same machine's clock). ``fanout_same_process_p99_ms`` is the same for the committing process.
* ``table_open_loop_p99_ms_sqlite`` / ``…_postgres``: one server process; 100 campaigns, each with its GM and
  4 players holding a WebSocket (500 sockets). Commands (an Ascend Test with server dice, sent as the GM)
  arrive as a Poisson process at ``table_open_loop_rate`` a second, each on a random campaign, whether or not
  earlier ones have been answered (open loop: a slow server is not allowed to slow the arrivals). A command
  follows the latest version its campaign's sockets have told of; a 409 (someone else's command got there
  first) is retried at the version it names, as the page does. The latency runs from the command's scheduled
  arrival to its acknowledgement, retries included; a command still unanswered 10 s after the arrivals end
  counts with the time it has waited (``…_unanswered_…``). ``table_open_loop_p99_ms`` is the worse of the
  two stores. The same load at half the saturation rate measured on that server in the same run gives
  ``table_open_loop_half_saturation_p99_ms_…`` (at ``…_half_saturation_rps_…``): the latency where the
  machine is not overloaded, whatever else shares it.
* ``table_saturation_vs_noop`` (PostgreSQL) and ``table_saturation_vs_noop_sqlite``: on the same server, with
  the 500 sockets still open, 100 clients (one per campaign) send commands as fast as answers come back,
  alternating with rounds in which the same clients call ``/api/health`` (no database): command rate over
  no-op rate.
* ``workers_3_vs_1``: saturation command rate of ``talespin serve --workers 3`` over ``--workers 1``, both on
  PostgreSQL, run side by side and measured in alternating rounds (100 campaigns each, one keep-alive client
  per campaign, no sockets).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from load import TEST, Http, Server, Table, percentile, postgres_available, settle_client, table_for
from websockets.asyncio.client import ClientConnection, connect

Figure = float | int | str

FANOUT_SUBSCRIBERS = 50
FANOUT_COMMANDS = 150
FANOUT_PAUSE = 0.05
CAMPAIGNS = 100
CLIENTS_PER_CAMPAIGN = 5
OPEN_LOOP_RATE = 300.0
OPEN_LOOP_SECONDS = 8.0
WARM_UP_SECONDS = 2.0
GRACE_SECONDS = 10.0
"""How long the open loop waits for the last answers; one still missing then counts as unanswered."""
SATURATION_ROUNDS = 3
SATURATION_SECONDS = 2.0
NOOP_SECONDS = 1.0


def _ws(server: Server, table: Table, token: str) -> str:
    return f"ws://127.0.0.1:{server.port}{table.base}/ws?token={token}&after={table.version}"


async def _setup(server: Server, count: int, players: int) -> list[Table]:
    connections = [Http(server.port) for _ in range(10)]
    try:
        tables: list[Table] = []
        for start in range(0, count, len(connections)):
            batch = range(start, min(count, start + len(connections)))
            tables += await asyncio.gather(*(table_for(connections[i - start], players) for i in batch))
        return tables
    finally:
        for http in connections:
            http.close()


# ---------- fan-out across processes ----------


async def _record(socket: ClientConnection, seen: list[tuple[int, float]]) -> None:
    with contextlib.suppress(Exception):
        async for frame in socket:
            event = json.loads(frame)
            if "version" in event:
                seen.append((int(event["version"]), time.time() - _stamp(event["at"])))


def _stamp(at: str) -> float:
    return datetime.fromisoformat(at).timestamp()


async def _fanout(servers: list[Server]) -> dict[str, Figure]:
    http = [Http(server.port) for server in servers]
    table = await table_for(http[0])
    sockets = [
        await connect(_ws(servers[i % len(servers)], table, table.gm_token), open_timeout=30)
        for i in range(FANOUT_SUBSCRIBERS)
    ]
    settle_client()
    seen: list[list[tuple[int, float]]] = [[] for _ in sockets]
    readers = [asyncio.ensure_future(_record(s, got)) for s, got in zip(sockets, seen, strict=True)]
    committed_by: dict[int, int] = {}
    version = table.version
    for number in range(FANOUT_COMMANDS):
        through = number % len(servers)
        body = {"command": TEST, "expected_version": version}
        answer = await http[through].ok("POST", f"{table.base}/commands", body, table.gm_token)
        for event in answer["events"]:
            committed_by[int(event["version"])] = through
        version = int(answer["version"])
        await asyncio.sleep(FANOUT_PAUSE)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(not got or got[-1][0] < version for got in seen):
        await asyncio.sleep(0.05)
    for socket in sockets:
        await socket.close()
    for reader in readers:
        reader.cancel()
    for client in http:
        client.close()
    other, same, missing = [], [], 0
    for index, got in enumerate(seen):
        home = index % len(servers)
        versions = {v for v, _ in got}
        missing += sum(1 for v in committed_by if v not in versions)
        for v, latency in got:
            (same if committed_by.get(v) == home else other).append(latency)
    return {
        "fanout_p99_ms": round(percentile(other), 2),
        "fanout_p50_ms": round(percentile(other, 0.5), 2),
        "fanout_same_process_p99_ms": round(percentile(same), 2),
        "fanout_frames": len(other) + len(same),
        "fanout_missing_frames": missing,
    }


# ---------- open loop on many campaigns ----------


class _Pool:
    """Idle keep-alive connections to one server, lent to one request at a time (more made on demand)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[Http] = []
        self.made: list[Http] = []

    def take(self) -> Http:
        if self.idle:
            return self.idle.pop()
        http = Http(self.port)
        self.made.append(http)
        return http

    def give(self, http: Http) -> None:
        self.idle.append(http)

    def close(self) -> None:
        for http in self.made:
            http.close()


async def _follow(socket: ClientConnection, table: Table) -> None:
    """A page's socket: each event frame tells the table's newest version."""
    with contextlib.suppress(Exception):
        async for frame in socket:
            event = json.loads(frame)
            if "version" in event:
                table.version = max(table.version, int(event["version"]))


async def _command(pool: _Pool, table: Table, due: float, latencies: list[float], retries: list[int]) -> None:
    http = pool.take()
    try:
        for _attempt in range(20):
            body = {"command": TEST, "expected_version": table.version}
            status, answer = await http.request("POST", f"{table.base}/commands", body, table.gm_token)
            if status == 200:
                table.version = max(table.version, int(answer["version"]))
                latencies.append(time.perf_counter() - due)
                return
            if status != 409:
                raise RuntimeError(f"command refused: {status} {answer}")
            retries.append(1)
            named = answer.get("error", {}).get("version")
            if isinstance(named, int):
                table.version = max(table.version, named)
        raise RuntimeError("a command lost the race 20 times in a row")
    finally:
        pool.give(http)


async def _open_loop(server: Server, tables: list[Table], rate: float, seconds: float) -> dict[str, Any]:
    pool = _Pool(server.port)
    chooser = random.Random(7)
    latencies: list[float] = []
    retries: list[int] = []
    running: dict[asyncio.Task[None], float] = {}
    errors: list[BaseException] = []
    start = time.perf_counter()
    due = start
    while due < start + seconds:
        due += chooser.expovariate(rate)
        pause = due - time.perf_counter()
        if pause > 0:
            await asyncio.sleep(pause)
        task = asyncio.ensure_future(_command(pool, chooser.choice(tables), due, latencies, retries))
        running[task] = due
        task.add_done_callback(lambda t: running.pop(t, None))
        task.add_done_callback(lambda t: t.cancelled() or not t.exception() or errors.append(t.exception()))
    if running:
        await asyncio.wait(list(running), timeout=GRACE_SECONDS)
    elapsed = time.perf_counter() - start
    unanswered, answered = len(running), len(latencies)
    now = time.perf_counter()
    # A command still unanswered counts with the time it has waited so far (a lower bound).
    latencies += [now - due for due in running.values()]
    for task in list(running):
        task.cancel()
    pool.close()
    if errors:
        raise RuntimeError(f"{len(errors)} commands failed, the first: {errors[0]}")
    return {
        "unanswered": unanswered,
        "p99": percentile(latencies),
        "p50": percentile(latencies, 0.5),
        "achieved": answered / elapsed,
        "retries": len(retries),
    }


async def _rounds(clients: list[Http], tables: list[Table], rounds: int) -> tuple[float, float]:
    """Alternating rounds of commands as fast as answers come and of no-ops: the two rates."""

    async def commands(http: Http, table: Table, until: float, done: list[int]) -> None:
        while time.perf_counter() < until:
            body = {"command": TEST, "expected_version": table.version}
            status, answer = await http.request("POST", f"{table.base}/commands", body, table.gm_token)
            if status == 200:
                table.version = max(table.version, int(answer["version"]))
                done.append(1)
            elif status == 409:
                table.version = max(table.version, int(answer["error"].get("version", table.version)))
            else:
                raise RuntimeError(f"command refused: {status} {answer}")

    async def noops(http: Http, until: float, done: list[int]) -> None:
        while time.perf_counter() < until:
            await http.ok("GET", "/api/health")
            done.append(1)

    command_count: list[int] = []
    noop_count: list[int] = []
    command_time = noop_time = 0.0
    for _ in range(rounds):
        started = time.perf_counter()
        until = started + SATURATION_SECONDS
        await asyncio.gather(
            *(commands(h, t, until, command_count) for h, t in zip(clients, tables, strict=True))
        )
        command_time += time.perf_counter() - started
        started = time.perf_counter()
        until = started + NOOP_SECONDS
        await asyncio.gather(*(noops(h, until, noop_count) for h in clients))
        noop_time += time.perf_counter() - started
    return len(command_count) / command_time, len(noop_count) / noop_time


async def _table_figures(server: Server) -> dict[str, Any]:
    tables = await _setup(server, CAMPAIGNS, CLIENTS_PER_CAMPAIGN - 1)
    sockets = []
    for table in tables:
        for token in table.tokens:
            sockets.append(await connect(_ws(server, table, token), open_timeout=30))
    settle_client()
    followers = [
        asyncio.ensure_future(_follow(socket, tables[i // CLIENTS_PER_CAMPAIGN]))
        for i, socket in enumerate(sockets)
    ]
    try:
        clients = [Http(server.port) for _ in tables]
        try:
            command_rate, noop_rate = await _rounds(clients, tables, SATURATION_ROUNDS)
        finally:
            for http in clients:
                http.close()
        half = max(1.0, command_rate / 2)
        await _open_loop(server, tables, half, WARM_UP_SECONDS)
        sustainable = await _open_loop(server, tables, half, OPEN_LOOP_SECONDS)
        # The stated rate comes last: past saturation, requests given up on still keep the server busy.
        stated = await _open_loop(server, tables, OPEN_LOOP_RATE, OPEN_LOOP_SECONDS)
    finally:
        for socket in sockets:
            await socket.close()
        for follower in followers:
            follower.cancel()
    return {
        **stated,
        "half_rate": half,
        "half_p99": sustainable["p99"],
        "command_rate": command_rate,
        "noop_rate": noop_rate,
    }


# ---------- three processes against one ----------


async def _workers(one: Server, three: Server) -> dict[str, Figure]:
    rates: dict[int, list[float]] = {1: [], 3: []}
    fleets = {}
    for server in (one, three):
        tables = await _setup(server, CAMPAIGNS, 0)
        fleets[server.workers] = (tables, [Http(server.port) for _ in tables])
    settle_client()
    try:
        for _ in range(SATURATION_ROUNDS):
            for workers, (tables, clients) in fleets.items():
                rate, _ = await _rounds(clients, tables, 1)
                rates[workers].append(rate)
    finally:
        for _, clients in fleets.values():
            for http in clients:
                http.close()
    one_rate, three_rate = sum(rates[1]) / len(rates[1]), sum(rates[3]) / len(rates[3])
    return {
        "workers_1_command_rps": round(one_rate, 1),
        "workers_3_command_rps": round(three_rate, 1),
        "workers_3_vs_1": round(three_rate / one_rate, 3),
    }


# ---------- the run ----------


def _with(servers: list[Server], work: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
    try:
        return asyncio.run(work())
    except Exception:
        for server in servers:
            print(f"--- {server.store} server, {server.workers} worker(s):\n{server.log_tail()}", flush=True)
        raise
    finally:
        for server in servers:
            server.stop()


def _store_figures(store: str) -> dict[str, Figure]:
    server = Server(store).start()
    got = _with([server], lambda: _table_figures(server))
    return {
        f"table_open_loop_p99_ms_{store}": round(got["p99"], 2),
        f"table_open_loop_p50_ms_{store}": round(got["p50"], 2),
        f"table_open_loop_achieved_rps_{store}": round(got["achieved"], 1),
        f"table_open_loop_retries_{store}": got["retries"],
        f"table_open_loop_unanswered_{store}": got["unanswered"],
        f"table_open_loop_half_saturation_rps_{store}": round(got["half_rate"], 1),
        f"table_open_loop_half_saturation_p99_ms_{store}": round(got["half_p99"], 2),
        f"table_saturation_rps_{store}": round(got["command_rate"], 1),
        f"table_saturation_noop_rps_{store}": round(got["noop_rate"], 1),
        f"table_saturation_vs_noop_{store}": round(got["command_rate"] / got["noop_rate"], 3),
    }


def _part(figures: dict[str, Figure], name: str, work: Callable[[], dict[str, Figure]]) -> None:
    """Run one part; a part that fails is reported as such and the others still run."""
    try:
        got = work()
    except Exception as error:
        got = {f"{name}_failed": f"{type(error).__name__}: {error}"}
    for key, value in got.items():
        print(f"[cluster]   {key} = {value}", flush=True)
    figures.update(got)


def _fanout_figures() -> dict[str, Figure]:
    first = Server("postgres").start()
    servers = [first]
    try:
        servers += [Server("postgres").start(first.schema) for _ in range(2)]
    except Exception:
        for server in servers:
            server.stop()
        raise
    return _with(list(reversed(servers)), lambda: _fanout(servers))


def _workers_figures() -> dict[str, Figure]:
    one = Server("postgres").start()
    try:
        three = Server("postgres", workers=3).start()
    except Exception:
        one.stop()
        raise
    return _with([one, three], lambda: _workers(one, three))


def run() -> dict[str, Figure]:
    """Every figure of the table under load; the PostgreSQL ones need the benchmark database."""
    figures: dict[str, Figure] = {
        "table_open_loop_rate": OPEN_LOOP_RATE,
        "table_open_loop_campaigns": CAMPAIGNS,
        "table_open_loop_sockets": CAMPAIGNS * CLIENTS_PER_CAMPAIGN,
    }
    _part(figures, "sqlite", lambda: _store_figures("sqlite"))
    if not postgres_available():
        figures["postgres"] = "SKIPPED: no PostgreSQL at TALESPIN_TEST_POSTGRES or 127.0.0.1:5432/test"
        return figures
    _part(figures, "postgres", lambda: _store_figures("postgres"))
    stores = [f"table_open_loop_p99_ms_{store}" for store in ("sqlite", "postgres")]
    if all(key in figures for key in stores):
        figures["table_open_loop_p99_ms"] = max(float(figures[key]) for key in stores)
    if "table_saturation_vs_noop_postgres" in figures:
        figures["table_saturation_vs_noop"] = figures["table_saturation_vs_noop_postgres"]
    _part(figures, "fanout", _fanout_figures)
    _part(figures, "workers", _workers_figures)
    return figures


if __name__ == "__main__":
    print(run())
