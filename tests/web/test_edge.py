"""Bounded work at the edge: paged reads, rate limits, security headers and the WebSocket's Origin check."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner
from web_support import Campaign, ServerProcess, bearer, free_port

from talespin.cli import app as cli
from talespin.table.pages import MAX_EVENTS_PAGE, MAX_EXPORT_PAGE
from talespin.web import create_app
from talespin.web.guard import PAGE_POLICY
from talespin.web.throttle import Buckets, Rate, RateLimits

NOTES = 23


@pytest.fixture
def noted(ii: Campaign) -> Campaign:
    """An II campaign with a player and NOTES notes, one of them the GM's alone."""
    ii.join("Pia")
    for number in range(NOTES):
        visibility = "gm" if number == 5 else "public"
        ii.send({"do": "note", "text": f"note {number}", "visibility": visibility})
    return ii


def _pages(campaign: Campaign, path: str, token: str, limit: int) -> list[dict[str, Any]]:
    pages, after = [], 0
    while True:
        response = campaign.client.get(
            f"{campaign.base}/{path}&after={after}&limit={limit}", headers=bearer(token)
        )
        assert response.status_code == 200, response.text
        pages.append(response.json())
        if pages[-1]["next"] is None:
            return pages
        assert pages[-1]["next"] == after + limit
        after = pages[-1]["next"]


