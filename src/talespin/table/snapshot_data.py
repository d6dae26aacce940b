"""A folded ledger as plain data and back: the body of a snapshot (:mod:`.snapshots`), checked as it is read.

The body is one JSON object of lists, objects, texts, whole numbers, booleans and ``null``; nothing in it
names a class or a function, so reading it runs nothing it says. A snapshot is untrusted input (anyone who
can write the database can write one), so every value is checked against the shape written here before a
ledger is built from it, and the first that does not fit is reported as a :class:`SnapshotError` (a
``ValueError``) with its path: ``ledger.entries[12].command must be an object``.

What the body holds (the ledger's fields but its log, its chains' older links and each player's stream,
which are rebuilt or read from the store when first needed):

* ``"events"``: the recorded events the players' side of the record keeps (what was shown, held, folded),
  each once, as ``[version, type, data, visibility, actor, at, schema]``; the others refer to them by index;
* ``"ledger"``: game state (:mod:`.state_data`), entries (each command as the index of its
  ``CommandIssued`` among the events when that event is kept there), players, owners, seeds, notes, nonces,
  settings, seats, blind rolls; ``"release"``: what the players were shown (:mod:`.release`) and the
  state they know;
* ``"chains"``: each role's hash-chain tip and the links of its newest events (:class:`.chain.Heads`);
* ``"problems"``: the entries the fold could not serve as written (:class:`.salvage.Problem`).

Sets are written as sorted lists and mappings with whole-number keys as lists, so a ledger gives the same
bytes in every process that folds the same log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, TypeVar

from ..store.port import StoredEvent
from ..systems import SystemState, get_system
from .chain import Heads
from .ledger import BlindSeed, Entry, Ledger, Note, Seed
from .pages import MAX_EVENTS_PAGE
from .release import NotStarted, Release, Shown
from .salvage import Problem
from .state_data import StateDataError, from_data, to_data

__all__ = ["SnapshotError", "ledger_data", "ledger_from_data"]

T = TypeVar("T")
Row = list[Any]

_EVENT_WIDTH: Final = 7


class SnapshotError(ValueError):
    """Bytes that are not a snapshot this code can use; the campaign is replayed from its events instead."""


# -- writing -------------------------------------------------------------------------------------------


class _Events:
    """The recorded events a body refers to by index, each written once."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self._index: dict[int, int] = {}

    def ref(self, stored: StoredEvent) -> int:
        found = self._index.get(id(stored))
        if found is None:
            found = self._index[id(stored)] = len(self.rows)
            self.rows.append(
                [
                    stored.version,
                    stored.type,
                    dict(stored.data),
                    stored.visibility,
                    stored.actor,
                    stored.at,
                    stored.schema,
                ]
            )
        return found


def _state(state: SystemState, path: str) -> Any:
    return None if isinstance(state, NotStarted) else to_data(state, type(state), path)


def _flat(pairs: Mapping[int, int]) -> list[int]:
    return [number for pair in pairs.items() for number in pair]


def ledger_data(ledger: Ledger, problems: Iterable[Problem]) -> dict[str, Any]:
    """The body of ``ledger``'s snapshot (its chains linked up to its newest event), without the header."""
    events = _Events()
    body = {
        "ledger": _ledger(ledger, events),
        "release": _release(ledger.release, events),
        "chains": {role: _heads(heads) for role, heads in ledger.chains.items()},
        "problems": [[p.version, p.type, p.reason] for p in problems],
    }
    body["events"] = events.rows
    return body


def _commands(ledger: Ledger, events: _Events) -> list[Any]:
    """Each entry's command: the index of its ``CommandIssued`` among the events, else the command itself."""
    issued = {
        shown.stored.version: shown.stored
        for shown in ledger.release.shown
        if shown.stored.type == "CommandIssued" and not shown.stand_in
    }
    commands: list[Any] = []
    for entry in ledger.entries:
        stored = issued.get(entry.version)
        same = stored is not None and stored.data.get("command") == entry.command
        commands.append(events.ref(stored) if same and stored is not None else dict(entry.command))
    return commands


