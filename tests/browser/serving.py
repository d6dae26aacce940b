"""A real ``talespin serve`` over a SQLite file, for the browser tests and the page benchmarks.

:func:`serving` starts it on a free loopback port, waits until it answers, and stops it by its PID after.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

__all__ = ["serving"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _talespin() -> list[str]:
    script = Path(sys.executable).with_name("talespin")
    if script.exists():
        return [str(script)]
    found = shutil.which("talespin")
    if found:
        return [found]
    return [sys.executable, "-m", "talespin.cli"]


def _wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"talespin serve exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"talespin serve did not answer within 60 s:\n{log.read_text()}")


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``talespin serve`` on a free port over the SQLite file ``folder/talespin.db`` (made if missing): its
    base URL while the block runs; the process is stopped after it."""
    port = _free_port()
    log = folder / "server.log"
    command = [*_talespin(), "serve", "--db", f"sqlite:///{folder / 'talespin.db'}"]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    # one address makes every campaign of a module and joins them (dozens within minutes, as no public
    # server's single client would): the creation and join limits are off (tested apart, in
    # tests/web/test_edge.py and test_shared_limits.py); the request limits per token and per address stay
    # at their defaults, which the pages' own traffic must fit
    command += ["--limits", "create=off,join=off,campaign_join=off"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=folder, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, process, log)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
