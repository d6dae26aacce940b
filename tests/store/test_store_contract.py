"""The store port's contract, run against every adapter (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event, text

from talespin.store import (
    CampaignRecord,
    EventStore,
    NewEvent,
    PlayerRecord,
    Snapshot,
    UnknownCampaign,
    VersionConflict,
    open_store,
)
from talespin.store.migrate import current_revision, head_revision
from talespin.store.sql import POOL_OVERFLOW, POOL_SIZE, SqlStore, engine_url

AT = "2026-12-02T17:00:00+00:00"


def _campaign(campaign_id: str = "c1") -> CampaignRecord:
    return CampaignRecord(campaign_id, "The Long Night", "ascend", {"k": 1}, "a" * 64, "b" * 64, AT)


def _events(*kinds: str) -> list[NewEvent]:
    return [
        NewEvent(kind, {"n": i, "nested": {"list": [1, 2]}}, "public", None) for i, kind in enumerate(kinds)
    ]


def test_a_campaign_and_its_first_events_are_stored_together(store: EventStore) -> None:
    """create_campaign records the campaign and numbers its first events 1..n."""
    stored = store.create_campaign(_campaign(), _events("CampaignCreated", "SeedCommitted"), AT)
    assert [e.version for e in stored] == [1, 2]
    assert store.campaign("c1") == _campaign()
    assert store.campaign_ids() == ["c1"]
    assert [(e.version, e.type, e.data["n"]) for e in store.events("c1")] == [
        (1, "CampaignCreated", 0),
        (2, "SeedCommitted", 1),
    ]


def test_append_numbers_events_and_reads_after_a_version(store: EventStore) -> None:
    """Events appended after version n get n+1…, keep type, data, visibility, actor and time."""
    store.create_campaign(_campaign(), _events("A"), AT)
    store.append("c1", 1, [NewEvent("B", {"x": "ü"}, "gm", "Ada"), NewEvent("C", {}, "server")], AT)
    after = store.events("c1", after=1)
    assert [(e.version, e.type, dict(e.data), e.visibility, e.actor, e.at) for e in after] == [
        (2, "B", {"x": "ü"}, "gm", "Ada", AT),
        (3, "C", {}, "server", None, AT),
    ]
    assert store.events("c1", after=3) == []


def test_a_taken_version_is_a_conflict_and_writes_nothing(store: EventStore) -> None:
    """Appending after a stale version raises VersionConflict and none of its events are stored."""
    store.create_campaign(_campaign(), _events("A"), AT)
    store.append("c1", 1, _events("B"), AT)
    with pytest.raises(VersionConflict):
        store.append("c1", 1, _events("X", "Y"), AT)
    assert [e.type for e in store.events("c1")] == ["A", "B"]


def test_two_store_instances_race_and_exactly_one_wins(store_url: tuple[str, str | None]) -> None:
    """Two stores on one database (as two processes would be) race for a version: one wins, seven conflict."""
    first = open_store(store_url[0], schema=store_url[1])
    second = open_store(store_url[0], schema=store_url[1])
    first.create_campaign(_campaign(), _events("A"), AT)
    outcomes: list[str] = []
    barrier = threading.Barrier(8)

    def write(which: EventStore, label: str) -> None:
        barrier.wait()
        try:
            which.append("c1", 1, _events(label), AT)
            outcomes.append("won")
        except VersionConflict:
            outcomes.append("lost")

    threads = [threading.Thread(target=write, args=((first, second)[i % 2], f"W{i}")) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["lost"] * 7 + ["won"]
    assert [e.version for e in second.events("c1")] == [1, 2]
    first.close()
    second.close()


def test_players_are_recorded_with_their_event(store: EventStore) -> None:
    """add_player stores the player and its event together, and refuses a stale version."""
    store.create_campaign(_campaign(), _events("A"), AT)
    pia = PlayerRecord("p1", "c1", "Pia", "c" * 64, AT)
    store.add_player(pia, 1, _events("PlayerJoined"), AT)
    with pytest.raises(VersionConflict):
        store.add_player(PlayerRecord("p2", "c1", "Quin", "d" * 64, AT), 1, _events("PlayerJoined"), AT)
    assert store.players("c1") == [pia]
    assert len(store.events("c1")) == 2


def test_unknown_campaigns_are_reported(store: EventStore) -> None:
    """Reading or appending to a campaign that does not exist raises UnknownCampaign."""
    with pytest.raises(UnknownCampaign):
        store.campaign("nope")
    with pytest.raises(UnknownCampaign):
        store.append("nope", 0, _events("A"), AT)
    assert store.events("nope") == [] and store.players("nope") == []


def test_reopening_keeps_everything(store_url: tuple[str, str | None]) -> None:
    """A store opened again on the same database finds every campaign and event (migrating is idempotent)."""
    first = open_store(store_url[0], schema=store_url[1])
    first.create_campaign(_campaign(), _events("A", "B"), AT)
    first.close()
    again = open_store(store_url[0], schema=store_url[1])
    assert again.campaign_ids() == ["c1"] and len(again.events("c1")) == 2
    again.close()


def test_the_schema_is_at_the_newest_migration(store: EventStore) -> None:
    """Opening a store applies the packaged Alembic migrations up to the head revision."""
    if not isinstance(store, SqlStore):
        pytest.skip("the in-memory fake has no schema to migrate")
    with store.engine.connect() as connection:
        assert current_revision(connection) == head_revision() is not None


def test_sqlite_is_durable_by_configuration(tmp_path: object) -> None:
    """SQLite runs in WAL mode with synchronous=FULL, so an acknowledged append survives a crash."""
    store = SqlStore(f"{tmp_path}/durable.db")
    with store.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
    store.close()


def test_urls_are_normalised() -> None:
    """A bare path means SQLite; postgresql:// means the psycopg 3 driver."""
    assert engine_url("talespin.db") == "sqlite:///talespin.db"
    assert engine_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert engine_url("sqlite:///x.db") == "sqlite:///x.db"


