"""Deciding commands: the pure ``decide(state, command, rng) -> events`` of Ascend.

Every command is parsed (:mod:`.commands`), checked against the rules (:mod:`.pool`), rolled
(:mod:`.rolling`) and turned into events; nothing changes until the caller folds the events with
:func:`~.state.evolve`. A refused command raises :class:`~talespin.systems.errors.IllegalCommand` (naming the
rule) or :class:`~talespin.systems.errors.MalformedCommand` and returns no events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...dice import Rng, generator
from ..errors import IllegalCommand
from ..protocol import Command, Event
from .acting import hero_named, test_events
from .commands import (
    AddHero,
    AwardNarration,
    Defend,
    EndExtended,
    ExtendedStep,
    ExtendedTest,
    Narrate,
    OpposedTest,
    RequestNarration,
    TestCommand,
    WithdrawOpposed,
    parse_command,
)
from .contests import defend, end_extended, extended_step, extended_test, opposed_test, withdraw_opposed
from .narration import award_narration, request_narration
from .rule_ids import HERO_2, TEST_5
from .sheet import parse_hero
from .state import AscendState

__all__ = ["decide"]


def _narrate(state: AscendState, command: Narrate, rng: Rng) -> list[Event]:
    if command.hero is not None:
        hero_named(state, command.hero)
    data = {"hero": command.hero, "text": command.text, "success": command.success, "rule": TEST_5}
    return [Event("OutcomeNarrated", data, command.visibility)]


def _add_hero(state: AscendState, command: AddHero, rng: Rng) -> list[Event]:
    hero = parse_hero(command.sheet, state.rules)
    if state.hero(hero.name) is not None:
        raise IllegalCommand(
            f"a hero called {hero.name!r} is already here; names must differ",
            rule=HERO_2,
            code="duplicate_hero",
            path="sheet.name",
        )
    return [Event("HeroAdded", {"hero": hero.name, "sheet": hero.to_json()})]


def _test(state: AscendState, command: TestCommand, rng: Rng) -> list[Event]:
    return test_events(state, command, rng, command.visibility)


_HANDLERS: dict[type, Callable[[AscendState, Any, Rng], list[Event]]] = {
    TestCommand: _test,
    OpposedTest: opposed_test,
    Defend: defend,
    WithdrawOpposed: withdraw_opposed,
    RequestNarration: request_narration,
    AwardNarration: award_narration,
    ExtendedTest: extended_test,
    ExtendedStep: extended_step,
    EndExtended: end_extended,
    Narrate: _narrate,
    AddHero: _add_hero,
}


def decide(state: AscendState, command: Command, rng: Rng | int) -> list[Event]:
    """The events ``command`` causes in ``state``, or a RulesError with nothing changed.

    ``rng`` is a generator or a whole-number seed (a command that rolls nothing may be given ``None``).
    """
    rng = generator(rng)
    parsed = parse_command(command)
    return _HANDLERS[type(parsed)](state, parsed, rng)
