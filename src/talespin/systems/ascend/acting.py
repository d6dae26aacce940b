"""Acting out one Test inside any command: finding the hero, preparing, rolling, and the events it makes.

Shared by every command that rolls (:mod:`.decide` for a single Test, :mod:`.contests` for opposed and
extended Tests). Errors raised inside a nested part of a command (a side, a step) get that part's path in
front with :func:`within`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand, RulesError
from ..protocol import Event, Visibility
from .commands import TestSpec
from .pool import prepare_test
from .rolling import roll_data
from .rule_ids import POOL_3, TEST_1
from .sheet import Hero
from .state import AscendState

__all__ = ["hero_named", "test_events", "within"]


@contextmanager
def within(prefix: str) -> Iterator[None]:
    """Re-raise a rules error from inside a nested part of a command with the part's path in front."""
    try:
        yield
    except RulesError as error:
        if not prefix:
            raise
        path = f"{prefix}.{error.path}" if error.path else prefix
        raise type(error)(error.message, rule=error.rule, path=path, code=error.code) from None


def hero_named(state: AscendState, name: str | None, *, path: str = "hero") -> Hero:
    """The hero called ``name``, or the error saying it is missing or unknown."""
    if name is None:
        raise MalformedCommand(
            "name the acting hero with 'hero'", rule=TEST_1, code="missing_hero", path=path
        )
    hero = state.hero(name)
    if hero is None:
        known = ", ".join(h.name for h in state.heroes) or "none yet"
        raise IllegalCommand(
            f"no hero called {name!r} (heroes: {known})", rule=TEST_1, code="unknown_hero", path=path
        )
    return hero


def test_events(
    state: AscendState,
    spec: TestSpec,
    rng: Rng,
    visibility: Visibility,
    *,
    extra: Mapping[str, Any] | None = None,
    faces: Any = None,
) -> list[Event]:
    """The events of one Test: the award of exceptional narration it spends (AS-POOL-3) and the roll.

    Exceptional narration is the Storyteller's award (``invokes.exceptional_award: storyteller``): a Test
    narrated exceptionally needs the hero to hold one (``award_narration``), and spends it. With the variant
    ``player`` the Player claims it with the Test itself, as the seed's text alone would allow.
    """
    hero = hero_named(state, spec.hero)
    test = prepare_test(spec, hero, state.rules)
    awarded_by = state.rules.invokes.exceptional_award
    if test.narration == "exceptional" and awarded_by == "storyteller" and hero.name not in state.awards:
        raise IllegalCommand(
            f"exceptional narration is the Storyteller's award: {hero.name} holds none; ask with "
            "request_narration, and the Storyteller grants it with award_narration",
            rule=POOL_3,
            code="needs_award",
            path="narration",
        )
    data = roll_data(test, spec.faces if faces is None else faces, rng, state.rules)
    if spec.text is not None:
        data["text"] = spec.text
    events = []
    if test.narration == "exceptional" and awarded_by == "storyteller":
        events.append(Event("NarrationUsed", {"hero": hero.name, "narration": "exceptional"}, visibility))
    elif test.narration == "exceptional":
        claim = {"hero": hero.name, "narration": "exceptional", "by": "claimed"}
        events.append(Event("NarrationAwarded", claim, visibility))
    events.append(Event("TestRolled", {**data, **(extra or {})}, visibility))
    return events
