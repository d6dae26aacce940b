"""The frozen state of an Ascend campaign and how each event changes it.

State is only ever changed by :func:`evolve`, one event at a time; every event carries what it needs (rolled
faces included), so replaying a campaign's events from :func:`new_state` gives the same state back. The
events, in the past tense:

* ``HeroAdded`` — ``{"hero", "sheet"}``;
* ``TestRolled`` — one Test with its dice (``faces``, ``chains``, ``successes``, ``success``, ``margin``);
  ``extended: true`` when it counts toward the open extended Test, ``side``/``roll`` within an opposed Test;
* ``NarrationRequested`` / ``NarrationAwarded`` / ``NarrationDeclined`` — a Player asks for exceptional
  narration, the Storyteller grants or declines it (AS-POOL-3); ``NarrationUsed`` — a Test spent the award;
* ``OpposedTestProposed`` — the attacker's side, waiting for the defender's controller (AS-OPP-1);
  ``OpposedTestWithdrawn`` — the Storyteller withdrew it;
* ``OpposedTestDecided`` — who won an opposed Test, after any rolls again;
* ``ExtendedTestStarted`` / ``ExtendedTestEnded`` — the goal and limit, and whether it was reached;
* ``OutcomeNarrated`` — an outcome told without dice (AS-TEST-5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from ..errors import MalformedCommand
from ..protocol import Event
from .rule_ids import HERO_2
from .rules import Rules, load_rules
from .sheet import Hero, parse_hero

__all__ = ["EVENT_TYPES", "AscendState", "ExtendedProgress", "PendingOpposed", "evolve", "new_state"]

EVENT_TYPES: Final = frozenset(
    {
        "HeroAdded",
        "TestRolled",
        "ExtendedTestStarted",
        "ExtendedTestEnded",
        "OutcomeNarrated",
        "NarrationRequested",
        "NarrationAwarded",
        "NarrationDeclined",
        "NarrationUsed",
        "OpposedTestProposed",
        "OpposedTestDecided",
        "OpposedTestWithdrawn",
    }
)
"""Every event type Ascend's commands record (:func:`evolve` folds these and passes any other by)."""


@dataclass(frozen=True, slots=True)
class ExtendedProgress:
    """An extended Test under way or finished: its goal and limit, and the Successes gathered so far."""

    goal: int
    limit: int | None
    hero: str | None = None
    successes: int = 0
    tests: int = 0
    done: bool = False
    reached: bool = False
    blind: bool = False
    """True once a blind (GM-only) roll counted toward it: players then do not see its Successes."""

    @property
    def open(self) -> bool:
        """True while more Tests may be added."""
        return not self.done

    def to_json(self, *, hide: bool = False) -> dict[str, Any]:
        """The view's ``{"goal", "limit", "successes", "tests", "done"}`` (Successes hidden on request)."""
        return {
            "goal": self.goal,
            "limit": self.limit,
            "hero": self.hero,
            "successes": None if hide else self.successes,
            "tests": self.tests,
            "done": self.done,
            "reached": None if hide else self.reached,
        }


@dataclass(frozen=True, slots=True)
class PendingOpposed:
    """An opposed Test proposed by its attacker, waiting for the defender's side (AS-OPP-1)."""

    attacker: Mapping[str, Any]
    """The attacker's side as sent (a Test's keys)."""
    defender: str
    visibility: str = "public"

    def to_json(self) -> dict[str, Any]:
        """``{"attacker": {...}, "defender": "Ghoul", "visibility"}``."""
        return {"attacker": dict(self.attacker), "defender": self.defender, "visibility": self.visibility}


@dataclass(frozen=True, slots=True)
class AscendState:
    """A campaign of Ascend: its rules data, the Heroes and Adversaries, and the Tests so far.

    ``awards`` are the heroes holding the Storyteller's award of exceptional narration for their next Test,
    ``requests`` those whose Player asked for it (AS-POOL-3); ``pending`` is an opposed Test waiting for its
    defender's side (AS-OPP-1).
    """

    rules: Rules
    heroes: tuple[Hero, ...] = ()
    tests: int = 0
    narrated: int = 0
    extended: ExtendedProgress | None = None
    awards: tuple[str, ...] = ()
    requests: tuple[str, ...] = ()
    pending: PendingOpposed | None = None

    def hero(self, name: str) -> Hero | None:
        """The Hero or Adversary called ``name``, if present."""
        return next((hero for hero in self.heroes if hero.name == name), None)


