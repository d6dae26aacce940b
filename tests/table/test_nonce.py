"""Dice no single party can steer: each server roll mixes the committed seed with the roller's nonce."""

from __future__ import annotations

from typing import Any

import pytest
from determinism import sources
from table_fakes import MemoryStore
from table_sheets import SUSAN, susan_test

from talespin.systems import IllegalCommand
from talespin.table import HmacRng, TableService, Viewer

NONCE = "5e" * 16


def _faces_after_hidden_notes(notes: int) -> tuple[Any, ...]:
    service = TableService(MemoryStore(), seeds=lambda: bytes(32), **sources())  # the host knows the seed
    made = service.create_campaign("Steer", "ascend")
    pia = service.viewer(made.id, service.join(made.id, made.invite_token, "Pia").player_token)
    service.command(made.id, pia, {"do": "add_character", "sheet": SUSAN}, service.version(made.id, pia))
    for number in range(notes):  # the host shifts the entry number before the player's roll arrives
        note = {"do": "note", "text": f"hidden {number}", "visibility": "gm"}
        service.command(made.id, Viewer("gm"), note, service.ledger(made.id).version)
    events = service.command(made.id, pia, susan_test(), service.version(made.id, pia), NONCE)[1]
    rolled = next(e for e in events if e["type"] == "TestRolled")
    return tuple(rolled["data"]["faces"])


def test_hidden_notes_before_a_roll_do_not_move_its_dice() -> None:
    """The host reading the seed and inserting 0–3 hidden notes gets the same faces for the same nonce."""
    # rule: AS-TEST-1
    assert len({_faces_after_hidden_notes(n) for n in range(4)}) == 1


def test_the_roll_is_the_seed_mixed_with_the_nonce(table: Any) -> None:
    """A roll is HmacRng(seed, campaign, nonce) at any version; no nonce is used twice; none: the server's."""
    t = table("ascend")
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    version = t.version
    events = t.service.command(t.id, t.gm, susan_test(), version, NONCE)[1]
    issued = events[0]["data"]
    assert issued["nonce"] == NONCE and issued["nonce_from"] == "client"
    seed = t.service.ledger(t.id).open_seed()
    assert seed is not None and seed.seed is not None
    assert HmacRng(seed.seed, t.id, 0, NONCE).randrange(10) == HmacRng(seed.seed, t.id, 99, NONCE).randrange(
        10
    )
    with pytest.raises(IllegalCommand):
        t.service.command(t.id, t.gm, susan_test(), t.version, NONCE)
    made_here = t.service.command(t.id, t.gm, susan_test(), t.version)[1][0]["data"]
    assert made_here["nonce_from"] == "server" and len(made_here["nonce"]) == 32
