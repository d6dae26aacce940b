"""The tamper suite: each forgery of a real export is detected by `talespin verify` (or by a receipt)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from determinism import seeds, sources
from table_fakes import MemoryStore
from table_sheets import ADA, BEA, action_scene
from typer.testing import CliRunner

from talespin.cli import app
from talespin.table import TableService, Viewer, export_json, verify_export
from talespin.table.chain import GENESIS, link
from talespin.table.receipts import RECEIPT_FORMAT

ROLL = {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting"}
PHYSICAL = [[3], [4], [6, 1], [2], [5], [1], [3]]

Forge = Callable[[dict[str, Any]], None]


class Run:
    """One deterministic II campaign: a player's server roll, a GM blind roll, a physical roll, an undo, the
    blind roll's reveal."""

    def __init__(self, seed_tag: str = "honest", *, physical_first: bool = False) -> None:
        self.service = TableService(MemoryStore(), seeds=seeds(seed_tag), **sources())
        made = self.service.create_campaign("Tamper", "ii")
        self.id, self.gm = made.id, Viewer("gm")
        self.pia = self.service.viewer(
            self.id, self.service.join(self.id, made.invite_token, "Pia").player_token
        )
        self.bo = self.service.viewer(
            self.id, self.service.join(self.id, made.invite_token, "Bo").player_token
        )
        self.seen: list[str] = []
        self.send(self.pia, {"do": "add_character", "sheet": ADA})
        self.send(self.bo, {"do": "add_character", "sheet": BEA})
        self.send(self.gm, action_scene())
        # rule: II-SIMPLE-3
        self.roll(self.pia, {**ROLL, "faces": PHYSICAL} if physical_first else ROLL, nonce="ab" * 16)
        self.roll(self.gm, {**ROLL, "visibility": "gm"})
        self.send(self.gm, {"do": "note", "text": "after the rolls"})
        self.roll(self.gm, {**ROLL, "faces": PHYSICAL})
        self.send(self.gm, {"do": "undo"})
        blind = self.service.state(self.id, self.gm)["pending"]["entries"][0]
        self.send(self.gm, {"do": "reveal", "entry": blind})
        self.send(self.gm, {"do": "end_scene"})

    def roll(self, viewer: Viewer, command: dict[str, Any], nonce: str | None = None) -> None:
        """The GM presents a Simple Obstacle, then ``viewer`` rolls against it."""
        self.send(self.gm, {"do": "simple_obstacle"})
        self.send(viewer, command, nonce)

    def send(self, viewer: Viewer, command: dict[str, Any], nonce: str | None = None) -> None:
        """Send a command; a player's answers are kept as Pia's receipt."""
        version = self.service.version(self.id, viewer)
        events = self.service.command(self.id, viewer, command, version, nonce)[1]
        if viewer == self.pia:
            self.seen += [event["head"] for event in events]

    def export(self, viewer: Viewer | None = None) -> dict[str, Any]:
        """The export as ``viewer`` (the GM by default) downloads it."""
        record = export_json(self.service.ledger(self.id), viewer or self.gm)
        return json.loads(json.dumps(record))

    def receipt(self) -> dict[str, Any]:
        """Pia's receipt: every head her answers carried."""
        heads = [{"head": head} for head in self.seen]
        return {"format": RECEIPT_FORMAT, "campaign": self.id, "role": "player", "heads": heads}


def rechain(record: dict[str, Any]) -> dict[str, Any]:
    """What a careful forger does after an edit: recompute every head, so the chain is consistent again."""
    tip = GENESIS
    for event in record["events"]:
        event["prev"] = tip
        tip = event["head"] = link(tip, event)
    record["chain"]["head"] = tip
    return record


def _statuses(record: dict[str, Any]) -> dict[str, str]:
    rows = verify_export(record).rows
    return {f"{row.what}@{row.version}": row.status for row in rows if row.status == "mismatch"}


def _roll_of(record: dict[str, Any], by: str | None = None, secret: bool = False) -> dict[str, Any]:
    for event in record["events"]:
        data = event["data"]
        server = event["type"] == "CommandIssued" and data.get("dice") == "server"
        if server and (by is None or data["by"] == by) and (event["visibility"] == "gm") == secret:
            return event
    raise AssertionError("no such roll")


def test_the_honest_record_verifies_completely() -> None:
    """The untouched GM export and Pia's receipt verify with exit code 0."""
    run = Run()
    report = verify_export(run.export(), [("pia", run.receipt())])
    assert report.exit_code == 0, [r for r in report.rows if r.status != "verified"]
    assert report.receipts[0].status == "verified"


def test_an_edit_without_a_new_chain_breaks_the_chain() -> None:
    """Changing one rolled face without recomputing the chain is a chain mismatch (and a roll mismatch)."""
    record = Run().export()
    roll = next(e for e in record["events"] if "chains" in e["data"])
    roll["data"]["chains"][0]["faces"][-1] = roll["data"]["chains"][0]["faces"][-1] % 5 + 1
    bad = _statuses(record)
    assert any(key.startswith("hash chain") for key in bad) and verify_export(record).exit_code == 1


def test_a_re_forged_scene_is_caught_by_a_receipt() -> None:
    """A scene re-forged whole (new seed, its commitment, re-derived rolls, new chain) fails Pia's receipt."""
    honest, forged = Run(), Run(seed_tag="forged")
    record = forged.export()
    assert record["events"] != honest.export()["events"]
    assert verify_export(record).exit_code == 0  # consistent in itself: only a receipt can tell
    report = verify_export(record, [("pia", honest.receipt())])
    assert report.exit_code == 1 and report.receipts[0].status == "mismatch"


