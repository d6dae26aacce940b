"""The GM's fresh invite link: POST /api/campaigns/{id}/invite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from web_support import Campaign, bearer

from talespin.web import create_app


def _invite(campaign: Campaign, token: str | None) -> Any:
    headers = bearer(token) if token is not None else {}
    return campaign.client.post(f"{campaign.base}/invite", headers=headers)


def test_the_gm_gets_a_fresh_invite_that_replaces_the_old_one(ii: Campaign) -> None:
    """201 with a new invite token and link; the old invite is refused, earlier players keep their tokens."""
    early = ii.join("Pia")
    response = _invite(ii, ii.gm_token)
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"invite_token", "invite_link"}
    assert body["invite_token"] != ii.invite_token
    assert body["invite_link"] == f"/join.html#campaign={ii.id}&invite={body['invite_token']}"
    old = ii.client.post(f"{ii.base}/join", json={"invite_token": ii.invite_token, "name": "Eve"})
    assert old.status_code == 401
    joined = ii.client.post(f"{ii.base}/join", json={"invite_token": body["invite_token"], "name": "Cal"})
    assert joined.status_code == 201
    assert ii.state(early)["role"] == "player"
    assert ii.state(joined.json()["player_token"])["role"] == "player"


def test_only_the_gm_may_renew_the_invite(ii: Campaign) -> None:
    """No token → 401, an unknown token → 401, a player → 403, an unknown campaign → 404; nothing changes."""
    player = ii.join("Pia")
    version = ii.version()
    assert _invite(ii, None).status_code == 401
    assert _invite(ii, "wrong").status_code == 401
    refused = _invite(ii, player)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    missing = ii.client.post("/api/campaigns/nope/invite", headers=bearer(ii.gm_token))
    assert missing.status_code == 404
    assert ii.version() == version
    still = ii.client.post(f"{ii.base}/join", json={"invite_token": ii.invite_token, "name": "Cal"})
    assert still.status_code == 201


def test_the_renewed_invite_survives_a_restart_and_stays_secret(tmp_path: Path) -> None:
    """After a restart the new invite works and the old one does not; players never see the renewal."""
    url = f"sqlite:///{tmp_path / 'talespin.db'}"
    with TestClient(create_app(url)) as client:
        campaign = Campaign.create(client, "ii")
        player = campaign.join("Pia")
        fresh = _invite(campaign, campaign.gm_token).json()["invite_token"]
        seen = client.get(f"{campaign.base}/events", headers=bearer(player)).json()["events"]
        assert all(e["type"] != "InviteRenewed" for e in seen)
        export = client.get(f"{campaign.base}/export", headers=bearer(campaign.gm_token)).text
        assert fresh not in export
    with TestClient(create_app(url)) as client:
        base = f"/api/campaigns/{campaign.id}"
        old = client.post(f"{base}/join", json={"invite_token": campaign.invite_token, "name": "Eve"})
        assert old.status_code == 401
        new = client.post(f"{base}/join", json={"invite_token": fresh, "name": "Cal"})
        assert new.status_code == 201
