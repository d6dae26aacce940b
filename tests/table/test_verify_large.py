"""``talespin verify`` reads exports of any size: the size limit of sheets and scripts is not for exports."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table_sheets import ADA, action_scene
from typer.testing import CliRunner

from talespin.cli import app
from talespin.documents import MAX_BYTES
from talespin.table import export_json

NOTES = 400
"""Notes of 4,000 characters each: an export of several megabytes, dozens of times a document's limit."""


def test_a_large_export_is_read_whole_and_checked_to_its_last_entry(
    table: Callable[[str], Any], tmp_path: Path
) -> None:
    """A multi-megabyte export verifies (exit 0); one character changed in a note near its end is found."""
    t = table("ii")
    pia = t.join("Pia")
    t.send(pia, {"do": "add_character", "sheet": ADA})
    t.send(t.gm, action_scene())
    for number in range(NOTES):
        t.send(t.gm, {"do": "note", "text": f"{number:04} " + "x" * 3995})
    t.send(t.gm, {"do": "simple_obstacle"})
    # rule: II-SIMPLE-3
    t.send(pia, {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting"})
    t.send(t.gm, {"do": "end_scene"})
    record = json.loads(json.dumps(export_json(t.service.ledger(t.id), t.gm)))
    path = tmp_path / "large.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert path.stat().st_size > 40 * MAX_BYTES
    runner = CliRunner()
    verified = runner.invoke(app, ["verify", str(path), "--json"])
    assert verified.exit_code == 0, verified.output[:500]
    report = json.loads(verified.output)
    assert report["complete"] and any(row["status"] == "verified" for row in report["rolls"])

    notes = [e for e in record["events"] if e["type"] == "NoteAdded"]
    notes[-3]["data"]["text"] = notes[-3]["data"]["text"][:-1] + "y"
    path.write_text(json.dumps(record), encoding="utf-8")
    tampered = runner.invoke(app, ["verify", str(path), "--json"])
    assert tampered.exit_code == 1, tampered.output[:500]
    assert json.loads(tampered.output)["mismatches"] >= 1
