"""``legal_commands(state, role)``: the Ascend commands that can be sent now, each complete.

Candidates (see :mod:`talespin.systems.legal`): each hero's Test of each of its Skills and Convictions, an
extended Test's next step by each hero, the defender's side of a proposed opposed Test, an opposed Test
proposed by each hero through each Skill against each other hero, asking for exceptional narration; for
the Storyteller also granting or declining it, closing an extended Test, withdrawing an opposed one. The
Dice Pool's items (Trait, Background, Aid, Invoke) are left to the sender; a Test without them is legal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ..legal import legal
from ..protocol import Role
from .decide import decide
from .sheet import Hero
from .state import AscendState

__all__ = ["legal_commands"]


def _tested(hero: Hero) -> Iterator[dict[str, Any]]:
    """What a Test of ``hero`` may be of: each Skill, each Conviction."""
    for skill in hero.skills:
        yield {"hero": hero.name, "skill": skill}
    for conviction in hero.convictions:
        yield {"hero": hero.name, "conviction": conviction}


def _candidates(state: AscendState, role: Role) -> Iterator[dict[str, Any]]:
    for hero in state.heroes:
        for spec in _tested(hero):
            yield {"do": "test", **spec}
            yield {"do": "extended_step", **spec}
            yield {"do": "defend", **spec}
            for other in state.heroes:
                if other.name != hero.name:
                    yield {"do": "opposed_test", "attacker": spec, "defender": {"hero": other.name}}
        yield {"do": "request_narration", "hero": hero.name}
        if role == "gm":
            yield {"do": "award_narration", "hero": hero.name}
            yield {"do": "award_narration", "hero": hero.name, "grant": False}
    if role == "gm":
        yield {"do": "end_extended"}
        yield {"do": "withdraw_opposed"}


def legal_commands(state: AscendState, role: Role) -> list[dict[str, Any]]:
    """Every command ``role`` may send now that the rules accept.

    The candidates are decided in the state with its counters (``tests``, ``narrated``) at zero: no rule
    reads them (only the view reports them), so no verdict depends on them. A plain Test changes nothing
    else, so the state after it is equal to the one before and :func:`~talespin.systems.legal.legal` reuses
    every verdict of the search before it.
    """
    probe = replace(state, tests=0, narrated=0)
    return legal(probe, _candidates(probe, role), decide, question=role)
