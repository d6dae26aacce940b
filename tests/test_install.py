"""What a user gets: the built wheel in a fresh venv serves a live table; `make run` installs no dev tool.

Both tests install into a new virtual environment (from the package index, through pip's cache), so they are
marked slow. The served test runs the wheel's own ``talespin`` script from a directory outside the
repository and plays over HTTP and the WebSocket, as a person who typed ``pip install talespin`` would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).parent / "web"))
sys.path.insert(0, str(Path(__file__).parent / "table"))

from table_sheets import SUSAN
from web_support import Campaign, ServerProcess, bearer, free_port

ROOT = Path(__file__).resolve().parents[1]
DEVELOPER_TOOLS = ("pytest", "mypy", "ruff", "playwright", "hypothesis", "schemathesis", "icepool", "mkdocs")
"""Distributions a user's install must not bring (test, lint and docs tools)."""

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def _run(command: list[str], cwd: Path | None = None, timeout: float = 600) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def _installed(python: Path) -> set[str]:
    """The distribution names pip lists in the environment of ``python`` (lower case)."""
    listed = json.loads(_run([str(python), "-m", "pip", "list", "--format=json"]))
    return {entry["name"].lower() for entry in listed}


def _fresh_venv(where: Path) -> Path:
    venv.EnvBuilder(with_pip=True, clear=True).create(where)
    return where / "bin" / "python"


def _next_event(socket: object, kind: str) -> dict[str, object]:
    """The first event of type ``kind`` the socket receives (within 10 s per message)."""
    while True:
        message = json.loads(socket.recv(timeout=10))  # type: ignore[attr-defined]
        if message.get("type") == kind:
            return dict(message)


def test_the_wheel_serves_a_live_table_from_a_fresh_venv(tmp_path: Path) -> None:
    """Build the wheel, install it alone, serve from elsewhere: a command over HTTP reaches two sockets."""
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(ROOT)], timeout=600)
    (wheel,) = dist.glob("talespin-*.whl")
    python = _fresh_venv(tmp_path / "user-venv")
    _run([str(python), "-m", "pip", "install", "--quiet", str(wheel)])
    installed = _installed(python)
    assert {"talespin", "uvicorn", "websockets"} <= installed
    assert not installed & {*DEVELOPER_TOOLS, "psycopg", "matplotlib"}, installed

    elsewhere = tmp_path / "somewhere-else"
    elsewhere.mkdir()
    port = free_port()
    user_env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    served = ServerProcess(
        None, port, limits=None, script=python.with_name("talespin"), cwd=elsewhere, env=user_env
    )
    with served, httpx.Client(base_url=served.url, timeout=10) as http:
        campaign = Campaign.create(http, "ascend")
        player = campaign.join("Pia")
        base = f"ws://127.0.0.1:{port}{campaign.base}/ws?token="
        with connect(base + campaign.gm_token) as gm_socket, connect(base + player) as player_socket:
            answer = campaign.send({"do": "add_character", "sheet": SUSAN}, token=player)
            for socket in (gm_socket, player_socket):
                event = _next_event(socket, "HeroAdded")
                assert event["data"]["hero"] == "Susan"  # type: ignore[index]
            assert event["version"] == answer["version"], "the player's socket counts as its answer does"
        state = http.get(f"{campaign.base}/state", headers=bearer(player)).json()
        assert "Susan" in json.dumps(state)
    assert (elsewhere / "talespin.db").is_file(), "the table's SQLite file is made where serve was started"


def test_make_run_installs_no_developer_tool(tmp_path: Path) -> None:
    """`make run`'s install step (`make serve-env`) brings what serving needs and no test or lint tool."""
    env = tmp_path / "run-venv"
    _run(["make", "-C", str(ROOT), f"VENV={env}", "serve-env"], timeout=900)
    installed = _installed(env / "bin" / "python")
    assert {"talespin", "uvicorn", "websockets", "fastapi"} <= installed
    assert not installed & set(DEVELOPER_TOOLS), installed & set(DEVELOPER_TOOLS)
