"""The record as a hash chain: every event a viewer sees links to the one before it by SHA-256.

Each viewer's record (the GM's, or the players' — all players see the same events) is a chain: an event's
``prev`` is the head before it (:data:`GENESIS` for the first) and its ``head`` is
``SHA-256(prev || "\\n" || canonical(event))`` over the event as that viewer receives it, without the
``prev`` and ``head`` keys and without ``schema`` (the event's schema version, :mod:`.upcast`: envelope
that is not hashed, so stamping it changed no head and older exports still verify). The canonical
encoding is JSON with sorted keys, no spaces and UTF-8 text.

Changing, inserting, deleting or reordering any event changes every head after it, so a head a client was
once shown (kept in a *receipt*) pins the whole record up to that point: ``talespin verify --receipt``
checks that each kept head lies on the exported chain. The players' chain is computed over what players
see, so it cannot depend on anything hidden from them (a GM-only note changes only the GM's chain).

>>> first = link(GENESIS, {"type": "NoteAdded", "data": {"text": "hi"}})
>>> len(first), first == link(GENESIS, {"data": {"text": "hi"}, "type": "NoteAdded"})
(64, True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .upcast import SCHEMA_KEY

__all__ = [
    "CHAIN_ALGORITHM",
    "CHAIN_KEYS",
    "GENESIS",
    "UNHASHED_KEYS",
    "Heads",
    "canonical",
    "link",
    "unlinked",
]

GENESIS: Final = "0" * 64
"""The head before the first event of every chain."""
CHAIN_ALGORITHM: Final = "sha256(prev || '\\n' || canonical-json(event))"
"""How a head is computed; named in every export so readers know what they check."""
CHAIN_KEYS: Final = frozenset({"prev", "head"})
"""The keys an event carries for its place in the chain (left out of what is hashed)."""
UNHASHED_KEYS: Final = CHAIN_KEYS | {SCHEMA_KEY}
"""Every key left out of what is hashed: the chain keys and the schema version."""


def canonical(value: Any) -> bytes:
    """The canonical encoding: JSON, sorted keys, no insignificant spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def unlinked(event: Mapping[str, Any]) -> dict[str, Any]:
    """An event without its chain keys and schema version: what its head is computed over."""
    return {key: value for key, value in event.items() if key not in UNHASHED_KEYS}


def link(prev: str, event: Mapping[str, Any]) -> str:
    """The head after ``event``, which follows the head ``prev``."""
    return hashlib.sha256(prev.encode() + b"\n" + canonical(unlinked(event))).hexdigest()


@dataclass(slots=True)
class Heads:
    """One viewer's chain, kept up to date as the log grows: ``prev``/``head`` by version, and the tip.

    ``seen`` is how many events of the log have been linked (visible or not), so extending it costs only
    the new events. A chain restored from a snapshot knows only its tip: ``prev``/``head`` of the events up
    to ``known_from`` are linked again when first needed, and must end at ``known_tip``; those of its
    newest events (above ``linked_after``) come with the snapshot: the newest page of the log links none.
    """

    seen: int = 0
    tip: str = GENESIS
    prev: dict[int, str] = field(default_factory=dict)
    head: dict[int, str] = field(default_factory=dict)
    known_from: int = 0
    known_tip: str = GENESIS
    linked_after: int = 0
    """``prev``/``head`` are known for every linked version above this one (a snapshot keeps the newest)."""

    def add(self, version: int, event: Mapping[str, Any]) -> None:
        """Link one visible event at the tip."""
        self.prev[version] = self.tip
        self.tip = self.head[version] = link(self.tip, event)
