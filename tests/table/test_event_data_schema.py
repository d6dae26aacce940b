"""Each event type's ``data`` has its own schema, declared beside the events, and every event keeps to it.

The shapes come from the code that records the events (``EVENT_DATA`` of each system, the table's
``TABLE_EVENT_DATA``, and ``REDACTED_DATA``: a player's copy of a GM-only event). Every event of every
source the tests have — the recorded logs, the example scene scripts and their golden records, the blind-roll
session and a session that records every other type (the GM's and the player's events, their exports, each
command's answer), and a player's copy of each GM-only event — validates against the committed schema; the
sources together exercise every type and every shape of it; and an event missing a required field, holding
a value of another type, or carrying a field no one declared is refused.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
import yaml
from event_sessions import play_all_events
from jsonschema import Draft202012Validator
from test_event_json_schema import FIXTURES, VALIDATOR, _handed_out

from talespin.systems import Event, entries, get_system
from talespin.systems.ascend.script import run_script as run_ascend
from talespin.systems.inciting_incident.script import run_script as run_ii
from talespin.table import export_json
from talespin.table.event_data import TABLE_EVENT_DATA
from talespin.table.event_schema import event_schema, event_types
from talespin.table.ledger import TABLE_EVENTS

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = VALIDATOR.schema
SERVER_ONLY = {"SeedDrawn", "BlindSeedDrawn"}
"""Recorded for the server alone: no viewer receives them, so no test sees them sent."""
SYSTEMS = {"ii": "inciting-incident", "ascend": "ascend"}


def _problems(event: dict[str, Any]) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(event)]


def _enveloped(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A script's ``{"type", "data", "visibility"}`` events, numbered as the table would send them."""
    return [{"version": number, **event} for number, event in enumerate(events, 1)]


def _scripted(system: str) -> Iterator[dict[str, Any]]:
    """Every event of the system's example scene scripts (played), and of their golden records."""
    for path in sorted((ROOT / "examples").glob(f"{system}-*.yaml")):
        script = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "commands" not in script:
            continue  # a sheet or a lab's input, not a scene script

        def load(name: str, beside: Path = path) -> Any:
            return yaml.safe_load((beside.parent / name).read_text(encoding="utf-8"))

        if system == "ii":
            yield from _enveloped([e.to_json() for e in run_ii(script, random.Random(7), load).events])
        else:
            yield from _enveloped(run_ascend(script, random.Random(7), load)["events"])
    for path in sorted((ROOT / "tests" / "systems").glob(f"*/golden/{system}-*.json")):
        yield from _enveloped(json.loads(path.read_text(encoding="utf-8"))["events"])


def _session(system: str) -> Iterator[dict[str, Any]]:
    """Every event the all-types session hands out: each command's answer, each viewer's events and export."""
    driver, answered = play_all_events(system)
    yield from answered
    ledger = driver.service.ledger(driver.id)
    for viewer in driver.viewers.values():
        yield from driver.service.events(driver.id, viewer, 0)
        yield from export_json(ledger, viewer)["events"]


