"""The stores the contract suite runs against: SQLite always, PostgreSQL if TALESPIN_TEST_POSTGRES is set."""

from __future__ import annotations

import importlib.util
import os
import secrets
import sys
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


KINDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(params=KINDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """A URL and schema for a fresh, empty store of each kind (a unique PostgreSQL schema, dropped after)."""
    yield from _fresh_url(request.param, tmp_path)


def _fresh_url(kind: str, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'talespin.db'}", None
        return
    if not POSTGRES:
        pytest.skip(SKIP_POSTGRES)
    schema = f"talespin_test_{secrets.token_hex(6)}"
    yield POSTGRES, schema
    cleaner = SqlStore(POSTGRES, schema=schema)
    cleaner.drop_schema()
    cleaner.close()


def _memory_store() -> EventStore:
    """The table tests' in-memory fake (``tests/table/table_fakes.py``), held to the same contract."""
    module = sys.modules.get("table_fakes")
    if module is None:
        spec = importlib.util.spec_from_file_location(
            "table_fakes", Path(__file__).resolve().parent.parent / "table" / "table_fakes.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["table_fakes"] = module
        spec.loader.exec_module(module)
    fake: EventStore = module.MemoryStore()
    return fake


@pytest.fixture(params=[*KINDS, "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    """A fresh store of each kind: SQLite, PostgreSQL, and the in-memory fake the table tests use."""
    if request.param == "memory":
        yield _memory_store()
        return
    for url, schema in _fresh_url(request.param, tmp_path):
        opened = open_store(url, schema=schema)
        yield opened
        opened.close()
