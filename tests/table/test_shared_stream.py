"""Players without a whisper share one stream: what each receives is exactly its own stream built alone.

A session of three players with public and GM-only notes, whispers with two of them (the first at different
moments), a blind roll held and revealed, and an undo. After every step, each player's stream (read through
the shared one, or through its own once forked) must equal, event for event, number for number and link for
link, a stream made for that player alone over the same ledger, as if no player shared anything.
"""

from __future__ import annotations

from typing import Any

from determinism import counter, seeds
from table_fakes import MemoryStore
from table_sheets import SUSAN, susan_test

from talespin.table import TableService, Viewer
from talespin.table.stream import SHARED, Stream, stream
from talespin.table.views import state_json, visible_events

FIXED_TIME = "2026-01-01T00:00:00.000000+00:00"


def _alone(service: TableService, campaign_id: str, viewer: Viewer) -> Stream:
    """The player's stream made from scratch for it alone."""
    ledger = service.ledger(campaign_id)
    alone = Stream(viewer.player_id)
    alone.extend(ledger)
    return alone


def _same(mine: Stream, alone: Stream) -> None:
    assert mine.events == alone.events
    assert mine.numbers == alone.numbers
    assert mine.stand_ins == alone.stand_ins
    assert mine.released_at == alone.released_at
    assert (mine.heads.tip, mine.heads.prev, mine.heads.head) == (
        alone.heads.tip,
        alone.heads.prev,
        alone.heads.head,
    )


def test_every_players_stream_is_what_it_would_be_alone() -> None:
    """Step by step, with players reading at different moments (some never until the end)."""
    sources = {"clock": lambda: FIXED_TIME, "ids": counter("id-"), "tokens": counter("t-", 8)}
    service = TableService(MemoryStore(), seeds=seeds("same"), **sources)
    made = service.create_campaign("Shared", "ascend")
    campaign_id = made.id
    gm = Viewer("gm")
    players = []
    for name in ("Pia", "Quinn", "Rae"):
        joined = service.join(campaign_id, made.invite_token, name)
        players.append(service.viewer(campaign_id, joined.player_token))
    pia, quinn, rae = players

    def command(who: Viewer, body: dict[str, Any]) -> None:
        service.command(campaign_id, who, body, service.version(campaign_id, who))

    steps: list[tuple[str, Any]] = [
        ("gm", {"do": "add_character", "sheet": SUSAN}),
        ("gm", {"do": "note", "text": "public"}),
        ("gm", {"do": "note", "text": "for the GM", "visibility": "gm"}),
        ("say", (gm, "psst, Quinn", quinn.player_id)),
        ("gm", susan_test(visibility="gm")),  # a blind roll: held for every player
        ("say", (pia, "hello all", None)),
        ("gm", {"do": "note", "text": "behind the blind roll"}),
        ("reveal", None),
        ("say", (rae, "to the GM only", "gm")),
        ("gm", {"do": "note", "text": "to be undone"}),
        ("gm", {"do": "undo"}),
        ("say", (gm, "psst again, Quinn", quinn.player_id)),
        ("gm", susan_test()),
    ]
    readers = [[pia], [], [quinn, rae], [pia], [], [rae], [pia, quinn], [], [pia], [], [quinn], [], []]
    for (kind, body), reading in zip(steps, readers, strict=True):
        if kind == "gm":
            command(gm, body)
        elif kind == "say":
            who, text, to = body
            service.say(campaign_id, who, text, to=to)
        else:
            held = service.state(campaign_id, gm)["pending"]["entries"]
            command(gm, {"do": "reveal", "entry": held[0]})
        for viewer in reading:
            with service.locked(campaign_id):
                ledger = service.ledger(campaign_id)
                _same(stream(ledger, viewer), _alone(service, campaign_id, viewer))
    with service.locked(campaign_id):
        ledger = service.ledger(campaign_id)
        for viewer in players:
            _same(stream(ledger, viewer), _alone(service, campaign_id, viewer))
            assert visible_events(ledger, viewer, ledger.log[-2:]) == _alone(
                service, campaign_id, viewer
            ).released_by(ledger.log[-2].version, ledger.log[-1].version)
            assert state_json(ledger, viewer)["version"] == _alone(service, campaign_id, viewer).number
        # Quinn and Rae had whispers: each has a stream of its own; Pia still reads the shared one
        assert set(ledger.streams) == {SHARED, f"player:{quinn.player_id}", f"player:{rae.player_id}"}
        assert stream(ledger, pia) is ledger.streams[SHARED]
