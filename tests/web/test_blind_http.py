"""Blind rolls over HTTP and WebSocket: two runs differing only in GM secrets give players the same bytes.

The app runs over a SQLite file with deterministic sources (``create_app(sources=…)``), so two runs of
the same session differ only where the GM's secrets differ. Each player keeps a WebSocket open from the
moment it joins; every HTTP body it receives (answers, error bodies, state, events, odds, both exports)
and every WebSocket frame is compared byte for byte up to the reveal. After the reveal they differ.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from blind_play import FIXED_TIME, Secrets, Seen, play_ascend, play_ii
from determinism import counter, seeds
from fastapi.testclient import TestClient
from web_support import bearer

from talespin.web import create_app

FACES_LOW = [[1], [1], [1], [1], [1], [1], [1]]
FACES_HIGH = [[6, 5], [6, 4], [5], [5], [4], [6, 6, 2], [3]]


class HttpDriver:
    """A campaign played through the HTTP API, each player with a live WebSocket."""

    def __init__(self, client: TestClient, system: str) -> None:
        self.client = client
        made = client.post("/api/campaigns", json={"name": "Blind", "system": system}).json()
        self.base = f"/api/campaigns/{made['id']}"
        self.invite = made["invite_token"]
        self.tokens: dict[str, str] = {"gm": made["gm_token"]}
        self.sockets: dict[str, Any] = {}
        self.frames: dict[str, list[str]] = {}

    def join(self, name: str) -> str:
        body = self.client.post(f"{self.base}/join", json={"invite_token": self.invite, "name": name}).json()
        who = str(body["player_id"])
        self.tokens[who] = body["player_token"]
        socket = self.client.websocket_connect(f"{self.base}/ws?token={body['player_token']}&after=0")
        self.sockets[who] = socket.__enter__()
        self.frames[who] = []
        return who

    def _version(self, who: str) -> int:
        response = self.client.get(f"{self.base}/state", headers=bearer(self.tokens[who]))
        return int(response.json()["version"])

    def send(self, who: str, command: dict[str, Any], nonce: str | None = None) -> str:
        body: dict[str, Any] = {"command": command, "expected_version": self._version(who)}
        if nonce is not None:
            body["nonce"] = nonce
        response = self.client.post(f"{self.base}/commands", json=body, headers=bearer(self.tokens[who]))
        if who == "gm":
            assert response.status_code == 200, response.text
        return f"{response.status_code} {response.text}"

    def reads(self, who: str, odds: dict[str, Any]) -> dict[str, str]:
        auth = bearer(self.tokens[who])
        got = {
            "state": self.client.get(f"{self.base}/state", headers=auth),
            "events": self.client.get(f"{self.base}/events?after=0", headers=auth),
            "events after 3": self.client.get(f"{self.base}/events?after=3", headers=auth),
            "odds": self.client.post(f"{self.base}/odds", json=odds, headers=auth),
            "export": self.client.get(f"{self.base}/export", headers=auth),
            "markdown": self.client.get(f"{self.base}/export?format=markdown", headers=auth),
        }
        shown = {name: f"{response.status_code} {response.text}" for name, response in got.items()}
        shown["websocket"] = "\n".join(self._drain(who))
        return shown

    def _drain(self, who: str) -> list[str]:
        """Every frame the player's socket got since the last read, up to its version now."""
        target, socket, frames = self._version(who), self.sockets[who], self.frames[who]
        fresh: list[str] = []
        while (json.loads(frames[-1])["version"] if frames else 0) < target:
            frames.append(socket.receive_text())
            fresh.append(frames[-1])
        return fresh

    def blind_entries(self) -> list[int]:
        state = self.client.get(f"{self.base}/state", headers=bearer(self.tokens["gm"])).json()
        return list(state["pending"]["entries"])

    def close(self) -> None:
        for socket in self.sockets.values():
            socket.__exit__(None, None, None)


def _sources() -> dict[str, Any]:
    numbers = itertools.count()
    return {
        "clock": lambda: FIXED_TIME,
        "ids": counter("id-"),
        "tokens": counter("token-", 8),
        "nonces": lambda: f"{next(numbers):032x}",
    }


def _run(tmp_path: Path, name: str, system: str, secrets: Secrets) -> tuple[Seen, Seen]:
    app = create_app(f"sqlite:///{tmp_path / f'{name}.db'}", seeds=seeds("same"), sources=_sources())
    with TestClient(app) as client:
        driver, seen = HttpDriver(client, system), Seen()
        try:
            reveal = (play_ii if system == "ii" else play_ascend)(driver, secrets, seen)
            before = Seen({who: list(texts) for who, texts in seen.answers.items()})
            reveal()
        finally:
            driver.close()
    return before, seen


CASES = [
    ("ii", "blind faces", Secrets(faces=FACES_LOW), Secrets(faces=FACES_HIGH)),
    ("ii", "hidden notes", Secrets(notes=("a",)), Secrets(notes=("a secret", "b", "c"))),
    ("ascend", "blind server dice", Secrets(nonce="1f" * 16), Secrets(nonce="e0" * 16)),
]


@pytest.mark.parametrize(("system", "what", "first", "second"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_http_and_websocket_bytes_are_the_same_until_the_reveal(
    tmp_path: Path, system: str, what: str, first: Secrets, second: Secrets
) -> None:
    """Every HTTP body and WebSocket frame each player got is identical in both runs until the reveal."""
    (one, one_after), (other, other_after) = (
        _run(tmp_path, "first", system, first),
        _run(tmp_path, "second", system, second),
    )
    assert one.answers.keys() == other.answers.keys()
    for who, answers in one.answers.items():
        assert any("websocket: " in line and "BlindRollMade" in line for line in answers)
        for number, (mine, theirs) in enumerate(zip(answers, other.answers[who], strict=True)):
            assert mine == theirs, f"{who}'s answer {number} differs"
    if what.startswith("blind"):
        assert one_after.answers != other_after.answers
