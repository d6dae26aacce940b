"""Drivers of the non-interference sessions over HTTP and WebSocket: an in-process app or a real server.

:class:`HttpDriver` plays a campaign through the HTTP API (FastAPI's TestClient), each player with two live
WebSockets: one of events only, and one opened as the table page opens it (``?state=1&batch=1``: each
batch of events with the player's state in one frame); :class:`ServedDriver` does the same against a real
``talespin serve`` process (httpx and the ``websockets`` client). Every answer is kept as the bytes the
client received: ``"STATUS BODY"``.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
from web_support import bearer
from websockets.sync.client import ClientConnection, connect

PAGE_SOCKET = "&state=1&batch=1"
"""How the table page opens its socket: each batch of events and the viewer's state in one frame."""


def _page_version(frame: str | None) -> int:
    """The version a page-socket frame brings its reader to (-1 before any: the first is always read)."""
    return int(json.loads(frame)["version"]) if frame is not None else -1


class HttpDriver:
    """A campaign played through the HTTP API, each player with a live WebSocket."""

    def __init__(self, client: Any, system: str) -> None:
        """``client``: a TestClient, or an httpx.Client on a server's address."""
        self.client = client
        made = client.post("/api/campaigns", json={"name": "Blind", "system": system}).json()
        self.base = f"/api/campaigns/{made['id']}"
        self.invite = made["invite_token"]
        self.tokens: dict[str, str] = {"gm": made["gm_token"]}
        self.sockets: dict[str, Any] = {}
        self.frames: dict[str, list[str]] = {}
        self.pages: dict[str, Any] = {}
        self.page_frames: dict[str, list[str]] = {}
        """Each player's page-socket frames received and not yet read."""

    def join(self, name: str) -> str:
        body = self.client.post(f"{self.base}/join", json={"invite_token": self.invite, "name": name}).json()
        who = str(body["player_id"])
        self.tokens[who] = body["player_token"]
        self.sockets[who] = self._open(f"{self.base}/ws?token={body['player_token']}&after=0")
        self.frames[who] = []
        self.pages[who] = self._open(f"{self.base}/ws?token={body['player_token']}&after=0{PAGE_SOCKET}")
        self.page_frames[who] = []
        self._pump(who)
        return who

    def _open(self, path: str) -> Any:
        return self.client.websocket_connect(path).__enter__()

    def _receive(self, socket: Any) -> str:
        return str(socket.receive_text())

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
        for player in self.pages:
            self._pump(player)
        return f"{response.status_code} {response.text}"

    def _pump(self, who: str) -> None:
        """Read the player's page socket up to its version now, before anything else is sent.

        A batch frame carries the state as it is when the frame is built; waiting for it here keeps the
        next command from landing first, so both runs build each frame from the same state.
        """
        target, frames = self._version(who), self.page_frames[who]
        while _page_version(frames[-1] if frames else None) < target:
            frames.append(self._receive(self.pages[who]))

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
        self._pump(who)
        shown["page socket"] = "\n".join(self.page_frames[who])
        self.page_frames[who] = []
        return shown

    def _drain(self, who: str) -> list[str]:
        """Every frame the player's socket got since the last read, up to its version now."""
        target, socket, frames = self._version(who), self.sockets[who], self.frames[who]
        fresh: list[str] = []
        while (json.loads(frames[-1])["version"] if frames else 0) < target:
            frames.append(self._receive(socket))
            fresh.append(frames[-1])
        return fresh

    def blind_entries(self) -> list[int]:
        state = self.client.get(f"{self.base}/state", headers=bearer(self.tokens["gm"])).json()
        return list(state["pending"]["entries"])

    def close(self) -> None:
        for socket in [*self.sockets.values(), *self.pages.values()]:
            socket.__exit__(None, None, None)


class ServedDriver(HttpDriver):
    """The same session against a real server: ``client`` is an ``httpx.Client`` on its address."""

    def __init__(self, client: httpx.Client, ws: str, system: str) -> None:
        self.ws = ws
        super().__init__(client, system)

    def _open(self, path: str) -> ClientConnection:
        return connect(f"{self.ws}{path}", open_timeout=10).__enter__()  # left by close()

    def _receive(self, socket: Any) -> str:
        return str(socket.recv(timeout=10))
