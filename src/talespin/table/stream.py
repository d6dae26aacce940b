"""A player's own numbering of what it receives, independent of everything hidden from it.

The GM's record is numbered by the log's versions. If players saw those numbers, every GM-only note, hidden
Trigger or blind roll would shift the numbers after it, and a player could count the GM's secrets (or the
host could move a roll by inserting hidden entries). So each player has a *stream*: the items of
:class:`~.release.Release` it may see (public ones, and whispers with it), numbered 1, 2, 3, … in the order it
received them. That number is the ``version`` of every event it receives, of its state, of ``events?after=``
and of the ``expected_version`` its commands carry; ``entry`` is the number of the entry's first event it
received. Its hash chain (:mod:`.chain`) links these events (whispers excepted) as the player got them.

A rule-system event reaches a player through the system's ``redact`` (``None`` or a GM-only result: dropped);
the events of a revealed blind roll are shown as they were recorded, marked public.

Only whispers make two players' streams differ, so the players who have had none share one stream, kept
once for all of them; a player's first whisper gives it a copy of its own (see :func:`stream`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ..systems import Event
from .auth import Viewer
from .chain import Heads
from .ledger import TABLE_EVENTS, Ledger
from .placeholders import BLIND_REVEALED
from .release import Shown
from .talk import WHISPER

__all__ = ["Stream", "stream"]


@dataclass(slots=True)
class Stream:
    """One player's events, numbered and linked, kept up to date from the shared release."""

    player_id: str | None
    seen: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    released_at: list[int] = field(default_factory=list)
    numbers: dict[int, int] = field(default_factory=dict)
    """The player's number of each entry it received (by the entry's version)."""
    stand_ins: dict[int, int] = field(default_factory=dict)
    """The player's number of each stand-in it received (by the held entry's version)."""
    heads: Heads = field(default_factory=Heads)

    @property
    def number(self) -> int:
        """How many events the player has received: its version."""
        return len(self.events)

    def after(self, number: int) -> list[dict[str, Any]]:
        """The events it received after its ``number``."""
        return [dict(event) for event in self.events[max(number, 0) :]]

    def released_by(self, first: int, last: int) -> list[dict[str, Any]]:
        """The events released by the recorded versions ``first .. last``."""
        start, end = bisect_left(self.released_at, first), bisect_right(self.released_at, last)
        return [dict(event) for event in self.events[start:end]]

    def extend(self, ledger: Ledger, *, shared: bool = False) -> None:
        """Take in what the release showed since the last call. The ``shared`` stream (of every player who
        has had no whisper) first leaves a copy, as that player's own stream, for each player whose first
        whisper it meets; the copy takes the whisper in."""
        shown = ledger.release.shown
        for index in range(self.seen, len(shown)):
            item = shown[index]
            whispered = _whispered_with(item) if shared else None
            if whispered is not None and _key(whispered) not in ledger.streams:
                ledger.streams[_key(whispered)] = self._fork(whispered, index)
            event = self._render(ledger, item)
            if event is not None:
                self._add(item, event)
        self.seen = len(shown)

    def _fork(self, player_id: str, seen: int) -> Stream:
        """A copy of this stream as ``player_id``'s own, having taken in the first ``seen`` items."""
        heads = replace(self.heads, prev=dict(self.heads.prev), head=dict(self.heads.head))
        return Stream(
            player_id,
            seen,
            list(self.events),
            list(self.released_at),
            dict(self.numbers),
            dict(self.stand_ins),
            heads,
        )

    def _add(self, item: Shown, event: dict[str, Any]) -> None:
        number = self.number + 1
        event["version"] = number
        if item.entry is not None:
            self.numbers.setdefault(item.entry, number)
            event["entry"] = self.numbers[item.entry]
        if item.stand_in:
            self.stand_ins[item.stored.version] = number
        if event["type"] == "EntryUndone":  # of an entry it received, else of the stand-in it got for it
            target = int(event["data"]["entry"])
            undone = self.numbers.get(target, self.stand_ins.get(target))
            event["data"] = {**event["data"], "entry": undone, "undone": undone}
        if event["visibility"] != WHISPER:
            self.heads.add(number, event)
            event["prev"], event["head"] = self.heads.prev[number], self.heads.head[number]
        self.events.append(event)
        self.released_at.append(item.at)

    def _render(self, ledger: Ledger, item: Shown) -> dict[str, Any] | None:
        stored = item.stored
        kind, data, visibility = stored.type, dict(stored.data), stored.visibility
        if item.revealed:
            visibility = "public"
        elif kind in TABLE_EVENTS:
            mine = visibility == WHISPER and data.get("with") == self.player_id
            if visibility != "public" and not mine:
                return None
        else:
            redacted = ledger.system.redact(Event(kind, data, "gm" if visibility == "gm" else "public"))
            if redacted is None or redacted.visibility != "public":
                return None
            kind, data, visibility = redacted.type, dict(redacted.data), redacted.visibility
        if kind == BLIND_REVEALED:
            data.pop("entry", None)  # the GM's numbering
        return {
            "version": 0,
            "type": kind,
            "data": data,
            "visibility": visibility,
            "actor": stored.actor,
            "at": stored.at,
            "entry": None,
            "schema": stored.schema,
        }


SHARED: Final = "players"
"""The key, among a ledger's streams, of the stream every player shares until its first whisper."""


def _key(player_id: str) -> str:
    return f"player:{player_id}"


def _whispered_with(item: Shown) -> str | None:
    """The player a whisper is with (``None`` for anything else): the one item players see differently."""
    stored = item.stored
    if item.revealed or stored.visibility != WHISPER or stored.type not in TABLE_EVENTS:
        return None
    partner = stored.data.get("with")
    return partner if isinstance(partner, str) else None


def stream(ledger: Ledger, viewer: Viewer) -> Stream:
    """The player's stream, brought up to the ledger's newest event.

    Until a player's first whisper, what it receives is exactly what every other player without one
    receives, so those players share one stream (numbered, rendered and linked once for all of them); at a
    player's first whisper the shared stream leaves a copy as that player's own, which goes on alone.
    """
    own: Stream | None = ledger.streams.get(_key(viewer.player_id or ""))
    if own is None:
        shared: Stream | None = ledger.streams.get(SHARED)
        if shared is None:
            shared = ledger.streams[SHARED] = Stream(None)
        shared.extend(ledger, shared=True)
        own = ledger.streams.get(_key(viewer.player_id or ""))
        if own is None:
            return shared
    own.extend(ledger)
    return own
