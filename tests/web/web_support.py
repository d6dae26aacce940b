"""Helpers of the HTTP tests: a campaign driven over HTTP, and a `talespin serve` child process."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bearer(token: str) -> dict[str, str]:
    """The Authorization header for a token."""
    return {"Authorization": f"Bearer {token}"}


@contextmanager
def all_running(servers: list[ServerProcess]) -> Iterator[list[ServerProcess]]:
    """``servers`` started side by side (every one launched, then each waited for), stopped afterwards.

    Every server is stopped by its PID on the way out, even when another failed to start.
    """
    try:
        for server in servers:
            server.launch()
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()


def in_threads(count: int, work: Callable[[int], None], timeout: float = 30.0) -> None:
    """Run ``work(0)`` … ``work(count - 1)``, each in a thread of its own, all at once; wait for every one."""
    threads = [threading.Thread(target=work, args=(number,)) for number in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)


def one_winner(racers: int, send: Callable[[httpx.Client, int], httpx.Response]) -> int:
    """The racer whose request got 200 when ``racers`` of them sent at one moment; every other got 409.

    Each racer is a thread with an HTTP client of its own, released by one barrier, and sends
    ``send(client, racer)``: commands that all expect the same version, so exactly one can be accepted.
    """
    barrier = threading.Barrier(racers)
    statuses: dict[int, int] = {}

    def race(racer: int) -> None:
        with httpx.Client(timeout=10.0) as own:
            barrier.wait(timeout=10)
            statuses[racer] = send(own, racer).status_code

    in_threads(racers, race)
    counted = Counter(statuses.values())
    assert counted == {200: 1, 409: racers - 1}, counted
    return next(racer for racer, status in statuses.items() if status == 200)


@dataclass
class Campaign:
    """A campaign on an HTTP client (TestClient or httpx.Client), with its GM's and players' tokens."""

    client: Any
    id: str
    gm_token: str
    invite_token: str
    created: dict[str, Any]

    @classmethod
    def create(cls, client: Any, system: str, name: str = "Test") -> Campaign:
        """Create a campaign over HTTP."""
        response = client.post("/api/campaigns", json={"name": name, "system": system})
        assert response.status_code == 201, response.text
        body = response.json()
        return cls(client, body["id"], body["gm_token"], body["invite_token"], body)

    @property
    def base(self) -> str:
        """The campaign's API path."""
        return f"/api/campaigns/{self.id}"

    def join(self, name: str) -> str:
        """A new player's token."""
        response = self.client.post(
            f"{self.base}/join", json={"invite_token": self.invite_token, "name": name}
        )
        assert response.status_code == 201, response.text
        return str(response.json()["player_token"])

    def version(self, token: str | None = None) -> int:
        """The current version, as read through the state endpoint."""
        return int(self.state(token)["version"])

    def state(self, token: str | None = None) -> dict[str, Any]:
        """The state as a token sees it."""
        response = self.client.get(f"{self.base}/state", headers=bearer(token or self.gm_token))
        assert response.status_code == 200, response.text
        return dict(response.json())

    def post(self, command: dict[str, Any], token: str | None = None, version: int | None = None) -> Any:
        """Send a command (at the current version unless given); the raw response."""
        token = token or self.gm_token
        expected = self.version(token) if version is None else version
        body = {"command": command, "expected_version": expected}
        return self.client.post(f"{self.base}/commands", json=body, headers=bearer(token))

    def send(self, command: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        """Send a command that must succeed; the response body."""
        response = self.post(command, token)
        assert response.status_code == 200, response.text
        return dict(response.json())


class ServerProcess:
    """`talespin serve` as a child process; started and waited for with bounded timeouts.

    ``db`` is a SQLite file, or a store URL as ``--db`` takes it (``postgresql://…``, with ``schema``);
    ``extra`` adds options such as ``--workers``. ``limits`` is ``--limits``: off unless a test asks (these
    servers are hammered by racing, retrying and reconnecting clients; the limits have tests of their own).
    ``launcher`` runs another Python file instead of ``talespin`` (``fixed_serve.py``: a server whose runs
    repeat exactly), with the same arguments; ``script`` another ``talespin`` (a wheel's, in its own venv).

    As a user starts it: ``db=None`` passes no ``--db`` (the server's default, ``talespin.db`` in ``cwd``),
    ``limits=None`` no ``--limits`` (the limits on), ``env`` the whole environment of the process (default:
    this one's). Used as a context manager, it is started on entry and stopped by its PID on exit.
    """

    def __init__(
        self,
        db: Path | str | None,
        port: int,
        *,
        schema: str | None = None,
        extra: tuple[str, ...] = (),
        limits: str | None = "off",
        launcher: Path | None = None,
        script: Path | None = None,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.db = db
        self.launcher = launcher
        self.script = script
        self.cwd = cwd
        self.env = env
        self.limits = limits
        self.port = port
        self.schema = schema
        self.extra = extra
        self.url = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.output = ""

    @property
    def store_url(self) -> str:
        """The ``--db`` value of this server (``talespin.db`` in its folder when none is given)."""
        if self.db is None:
            return f"sqlite:///{(self.cwd or Path.cwd()) / 'talespin.db'}"
        return f"sqlite:///{self.db}" if isinstance(self.db, Path) else self.db

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def launch(self) -> None:
        """Start the server process without waiting for it (see :meth:`wait_ready`)."""
        script = self.script or Path(sys.executable).with_name("talespin")
        command = (
            [sys.executable, str(self.launcher)]
            if self.launcher is not None
            else [str(script)]
            if script.exists()
            else [sys.executable, "-c", "from talespin.cli import main; main()"]
        )
        db = ["--db", self.store_url] if self.db is not None else []
        schema = ["--schema", self.schema] if self.schema else []
        limits = ["--limits", self.limits] if self.limits is not None else []
        self.process = subprocess.Popen(
            [
                *command,
                "serve",
                *db,
                *schema,
                *self.extra,
                *limits,
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=self.cwd,
            env={**(os.environ if self.env is None else self.env), "COLUMNS": "200"},
        )

    def read_line(self) -> str:
        """The next line the server printed (after :meth:`start`, its first: where it serves)."""
        assert self.process is not None and self.process.stdout is not None, "launch() first"
        return self.process.stdout.readline().decode(errors="replace")

    def wait_ready(self, timeout: float = 90.0) -> None:
        """Wait until /api/health answers 200 (with PostgreSQL: once the LISTEN link is up)."""
        assert self.process is not None, "launch() first"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited early: {self.process.stdout.read() if self.process.stdout else ''!r}"
                )
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/health", timeout=1.0).status_code == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer /api/health in {timeout:.0f} s: {self.output!r}")

    def start(self, timeout: float = 90.0) -> None:
        """Start the server and wait until /api/health answers."""
        self.launch()
        self.wait_ready(timeout)

    def kill(self) -> None:
        """SIGKILL the server: no clean shutdown at all."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop the server (terminate, then kill) and close its pipe; stopping twice is harmless."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.process.stdout is not None and not self.process.stdout.closed:
            self.output += self.process.stdout.read().decode(errors="replace")
            self.process.stdout.close()
