"""``POST /api/campaigns/{id}/validate`` judges a sheet by the campaign's variant, as add_character does."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from table_sheets import ADA, SUSAN
from web_support import Campaign, bearer

VARIANTS: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    # Ascend ratings capped at 3: Susan's Conviction of 4 is over it (AS-HERO-2).
    ("ascend", {"ratings": {"max": 3}}, SUSAN, "AS-HERO-2"),
    # Inciting Incident levels capped at 4: Ada's Nimbleness and Piloting of 5 are over it (II-CHAR-1).
    (
        "ii",
        {"levels": {"max": 4, "dice": [[], [4], [6], [8], [10]], "cost": [0, 1, 3, 6, 10]}},
        ADA,
        "II-CHAR-1",
    ),
]


def _campaign(client: TestClient, system: str, variant: dict[str, Any]) -> Campaign:
    response = client.post("/api/campaigns", json={"name": "Variant", "system": system, "variant": variant})
    assert response.status_code == 201, response.text
    body = response.json()
    return Campaign(client, body["id"], body["gm_token"], body["invite_token"], body)


@pytest.mark.parametrize(("system", "variant", "sheet", "rule"), VARIANTS)
def test_the_campaigns_variant_decides_and_add_character_agrees(
    client: TestClient, system: str, variant: dict[str, Any], sheet: dict[str, Any], rule: str
) -> None:
    """A sheet valid under the shipped rules is refused by a variant's limit, by endpoint and table."""
    # rule: AS-HERO-2
    # rule: II-CHAR-1
    shipped = client.post(f"/api/systems/{system}/validate", json={"sheet": sheet}).json()
    assert shipped["valid"], shipped
    plain = Campaign.create(client, system)
    on_plain = client.post(f"{plain.base}/validate", json={"sheet": sheet}, headers=bearer(plain.gm_token))
    assert on_plain.status_code == 200 and on_plain.json()["valid"]
    plain.send({"do": "add_character", "sheet": sheet})

    varied = _campaign(client, system, variant)
    verdict = client.post(f"{varied.base}/validate", json={"sheet": sheet}, headers=bearer(varied.gm_token))
    assert verdict.status_code == 200
    body = verdict.json()
    assert body["valid"] is False and rule in {error["rule"] for error in body["errors"]}
    refused = varied.post({"do": "add_character", "sheet": sheet})
    assert refused.status_code == 422 and refused.json()["error"]["rule"] == rule


def test_validating_for_a_campaign_needs_its_token(client: TestClient) -> None:
    """Without a token of the campaign, the endpoint answers 401 and judges nothing."""
    campaign = Campaign.create(client, "ii")
    response = client.post(f"{campaign.base}/validate", json={"sheet": ADA})
    assert response.status_code == 401 and response.json()["error"]["code"]


def _as_text(sheet: dict[str, Any]) -> str:
    """A sheet written out as YAML, as a player pastes it."""
    return yaml.safe_dump(sheet, sort_keys=False)


@pytest.mark.parametrize(("system", "variant", "sheet", "rule"), VARIANTS)
def test_a_joining_player_checks_its_sheet_text_with_the_invite(
    client: TestClient, system: str, variant: dict[str, Any], sheet: dict[str, Any], rule: str
) -> None:
    """The invite token is enough; the text is read by the server and judged by the campaign's variant."""
    # rule: AS-HERO-2
    # rule: II-CHAR-1
    plain = Campaign.create(client, system)
    accepted = client.post(
        f"{plain.base}/validate", json={"text": _as_text(sheet)}, headers=bearer(plain.invite_token)
    )
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["valid"] is True and accepted.json()["sheet"] == sheet

    varied = _campaign(client, system, variant)
    refused = client.post(
        f"{varied.base}/validate", json={"text": _as_text(sheet)}, headers=bearer(varied.invite_token)
    )
    assert refused.status_code == 200, refused.text
    body = refused.json()
    assert body["valid"] is False and rule in {error["rule"] for error in body["errors"]}
    assert all("path" in error for error in body["errors"])


def test_a_player_token_checks_a_sheet_and_json_text(client: TestClient) -> None:
    """A joined player's token checks data and JSON text alike; the two verdicts agree."""
    campaign = Campaign.create(client, "ascend")
    player = campaign.join("Bea")
    as_data = client.post(f"{campaign.base}/validate", json={"sheet": SUSAN}, headers=bearer(player))
    as_json = client.post(
        f"{campaign.base}/validate",
        json={"text": json.dumps(SUSAN), "kind": "json"},
        headers=bearer(player),
    )
    assert as_data.status_code == 200 and as_json.status_code == 200, (as_data.text, as_json.text)
    assert as_data.json()["valid"] is True
    assert {key: as_json.json()[key] for key in ("valid", "cost", "errors")} == as_data.json()


def test_a_renewed_invite_no_longer_checks_sheets(client: TestClient) -> None:
    """Once the GM renews the invite, the old one is refused (401) and the new one accepted."""
    campaign = Campaign.create(client, "ii")
    renewed = client.post(f"{campaign.base}/invite", headers=bearer(campaign.gm_token))
    assert renewed.status_code == 201, renewed.text
    old = client.post(f"{campaign.base}/validate", json={"sheet": ADA}, headers=bearer(campaign.invite_token))
    assert old.status_code == 401 and old.json()["error"]["code"]
    new_invite = renewed.json()["invite_token"]
    fresh = client.post(f"{campaign.base}/validate", json={"sheet": ADA}, headers=bearer(new_invite))
    assert fresh.status_code == 200 and fresh.json()["valid"] is True


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"text": "name: Eve\n  skills: [unclosed"}, "unparsable_file"),
        ({"text": "name: Ada", "sheet": ADA}, None),
        ({}, None),
        ({"sheet": ADA, "extra": 1}, None),
        ({"text": "[1, 2", "kind": "json"}, "unparsable_file"),
    ],
)
def test_bad_input_is_a_4xx_naming_what_was_expected(
    client: TestClient, body: dict[str, Any], code: str | None
) -> None:
    """Unreadable text, both forms or neither, an unknown key: 422 with {"error": …}."""
    campaign = Campaign.create(client, "ii")
    response = client.post(f"{campaign.base}/validate", json=body, headers=bearer(campaign.invite_token))
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["message"]
    if code is not None:
        assert error["code"] == code


def test_a_wrong_token_is_refused(client: TestClient) -> None:
    """A token the campaign does not know, invite or other, is a 401."""
    campaign = Campaign.create(client, "ii")
    response = client.post(f"{campaign.base}/validate", json={"sheet": ADA}, headers=bearer("not-a-token"))
    assert response.status_code == 401 and response.json()["error"]["code"]
