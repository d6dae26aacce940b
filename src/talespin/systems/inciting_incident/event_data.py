"""What each Inciting Incident event's data holds (:data:`EVENT_DATA`), field by field.

Read from the code that records each event (the rule modules' ``draft.emit``): the fields it always writes
are required, the ones only some paths write are optional, and no other field may appear. The roll events
(``TalentRolled``, ``AbilityRolled``) share the body :func:`.rolling.roll_data` writes. A player sees a
GM-only roll event as ``BlindRollMade`` naming only its character (:data:`REDACTED_DATA`, what
:func:`.view.redact` makes of it).
"""

from __future__ import annotations

from typing import Final

from ..event_data import CHAIN, FLAG, TEXT, WHOLE, Shape, Value, list_of, mapping_of, maybe, one_of
from .conflict import SIDES
from .sheet import Character

__all__ = ["EVENT_DATA", "REDACTED_DATA"]

NAME = TEXT
"""A character's (or an enemy's) name."""
EFFECTS = mapping_of(WHOLE)
"""A Skill's effects: the II-SKILL-2 vocabulary (``crisis``, ``flow``, ``heal`` …) to amounts."""
_VISIBILITY = one_of(("public", "gm"))

_ROLL: Final[dict[str, Value]] = {
    "character": NAME,
    "level": WHOLE,
    "base_d6": WHOLE,
    "advantage": WHOLE,
    "disadvantage": WHOLE,
    "d6": WHOLE,
    "talent_dice": list_of(TEXT),
    "chains": list_of(CHAIN),
    "total": WHOLE,
    "against": WHOLE,
    "success": FLAG,
    "purpose": TEXT,
}
"""Every roll event's body: whose roll, its d6 and Talent dice, every chain rolled, total against target."""

_CRISIS: Final[dict[str, Value]] = {"amount": WHOLE, "crisis": WHOLE, "cause": TEXT, "character": maybe(NAME)}
_TENSION: Final[dict[str, Value]] = {"amount": WHOLE, "rising_tension": WHOLE, "cause": TEXT}
_SKILL: Final[dict[str, Value]] = {
    "character": NAME,
    "talent": TEXT,
    "skill": TEXT,
    "kind": TEXT,
    "effects": EFFECTS,
    "narrative": FLAG,
}
"""The Skill a character uses: whose, under which Talent, its kind and effects (none: narrative only)."""
_ENEMIES = list_of(Shape({"sheet": Character, "max_hits": WHOLE}, about="An enemy entering the conflict."))