def _redacted(system: str, gm_events: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """A player's copy of each GM-only event of the system, as its ``redact`` makes it (when it keeps one)."""
    rules = get_system(SYSTEMS[system])
    own = set(event_types()[SYSTEMS[system]])
    for event in gm_events:
        if event["visibility"] == "gm" and event["type"] in own:
            shown = rules.redact(Event.from_json(event))
            if shown is not None:
                yield {"version": 1, **shown.to_json()}


@cache
def sources() -> dict[str, list[dict[str, Any]]]:
    """Every event the tests have, by where it came from."""
    found: dict[str, list[dict[str, Any]]] = {
        "recorded logs": [e for path in FIXTURES for e in json.loads(path.read_text("utf-8"))["events"]]
    }
    for system in SYSTEMS:
        found[f"{system} scene scripts"] = list(_scripted(system))
        found[f"{system} blind-roll session"] = list(_handed_out(system))
        found[f"{system} all-types session"] = list(_session(system))
        gm_only = [
            e for name in (f"{system} blind-roll session", f"{system} all-types session") for e in found[name]
        ]
        found[f"{system} players' copies"] = list(_redacted(system, gm_only))
    return found


@pytest.mark.parametrize(
    "source",
    [
        f"{system} {what}"
        for system in SYSTEMS
        for what in ("scene scripts", "all-types session", "players' copies")
    ],
)
def test_every_event_of_each_source_validates(source: str) -> None:
    """GM's and player's events, exports and answers of both systems: each one's data has its type's shape."""
    events = sources()[source]
    assert events
    for event in events:
        assert _problems(event) == [], event


def test_every_recorder_declares_the_data_of_each_type_it_records() -> None:
    """The table's shapes are its types, each system's its ``EVENT_TYPES``; every event's shape is closed."""
    assert set(TABLE_EVENT_DATA) == TABLE_EVENTS
    for entry in entries():
        module = import_module(entry.module)
        assert set(module.EVENT_DATA) == module.EVENT_TYPES, entry.name
        assert set(module.REDACTED_DATA) <= TABLE_EVENTS, entry.name
        shapes = [*module.EVENT_DATA.values(), *module.REDACTED_DATA.values()]
        assert not any(shape.open for shape in shapes), entry.name
    assert not any(shape.open for shape in TABLE_EVENT_DATA.values())


def test_a_type_without_declared_data_cannot_be_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator refuses a type no shape is declared for, and a shape of a type no one records."""
    monkeypatch.delitem(TABLE_EVENT_DATA, "NoteAdded")
    with pytest.raises(ValueError, match="NoteAdded"):
        event_schema()
    monkeypatch.setitem(TABLE_EVENT_DATA, "NoteAdded", TABLE_EVENT_DATA["ChatSaid"])
    monkeypatch.setitem(TABLE_EVENT_DATA, "NoteErased", TABLE_EVENT_DATA["ChatSaid"])
    with pytest.raises(ValueError, match="NoteErased"):
        event_schema()


def _every_event() -> list[dict[str, Any]]:
    return [event for events in sources().values() for event in events]


def _branches(kind: str) -> list[dict[str, Any]]:
    """The shapes of ``kind``'s data as the schema writes them (one, or each of an ``anyOf``)."""
    declared = SCHEMA["$defs"][kind]
    return list(declared.get("anyOf", [declared]))


def _branch_of(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The shape ``data`` is of (the first it validates against)."""
    for branch in _branches(kind):
        if Draft202012Validator({**branch, "$defs": SCHEMA["$defs"]}).is_valid(data):
            return branch
    raise AssertionError(f"{kind} {data} is of none of its shapes")


def test_the_sources_exercise_every_type_and_every_shape() -> None:
    """No declared type or shape goes unchecked: each is met by some event (server-only types aside)."""
    met: dict[str, set[int]] = {}
    for event in _every_event():
        shapes = _branches(event["type"])
        met.setdefault(event["type"], set()).add(shapes.index(_branch_of(event["type"], event["data"])))
    every = {name for names in event_types().values() for name in names}
    assert set(met) == every - SERVER_ONLY
    assert {kind: len(_branches(kind)) for kind in met} == {kind: len(found) for kind, found in met.items()}


def _other_type(value: Any) -> Any:
    """A value of another JSON type than ``value``."""
    if value is None:
        return [7]  # no field that may be null holds a list
    return 7 if isinstance(value, str) else "seven"


def _fullest() -> dict[tuple[str, int], dict[str, Any]]:
    """For each type and shape, the event with the most fields of data."""
    fullest: dict[tuple[str, int], dict[str, Any]] = {}
    for event in _every_event():
        key = (event["type"], _branches(event["type"]).index(_branch_of(event["type"], event["data"])))
        if len(event["data"]) > len(fullest.get(key, {"data": {}})["data"]):
            fullest[key] = event
    return fullest


def test_a_mutated_event_is_refused() -> None:
    """For every type and shape: dropping a required field, changing a field's type or adding one fails."""
    missed = []
    for (kind, shape), event in sorted(_fullest().items()):
        assert _problems(event) == []
        required = _branches(kind)[shape]["required"]
        mutants = {
            f"without {name}": {k: v for k, v in event["data"].items() if k != name} for name in required
        }
        for name, value in event["data"].items():
            mutants[f"{name} of another type"] = {**event["data"], name: _other_type(value)}
        mutants["with a field no one declared"] = {**event["data"], "unheard_of": 1}
        for what, data in mutants.items():
            if not _problems({**copy.deepcopy(event), "data": data}):
                missed.append(f"{kind} (shape {shape}) {what}")
    assert missed == []
