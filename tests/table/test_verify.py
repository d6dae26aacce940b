"""Verifying exported records: seeds against commitments, every server roll re-derived."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from table_sheets import ADA, SUSAN, action_scene, susan_test
from typer.testing import CliRunner

from talespin.cli import app
from talespin.table import Viewer, export_json, export_markdown, verify_export

Open = Callable[[str], Any]
PRESENT = {"do": "simple_obstacle"}
"""The GM presents a Simple Obstacle (II-SIMPLE-4)."""


def _played_ii(table: Open, *, secret_trigger: bool = True) -> Any:
    """A scene of three Simple Obstacles (the second a blind roll, revealed; the third physical dice)."""
    t = table("ii")
    pia = t.join("Pia")
    t.send(pia, {"do": "add_character", "sheet": ADA})
    t.send(t.gm, action_scene(secret=secret_trigger))
    # rule: II-SIMPLE-3
    t.send(t.gm, PRESENT)
    t.send(pia, {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting"})
    t.send(t.gm, PRESENT)
    t.send(t.gm, {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "visibility": "gm"})
    t.send(t.gm, PRESENT)
    t.send(
        t.gm,
        {
            "do": "simple_obstacle",
            "character": "Ada",
            "talent": "Piloting",
            "faces": [[3], [4], [6, 1], [2], [5], [1], [3]],
        },
    )
    blind = t.service.state(t.id, t.gm)["pending"]["entries"][0]
    t.send(t.gm, {"do": "reveal", "entry": blind})
    t.send(t.gm, {"do": "end_scene"})
    return t


def _export(t: Any) -> dict[str, Any]:
    ledger = t.service.ledger(t.id)
    return json.loads(json.dumps(export_json(ledger, t.gm)))


def test_a_finished_scene_verifies(table: Open) -> None:
    """Every seed matches its commitment and every roll (server and physical) re-derives."""
    report = verify_export(_export(_played_ii(table))).to_json()
    assert report["ok"] and report["mismatches"] == 0 and report["pending"] == 0
    dice = [row["dice"] for row in report["rolls"]]
    assert dice.count("server") == 2 and dice.count("physical") == 1
    assert all(row["status"] == "verified" for row in report["seeds"] + report["rolls"])


def _first_roll(record: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in record["events"] if "chains" in e["data"])


def test_a_changed_face_is_a_mismatch(table: Open) -> None:
    """Changing one face of a server roll in the export is reported as a mismatch."""
    record = _export(_played_ii(table))
    chain = _first_roll(record)["data"]["chains"][0]
    chain["faces"][-1] = chain["faces"][-1] % 5 + 1
    report = verify_export(record).to_json()
    assert not report["ok"]
    assert [row["status"] for row in report["rolls"]].count("mismatch") >= 1


def test_a_swapped_seed_is_a_mismatch(table: Open) -> None:
    """A revealed seed that does not hash to its commitment is reported."""
    record = _export(_played_ii(table))
    reveal = next(e for e in record["events"] if e["type"] == "SeedRevealed")
    reveal["data"]["seed"] = "00" * 32
    assert verify_export(record).mismatches >= 1


def test_rolls_of_an_open_scene_are_pending(table: Open) -> None:
    """A server roll whose seed is not yet revealed is pending, not verified and not a mismatch."""
    t = table("ascend")
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    t.send(t.gm, susan_test())
    report = verify_export(_export(t)).to_json()
    assert report["ok"] and report["pending"] == 1
    t.send(t.gm, {"do": "reveal_seed"})
    report = verify_export(_export(t)).to_json()
    assert report["pending"] == 0 and report["verified"] >= 2


def test_undone_rolls_still_verify(table: Open) -> None:
    """An undone roll stays in the record and re-derives against the state it was decided in."""
    t = table("ascend")
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    t.send(t.gm, susan_test())
    t.send(t.gm, {"do": "undo"})
    t.send(t.gm, susan_test())
    t.send(t.gm, {"do": "end_scene"})
    report = verify_export(_export(t)).to_json()
    assert report["ok"] and [r["status"] for r in report["rolls"]] == ["verified"] * 3


def test_the_markdown_export_reads_as_a_log(table: Open) -> None:
    """The Markdown record names the campaign, each command, the seeds, and strikes undone entries through."""
    t = table("ascend")
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    t.send(t.gm, susan_test())
    t.send(t.gm, {"do": "undo"})
    text = export_markdown(t.service.ledger(t.id), t.gm)
    assert text.startswith("# Test")
    assert "~~" in text and "(undone)" in text and "- seed 1: SHA-256 `" in text


@pytest.fixture
def files(tmp_path: Path, table: Open) -> dict[str, Path]:
    """An honest export, a tampered one and an unreadable file, on disk."""
    record = _export(_played_ii(table))
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(record))
    tampered = copy.deepcopy(record)
    chain = _first_roll(tampered)["data"]["chains"][0]
    chain["faces"][-1] = chain["faces"][-1] % 5 + 1
    (tmp_path / "tampered.json").write_text(json.dumps(tampered))
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "other.json").write_text('{"format": "something else"}')
    return {p.stem: p for p in tmp_path.glob("*.json")}


def test_verify_command_exit_codes(files: dict[str, Path]) -> None:
    """`talespin verify` exits 0 when all verify, 1 on a mismatch, 2 on an unreadable or foreign file."""
    runner = CliRunner()
    ok = runner.invoke(app, ["verify", str(files["honest"])])
    assert ok.exit_code == 0 and "all verified" in ok.output and "verified" in ok.output
    bad = runner.invoke(app, ["verify", str(files["tampered"]), "--json"])
    assert bad.exit_code == 1
    assert json.loads(bad.stdout)["mismatches"] >= 1
    for name in ("broken", "other"):
        broken = runner.invoke(app, ["verify", str(files[name]), "--json"])
        assert broken.exit_code == 2
        assert json.loads(broken.stdout)["error"]["code"] == "bad_export"
    missing = runner.invoke(app, ["verify", str(files["honest"].with_name("absent.json"))])
    assert missing.exit_code == 2


def test_a_players_export_checks_seeds_and_the_revealed_blind_roll(table: Open) -> None:
    """A player's export checks every seed, the blind roll's own, and (all revealed) every roll.

    The scene's Trigger is public here: a roll that fires a GM-only Trigger cannot be re-derived from a
    player's record (it is unverifiable there, not verified), and whether the server's dice bring the
    Crisis to the Trigger differs from run to run."""
    t = _played_ii(table, secret_trigger=False)
    pia = next(iter(t.service.ledger(t.id).players))
    record = json.loads(json.dumps(export_json(t.service.ledger(t.id), Viewer("player", pia, "Pia"))))
    report = verify_export(record).to_json()
    assert report["ok"] and report["mismatches"] == 0
    assert all(row["status"] == "verified" for row in report["seeds"]) and len(report["seeds"]) == 3
    statuses = [row["status"] for row in report["rolls"]]
    assert statuses == ["verified"] * len(statuses) and report["exit_code"] == 0


def test_a_roll_that_fires_a_gm_only_trigger_is_unverifiable_from_a_players_export(table: Open) -> None:
    """The player's record lacks the GM-only Trigger, so the roll that fired it cannot be re-derived there:
    it is unverifiable (exit 3), never a mismatch; the GM's export verifies the same roll."""
    t = table("ii")
    pia = t.join("Pia")
    t.send(pia, {"do": "add_character", "sheet": ADA})
    t.send(t.gm, action_scene(secret=True))  # the Trigger fires at Crisis 10
    t.send(t.gm, {"do": "adjust_crisis", "amount": 9, "reason": "the alarm"})
    t.send(t.gm, PRESENT)
    faces = [[3], [4], [2], [2], [5], [1], [3]]
    roll = {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "faces": faces}
    events = t.send(t.gm, roll)
    assert "TriggerFired" in [event["type"] for event in events]
    t.send(t.gm, {"do": "end_scene"})
    pia_id = next(iter(t.service.ledger(t.id).players))
    ledger = t.service.ledger(t.id)
    player = verify_export(json.loads(json.dumps(export_json(ledger, Viewer("player", pia_id, "Pia")))))
    gm = verify_export(_export(t))
    assert player.mismatches == 0 and player.exit_code == 3
    fired = [c for c in player.rolls if c.what == "simple_obstacle (Ada)"]
    assert [c.status for c in fired] == ["unverifiable"]
    assert "lacks GM-only entries" in (fired[0].detail or "")
    assert [c.status for c in player.rolls if c not in fired] == ["verified"] * (len(player.rolls) - 1)
    assert {c.status for c in gm.rolls} == {"verified"} and gm.exit_code == 0
