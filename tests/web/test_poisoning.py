"""No text a client sends can poison a campaign: refused at the edge; the read path survives a bad entry."""

from __future__ import annotations

import copy
import json
import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from table_sheets import ADA, SUSAN, susan_test
from web_support import Campaign, ServerProcess, bearer, free_port

from talespin.store import NewEvent, open_store
from talespin.store.sql import SqlStore
from talespin.web import create_app

NASTY = ["\ud800", "A\x00B", "\x1b[31m", "x" * 4001]
"""A lone surrogate, a NUL byte, an escape sequence, a text past the length limit."""

KEY = "<the key itself>"
"""Marks a case whose nasty text is a mapping key."""


def _sheet_with(path: list[Any], value: str, sheet: dict[str, Any]) -> dict[str, Any]:
    made = copy.deepcopy(sheet)
    target: Any = made
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return made


II_TEXTS: list[tuple[str, Callable[[str], dict[str, Any]], str]] = [
    ("note text", lambda t: {"do": "note", "text": t}, "text"),
    ("GM note text", lambda t: {"do": "note", "text": t, "visibility": "gm"}, "text"),
    ("character name", lambda t: {"do": "add_character", "sheet": {**ADA, "name": t}}, "sheet.name"),
    (
        "Talent name",
        lambda t: {"do": "add_character", "sheet": _sheet_with(["talents", 0, "name"], t, ADA)},
        "sheet.talents[0].name",
    ),
    (
        "Talent limitation",
        lambda t: {"do": "add_character", "sheet": _sheet_with(["talents", 0, "limitations", 0], t, ADA)},
        "sheet.talents[0].limitations[0]",
    ),
    (
        "Trigger text",
        lambda t: {
            "do": "start_scene",
            "kind": "action",
            "difficulty": 5,
            "triggers": [{"at": 3, "text": t}],
        },
        "triggers[0].text",
    ),
    ("adjustment reason", lambda t: {"do": "adjust_crisis", "amount": 1, "reason": t}, "reason"),
    ("command name", lambda t: {"do": t}, "do"),
    ("a key", lambda t: {"do": "note", "text": "hi", t: 1}, KEY),
]
ASCEND_TEXTS: list[tuple[str, Callable[[str], dict[str, Any]], str]] = [
    ("hero name", lambda t: {"do": "add_character", "sheet": {**SUSAN, "name": t}}, "sheet.name"),
    ("Skill name", lambda t: {"do": "add_character", "sheet": {**SUSAN, "skills": {t: 2}}}, "sheet.skills"),
    ("Test text", lambda t: susan_test(text=t), "text"),
    ("narration", lambda t: {"do": "narrate", "hero": "Susan", "text": t}, "text"),
]


def _post(client: Any, url: str, body: Any, token: str | None = None) -> httpx.Response:
    """POST ``body`` as JSON with every unusual character escaped (``\\ud800``), as an attacker can."""
    headers = {"Content-Type": "application/json", **(bearer(token) if token else {})}
    return client.post(url, content=json.dumps(body).encode(), headers=headers)


def _command(campaign: Campaign, command: dict[str, Any]) -> httpx.Response:
    body = {"command": command, "expected_version": campaign.version()}
    return _post(campaign.client, f"{campaign.base}/commands", body, campaign.gm_token)


def _check_refused(response: httpx.Response, path: str) -> None:
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] in {"bad_text", "malformed"}, error  # malformed: refused by the body's model
    assert error["path"] == path or (path.endswith("skills") and error["path"].startswith(path)), error
    assert len(error["message"]) < 400


def _poison_everything(client: Any) -> tuple[Campaign, Campaign, str, str]:
    """Send every text field of every kind of request with each nasty text; each one is a 422 naming it."""
    ii, ascend = Campaign.create(client, "ii"), Campaign.create(client, "ascend")
    ii_player, ascend_player = ii.join("Pia"), ascend.join("Pat")
    ii.send({"do": "add_character", "sheet": ADA}, ii_player)
    ii.send({"do": "start_scene", "kind": "action", "difficulty": 5})
    ascend.send({"do": "add_character", "sheet": SUSAN}, ascend_player)
    for text in NASTY:
        if len(text) <= 200:  # names have a shorter limit of their own, checked first
            _check_refused(_post(client, "/api/campaigns", {"name": text, "system": "ii"}), "name")
            join = {"invite_token": ii.invite_token, "name": text}
            _check_refused(_post(client, f"{ii.base}/join", join), "name")
        variant = {"name": "ok", "system": "ii", "variant": {"crisis": {"note": text}}}
        _check_refused(_post(client, "/api/campaigns", variant), "variant.crisis.note")
        for campaign, texts in ((ii, II_TEXTS), (ascend, ASCEND_TEXTS)):
            for what, build, path in texts:
                response = _command(campaign, build(text))
                if path == KEY:  # the text is a key: the path holds it
                    assert response.status_code == 422, (what, response.text)
                    continue
                _check_refused(response, path)
            odds = _post(client, f"{campaign.base}/odds", {"character": text}, campaign.gm_token)
            _check_refused(odds, "character")
        sheet = _post(client, "/api/systems/ii/validate", {"sheet": {**ADA, "name": text}})
        _check_refused(sheet, "name")
    return ii, ascend, ii_player, ascend_player


