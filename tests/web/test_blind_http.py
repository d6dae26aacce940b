"""Blind rolls over HTTP and WebSocket: two runs differing only in GM secrets give players the same bytes.

The app runs over a SQLite file with deterministic sources (``create_app(sources=…)``), so two runs of
the same session differ only where the GM's secrets differ. Each player keeps a WebSocket open from the
moment it joins; every HTTP body it receives (answers, error bodies, state, events, odds, both exports)
and every WebSocket frame is compared byte for byte up to the reveal. After the reveal they differ.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from blind_drivers import HttpDriver
from blind_play import FIXED_TIME, SERVED_CASES, Secrets, Seen, assert_same_until_reveal, play_ascend, play_ii
from determinism import counter, seeds
from fastapi.testclient import TestClient

from talespin.web import create_app


def _sources() -> dict[str, Any]:
    numbers = itertools.count()
    return {
        "clock": lambda: FIXED_TIME,
        "ids": counter("id-"),
        "tokens": counter("token-", 8),
        "nonces": lambda: f"{next(numbers):032x}",
    }


def _run(tmp_path: Path, name: str, system: str, secrets: Secrets) -> tuple[Seen, Seen]:
    app = create_app(f"sqlite:///{tmp_path / f'{name}.db'}", seeds=seeds("same"), sources=_sources())
    with TestClient(app) as client:
        driver, seen = HttpDriver(client, system), Seen()
        try:
            reveal = (play_ii if system == "ii" else play_ascend)(driver, secrets, seen)
            before = Seen({who: list(texts) for who, texts in seen.answers.items()})
            reveal()
        finally:
            driver.close()
    return before, seen


CASES = SERVED_CASES


@pytest.mark.parametrize(("system", "what", "first", "second"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_http_and_websocket_bytes_are_the_same_until_the_reveal(
    tmp_path: Path, system: str, what: str, first: Secrets, second: Secrets
) -> None:
    """Every HTTP body and WebSocket frame each player got is identical in both runs until the reveal."""
    (one, one_after), (other, other_after) = (
        _run(tmp_path, "first", system, first),
        _run(tmp_path, "second", system, second),
    )
    assert_same_until_reveal((one, other), (one_after, other_after), what)
