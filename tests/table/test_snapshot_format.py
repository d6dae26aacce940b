"""Snapshots are plain data, checked before use: a restart from one reads like a full replay, for every
viewer, and a snapshot that is not usable (another log, another format, cut short, garbage, wrong shapes,
a pickle) is ignored, never executed, and replaced, while the campaign is served from its events as if
none existed.

Each campaign is the scripted session of :mod:`blind_play` (GM-only notes and Triggers, a blind roll still
held from the players, one undone), stored in a real SQLite file, and in PostgreSQL when
``TALESPIN_TEST_POSTGRES`` is set.
"""

from __future__ import annotations

import json
import logging
import os
import pickle
import secrets
import zlib
from collections.abc import Callable, Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from blind_play import FACES_LOW, FIXED_TIME, Secrets, Seen, play_ascend, play_ii, text
from determinism import counter, seeds

from talespin.store import EventStore, Snapshot, open_store
from talespin.table import Ledger, TableError, TableService, Viewer, export_json, export_markdown, snapshots
from talespin.table import service as service_module

GM = Viewer("gm")
POSTGRES = os.environ.get("TALESPIN_TEST_POSTGRES")
STORES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
PLAYS = {"ii": play_ii, "ascend": play_ascend}
SECRETS = {
    "ii": Secrets(faces=FACES_LOW, notes=("the cellar key", "b"), hidden_trigger=True),
    "ascend": Secrets(faces=[1, 2, 3], notes=("the cellar key", "b")),
}


@pytest.fixture(autouse=True)
def _often(monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot every 8 events, so the short scripted sessions save several."""
    monkeypatch.setattr(service_module, "SNAPSHOT_EVERY", 8)


@pytest.fixture(params=STORES)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """A fresh SQLite file, or a fresh PostgreSQL schema (dropped after)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'talespin.db'}", None
        return
    if not POSTGRES:
        pytest.skip("TALESPIN_TEST_POSTGRES is unset: PostgreSQL snapshots SKIPPED")
    schema = f"talespin_test_{secrets.token_hex(6)}"
    yield POSTGRES, schema
    from talespin.store.sql import SqlStore

    cleaner = SqlStore(POSTGRES, schema=schema)
    cleaner.drop_schema()
    cleaner.close()


