"""What the table benchmarks share: real ``talespin serve`` processes, cheap clients, how figures are read.

Not a benchmark module itself (``bench/run.py`` runs only ``bench_*.py``). The pieces:

* :class:`Server`: ``talespin serve`` as a child process on a free loopback port, on a SQLite file or on a
  fresh PostgreSQL schema of its own (dropped when it stops), optionally with ``--workers N``; its CPU
  time (the process and every worker under it) is read from ``/proc``.
* :class:`Http`: a minimal keep-alive HTTP/1.1 client on one socket, so thousands of requests a second cost
  the load generator little next to the server it measures.
* :func:`table_for`: an Ascend campaign with one hero, and the players who joined it.
* :func:`percentile`: the p-th percentile of a list of latencies, in milliseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

POSTGRES = os.environ.get("TALESPIN_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
"""The PostgreSQL database the benchmarks use (each server gets a schema of its own inside it)."""

HERO = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "convictions": {"Protect the weak": 4},
    "traits": {"Agility": 3, "Strength": 2},
    "backgrounds": {"Avanus": 1},
    "aids": {},
}
TEST = {"do": "test", "hero": "Susan", "skill": "Athletics", "difficulty": 0, "trait": "Agility"}
"""The durable command every table benchmark sends: an Ascend Test rolled with the server's dice."""

_TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def postgres_available() -> bool:
    """Whether the benchmark database answers (the PostgreSQL figures are skipped, and say so, if not)."""
    try:
        import psycopg  # noqa: PLC0415 - only the PostgreSQL benchmarks need it

        with psycopg.connect(POSTGRES, connect_timeout=3):
            return True
    except Exception:
        return False


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += [int(child) for child in task.read_text().split()]
    return found


def _cpu_ticks(pid: int) -> int:
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return int(fields[11]) + int(fields[12])  # utime + stime of the process (every thread)
    return 0


