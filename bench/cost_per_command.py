"""What one durable command costs the server: CPU (user and system) and context switches, under saturation.

Not a benchmark (``bench/run.py`` runs only ``bench_*.py``): a tool that explains the table figures, and
that compares two versions of the code on the same machine in the same minutes. It starts a real
``talespin serve`` (:mod:`load`), sets up ``bench_cluster``'s load (100 campaigns, each with its GM and four
players holding a WebSocket, unless ``--no-sockets``), warms up, then runs rounds of saturation (100 clients
sending commands as fast as answers come) and reads the server's CPU and context switches from ``/proc``
around them. Everything is per command answered. With ``--no-op`` the rounds are of the benchmark's no-op
(``GET /api/health``) instead, per request answered.

    .venv/bin/python bench/cost_per_command.py [postgres|sqlite] [--no-sockets] [--no-op] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_cluster as cluster
from load import Http, Server
from websockets.asyncio.client import connect

_TICK = os.sysconf("SC_CLK_TCK")


def _ticks(pid: int) -> tuple[int, int]:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return int(fields[11]), int(fields[12])  # utime, stime of every thread


def _switches(pid: int) -> tuple[int, int]:
    voluntary = involuntary = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for line in (task / "status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name == "voluntary_ctxt_switches":
                voluntary += int(value)
            elif name == "nonvoluntary_ctxt_switches":
                involuntary += int(value)
    return voluntary, involuntary


async def _measure(server: Server, sockets: bool, rounds: int, noop: bool) -> str:
    tables = await cluster._setup(server, cluster.CAMPAIGNS, cluster.CLIENTS_PER_CAMPAIGN - 1)
    opened = []
    if sockets:
        opened = [
            await connect(cluster._ws(server, table, token), open_timeout=30)
            for table in tables
            for token in table.tokens
        ]
    followers = [
        asyncio.ensure_future(cluster._follow(socket, tables[i // cluster.CLIENTS_PER_CAMPAIGN]))
        for i, socket in enumerate(opened)
    ]
    clients = [Http(server.port) for _ in tables]
    try:
        await cluster._rounds(clients, tables, 1)  # warm up
        # (almost) only commands, or only no-ops, from here
        cluster.NOOP_SECONDS, cluster.SATURATION_SECONDS = (3.0, 0.01) if noop else (0.01, 3.0)
        assert server.process is not None
        pid = server.process.pid
        (user, system), (voluntary, involuntary) = _ticks(pid), _switches(pid)
        started = time.perf_counter()
        command_rate, noop_rate = await cluster._rounds(clients, tables, rounds)
        elapsed = time.perf_counter() - started
        rate = noop_rate if noop else command_rate
        (user_after, system_after), (voluntary_after, involuntary_after) = _ticks(pid), _switches(pid)
    finally:
        for http in clients:
            http.close()
        for socket in opened:
            await socket.close()
        for follower in followers:
            follower.cancel()
    commands = rate * elapsed
    what = "no-op" if noop else "command"
    return (
        f"{rate:.0f} {what}s/s; per {what}: user {(user_after - user) / _TICK / commands * 1e3:.3f} ms, "
        f"system {(system_after - system) / _TICK / commands * 1e3:.3f} ms; context switches "
        f"{(voluntary_after - voluntary) / commands:.1f} voluntary, "
        f"{(involuntary_after - involuntary) / commands:.1f} involuntary"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", nargs="?", default="postgres", choices=["postgres", "sqlite"])
    parser.add_argument("--no-sockets", action="store_true", help="no WebSocket open: the command alone")
    parser.add_argument("--no-op", action="store_true", help="measure the no-op (GET /api/health) instead")
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    server = Server(options.store).start()
    try:
        print(asyncio.run(_measure(server, not options.no_sockets, options.rounds, options.no_op)))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