class _NoSnapshots:
    """A store that keeps and hands out no snapshot: its service replays each campaign from event 1."""

    def __init__(self, store: EventStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def latest_snapshot(self, campaign_id: str, fingerprint: str) -> None:
        return None

    def save_snapshot(self, snapshot: Snapshot) -> None:
        return None


def _service(store: Any, ids: str = "id-") -> TableService:
    nonces = counter("", 32)
    return TableService(
        store,
        seeds=seeds("same"),
        clock=lambda: FIXED_TIME,
        ids=counter(ids),
        tokens=counter("token-", 8),
        nonces=lambda: f"{int(nonces()):032x}",
    )


class _Table:
    """The scripted session's driver (:class:`blind_play.Driver`) over a real store."""

    def __init__(self, store: EventStore, system: str, ids: str = "id-") -> None:
        self.service = _service(store, ids)
        made = self.service.create_campaign("Snapshots", system)
        self.id, self.invite = made.id, made.invite_token
        self.viewers: dict[str, Viewer] = {"gm": GM}

    def join(self, name: str) -> str:
        joined = self.service.join(self.id, self.invite, name)
        self.viewers[joined.player_id] = self.service.viewer(self.id, joined.player_token)
        return joined.player_id

    def send(self, who: str, command: dict[str, Any], nonce: str | None = None) -> str:
        viewer = self.viewers[who]
        version = self.service.version(self.id, viewer)
        if who == "gm":  # every GM command of the script is meant to succeed
            return text(self.service.command(self.id, viewer, command, version, nonce))
        try:
            return text(self.service.command(self.id, viewer, command, version, nonce))
        except (TableError, ValueError) as error:
            return text({"error": str(error)})

    def reads(self, who: str, odds: dict[str, Any]) -> dict[str, str]:
        return _reads(self.service, self.id, self.viewers[who], odds)

    def blind_entries(self) -> list[int]:
        return list(self.service.state(self.id, GM)["pending"]["entries"])


ODDS = {"ii": {"character": "Ada"}, "ascend": {"hero": "Susan", "skill": "Athletics", "difficulty": 0}}


def _reads(service: TableService, campaign_id: str, viewer: Viewer, odds: dict[str, Any]) -> dict[str, str]:
    """Everything a viewer receives of a campaign, as the text a client gets."""
    ledger = service.ledger(campaign_id)
    return {
        "state": text(service.state(campaign_id, viewer)),
        "events": text(service.events(campaign_id, viewer, 0)),
        "backlog": text(service.backlog(campaign_id, viewer, 3)),
        "version": text(service.version(campaign_id, viewer)),
        "head": service.head(campaign_id, viewer),
        "odds": text(service.odds(campaign_id, viewer, odds)),
        "export": text(export_json(ledger, viewer)),
        "markdown": export_markdown(ledger, viewer),
    }


def _everyone(table: _Table, service: TableService, system: str) -> dict[str, dict[str, str]]:
    return {who: _reads(service, table.id, viewer, ODDS[system]) for who, viewer in table.viewers.items()}


def _played(store: EventStore, system: str) -> tuple[_Table, Callable[[], None]]:
    table = _Table(store, system)
    reveal = PLAYS[system](table, SECRETS[system], Seen())
    return table, reveal


def _assert_same_ledger(restored: Ledger, replayed: Ledger) -> None:
    """The restored ledger's folded facts equal the replay's (its log and lazily rebuilt parts aside)."""
    assert restored.state == replayed.state
    assert restored.release.state == replayed.release.state
    assert restored.entries == replayed.entries and restored.notes() == replayed.notes()
    assert restored.owners() == replayed.owners() and restored.players == replayed.players
    assert restored.seeds == replayed.seeds and restored.blind == replayed.blind
    assert restored.release.held_blind == replayed.release.held_blind


@pytest.mark.parametrize("system", ["ii", "ascend"])
def test_a_restart_from_the_snapshot_gives_every_viewer_what_a_replay_gives(
    system: str, store_url: tuple[str, str | None]
) -> None:
    """A new store and service load the campaign from its snapshot (not from the first event); the GM and each
    player then receive exactly what a service replaying the whole log gives, before and after the reveal."""
    url, schema = store_url
    store = open_store(url, schema=schema)
    table, reveal = _played(store, system)
    before = _everyone(table, table.service, system)
    store.close()
    again = open_store(url, schema=schema)
    try:
        saved = again.latest_snapshot(table.id, snapshots.fingerprint())
        assert saved is not None and json.loads(zlib.decompress(saved.data))["format"] == snapshots.FORMAT
        restarted = _service(again)
        restarted.load_all()
        assert restarted.ledger(table.id).log.loaded_from == saved.version > 8  # the snapshot was used
        replay = _service(_NoSnapshots(again))
        assert _everyone(table, restarted, system) == _everyone(table, replay, system) == before
        _assert_same_ledger(restarted.ledger(table.id), replay.ledger(table.id))
        assert restarted.state(table.id, GM)["pending"]["blind"] > 0  # a blind roll is still held
        table.service = restarted
        reveal()  # played on after the restart: the reveal releases what the snapshot held
        after = _everyone(table, restarted, system)
        assert after == _everyone(table, _service(_NoSnapshots(again)), system) != before
    finally:
        again.close()


def _body(data: bytes) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(zlib.decompress(data))
    return body


def _packed(body: dict[str, Any]) -> bytes:
    return zlib.compress(json.dumps(body).encode())


def _edited(edit: Callable[[dict[str, Any]], None]) -> Callable[[bytes, Ledger], bytes]:
    def make(data: bytes, _ledger: Ledger) -> bytes:
        body = _body(data)
        edit(body)
        return _packed(body)

    return make


def _other_log(body: dict[str, Any]) -> None:
    """A snapshot consistent in itself whose newest event is not the store's: its chain head differs."""
    other = "ab" * 32
    anchor = body["chain"]
    for link in body["chains"]["gm"]["links"]:
        if link[0] == anchor["version"]:
            link[2] = other
    anchor["head"] = body["chains"]["gm"]["tip"] = other


def _first_entry_command(body: dict[str, Any]) -> None:
    body["ledger"]["entries"][0][1] = "not a command"


def _state_field(body: dict[str, Any]) -> None:
    state = body["ledger"]["state"]
    key = "rising_tension" if "rising_tension" in state else "tests"
    state[key] = "many"


def _shown_reference(body: dict[str, Any]) -> None:
    body["release"]["shown"][0][1] = 10**9


def _event_version(body: dict[str, Any]) -> None:
    body["events"][0][0] = "one"


def _missing_players(body: dict[str, Any]) -> None:
    del body["ledger"]["players"]


def _unknown_state_key(body: dict[str, Any]) -> None:
    body["release"]["state"]["exec"] = "__import__('os')"


def _seed_not_hex(body: dict[str, Any]) -> None:
    body["ledger"]["seeds"][0][2] = "not hex"


def _old_pickle(_data: bytes, ledger: Ledger) -> bytes:
    """A snapshot as the table saved them before format 2: the ledger's fields pickled and compressed."""
    kept = {f.name: getattr(ledger, f.name) for f in fields(Ledger) if f.name not in {"log", "_system"}}
    return zlib.compress(pickle.dumps({"format": 1, "ledger": kept, "problems": []}), 1)


UNUSABLE: dict[str, Callable[[bytes, Ledger], bytes]] = {
    "the wrong chain hash": _edited(_other_log),
    "a future format": _edited(lambda body: body.update(format=snapshots.FORMAT + 1)),
    "no format": _edited(lambda body: body.pop("format")),
    "cut short": lambda data, _ledger: data[: len(data) // 2],
    "garbage": lambda _data, _ledger: b"\x00\xffnot a snapshot at all",
    "JSON that is no object": lambda _data, _ledger: zlib.compress(b"[1, 2, 3]"),
    "compressed non-JSON": lambda _data, _ledger: zlib.compress(b"\x80\x05not json"),
    "deeply nested JSON": lambda _data, _ledger: zlib.compress(b"[" * 100_000 + b"]" * 100_000),
    "an entry's command not an object": _edited(_first_entry_command),
    "a state field of the wrong type": _edited(_state_field),
    "a state key no state has": _edited(_unknown_state_key),
    "an event index out of range": _edited(_shown_reference),
    "an event's version not a number": _edited(_event_version),
    "a missing part": _edited(_missing_players),
    "a seed not in hexadecimal": _edited(_seed_not_hex),
    "another campaign's": _edited(lambda body: body.update(campaign="someone-else")),
    "the old pickled format": _old_pickle,
}


@pytest.mark.parametrize("system", ["ii", "ascend"])
@pytest.mark.parametrize("case", UNUSABLE)
def test_an_unusable_snapshot_is_ignored_and_replaced(
    case: str, system: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Stored under this code's fingerprint at the campaign's version, an unusable snapshot is reported and
    ignored: the restarted service replays the log, every viewer reads what a replay gives, no error reaches
    the caller, and the snapshot is replaced by a usable one that the next restart loads."""
    url = f"sqlite:///{tmp_path / 'talespin.db'}"
    store = open_store(url)
    try:
        table, _ = _played(store, system)
        ledger = table.service.ledger(table.id)
        good = snapshots.dump(ledger, [])
        bad = UNUSABLE[case](good, ledger)
        store.save_snapshot(Snapshot(table.id, ledger.version, snapshots.fingerprint(), bad, FIXED_TIME))
        assert store.latest_snapshot(table.id, snapshots.fingerprint()) == Snapshot(
            table.id, ledger.version, snapshots.fingerprint(), bad, FIXED_TIME
        )
        with caplog.at_level(logging.WARNING, logger="talespin.table"):
            restarted = _service(store)
            restarted.load_all()
        assert f"snapshot at {ledger.version}" in caplog.text
        assert restarted.ledger(table.id).log.loaded_from == 0  # replayed from the first event
        expected = _everyone(table, _service(_NoSnapshots(store)), system)
        assert _everyone(table, restarted, system) == expected
        replaced = store.latest_snapshot(table.id, snapshots.fingerprint())
        assert replaced is not None and replaced.data != bad
        assert _body(replaced.data)["format"] == snapshots.FORMAT
        third = _service(store)
        third.load_all()
        assert third.ledger(table.id).log.loaded_from == ledger.version  # the replacement is used
        assert _everyone(table, third, system) == expected
    finally:
        store.close()


class _Touch:
    """Unpickling this creates the file it names (what a hostile snapshot would do instead)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.path), "w"))


