"""Snapshots: a restart (and an undo) from the newest snapshot gives what a full replay of the log gives."""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_fakes import MemoryStore
from table_sheets import SUSAN, susan_test

from talespin.store import EventStore, Snapshot, open_store
from talespin.systems import IllegalCommand
from talespin.table import Ledger, TableService, Viewer, snapshot_data, snapshots
from talespin.table import ledger as ledger_module
from talespin.table import service as service_module
from talespin.table.views import state_json, visible_events

GM = Viewer("gm")
_steps = st.lists(
    st.one_of(
        st.just({"do": "undo"}),
        st.builds(lambda n: {"do": "note", "text": f"note {n}"}, st.integers(0, 99)),
        st.builds(lambda faces: susan_test(faces=faces), st.lists(st.integers(0, 9), min_size=3, max_size=3)),
        st.just(susan_test()),
        st.just("chat"),
        st.just("renew"),
    ),
    max_size=30,
)


@pytest.fixture(autouse=True)
def _often() -> Iterator[None]:
    """Checkpoints every 4 events and snapshots every 8, so short campaigns cross many of both."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ledger_module, "CHECKPOINT_EVERY", 4)
        patch.setattr(service_module, "SNAPSHOT_EVERY", 8)
        yield


def _play(service: TableService, campaign_id: str, steps: list[Any], player: Viewer) -> None:
    for step in steps:
        version = service.ledger(campaign_id).version
        if step == "chat":
            service.say(campaign_id, player, "hello")
        elif step == "renew":
            service.renew_invite(campaign_id, GM)
        else:
            try:
                service.command(campaign_id, GM, step, version)
            except IllegalCommand:  # nothing left to undo
                assert service.ledger(campaign_id).version == version


def _everything(service: TableService, campaign_id: str, viewer: Viewer) -> dict[str, Any]:
    """What a viewer can read of a campaign: its state and every event with its place in the chain."""
    return {
        "state": service.state(campaign_id, viewer),
        "events": service.events(campaign_id, viewer),
        "after_3": service.events(campaign_id, viewer, after=3),
    }


def _replayed(store: EventStore, campaign_id: str, viewer: Viewer) -> dict[str, Any]:
    """The same read from a ledger folded from the first event, with no snapshot and no service."""
    ledger = Ledger.replay(campaign_id, store.events(campaign_id))
    state = state_json(ledger, viewer)
    return {"state": state, "events": visible_events(ledger, viewer, ledger.log)}


def _new_campaign(service: TableService) -> tuple[str, Viewer]:
    made = service.create_campaign("Snapshots", "ascend")
    service.command(made.id, GM, {"do": "add_character", "sheet": SUSAN}, service.ledger(made.id).version)
    joined = service.join(made.id, made.invite_token, "Bea")
    return made.id, service.viewer(made.id, joined.player_token)


@given(before=_steps, after=_steps)
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_a_restart_from_a_snapshot_reads_like_a_full_replay(before: list[Any], after: list[Any]) -> None:
    """Restart mid-campaign, play on (undos may reach back past the snapshot), restart again: every read
    of the GM and of a player equals the full replay's and the never-restarted service's."""
    store = MemoryStore()
    first = TableService(store)
    campaign_id, bea = _new_campaign(first)
    _play(first, campaign_id, before, bea)
    second = TableService(store)
    second.load_all()
    for viewer in (GM, bea):
        assert _everything(second, campaign_id, viewer) == _everything(first, campaign_id, viewer)
    _play(second, campaign_id, after, bea)
    third = TableService(store)
    third.load_all()
    for viewer in (GM, bea):
        read = _everything(third, campaign_id, viewer)
        assert read == _everything(second, campaign_id, viewer)
        full = _replayed(store, campaign_id, viewer)
        assert read["events"] == full["events"]
        assert {k: v for k, v in read["state"].items() if k != "problems"} == full["state"]


def test_a_restart_reads_only_the_events_after_the_snapshot() -> None:
    """A restarted service folds the tail only: the events up to the snapshot stay stored until asked for."""
    store = MemoryStore()
    first = TableService(store)
    campaign_id, bea = _new_campaign(first)
    _play(first, campaign_id, [susan_test()] * 12, bea)
    saved = store.latest_snapshot(campaign_id, snapshots.fingerprint())
    assert saved is not None and saved.version > 8
    second = TableService(store)
    second.load_all()
    ledger = second.ledger(campaign_id)
    assert ledger.log.loaded_from == saved.version
    assert second.state(campaign_id, GM) == first.state(campaign_id, GM)
    assert ledger.log.loaded_from == saved.version  # the state and the chain's head needed no old event
    assert second.events(campaign_id, bea) == first.events(campaign_id, bea)
    assert ledger.log.loaded_from == saved.version  # what players were shown is kept in the snapshot
    assert second.events(campaign_id, GM) == first.events(campaign_id, GM)
    assert ledger.log.loaded_from == saved.version  # a few older events are read, not kept
    ledger.log.load()
    assert ledger.log.loaded_from == 0
    assert second.events(campaign_id, GM) == first.events(campaign_id, GM)


def test_an_undo_replays_from_the_newest_checkpoint() -> None:
    """Undo keeps the checkpoints before the entry it undoes and refolds from the newest of them."""
    service = TableService(MemoryStore())
    campaign_id, bea = _new_campaign(service)
    _play(service, campaign_id, [susan_test()] * 6, bea)
    ledger = service.ledger(campaign_id)
    target = ledger.latest_undoable()
    assert target is not None
    kept = [c for c in ledger.checkpoints if c[0] < target.version]
    _play(service, campaign_id, [{"do": "undo"}], bea)
    assert ledger.checkpoints[: len(kept)] == kept
    assert all(version % 4 == 0 for version, _ in ledger.checkpoints)
    replayed = Ledger.replay(campaign_id, service.store.events(campaign_id))
    assert ledger.system.view(ledger.state, "gm") == replayed.system.view(replayed.state, "gm")


def test_a_snapshot_of_other_code_is_ignored() -> None:
    """A snapshot saved under another fingerprint is never loaded, even one that lies about the campaign."""
    store = MemoryStore()
    first = TableService(store)
    campaign_id, bea = _new_campaign(first)
    _play(first, campaign_id, [susan_test()] * 4, bea)
    version = first.ledger(campaign_id).version
    lying = Ledger.replay(campaign_id, store.events(campaign_id, upto=6))
    lying.version = version  # a snapshot claiming the state of version 6 is the newest
    store.save_snapshot(Snapshot(campaign_id, version, "0" * 64, snapshots.dump(lying, []), "now"))
    second = TableService(store)
    assert second.state(campaign_id, GM) == first.state(campaign_id, GM)
    assert second.ledger(campaign_id).log.loaded_from == 0  # replayed from the first event


def test_an_unreadable_snapshot_is_ignored_and_the_log_replayed(caplog: pytest.LogCaptureFixture) -> None:
    """Bytes that are not a snapshot (under this code's fingerprint) are reported and the log is replayed."""
    store = MemoryStore()
    first = TableService(store)
    campaign_id, bea = _new_campaign(first)
    _play(first, campaign_id, [susan_test()] * 3, bea)
    version = first.ledger(campaign_id).version
    store.save_snapshot(Snapshot(campaign_id, version, snapshots.fingerprint(), b"not a snapshot", "now"))
    second = TableService(store)
    assert second.state(campaign_id, GM) == first.state(campaign_id, GM)
    assert "snapshot at" in caplog.text and "ignored" in caplog.text


def test_the_fingerprint_changes_with_the_folding_code(tmp_path: Path) -> None:
    """Any change to the rule systems' code or data, the dice or the table gives another fingerprint."""
    package = Path(snapshots.__file__).resolve().parent.parent
    copy = tmp_path / "talespin"
    for part in ("dice", "systems", "table"):
        shutil.copytree(package / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    assert snapshots.code_fingerprint(copy) == snapshots.fingerprint()
    rules = next(path for path in sorted((copy / "systems").rglob("*")) if path.suffix in {".yaml", ".json"})
    rules.write_bytes(rules.read_bytes() + b"\n")
    assert snapshots.code_fingerprint(copy) != snapshots.fingerprint()


def test_sqlite_restart_from_a_snapshot(tmp_path: Path) -> None:
    """On a SQLite file, a new store and service (a restarted server) loads the snapshot and the tail."""
    url = f"sqlite:///{tmp_path / 'long.db'}"
    store = open_store(url)
    first = TableService(store)
    campaign_id, bea = _new_campaign(first)
    steps = [susan_test(), {"do": "note", "text": "n"}, {"do": "undo"}] * 10 + [susan_test()] * 6
    _play(first, campaign_id, steps, bea)  # the tail after the newest snapshot holds no undo
    store.close()
    again = open_store(url)
    second = TableService(again)
    second.load_all()
    assert second.ledger(campaign_id).log.loaded_from > 0
    for viewer in (GM, bea):
        assert _everything(second, campaign_id, viewer) == _everything(first, campaign_id, viewer)
    again.close()


POSTGRES = os.environ.get("TALESPIN_TEST_POSTGRES")


@pytest.mark.skipif(not POSTGRES, reason="TALESPIN_TEST_POSTGRES is unset: PostgreSQL snapshots SKIPPED")
def test_processes_sharing_postgresql_save_consistent_snapshots() -> None:
    """Two services on one PostgreSQL (two processes) take turns writing; both save snapshots; a third
    service starting from whichever snapshot is newest reads exactly what a full replay gives."""
    from talespin.store.sql import SqlStore

    assert POSTGRES is not None
    schema = f"talespin_test_{secrets.token_hex(6)}"
    stores = [SqlStore(POSTGRES, schema=schema) for _ in range(3)]
    try:
        one, two = TableService(stores[0]), TableService(stores[1])
        campaign_id, bea = _new_campaign(one)
        for round_ in range(8):
            service = one if round_ % 2 == 0 else two
            service.refresh(campaign_id)
            _play(service, campaign_id, [susan_test(), {"do": "note", "text": f"r{round_}"}], bea)
        assert stores[2].latest_snapshot(campaign_id, snapshots.fingerprint()) is not None
        third = TableService(stores[2])
        for viewer in (GM, bea):
            full = _replayed(stores[2], campaign_id, viewer)
            read = _everything(third, campaign_id, viewer)
            assert read["events"] == full["events"]
            assert {k: v for k, v in read["state"].items() if k != "problems"} == full["state"]
    finally:
        stores[0].drop_schema()
        for store in stores:
            store.close()


def test_the_newest_page_after_a_restart_links_no_old_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot keeps the chain's links of its newest events: the first page a client reads after a
    restart needs none of the events before the snapshot, and carries the same heads as before."""
    monkeypatch.setattr(snapshot_data, "MAX_EVENTS_PAGE", 10)  # the snapshot keeps the links of its newest 10
    store = MemoryStore()
    first = TableService(store)
    campaign_id, bea = _new_campaign(first)
    _play(first, campaign_id, [{"do": "note", "text": f"n{n}"} for n in range(12)], bea)
    saved = store.latest_snapshot(campaign_id, snapshots.fingerprint())
    assert saved is not None and saved.version > 8
    second = TableService(store)
    second.load_all()
    ledger = second.ledger(campaign_id)
    newest = ledger.log[saved.version - 4 :]  # the page reaches back before the snapshot
    assert visible_events(ledger, GM, newest) == visible_events(first.ledger(campaign_id), GM, newest)
    assert ledger.chains["gm"].known_from == saved.version  # nothing linked again
    assert ledger.log.loaded_from == saved.version  # the page's older events were read, not kept
    assert second.events(campaign_id, GM) == first.events(campaign_id, GM)
    assert ledger.chains["gm"].known_from == 0  # an older page links the whole chain once
