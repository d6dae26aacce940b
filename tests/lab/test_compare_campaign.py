"""``talespin lab compare EXPORT.json``: a campaign's variant compared as the table plays it."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from talespin.cli import app
from talespin.web import create_app


def _export(tmp_path: Path, system: str, variant: dict[str, object]) -> Path:
    """A real campaign created with ``variant`` over HTTP, exported by its GM to a file."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'talespin.db'}")) as client:
        made = client.post(
            "/api/campaigns", json={"name": "House rules", "system": system, "variant": variant}
        )
        assert made.status_code == 201, made.text
        body = made.json()
        headers = {"Authorization": f"Bearer {body['gm_token']}"}
        exported = client.get(f"/api/campaigns/{body['id']}/export", headers=headers)
    path = tmp_path / "house.json"
    path.write_text(exported.text)
    return path


def test_a_campaign_export_is_compared_under_the_campaigns_name(tmp_path: Path) -> None:
    """The export's variant is laid over the shipped rules like a file of overrides would be."""
    # rule: II-SIMPLE-2
    export = _export(tmp_path, "ii", {"crisis": {"auto": 5}})
    plain = tmp_path / "auto5.yaml"
    plain.write_text("crisis: {auto: 5}\n")
    done = CliRunner().invoke(app, ["lab", "compare", str(export), str(plain), "--json"])
    assert done.exit_code == 0, done.output
    rows = {v["name"]: v for v in json.loads(done.stdout)["variants"]}
    assert list(rows) == ["shipped", "House rules", "auto5"]
    assert rows["House rules"]["rolls"] == rows["auto5"]["rolls"]
    assert rows["House rules"]["changed_choices"] > 0


def test_a_campaign_of_the_other_system_is_refused(tmp_path: Path) -> None:
    """An Ascend campaign's export in an Inciting Incident comparison names the option to use."""
    export = _export(tmp_path, "ascend", {"opposed": {"tie": "reroll"}})
    done = CliRunner().invoke(app, ["lab", "compare", str(export), "--json"])
    assert done.exit_code == 2
    assert "--system ascend" in json.loads(done.stdout)["error"]["message"]
    ascend = CliRunner().invoke(app, ["lab", "compare", "--system", "ascend", str(export), "--json"])
    assert ascend.exit_code == 0, ascend.output
    assert [v["name"] for v in json.loads(ascend.stdout)["variants"]] == ["shipped", "House rules"]