EVENT_DATA: Final[dict[str, Shape]] = {
    "CharacterAdded": Shape({"sheet": Character}),
    "CharacterChanged": Shape(
        {"character": NAME, "sheet": Character, "change": TEXT, "cost": WHOLE, "cost_delta": WHOLE},
        about="A cooperative scene's one change (its kind: talent, skill or ability) and the new cost.",
    ),
    "WoundsHealed": Shape({"character": NAME, "amount": WHOLE, "wounds": WHOLE, "scene_change": FLAG}),
    "SceneStarted": Shape(
        {
            "number": WHOLE,
            "kind": TEXT,
            "difficulty": WHOLE,
            "location": maybe(TEXT),
            "present": list_of(NAME),
            "montage": FLAG,
            "restful": FLAG,
            "cooperative_streak": WHOLE,
        }
    ),
    "SceneEnded": Shape({"number": WHOLE}),
    "TriggerAdded": Shape(
        {"trigger": WHOLE, "at": WHOLE, "every": maybe(WHOLE), "text": TEXT, "visibility": _VISIBILITY},
        about="A Trigger's id: public ones count 1, 2, 3 …; GM-only ones -1, -2, -3 ….",
    ),
    "TriggerFired": Shape(
        {
            "trigger": WHOLE,
            "value": WHOLE,
            "text": TEXT,
            "character": maybe(NAME),
            "affects": maybe(NAME),
            "protected": FLAG,
        },
        {"shown_as": WHOLE},
        about="A GM-only Trigger's ``shown_as`` is the number players know it by (their ``trigger``).",
    ),
    "TriggerRearmed": Shape({"trigger": WHOLE, "values": list_of(WHOLE)}),
    "CrisisRaised": Shape(_CRISIS),
    "CrisisLowered": Shape(_CRISIS),
    "RisingTensionGained": Shape(
        _TENSION, {"streak": WHOLE}, about="``streak``: the cooperative scenes in a row that raised it."
    ),
    "RisingTensionSpent": Shape(
        {**_TENSION, "on": TEXT, "count": WHOLE, "character": maybe(NAME)},
        about="What the GM bought (``on``: disadvantage, trigger, obstacle, enemy) and how many.",
    ),
    "RisingTensionLowered": Shape(
        {**_TENSION, "rest_scene": maybe(WHOLE)},
        about="A rest: ``rest_scene`` is null when it lowered nothing.",
    ),
    "SkillPrepared": Shape(
        {"character": NAME, "skill": TEXT, "effects": EFFECTS, "disadvantage": WHOLE},
        about="A recreated modifier Skill's effects (or Disadvantage) kept for the character's next roll.",
    ),
    "PreparationUsed": Shape({"character": NAME, "sources": list_of(TEXT)}),
    "SkillRecreated": Shape({"character": NAME, "skill": TEXT, "kind": TEXT, "success": FLAG, "cost": WHOLE}),
    "SimpleObstaclePresented": Shape({"to": maybe(NAME), "must_pass": list_of(NAME)}),
    "SimpleObstacleFaced": Shape(
        {"character": NAME, "choice": one_of(("auto", "talent")), "talent": maybe(TEXT)}
    ),
    "ObstaclePassed": Shape({"characters": list_of(NAME)}),
    "ComplexObstacleSet": Shape({"obstruction": WHOLE, "attempts": WHOLE, "difficulty": maybe(WHOLE)}),
    "RegularActionTaken": Shape(
        {"character": NAME, "choice": one_of(("auto", "talent")), "talent": maybe(TEXT), "repeated": FLAG}
    ),
    "ObstructionReduced": Shape({"amount": WHOLE, "obstruction": WHOLE, "character": NAME}),
    "DecisiveActionTaken": Shape(
        {"character": NAME, "talent": TEXT, "success": FLAG, "attempts_left": WHOLE}
    ),
    "ObstacleBeaten": Shape({"character": NAME, "last_attempt": FLAG}),
    "ConflictStarted": Shape({"flow": WHOLE, "enemies": _ENEMIES}),
    "EnemiesJoined": Shape({"enemies": _ENEMIES}),
    "AttackMade": Shape(
        {
            "attacker": NAME,
            "target": NAME,
            "ability": TEXT,
            "side": one_of(SIDES),
            "decisive": FLAG,
            "success": FLAG,
            "against": WHOLE,
        }
    ),
    "Moved": Shape({"character": NAME, "text": maybe(TEXT)}),
    "RoundStarted": Shape({"round": WHOLE}),
    "FlowShifted": Shape({"amount": WHOLE, "flow": WHOLE, "cause": TEXT, "character": maybe(NAME)}),
    "WoundTaken": Shape({"character": NAME, "side": one_of(SIDES), "wounds": WHOLE, "max_hits": WHOLE}),
    "TakenOut": Shape({"character": NAME, "side": one_of(SIDES)}),
    "ConflictEnded": Shape({"winner": maybe(one_of(SIDES)), "reason": TEXT}),
    "TalentRolled": Shape(
        {**_ROLL, "talent": TEXT, "skills": list_of(TEXT)},
        about="A Talent Roll, with the modifier Skills riding on it.",
    ),
    "AbilityRolled": Shape({**_ROLL, "ability": TEXT}, about="An Ability Roll (II-ROLL-1)."),
    "SkillUsed": Shape(
        _SKILL,
        {"success": FLAG, "scene_change": FLAG},
        about="A modifier Skill riding on a roll, or an advanced Skill used (with ``success``).",
    ),
    "AdvancedActionTaken": Shape(
        {**_SKILL, "on_obstacle": FLAG, "in_conflict": FLAG, "success": FLAG, "total": WHOLE},
        about="An Advanced Action: the character's action on the obstacle and in the round (II-SKILL-5).",
    ),
    "SideYielded": Shape({"side": one_of(SIDES)}),
}
"""The data of every event type of Inciting Incident (the keys are :data:`.evolve.EVENT_TYPES`)."""

REDACTED_DATA: Final[dict[str, Shape]] = {
    "BlindRollMade": Shape(
        {"character": maybe(NAME)}, about="A GM-only roll as a player sees it: only whose roll it was."
    ),
}
"""What a player receives in place of a GM-only event (:func:`.view.redact`), by the type it receives."""
