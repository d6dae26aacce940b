"""Stored events keep the event schema they were written in, and every reader upcasts from it.

The store records each event's ``schema_version`` (migration 0004); the table writes today's
:data:`~talespin.table.upcast.EVENT_SCHEMA` and the ledger upcasts what it reads from the version stored,
so a database written by older code replays through the upcasters to the state that code recorded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, insert, text
from sqlalchemy.engine import Connection

from talespin.store import CampaignRecord, EventStore, NewEvent, open_store
from talespin.store.migrate import current_revision, head_revision, upgrade
from talespin.store.schema import campaigns
from talespin.store.sql import SqlStore, engine_url
from talespin.table import TableService, Viewer
from talespin.table import upcast as upcasts

from .conftest import KINDS, _fresh_url

AT = "2026-12-04T12:00:00+00:00"
FIXTURES = Path(__file__).resolve().parent.parent / "table" / "fixtures"
LOGS = sorted(FIXTURES.glob("campaign-*-schema-*.json"))
GM = Viewer("gm")


def _record(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _as_recorded(state: Mapping[str, Any], recorded: Mapping[str, Any]) -> dict[str, Any]:
    """``state`` cut to the keys of the ``recorded`` one (later code adds keys, never drops one)."""
    return {key: state[key] for key in recorded}


def _campaign_row(record: Mapping[str, Any]) -> dict[str, Any]:
    campaign = record["campaign"]
    return {
        "id": campaign["id"],
        "name": campaign["name"],
        "system": campaign["system"],
        "variant": campaign["variant"],
        "gm_token_hash": "a" * 64,
        "invite_token_hash": "b" * 64,
        "created_at": AT,
    }


def test_each_event_comes_back_with_the_schema_it_was_stored_in(store: EventStore) -> None:
    """The store keeps ``schema`` as given: 0 (written before versions were recorded) is the default."""
    record = CampaignRecord("c1", "Night", "ascend", {}, "a" * 64, "b" * 64, AT)
    store.create_campaign(record, [NewEvent("CampaignCreated", {"name": "Night"}, schema=1)], AT)
    written = store.append(
        "c1", 1, [NewEvent("NoteAdded", {"text": "old"}), NewEvent("NoteAdded", schema=7)], AT
    )
    assert [e.schema for e in written] == [0, 7]
    assert [e.schema for e in store.events("c1")] == [1, 0, 7]


def test_the_table_writes_every_event_at_todays_schema(store: EventStore) -> None:
    """Whatever the service appends (campaign, join, command) is stored at EVENT_SCHEMA."""
    service = TableService(store)
    made = service.create_campaign("Night", "ascend")
    service.join(made.id, made.invite_token, "Pia")
    version = service.version(made.id, GM)
    service.command(made.id, GM, {"do": "note", "text": "dusk"}, version)
    schemas = {e.schema for e in store.events(made.id)}
    assert schemas == {upcasts.EVENT_SCHEMA}
    assert {e["schema"] for e in service.events(made.id, GM)} == {upcasts.EVENT_SCHEMA}


def _rename_note(event: Mapping[str, Any], from_version: int) -> dict[str, Any]:
    """A pretend upcaster: schema 1 called a note's text ``words``; schema 2 calls it ``text``."""
    data = dict(event["data"])
    if event["type"] == "NoteAdded" and "words" in data:
        data["text"] = data.pop("words")
    return {**event, "data": data, upcasts.SCHEMA_KEY: from_version + 1}


@pytest.fixture
def schema_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """Today's code at a pretend schema 2, whose upcaster from 1 renames a note's ``words`` to ``text``."""
    monkeypatch.setattr(upcasts, "EVENT_SCHEMA", 2)
    monkeypatch.setattr(upcasts, "UPCASTERS", {**upcasts.UPCASTERS, 1: _rename_note})


