"""Ascend: the rules engine, its exact odds and invoke advice.

Rules data lives in ``rules.yaml`` (:mod:`.rules`); sheets in :mod:`.sheet`; the engine is
``decide``/``evolve`` over frozen state (:mod:`.decide`, :mod:`.state`); the exact odds of a roll in
:mod:`.chances`, invoke advice in :mod:`.advice`, the answer to an odds query in :mod:`.odds`; the script
runner in :mod:`.script`. The registry finds :data:`SYSTEM`::

    >>> from talespin.systems import get_system
    >>> get_system("ascend") is SYSTEM
    True
"""

from __future__ import annotations

from .advice import Choice, advise
from .chances import ExtendedOdds, OpposedOdds, TestOdds, extended_odds, opposed_odds, successes, test_odds
from .decide import decide
from .event_data import EVENT_DATA, REDACTED_DATA
from .pool import Item, PreparedTest, prepare_test
from .rules import Narration, Rules, default_rules, load_rules
from .script import ScriptError, run_script
from .sheet import Hero, check_hero, hero_schema, parse_hero
from .state import EVENT_TYPES, AscendState, ExtendedProgress, evolve, new_state
from .system import SYSTEM, AscendSystem
from .view import actors, redact, view

__all__ = [
    "EVENT_DATA",
    "EVENT_TYPES",
    "REDACTED_DATA",
    "SYSTEM",
    "AscendState",
    "AscendSystem",
    "Choice",
    "ExtendedOdds",
    "ExtendedProgress",
    "Hero",
    "Item",
    "Narration",
    "OpposedOdds",
    "PreparedTest",
    "Rules",
    "ScriptError",
    "TestOdds",
    "actors",
    "advise",
    "check_hero",
    "decide",
    "default_rules",
    "evolve",
    "extended_odds",
    "hero_schema",
    "load_rules",
    "new_state",
    "opposed_odds",
    "parse_hero",
    "prepare_test",
    "redact",
    "run_script",
    "successes",
    "test_odds",
    "view",
]