def new_state(setup: Mapping[str, Any]) -> AscendState:
    """The starting state from ``{"variant": {...}, "heroes": [sheets]}`` (both optional)."""
    if not isinstance(setup, Mapping):
        raise MalformedCommand("a setup is a mapping with 'variant' and 'heroes'", code="bad_setup", path="")
    unknown = sorted(set(setup) - {"variant", "heroes", "system"})
    if unknown:
        raise MalformedCommand(
            f"unknown setup key {unknown[0]!r}; expected variant, heroes", code="bad_setup", path=unknown[0]
        )
    rules = load_rules(setup.get("variant") or None)
    sheets = setup.get("heroes") or []
    if not isinstance(sheets, list):
        raise MalformedCommand("heroes must be a list of sheets", code="bad_setup", path="heroes")
    heroes: list[Hero] = []
    for index, sheet in enumerate(sheets):
        hero = parse_hero(sheet, rules, path=f"heroes[{index}]")
        if any(h.name == hero.name for h in heroes):
            raise MalformedCommand(
                f"two heroes are called {hero.name!r}; names must differ",
                rule=HERO_2,
                code="duplicate_hero",
                path=f"heroes[{index}]",
            )
        heroes.append(hero)
    return AscendState(rules, tuple(heroes))


def _rolled(state: AscendState, event: Event) -> AscendState:
    progress = state.extended
    if event.data.get("extended") and progress is not None:
        progress = replace(
            progress,
            successes=progress.successes + int(event.data["successes"]),
            tests=progress.tests + 1,
            blind=progress.blind or event.visibility == "gm",
        )
    awards = state.awards
    if event.data.get("narration") == "exceptional":  # an exceptional Test spends its award, in any log
        awards = _without(awards, event.data.get("hero"))
    return replace(state, tests=state.tests + 1, extended=progress, awards=awards)


def evolve(state: AscendState, event: Event) -> AscendState:
    """The state after one event; events this state does not track leave it as it is."""
    data = event.data
    if event.type == "HeroAdded":
        return replace(state, heroes=(*state.heroes, Hero.model_validate(data["sheet"])))
    if event.type == "TestRolled":
        return _rolled(state, event)
    if event.type == "ExtendedTestStarted":
        progress = ExtendedProgress(int(data["goal"]), data.get("limit"), data.get("hero"))
        return replace(state, extended=replace(progress, blind=event.visibility == "gm"))
    if event.type == "ExtendedTestEnded" and state.extended is not None:
        return replace(state, extended=replace(state.extended, done=True, reached=bool(data["reached"])))
    if event.type == "OutcomeNarrated":
        return replace(state, narrated=state.narrated + 1)
    return _narration_or_opposed(state, event)


def _without(names: tuple[str, ...], name: Any) -> tuple[str, ...]:
    return tuple(n for n in names if n != name)


def _narration_or_opposed(state: AscendState, event: Event) -> AscendState:
    data, hero = event.data, event.data.get("hero")
    if event.type == "NarrationRequested":
        return replace(state, requests=(*_without(state.requests, hero), str(hero)))
    if event.type == "NarrationAwarded" and data.get("by") != "claimed":
        awards = (*_without(state.awards, hero), str(hero))
        return replace(state, awards=awards, requests=_without(state.requests, hero))
    if event.type == "NarrationDeclined":
        return replace(state, requests=_without(state.requests, hero))
    if event.type == "NarrationUsed":
        return replace(state, awards=_without(state.awards, hero))
    return _opposed(state, event)


def _opposed(state: AscendState, event: Event) -> AscendState:
    data = event.data
    if event.type == "OpposedTestProposed":
        pending = PendingOpposed(dict(data["attacker"]), str(data["defender"]), event.visibility)
        return replace(state, pending=pending)
    if event.type in ("OpposedTestDecided", "OpposedTestWithdrawn"):
        return replace(state, pending=None)
    return state
