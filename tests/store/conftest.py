"""The stores the contract suite runs against: SQLite always, PostgreSQL if TALESPIN_TEST_POSTGRES is set."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from talespin.store import EventStore, open_store
from talespin.store.sql import SqlStore

POSTGRES = os.environ.get("TALESPIN_TEST_POSTGRES")
SKIP_POSTGRES = (
    "TALESPIN_TEST_POSTGRES is unset: the PostgreSQL run of the store contract suite is SKIPPED "
    "(export TALESPIN_TEST_POSTGRES=postgresql://postgres@127.0.0.1:5432/test to run it)"
)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """A URL and schema for a fresh, empty store of each kind (a unique PostgreSQL schema, dropped after)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'talespin.db'}", None
        return
    if not POSTGRES:
        pytest.skip(SKIP_POSTGRES)
    schema = f"talespin_test_{secrets.token_hex(6)}"
    yield POSTGRES, schema
    cleaner = SqlStore(POSTGRES, schema=schema)
    cleaner.drop_schema()
    cleaner.close()


@pytest.fixture
def store(store_url: tuple[str, str | None]) -> Iterator[EventStore]:
    """A fresh store of each kind."""
    opened = open_store(store_url[0], schema=store_url[1])
    yield opened
    opened.close()
