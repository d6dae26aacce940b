"""GM secrets never reach a player: not in state, events, export or WebSocket; the GM sees them all."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from table_sheets import ADA, SECRET_NOTE, SECRET_TRIGGER, action_scene
from web_support import Campaign, bearer


def _blind_roll_marks(gm_events: list[dict[str, Any]]) -> list[str]:
    """Byte strings that only the blind roll's own events contain: its faces and its total."""
    marks = []
    for event in gm_events:
        if event["visibility"] == "gm" and "chains" in event["data"]:
            marks.append(json.dumps(event["data"]["chains"]))
            marks.append(f'"total": {event["data"]["total"]}')
            data = event["data"]
            marks.append(f"rolled {data['talent']}: **{data['total']}**")  # as the Markdown recap writes it
    return marks


def _text(response: Any) -> str:
    """A response body, JSON re-serialised with the same separators as the marks."""
    try:
        return json.dumps(response.json(), ensure_ascii=False)
    except ValueError:
        return str(response.text)


def test_gm_trigger_note_and_blind_roll_stay_with_the_gm(client: TestClient) -> None:
    """A scene with a GM-only Trigger, a GM note and a blind roll: no byte of them reaches the player."""
    ii = Campaign.create(client, "ii")
    player = ii.join("Pia")
    with (
        client.websocket_connect(f"{ii.base}/ws?token={player}&after=0") as player_ws,
        client.websocket_connect(f"{ii.base}/ws?token={ii.gm_token}&after=0") as gm_ws,
    ):
        ii.send({"do": "add_character", "sheet": ADA}, player)
        # rule: II-CRISIS-2
        ii.send(action_scene(secret=True))
        ii.send({"do": "note", "text": SECRET_NOTE, "visibility": "gm"})
        ii.send({"do": "simple_obstacle"})
        blind = ii.send(
            {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "visibility": "gm"}
        )
        ii.send({"do": "note", "text": "The rain stops.", "visibility": "public"}, player)
        last = ii.version()
        gm_live: list[dict[str, Any]] = []
        while not gm_live or gm_live[-1]["version"] < last:
            gm_live.append(gm_ws.receive_json())
        player_live: list[dict[str, Any]] = []
        while not player_live or player_live[-1]["version"] < ii.version(player):
            player_live.append(player_ws.receive_json())

    gm_events = client.get(f"{ii.base}/events", headers=bearer(ii.gm_token)).json()["events"]
    marks = _blind_roll_marks(gm_events)
    assert marks, "the blind roll recorded its dice for the GM"
    secrets = [SECRET_TRIGGER, SECRET_NOTE, *marks]

    seen_by_player = {
        "state": _text(client.get(f"{ii.base}/state", headers=bearer(player))),
        "events": _text(client.get(f"{ii.base}/events", headers=bearer(player))),
        "export": _text(client.get(f"{ii.base}/export", headers=bearer(player))),
        "markdown": _text(client.get(f"{ii.base}/export?format=markdown", headers=bearer(player))),
        "websocket": json.dumps(player_live),
    }
    for where, text in seen_by_player.items():
        for secret in secrets:
            assert secret not in text, f"{secret!r} leaked to the player through {where}"
    assert "BlindRollMade" in seen_by_player["events"] and "The rain stops." in seen_by_player["websocket"]

    seen_by_gm = {
        "state": _text(client.get(f"{ii.base}/state", headers=bearer(ii.gm_token))),
        "events": json.dumps(gm_events),
        "export": _text(client.get(f"{ii.base}/export", headers=bearer(ii.gm_token))),
        "websocket": json.dumps(gm_live),
    }
    json_marks = [mark for mark in marks if not mark.startswith("rolled ")]
    gm_recap = _text(client.get(f"{ii.base}/export?format=markdown", headers=bearer(ii.gm_token)))
    written = next(mark for mark in marks if mark.startswith("rolled "))
    assert written in gm_recap, "the mark is what the recap writes"
    for where, text in seen_by_gm.items():
        for secret in [SECRET_TRIGGER, SECRET_NOTE, *(json_marks if where != "state" else [])]:
            assert secret in text, f"the GM misses {secret!r} in {where}"
    assert blind["events"][0]["visibility"] == "gm"


def test_a_players_command_response_is_cut_like_its_events(client: TestClient) -> None:
    """The events returned to a player's own command are the player's view of them."""
    ii = Campaign.create(client, "ii")
    player = ii.join("Pia")
    ii.send({"do": "add_character", "sheet": ADA}, player)
    ii.send(action_scene(secret=True))
    ii.send({"do": "simple_obstacle"})
    body = ii.send({"do": "simple_obstacle", "character": "Ada", "choice": "auto"}, player)
    assert all(e["visibility"] == "public" for e in body["events"])
    assert SECRET_TRIGGER not in json.dumps(body)
