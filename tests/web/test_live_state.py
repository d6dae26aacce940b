"""The live feed carries each viewer's state, odds are answered once per version, advice in its top rows."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from table_sheets import ADA, SECRET_NOTE, SECRET_TRIGGER, SUSAN, action_scene, susan_test
from web_support import Campaign, bearer

from talespin.web.live import BACKLOG_BATCH


def _until_state(socket: Any, version: int) -> dict[str, Any]:
    """Read frames until a state frame of at least ``version``; the state it carries."""
    while True:
        frame = socket.receive_json()
        if frame.get("kind") == "state" and frame["state"]["version"] >= version:
            return dict(frame["state"])


def test_a_state_socket_gets_the_viewers_state_after_each_batch(client: TestClient) -> None:
    """With ?state=1 a socket gets, after the backlog and after every command's events, exactly what
    GET /state answers that viewer; a player's never holds the GM's secrets."""
    ii = Campaign.create(client, "ii")
    player = ii.join("Pia")
    sockets = {token: f"{ii.base}/ws?token={token}&after=0&state=1" for token in (ii.gm_token, player)}
    with (
        client.websocket_connect(sockets[ii.gm_token]) as gm_socket,
        client.websocket_connect(sockets[player]) as player_socket,
    ):
        for socket, token in ((gm_socket, ii.gm_token), (player_socket, player)):
            assert _until_state(socket, 0) == ii.state(token)
        ii.send({"do": "add_character", "sheet": ADA})
        ii.send(action_scene(secret=True))
        ii.send({"do": "note", "text": SECRET_NOTE, "visibility": "gm"})
        for socket, token in ((gm_socket, ii.gm_token), (player_socket, player)):
            live = _until_state(socket, ii.version(token))
            assert live == ii.state(token)
        text = json.dumps(live)  # the player's, the last read
        assert SECRET_NOTE not in text and SECRET_TRIGGER not in text
        assert SECRET_NOTE in json.dumps(ii.state(ii.gm_token))


def test_a_socket_without_state_gets_events_only(client: TestClient) -> None:
    """Without ?state=1 the feed is as before: events (and presence when asked), no state frames."""
    ascend = Campaign.create(client, "ascend")
    with client.websocket_connect(f"{ascend.base}/ws?token={ascend.gm_token}&after=0") as socket:
        ascend.send({"do": "note", "text": "one"})
        frames = [socket.receive_json()]
        while "one" not in json.dumps(frames[-1]):  # the backlog, then the note: none missed, so it ends
            frames.append(socket.receive_json())
        assert len(frames) >= 2
        assert all("type" in frame and frame.get("kind") != "state" for frame in frames)


def _batches(socket: Any, version: int) -> list[dict[str, Any]]:
    """Read frames until one brings the reader to ``version``; every frame must be a batch."""
    frames = [socket.receive_json()]
    while frames[-1]["version"] < version:
        frames.append(socket.receive_json())
    assert all(frame["kind"] == "batch" for frame in frames), frames
    return frames


def test_a_batching_socket_gets_each_batch_and_the_state_in_one_frame(client: TestClient) -> None:
    """With ?state=1&batch=1 each command's events come in one frame with the viewer's state after them,
    the events exactly what GET /events gives that viewer and the state exactly what GET /state answers."""
    ii = Campaign.create(client, "ii")
    player = ii.join("Pia")
    with client.websocket_connect(f"{ii.base}/ws?token={player}&after=0&state=1&batch=1") as socket:
        (first,) = _batches(socket, ii.version(player))
        assert first["state"] == ii.state(player)
        assert (
            first["events"]
            == ii.client.get(f"{ii.base}/events?after=0", headers=bearer(player)).json()["events"]
        )
        before = ii.version(player)
        ii.send({"do": "add_character", "sheet": ADA})
        (added,) = _batches(socket, ii.version(player))
        seen = ii.client.get(f"{ii.base}/events?after={before}", headers=bearer(player)).json()["events"]
        assert added["events"] == seen and len(seen) >= 2
        assert added["version"] == seen[-1]["version"] == added["state"]["version"]
        assert added["state"] == ii.state(player)


def test_a_batching_socket_is_sent_nothing_when_the_gm_acts_in_secret(client: TestClient) -> None:
    """A GM-only note changes nothing a player may see: the player's batching socket gets no frame for it
    (so no frame tells it the GM did something), while the GM's gets the note with the GM's state."""
    ascend = Campaign.create(client, "ascend")
    player = ascend.join("Pia")
    urls = {
        token: f"{ascend.base}/ws?token={token}&after=0&state=1&batch=1"
        for token in (ascend.gm_token, player)
    }
    with (
        client.websocket_connect(urls[ascend.gm_token]) as gm_socket,
        client.websocket_connect(urls[player]) as player_socket,
    ):
        _batches(gm_socket, ascend.version())
        _batches(player_socket, ascend.version(player))
        ascend.send({"do": "note", "text": SECRET_NOTE, "visibility": "gm"})
        ascend.send({"do": "note", "text": "Out loud."})
        (secret,) = _batches(gm_socket, ascend.version() - 2)  # each note: CommandIssued, NoteAdded
        assert [e["type"] for e in secret["events"]] == ["CommandIssued", "NoteAdded"]
        assert secret["state"]["notes"][-1]["text"] == SECRET_NOTE
        (public,) = _batches(player_socket, ascend.version(player))  # the public note, nothing before it
        assert public["events"][-1]["data"]["text"] == "Out loud."
        assert SECRET_NOTE not in json.dumps(public)


def test_a_batching_socket_sends_a_long_backlog_in_bounded_frames(client: TestClient) -> None:
    """A backlog longer than one frame's worth comes in order, in frames of at most BACKLOG_BATCH events,
    the state only in the last; without ?state=1 no frame carries a state."""
    ascend = Campaign.create(client, "ascend")
    for n in range(BACKLOG_BATCH // 2 + 5):  # two events a note
        ascend.send({"do": "note", "text": f"note {n}"})
    everything = ascend.client.get(f"{ascend.base}/events?after=0", headers=bearer(ascend.gm_token)).json()[
        "events"
    ]
    for query, with_state in (("&state=1&batch=1", True), ("&batch=1", False)):
        with client.websocket_connect(f"{ascend.base}/ws?token={ascend.gm_token}&after=0{query}") as socket:
            frames = _batches(socket, ascend.version())
        assert len(frames) == 2 and all(len(f["events"]) <= BACKLOG_BATCH for f in frames)
        assert [e for f in frames for e in f["events"]] == everything
        assert ["state" in f for f in frames] == [False, with_state]


def _advice(ascend: Campaign, **extra: Any) -> dict[str, Any]:
    query = {"hero": "Susan", "skill": "Athletics", "narration": "exceptional", **extra}
    response = ascend.client.post(f"{ascend.base}/odds", json=query, headers=bearer(ascend.gm_token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_advice_answers_the_top_rows_and_the_current_choice(client: TestClient) -> None:
    """With "top" the advice holds the best rows plus the chosen pool's (if it is not among them), says it
    is truncated, and every row it holds is the full answer's row."""
    ascend = Campaign.create(client, "ascend")
    ascend.send({"do": "add_character", "sheet": SUSAN})
    full = _advice(ascend)
    assert full["truncated"] is False and len(full["advice"]) == full["choices"] > 4
    last = full["advice"][-1]
    current = {k: last[k] for k in ("trait", "background", "aid")} | {
        "invoke": list(reversed(last["invoke"]))
    }
    short = _advice(ascend, top=3, current=current)
    assert short["choices"] == full["choices"] and short["top"] == 3 and short["truncated"] is True
    assert short["advice"] == [*full["advice"][:3], last]
    assert short["current"] == last
    best = full["advice"][0]
    best_choice = {k: best[k] for k in ("trait", "background", "aid", "invoke")}
    assert _advice(ascend, top=3, current=best_choice)["advice"] == full["advice"][:3]
    illegal = _advice(ascend, top=2, current={"trait": "Cooking"})
    assert illegal["current"] is None and len(illegal["advice"]) == 2
    response = client.post(
        f"{ascend.base}/odds",
        json={"hero": "Susan", "skill": "Athletics", "top": 0},
        headers=bearer(ascend.gm_token),
    )
    assert response.status_code == 422 and "top" in response.text


def test_odds_are_remembered_per_version_and_role(client: TestClient) -> None:
    """The same odds query at the same version is answered from memory; a new version computes anew."""
    ascend = Campaign.create(client, "ascend")
    ascend.send({"do": "add_character", "sheet": SUSAN})
    service = client.app.state.service  # type: ignore[attr-defined]
    from talespin.table import Viewer

    query = {"hero": "Susan", "skill": "Athletics"}
    first = service.odds(ascend.id, Viewer("gm"), query)
    assert service.odds(ascend.id, Viewer("gm"), dict(query)) is first
    assert service.odds(ascend.id, Viewer("player", "p1"), query) is not first
    ascend.send(susan_test())
    assert service.odds(ascend.id, Viewer("gm"), query) is not first