@pytest.mark.usefixtures("schema_2")
def test_a_database_written_at_the_previous_schema_replays_through_its_upcaster(store: EventStore) -> None:
    """Rows of schema 1 (old shape) are upcast from the version stored; rows of schema 2 stay as written."""
    service = TableService(store)
    made = service.create_campaign("Night", "ascend")
    version = service.version(made.id, GM)
    store.append(
        made.id,
        version,
        [
            NewEvent("NoteAdded", {"words": "written by the old code", "by": "GM"}, "public", schema=1),
            NewEvent("NoteAdded", {"text": "written today", "words": "kept", "by": "GM"}, "public", schema=2),
        ],
        AT,
    )
    fresh = TableService(store)  # reads the whole log back from the store
    notes = fresh.state(made.id, GM)["notes"]
    assert [note["text"] for note in notes] == ["written by the old code", "written today"]
    old, new = fresh.events(made.id, GM)[-2:]
    assert old["data"] == {"text": "written by the old code", "by": "GM"} and old["schema"] == 2
    assert new["data"]["words"] == "kept" and new["schema"] == 2
    assert {e.schema for e in fresh.ledger(made.id).log} == {2}


def test_a_newer_schema_in_the_database_is_reported_not_folded(store: EventStore) -> None:
    """An event of a schema this code cannot read is skipped with a problem; the campaign is still served."""
    service = TableService(store)
    made = service.create_campaign("Night", "ascend")
    version = service.version(made.id, GM)
    future = upcasts.EVENT_SCHEMA + 1
    store.append(made.id, version, [NewEvent("NoteAdded", {"text": "?"}, schema=future)], AT)
    state = TableService(store).state(made.id, GM)
    assert state["notes"] == [] and state["version"] == version + 1
    (problem,) = state["problems"]
    assert problem["version"] == version + 1 and problem["reason"].startswith("not folded (SchemaError")
    assert (
        f"event schema {future}; this talespin reads schemas 0 to {upcasts.EVENT_SCHEMA}" in problem["reason"]
    )


def _connect(url: str, schema: str | None) -> Iterator[Connection]:
    options = {} if schema is None else {"options": f"-csearch_path={schema}"}
    engine = create_engine(engine_url(url), connect_args=options)
    try:
        with engine.begin() as connection:
            if schema is not None:
                connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
            yield connection
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_upgrading_from_0003_keeps_the_events_readable(kind: str, path: Path, tmp_path: Path) -> None:
    """A database at 0003 holding a campaign's events, opened by today's code, serves the state it had."""
    record = _record(path)
    campaign_id = record["campaign"]["id"]
    for url, schema in _fresh_url(kind, tmp_path):
        for connection in _connect(url, schema):
            upgrade(connection, "0003")
            assert current_revision(connection) == "0003"
            connection.execute(insert(campaigns).values(_campaign_row(record)))
            for event in record["events"]:  # the columns of 0003: no schema_version
                connection.execute(
                    text(
                        "INSERT INTO events (campaign_id, version, type, data, visibility, actor, at) "
                        "VALUES (:campaign_id, :version, :type, :data, :visibility, :actor, :at)"
                    ),
                    {
                        "campaign_id": campaign_id,
                        **{key: event[key] for key in ("version", "type", "visibility", "actor", "at")},
                        "data": json.dumps(event["data"]),
                    },
                )
        store = open_store(url, schema=schema)
        try:
            assert isinstance(store, SqlStore)
            with store.engine.connect() as connection:
                assert current_revision(connection) == head_revision() == "0005"
            stored = store.events(campaign_id)
            assert [e.version for e in stored] == [e["version"] for e in record["events"]]
            assert {e.schema for e in stored} == {0}
            service = TableService(store)
            state = service.state(campaign_id, GM)
            assert _as_recorded(state, record["state"]) == record["state"]
            assert {e["schema"] for e in service.events(campaign_id, GM)} == {upcasts.EVENT_SCHEMA}
        finally:
            store.close()
