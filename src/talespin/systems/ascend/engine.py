"""Deciding commands: the pure ``decide(state, command, rng) -> events`` of Ascend.

Every command is parsed (:mod:`.commands`), checked against the rules (:mod:`.pool`), rolled
(:mod:`.rolling`) and turned into events; nothing changes until the caller folds the events with
:func:`~.state.evolve`. A refused command raises :class:`~talespin.systems.errors.IllegalCommand` (naming the
rule) or :class:`~talespin.systems.errors.MalformedCommand` and returns no events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand, RulesError
from ..protocol import Command, Event, Visibility
from .commands import (
    AddHero,
    EndExtended,
    ExtendedStep,
    ExtendedTest,
    Narrate,
    OpposedTest,
    TestCommand,
    TestSpec,
    parse_command,
)
from .pool import prepare_test
from .rolling import roll_data
from .rule_ids import EXT_1, OPP_1, TEST_1, TEST_5
from .sheet import parse_hero
from .state import AscendState, evolve

__all__ = ["decide"]


@contextmanager
def _within(prefix: str) -> Iterator[None]:
    """Re-raise a rules error from inside a nested part of a command with the part's path in front."""
    try:
        yield
    except RulesError as error:
        if not prefix:
            raise
        path = f"{prefix}.{error.path}" if error.path else prefix
        raise type(error)(error.message, rule=error.rule, path=path, code=error.code) from None


def _hero(state: AscendState, name: str | None, *, path: str = "hero") -> str:
    if name is None:
        raise MalformedCommand(
            "name the acting hero with 'hero'", rule=TEST_1, code="missing_hero", path=path
        )
    if state.hero(name) is None:
        known = ", ".join(h.name for h in state.heroes) or "none yet"
        raise IllegalCommand(
            f"no hero called {name!r} (heroes: {known})", rule=TEST_1, code="unknown_hero", path=path
        )
    return name


def _test_events(
    state: AscendState,
    spec: TestSpec,
    rng: Rng,
    visibility: Visibility,
    *,
    extra: Mapping[str, Any] | None = None,
    faces: Any = None,
) -> list[Event]:
    """The events of one Test: the award of exceptional narration (when claimed) and the roll."""
    name = _hero(state, spec.hero)
    hero = state.hero(name)
    assert hero is not None  # checked by _hero
    test = prepare_test(spec, hero, state.rules)
    data = roll_data(test, spec.faces if faces is None else faces, rng, state.rules)
    if spec.text is not None:
        data["text"] = spec.text
    events = []
    if test.narration == "exceptional":
        award = {"hero": name, "narration": "exceptional", "by": "storyteller"}
        events.append(Event("NarrationAwarded", award, visibility))
    events.append(Event("TestRolled", {**data, **(extra or {})}, visibility))
    return events


def _rolls(faces: Sequence[Any] | None) -> list[Any] | None:
    """An opposed side's faces as a list of rolls: one flat list is one roll, a list of lists is several."""
    if faces is None:
        return None
    if faces and all(isinstance(entry, list) for entry in faces):
        return list(faces)
    return [list(faces)]


def _opposed(state: AscendState, command: OpposedTest, rng: Rng) -> list[Event]:
    rules, sides = state.rules, {"attacker": command.attacker, "defender": command.defender}
    supplies = {side: _rolls(spec.faces) for side, spec in sides.items()}
    events: list[Event] = []
    roll = 0
    while True:
        roll += 1
        counts = {}
        for side, spec in sides.items():
            supply = supplies[side]
            if supply is not None and len(supply) < roll:
                raise MalformedCommand(
                    f"the opposed Test is tied and is rolled again: give the {side}'s faces for roll {roll}",
                    rule=OPP_1,
                    code="more_faces_needed",
                    path=f"{side}.faces",
                )
            with _within(side):
                rolled = _test_events(
                    state,
                    spec,
                    rng,
                    command.visibility,
                    extra={"side": side, "roll": roll},
                    faces=None if supply is None else supply[roll - 1],
                )
            events.extend(event for event in rolled if roll == 1 or event.type == "TestRolled")
            counts[side] = int(rolled[-1].data["successes"])
        tied = counts["attacker"] == counts["defender"]
        if not tied or rules.opposed.tie != "reroll" or roll > rules.opposed.reroll_limit:
            break
    winner = "attacker" if counts["attacker"] > counts["defender"] else "defender"
    decided = {
        "attacker": command.attacker.hero,
        "defender": command.defender.hero,
        "attacker_successes": counts["attacker"],
        "defender_successes": counts["defender"],
        "winner": winner,
        "winning_hero": sides[winner].hero,
        "tie": tied,
        "tie_rule": rules.opposed.tie,
        "rolls": roll,
    }
    return [*events, Event("OpposedTestDecided", decided, command.visibility)]


