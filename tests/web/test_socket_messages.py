"""What a client sends on the WebSocket is checked like an HTTP body and answered; the socket stays open."""

from __future__ import annotations

import json

import httpx
from fastapi.testclient import TestClient
from web_support import Campaign, ServerProcess

from talespin.web.messages import MAX_MESSAGE

BAD = [
    ("not json at all", "malformed", None),
    ('["kind", "ping"]', "malformed", None),
    ('{"no": "kind"}', "malformed", None),
    ('{"kind": "subscribe"}', "unknown_kind", "kind"),
    ('{"kind": ["ping"]}', "unknown_kind", "kind"),
    ('{"kind": "ping", "note": "\\ud800"}', "bad_text", "note"),
    ('{"kind": "ping", "n\\udfffame": 1}', "bad_text", "n\\udfffame"),
    ('{"kind": "ping", "text": "a\\u0000b"}', "bad_text", "text"),
    ('{"kind": "ping", "count": 100000000000}', "out_of_range", "count"),
    ('{"kind": "ping", "x": NaN}', "out_of_range", None),
    ('{"kind": "ping", "deep": ' + "[" * 40 + "]" * 40 + "}", "too_deep", "deep[0]"),
    ('{"kind": "ping", "big": 1' + "0" * 5000 + "}", "out_of_range", None),
    ("x" * (MAX_MESSAGE + 1), "too_large", None),
]


def test_every_bad_message_gets_an_error_frame_and_the_socket_keeps_serving(
    client: TestClient, ii: Campaign
) -> None:
    """Each malformed, oversized, unknown or poisoned message is answered ``{"kind": "error", "error":
    {"code", "message", "path"?}}``; a ping after all of them still gets its pong, and events still come."""
    player = ii.join("Pia")
    with client.websocket_connect(f"{ii.base}/ws?token={player}") as socket:
        for text, code, path in BAD:
            socket.send_text(text)
            frame = socket.receive_json()
            assert frame["kind"] == "error", (text[:60], frame)
            assert frame["error"]["code"] == code, (text[:60], frame)
            shown = frame["error"].get("path")
            assert shown == path or (path is not None and str(shown).startswith(path)), (text[:60], frame)
            assert len(json.dumps(frame)) < 1000  # the message quotes a short excerpt at most
        socket.send_bytes(b'{"kind": "ping"}')
        assert socket.receive_json()["error"]["code"] == "malformed"
        socket.send_text('{"kind": "ping"}')
        assert socket.receive_json() == {"kind": "pong"}
        ii.send({"do": "note", "text": "still here"})
        events = [socket.receive_json(), socket.receive_json()]
        assert events[-1]["data"]["text"] == "still here"
        socket.send_text('{"kind": "ping"}')
        assert socket.receive_json() == {"kind": "pong"}


def test_bad_messages_on_a_real_socket_leave_the_server_serving(server: ServerProcess) -> None:
    """Over a real connection: a lone surrogate escape and an unknown kind are answered, the connection
    stays open, the server keeps answering HTTP and logs no traceback."""
    from websockets.sync.client import connect

    with httpx.Client(base_url=server.url, timeout=10) as http:
        campaign = Campaign.create(http, "ascend")
        with connect(f"{server.ws}{campaign.base}/ws?token={campaign.gm_token}", open_timeout=10) as socket:
            socket.send('{"kind": "ping", "name": "\\ud800"}')
            assert json.loads(socket.recv(timeout=10))["error"]["code"] == "bad_text"
            socket.send('{"kind": "unheard-of"}')
            assert json.loads(socket.recv(timeout=10))["error"]["code"] == "unknown_kind"
            campaign.send({"do": "note", "text": "after the noise"})
            received = [json.loads(socket.recv(timeout=10)) for _ in range(2)]
            assert received[-1]["data"]["text"] == "after the noise"
        assert (
            http.get(
                f"{campaign.base}/state", headers={"Authorization": f"Bearer {campaign.gm_token}"}
            ).status_code
            == 200
        )
    server.stop()
    assert "Traceback" not in server.output