def test_concurrent_writers_to_many_campaigns_all_land(store: EventStore) -> None:
    """Writers to 12 campaigns at once (sharing commits on SQLite) each get their own versions, none lost."""
    for number in range(12):
        store.create_campaign(_campaign(f"c{number}"), _events("A"), AT)
    failures: list[BaseException] = []

    def write(campaign_id: str) -> None:
        try:
            for version in range(1, 11):
                store.append(campaign_id, version, _events(f"E{version}"), AT)
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=write, args=(f"c{n}",)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    for number in range(12):
        assert [e.type for e in store.events(f"c{number}")] == ["A"] + [f"E{v}" for v in range(1, 11)]


def test_events_can_be_read_up_to_a_version(store: EventStore) -> None:
    """``events(after, upto)`` is the slice of versions after ``after`` and at most ``upto``."""
    store.create_campaign(_campaign(), _events("A", "B", "C", "D"), AT)
    assert [e.version for e in store.events("c1", after=1, upto=3)] == [2, 3]
    assert [e.version for e in store.events("c1", upto=1)] == [1]
    assert store.events("c1", after=2, upto=2) == []


def test_the_newest_snapshot_of_a_fingerprint_is_handed_back(store: EventStore) -> None:
    """Snapshots come back by fingerprint, newest first; another fingerprint's are never handed out."""
    store.create_campaign(_campaign(), _events("A", "B", "C"), AT)
    assert store.latest_snapshot("c1", "f" * 64) is None
    store.save_snapshot(Snapshot("c1", 2, "f" * 64, b"\x00two", AT))
    store.save_snapshot(Snapshot("c1", 3, "e" * 64, b"three, other code", AT))
    assert store.latest_snapshot("c1", "f" * 64) is None  # the older one was dropped by the newer save
    store.save_snapshot(Snapshot("c1", 3, "f" * 64, b"\x00\xffthree", AT))
    assert store.latest_snapshot("c1", "f" * 64) == Snapshot("c1", 3, "f" * 64, b"\x00\xffthree", AT)
    assert store.latest_snapshot("c1", "e" * 64) == Snapshot("c1", 3, "e" * 64, b"three, other code", AT)
    assert store.latest_snapshot("c2", "f" * 64) is None


def test_saving_the_same_snapshot_twice_keeps_one(store: EventStore) -> None:
    """Two processes may fold and save the same version: the second save is no error and one is kept."""
    store.create_campaign(_campaign(), _events("A", "B"), AT)
    store.save_snapshot(Snapshot("c1", 2, "f" * 64, b"first", AT))
    store.save_snapshot(Snapshot("c1", 2, "f" * 64, b"first", AT))
    assert store.latest_snapshot("c1", "f" * 64) == Snapshot("c1", 2, "f" * 64, b"first", AT)


def test_a_snapshot_of_the_same_key_replaces_the_one_kept(store: EventStore) -> None:
    """Saving at a version and fingerprint already kept replaces those bytes (an unusable snapshot goes)."""
    store.create_campaign(_campaign(), _events("A", "B"), AT)
    store.save_snapshot(Snapshot("c1", 2, "f" * 64, b"unusable", AT))
    store.save_snapshot(Snapshot("c1", 2, "f" * 64, b"usable", "later"))
    assert store.latest_snapshot("c1", "f" * 64) == Snapshot("c1", 2, "f" * 64, b"usable", "later")