def _every_read_answers(client: Any, campaign: Campaign, tokens: list[str]) -> None:
    """State, events, both exports and the WebSocket catch-up answer 200 for each token."""
    for token in tokens:
        headers = bearer(token)
        state = client.get(f"{campaign.base}/state", headers=headers)
        assert state.status_code == 200, state.text
        events = client.get(f"{campaign.base}/events?after=0", headers=headers)
        assert events.status_code == 200, events.text
        for form in ("json", "markdown"):
            exported = client.get(f"{campaign.base}/export?format={form}", headers=headers)
            assert exported.status_code == 200, exported.text
        if isinstance(client, TestClient):
            count = len(events.json()["events"])
            with client.websocket_connect(f"{campaign.base}/ws?token={token}&after=0") as socket:
                received = [socket.receive_json() for _ in range(count)]
            assert [e["version"] for e in received] == [e["version"] for e in events.json()["events"]]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """A fresh store of each kind (a unique PostgreSQL schema, dropped after)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'poison.db'}", None
        return
    url = os.environ.get("TALESPIN_TEST_POSTGRES")
    if not url:
        pytest.skip("TALESPIN_TEST_POSTGRES is unset: the PostgreSQL poisoning run is SKIPPED")
    schema = f"talespin_poison_{secrets.token_hex(6)}"
    yield url, schema
    cleaner = SqlStore(url, schema=schema)
    cleaner.drop_schema()
    cleaner.close()


def test_every_text_field_is_refused_and_every_read_survives_a_restart(
    store_url: tuple[str, str | None],
) -> None:
    """Surrogates, NUL, escapes, overlong texts in every field: 422s; every read 200, after a restart too."""
    url, schema = store_url
    with TestClient(create_app(url, schema=schema)) as client:
        ii, ascend, ii_player, ascend_player = _poison_everything(client)
        _every_read_answers(client, ii, [ii.gm_token, ii_player])
        _every_read_answers(client, ascend, [ascend.gm_token, ascend_player])
        before = ii.state()
    with TestClient(create_app(url, schema=schema)) as again:
        for campaign, player in ((ii, ii_player), (ascend, ascend_player)):
            restarted = Campaign(again, campaign.id, campaign.gm_token, campaign.invite_token, {})
            _every_read_answers(again, restarted, [campaign.gm_token, player])
        assert Campaign(again, ii.id, ii.gm_token, ii.invite_token, {}).state() == before


def test_a_stored_entry_that_cannot_be_rendered_is_reported_and_the_rest_served(tmp_path: Path) -> None:
    """A log with a lone surrogate and a malformed event, written by hand, serves every read on restart."""
    db = tmp_path / "old.db"
    with TestClient(create_app(f"sqlite:///{db}")) as client:
        campaign = Campaign.create(client, "ii")
        player = campaign.join("Pia")
        campaign.send({"do": "add_character", "sheet": ADA}, player)
        campaign.send({"do": "note", "text": "before"})
        version = campaign.version()
    store = open_store(f"sqlite:///{db}")
    bad = [
        NewEvent(
            "CommandIssued", {"command": {"do": "note", "text": "\ud800"}, "by": "gm", "handled_by": "table"}
        ),
        NewEvent("NoteAdded", {"text": "poison \ud800 here", "by": "gm"}),
        NewEvent("PlayerJoined", {"name": "no id"}),
    ]
    store.append(campaign.id, version, bad, "2026-01-01T00:00:00+00:00")
    store.close()
    server = ServerProcess(db, free_port())
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10.0) as http:
            _every_read_answers(http, campaign, [campaign.gm_token, player])
            gm_state = http.get(f"{campaign.base}/state", headers=bearer(campaign.gm_token)).json()
            problems = {(p["version"], p["type"]) for p in gm_state["problems"]}
            assert problems == {
                (version + 1, "CommandIssued"),
                (version + 2, "NoteAdded"),
                (version + 3, "PlayerJoined"),
            }
            assert [n["text"] for n in gm_state["notes"]] == ["before", "poison \ufffd here"]
            player_state = http.get(f"{campaign.base}/state", headers=bearer(player)).json()
            assert "problems" not in player_state
            after = Campaign(http, campaign.id, campaign.gm_token, campaign.invite_token, {})
            after.send({"do": "note", "text": "after"})
            assert after.version() == version + 5
    finally:
        server.stop()
    assert "entry" in server.output and "PlayerJoined" in server.output
