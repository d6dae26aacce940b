"""What each viewer may see, cut out on the server.

The GM sees every event but the server's own (``"server"``: a seed before its reveal). A player sees public
events only: a rule-system event passes through the system's ``redact`` (a blind roll becomes the bare fact
that a roll happened) and anything still not public is dropped, so a GM-only Trigger, note or blind roll
never reaches a player in any form. A whisper (:mod:`.talk`) reaches the GM and the one player it is
with, no one else. The state comes from the system's ``view(state, role)``, wrapped with
the table's own facts (players, owners, notes, seeds, what undo would undo).

Each role's events form a hash chain (:mod:`.chain`): every event a viewer receives carries ``prev`` and
``head``, and the state carries the ``head`` of the viewer's chain, so a client can keep what it was shown.
Whispers are the exception: they are in no chain (see :func:`chain`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..store.port import StoredEvent
from ..systems import Role
from .auth import Viewer
from .chain import Heads
from .ledger import TABLE_EVENTS, Ledger, system_event
from .talk import WHISPER

__all__ = ["chain", "event_json", "head", "state_json", "visible_events"]


def event_json(ledger: Ledger, viewer: Viewer, stored: StoredEvent) -> dict[str, Any] | None:
    """One recorded event as ``viewer`` may see it, or ``None`` when it must not see it at all."""
    if stored.visibility == "server":
        return None
    kind, data, visibility = stored.type, dict(stored.data), stored.visibility
    if not viewer.is_gm:
        if kind in TABLE_EVENTS:
            whispered_to_me = visibility == WHISPER and data.get("with") == viewer.player_id
            if visibility != "public" and not whispered_to_me:
                return None
        else:
            redacted = ledger.system.redact(system_event(stored))
            if redacted is None or redacted.visibility != "public":
                return None
            kind, data, visibility = redacted.type, dict(redacted.data), redacted.visibility
    return {
        "version": stored.version,
        "type": kind,
        "data": data,
        "visibility": visibility,
        "actor": stored.actor,
        "at": stored.at,
        "entry": ledger.entry_of(stored.version),
    }


def _link(ledger: Ledger, viewer: Viewer, heads: Heads, events: Iterable[StoredEvent]) -> None:
    for stored in events:
        shown = event_json(ledger, viewer, stored)
        # A whisper is left out of every chain: the players' chain is shared by all players, so it may hold
        # only what every player sees, and a whisper's text reaches the GM and one player only. (Public chat
        # is an event every viewer sees alike, so it is linked like any other.) A whisper carries no
        # ``prev``/``head`` and no receipt pins it.
        if shown is not None and shown["visibility"] != WHISPER:
            heads.add(stored.version, shown)
        heads.seen += 1


def chain(ledger: Ledger, viewer: Viewer) -> Heads:
    """The viewer's hash chain, linked up to the ledger's newest event."""
    role = "gm" if viewer.is_gm else "player"
    heads = ledger.chains.setdefault(role, Heads())
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
    heads.known_from, heads.known_tip = 0, older.tip


def head(ledger: Ledger, viewer: Viewer) -> str:
    """The head of the viewer's chain now."""
    return chain(ledger, viewer).tip


def visible_events(ledger: Ledger, viewer: Viewer, events: Iterable[StoredEvent]) -> list[dict[str, Any]]:
    """The events ``viewer`` may see, in order, each with its ``prev`` and ``head`` in the viewer's chain."""
    heads = chain(ledger, viewer)
    events = list(events)
    if events and heads.known_from and events[0].version <= heads.known_from:
        _relink(ledger, viewer, heads)
    shown = []
    for stored in events:
        event = event_json(ledger, viewer, stored)
        if event is not None:
            if stored.version in heads.head:  # a whisper has no place in any chain
                event["prev"], event["head"] = heads.prev[stored.version], heads.head[stored.version]
            shown.append(event)
    return shown


def state_json(ledger: Ledger, viewer: Viewer) -> dict[str, Any]:
    """The campaign as ``viewer`` may see it, with its ``version``."""
    role: Role = "gm" if viewer.is_gm else "player"
    undoable = ledger.latest_undoable()
    return {
        "id": ledger.campaign_id,
        "name": ledger.name,
        "system": ledger.system_name,
        "variant": dict(ledger.variant),
        "version": ledger.version,
        "head": head(ledger, viewer),
        "role": role,
        "player_id": viewer.player_id,
        "players": [{"id": pid, "name": name} for pid, name in ledger.players.items()],
        "owners": ledger.owners(),
        "physical_dice": ledger.physical_dice,
        "state": ledger.system.view(ledger.state, role),
        "notes": [
            {"entry": n.entry, "text": n.text, "visibility": n.visibility, "by": n.by}
            for n in ledger.notes()
            if viewer.is_gm or n.visibility == "public"
        ],
        "seeds": [
            {
                "number": s.number,
                "commitment": s.sha256,
                "revealed": s.revealed,
                "seed": s.seed.hex() if s.revealed and s.seed is not None else None,
            }
            for s in sorted(ledger.seeds.values(), key=lambda s: s.number)
        ],
        "undoable": (
            undoable.version
            if undoable is not None and (viewer.is_gm or undoable.visibility == "public")
            else None
        ),
    }