def test_a_snapshot_of_an_unknown_campaign_is_refused(store: EventStore) -> None:
    """A snapshot names a stored campaign; any other is UnknownCampaign, and nothing is kept."""
    with pytest.raises(UnknownCampaign):
        store.save_snapshot(Snapshot("nope", 1, "f" * 64, b"x", AT))
    assert store.latest_snapshot("nope", "f" * 64) is None


def test_two_stores_saving_one_snapshot_at_once_both_succeed(store_url: tuple[str, str | None]) -> None:
    """Racing saves of the same snapshot from two stores (two processes) both return; one row is kept."""
    first = open_store(store_url[0], schema=store_url[1])
    second = open_store(store_url[0], schema=store_url[1])
    first.create_campaign(_campaign(), _events("A", "B"), AT)
    barrier = threading.Barrier(6)
    failures: list[BaseException] = []

    def save(which: EventStore) -> None:
        barrier.wait()
        try:
            which.save_snapshot(Snapshot("c1", 2, "f" * 64, b"same", AT))
        except BaseException as error:  # collected and asserted below
            failures.append(error)

    threads = [threading.Thread(target=save, args=(s,)) for s in (first, second) * 3]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert first.latest_snapshot("c1", "f" * 64) == Snapshot("c1", 2, "f" * 64, b"same", AT)
    first.close()
    second.close()


def test_forty_writers_share_a_bounded_pool_of_postgresql_connections(
    store_url: tuple[str, str | None],
) -> None:
    """As many writers as a server process has worker threads (40) append at once: every append lands, and
    the store never holds more than POOL_SIZE + POOL_OVERFLOW connections (the rest wait for one), so N
    processes stay under PostgreSQL's max_connections instead of meeting "too many clients" as a 500."""
    url, schema = store_url
    if not url.startswith("postgresql"):
        pytest.skip("SQLite has no connection limit: its writers share one commit at a time")
    store = SqlStore(url, schema=schema)
    in_use, peak, counting = [0], [0], threading.Lock()

    def checked_out(*_: object) -> None:
        with counting:
            in_use[0] += 1
            peak[0] = max(peak[0], in_use[0])

    def checked_in(*_: object) -> None:
        with counting:
            in_use[0] -= 1

    event.listen(store.engine, "checkout", checked_out)
    event.listen(store.engine, "checkin", checked_in)
    for number in range(40):
        store.create_campaign(_campaign(f"c{number}"), _events("A"), AT)
    failures: list[BaseException] = []
    barrier = threading.Barrier(40)

    def write(campaign_id: str) -> None:
        barrier.wait()
        try:
            for version in range(1, 6):
                store.append(campaign_id, version, _events(f"E{version}"), AT)
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=write, args=(f"c{n}",)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    store.close()
    assert failures == []
    assert 1 < peak[0] <= POOL_SIZE + POOL_OVERFLOW


def test_appends_hand_postgresql_connections_back_as_the_pool_lent_them(
    store_url: tuple[str, str | None],
) -> None:
    """PostgreSQL's append runs on the driver in autocommit; every connection it used goes back to the pool
    out of autocommit, so a later write of several statements (a player and its event) stays all or
    nothing: here it loses its version race and leaves no player behind."""
    url, schema = store_url
    if not url.startswith("postgresql"):
        pytest.skip("SQLite's appends go through the group commit, not the driver")
    store = SqlStore(url, schema=schema)
    try:
        store.create_campaign(_campaign("c1"), _events("A"), AT)
        for version in range(1, 1 + 2 * POOL_SIZE):
            store.append("c1", version, _events(f"E{version}"), AT)
        with pytest.raises(VersionConflict):
            store.append("c1", 1, _events("late"), AT)
        lent = [store.engine.raw_connection() for _ in range(POOL_SIZE)]
        try:
            assert [pooled.driver_connection.autocommit for pooled in lent] == [False] * POOL_SIZE
        finally:
            for pooled in lent:
                pooled.close()
        late = PlayerRecord("p1", "c1", "Late", "0" * 64, AT)
        with pytest.raises(VersionConflict):
            store.add_player(late, 1, _events("PlayerJoined"), AT)
        assert store.players("c1") == []
        assert [e.version for e in store.events("c1")] == list(range(1, 2 + 2 * POOL_SIZE))
    finally:
        store.close()
