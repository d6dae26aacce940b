"""``legal_commands(state, role)``: the Inciting Incident commands that can be sent now, each complete.

Candidates (see :mod:`talespin.systems.legal`): for each character present (and each enemy in a conflict,
for the GM) every rolled action through each of its Talents or passed without rolling, each Ability Roll,
each attack on each opponent, each Advanced Skill; for the GM the scenes it may start (one per kind), the
scene's end, presenting a Simple Obstacle, rest, a side yielding. Commands that need a text or numbers
only the GM can choose (a Trigger, a Complex Obstacle's Obstruction, a Crisis adjustment) are not listed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..legal import legal
from ..protocol import Role
from .conflict import SIDES
from .decide import decide
from .sheet import Character
from .state import GameState

__all__ = ["legal_commands"]

ROLLED = ("simple_obstacle", "regular_action", "decisive_action")
ATTACKS = ("regular_attack", "decisive_attack")


def _actions(name: str, sheet: Character, opponents: list[str]) -> Iterator[dict[str, Any]]:
    for do in ROLLED:
        yield {"do": do, "character": name, "choice": "auto"}
        for talent in sheet.talents:
            yield {"do": do, "character": name, "talent": talent.name}
    for ability in sheet.abilities:
        yield {"do": "ability_roll", "character": name, "ability": ability}
    for do in ATTACKS:
        for target in opponents:
            for talent in sheet.talents:
                yield {"do": do, "character": name, "target": target, "talent": talent.name}
    yield {"do": "move", "character": name}
    yield {"do": "heal", "character": name}
    for talent in sheet.talents:
        for skill in talent.skills:
            yield {"do": "use_skill", "character": name, "talent": talent.name, "skill": skill.name}


def _candidates(state: GameState, role: Role) -> Iterator[dict[str, Any]]:
    scene = state.scene
    conflict = scene.conflict if scene is not None else None
    characters = [m for m in state.members if scene is None or m.name in scene.present]
    enemies = [e for e in conflict.enemies if e.name not in conflict.out] if conflict is not None else []
    heroes = [m.name for m in characters if conflict is None or m.name not in conflict.out]
    for member in characters:
        yield from _actions(member.name, member.sheet, [e.name for e in enemies])
    if role != "gm":
        return
    for enemy in enemies:
        yield from _actions(enemy.name, enemy.sheet, heroes)
    for kind in state.rules.scenes.kinds:
        yield {"do": "start_scene", "kind": kind}
    yield {"do": "end_scene"}
    yield {"do": "simple_obstacle"}
    yield {"do": "rest"}
    for side in SIDES:
        yield {"do": "yield", "side": side}


def legal_commands(state: GameState, role: Role) -> list[dict[str, Any]]:
    """Every command ``role`` may send now that the rules accept (a player's: characters' commands only)."""
    return legal(state, _candidates(state, role), decide, question=role)
