"""Fixtures of the table tests: a table service over an in-memory store, with campaigns of both systems."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from table_fakes import MemoryStore

from talespin.table import TableService, Viewer


class Table:
    """A campaign driven through the service: the GM, players, and a helper that sends commands."""

    def __init__(self, service: TableService, system: str) -> None:
        self.service = service
        made = service.create_campaign("Test", system)
        self.id = made.id
        self.gm_token = made.gm_token
        self.invite_token = made.invite_token
        self.gm = Viewer("gm")

    def join(self, name: str) -> Viewer:
        """A new player, as a viewer."""
        joined = self.service.join(self.id, self.invite_token, name)
        return self.service.viewer(self.id, joined.player_token)

    @property
    def version(self) -> int:
        """The campaign's current version."""
        return self.service.ledger(self.id).version

    def send(self, viewer: Viewer, command: dict[str, Any]) -> list[dict[str, Any]]:
        """Send a command at the current version; the events as ``viewer`` sees them."""
        return self.service.command(self.id, viewer, command, self.service.version(self.id, viewer))[1]


@pytest.fixture
def service() -> TableService:
    """A table service over a fresh in-memory store."""
    return TableService(MemoryStore())


@pytest.fixture
def table(service: TableService) -> Callable[[str], Table]:
    """Open a campaign of a system on the service."""
    return lambda system: Table(service, system)
