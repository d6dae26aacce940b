"""A campaign's event log in memory, whose older part may still be in the store.

A ledger restored from a snapshot (:mod:`.snapshots`) knows everything the log folded to, but holds only the
events after the snapshot; the ones before it stay in the store until something asks for them (a full
export, the events of an old version, an undo reaching back past the snapshot). Then the log reads them
once through its *reader*, a function the service hands over (``reader(after, upto)`` returns the events of
versions ``after + 1 .. upto``), and keeps them.

Versions are gap-free from 1, so event *v* sits at index ``v - 1`` and ``log[after:]`` is every event
after version ``after``: reading a tail past the snapshot costs no trip to the store, and a slice reaching
before the snapshot by at most :data:`PEEK` events (a page of the log) reads only those, without keeping them.

>>> from talespin.store.port import StoredEvent
>>> older = [StoredEvent("c", v, "NoteAdded", {}, "public", None, "", 1) for v in (1, 2)]
>>> log = Log(2, lambda after, upto: older[after:upto])
>>> log.append(StoredEvent("c", 3, "NoteAdded", {}, "public", None, "", 1))
>>> len(log), [e.version for e in log[2:]], log.loaded_from
(3, [3], 2)
>>> [e.version for e in log[1:]], log.loaded_from
([2, 3], 2)
>>> [e.version for e in log], log.loaded_from
([1, 2, 3], 0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

from ..store.port import StoredEvent

__all__ = ["Log", "Reader"]

Reader = Callable[[int, int], list[StoredEvent]]
"""Reads the events of versions ``after + 1 .. upto`` from where they are kept."""


PEEK = 1000
"""At most how many of the events still in the store a slice reads without loading (and keeping) them all."""


class Log(Sequence[StoredEvent]):
    """The events of a campaign in version order; those up to ``loaded_from`` are read when first needed."""

    __slots__ = ("_events", "_loaded_from", "_reader")

    def __init__(self, loaded_from: int = 0, reader: Reader | None = None) -> None:
        """A log whose first ``loaded_from`` events are still in the store, read through ``reader``."""
        if loaded_from and reader is None:
            raise ValueError("a log that starts after version 0 needs a reader for the events before it")
        self._loaded_from = loaded_from
        self._reader = reader
        self._events: list[StoredEvent] = []

    @property
    def loaded_from(self) -> int:
        """The version after which every event is in memory (0 once the whole log is)."""
        return self._loaded_from

    def append(self, stored: StoredEvent) -> None:
        """Add the next event."""
        self._events.append(stored)

    def load(self) -> None:
        """Read the events still in the store, once, and check they are the ones the log expects."""
        if not self._loaded_from:
            return
        assert self._reader is not None
        older = self._reader(0, self._loaded_from)
        if [e.version for e in older] != list(range(1, self._loaded_from + 1)):
            raise LookupError(f"the store did not give back versions 1..{self._loaded_from} of the log")
        self._events[:0] = older
        self._loaded_from = 0

    def __len__(self) -> int:
        return self._loaded_from + len(self._events)

    @overload
    def __getitem__(self, index: int) -> StoredEvent: ...

    @overload
    def __getitem__(self, index: slice) -> list[StoredEvent]: ...

    def __getitem__(self, index: int | slice) -> StoredEvent | list[StoredEvent]:
        base = self._loaded_from
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if start >= base and step == 1:
                return self._events[start - base : max(stop - base, 0)]
            if step == 1 and 0 < min(stop, base) - start <= PEEK:  # a few older events: read, not kept
                assert self._reader is not None
                upto = min(stop, base)
                older = self._reader(start, upto)
                if [e.version for e in older] != list(range(start + 1, upto + 1)):
                    raise LookupError(f"the store did not give back versions {start + 1}..{upto} of the log")
                return older + self._events[: max(stop - base, 0)]
            self.load()
            return self._events[index]
        position = index if index >= 0 else len(self) + index
        if position < base:
            self.load()
            return self._events[position]
        if position >= len(self):
            raise IndexError("log index out of range")
        return self._events[position - base]

    def __iter__(self) -> Iterator[StoredEvent]:
        self.load()
        return iter(self._events)

    def __reversed__(self) -> Iterator[StoredEvent]:
        self.load()
        return reversed(self._events)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            return list(self) == list(other)
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]
