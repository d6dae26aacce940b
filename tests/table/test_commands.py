"""Commands at the table: permissions, versions, undo and notes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from table_sheets import ADA, BEA, SUSAN, action_scene, susan_test

from talespin.store import open_store
from talespin.systems import IllegalCommand, MalformedCommand
from talespin.table import Forbidden, StaleVersion, TableService, Unauthorized, Viewer

Open = Callable[[str], Any]


def test_a_stale_version_is_refused_and_changes_nothing(table: Open) -> None:
    """A command expecting an older version is refused with StaleVersion and nothing is appended."""
    t = table("ii")
    before = t.version
    t.send(t.gm, {"do": "note", "text": "first"})
    with pytest.raises(StaleVersion):
        t.service.command(t.id, t.gm, {"do": "note", "text": "late"}, before)
    assert [n.text for n in t.service.ledger(t.id).notes()] == ["first"]


def test_a_player_owns_the_character_it_adds_and_acts_only_for_it(table: Open) -> None:
    """A player may act for its own character, not for another player's; the GM may act for anyone."""
    t = table("ii")
    pia, quin = t.join("Pia"), t.join("Quin")
    t.send(pia, {"do": "add_character", "sheet": ADA})
    t.send(quin, {"do": "add_character", "sheet": BEA})
    assert t.service.ledger(t.id).owners() == {"Ada": pia.player_id, "Bea": quin.player_id}
    t.send(t.gm, action_scene(secret=False))
    # rule: II-SIMPLE-2
    t.send(t.gm, {"do": "simple_obstacle", "individually": True})
    t.send(pia, {"do": "simple_obstacle", "character": "Ada", "choice": "auto"})
    with pytest.raises(Forbidden):
        t.send(pia, {"do": "simple_obstacle", "character": "Bea", "choice": "auto"})
    t.send(t.gm, {"do": "simple_obstacle", "character": "Bea", "choice": "auto"})


def test_gm_commands_and_secret_commands_are_the_gms(table: Open) -> None:
    """Commands without an actor, blind rolls and GM-only notes are refused to a player."""
    t = table("ii")
    pia = t.join("Pia")
    t.send(pia, {"do": "add_character", "sheet": ADA})
    for command in (
        action_scene(secret=False),
        {"do": "undo"},
        {"do": "reveal_seed"},
        {"do": "note", "text": "psst", "visibility": "gm"},
        {"do": "simple_obstacle", "character": "Ada", "choice": "auto", "visibility": "gm"},
    ):
        with pytest.raises(Forbidden):
            t.send(pia, command)


def test_undo_marks_the_latest_entry_and_walks_back(table: Open) -> None:
    """Undo marks the latest command entry (never erasing it), again walks further back; the state follows."""
    t = table("ascend")
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    t.send(t.gm, susan_test(faces=[1, 2, 9]))
    t.send(t.gm, susan_test(faces=[0, 0, 0]))
    ledger = t.service.ledger(t.id)
    assert ledger.system.view(ledger.state, "gm")["tests"] == 2
    log_length = len(ledger.log)
    t.send(t.gm, {"do": "undo"})
    assert ledger.system.view(ledger.state, "gm")["tests"] == 1
    t.send(t.gm, {"do": "undo"})
    assert ledger.system.view(ledger.state, "gm")["tests"] == 0
    assert len(ledger.log) == log_length + 4  # two undo entries appended, nothing erased
    assert [e.undone for e in ledger.entries[:3]] == [False, True, True]
    t.send(t.gm, {"do": "undo"})  # the hero leaves too
    assert ledger.system.view(ledger.state, "gm")["heroes"] == []
    with pytest.raises(IllegalCommand):
        t.send(t.gm, {"do": "undo"})


def test_undone_notes_and_characters_leave_the_state(table: Open) -> None:
    """An undone note disappears from the notes; an undone character loses its owner."""
    t = table("ii")
    pia = t.join("Pia")
    t.send(pia, {"do": "add_character", "sheet": ADA})
    t.send(t.gm, {"do": "note", "text": "kept"})
    t.send(t.gm, {"do": "note", "text": "dropped"})
    t.send(t.gm, {"do": "undo"})
    ledger = t.service.ledger(t.id)
    assert [n.text for n in ledger.notes()] == ["kept"]
    t.send(t.gm, {"do": "undo"})
    t.send(t.gm, {"do": "undo"})
    assert ledger.owners() == {}


