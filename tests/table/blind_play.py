"""One scripted session of each system with GM secrets to vary: the non-interference tests play it twice.

A :class:`Secrets` names everything only the GM knows: the faces (or the nonce) of a blind roll, the texts
and the number of GM-only notes (and whether the GM undid them), and whether a GM-only Trigger exists (one
that never fires, added before a GM-only Trigger that fires in both runs when ``fired_trigger`` is set).
Each session also makes a second blind roll, lets a player act behind it, and has the GM undo both: the
undo must give away nothing either. :func:`play` drives a campaign
through a :class:`Driver` (the table service in process, or HTTP with WebSocket) and records every byte
each player receives along the way — command answers, error bodies, state, events, odds, exports — until
just before the GM reveals the blind roll, then reveals it and records again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from table_sheets import ADA, BEA, SUSAN, susan_test

FIXED_TIME = "2026-01-01T00:00:00.000000+00:00"
"""Every run's clock: time is not among the GM's secrets (and would differ between any two runs)."""

FACES_LOW = [[1], [1], [1], [1], [1], [1], [1]]
"""Physical faces for the Inciting Incident session's blind rolls that fail."""
FACES_HIGH = [[6, 5], [6, 4], [5], [5], [4], [6, 6, 2], [3]]
"""The same rolls' faces, exploding and succeeding."""


@dataclass(frozen=True)
class Secrets:
    """What differs between two runs: only the GM knows any of it."""

    faces: list[list[int]] | list[int] | None = None
    nonce: str = "1f" * 16
    notes: tuple[str, ...] = ()
    undo_notes: bool = False
    hidden_trigger: bool = False
    fired_trigger: bool = False
    """Not a secret (both runs set it): a GM-only Trigger added after the secret one, that Crisis fires."""


class Driver(Protocol):
    """A table as a client reaches it: commands and reads, each answer as the bytes a client gets."""

    def join(self, name: str) -> str: ...
    def send(self, who: str, command: dict[str, Any], nonce: str | None = None) -> str: ...
    def reads(self, who: str, odds: dict[str, Any]) -> dict[str, str]: ...
    def blind_entries(self) -> list[int]: ...


@dataclass
class Seen:
    """Every answer each player got, in order (as text), and the reads at the end of each phase."""

    answers: dict[str, list[str]] = field(default_factory=dict)

    def add(self, who: str, text: str) -> None:
        self.answers.setdefault(who, []).append(text)


def assert_same_until_reveal(runs: tuple[Seen, Seen], after: tuple[Seen, Seen], what: str) -> None:
    """Two runs that differ in one GM secret: every player got the same answers, each in the same place,
    up to the reveal (a blind roll's among them); after it, a blind secret shows (``what`` names the case)."""
    one, other = runs
    assert one.answers.keys() == other.answers.keys()
    for who, answers in one.answers.items():
        assert any("websocket: " in line and "BlindRollMade" in line for line in answers)
        for number, (mine, theirs) in enumerate(zip(answers, other.answers[who], strict=True)):
            assert mine == theirs, f"{who}'s answer {number} differs"
    if what.startswith("blind"):
        assert after[0].answers != after[1].answers


def _gm_secrets(driver: Driver, secrets: Secrets, when: str) -> None:
    for number, text in enumerate(secrets.notes):
        if (number % 2 == 0) == (when == "before"):
            driver.send("gm", {"do": "note", "text": text, "visibility": "gm"})
            if secrets.undo_notes:
                driver.send("gm", {"do": "undo"})
    if secrets.hidden_trigger and when == "before":
        driver.send("gm", {"do": "add_trigger", "at": 40, "text": "The roof gives way", "visibility": "gm"})


