"""Inciting Incident: rules data, character sheets, the rules engine, exact odds and scene scripts.

The modules that share a name with Ascend's mean the same thing there: :mod:`.commands` (the typed commands),
:mod:`.decide`, :mod:`.state`, :mod:`.view` (what each role sees), :mod:`.acting` (the roll inside a
command), :mod:`.rolling` (dice rolled and recorded), :mod:`.chances` (the exact odds of one roll),
:mod:`.odds` (the answer to an odds query) and :mod:`.script` (a script's summary, played by the one runner
of :mod:`talespin.systems.script`). Here also :mod:`.plan` (which dice a roll uses, for ``decide`` and
``odds`` alike), :mod:`.crisis` and :mod:`.tension` (the rules every action shares), :mod:`.evolve`.

>>> from talespin.systems import get_system
>>> ii = get_system("ii")
>>> state = ii.new_state({"characters": [{"name": "Ada", "abilities":
...     {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
...     "talents": [{"name": "Piloting", "ability": "nimbleness", "level": 5}]}]})
>>> events = ii.decide(state, {"do": "start_scene", "kind": "action"}, None)
>>> [e.type for e in events]
['SceneStarted']
"""

from __future__ import annotations

from .chances import RollChances, expected_reduction, roll_chances
from .decide import COMMANDS, actors, decide
from .event_data import EVENT_DATA, REDACTED_DATA
from .evolve import EVENT_TYPES, evolve
from .odds import odds, talent_choice
from .plan import final_d6, ladder
from .rules import Rules, default_rules, load_rules
from .script import ScriptResult, run_script
from .sheet import Character, SheetError, defences, max_hits, sheet_cost
from .sheet_checks import check_sheet, parse_sheet
from .state import GameState
from .system import SYSTEM, IncitingIncident, new_state
from .view import redact, view

__all__ = [
    "COMMANDS",
    "EVENT_DATA",
    "EVENT_TYPES",
    "REDACTED_DATA",
    "SYSTEM",
    "Character",
    "GameState",
    "IncitingIncident",
    "RollChances",
    "Rules",
    "ScriptResult",
    "SheetError",
    "actors",
    "check_sheet",
    "decide",
    "default_rules",
    "defences",
    "evolve",
    "expected_reduction",
    "final_d6",
    "ladder",
    "load_rules",
    "max_hits",
    "new_state",
    "odds",
    "parse_sheet",
    "redact",
    "roll_chances",
    "run_script",
    "sheet_cost",
    "talent_choice",
    "view",
]
