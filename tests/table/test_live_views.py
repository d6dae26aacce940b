"""Live frames: rendered without waiting (the same events as the waiting path, or none while a command runs),
and the state frame written once per version and viewer, cut to what that viewer may see."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from table_sheets import SUSAN

from talespin.table import TableService, Viewer, views


def test_a_fresh_event_renders_alike_without_waiting(
    service: TableService, table: Callable[[str], Any]
) -> None:
    t = table("ascend")
    player = t.join("Pia")
    before = t.version
    t.send(t.gm, {"do": "note", "text": "The storm breaks.", "visibility": "gm"})
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    fresh = service.store.events(t.id, after=before)
    for viewer in (t.gm, player):
        now = service.visible_now(t.id, viewer, fresh)
        assert now == service.visible(t.id, viewer, fresh)
    assert [e["type"] for e in service.visible_now(t.id, t.gm, fresh) or []] != [
        e["type"] for e in service.visible_now(t.id, player, fresh) or []
    ], "the GM's note is not the player's to see"


def test_nothing_is_rendered_while_a_command_holds_the_campaign(
    service: TableService, table: Callable[[str], Any]
) -> None:
    t = table("ascend")
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    fresh = service.store.events(t.id, after=t.version - 1)
    with service.locked(t.id):
        assert service.visible_now(t.id, t.gm, fresh) is None
    assert service.visible_now(t.id, t.gm, fresh) == service.visible(t.id, t.gm, fresh)


def test_a_campaign_not_loaded_here_is_left_to_the_waiting_path(service: TableService) -> None:
    assert service.visible_now("no-such-campaign", Viewer("gm"), []) is None


def test_a_state_text_is_written_once_per_version_and_viewer(
    service: TableService, table: Callable[[str], Any]
) -> None:
    """Every socket of one viewer is sent the same text; a new version writes it again."""
    t = table("ascend")
    player = t.join("Pia")
    first = service.live_state_text(t.id, player)
    assert service.live_state_text(t.id, player) is first
    assert json.loads(first) == service.state(t.id, player)
    t.send(t.gm, {"do": "note", "text": "Out loud."})
    again = service.live_state_text(t.id, player)
    assert again is not first and json.loads(again)["notes"][-1]["text"] == "Out loud."


def test_a_players_state_frame_is_the_same_whatever_the_gm_keeps_hidden(
    service: TableService, table: Callable[[str], Any]
) -> None:
    """Two tables that differ only by GM-only notes send a player the same frame, byte for byte."""
    frames = []
    for secrets in (0, 3):
        t = table("ascend")
        player = t.join("Pia")
        for n in range(secrets):
            t.send(t.gm, {"do": "note", "text": f"secret {n}", "visibility": "gm"})
        t.send(t.gm, {"do": "note", "text": "Out loud."})
        state = json.loads(service.live_state_text(t.id, player))
        assert state["notes_total"] == 1
        # ids, tokens and the seeds' commitments are drawn afresh for each table; the rest must be equal
        drawn = {"id", "head", "player_id", "players", "seeds"}
        frames.append({k: v for k, v in state.items() if k not in drawn})
    assert frames[0] == frames[1]


def test_the_state_carries_the_newest_notes_and_counts_them_all(
    service: TableService, table: Callable[[str], Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``NOTES_SHOWN`` the state holds the newest notes only; ``notes_total`` counts what the viewer may
    see, and the older notes are in the log."""
    monkeypatch.setattr(views, "NOTES_SHOWN", 3)
    t = table("ascend")
    player = t.join("Pia")
    for n in range(5):
        t.send(t.gm, {"do": "note", "text": f"public {n}"})
    t.send(t.gm, {"do": "note", "text": "secret", "visibility": "gm"})
    gm, seen = service.state(t.id, t.gm), service.state(t.id, player)
    assert [n["text"] for n in gm["notes"]] == ["public 3", "public 4", "secret"] and gm["notes_total"] == 6
    assert [n["text"] for n in seen["notes"]] == ["public 2", "public 3", "public 4"]
    assert seen["notes_total"] == 5
    logged = [e["data"]["text"] for e in service.events(t.id, player) if e["type"] == "NoteAdded"]
    assert logged == [f"public {n}" for n in range(5)]


def test_events_rendered_ahead_are_what_each_watching_viewer_receives(
    service: TableService, table: Callable[[str], Any]
) -> None:
    """With viewers watching, each batch is rendered as it is taken in: the same events and texts the waiting
    path gives each of them (a whisper and a GM-only note included), and nothing for viewers not watching."""
    t = table("ascend")
    pia, quinn, rae = t.join("Pia"), t.join("Quinn"), t.join("Rae")
    watching = [t.gm, pia, quinn]
    service.render_ahead(lambda campaign_id: watching if campaign_id == t.id else [])
    steps: list[Callable[[], Any]] = [
        lambda: t.send(t.gm, {"do": "add_character", "sheet": SUSAN}),
        lambda: service.say(t.id, t.gm, "psst", to=quinn.player_id),
        lambda: t.send(t.gm, {"do": "note", "text": "for the GM", "visibility": "gm"}),
        lambda: t.send(t.gm, {"do": "note", "text": "for all"}),
    ]
    for step in steps:
        before = t.version
        step()
        fresh = service.store.events(t.id, after=before)
        for viewer in watching:
            ready = service.rendered(t.id, viewer, fresh)
            assert ready is not None
            events, texts = ready
            assert events == service.visible(t.id, viewer, fresh)
            assert texts == [views.json_text(event) for event in events]
        assert service.rendered(t.id, rae, fresh) is None
