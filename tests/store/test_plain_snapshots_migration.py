"""Migration 0005 deletes the pickled snapshots a database holds; the table replays and saves plain ones.

A database at 0004 may hold snapshots of format 1 (the ledger pickled). Opened by today's code it is
upgraded to 0005, which deletes them unread: a hostile pickle among them never runs. Each campaign is then
replayed from its events on first load, serves the state it had, and gets a snapshot of format 2.
"""

from __future__ import annotations

import json
import pickle
import zlib
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import delete, func, insert, select

from talespin.store import open_store
from talespin.store.migrate import alembic_config, current_revision, head_revision, upgrade
from talespin.store.schema import events, snapshots
from talespin.store.sql import SqlStore
from talespin.table import TableService, Viewer
from talespin.table import service as service_module
from talespin.table import snapshots as table_snapshots

from .conftest import KINDS, _fresh_url
from .test_event_schema_version import AT, _connect

GM = Viewer("gm")


class _Touch:
    """Unpickling this creates the file it names."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.path), "w"))


HERO = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "convictions": {"Protect the weak": 4},
    "traits": {"Agility": 3, "Strength": 2},
    "backgrounds": {"Sailor": 2},
    "aids": {"Rope": 1},
}


def _campaign_at_0004(url: str, schema: str | None) -> tuple[str, dict[str, Any]]:
    """A campaign written by today's table, in a database then taken back to 0004; its id and GM state."""
    store = open_store(url, schema=schema)
    try:
        service = TableService(store)
        made = service.create_campaign("Old snapshots", "ascend")
        service.command(made.id, GM, {"do": "add_character", "sheet": HERO}, service.version(made.id, GM))
        for number in range(6):
            service.command(made.id, GM, {"do": "note", "text": f"n{number}"}, service.version(made.id, GM))
        test = {"do": "test", "hero": "Susan", "skill": "Athletics", "trait": "Agility", "difficulty": 0}
        service.command(made.id, GM, test, service.version(made.id, GM))
        state = service.state(made.id, GM)
    finally:
        store.close()
    for connection in _connect(url, schema):
        command.downgrade(alembic_config(connection), "0004")
        assert current_revision(connection) == "0004"
    return made.id, state


@pytest.mark.parametrize("kind", KINDS)
def test_upgrading_from_0004_drops_pickled_snapshots_and_saves_plain_ones(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A campaign at 0004 with pickled snapshots (one that would create a file under today's fingerprint,
    one under another): after the upgrade both are gone, nothing ran, the state is what it was and a
    format 2 snapshot is saved, which the next start loads."""
    monkeypatch.setattr(service_module, "SNAPSHOT_EVERY", 8)
    target = tmp_path / "pwned"
    payload = zlib.compress(pickle.dumps({"format": 1, "ledger": _Touch(target)}), 1)
    for url, schema in _fresh_url(kind, tmp_path):
        campaign_id, state = _campaign_at_0004(url, schema)
        for connection in _connect(url, schema):
            connection.execute(delete(snapshots))
            version = connection.execute(select(func.max(events.c.version))).scalar_one()
            row = {"campaign_id": campaign_id, "version": version, "data": payload, "at": AT}
            connection.execute(insert(snapshots).values(fingerprint=table_snapshots.fingerprint(), **row))
            connection.execute(insert(snapshots).values(fingerprint="f" * 64, **row))
        store = open_store(url, schema=schema)
        try:
            assert isinstance(store, SqlStore)
            with store.engine.connect() as connection:
                assert current_revision(connection) == head_revision() == "0005"
                assert connection.execute(select(snapshots)).all() == []
            service = TableService(store)
            assert service.state(campaign_id, GM) == state
            assert not target.exists()
            saved = store.latest_snapshot(campaign_id, table_snapshots.fingerprint())
            assert saved is not None and saved.version == version
            assert json.loads(zlib.decompress(saved.data))["format"] == table_snapshots.FORMAT
            again = TableService(store)
            again.load_all()
            assert again.ledger(campaign_id).log.loaded_from == version  # the new snapshot is used
            assert again.state(campaign_id, GM) == state
        finally:
            store.close()


@pytest.mark.parametrize("kind", KINDS)
def test_0005_downgrades_and_upgrades_again(kind: str, tmp_path: Path) -> None:
    """0005 changes no column: down to 0004 and up again leaves a working store."""
    for url, schema in _fresh_url(kind, tmp_path):
        for connection in _connect(url, schema):
            upgrade(connection)
            command.downgrade(alembic_config(connection), "0004")
            assert current_revision(connection) == "0004"
            upgrade(connection)
            assert current_revision(connection) == "0005"
