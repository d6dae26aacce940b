"""``POST /api/lab/compare``: rules variants side by side over HTTP, no token needed."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from talespin.lab.ascend_variants import compare_ascend
from talespin.lab.variants import compare


def test_inciting_incident_variants_match_the_lab(client: TestClient) -> None:
    """The shipped rules come first; the grids are the lab's own, with each variant's automatic pass."""
    # rule: II-SIMPLE-2
    variants = {"auto 5": {"crisis": {"auto": 5}}}
    answer = client.post("/api/lab/compare", json={"variants": variants, "max_net": 2})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    expected = compare({"shipped": {}, **variants}, max_base=9, max_net=2).to_json()
    assert body["system"] == "inciting-incident" and body["nets"] == [-2, -1, 0, 1, 2]
    assert [v["name"] for v in body["variants"]] == ["shipped", "auto 5"]
    assert [v["auto_crisis"] for v in body["variants"]] == [4, 5]
    for got, want in zip(body["variants"], expected["variants"], strict=True):
        assert got["rolls"] == want["rolls"] and got["changed_choices"] == want["changed_choices"]


def test_ascend_variants_by_alias(client: TestClient) -> None:
    """``system`` takes a registry alias; the Ascend grid is Target × pool × required."""
    # rule: AS-TEST-3
    variants = {"d12": {"die": {"size": 12}}}
    answer = client.post(
        "/api/lab/compare", json={"system": "cn-ascend", "variants": variants, "max_pool": 4}
    )
    assert answer.status_code == 200, answer.text
    expected = compare_ascend({"shipped": {}, **variants}, max_pool=4).to_json()
    assert answer.json() == expected


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({}, "variants"),
        ({"variants": {"x": 5}}, "variants.x"),
        ({"variants": {"x": {"crisys": {}}}}, None),
        ({"variants": {str(n): {} for n in range(7)}}, "variants"),
        ({"variants": {"x": {}}, "max_net": 11}, "max_net"),
        ({"variants": {"x": {}}, "system": "chess"}, None),
    ],
)
def test_bad_comparisons_are_422_naming_what_was_expected(
    client: TestClient, body: dict[str, object], path: str | None
) -> None:
    """Each bad body is a 422 with an error message (and the path where there is one)."""
    answer = client.post("/api/lab/compare", json=body)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["message"]
    if path is not None:
        assert error["path"] == path
