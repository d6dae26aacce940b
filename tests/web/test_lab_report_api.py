"""``POST /api/lab/report``: the balance report of ``talespin lab report`` over HTTP, pictures inline."""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from talespin.lab.ascend_report import REFERENCE_HERO, ascend_report
from talespin.lab.report import balance_report
from talespin.web.lab_report_routes import MAX_VARIANTS

AUTO5_YAML = "# the automatic pass costs 5\ncrisis:\n  auto: 5\n"


def _svg(plot: dict[str, Any]) -> str:
    prefix = "data:image/svg+xml;base64,"
    assert plot["media_type"] == "image/svg+xml"
    assert plot["data_uri"].startswith(prefix)
    return base64.b64decode(plot["data_uri"][len(prefix) :]).decode("utf-8")


def test_inciting_incident_report_from_a_yaml_variant(client: TestClient) -> None:
    """A variant typed as YAML gives the lab's own report: its figures, its page and one SVG per picture
    the page names (II-SIMPLE-2: the automatic pass's Crisis is what the crossover weighs)."""
    # rule: II-SIMPLE-2
    answer = client.post("/api/lab/report", json={"variants": {"auto 5": AUTO5_YAML}})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    expected = balance_report({"auto 5": {"crisis": {"auto": 5}}})
    assert body["system"] == "inciting-incident"
    for key, value in expected.to_json().items():
        assert body[key] == value, key
    assert list(body["crossover"]) == ["shipped", "auto 5"]
    assert body["crossover"]["auto 5"] != body["crossover"]["shipped"]
    plots = {p["key"]: p for p in body["plots"]}
    assert set(plots) == {"cost", "scene", "variants"}
    assert body["markdown"] == expected.markdown({k: p["name"] for k, p in plots.items()})
    named = re.findall(r"\]\(([^()]+\.svg)\)", body["markdown"])
    assert sorted(named) == sorted(p["name"] for p in plots.values())
    for plot in plots.values():
        assert plot["name"].endswith(".svg")
        assert "<svg" in _svg(plot)
    assert "**auto 5** changes" in body["markdown"]


def test_inciting_incident_report_without_variants(client: TestClient) -> None:
    """No variants: the shipped rules alone, and no variant picture."""
    body = client.post("/api/lab/report", json={}).json()
    assert list(body["crossover"]) == ["shipped"] and body["changes"] == {}
    assert [p["key"] for p in body["plots"]] == ["cost", "scene"]
    assert "No variant was given" in body["markdown"]


def test_ascend_report_with_a_hero_as_text(client: TestClient) -> None:
    """Ascend by alias, a JSON variant text and the hero sheet as YAML: the lab's Ascend report (AS-TEST-3:
    a die of another size changes the grid)."""
    # rule: AS-TEST-3
    hero = yaml.safe_dump(REFERENCE_HERO, sort_keys=False)
    body = {"system": "cn-ascend", "variants": {"d12": '{"die": {"size": 12}}'}, "hero": hero}
    answer = client.post("/api/lab/report", json=body)
    assert answer.status_code == 200, answer.text
    got = answer.json()
    expected = ascend_report({"d12": {"die": {"size": 12}}}, REFERENCE_HERO)
    assert got["system"] == "ascend"
    for key, value in expected.to_json().items():
        assert got[key] == value, key
    keys = [p["key"] for p in got["plots"]]
    assert keys == ["cost", "grid", "narration", "extended", "opposed", "variants"]
    assert got["markdown"] == expected.markdown({p["key"]: p["name"] for p in got["plots"]})
    assert all("<svg" in _svg(p) for p in got["plots"])


@pytest.mark.parametrize(
    ("body", "code", "path"),
    [
        ({"variants": ["crisis: {auto: 5}"]}, "bad_variant", "variants"),
        ({"variants": {"x": "crisis: [1"}}, "unparsable_file", "variants.x"),
        ({"variants": {"x": "- 1\n- 2"}}, "bad_variant", "variants.x"),
        ({"variants": {"x": "crisys: {auto: 5}"}}, None, "variants.x"),
        ({"variants": {"x": "crisis: {auto: 5}\ncrisis: {auto: 6}"}}, "duplicate_key", "variants.x"),
        ({"variants": {"shipped": "crisis: {auto: 5}"}}, "bad_variant", "variants.shipped"),
        ({"variants": {str(n): "{}" for n in range(MAX_VARIANTS + 1)}}, "too_large", "variants"),
        ({"hero": "name: Ada"}, "bad_option", "hero"),
        ({"system": "ascend", "hero": "- not a sheet"}, "bad_field", "hero"),
        ({"system": "ascend", "hero": {"name": 3}}, None, None),
        ({"system": "chess"}, None, None),
        ({"system": 5}, "bad_field", "system"),
        ({"scene": {}}, "bad_field", "scene"),
    ],
)
def test_bad_reports_are_4xx_naming_what_was_expected(
    client: TestClient, body: dict[str, Any], code: str | None, path: str | None
) -> None:
    """Each bad body is refused with a 4xx ``{"error": …}`` saying what was expected, before any work."""
    answer = client.post("/api/lab/report", json=body)
    assert 400 <= answer.status_code < 500, answer.text
    error = answer.json()["error"]
    assert error["message"]
    if code is not None:
        assert error["code"] == code, error
    if path is not None:
        assert error["path"] == path, error
