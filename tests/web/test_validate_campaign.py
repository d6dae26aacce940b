"""``POST /api/campaigns/{id}/validate`` judges a sheet by the campaign's variant, as add_character does."""

from __future__ import annotations

from typing import Any

import pytest
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
