"""Every endpoint of the table's HTTP API, and every refusal (401/403/404/409/413/422)."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from table_sheets import ADA, SUSAN, susan_test
from typer.testing import CliRunner
from web_support import Campaign, ServerProcess, bearer, free_port

from talespin.cli import app as cli
from talespin.store.sql import SqlStore
from talespin.web import create_app


def _error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"])
    return dict(body["error"])


def test_health_and_systems(client: TestClient) -> None:
    """GET /api/health answers ok; GET /api/systems lists both systems."""
    assert client.get("/api/health").json() == {"status": "ok", "store": "sqlite", "listen": "none"}
    assert client.get("/api/systems").json()["systems"] == ["ascend", "inciting-incident"]
    sheets = {e["name"]: e["sheet"] for e in client.get("/api/systems").json()["registry"]}
    assert sheets == {"ascend": "hero", "inciting-incident": "character"}


def test_create_campaign_returns_tokens_and_links(client: TestClient) -> None:
    """POST /api/campaigns → 201 with id, both tokens, version and the two page links."""
    response = client.post("/api/campaigns", json={"name": "Night", "system": "ii", "variant": {}})
    assert response.status_code == 201
    body = response.json()
    assert {"id", "gm_token", "invite_token", "version", "gm_link", "invite_link"} <= set(body)
    assert body["gm_link"] == f"/table.html#campaign={body['id']}&token={body['gm_token']}"
    assert body["invite_link"] == f"/join.html#campaign={body['id']}&invite={body['invite_token']}"
    assert (
        body["gm_token"]
        not in client.get(f"/api/campaigns/{body['id']}/export", headers=bearer(body["gm_token"])).text
    )


@pytest.mark.parametrize(
    "body",
    [
        {"name": "x", "system": "chess"},
        {"name": "", "system": "ii"},
        {"system": "ii"},
        {"name": "x", "system": "ii", "variant": [1]},
        {"name": "x", "system": "ii", "extra": 1},
        {"name": "x", "system": "ascend", "variant": {"no_such_rule": 3}},
    ],
)
def test_bad_campaigns_are_422(client: TestClient, body: dict[str, Any]) -> None:
    """An unknown system, an empty name, a missing key, a bad variant: 422 with a rule key."""
    error = _error(client.post("/api/campaigns", json=body), 422)
    assert "rule" in error


def test_join_returns_a_player_token(ii: Campaign) -> None:
    """POST join → 201 with player_token and player_id; the player sees itself in the state."""
    response = ii.client.post(f"{ii.base}/join", json={"invite_token": ii.invite_token, "name": "Pia"})
    assert response.status_code == 201
    body = response.json()
    state = ii.state(body["player_token"])
    assert state["role"] == "player" and state["player_id"] == body["player_id"]
    assert {"id": body["player_id"], "name": "Pia"} in state["players"]


def test_refusals_401_403_404(ii: Campaign) -> None:
    """No or bad token → 401; a bad invite → 401; a player doing GM work → 403; unknown campaign → 404."""
    client = ii.client
    _error(client.get(f"{ii.base}/state"), 401)
    _error(client.get(f"{ii.base}/state", headers=bearer("wrong")), 401)
    _error(client.get(f"{ii.base}/events", headers={"Authorization": "Basic abc"}), 401)
    _error(client.post(f"{ii.base}/join", json={"invite_token": "wrong", "name": "Eve"}), 401)
    _error(client.post(f"{ii.base}/join", json={"invite_token": ii.gm_token, "name": "Eve"}), 401)
    player = ii.join("Pia")
    assert _error(ii.post({"do": "undo"}, player), 403)["code"] == "forbidden"
    _error(ii.post({"do": "end_scene"}, player), 403)
    ii.send({"do": "add_character", "sheet": ADA})
    _error(ii.post({"do": "simple_obstacle", "character": "Ada", "choice": "auto"}, player), 403)
    assert (
        _error(client.get("/api/campaigns/nope/state", headers=bearer(ii.gm_token)), 404)["code"]
        == "not_found"
    )
    _error(client.post("/api/campaigns/nope/join", json={"invite_token": "x", "name": "y"}), 404)
    _error(client.get("/api/campaigns/nope/export", headers=bearer(ii.gm_token)), 404)


def test_a_stale_version_is_409_and_changes_nothing(ii: Campaign) -> None:
    """A command expecting an old version → 409; the state is as before."""
    version = ii.version()
    ii.send({"do": "note", "text": "first"})
    error = _error(ii.post({"do": "note", "text": "second"}, version=version), 409)
    assert error["code"] == "stale_version"
    assert [n["text"] for n in ii.state()["notes"]] == ["first"]
    assert ii.version() == version + 2


def test_an_illegal_command_is_422_with_its_rule(ii: Campaign) -> None:
    """A command the rules forbid → 422 whose error names the rule; a malformed one → 422 too."""
    ii.send({"do": "add_character", "sheet": ADA})
    # rule: II-COMPLEX-8
    error = _error(ii.post({"do": "regular_action", "character": "Ada", "choice": "auto"}), 422)
    assert "rule" in error and error["code"] in {"illegal", "malformed"}
    error = _error(ii.post({"do": "simple_obstacle", "character": 5}), 422)
    assert "rule" in error
    _error(
        ii.client.post(
            f"{ii.base}/commands", json={"command": "x", "expected_version": 1}, headers=bearer(ii.gm_token)
        ),
        422,
    )
    _error(ii.client.post(f"{ii.base}/commands", content=b"{not json", headers=bearer(ii.gm_token)), 422)


def test_physical_dice_are_checked(ascend: Campaign) -> None:
    """Faces that do not fit the pool → 422; fitting faces are recorded as physical dice."""
    ascend.send({"do": "add_character", "sheet": SUSAN})
    error = _error(ascend.post(susan_test(faces=[0, 3, 9, 4, 4])), 422)
    assert error["code"] == "bad_faces"
    body = ascend.send(susan_test(faces=[0, 3, 9]))
    issued = body["events"][0]
    assert issued["type"] == "CommandIssued" and issued["data"]["dice"] == "physical"


def test_commands_state_and_events(ascend: Campaign) -> None:
    """POST commands → 200 {version, events}; GET state has the version; GET events?after=n lists the rest."""
    before = ascend.version()
    body = ascend.send({"do": "add_character", "sheet": SUSAN})
    assert body["version"] == before + 2
    assert [e["version"] for e in body["events"]] == [before + 1, before + 2]
    assert ascend.state()["state"]["heroes"][0]["name"] == "Susan"
    listed = ascend.client.get(f"{ascend.base}/events?after={before}", headers=bearer(ascend.gm_token)).json()
    assert listed["version"] == before + 2
    assert [e["type"] for e in listed["events"]] == ["CommandIssued", "CharacterAdded"] or len(
        listed["events"]
    ) == 2
    _error(ascend.client.get(f"{ascend.base}/events?after=-1", headers=bearer(ascend.gm_token)), 422)


def test_export_in_both_formats(ascend: Campaign) -> None:
    """GET export → the JSON record, or Markdown with ?format=markdown; an unknown format → 422."""
    ascend.send({"do": "add_character", "sheet": SUSAN})
    headers = bearer(ascend.gm_token)
    record = ascend.client.get(f"{ascend.base}/export", headers=headers).json()
    assert record["format"] == "talespin-export/1" and record["campaign"]["id"] == ascend.id
    markdown = ascend.client.get(f"{ascend.base}/export?format=markdown", headers=headers)
    assert markdown.headers["content-type"].startswith("text/markdown") and "# Test" in markdown.text
    _error(ascend.client.get(f"{ascend.base}/export?format=pdf", headers=headers), 422)


def test_odds_and_sheet_validation(ascend: Campaign) -> None:
    """POST odds answers from the system; POST validate checks a sheet; an unknown system → 404."""
    ascend.send({"do": "add_character", "sheet": SUSAN})
    query = {"hero": "Susan", "skill": "Athletics", "difficulty": 0, "required": 1}
    odds = ascend.client.post(f"{ascend.base}/odds", json=query, headers=bearer(ascend.gm_token))
    assert odds.status_code == 200 and odds.json()["advice"]
    _error(
        ascend.client.post(f"{ascend.base}/odds", json={"hero": "Nobody"}, headers=bearer(ascend.gm_token)),
        422,
    )
    _error(ascend.client.post(f"{ascend.base}/odds", json={}), 401)
    valid = ascend.client.post("/api/systems/ascend/validate", json={"sheet": SUSAN})
    assert valid.status_code == 200 and valid.json()["valid"] is True
    invalid = ascend.client.post("/api/systems/ii/validate", json={"sheet": {"name": "x"}})
    assert invalid.status_code == 200 and invalid.json()["valid"] is False
    _error(ascend.client.post("/api/systems/chess/validate", json={"sheet": {}}), 404)
    _error(ascend.client.post("/api/systems/ii/validate", json={"sheet": 3}), 422)


def test_oversized_bodies_are_413(ii: Campaign) -> None:
    """A body over 64 KiB is refused with 413, declared or streamed, and nothing is applied."""
    version = ii.version()
    huge = {"command": {"do": "note", "text": "x" * 70_000}, "expected_version": version}
    assert (
        _error(ii.client.post(f"{ii.base}/commands", json=huge, headers=bearer(ii.gm_token)), 413)["code"]
        == "too_large"
    )

    def chunks() -> Any:
        for _ in range(100):
            yield b" " * 1024

    streamed = ii.client.post(f"{ii.base}/commands", content=chunks(), headers=bearer(ii.gm_token))
    _error(streamed, 413)
    assert ii.version() == version


def test_dice_limits_are_refused(ii: Campaign) -> None:
    """A command asking for more dice than the engine's limit is a 422, never computed; nothing is applied."""
    ii.send({"do": "add_character", "sheet": ADA})
    ii.send({"do": "start_scene", "kind": "action", "difficulty": 5})
    ii.send({"do": "simple_obstacle"})
    version = ii.version()
    error = _error(
        ii.post({"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "dice": 5000}), 422
    )
    # rule: II-ROLL-5
    assert error["rule"] == "II-ROLL-5" and "between 1 and 9" in error["message"]
    faces = [[1]] * 2000
    _error(ii.post({"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "faces": faces}), 422)
    assert ii.version() == version


def test_deeply_nested_input_is_422(ii: Campaign) -> None:
    """Commands, odds queries, sheets and variants nested hundreds of levels deep are 422, not a crash."""
    headers = {**bearer(ii.gm_token), "content-type": "application/json"}
    for depth in (40, 600, 5000):
        nested = "[" * depth + "]" * depth
        command = '{"command": {"do": "note", "text": "x", "deep": ' + nested + '}, "expected_version": 3}'
        _error(ii.client.post(f"{ii.base}/commands", content=command, headers=headers), 422)
        _error(
            ii.client.post(f"{ii.base}/odds", content='{"character": ' + nested + "}", headers=headers), 422
        )
        sheet = '{"sheet": {"name": ' + nested + "}}"
        _error(ii.client.post("/api/systems/ii/validate", content=sheet, headers=headers), 422)
        variant = '{"name": "x", "system": "ii", "variant": {"dice": ' + nested + "}}"
        _error(ii.client.post("/api/campaigns", content=variant, headers=headers), 422)


def test_unknown_routes_and_methods_are_json(client: TestClient) -> None:
    """An unknown API path is a JSON 404, a wrong method a JSON 405."""
    _error(client.get("/api/nowhere"), 404)
    _error(client.delete("/api/campaigns"), 405)


def test_pages_and_openapi_are_served(client: TestClient) -> None:
    """The browser pages are served at / and the OpenAPI document at /openapi.json."""
    page = client.get("/")
    assert page.status_code == 200 and "<" in page.text
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/campaigns",
        "/api/campaigns/{campaign_id}/join",
        "/api/campaigns/{campaign_id}/commands",
        "/api/campaigns/{campaign_id}/state",
        "/api/campaigns/{campaign_id}/events",
        "/api/campaigns/{campaign_id}/export",
        "/api/campaigns/{campaign_id}/odds",
        "/api/systems/{system}/validate",
        "/api/health",
    ):
        assert path in paths


@pytest.mark.postgres
def test_the_app_runs_on_postgresql() -> None:
    """The same app over PostgreSQL: create, join, command, conflict, and a restart that replays the log."""
    url = os.environ.get("TALESPIN_TEST_POSTGRES")
    if not url:
        pytest.skip("TALESPIN_TEST_POSTGRES is unset: the PostgreSQL run of the API is SKIPPED")
    schema = f"talespin_web_{secrets.token_hex(6)}"
    try:
        with TestClient(create_app(url, schema=schema)) as client:
            campaign = Campaign.create(client, "ascend")
            player = campaign.join("Pia")
            campaign.send({"do": "add_character", "sheet": SUSAN}, player)
            campaign.send(susan_test(), player)
            _error(campaign.post(susan_test(), player, version=1), 409)
            before = campaign.state()
        with TestClient(create_app(url, schema=schema)) as again:
            replayed = Campaign(again, campaign.id, campaign.gm_token, campaign.invite_token, {}).state()
        assert replayed == before
    finally:
        store = SqlStore(url, schema=schema)
        store.drop_schema()
        store.close()


def test_an_http_export_verifies_and_a_tampered_one_does_not(ascend: Campaign, tmp_path: Path) -> None:
    """The GM's JSON export over HTTP passes `talespin verify`; with one face changed it exits 1."""
    ascend.send({"do": "add_character", "sheet": SUSAN})
    ascend.send({"do": "start_scene"})
    for _ in range(3):
        ascend.send(susan_test())
    ascend.send(susan_test(faces=[0, 3, 9]))
    ascend.send({"do": "end_scene"})
    record = ascend.client.get(f"{ascend.base}/export", headers=bearer(ascend.gm_token)).json()
    honest = tmp_path / "export.json"
    honest.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["verify", str(honest), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["verified"] == 2 + 2 + 5 and report["pending"] == 0  # chain, versions, 2 seeds, 5 entries
    roll = next(e for e in record["events"] if e["type"] != "CommandIssued" and "faces" in e["data"])
    roll["data"]["faces"][0] = (roll["data"]["faces"][0] + 1) % 10
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["verify", str(tampered)])
    assert result.exit_code == 1 and "mismatch" in result.output


def test_an_unexpected_error_is_still_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug inside a route answers 500 with the same JSON error shape (never an HTML or text page)."""
    app = create_app(f"sqlite:///{tmp_path / 'bug.db'}")

    def broken(*_args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(app.state.service, "state", broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        campaign = Campaign.create(client, "ascend")
        response = client.get(f"{campaign.base}/state", headers=bearer(campaign.gm_token))
    assert _error(response, 500)["code"] == "internal"


def test_serve_prints_its_url_and_serves_the_pages(tmp_path: Path) -> None:
    """`talespin serve` says where it listens, serves the pages and the API, and stops cleanly."""
    server = ServerProcess(tmp_path / "pages.db", free_port())
    server.start()
    try:
        page = httpx.get(f"{server.url}/", timeout=5)
        assert page.status_code == 200 and "html" in page.headers["content-type"]
        health = {"status": "ok", "store": "sqlite", "listen": "none"}
        assert httpx.get(f"{server.url}/api/health", timeout=5).json() == health
    finally:
        server.stop()
    assert f"http://127.0.0.1:{server.port}/" in server.output
    assert (tmp_path / "pages.db").exists()


def test_serve_refuses_a_store_it_cannot_open(tmp_path: Path) -> None:
    """`talespin serve` on a store it cannot open exits 2 with a clear message, never a traceback."""
    result = CliRunner().invoke(cli, ["serve", "--db", f"sqlite:///{tmp_path}/missing/dir/x.db"])
    assert result.exit_code == 2
    assert "cannot open the store" in result.output and "Traceback" not in result.output
