"""Schema versions of recorded events, and the upcasters that read an older record at today's version.

Every event the table sends or exports carries ``"schema"``: the version of the event envelope and payload
shapes it was written in (:data:`EVENT_SCHEMA`). A record read back (an export given to ``talespin
verify``, a log replayed into a ledger) is upcast first: each event is brought, one version at a time, to
:data:`EVENT_SCHEMA` by the registered upcasters, so the rules' ``evolve`` only ever sees today's shapes.

An event without ``"schema"`` was written before versions were recorded: it is version 0. An event from a
newer schema than this code knows is refused with :class:`SchemaError` (a ``ValueError``), never guessed at.

``schema`` is envelope, as ``prev`` and ``head`` are: it is left out of what the hash chain covers
(:mod:`.chain`), so adding it changed no head, and a record exported before it existed still verifies.

An upcaster is a pure function: ``(event, from_version) -> event`` one version up; it never changes its
argument.

The store keeps each event's version too (``events.schema_version``, :attr:`.StoredEvent.schema`): the
service writes every event at :data:`EVENT_SCHEMA` (:func:`written`) and the ledger reads every one through
:func:`upcast_stored`, so a campaign written by older code replays through the same upcasters as its export.

>>> upcast({"version": 1, "type": "NoteAdded", "data": {"text": "hi"}})["schema"]
1
>>> try:
...     upcast({"version": 1, "type": "NoteAdded", "data": {}, "schema": 9})
... except SchemaError as error:
...     print(error)
event 1 (NoteAdded) is in event schema 9; this talespin reads schemas 0 to 1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from ..store.port import NewEvent, StoredEvent

__all__ = [
    "EVENT_SCHEMA",
    "SCHEMA_KEY",
    "UPCASTERS",
    "SchemaError",
    "schema_of",
    "upcast",
    "upcast_all",
    "upcast_stored",
    "written",
]

EVENT_SCHEMA: Final = 1
"""The schema version today's code writes on every event."""
SCHEMA_KEY: Final = "schema"
"""The key of an event that holds its schema version (absent means version 0)."""

Upcaster = Callable[[Mapping[str, Any], int], dict[str, Any]]
"""Brings an event of schema ``from_version`` to ``from_version + 1``, as a new mapping."""


class SchemaError(ValueError):
    """An event whose schema version this code cannot read."""


def _stamp_version_0(event: Mapping[str, Any], from_version: int) -> dict[str, Any]:
    """Version 0 (no ``schema`` key) had the shapes of version 1: only the key is added."""
    return {**event, SCHEMA_KEY: from_version + 1}


UPCASTERS: Final[Mapping[int, Upcaster]] = {0: _stamp_version_0}
"""The upcaster from each schema version to the next, keyed by the version it reads."""


def _named(event: Mapping[str, Any]) -> str:
    return f"event {event.get('version', '?')} ({event.get('type', '?')})"


def schema_of(event: Mapping[str, Any]) -> int:
    """The schema version ``event`` was written in (0 when it has no ``schema`` key)."""
    value = event.get(SCHEMA_KEY, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SchemaError(f"{_named(event)} has schema {value!r}; expected a whole number from 0")
    return value


def upcast(event: Mapping[str, Any]) -> dict[str, Any]:
    """``event`` at :data:`EVENT_SCHEMA` (:class:`SchemaError` if it is newer than that, or malformed)."""
    version = schema_of(event)
    if version > EVENT_SCHEMA:
        raise SchemaError(
            f"{_named(event)} is in event schema {version}; this talespin reads schemas 0 to {EVENT_SCHEMA}"
        )
    current = dict(event)
    while version < EVENT_SCHEMA:
        current = UPCASTERS[version](current, version)
        version += 1
    return current


def upcast_all(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every event of a record at :data:`EVENT_SCHEMA`, in order."""
    return [upcast(event) for event in events]


def upcast_stored(stored: StoredEvent) -> StoredEvent:
    """``stored`` at :data:`EVENT_SCHEMA`, upcast from the version the store recorded it in.

    >>> old = StoredEvent("c", 1, "NoteAdded", {"text": "hi"}, "public", None, "", 0)
    >>> upcast_stored(old).schema
    1
    """
    if stored.schema == EVENT_SCHEMA:
        return stored
    raw = upcast(
        {
            "version": stored.version,
            "type": stored.type,
            "data": stored.data,
            "visibility": stored.visibility,
            "actor": stored.actor,
            "at": stored.at,
            SCHEMA_KEY: stored.schema,
        }
    )
    return StoredEvent(
        stored.campaign_id,
        int(raw["version"]),
        str(raw["type"]),
        dict(raw["data"]),
        str(raw["visibility"]),
        raw["actor"],
        str(raw["at"]),
        EVENT_SCHEMA,
    )


def written(new: Sequence[NewEvent]) -> list[NewEvent]:
    """``new`` as the table writes it: each event marked with :data:`EVENT_SCHEMA`, today's shapes."""
    return [event if event.schema == EVENT_SCHEMA else replace(event, schema=EVENT_SCHEMA) for event in new]