def _ledger(ledger: Ledger, events: _Events) -> dict[str, Any]:
    commands = _commands(ledger, events)
    return {
        "name": ledger.name,
        "system": ledger.system_name,
        "variant": dict(ledger.variant),
        "state": _state(ledger.state, "ledger.state"),
        "entries": [
            [e.version, command, e.by, e.handled_by, e.visibility, e.last, e.undone]
            for e, command in zip(ledger.entries, commands, strict=True)
        ],
        "players": dict(ledger.players),
        "seeds": [[s.number, s.sha256, _hex(s.seed), s.revealed] for s in ledger.seeds.values()],
        "entry_of": _flat(ledger._entry_of),
        "undone": sorted(ledger._undone),
        "notes": [[n.entry, n.text, n.visibility, n.by] for n in ledger._notes],
        "owners": dict(ledger._owners),
        "physical_dice": ledger.physical_dice,
        "nonces": [list(nonce) for nonce in sorted(ledger._nonces)],
        "removed": sorted(ledger.removed),
        "invite_hash": ledger.invite_hash,
        "settings": [list(setting) for setting in ledger._settings],
        "blind_reveal": ledger.blind_reveal,
        "reveal_settings": [list(setting) for setting in ledger._reveal_settings],
        "seatings": [
            ["entry", fact.version] if isinstance(fact, Entry) else ["event", events.ref(fact)]
            for fact in ledger._seatings
        ],
        "blind": [[b.number, b.entry, b.sha256, _hex(b.seed), b.revealed] for b in ledger.blind.values()],
    }


def _hex(seed: bytes | None) -> str | None:
    return None if seed is None else seed.hex()


def _release(release: Release, events: _Events) -> dict[str, Any]:
    return {
        "system": release.system_name,
        "variant": dict(release.variant),
        "state": _state(release.state, "release.state"),
        "shown": [[s.at, events.ref(s.stored), s.entry, s.revealed, s.stand_in] for s in release.shown],
        "held_blind": list(release.held_blind),
        "revealed_blind": sorted(release.revealed_blind),
        "blind_entries": _flat(release._blind_entries),
        "revealed_numbers": sorted(release._revealed_numbers),
        "held": [[events.ref(stored), entry] for stored, entry in release._held],
        "held_entries": sorted(release._held_entries),
        "events": [[events.ref(stored), entry] for stored, entry in release._events],
        "undone": sorted(release._undone),
        "unseen_held": sorted(release._unseen_held),
        "cancelled_blind": sorted(release.cancelled_blind),
        "undo_held": sorted(release._undo_held),
    }


def _heads(heads: Heads) -> dict[str, Any]:
    """A chain's tip and the links of its newest :data:`~.pages.MAX_EVENTS_PAGE` versions.

    The page a client opens first after a restart is then served without linking the whole log again
    (older pages link it once, when first read).
    """
    after = max(heads.seen - MAX_EVENTS_PAGE, heads.linked_after if heads.known_from else 0)
    return {
        "seen": heads.seen,
        "tip": heads.tip,
        "after": after,
        "links": [
            [version, heads.prev[version], link] for version, link in heads.head.items() if version > after
        ],
    }


# -- reading, checking every shape ---------------------------------------------------------------------


def _fail(path: str, expected: str) -> SnapshotError:
    return SnapshotError(f"{path} must be {expected}")


def _int(value: Any, path: str) -> int:
    if type(value) is not int:
        raise _fail(path, "a whole number")
    return value


def _ints(value: Any, path: str) -> list[int]:
    items = _list(value, path)
    if not all(type(item) is int for item in items):
        raise _fail(path, "a list of whole numbers")
    return items


def _str(value: Any, path: str) -> str:
    if type(value) is not str:
        raise _fail(path, "a text")
    return value


def _strs(value: Any, path: str) -> list[str]:
    items = _list(value, path)
    if not all(type(item) is str for item in items):
        raise _fail(path, "a list of texts")
    return items


def _opt_str(value: Any, path: str) -> str | None:
    if value is not None and type(value) is not str:
        raise _fail(path, "a text or null")
    return value


def _opt_int(value: Any, path: str) -> int | None:
    if value is not None and type(value) is not int:
        raise _fail(path, "a whole number or null")
    return value


def _bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise _fail(path, "true or false")
    return value


def _obj(value: Any, path: str) -> dict[str, Any]:
    if type(value) is not dict:
        raise _fail(path, "an object")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if type(value) is not list:
        raise _fail(path, "a list")
    return value


def _rows(value: Any, path: str, width: int) -> list[Row]:
    """A list of lists of ``width`` items each."""
    rows = _list(value, path)
    for index, row in enumerate(rows):
        if type(row) is not list or len(row) != width:
            raise _fail(f"{path}[{index}]", f"a list of {width} items")
    return rows


def _pairs(value: Any, path: str) -> dict[int, int]:
    """A mapping of whole numbers written flat: ``[key, value, key, value, …]``."""
    flat = _ints(value, path)
    if len(flat) % 2:
        raise _fail(path, "a list of key and value pairs")
    numbers = iter(flat)
    return dict(zip(numbers, numbers, strict=True))


def _texts(value: Any, path: str, optional: bool = False) -> dict[str, Any]:
    """An object whose values are texts (or ``null`` when ``optional``)."""
    found = _obj(value, path)
    for key, item in found.items():
        if not (type(item) is str or (optional and item is None)):
            raise _fail(f"{path}.{key}", "a text or null" if optional else "a text")
    return found


def _seed(value: str | None, path: str) -> bytes | None:
    if value is None:
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise _fail(path, "a seed in hexadecimal or null") from None


