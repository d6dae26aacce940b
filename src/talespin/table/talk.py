"""Table talk and seats: chat, whispers, removing a player, handing a character to another.

These are the table's own facts, not moves in the game: they are never command entries, so ``undo`` never
touches them, and they carry no dice. Each function checks who may do it and returns the one event to
append (or raises with nothing changed):

* ``ChatSaid`` ``{"text", "by", "name", "with"}``: said to everyone (``public``), or a *whisper*
  (visibility ``"whisper"``) between the GM and one player, ``with`` naming that player. A whisper is a
  secret as GM-only notes are: :mod:`.views` gives it to the GM and that one player only, so its text is
  absent from everything any other player receives (state, events, export, live frames).
* ``PlayerRemoved`` ``{"player_id", "name"}`` (GM only): the player's token stops working and the
  characters it owned pass to the GM.
* ``CharacterHanded`` ``{"character", "to", "from"}`` (GM only): a character's owner becomes another player
  (``to``: a player id) or the GM (``to``: ``None``).
"""

from __future__ import annotations

from typing import Any, Final

from ..store.port import NewEvent
from ..systems import IllegalCommand, MalformedCommand
from .auth import Viewer
from .errors import Forbidden
from .ledger import Ledger

__all__ = ["MAX_CHAT", "WHISPER", "chat_event", "hand_event", "remove_event"]

MAX_CHAT: Final = 1000
"""The longest chat message, in characters."""
WHISPER: Final = "whisper"
"""The visibility of a whisper: the GM and the player named by ``with`` see it, nobody else."""


def chat_event(ledger: Ledger, viewer: Viewer, text: Any, to: Any) -> NewEvent:
    """A message to the table, or a whisper: a player's to the GM (``to: "gm"``), the GM's to a player."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHAT:
        raise MalformedCommand(f"a message needs some text, at most {MAX_CHAT} characters", path="text")
    data: dict[str, Any] = {"text": text.strip(), "by": viewer.label, "name": _speaker(viewer), "with": None}
    if to is None or to == "":
        return NewEvent("ChatSaid", data, "public")
    if not isinstance(to, str):
        raise MalformedCommand('to must be "gm" or a player id', path="to")
    if viewer.is_gm:
        if to not in ledger.players:
            raise MalformedCommand("a GM's whisper goes to a player at this table: no such player", path="to")
        data["with"] = to
    else:
        if to != "gm":
            raise Forbidden("a player whispers to the GM only")
        data["with"] = viewer.player_id
    return NewEvent("ChatSaid", data, WHISPER)


def _speaker(viewer: Viewer) -> str:
    return "GM" if viewer.is_gm else (viewer.name or "a player")


def remove_event(ledger: Ledger, viewer: Viewer, player_id: Any) -> NewEvent:
    """The GM removes a player from the table."""
    if not viewer.is_gm:
        raise Forbidden("only the GM may remove a player")
    if not isinstance(player_id, str) or player_id not in ledger.players:
        raise MalformedCommand("player_id must name a player at this table", path="player_id")
    return NewEvent(
        "PlayerRemoved", {"player_id": player_id, "name": ledger.players[player_id]}, "public", "gm"
    )


def hand_event(ledger: Ledger, viewer: Viewer, character: Any, to: Any) -> NewEvent:
    """The GM hands a character to another player (or takes it for the GM: ``to`` is ``None``)."""
    if not viewer.is_gm:
        raise Forbidden("only the GM may hand a character to someone else")
    owners = ledger.owners()
    if not isinstance(character, str) or character not in owners:
        raise MalformedCommand("character must name a character at this table", path="character")
    if to is not None and (not isinstance(to, str) or to not in ledger.players):
        raise MalformedCommand("to must be a player id at this table, or null for the GM", path="to")
    if owners[character] == to:
        who = "the GM" if to is None else ledger.players[to]
        raise IllegalCommand(f"{character} is already played by {who}", code="same_owner")
    data = {"character": character, "to": to, "from": owners[character]}
    return NewEvent("CharacterHanded", data, "public", "gm")
