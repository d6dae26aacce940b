"""The page keeps a receipt of the chain heads it was shown, and the receipt catches a re-forged export."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from talespin.table.chain import GENESIS, link

pytestmark = pytest.mark.browser

TOM = """\
name: Tom
skills: {Lore: 4}
convictions: {Never again: 2}
traits: {Wits: 3}
backgrounds: {Exorcist: 2}
aids: {Soul Blade: 3}
"""
NOTE = "The bell tolls at midnight."


def _api(server: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        f"{server}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _gm_send(server: str, campaign: str, token: str, command: dict[str, Any]) -> None:
    version = _api(server, f"/api/campaigns/{campaign}/state", token)["version"]
    _api(
        server,
        f"/api/campaigns/{campaign}/commands",
        token,
        {"command": command, "expected_version": version},
    )


def _verify(*arguments: Path | str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "talespin", "verify", *map(str, arguments), "--json"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def _reforge(record: dict[str, Any]) -> dict[str, Any]:
    """What a careful host does to change the past: edit the GM's note where it is sent and where it is
    kept, then recompute every head, so that the record is consistent in itself."""
    for event in record["events"]:
        if event["type"] == "CommandIssued" and event["data"]["command"].get("text") == NOTE:
            event["data"]["command"]["text"] = "The bell never tolled."
        if event["type"] == "NoteAdded" and event["data"].get("text") == NOTE:
            event["data"]["text"] = "The bell never tolled."
    tip = GENESIS
    for event in record["events"]:
        event["prev"] = tip
        tip = event["head"] = link(tip, event)
    record["chain"]["head"] = tip
    return record


def test_a_players_receipt_is_kept_downloaded_and_catches_a_re_forged_export(
    new_page: Any, table: Any, server: str, tmp_path: Path
) -> None:
    """A player rolls from the page; the heads it was shown stay in localStorage across a reload and
    download as a receipt; `talespin verify` passes the GM's export with it, and fails a re-forged export
    that verifies on its own."""
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Receipts", "ascend")
    gm.goto(gm_link)
    fragment = parse_qs(urlsplit(gm_link).fragment)
    campaign, gm_token = fragment["campaign"][0], fragment["token"][0]
    _gm_send(server, campaign, gm_token, {"do": "note", "text": NOTE})

    tom = new_page()
    table.join(tom, invite, "Tom")
    table.import_sheet(tom, TOM)
    expect(tom.locator("#sheet-status")).to_contain_text("follows every rule")
    table.add_to_table(tom)
    tom.locator("#advice tbody tr").first.locator("button").click()
    tom.click("#roll-test")
    expect(tom.locator('#log li[data-actor="Tom"] .event[data-type="TestRolled"]')).to_have_count(1)
    _gm_send(server, campaign, gm_token, {"do": "reveal_seed"})
    expect(tom.locator('#log .event[data-type="SeedRevealed"]')).to_have_count(1)

    tom.reload()
    tom.locator("#role-badge").wait_for()
    kept = json.loads(tom.evaluate(f"localStorage.getItem('talespin:receipt:{campaign}')"))
    assert kept["role"] == "player" and kept["campaign"] == campaign
    with tom.expect_download() as download:
        tom.click("#export-receipt")
    receipt_path = tmp_path / "receipt.json"
    receipt_path.write_text(Path(download.value.path()).read_text(encoding="utf-8"), encoding="utf-8")
    receipt = json.loads(receipt_path.read_text(encoding="utf-8"))
    assert receipt["format"] == "talespin-receipt/1" and receipt["role"] == "player"
    assert len(receipt["heads"]) >= 3 and all(len(item["head"]) == 64 for item in receipt["heads"])

    with gm.expect_download() as exported:
        gm.click("#export-json")
    honest = json.loads(Path(exported.value.path()).read_text(encoding="utf-8"))
    with tom.expect_download() as own_download:
        tom.click("#export-json")
    own = json.loads(Path(own_download.value.path()).read_text(encoding="utf-8"))
    rolled = [e for e in own["events"] if e["type"] == "CommandIssued" and e["data"].get("dice") == "server"]
    assert rolled and rolled[0]["head"] in {item["head"] for item in receipt["heads"]}  # the roll's own head
    export_path = tmp_path / "export.json"
    export_path.write_text(json.dumps(honest), encoding="utf-8")
    checked = _verify(export_path, "--receipt", receipt_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    forged_path = tmp_path / "forged.json"
    forged_path.write_text(json.dumps(_reforge(honest)), encoding="utf-8")
    alone = _verify(forged_path)
    assert alone.returncode == 0, alone.stdout  # consistent in itself: only the receipt can tell
    caught = _verify(forged_path, "--receipt", receipt_path)
    assert caught.returncode == 1, caught.stdout
    assert json.loads(caught.stdout)["receipts"][0]["status"] == "mismatch"
