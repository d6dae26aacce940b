"""Opposed and extended Tests (AS-OPP-1, AS-EXT-1): commands made of several Tests.

An opposed Test rolls both sides and compares Successes; a tie goes to the defender or is rolled again, by
campaign setting (``opposed.tie``), at most ``opposed.reroll_limit`` times. An extended Test is started with a
goal and an optional limit, and gathers the Successes of its steps — all listed at once in a script, or sent
one ``extended_step`` at a time at a live table — until the goal or the limit ends it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand
from ..protocol import Event, Visibility
from .acting import hero_named, test_events, within
from .commands import Defend, EndExtended, ExtendedStep, ExtendedTest, OpposedTest, TestSpec, WithdrawOpposed
from .pool import prepare_test
from .rule_ids import EXT_1, OPP_1
from .state import AscendState, evolve

__all__ = [
    "defend",
    "end_extended",
    "extended_step",
    "extended_test",
    "opposed_test",
    "resolve_opposed",
    "withdraw_opposed",
]


def _rolls(faces: Sequence[Any] | None) -> list[Any] | None:
    """An opposed side's faces as a list of rolls: one flat list is one roll, a list of lists is several."""
    if faces is None:
        return None
    if faces and all(isinstance(entry, list) for entry in faces):
        return list(faces)
    return [list(faces)]


_DEFENDER_ONLY = frozenset({"hero"})
"""A defender given by its hero alone: its controller chooses the rest (AS-OPP-1)."""


def _waiting_defender(spec: TestSpec) -> bool:
    return spec.model_fields_set <= _DEFENDER_ONLY


def opposed_test(state: AscendState, command: OpposedTest, rng: Rng) -> list[Event]:
    """An opposed Test: resolved at once when both sides are given, else proposed to the defender.

    AS-OPP-1 (D): each side's choices are made by whoever controls it. A ``defender: {hero: NAME}`` with no
    choices of its own proposes the Test: the attacker's side is checked now and kept, and the defender's
    controller answers with ``defend``. A script (or a GM controlling both sides) may give both at once.
    """
    if state.pending is not None:
        raise IllegalCommand(
            f"an opposed Test is waiting for {state.pending.defender}'s side: defend, or withdraw_opposed",
            rule=OPP_1,
            code="opposed_pending",
            path="do",
        )
    if state.rules.opposed.defender_chooses and _waiting_defender(command.defender):
        with within("attacker"):
            prepare_test(command.attacker, hero_named(state, command.attacker.hero), state.rules)
        defender = hero_named(state, command.defender.hero, path="defender.hero").name
        attacker = command.attacker.model_dump(exclude_unset=True)
        data = {"attacker": attacker, "attacker_hero": command.attacker.hero, "defender": defender}
        return [Event("OpposedTestProposed", data, command.visibility)]
    return resolve_opposed(state, command, rng)


def defend(state: AscendState, command: Defend, rng: Rng) -> list[Event]:
    """The defender's side of the proposed opposed Test: both sides roll and the Test is decided."""
    pending = state.pending
    if pending is None:
        raise IllegalCommand(
            "no opposed Test is waiting for a defender", rule=OPP_1, code="no_opposed_test", path="do"
        )
    spec = TestSpec.model_validate(command.model_dump(exclude={"do", "visibility"}, exclude_unset=True))
    if spec.hero is None:
        spec = spec.model_copy(update={"hero": pending.defender})
    if spec.hero != pending.defender:
        raise IllegalCommand(
            f"the opposed Test waits for {pending.defender}'s side, not {spec.hero}'s",
            rule=OPP_1,
            code="not_the_defender",
            path="hero",
        )
    attacker = TestSpec.model_validate(dict(pending.attacker))
    opposed = OpposedTest(do="opposed_test", attacker=attacker, defender=spec, visibility=pending.visibility)
    return resolve_opposed(state, opposed, rng)


def withdraw_opposed(state: AscendState, command: WithdrawOpposed, rng: Rng) -> list[Event]:
    """The Storyteller withdraws the opposed Test waiting for its defender."""
    pending = state.pending
    if pending is None:
        raise IllegalCommand("no opposed Test is waiting", rule=OPP_1, code="no_opposed_test", path="do")
    data = {"attacker": pending.attacker.get("hero"), "defender": pending.defender}
    return [Event("OpposedTestWithdrawn", data, "gm" if pending.visibility == "gm" else "public")]


def resolve_opposed(state: AscendState, command: OpposedTest, rng: Rng) -> list[Event]:
    """Both sides' TestRolled events (every roll, when ties are rolled again) and OpposedTestDecided."""
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
            with within(side):
                rolled = test_events(
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
    with within(path):
        events = test_events(state, spec, rng, visibility, extra={"extended": True})
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


def extended_test(state: AscendState, command: ExtendedTest, rng: Rng) -> list[Event]:
    """ExtendedTestStarted, then each listed step's events; it stays open if neither goal nor limit is met."""
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
        hero_named(state, command.hero)
    started = {"hero": command.hero, "goal": goal, "limit": limit}
    events = [Event("ExtendedTestStarted", started, command.visibility)]
    after = evolve(state, events[0])
    for index, spec in enumerate(command.steps):
        step = _step(after, spec, rng, command.visibility, f"steps[{index}]")
        for event in step:
            after = evolve(after, event)
        events.extend(step)
    return events


def end_extended(state: AscendState, command: EndExtended, rng: Rng) -> list[Event]:
    """The Storyteller closes the open extended Test where it stands."""
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


def extended_step(state: AscendState, command: ExtendedStep, rng: Rng) -> list[Event]:
    """One more Test of the open extended Test."""
    return _step(state, command, rng, command.visibility, "")
