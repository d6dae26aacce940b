"""Rate limits for creating and joining campaigns hold across server processes on one PostgreSQL.

The ``create``, ``join`` and ``campaign_join`` buckets live in the database when the store is PostgreSQL,
so two servers (or ``--workers 2``) together allow what one would, not twice as much; on SQLite (one
process) they stay in memory. Skipped loudly when TALESPIN_TEST_POSTGRES is unset.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import httpx
import pytest
from cluster_support import POSTGRES, SKIP, cluster
from web_support import ServerProcess

from talespin.store.sql import SqlStore


def _create(server: ServerProcess) -> httpx.Response:
    body = {"name": "Limited", "system": "ii"}
    return httpx.post(f"{server.url}/api/campaigns", json=body, timeout=10)


def _join(server: ServerProcess, made: dict[str, str], name: str) -> httpx.Response:
    body = {"invite_token": made["invite_token"], "name": name}
    return httpx.post(f"{server.url}/api/campaigns/{made['id']}/join", json=body, timeout=10)


@pytest.mark.postgres
def test_two_servers_share_the_create_and_join_limits() -> None:
    """3 campaigns an hour per client across both servers, not 3 on each; joins alike, per client and per
    campaign; a refusal is the contract's 429 whichever server answers."""
    with cluster(2, limits="create=3/hour,join=5/hour,campaign_join=3/hour") as servers:
        created = [_create(servers[n % 2]) for n in range(6)]
        assert [r.status_code for r in created] == [201, 201, 201, 429, 429, 429]
        refused = created[3]
        assert refused.json()["error"]["code"] == "rate_limited" and int(refused.headers["retry-after"]) >= 1
        first, second = (r.json() for r in created[:2])
        joins = [_join(servers[n % 2], first, f"P{n}") for n in range(4)]
        assert [r.status_code for r in joins] == [201, 201, 201, 429]  # the campaign's own 3 an hour
        assert joins[3].json()["error"]["limit"] == "3/hour"
        other = [_join(servers[n % 2], second, f"Q{n}") for n in range(2)]
        # the client's 5 an hour, across campaigns (the refused join above drew from it too)
        assert [r.status_code for r in other] == [201, 429]
        assert other[1].json()["error"]["limit"] == "5/hour"


@pytest.mark.postgres
def test_workers_of_one_server_share_the_create_limit() -> None:
    """``--workers 2``: the requests land on either process, and together they still allow 3."""
    with cluster(1, limits="create=3/hour", extra=("--workers", "2")) as (server,):
        codes = [_create(server).status_code for _ in range(8)]
    assert codes == [201, 201, 201] + [429] * 5


@pytest.mark.postgres
def test_a_shared_bucket_refills_by_the_databases_clock() -> None:
    """The bucket's row: full at first, empty after its count, then the wait until one request refills."""
    if not POSTGRES:
        pytest.skip(SKIP)
    schema = f"talespin_rates_{secrets.token_hex(6)}"
    store = SqlStore(POSTGRES, schema=schema)
    try:
        assert store.shared_rates() is not None
        waits = [store.take_rate("create:10.0.0.1", 2, 3600) for _ in range(3)]
        assert waits[:2] == [0.0, 0.0]
        assert 1790 < waits[2] <= 1800  # one request refills in 3600 / 2 seconds
        assert store.take_rate("create:10.0.0.2", 2, 3600) == 0.0  # another address, its own bucket
    finally:
        store.drop_schema()
        store.close()


def test_on_sqlite_the_limits_stay_in_memory(tmp_path: Path) -> None:
    """A SQLite file is one process's store: it offers no shared rates, and the limits are the process's."""
    store = SqlStore(f"sqlite:///{tmp_path / 'one.db'}")
    try:
        assert store.shared_rates() is None
    finally:
        store.close()