@pytest.mark.parametrize(
    "command",
    [
        {"text": "no do"},
        {"do": 5},
        {"do": "note"},
        {"do": "note", "text": ""},
        {"do": "note", "text": "x", "visibility": "secret"},
        {"do": "note", "text": "x", "colour": "red"},
        {"do": "note", "text": "x" * 5000},
        {"do": "no_such_command"},
    ],
)
def test_malformed_commands_are_refused(table: Open, command: dict[str, Any]) -> None:
    """A command of the wrong shape is a MalformedCommand and appends nothing."""
    t = table("ii")
    before = t.version
    with pytest.raises(MalformedCommand):
        t.send(t.gm, command)
    assert t.version == before


def test_unknown_tokens_and_invites_are_refused(service: TableService, table: Open) -> None:
    """A wrong token or invite is Unauthorized; a missing token too."""
    t = table("ii")
    for token in (None, "", "nonsense", t.invite_token):
        with pytest.raises(Unauthorized):
            service.viewer(t.id, token)
    with pytest.raises(Unauthorized):
        service.join(t.id, "wrong invite", "Mallory")
    assert service.viewer(t.id, t.gm_token).is_gm


def test_a_restarted_service_rebuilds_the_same_state(table: Open) -> None:
    """Replaying the stored log on start-up gives back the cached state, undo included."""
    t = table("ascend")
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    t.send(t.gm, susan_test())
    t.send(t.gm, susan_test())
    t.send(t.gm, {"do": "undo"})
    t.send(t.gm, {"do": "end_scene"})
    fresh = TableService(t.service.store)
    assert fresh.load_all() == 1
    for role in ("gm", "player"):
        live, replayed = t.service.ledger(t.id), fresh.ledger(t.id)
        assert live.system.view(live.state, role) == replayed.system.view(replayed.state, role)
    assert fresh.ledger(t.id).version == t.version


def test_two_services_on_one_database_keep_optimistic_concurrency(tmp_path: Path) -> None:
    """Two services on one SQLite file (as two processes): the stale one is refused, catches up, retries."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first_store, second_store = open_store(url), open_store(url)
    first, second = TableService(first_store), TableService(second_store)
    made = first.create_campaign("Shared", "ascend")
    gm = Viewer("gm")
    version = second.ledger(made.id).version  # the second process has loaded the campaign
    first.command(made.id, gm, {"do": "note", "text": "from the first"}, version)
    with pytest.raises(StaleVersion):
        second.command(made.id, gm, {"do": "note", "text": "from the second"}, version)
    caught_up = second.ledger(made.id).version
    assert caught_up == first.ledger(made.id).version
    second.command(made.id, gm, {"do": "note", "text": "from the second"}, caught_up)
    joined = first.join(made.id, made.invite_token, "Pia")
    assert second.viewer(made.id, joined.player_token).player_id == joined.player_id
    third_store = open_store(url)
    assert [n.text for n in TableService(third_store).ledger(made.id).notes()] == [
        "from the first",
        "from the second",
    ]
    for store in (first_store, second_store, third_store):
        store.close()


def test_undo_naming_an_entry_undoes_only_that_entry_when_it_is_the_last(table: Open) -> None:
    """``entry`` names what undo should strike: the last undoable entry is undone; any other is refused."""
    t = table("ascend")
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    t.send(t.gm, susan_test(faces=[1, 2, 9]))
    ledger = t.service.ledger(t.id)
    latest = ledger.latest_undoable()
    assert latest is not None
    before = len(ledger.log)
    with pytest.raises(IllegalCommand) as refused:
        t.send(t.gm, {"do": "undo", "entry": latest.version - 1})
    assert refused.value.code == "undo_not_last" and f"#{latest.version}" in refused.value.message
    assert len(ledger.log) == before and not latest.undone
    with pytest.raises(MalformedCommand):
        t.send(t.gm, {"do": "undo", "entry": "last"})
    t.send(t.gm, {"do": "undo", "entry": latest.version})
    assert ledger.system.view(ledger.state, "gm")["tests"] == 0
    assert [e.version for e in ledger.entries if e.undone] == [latest.version]