def test_events_come_in_pages_that_add_up_to_the_whole_record(noted: Campaign) -> None:
    """``limit`` versions per page, ``next`` to the following one, ``null`` on the last; the pages, joined,
    are what one unpaged read lists, for the GM and for a player (who sees no GM note on any page)."""
    player = noted.join("Bo")
    for token in (noted.gm_token, player):
        whole = noted.client.get(f"{noted.base}/events", headers=bearer(token)).json()
        assert {"version", "events", "head", "limit", "next"} <= whole.keys()
        assert whole["next"] is None and whole["limit"] == MAX_EVENTS_PAGE
        pages = _pages(noted, "events?x=1", token, 7)
        assert len(pages) == -(-whole["version"] // 7)
        assert [e for page in pages for e in page["events"]] == whole["events"]
        assert all(page["version"] == whole["version"] and page["head"] == whole["head"] for page in pages)
    shown = [e["data"].get("text") for page in _pages(noted, "events?x=1", player, 7) for e in page["events"]]
    assert "note 5" not in shown and "note 6" in shown


def test_a_page_past_the_limit_is_refused(noted: Campaign) -> None:
    """A ``limit`` above the maximum (or below 1) is a 422 naming it; nothing is listed."""
    for path, limit in (("events?", MAX_EVENTS_PAGE + 1), ("events?", 0), ("export?", MAX_EXPORT_PAGE + 1)):
        response = noted.client.get(f"{noted.base}/{path}limit={limit}", headers=bearer(noted.gm_token))
        assert response.status_code == 422, response.text
        assert "limit" in response.json()["error"]["message"]


def test_export_pages_join_into_the_export_that_verifies(noted: Campaign, tmp_path: Path) -> None:
    """JSON export pages, all given to ``talespin verify``, verify as the whole export does; one page alone
    is incomplete (exit 3), pages that do not follow each other are not an export (exit 2)."""
    noted.send({"do": "start_scene", "kind": "action"})
    noted.send({"do": "end_scene"})
    whole = noted.client.get(f"{noted.base}/export", headers=bearer(noted.gm_token)).json()
    assert whole["after"] == 0 and whole["next"] is None and whole["limit"] == MAX_EXPORT_PAGE
    pages = _pages(noted, "export?format=json", noted.gm_token, 10)
    assert len(pages) >= 3
    assert [e for page in pages for e in page["events"]] == whole["events"]
    files = []
    for number, page in enumerate(reversed(pages)):  # in any order
        files.append(tmp_path / f"page-{number}.json")
        files[-1].write_text(json.dumps(page))
    runner = CliRunner()
    joined = runner.invoke(cli, ["verify", *map(str, files), "--json"])
    assert joined.exit_code == 0, joined.output
    alone = runner.invoke(cli, ["verify", str(files[-1]), "--json"])
    assert alone.exit_code == 3, alone.output
    assert "one page of a longer record" in alone.output
    gap = runner.invoke(cli, ["verify", str(files[0]), str(files[-1]), "--json"])
    assert gap.exit_code == 2, gap.output
    assert "do not follow each other" in gap.output


def test_a_markdown_page_says_where_the_next_one_starts(noted: Campaign) -> None:
    """A Markdown page recaps its own versions and names the next page; the whole recap says nothing more."""
    gm = bearer(noted.gm_token)
    first = noted.client.get(f"{noted.base}/export?format=markdown&limit=10", headers=gm).text
    assert "the next page is `?after=10`" in first
    assert "Note: note 2." in first and "Note: note 22." not in first  # the session part is the page's
    last = noted.client.get(f"{noted.base}/export?format=markdown&after=20&limit=100", headers=gm).text
    assert "versions after 20 to the end" in last and "Note: note 22." in last
    whole = noted.client.get(f"{noted.base}/export?format=markdown", headers=gm).text
    assert "next page" not in whole and "versions after" not in whole and "Note: note 22." in whole


def _limited(tmp_path: Path, **rates: Rate | None) -> TestClient:
    limits = RateLimits(
        **{**{name: None for name in ("create", "join", "campaign_join", "token", "client")}, **rates}
    )
    return TestClient(create_app(f"sqlite:///{tmp_path / 'limited.db'}", limits=limits))


def _refused(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    error = response.json()["error"]
    assert error["code"] == "rate_limited" and "try again" in error["message"]
    assert int(response.headers["retry-after"]) >= 1 and error["retry_after"] == int(
        response.headers["retry-after"]
    )


def test_campaign_creation_is_limited_per_client(tmp_path: Path) -> None:
    """The third campaign in an hour from one client, at 2/hour, is a 429 with Retry-After; none is made."""
    with _limited(tmp_path, create=Rate(2, 3600)) as client:
        made = [client.post("/api/campaigns", json={"name": f"C{n}", "system": "ii"}) for n in range(2)]
        assert [r.status_code for r in made] == [201, 201]
        refused = client.post("/api/campaigns", json={"name": "C3", "system": "ii"})
        _refused(refused)
        assert 1700 < int(refused.headers["retry-after"]) <= 1800  # half an hour until one more is allowed
        assert client.get("/api/health").status_code == 200  # other requests are not counted


def test_joins_are_limited_per_campaign_and_per_client(tmp_path: Path) -> None:
    """At 3 joins per campaign, the fourth player through one invite is refused; another campaign is not."""
    with _limited(tmp_path, campaign_join=Rate(3, 3600), join=Rate(5, 3600)) as client:
        first, second = Campaign.create(client, "ii"), Campaign.create(client, "ascend")
        for name in ("A", "B", "C"):
            first.join(name)
        late = client.post(f"{first.base}/join", json={"invite_token": first.invite_token, "name": "D"})
        _refused(late)
        assert "per campaign" in late.json()["error"]["message"]
        assert [p["name"] for p in first.state()["players"]] == ["A", "B", "C"]
        second.join("E")  # the fifth join of this client
        _refused(client.post(f"{second.base}/join", json={"invite_token": second.invite_token, "name": "F"}))


def test_requests_are_limited_per_token_and_sockets_count_too(tmp_path: Path) -> None:
    """At 5 requests per token a minute, the sixth is refused, and so is a WebSocket with that token;
    another token is served."""
    with _limited(tmp_path, token=Rate(5, 60)) as client:
        campaign = Campaign.create(client, "ii")
        player = campaign.join("Pia")
        statuses = [
            client.get(f"{campaign.base}/state", headers=bearer(campaign.gm_token)).status_code
            for _ in range(6)
        ]
        assert statuses == [200] * 5 + [429]
        _refused(client.get(f"{campaign.base}/events", headers=bearer(campaign.gm_token)))
        socket = f"{campaign.base}/ws?token={campaign.gm_token}"
        with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(socket):
            pass
        assert denied.value.status_code == 429 and denied.value.json()["error"]["code"] == "rate_limited"
        assert client.get(f"{campaign.base}/state", headers=bearer(player)).status_code == 200


def test_a_bucket_refills_evenly_and_forgets_the_least_recently_used() -> None:
    """A 2-per-10-s bucket gives two at once, then one every 5 s; past its size the oldest key is dropped."""
    now = [0.0]
    buckets = Buckets(size=2, clock=lambda: now[0])
    rate = Rate(2, 10)
    assert [buckets.take("a", rate) for _ in range(2)] == [0, 0]
    assert buckets.take("a", rate) == pytest.approx(5)
    now[0] = 5.0
    assert buckets.take("a", rate) == 0
    assert buckets.take("a", rate) == pytest.approx(5)
    buckets.take("b", rate)
    buckets.take("c", rate)  # "a" is forgotten: it starts full again
    assert [buckets.take("a", rate) for _ in range(2)] == [0, 0]


def test_limits_are_read_from_their_setting() -> None:
    """``--limits``: 'off' or changes to the defaults; anything else is refused saying what it expects."""
    assert RateLimits.parse("off") == RateLimits.off()
    changed = RateLimits.parse("create=100/hour, token=off")
    assert changed.create == Rate(100, 3600) and changed.token is None and changed.join == RateLimits().join
    for bad in ("create=lots", "nope=1/hour", "create=0/hour"):
        with pytest.raises(ValueError, match="expected"):
            RateLimits.parse(bad)
    result = CliRunner().invoke(cli, ["serve", "--limits", "create=fast"])
    assert result.exit_code == 2 and "COUNT/second|minute|hour|day" in result.output


def test_every_response_carries_the_security_headers(client: TestClient, ii: Campaign) -> None:
    """Pages, scripts, answers and refusals alike: a CSP without inline script, no framing, no sniffing,
    no referrer."""
    responses = [
        client.get("/"),
        client.get("/table.html"),
        client.get("/js/api.js"),
        client.get("/api/health"),
        client.get(f"{ii.base}/state", headers=bearer(ii.gm_token)),
        client.get("/api/campaigns/nope/state", headers=bearer(ii.gm_token)),
        client.post("/api/campaigns", content=b'{"name": "\\ud800", "system": "ii"}'),
        client.post("/api/campaigns", content=b"x" * 70_000, headers={"content-type": "application/json"}),
        client.get("/nothing-here"),
    ]
    assert [r.status_code for r in responses] == [200, 200, 200, 200, 200, 404, 422, 413, 404]
    for response in responses:
        headers = response.headers
        assert headers["content-security-policy"] == PAGE_POLICY, response.url
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
    assert "'unsafe-inline'" not in PAGE_POLICY and "script-src 'self'" in PAGE_POLICY
    assert "frame-ancestors 'none'" in PAGE_POLICY


def test_a_foreign_page_cannot_open_the_websocket(client: TestClient, ii: Campaign, tmp_path: Path) -> None:
    """A handshake whose Origin is another site's is refused with 403 before anything is sent; the table's
    own origin, an origin the server was told about, and a client sending no Origin are served."""
    url = f"{ii.base}/ws?token={ii.gm_token}&after=0"
    foreign = {"origin": "https://evil.example"}
    with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(url, headers=foreign):
        pass
    assert denied.value.status_code == 403 and denied.value.json()["error"]["code"] == "foreign_origin"
    for headers in ({"origin": "http://testserver"}, {}):
        with client.websocket_connect(url, headers=headers) as socket:
            assert socket.receive_json()["version"] == 1
    allowed = create_app(f"sqlite:///{tmp_path / 'other.db'}", origins=["https://table.example"])
    with TestClient(allowed) as other:
        campaign = Campaign.create(other, "ii")
        with other.websocket_connect(
            f"{campaign.base}/ws?token={campaign.gm_token}&after=0",
            headers={"origin": "https://table.example"},
        ) as socket:
            assert socket.receive_json()["version"] == 1
        with (
            pytest.raises((WebSocketDenialResponse, WebSocketDisconnect)),
            other.websocket_connect(
                f"{campaign.base}/ws?token={campaign.gm_token}", headers={"origin": "null"}
            ),
        ):
            pass


@pytest.fixture
def limited_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real server with its default limits."""
    process = ServerProcess(tmp_path / "served.db", free_port(), limits="")
    process.start()
    yield process
    process.stop()


def test_the_real_server_refuses_a_foreign_origin_and_sends_the_headers(
    limited_server: ServerProcess,
) -> None:
    """On a real socket: a foreign Origin gets HTTP 403, the server's own is upgraded; pages have the CSP."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with httpx.Client(base_url=limited_server.url, timeout=10) as http:
        campaign = Campaign.create(http, "ii")
        assert http.get("/").headers["content-security-policy"] == PAGE_POLICY
    url = f"{limited_server.ws}{campaign.base}/ws?token={campaign.gm_token}&after=0"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="https://evil.example", open_timeout=10)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    assert b"foreign_origin" in refused.value.response.body
    with connect(url, origin=limited_server.url, open_timeout=10) as socket:  # type: ignore[arg-type]
        assert json.loads(socket.recv(timeout=10))["version"] == 1
