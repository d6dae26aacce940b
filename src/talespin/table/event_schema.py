"""The JSON Schema of the events the table sends and exports (``docs/schemas/events.schema.json``).

Events are not pydantic models: a rule system records ``Event(type, data, visibility)`` and the table wraps
each in its envelope (:func:`.views.event_json`, a player's :mod:`.stream`). So the schema is built here from
what the code declares: the envelope's keys, the table's own event types (:data:`.ledger.TABLE_EVENTS`) and
each registered system's ``EVENT_TYPES``, and :data:`.upcast.EVENT_SCHEMA`, the newest schema version. A
type of its own for each system's events (``$defs``) says which system records it.

Each type's ``data`` has its own schema (``$defs/<type>``), from the
:class:`~talespin.systems.event_data.Shape` its recorder declares beside it:
:data:`.event_data.TABLE_EVENT_DATA` and each system's ``EVENT_DATA``, plus each system's ``REDACTED_DATA``,
what a player receives in place of a GM-only event (a blind roll's ``BlindRollMade``). A type may have
several shapes (``anyOf``); each is closed, so a field no recorder declares is refused. An event type without
a declared shape is an error here, so the test that holds the committed file equal to this module's output
fails until one is declared.

The committed file is this module's output, and a test holds the two equal; write it again after adding an
event type or a schema version::

    .venv/bin/python -m talespin.table.event_schema > docs/schemas/events.schema.json
"""

from __future__ import annotations

import json
from importlib import import_module
from typing import Any

from ..systems import entries
from ..systems.event_data import Shape, data_schema
from .chain import CHAIN_ALGORITHM
from .event_data import TABLE_EVENT_DATA
from .ledger import TABLE_EVENTS
from .talk import WHISPER
from .upcast import EVENT_SCHEMA, SCHEMA_KEY

__all__ = ["event_data", "event_schema", "event_types", "main"]

_HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$"}


def event_types() -> dict[str, list[str]]:
    """The event types by who records them: ``"table"``, then each system by its canonical name."""
    found = {"table": sorted(TABLE_EVENTS)}
    for entry in entries():
        found[entry.name] = sorted(import_module(entry.module).EVENT_TYPES)
    return found


def event_data() -> dict[str, list[Shape]]:
    """Every event type's shapes of data: its recorder's, then any player's view a system makes of one.

    Raises ``ValueError`` naming an event type without a declared shape, or a shape of no known type.
    """
    modules = [import_module(entry.module) for entry in entries()]
    found: dict[str, list[Shape]] = {name: [shape] for name, shape in TABLE_EVENT_DATA.items()}
    for module in modules:
        for name, shape in module.EVENT_DATA.items():
            found.setdefault(name, []).append(shape)
    for module in modules:
        for name, shape in module.REDACTED_DATA.items():
            found.setdefault(name, []).append(shape)
    every = {name for names in event_types().values() for name in names}
    if missing := sorted(every - set(found)):
        raise ValueError(f"no shape of data is declared for the event types {missing}")
    if unknown := sorted(set(found) - every):
        raise ValueError(f"shapes of data are declared for types no one records: {unknown}")
    return found


def event_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one event as the table sends or exports it."""
    types = event_types()
    defs: dict[str, Any] = {
        f"{who}-type": {"description": f"An event type {_whose(who)} records.", "enum": names}
        for who, names in types.items()
    }
    models: dict[str, Any] = {}
    shapes = event_data()
    for name in sorted(shapes):
        schemas = [data_schema(shape, models) for shape in shapes[name]]
        defs[name] = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
    if clash := sorted(set(models) & set(defs)):
        raise ValueError(f"a model and an event type are both called {clash}")
    defs.update(models)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "talespin event",
        "description": (
            "One event of a campaign's log as the table sends it (state, events, WebSocket) and exports it. "
            f"`{SCHEMA_KEY}` is the event schema version its shapes are in (0 when absent); `prev` and "
            f"`head` link it into the viewer's hash chain ({CHAIN_ALGORITHM}; a whisper carries neither)."
        ),
        "type": "object",
        "required": ["version", "type", "data", "visibility"],
        "additionalProperties": False,
        "properties": {
            "version": {"description": "Its number in the viewer's record (1, 2, 3, …).", "type": "integer"},
            "type": {"anyOf": [{"$ref": f"#/$defs/{name}"} for name in defs]},
            "data": {
                "description": "What happened, in the type's own fields (`$defs/<type>`).",
                "type": "object",
            },
            "visibility": {"enum": ["public", "gm", WHISPER]},
            "actor": {"description": "The character whose action caused it.", "type": ["string", "null"]},
            "at": {"description": "When it was recorded (ISO 8601).", "type": "string"},
            "entry": {"description": "The command entry it belongs to.", "type": ["integer", "null"]},
            SCHEMA_KEY: {"type": "integer", "minimum": 0, "maximum": EVENT_SCHEMA},
            "prev": {"description": "The head of the chain before it.", **_HASH},
            "head": {"description": "The head of the chain with it.", **_HASH},
        },
        "allOf": [_typed_data(name) for name in sorted(shapes)],
        "$defs": defs,
    }


def _typed_data(name: str) -> dict[str, Any]:
    """An event of type ``name`` has data of that type's schema."""
    return {
        "if": {"properties": {"type": {"const": name}}, "required": ["type"]},
        "then": {"properties": {"data": {"$ref": f"#/$defs/{name}"}}},
    }


def _whose(who: str) -> str:
    if who == "table":
        return "the table itself"
    return next(entry.label for entry in entries() if entry.name == who)


def main() -> None:
    """Print the schema as the committed file holds it."""
    print(json.dumps(event_schema(), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
