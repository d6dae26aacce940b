"""The table the fuzzing modules drive: an app on a fresh SQLite file, one campaign of each system.

Fuzzing sends thousands of requests a minute from one client, so the app has no rate limits (they are
tested apart). Each campaign has its hero already (Ada in Inciting Incident, Susan in Ascend), so drawn
commands and odds queries reach the rules rather than stopping at "no such character".
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, NamedTuple

import schemathesis
from fastapi.testclient import TestClient
from table_sheets import ADA, SUSAN
from web_support import Campaign

from talespin.web import create_app
from talespin.web.throttle import RateLimits


class FuzzTable(NamedTuple):
    """The app, a client of it, its two campaigns and its OpenAPI description read by schemathesis."""

    app: Any
    client: TestClient
    ii: Campaign
    ascend: Campaign
    schema: Any


def fuzz_table(name: str) -> FuzzTable:
    """A new app on ``<temporary folder>/<name>.db`` with an II and an Ascend campaign, each with its hero."""
    app = create_app(
        f"sqlite:///{Path(tempfile.mkdtemp(prefix=f'talespin-{name}-')) / f'{name}.db'}",
        limits=RateLimits.off(),
    )
    client = TestClient(app)
    ii = Campaign.create(client, "ii")
    ascend = Campaign.create(client, "ascend")
    ii.send({"do": "add_character", "sheet": ADA})
    ascend.send({"do": "add_character", "sheet": SUSAN})
    return FuzzTable(app, client, ii, ascend, schemathesis.openapi.from_asgi("/openapi.json", app))