def test_a_pickle_stored_as_a_snapshot_is_never_run(tmp_path: Path) -> None:
    """A crafted pickle in the snapshots table, bare or compressed as the old format was, runs nothing: the
    file it would create does not exist after the restart, and the campaign is served from its events."""
    control = tmp_path / "control"
    pickle.loads(pickle.dumps(_Touch(control)))  # the payload does what it says when unpickled
    assert control.exists()
    store = open_store(f"sqlite:///{tmp_path / 'talespin.db'}")
    try:
        table, _ = _played(store, "ascend")
        version = table.service.ledger(table.id).version
        for number, pack in enumerate([lambda b: b, lambda b: zlib.compress(b, 1)]):
            target = tmp_path / f"pwned-{number}"
            payload = pack(pickle.dumps({"format": 1, "ledger": _Touch(target)}))
            store.save_snapshot(Snapshot(table.id, version, snapshots.fingerprint(), payload, FIXED_TIME))
            restarted = _service(store)
            assert restarted.state(table.id, GM) == _service(_NoSnapshots(store)).state(table.id, GM)
            with pytest.raises(snapshots.SnapshotError):
                snapshots.restore(payload, lambda after, upto: store.events(table.id, after, upto))
            assert not target.exists()
    finally:
        store.close()


def test_a_snapshot_of_another_campaign_is_not_loaded_for_this_one(tmp_path: Path) -> None:
    """One campaign's snapshot stored under another's id is refused (its campaign and chain do not match)."""
    store = open_store(f"sqlite:///{tmp_path / 'talespin.db'}")
    try:
        one, _ = _played(store, "ascend")
        two = _Table(store, "ascend", ids="two-")
        for _ in range(9):
            two.send("gm", {"do": "note", "text": "two"})
        ledger = one.service.ledger(one.id)
        data = snapshots.dump(ledger, [])
        version = two.service.ledger(two.id).version
        store.save_snapshot(Snapshot(two.id, version, snapshots.fingerprint(), data, FIXED_TIME))
        restarted = _service(store)
        assert restarted.state(two.id, GM) == two.service.state(two.id, GM)
        assert restarted.ledger(two.id).log.loaded_from == 0
    finally:
        store.close()