def _each(value: Any, path: str, width: int, make: Callable[[Row, str], T]) -> list[T]:
    return [make(row, f"{path}[{i}]") for i, row in enumerate(_rows(value, path, width))]


def _events(value: Any, campaign_id: str) -> list[StoredEvent]:
    events = []
    for index, row in enumerate(_rows(value, "events", _EVENT_WIDTH)):
        version, kind, data, visibility, actor, at, schema = row
        if not (
            type(version) is int
            and type(kind) is str
            and type(data) is dict
            and type(visibility) is str
            and (actor is None or type(actor) is str)
            and type(at) is str
            and type(schema) is int
        ):
            raise _fail(f"events[{index}]", "[version, type, data, visibility, actor, at, schema]")
        events.append(StoredEvent(campaign_id, version, kind, data, visibility, actor, at, schema))
    return events


def _event(events: list[StoredEvent], index: Any, path: str) -> StoredEvent:
    if type(index) is not int or not 0 <= index < len(events):
        raise _fail(path, f"the index of one of the {len(events)} events")
    return events[index]


def _state_from(data: Any, system_name: str, variant: dict[str, Any], path: str) -> SystemState:
    """The game state written at ``path``: none before ``CampaignCreated``, else one of the system's."""
    if not system_name:
        if data is not None:
            raise _fail(path, "null before the campaign has a rule system")
        return NotStarted()
    try:
        root = type(get_system(system_name).new_state({"variant": variant}))
        state: SystemState = from_data(data, root, path)
    except StateDataError as error:
        raise SnapshotError(str(error)) from None
    except Exception as error:  # an unknown system or a variant it refuses: not a state of this code
        raise SnapshotError(f"{path} cannot be read: {type(error).__name__}") from None
    return state


def ledger_from_data(body: dict[str, Any], campaign_id: str, version: int) -> tuple[Ledger, list[Problem]]:
    """The ledger (without its log) and the problems of a snapshot body, every shape checked first."""
    events = _events(body.get("events"), campaign_id)
    kept = _obj(body.get("ledger"), "ledger")
    ledger = _ledger_from(kept, campaign_id, version, events)
    ledger.release = _release_from(_obj(body.get("release"), "release"), events)
    chains = _obj(body.get("chains"), "chains")
    ledger.chains = {
        role: _heads_from(_obj(c, f"chains.{role}"), f"chains.{role}") for role, c in chains.items()
    }
    problems = _each(
        body.get("problems"),
        "problems",
        3,
        lambda row, path: Problem(_int(row[0], path), _str(row[1], path), _str(row[2], path)),
    )
    return ledger, problems


def _command(value: Any, path: str, events: list[StoredEvent]) -> dict[str, Any]:
    """An entry's command, written out or as the index of the ``CommandIssued`` event holding it."""
    if type(value) is int:
        stored = _event(events, value, path)
        value = stored.data.get("command") if stored.type == "CommandIssued" else None
    return _obj(value, path)


def _entry(row: Row, path: str, events: list[StoredEvent]) -> Entry:
    return Entry(
        _int(row[0], f"{path}[0]"),
        _command(row[1], f"{path}.command", events),
        _str(row[2], f"{path}.by"),
        _str(row[3], f"{path}.handled_by"),
        _str(row[4], f"{path}.visibility"),
        _int(row[5], f"{path}.last"),
        _bool(row[6], f"{path}.undone"),
    )


