"""Fixtures of the HTTP tests: an in-process app on a temporary SQLite file, and a real server process."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "table"))

from web_support import Campaign, ServerProcess, free_port

from talespin.web import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """An in-process client of a fresh app over a SQLite file."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'talespin.db'}")) as test_client:
        yield test_client


@pytest.fixture
def ii(client: TestClient) -> Campaign:
    """An Inciting Incident campaign on the in-process app."""
    return Campaign.create(client, "ii")


@pytest.fixture
def ascend(client: TestClient) -> Campaign:
    """An Ascend campaign on the in-process app."""
    return Campaign.create(client, "ascend")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real `talespin serve` process on a free port, over SQLite in a temporary directory."""
    process = ServerProcess(tmp_path / "served.db", free_port())
    process.start()
    yield process
    process.stop()
