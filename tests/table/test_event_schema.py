"""Versioned events: logs written by earlier code replay to the state they recorded.

Each fixture under ``fixtures/`` is a GM's export of a short campaign, written by the code of its event
schema (``make_event_logs.py``), with the state that code had folded. Replaying its events on today's code
must give that state back; the same log with every ``schema`` key removed (as records were written before
events carried one, schema 0) must upcast and replay to the same state; a schema newer than this code knows
is refused with a clear error, never guessed at, and the CLI says so with exit 2.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from talespin.cli import app
from talespin.table import Viewer, verify_export
from talespin.table.chain import link
from talespin.table.ledger import Ledger
from talespin.table.receipts import stored_event
from talespin.table.upcast import EVENT_SCHEMA, SchemaError, upcast
from talespin.table.views import state_json

FIXTURES = Path(__file__).parent / "fixtures"
LOGS = sorted(FIXTURES.glob("campaign-*-schema-*.json"))


def _record(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return record


def _replayed(record: dict[str, Any]) -> dict[str, Any]:
    """The GM's state of a ledger folded from the record's events alone."""
    campaign_id = str(record["campaign"]["id"])
    ledger = Ledger.replay(campaign_id, [stored_event(campaign_id, raw) for raw in record["events"]])
    return state_json(ledger, Viewer("gm"))


def _as_recorded(state: dict[str, Any], recorded: dict[str, Any]) -> dict[str, Any]:
    """``state`` cut to the keys of the ``recorded`` one: later code adds keys, never drops or changes one."""
    assert set(recorded) <= set(state), f"keys dropped: {sorted(set(recorded) - set(state))}"
    return {key: state[key] for key in recorded}


def _version_0(record: dict[str, Any]) -> dict[str, Any]:
    old = copy.deepcopy(record)
    for event in old["events"]:
        del event["schema"]
    return old


def test_both_systems_have_a_log_of_the_current_schema() -> None:
    """A log written by today's code is kept for each system, so the next schema has one to upcast."""
    systems = {_record(path)["campaign"]["system"] for path in LOGS if path.stem.endswith(f"-{EVENT_SCHEMA}")}
    assert systems == {"inciting-incident", "ascend"}


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_recorded_log_replays_to_its_recorded_state(path: Path) -> None:
    """Every event carries its schema, and folding the log again gives the state exported with it."""
    record = _record(path)
    assert all(isinstance(event.get("schema"), int) for event in record["events"])
    assert _as_recorded(_replayed(record), record["state"]) == record["state"]
    assert verify_export(record).to_json()["ok"]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_log_without_schema_keys_upcasts_to_the_same_state(path: Path) -> None:
    """Events without ``schema`` are version 0: upcast to the current version, they replay the same."""
    record = _record(path)
    old = _version_0(record)
    assert [upcast(event) for event in old["events"]] == [
        {**event, "schema": EVENT_SCHEMA} for event in old["events"]
    ]
    assert _as_recorded(_replayed(old), record["state"]) == record["state"]
    report = verify_export(old).to_json()
    assert report["ok"] and report["mismatches"] == 0


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_the_schema_key_is_not_hashed(path: Path) -> None:
    """The chain covers each event without ``schema``: the heads of old and new records are the same."""
    record = _record(path)
    for event in _version_0(record)["events"]:
        if "head" in event:
            assert link(event["prev"], event) == event["head"]
    assert [e.get("head") for e in record["events"]] == [e.get("head") for e in _version_0(record)["events"]]


def test_an_unknown_future_schema_is_refused_clearly() -> None:
    """An event of a schema newer than this code is a SchemaError naming the event, not a replay."""
    record = _record(LOGS[0])
    future = record["events"][3]
    future["schema"] = EVENT_SCHEMA + 1
    named = rf"event {future['version']} \({future['type']}\) is in event schema {EVENT_SCHEMA + 1}"
    with pytest.raises(SchemaError, match=named):
        verify_export(record)
    with pytest.raises(SchemaError, match="expected a whole number"):
        upcast({"version": 1, "type": "NoteAdded", "schema": "one"})


def test_the_cli_refuses_an_unknown_schema_with_exit_2(tmp_path: Path) -> None:
    """``talespin verify`` of a record from a newer schema exits 2 with a message, no traceback."""
    record = _record(LOGS[0])
    record["events"][0]["schema"] = EVENT_SCHEMA + 7
    export = tmp_path / "future.json"
    export.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(export)])
    assert result.exit_code == 2, result.output
    assert f"event schema {EVENT_SCHEMA + 7}" in result.output
    assert "Traceback" not in result.output
