"""Exceptional narration as the Storyteller's award (AS-POOL-3): asked for, granted or declined, then spent.

A Player who narrates exceptionally may Invoke two items instead of one, by the group's consensus; the tools
record that consensus as the Storyteller's award (a decision of ``docs/rules/ascend.md``). So a Player asks
(``request_narration``), the Storyteller grants or declines (``award_narration`` with ``grant``), and the
hero's next Test narrated ``exceptional`` spends the award. The table's log shows who sent each command, so
who granted an award is on the record.
"""

from __future__ import annotations

from ...dice import Rng
from ..errors import IllegalCommand
from ..protocol import Event
from .acting import hero_named
from .commands import AwardNarration, RequestNarration
from .rule_ids import POOL_3
from .state import AscendState

__all__ = ["award_narration", "request_narration"]


def request_narration(state: AscendState, command: RequestNarration, rng: Rng) -> list[Event]:
    """A Player asks the Storyteller for exceptional narration for its hero's next Test."""
    hero = hero_named(state, command.hero).name
    if hero in state.awards:
        raise IllegalCommand(
            f"{hero} already holds an award of exceptional narration: narrate the next Test exceptionally",
            rule=POOL_3,
            code="already_awarded",
            path="hero",
        )
    if hero in state.requests:
        raise IllegalCommand(
            f"{hero} has already asked: the Storyteller grants or declines it",
            rule=POOL_3,
            code="already_requested",
            path="hero",
        )
    return [Event("NarrationRequested", {"hero": hero, "text": command.text})]


def award_narration(state: AscendState, command: AwardNarration, rng: Rng) -> list[Event]:
    """The Storyteller grants exceptional narration (asked for or not) or declines a request."""
    hero = hero_named(state, command.hero).name
    requested = hero in state.requests
    if not command.grant:
        if not requested:
            raise IllegalCommand(
                f"{hero} has not asked for exceptional narration: nothing to decline",
                rule=POOL_3,
                code="no_request",
                path="hero",
            )
        return [Event("NarrationDeclined", {"hero": hero})]
    if hero in state.awards:
        raise IllegalCommand(
            f"{hero} already holds an award of exceptional narration", rule=POOL_3, code="already_awarded"
        )
    data = {"hero": hero, "narration": "exceptional", "by": "storyteller", "requested": requested}
    return [Event("NarrationAwarded", data)]