def _ledger_from(kept: dict[str, Any], campaign_id: str, version: int, events: list[StoredEvent]) -> Ledger:
    system_name, variant = (
        _str(kept.get("system"), "ledger.system"),
        _obj(kept.get("variant"), "ledger.variant"),
    )
    entries = _each(kept.get("entries"), "ledger.entries", 7, lambda r, p: _entry(r, p, events))
    by_version = {entry.version: entry for entry in entries}
    return Ledger(
        campaign_id,
        name=_str(kept.get("name"), "ledger.name"),
        system_name=system_name,
        variant=variant,
        version=version,
        state=_state_from(kept.get("state"), system_name, variant, "ledger.state"),
        entries=entries,
        players=_texts(kept.get("players"), "ledger.players"),
        seeds={
            seed.number: seed
            for seed in _each(
                kept.get("seeds"),
                "ledger.seeds",
                4,
                lambda r, p: Seed(_int(r[0], p), _str(r[1], p), _seed(_opt_str(r[2], p), p), _bool(r[3], p)),
            )
        },
        _entry_of=_pairs(kept.get("entry_of"), "ledger.entry_of"),
        _undone=set(_ints(kept.get("undone"), "ledger.undone")),
        _notes=_each(
            kept.get("notes"),
            "ledger.notes",
            4,
            lambda r, p: Note(_int(r[0], p), _str(r[1], p), _str(r[2], p), _str(r[3], p)),
        ),
        _owners=_texts(kept.get("owners"), "ledger.owners", optional=True),
        physical_dice=_str(kept.get("physical_dice"), "ledger.physical_dice"),
        _nonces={
            (_int(r[0], p), _str(r[1], p))
            for r, p in _indexed(_rows(kept.get("nonces"), "ledger.nonces", 2), "ledger.nonces")
        },
        removed=set(_strs(kept.get("removed"), "ledger.removed")),
        invite_hash=_opt_str(kept.get("invite_hash"), "ledger.invite_hash"),
        _settings=_settings(kept.get("settings"), "ledger.settings"),
        blind_reveal=_str(kept.get("blind_reveal"), "ledger.blind_reveal"),
        _reveal_settings=_settings(kept.get("reveal_settings"), "ledger.reveal_settings"),
        _seatings=_each(
            kept.get("seatings"), "ledger.seatings", 2, lambda r, p: _seating(r, p, by_version, events)
        ),
        blind={
            seed.number: seed
            for seed in _each(
                kept.get("blind"),
                "ledger.blind",
                5,
                lambda r, p: BlindSeed(
                    _int(r[0], p),
                    _int(r[1], p),
                    _str(r[2], p),
                    _seed(_opt_str(r[3], p), p),
                    _bool(r[4], p),
                ),
            )
        },
    )


def _indexed(rows: list[Row], path: str) -> list[tuple[Row, str]]:
    return [(row, f"{path}[{index}]") for index, row in enumerate(rows)]


def _settings(value: Any, path: str) -> list[tuple[int, str]]:
    return _each(value, path, 2, lambda r, p: (_int(r[0], p), _str(r[1], p)))


def _seating(
    row: Row, path: str, entries: dict[int, Entry], events: list[StoredEvent]
) -> Entry | StoredEvent:
    """A seat change: the entry that added a character (by its version), or a recorded seat event."""
    kind, ref = row
    if kind == "entry" and type(ref) is int and ref in entries:
        return entries[ref]
    if kind == "event":
        return _event(events, ref, path)
    raise _fail(path, '["entry", the version of an entry] or ["event", an event index]')


def _release_from(kept: dict[str, Any], events: list[StoredEvent]) -> Release:
    system_name, variant = (
        _str(kept.get("system"), "release.system"),
        _obj(kept.get("variant"), "release.variant"),
    )
    shown = []
    for index, row in enumerate(_rows(kept.get("shown"), "release.shown", 5)):
        path = f"release.shown[{index}]"
        at, ref, entry, revealed, stand_in = row
        shown.append(
            Shown(
                _int(at, path),
                _event(events, ref, path),
                _opt_int(entry, path),
                _bool(revealed, path),
                _bool(stand_in, path),
            )
        )
    return Release(
        system_name=system_name,
        variant=variant,
        shown=shown,
        state=_state_from(kept.get("state"), system_name, variant, "release.state"),
        held_blind=_ints(kept.get("held_blind"), "release.held_blind"),
        revealed_blind=set(_ints(kept.get("revealed_blind"), "release.revealed_blind")),
        _blind_entries=_pairs(kept.get("blind_entries"), "release.blind_entries"),
        _revealed_numbers=set(_ints(kept.get("revealed_numbers"), "release.revealed_numbers")),
        _held=_refs(kept.get("held"), "release.held", events),
        _held_entries=set(_ints(kept.get("held_entries"), "release.held_entries")),
        _events=_refs(kept.get("events"), "release.events", events),
        _undone=set(_ints(kept.get("undone"), "release.undone")),
        _unseen_held=set(_ints(kept.get("unseen_held"), "release.unseen_held")),
        cancelled_blind=set(_ints(kept.get("cancelled_blind"), "release.cancelled_blind")),
        _undo_held=set(_ints(kept.get("undo_held"), "release.undo_held")),
    )


def _refs(value: Any, path: str, events: list[StoredEvent]) -> list[tuple[StoredEvent, int]]:
    return _each(value, path, 2, lambda r, p: (_event(events, r[0], p), _int(r[1], p)))


def _heads_from(kept: dict[str, Any], path: str) -> Heads:
    """A chain that knows its tip and its newest links; the older ones are linked again when needed."""
    seen, tip = _int(kept.get("seen"), f"{path}.seen"), _str(kept.get("tip"), f"{path}.tip")
    prev, head = {}, {}
    for row, where in _indexed(_rows(kept.get("links"), f"{path}.links", 3), f"{path}.links"):
        version = _int(row[0], where)
        prev[version], head[version] = _str(row[1], where), _str(row[2], where)
    after = _int(kept.get("after"), f"{path}.after")
    return Heads(seen=seen, tip=tip, prev=prev, head=head, known_from=seen, known_tip=tip, linked_after=after)
