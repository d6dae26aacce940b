"""Table talk and seats over HTTP and WebSocket: whispers stay between the GM and one player, seats move."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from table_sheets import ADA
from web_support import Campaign, bearer

from talespin.table.verify import verify_export

WHISPER = "Bram took the key from the vault"
REPLY = "Keep it quiet until the dock"


def _join(ii: Campaign, name: str) -> tuple[str, str]:
    """A new player's token and id."""
    response = ii.client.post(f"{ii.base}/join", json={"invite_token": ii.invite_token, "name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    return str(body["player_token"]), str(body["player_id"])


def _say(ii: Campaign, token: str, text: str, to: str | None = None) -> Any:
    body: dict[str, Any] = {"text": text}
    if to is not None:
        body["to"] = to
    return ii.client.post(f"{ii.base}/chat", json=body, headers=bearer(token))


def _everything(ii: Campaign, token: str) -> str:
    """Every byte a viewer can fetch: state, events, both exports."""
    parts = [
        ii.client.get(f"{ii.base}/state", headers=bearer(token)).text,
        ii.client.get(f"{ii.base}/events", headers=bearer(token)).text,
        ii.client.get(f"{ii.base}/export?format=json", headers=bearer(token)).text,
        ii.client.get(f"{ii.base}/export?format=markdown", headers=bearer(token)).text,
    ]
    return "\n".join(parts)


def test_a_whisper_reaches_the_gm_and_its_player_only(client: TestClient) -> None:
    """A player's whisper and the GM's reply: absent from every byte the other player receives."""
    ii = Campaign.create(client, "ii")
    bea, bea_id = _join(ii, "Bea")
    cal, _ = _join(ii, "Cal")
    with client.websocket_connect(f"{ii.base}/ws?token={cal}&after=0&presence=1") as cal_ws:
        assert _say(ii, bea, "Hello, table").status_code == 201
        whisper = _say(ii, bea, WHISPER, "gm")
        assert whisper.status_code == 201, whisper.text
        assert whisper.json()["event"]["visibility"] == "whisper"
        assert _say(ii, ii.gm_token, REPLY, bea_id).status_code == 201
        assert _say(ii, cal, "Last words").status_code == 201
        frames: list[str] = []
        while "Last words" not in (frames[-1] if frames else ""):
            frames.append(json.dumps(cal_ws.receive_json()))
    cal_bytes = _everything(ii, cal) + "".join(frames)
    assert "Hello, table" in cal_bytes and "Last words" in cal_bytes
    assert WHISPER not in cal_bytes and REPLY not in cal_bytes
    assert WHISPER in _everything(ii, bea) and REPLY in _everything(ii, bea)
    assert WHISPER in _everything(ii, ii.gm_token) and REPLY in _everything(ii, ii.gm_token)


def test_whispers_are_refused_where_they_would_go_astray(client: TestClient) -> None:
    """A player whispers to the GM only; an empty message or an unknown player is a 4xx saying why."""
    ii = Campaign.create(client, "ii")
    bea, _ = _join(ii, "Bea")
    _, cal_id = _join(ii, "Cal")
    before = ii.version()
    assert _say(ii, bea, "psst", cal_id).status_code == 403
    empty = _say(ii, bea, "   ")
    assert empty.status_code == 422 and "text" in empty.json()["error"]["message"]
    assert _say(ii, ii.gm_token, "psst", "nobody").status_code == 422
    assert ii.version() == before


def test_presence_tells_who_is_connected(client: TestClient) -> None:
    """A socket asking for presence hears each seat that connects, once per seat."""
    ii = Campaign.create(client, "ii")
    bea, bea_id = _join(ii, "Bea")
    with client.websocket_connect(f"{ii.base}/ws?token={ii.gm_token}&presence=1") as gm_ws:
        first = gm_ws.receive_json()
        assert first == {"kind": "presence", "online": [{"who": "gm", "name": "GM", "role": "gm"}]}
        with client.websocket_connect(f"{ii.base}/ws?token={bea}&presence=1"):
            frame = gm_ws.receive_json()
            assert [seat["who"] for seat in frame["online"]] == ["gm", bea_id]
        assert gm_ws.receive_json()["online"] == first["online"]


def test_the_gm_hands_a_character_on_and_removes_a_player(client: TestClient) -> None:
    """Handing Ada to Cal lets Cal act for her; a removed player's token stops working at once."""
    ii = Campaign.create(client, "ii")
    bea, bea_id = _join(ii, "Bea")
    cal, cal_id = _join(ii, "Cal")
    ii.send({"do": "add_character", "sheet": ADA}, bea)
    refused = client.post(
        f"{ii.base}/seats/hand", json={"character": "Ada", "to": cal_id}, headers=bearer(bea)
    )
    assert refused.status_code == 403
    handed = client.post(
        f"{ii.base}/seats/hand", json={"character": "Ada", "to": cal_id}, headers=bearer(ii.gm_token)
    )
    assert handed.status_code == 200, handed.text
    assert ii.state()["owners"] == {"Ada": cal_id}
    assert ii.post({"do": "heal", "character": "Ada"}, bea).status_code == 403
    assert ii.post({"do": "heal", "character": "Ada"}, cal).status_code != 403
    ii.send({"do": "note", "text": "Ada changes hands."})
    ii.send({"do": "undo"})  # the rebuild after an undo keeps the handover: seats are not entries
    assert ii.state()["owners"] == {"Ada": cal_id}
    with client.websocket_connect(f"{ii.base}/ws?token={bea}") as bea_ws:
        removed = client.post(
            f"{ii.base}/seats/remove", json={"player_id": bea_id}, headers=bearer(ii.gm_token)
        )
        assert removed.status_code == 200, removed.text
        assert bea_ws.receive()["type"] == "websocket.close"
    assert client.get(f"{ii.base}/state", headers=bearer(bea)).status_code == 401
    assert [p["id"] for p in ii.state()["players"]] == [cal_id]
    client.post(f"{ii.base}/seats/remove", json={"player_id": cal_id}, headers=bearer(ii.gm_token))
    assert ii.state()["owners"] == {"Ada": None}


def test_a_whisper_feeds_no_chain(client: TestClient) -> None:
    """Every player keeps one players' chain whoever whispers; both players' and the GM's exports verify."""
    ii = Campaign.create(client, "ii")
    bea, bea_id = _join(ii, "Bea")
    cal, _ = _join(ii, "Cal")
    assert _say(ii, bea, "Hello, table").status_code == 201
    before = ii.state(cal)["head"]
    assert _say(ii, bea, WHISPER, "gm").status_code == 201
    assert _say(ii, ii.gm_token, REPLY, bea_id).status_code == 201
    assert ii.state(bea)["head"] == ii.state(cal)["head"] == before
    for token in (bea, cal, ii.gm_token):
        record = ii.client.get(f"{ii.base}/export?format=json", headers=bearer(token)).json()
        whispers = [e for e in record["events"] if e["visibility"] == "whisper"]
        assert all("head" not in e and "prev" not in e for e in whispers)
        chain = [row for row in verify_export(record).record if row.what == "hash chain"]
        assert chain and all(row.status == "verified" for row in chain), chain


def test_a_player_removed_while_its_socket_opens_is_closed_out(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A removal committed after the socket's token was checked but before its backlog was read is in no
    live frame; the socket still closes (4403) instead of staying open to a player without a seat."""
    ii = Campaign.create(client, "ii")
    bea, bea_id = _join(ii, "Bea")
    service = client.app.state.service  # type: ignore[attr-defined]
    reading = service.marked_backlog

    def removed_first(*args: Any) -> Any:
        monkeypatch.setattr(service, "marked_backlog", reading)
        gm = service.viewer(ii.id, ii.gm_token)
        service.remove_player(ii.id, gm, bea_id)
        return reading(*args)

    monkeypatch.setattr(service, "marked_backlog", removed_first)
    for query in ("", "&state=1&batch=1"):
        with client.websocket_connect(f"{ii.base}/ws?token={bea}{query}") as bea_ws:
            bea_ws.send_json({"kind": "ping"})  # an open socket would answer it (and fail at once)
            closed = bea_ws.receive()
            assert closed == {"type": "websocket.close", "code": 4403, "reason": ""}, closed
        monkeypatch.setattr(service, "marked_backlog", removed_first)
        bea, bea_id = _join(ii, f"Bea {len(query)}")
