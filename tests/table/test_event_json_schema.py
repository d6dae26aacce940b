"""The JSON Schema of events (docs/schemas/events.schema.json): up to date, and true of every event we have.

Every event of the recorded logs (``fixtures/``) and every event a scripted campaign of each system hands
out (the GM's and each player's events, their exports, the reveal of a blind roll, whispers) validates
against it, and it is not blind: an unknown type, visibility or key is refused.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from blind_play import Secrets, Seen, play_ascend, play_ii
from jsonschema import Draft202012Validator
from test_blind import ServiceDriver

from talespin.systems import entries
from talespin.table import export_json
from talespin.table.event_schema import event_schema, event_types
from talespin.table.ledger import TABLE_EVENTS

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "schemas" / "events.schema.json"
FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("campaign-*-schema-*.json"))
VALIDATOR = Draft202012Validator(json.loads(COMMITTED.read_text(encoding="utf-8")))
PLAYS = {"ii": play_ii, "ascend": play_ascend}


def _problems(event: dict[str, Any]) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(event)]


def test_the_committed_schema_is_what_the_code_declares() -> None:
    """Run ``python -m talespin.table.event_schema > docs/schemas/events.schema.json`` when this fails."""
    Draft202012Validator.check_schema(event_schema())
    assert json.loads(COMMITTED.read_text(encoding="utf-8")) == event_schema()


def test_every_system_and_the_table_have_their_types() -> None:
    """The types come from the table and from each registered system, none claimed twice."""
    types = event_types()
    assert list(types) == ["table", *(entry.name for entry in entries())]
    assert set(types["table"]) == TABLE_EVENTS
    every = [name for names in types.values() for name in names]
    assert len(every) == len(set(every)) and all(types.values())


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_every_event_of_the_recorded_logs_validates(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["events"]
    for event in record["events"]:
        assert _problems(event) == [], event


def _handed_out(system: str) -> Iterator[dict[str, Any]]:
    """Every event a scripted session of ``system`` hands to the GM and each player, before and after the
    blind roll's reveal (and after a word to all and a whisper): their events and their exports."""
    driver, seen = ServiceDriver(system), Seen()
    secrets = Secrets(notes=("The innkeeper lies",), fired_trigger=True, hidden_trigger=True)
    reveal = PLAYS[system](driver, secrets, seen)
    gm = driver.viewers["gm"]
    player = next(who for who in driver.viewers if who != "gm")
    driver.service.say(driver.id, gm, "Welcome to the table")
    driver.service.say(driver.id, gm, "Only you hear this", to=player)
    for phase in ("before", "after"):
        if phase == "after":
            reveal()
        ledger = driver.service.ledger(driver.id)
        for viewer in driver.viewers.values():
            yield from driver.service.events(driver.id, viewer, 0)
            yield from export_json(ledger, viewer)["events"]


@pytest.mark.parametrize("system", sorted(PLAYS))
def test_every_event_of_a_scripted_campaign_validates(system: str) -> None:
    events = list(_handed_out(system))
    types = {event["type"] for event in events}
    assert len(events) > 50 and {"ChatSaid", "BlindRollMade", "BlindRollRevealed"} <= types, sorted(types)
    assert {event["visibility"] for event in events} == {"public", "gm", "whisper"}
    for event in events:
        assert _problems(event) == [], event


def test_the_schema_refuses_what_is_not_an_event() -> None:
    """An unknown type, a visibility no viewer has, a stray key or a schema from the future fails."""
    good = json.loads(FIXTURES[0].read_text(encoding="utf-8"))["events"][0]
    assert _problems(good) == []
    for key, value in [("type", "CrisisRaisedd"), ("visibility", "server"), ("stray", 1), ("schema", 99)]:
        bad = {**copy.deepcopy(good), key: value}
        assert _problems(bad), (key, value)
    assert _problems({k: v for k, v in good.items() if k != "data"})