def play_ii(driver: Driver, secrets: Secrets, seen: Seen) -> Callable[[], None]:
    """An Inciting Incident session up to the reveal; returns the reveal (its answers are recorded too)."""
    pia, bo = driver.join("Pia"), driver.join("Bo")
    seen.add(pia, driver.send(pia, {"do": "add_character", "sheet": ADA}))
    seen.add(bo, driver.send(bo, {"do": "add_character", "sheet": BEA}))
    driver.send("gm", {"do": "start_scene", "kind": "action", "difficulty": 5})
    _gm_secrets(driver, secrets, "before")
    # a public Trigger after the hidden one: its id must not count the hidden one
    driver.send("gm", {"do": "add_trigger", "at": 60, "text": "The canyon floods"})
    if secrets.fired_trigger:  # it fires where players see it: what they get must not count the unfired one
        rocks = {"do": "add_trigger", "at": 2, "every": 3, "text": "Rocks fall", "visibility": "gm"}
        driver.send("gm", rocks)
        driver.send("gm", {"do": "adjust_crisis", "amount": 2})
    driver.send("gm", {"do": "simple_obstacle"})
    blind: dict[str, Any] = {
        "do": "simple_obstacle",
        "character": "Ada",
        "talent": "Piloting",
        "visibility": "gm",
    }
    if secrets.faces is not None:
        blind["faces"] = secrets.faces
    driver.send("gm", blind, secrets.nonce)
    _gm_secrets(driver, secrets, "after")
    odds = {"character": "Ada"}
    for who in (pia, bo):
        for name, text in driver.reads(who, odds).items():
            seen.add(who, f"{name}: {text}")
    # Pia acts on the obstacle the blind roll may have passed; Bo on his own; both see the same answers.
    seen.add(
        pia, driver.send(pia, {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting"}, "2a" * 16)
    )
    seen.add(bo, driver.send(bo, {"do": "simple_obstacle", "character": "Bea", "choice": "auto"}))
    seen.add(
        pia, driver.send(pia, {"do": "simple_obstacle", "character": "Bea", "choice": "auto"})
    )  # not hers
    seen.add(pia, driver.send(pia, {"do": "note", "text": "Pia waits for the dust to settle"}))
    for who in (pia, bo):
        for name, text in driver.reads(who, odds).items():
            seen.add(who, f"{name}: {text}")
    second = {"do": "ability_roll", "character": "Bea", "ability": "nimbleness", "visibility": "gm"}
    _undone_blind_roll(driver, secrets, second, bo, sheet=BEA, seen=seen)
    seen.add(bo, driver.send(bo, {"do": "simple_obstacle", "character": "Bea", "choice": "auto"}))
    for who in (pia, bo):
        for name, text in driver.reads(who, odds).items():
            seen.add(who, f"after the undo {name}: {text}")

    def reveal() -> None:
        driver.send("gm", {"do": "reveal", "entry": driver.blind_entries()[0]})
        for who in (pia, bo):
            for name, text in driver.reads(who, odds).items():
                seen.add(who, f"after reveal {name}: {text}")

    return reveal


def _undone_blind_roll(
    driver: Driver, secrets: Secrets, blind: dict[str, Any], who: str, *, sheet: dict[str, Any], seen: Seen
) -> None:
    """A second blind roll, a player's command held behind it, and the GM's undo of both (undo walks back)."""
    driver.send("gm", blind, secrets.nonce[::-1])
    seen.add(who, driver.send(who, {"do": "add_character", "sheet": {**sheet, "name": "Twin"}}))
    driver.send("gm", {"do": "undo"})
    driver.send("gm", {"do": "undo"})


def play_ascend(driver: Driver, secrets: Secrets, seen: Seen) -> Callable[[], None]:
    """An Ascend session up to the reveal: a blind Test, then an extended Test the players follow."""
    pia = driver.join("Pia")
    seen.add(pia, driver.send(pia, {"do": "add_character", "sheet": SUSAN}))
    _gm_secrets(driver, replace(secrets, hidden_trigger=False), "before")  # Ascend has no Triggers
    blind = susan_test(visibility="gm")
    if secrets.faces is not None:
        blind["faces"] = secrets.faces
    driver.send("gm", blind, secrets.nonce)
    _gm_secrets(driver, secrets, "after")
    odds = {"hero": "Susan", "skill": "Athletics", "difficulty": 0}
    for name, text in driver.reads(pia, odds).items():
        seen.add(pia, f"{name}: {text}")
    seen.add(pia, driver.send(pia, susan_test(), "3b" * 16))
    seen.add(pia, driver.send(pia, {"do": "test", "hero": "Nobody", "skill": "Athletics", "difficulty": 0}))
    for name, text in driver.reads(pia, odds).items():
        seen.add(pia, f"{name}: {text}")
    second = dict(blind)
    if isinstance(secrets.faces, list):
        second["faces"] = list(reversed(secrets.faces))
    _undone_blind_roll(driver, secrets, second, pia, sheet=SUSAN, seen=seen)
    for name, text in driver.reads(pia, odds).items():
        seen.add(pia, f"after the undo {name}: {text}")

    def reveal() -> None:
        driver.send("gm", {"do": "reveal", "entry": driver.blind_entries()[0]})
        for name, text in driver.reads(pia, odds).items():
            seen.add(pia, f"after reveal {name}: {text}")

    return reveal


def text(value: Any) -> str:
    """A JSON answer as one canonical text (what the tests compare byte for byte)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


SERVED_CASES = [
    ("ii", "blind faces", Secrets(faces=FACES_LOW), Secrets(faces=FACES_HIGH)),
    ("ii", "hidden notes", Secrets(notes=("a",)), Secrets(notes=("a secret", "b", "c"), undo_notes=True)),
    ("ii", "hidden Trigger", Secrets(faces=FACES_LOW), Secrets(faces=FACES_LOW, hidden_trigger=True)),
    (
        "ii",
        "unfired hidden Trigger before a fired one",
        Secrets(faces=FACES_LOW, fired_trigger=True),
        Secrets(faces=FACES_LOW, fired_trigger=True, hidden_trigger=True),
    ),
    ("ascend", "blind server dice", Secrets(nonce="1f" * 16), Secrets(nonce="e0" * 16)),
]
"""(system, what, first, second): the pairs of runs both HTTP non-interference tests play, in process and
against real servers."""
