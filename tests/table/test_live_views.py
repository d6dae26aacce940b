"""Live frames rendered without waiting: the same events as the waiting path, or none while a command runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from table_sheets import SUSAN

from talespin.table import TableService, Viewer


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
