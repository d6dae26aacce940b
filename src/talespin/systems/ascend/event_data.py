"""What each Ascend event's data holds (:data:`EVENT_DATA`), field by field.

Read from the code that records each event: :func:`.rolling.roll_data` writes a ``TestRolled``'s body (the
Test as prepared, its dice and its outcome) and :func:`.acting.test_events`, :mod:`.contests`,
:mod:`.narration` and :mod:`.decide` add the rest. Required fields are written on every path, optional ones
on some, and no other field may appear. A player sees a blind ``TestRolled`` as ``BlindRollMade`` naming
only its hero (:data:`REDACTED_DATA`, what :func:`.view.redact` makes of it).
"""

from __future__ import annotations

from typing import Final, get_args

from ..event_data import CHAIN, FLAG, TEXT, WHOLE, Shape, list_of, maybe, one_of
from .commands import TestSpec
from .rules import Narration
from .sheet import Hero

__all__ = ["EVENT_DATA", "REDACTED_DATA"]

HERO = TEXT
"""A Hero's or an Adversary's name."""
SIDE = one_of(("attacker", "defender"))
"""A side of an opposed Test."""
NARRATION = one_of(get_args(Narration))
ITEM = Shape({"kind": TEXT, "name": TEXT, "rating": WHOLE}, about="A Dice Pool item chosen or Invoked.")

_TEST = Shape(
    {
        "hero": HERO,
        "kind": one_of(("skill", "conviction")),
        "rating": WHOLE,
        "difficulty": WHOLE,
        "target": WHOLE,
        "required": WHOLE,
        "trait": maybe(TEXT),
        "background": maybe(TEXT),
        "aid": maybe(TEXT),
        "invoke": list_of(TEXT),
        "items": list_of(ITEM),
        "narration": NARRATION,
        "pool": WHOLE,
        "physical": FLAG,
        "faces": list_of(WHOLE),
        "chains": list_of(CHAIN),
        "successes": WHOLE,
        "success": FLAG,
        "margin": WHOLE,
    },
    {
        "skill": TEXT,
        "conviction": TEXT,
        "text": TEXT,
        "extended": FLAG,
        "side": SIDE,
        "roll": WHOLE,
    },
    about=(
        "One Test: the Skill or Conviction Tested (named under its ``kind``), the Dice Pool, every face and "
        "the outcome; ``extended`` when it counts toward the open extended Test, ``side`` and ``roll`` "
        "within an opposed Test."
    ),
)

EVENT_DATA: Final[dict[str, Shape]] = {
    "HeroAdded": Shape({"hero": HERO, "sheet": Hero}),
    "TestRolled": _TEST,
    "ExtendedTestStarted": Shape({"hero": maybe(HERO), "goal": WHOLE, "limit": maybe(WHOLE)}),
    "ExtendedTestEnded": Shape(
        {"successes": WHOLE, "tests": WHOLE, "goal": WHOLE, "reached": FLAG},
        {"closed_by": one_of(("storyteller",))},
        about="``closed_by``: the Storyteller closed it before its goal or limit ended it.",
    ),
    "OutcomeNarrated": Shape({"hero": maybe(HERO), "text": TEXT, "success": FLAG, "rule": TEXT}),
    "NarrationRequested": Shape({"hero": HERO, "text": maybe(TEXT)}),
    "NarrationAwarded": Shape(
        {"hero": HERO, "narration": NARRATION, "by": one_of(("storyteller", "claimed"))},
        {"requested": FLAG},
        about="The Storyteller's award (``requested``: the Player had asked), or one claimed with a Test.",
    ),
    "NarrationDeclined": Shape({"hero": HERO}),
    "NarrationUsed": Shape({"hero": HERO, "narration": NARRATION}),
    "OpposedTestProposed": Shape(
        {"attacker": TestSpec, "attacker_hero": HERO, "defender": HERO},
        about="The attacker's side as sent, waiting for the defender's controller (AS-OPP-1).",
    ),
    "OpposedTestDecided": Shape(
        {
            "attacker": HERO,
            "defender": HERO,
            "attacker_successes": WHOLE,
            "defender_successes": WHOLE,
            "winner": SIDE,
            "winning_hero": HERO,
            "tie": FLAG,
            "tie_rule": TEXT,
            "rolls": WHOLE,
        }
    ),
    "OpposedTestWithdrawn": Shape({"attacker": maybe(HERO), "defender": HERO}),
}
"""The data of every event type of Ascend (the keys are :data:`.state.EVENT_TYPES`)."""

REDACTED_DATA: Final[dict[str, Shape]] = {
    "BlindRollMade": Shape(
        {"hero": maybe(HERO)}, about="A blind Test as a player sees it: only whose it was."
    ),
}
"""What a player receives in place of a GM-only event (:func:`.view.redact`), by the type it receives."""
