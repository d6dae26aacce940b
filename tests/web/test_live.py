"""Live updates over the WebSocket: in order, per viewer, several clients, and catching up with ?after=n."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from table_sheets import SUSAN, susan_test
from web_support import Campaign, ServerProcess
from websockets.sync.client import connect


def test_several_clients_receive_every_event_in_order(client: TestClient) -> None:
    """Three connected clients each receive every new event once, in version order (a player's own)."""
    ascend = Campaign.create(client, "ascend")
    start = ascend.version()
    player = ascend.join("Pia")
    urls = [f"{ascend.base}/ws?token={token}" for token in (ascend.gm_token, ascend.gm_token, player)]
    with (
        client.websocket_connect(urls[0]) as a,
        client.websocket_connect(urls[1]) as b,
        client.websocket_connect(urls[2]) as c,
    ):
        ascend.send({"do": "add_character", "sheet": SUSAN})
        for _ in range(3):
            ascend.send(susan_test())
        lasts = [ascend.version(), ascend.version(), ascend.version(player)]
        for socket, last in zip((a, b, c), lasts, strict=True):
            versions: list[int] = []
            while not versions or versions[-1] < last:
                versions.append(socket.receive_json()["version"])
            assert versions == sorted(set(versions))
            assert versions[-1] == last and (socket is c or versions[0] > start + 1)


def test_reconnecting_with_after_sends_what_was_missed(client: TestClient) -> None:
    """A client that reconnects with ?after=n first receives every event after n, then new ones."""
    ascend = Campaign.create(client, "ascend")
    ascend.send({"do": "add_character", "sheet": SUSAN})
    seen = ascend.version()
    ascend.send(susan_test())
    ascend.send({"do": "note", "text": "missed"})
    missed_until = ascend.version()
    with client.websocket_connect(f"{ascend.base}/ws?token={ascend.gm_token}&after={seen}") as socket:
        backlog = [socket.receive_json() for _ in range(missed_until - seen)]
        assert [e["version"] for e in backlog] == list(range(seen + 1, missed_until + 1))
        ascend.send({"do": "note", "text": "new"})
        fresh = socket.receive_json()
        assert fresh["version"] == missed_until + 1 and fresh["type"] == "CommandIssued"
        assert socket.receive_json()["data"]["text"] == "new"


@pytest.mark.parametrize(("query", "code"), [("", 4401), ("?token=wrong", 4401), ("?token=T&after=x", 4422)])
def test_bad_sockets_get_an_error_and_a_close(client: TestClient, query: str, code: int) -> None:
    """A socket without a valid token (or with a bad ?after) gets one error message and is closed."""
    ascend = Campaign.create(client, "ascend")
    with client.websocket_connect(f"{ascend.base}/ws{query.replace('T', ascend.gm_token)}") as socket:
        assert "error" in socket.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == code


def test_unknown_campaign_socket_is_closed_with_404(client: TestClient) -> None:
    """A socket on an unknown campaign is told so and closed with 4404."""
    with client.websocket_connect("/api/campaigns/nope/ws?token=x") as socket:
        assert json.dumps(socket.receive_json()).count("not_found") == 1
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4404


def test_the_real_server_streams_to_several_sockets(server: ServerProcess) -> None:
    """Against `talespin serve`, a catching-up socket and an up-to-date one get the same new events."""
    with httpx.Client(base_url=server.url, timeout=10.0) as http:
        ascend = Campaign.create(http, "ascend")
        ascend.send({"do": "add_character", "sheet": SUSAN})
        seen = ascend.version()
        ascend.send(susan_test())
        current = ascend.version()
        ws_base = server.url.replace("http://", "ws://") + ascend.base
        with (
            connect(f"{ws_base}/ws?token={ascend.gm_token}&after={seen}", open_timeout=10) as late,
            connect(f"{ws_base}/ws?token={ascend.gm_token}&after={current}", open_timeout=10) as live,
        ):
            ascend.send({"do": "note", "text": "both see this"})
            last = ascend.version()
            received: dict[str, list[dict[str, Any]]] = {"late": [], "live": []}
            for name, socket in (("late", late), ("live", live)):
                while not received[name] or received[name][-1]["version"] < last:
                    received[name].append(json.loads(socket.recv(timeout=10)))
        late_versions = [e["version"] for e in received["late"]]
        assert late_versions == list(range(seen + 1, last + 1))
        assert [e["version"] for e in received["live"]] == list(range(current + 1, last + 1))
        assert received["live"] == received["late"][-len(received["live"]) :]
        assert received["live"][-1]["data"]["text"] == "both see this"