@dataclass
class Server:
    """``talespin serve`` on a free port; ``store`` is ``"sqlite"`` or ``"postgres"``, with ``workers``."""

    store: str
    workers: int = 1
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    schema: str | None = None
    _directory: Any = None
    _log: Any = None

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, schema: str | None = None) -> Server:
        """Start it (on ``schema`` if given: several servers may share one) and wait until it answers."""
        import tempfile  # noqa: PLC0415

        if self.store == "sqlite":
            self._directory = tempfile.TemporaryDirectory(prefix="talespin-bench-")
            db, extra = f"sqlite:///{Path(self._directory.name) / 'bench.db'}", []
        else:
            self.schema = schema or f"talespin_bench_{secrets.token_hex(6)}"
            db, extra = POSTGRES, ["--schema", self.schema]
        script = Path(sys.executable).with_name("talespin")
        command = (
            [str(script)]
            if script.exists()
            else [sys.executable, "-c", "from talespin.cli import main; main()"]
        )
        self._log = tempfile.TemporaryFile(prefix="talespin-bench-log-")  # noqa: SIM115 - closed by stop()
        # Rate limits off: every client of a benchmark comes from one loopback address.
        arguments = ["serve", "--db", db, *extra, "--workers", str(self.workers), "--limits", "off"]
        self.process = subprocess.Popen(
            [*command, *arguments, *self._address()],
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the {self.store} server exited at start ({self.process.returncode})")
            with contextlib.suppress(httpx.HTTPError):
                answered = httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200
                if answered and (self.workers == 1 or len(_children(self.process.pid)) >= self.workers):
                    time.sleep(0.5 if self.workers > 1 else 0)  # every worker past its start-up
                    return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the {self.store} server did not answer /api/health in time")

    def _address(self) -> list[str]:
        return ["--host", "127.0.0.1", "--port", str(self.port)]

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by the server process and every worker process under it."""
        if self.process is None:
            return 0.0
        pids = [self.process.pid, *_children(self.process.pid)]
        return sum(_cpu_ticks(pid) for pid in pids) / _TICK

    def log_tail(self, characters: int = 3000) -> str:
        """The end of what the server printed (its tracebacks, when it answered 500)."""
        if self._log is None:
            return ""
        self._log.seek(0)
        return str(self._log.read().decode(errors="replace")[-characters:])

    def stop(self, *, drop: bool = True) -> None:
        """Stop it by its PID (SIGTERM, then SIGKILL); drop its PostgreSQL schema unless told not to."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self._log is not None:
            self._log.close()
            self._log = None
        if self._directory is not None:
            self._directory.cleanup()
            self._directory = None
        if drop and self.schema is not None:
            drop_schema(self.schema)


def drop_schema(schema: str) -> None:
    """Remove a benchmark's PostgreSQL schema and its tables."""
    import psycopg  # noqa: PLC0415

    with psycopg.connect(POSTGRES, autocommit=True) as connection:
        connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')  # type: ignore[arg-type]


class Http:
    """A minimal HTTP/1.1 keep-alive client on one socket (JSON bodies, Content-Length answers)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        """Send one request and read its answer: the status and the decoded JSON body.

        A connection the server closed while idle (uvicorn does after 5 s) is opened again and the request
        sent once more: the server never read it.
        """
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        for _ in range(2):
            if self.reader is None or self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                self.writer.write(head.encode() + b"\r\n" + payload)
                status_line = await self.reader.readline()
            except ConnectionError:
                status_line = b""
            if status_line:
                break
            self.close()
        else:
            raise ConnectionError(f"{method} {path}: the server closed the connection twice")
        assert self.reader is not None
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, json.loads(await self.reader.readexactly(length))

    async def ok(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """A request that must succeed (2xx): its body."""
        status, answer = await self.request(method, path, body, token)
        if not 200 <= status < 300:
            raise RuntimeError(f"{method} {path}: {status} {answer}")
        return answer

    def close(self) -> None:
        """Close the socket."""
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


@dataclass
class Table:
    """One Ascend campaign with the hero ``Susan``: its id, GM token, players' tokens and latest version."""

    id: str
    gm_token: str
    player_tokens: list[str]
    version: int

    @property
    def base(self) -> str:
        """The campaign's API path."""
        return f"/api/campaigns/{self.id}"

    @property
    def tokens(self) -> list[str]:
        """The GM's token first, then each player's."""
        return [self.gm_token, *self.player_tokens]


async def table_for(http: Http, players: int = 0) -> Table:
    """A fresh Ascend campaign with one hero and ``players`` players joined by its invite."""
    made = await http.ok("POST", "/api/campaigns", {"name": "bench", "system": "ascend"})
    base = f"/api/campaigns/{made['id']}"
    body = {"command": {"do": "add_character", "sheet": HERO}, "expected_version": made["version"]}
    version = int((await http.ok("POST", f"{base}/commands", body, made["gm_token"]))["version"])
    tokens = []
    for number in range(players):
        joined = await http.ok(
            "POST", f"{base}/join", {"invite_token": made["invite_token"], "name": f"Player {number + 1}"}
        )
        tokens.append(joined["player_token"])
        version = int(joined["version"])
    return Table(made["id"], made["gm_token"], tokens, version)


def settle_client() -> None:
    """Freeze what the load generator has built so far (its connections, sockets and tables).

    The generator is a Python process too: a full pass of its own garbage collector over 500 sockets stops
    its event loop for 20-50 ms, and every answer arriving meanwhile would be timed as the server's delay.
    Frozen, those objects are left out of its collections while it measures (see the server's own
    ``talespin.web.collector``).
    """
    gc.collect()
    gc.freeze()


def percentile(latencies: list[float], share: float = 0.99) -> float:
    """The ``share`` percentile of latencies given in seconds, in milliseconds (0 for no samples)."""
    if not latencies:
        return 0.0
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000