def test_a_server_roll_rewritten_as_physical_dice_is_caught_by_a_receipt() -> None:
    """Pia's server roll recorded instead as physical dice with other faces fails her receipt."""
    honest, forged = Run(), Run(physical_first=True)
    record = forged.export()
    pias = [e["data"]["dice"] for e in record["events"] if e["data"].get("by") == forged.pia.label]
    assert "physical" in pias and verify_export(record).exit_code == 0  # consistent in itself
    report = verify_export(record, [("pia", honest.receipt())])
    assert report.exit_code == 1 and report.receipts[0].status == "mismatch"


def test_a_deleted_seed_reveal_is_detected() -> None:
    """Removing the reveal of the scene's seed (and re-chaining) leaves a commitment replaced unrevealed."""
    record = Run().export()
    record["events"] = [
        e for e in record["events"] if e["type"] != "SeedRevealed" or e["data"]["number"] != 2
    ]
    assert any("seed #2" in key for key in _statuses(rechain(record)))
    assert verify_export(record).exit_code == 1


def test_a_last_reveal_deleted_leaves_rolls_pending_exit_3() -> None:
    """With the last reveal gone and nothing after it, nothing mismatches but rolls are pending: exit 3."""
    run = Run()
    run.send(run.gm, {"do": "start_scene", "kind": "action", "difficulty": 5})
    run.roll(run.pia, ROLL)
    record = run.export()
    report = verify_export(record)
    assert report.mismatches == 0 and report.exit_code == 3
    assert any(row.status == "pending" for row in report.rolls)


def test_a_deleted_roll_entry_is_detected() -> None:
    """Deleting Pia's roll entry (and re-chaining) leaves versions missing from the GM's record."""
    record = Run().export()
    entry = _roll_of(record, by=None)["version"]
    record["events"] = [e for e in record["events"] if e.get("entry") != entry]
    assert "versions@" + str(entry) in _statuses(rechain(record))


def test_a_commitment_moved_after_the_rolls_is_detected() -> None:
    """A seed's commitment moved after the first roll it covers is a mismatch."""
    record = Run().export()
    events = record["events"]
    committed = next(e for e in events if e["type"] == "SeedCommitted" and e["data"]["number"] == 2)
    events.remove(committed)
    after = events.index(_roll_of(record)) + 1
    events.insert(after, committed)
    bad = _statuses(rechain(record))
    assert any(key.startswith("seed #2") for key in bad)


def test_a_forged_undo_is_detected() -> None:
    """An undo retargeted at Pia's roll (which undo would not undo then), re-chained, is a mismatch."""
    record = Run().export()
    target = _roll_of(record)["version"]
    undone = next(e for e in record["events"] if e["type"] == "EntryUndone")
    undone["data"].update(entry=target, undone=target)
    assert any(key.startswith("undo by gm") for key in _statuses(rechain(record)))


def test_an_undo_slipped_into_another_entry_is_detected() -> None:
    """An EntryUndone added to a note's entry (no undo was sent) is a mismatch."""
    record = Run().export()
    note = next(e for e in record["events"] if e["type"] == "NoteAdded")
    forged = {**copy.deepcopy(note), "type": "EntryUndone", "data": {"entry": 1, "undone": 1, "do": "x"}}
    events = record["events"]
    events.insert(events.index(note) + 1, forged)
    assert verify_export(rechain(record)).mismatches >= 1


def test_a_changed_author_is_detected() -> None:
    """Pia's roll credited to Bo (who does not own Ada), or the GM's blind roll to Pia, is a mismatch."""
    run = Run()
    record = run.export()
    _roll_of(record, by=run.pia.label)["data"]["by"] = run.bo.label
    assert any("not all characters of its author" in r.detail for r in verify_export(rechain(record)).rows)
    record = run.export()
    _roll_of(record, secret=True)["data"]["by"] = run.pia.label
    assert any("a player cannot send" in r.detail for r in verify_export(rechain(record)).rows)


def test_a_players_receipt_checks_against_the_players_export() -> None:
    """Pia's receipt lies on her own export's chain; the GM's export of a re-forged scene fails it."""
    run = Run()
    mine = run.export(run.pia)
    report = verify_export(mine, [("pia", run.receipt())])
    assert report.mismatches == 0 and report.receipts[0].status == "verified"
    assert report.exit_code == 0  # the blind roll was revealed: her export holds all her state depends on


def test_verify_exit_codes_with_receipts(tmp_path: Path) -> None:
    """`talespin verify EXPORT --receipt FILE` exits 0; 1 on a failed receipt; 2 for a file that is none."""
    honest, forged = Run(), Run(seed_tag="forged")
    (tmp_path / "honest.json").write_text(json.dumps(honest.export()))
    (tmp_path / "forged.json").write_text(json.dumps(forged.export()))
    (tmp_path / "receipt.json").write_text(json.dumps(honest.receipt()))
    runner = CliRunner()
    ok = runner.invoke(
        app, ["verify", str(tmp_path / "honest.json"), "--receipt", str(tmp_path / "receipt.json")]
    )
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(
        app, ["verify", str(tmp_path / "forged.json"), "--receipt", str(tmp_path / "receipt.json"), "--json"]
    )
    assert bad.exit_code == 1 and json.loads(bad.stdout)["receipts"][0]["status"] == "mismatch"
    wrong = runner.invoke(
        app, ["verify", str(tmp_path / "honest.json"), "--receipt", str(tmp_path / "honest.json")]
    )
    assert wrong.exit_code == 2
