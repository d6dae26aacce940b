"""What each viewer may see, cut out on the server.

The GM sees every event but the server's own (``"server"``: a seed before its reveal), numbered by the log's
versions. A player receives its own *stream* (:mod:`.stream`): public events only, numbered by itself, so a
GM-only Trigger or note never reaches a player in any form, not even as a gap in the numbers; a blind roll
and everything after it is held back and stood in for until the GM reveals it (:mod:`.release`). A whisper
(:mod:`.talk`) reaches the GM and the one player it is with, no one else. The state comes from the system's
``view(state, role)`` of the state the viewer knows (a player's: what was released to it), wrapped with
the table's own facts (players, owners, notes, seeds, what undo would undo, what is pending) and the
commands the viewer may send now (``legal``, :mod:`.legal`).

Each role's events form a hash chain (:mod:`.chain`): every event a viewer receives carries ``prev`` and
``head``, and the state carries the ``head`` of the viewer's chain, so a client can keep what it was shown.
Whispers are the exception: they are in no chain (see :func:`chain`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..store.port import StoredEvent
from ..systems import Role
from .auth import Viewer
from .chain import Heads
from .ledger import Ledger
from .legal import legal_json
from .stream import stream
from .talk import WHISPER

__all__ = [
    "chain",
    "event_json",
    "events_after",
    "head",
    "json_text",
    "notes_json",
    "pending_json",
    "state_json",
    "version_for",
    "visible_events",
]


json_text = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
"""A view (a state, a list of events) as compact JSON text: what the live feed writes in its frames."""


def event_json(ledger: Ledger, viewer: Viewer, stored: StoredEvent) -> dict[str, Any] | None:
    """One recorded event as the GM sees it (``None`` for the server's own); players read their stream."""
    if stored.visibility == "server":
        return None
    if not viewer.is_gm:
        raise ValueError("a player's events come from its stream (player_events), not one by one")
    return {
        "version": stored.version,
        "type": stored.type,
        "data": dict(stored.data),
        "visibility": stored.visibility,
        "actor": stored.actor,
        "at": stored.at,
        "entry": ledger.entry_of(stored.version),
        "schema": stored.schema,
    }


def _link(ledger: Ledger, viewer: Viewer, heads: Heads, events: Iterable[StoredEvent]) -> None:
    for stored in events:
        shown = event_json(ledger, viewer, stored)
        # A whisper is left out of every chain: a whisper's text reaches the GM and one player only, and the
        # receipt of a player's chain can be checked against the GM's export. A whisper carries no
        # ``prev``/``head`` and no receipt pins it.
        if shown is not None and shown["visibility"] != WHISPER:
            heads.add(stored.version, shown)
        heads.seen += 1


def chain(ledger: Ledger, viewer: Viewer) -> Heads:
    """The viewer's hash chain, linked up to the ledger's newest event (a player's is in its stream)."""
    if not viewer.is_gm:
        return stream(ledger, viewer).heads
    heads = ledger.chains.setdefault("gm", Heads())
    _link(ledger, viewer, heads, ledger.log[heads.seen :])
    return heads


def _relink(ledger: Ledger, viewer: Viewer, heads: Heads) -> None:
    """Link the events a snapshot left out of the chain again, checking they end where the snapshot's did."""
    older = Heads()
    _link(ledger, viewer, older, ledger.log[: heads.known_from])
    if older.tip != heads.known_tip:
        raise LookupError("the stored events do not end at the hash chain's head of the snapshot")
    heads.prev.update(older.prev)
    heads.head.update(older.head)
    heads.known_from, heads.known_tip, heads.linked_after = 0, older.tip, 0


def head(ledger: Ledger, viewer: Viewer) -> str:
    """The head of the viewer's chain now."""
    return chain(ledger, viewer).tip


def version_for(ledger: Ledger, viewer: Viewer) -> int:
    """The version as ``viewer`` counts it: the ledger's for the GM, the player's own numbering otherwise."""
    return ledger.version if viewer.is_gm else stream(ledger, viewer).number


def visible_events(ledger: Ledger, viewer: Viewer, events: Iterable[StoredEvent]) -> list[dict[str, Any]]:
    """What ``viewer`` receives because of ``events`` (recorded, in order), each with ``prev``/``head``.

    For the GM, the events themselves; for a player, the items of its stream these events released (a
    reveal releases the held entries; a held entry releases only its stand-in).
    """
    if not viewer.is_gm:
        versions = [stored.version for stored in events]
        if not versions:
            return []
        return stream(ledger, viewer).released_by(min(versions), max(versions))
    heads = chain(ledger, viewer)
    events = list(events)
    if events and heads.known_from and events[0].version <= heads.linked_after:
        _relink(ledger, viewer, heads)
    shown = []
    for stored in events:
        event = event_json(ledger, viewer, stored)
        if event is not None:
            if stored.version in heads.head:  # a whisper has no place in any chain
                event["prev"], event["head"] = heads.prev[stored.version], heads.head[stored.version]
            shown.append(event)
    return shown


def events_after(ledger: Ledger, viewer: Viewer, after: int) -> list[dict[str, Any]]:
    """Every event ``viewer`` received after its version ``after`` (in its own numbering)."""
    if viewer.is_gm:
        return visible_events(ledger, viewer, ledger.log[max(after, 0) :])
    return stream(ledger, viewer).after(after)


def state_json(ledger: Ledger, viewer: Viewer) -> dict[str, Any]:
    """The campaign as ``viewer`` may see it, with its ``version``."""
    role: Role = "gm" if viewer.is_gm else "player"
    undoable = ledger.latest_undoable()
    numbers = {} if viewer.is_gm else stream(ledger, viewer).numbers
    return {
        "id": ledger.campaign_id,
        "name": ledger.name,
        "system": ledger.system_name,
        "variant": dict(ledger.variant),
        "version": version_for(ledger, viewer),
        "head": head(ledger, viewer),
        "role": role,
        "player_id": viewer.player_id,
        "players": [{"id": pid, "name": name} for pid, name in ledger.players.items()],
        "owners": ledger.owners(),
        "physical_dice": ledger.physical_dice,
        "state": ledger.system.view(ledger.state if viewer.is_gm else ledger.release.state, role),
        "pending": pending_json(ledger, viewer),
        **notes_json(ledger, viewer, numbers),
        "seeds": [
            {
                "number": s.number,
                "commitment": s.sha256,
                "revealed": s.revealed,
                "seed": s.seed.hex() if s.revealed and s.seed is not None else None,
            }
            for s in sorted(ledger.seeds.values(), key=lambda s: s.number)
        ],
        "undoable": undoable.version if undoable is not None and viewer.is_gm else None,
        "legal": legal_json(ledger, viewer),
    }


NOTES_SHOWN = 100
"""How many of the newest notes a state carries; older ones are read from the paged log (``NoteAdded``)."""


def notes_json(ledger: Ledger, viewer: Viewer, numbers: dict[int, int]) -> dict[str, Any]:
    """The newest :data:`NOTES_SHOWN` notes ``viewer`` may see, oldest first, and how many it may see in all.

    A long campaign gathers thousands of notes; carrying every one in each state would make the state (sent
    with every batch of live events) grow without end. So ``notes`` holds the newest ones and
    ``notes_total`` counts them all; ``notes_total > len(notes)`` tells a client that older notes are in the
    log (``events?after=…&limit=…``, events of type ``NoteAdded``).
    """
    seen = [n for n in ledger.notes() if viewer.is_gm or n.visibility == "public"]
    return {
        "notes": [
            {"entry": numbers.get(n.entry, n.entry), "text": n.text, "visibility": n.visibility, "by": n.by}
            for n in seen[-NOTES_SHOWN:]
        ],
        "notes_total": len(seen),
    }


def pending_json(ledger: Ledger, viewer: Viewer) -> dict[str, Any]:
    """What players have not been shown yet: ``{"blind", "withheld", "entries"}``.

    ``blind`` counts the blind rolls whose reveal (or undo) players have not received and ``withheld``
    the command entries whose outcome players have not seen (the blind rolls and every entry after the
    first of them); the GM also gets ``entries``, the versions of the blind rolls it may ``reveal``. A
    player gets ``entries: []``.
    """
    release = ledger.release
    return {
        "blind": release.pending_blind,
        "withheld": release.withheld,
        "entries": list(release.held_blind) if viewer.is_gm else [],
    }