def _step(state: AscendState, spec: TestSpec, rng: Rng, visibility: Visibility, path: str) -> list[Event]:
    """One Test of the open extended Test, and its end when the goal or the limit is reached."""
    progress = state.extended
    if progress is None or progress.done:
        what = "is over" if progress is not None else "is under way"
        raise IllegalCommand(
            f"no extended Test {what}: start one with extended_test",
            rule=EXT_1,
            code="no_extended_test",
            path=path,
        )
    if spec.hero is None and progress.hero is not None:
        spec = spec.model_copy(update={"hero": progress.hero})
    with _within(path):
        events = _test_events(state, spec, rng, visibility, extra={"extended": True})
    after = state
    for event in events:
        after = evolve(after, event)
    done = after.extended
    assert done is not None  # the step was counted toward it
    reached = done.successes >= done.goal
    if reached or (done.limit is not None and done.tests >= done.limit):
        ended = {"successes": done.successes, "tests": done.tests, "goal": done.goal, "reached": reached}
        events.append(Event("ExtendedTestEnded", ended, visibility))
    return events


def _extended(state: AscendState, command: ExtendedTest, rng: Rng) -> list[Event]:
    if state.extended is not None and state.extended.open:
        raise IllegalCommand(
            "an extended Test is already under way: continue it with extended_step "
            "or close it with end_extended",
            rule=EXT_1,
            code="extended_test_open",
            path="do",
        )
    goal = state.rules.extended.goal if command.goal is None else command.goal
    limit = state.rules.extended.limit if command.limit is None else command.limit
    for key, value in (("goal", goal), ("limit", limit)):
        if value is not None and value < 1:
            raise MalformedCommand(
                f"an extended Test's {key} is 1 or more, got {value}", rule=EXT_1, path=key
            )
    if command.hero is not None:
        _hero(state, command.hero)
    started = {"hero": command.hero, "goal": goal, "limit": limit}
    events = [Event("ExtendedTestStarted", started, command.visibility)]
    after = evolve(state, events[0])
    for index, spec in enumerate(command.steps):
        step = _step(after, spec, rng, command.visibility, f"steps[{index}]")
        for event in step:
            after = evolve(after, event)
        events.extend(step)
    return events


def _narrate(state: AscendState, command: Narrate, rng: Rng) -> list[Event]:
    if command.hero is not None:
        _hero(state, command.hero)
    data = {"hero": command.hero, "text": command.text, "success": command.success, "rule": TEST_5}
    return [Event("OutcomeNarrated", data, command.visibility)]


def _add_hero(state: AscendState, command: AddHero, rng: Rng) -> list[Event]:
    hero = parse_hero(command.sheet, state.rules)
    if state.hero(hero.name) is not None:
        raise IllegalCommand(
            f"a hero called {hero.name!r} is already here", code="duplicate_hero", path="sheet.name"
        )
    return [Event("HeroAdded", {"hero": hero.name, "sheet": hero.to_json()})]


def _end(state: AscendState, command: EndExtended, rng: Rng) -> list[Event]:
    progress = state.extended
    if progress is None or progress.done:
        raise IllegalCommand("no extended Test is under way", rule=EXT_1, code="no_extended_test", path="do")
    ended = {
        "successes": progress.successes,
        "tests": progress.tests,
        "goal": progress.goal,
        "reached": progress.successes >= progress.goal,
        "closed_by": "storyteller",
    }
    return [Event("ExtendedTestEnded", ended)]


def _test(state: AscendState, command: TestCommand, rng: Rng) -> list[Event]:
    return _test_events(state, command, rng, command.visibility)


def _extended_step(state: AscendState, command: ExtendedStep, rng: Rng) -> list[Event]:
    return _step(state, command, rng, command.visibility, "")


_HANDLERS: dict[type, Callable[[AscendState, Any, Rng], list[Event]]] = {
    TestCommand: _test,
    OpposedTest: _opposed,
    ExtendedTest: _extended,
    ExtendedStep: _extended_step,
    EndExtended: _end,
    Narrate: _narrate,
    AddHero: _add_hero,
}


def decide(state: AscendState, command: Command, rng: Rng) -> list[Event]:
    """The events ``command`` causes in ``state``, or a RulesError with nothing changed."""
    parsed = parse_command(command)
    return _HANDLERS[type(parsed)](state, parsed, rng)
