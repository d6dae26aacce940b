"""Conflict scenes: the provisional Flow of Battle (II-FLOW-1..5), every number from the rules data.

The Flow is one integer, positive favouring the characters. A Regular Attack is a Talent Roll whose base d6
count is the target's defence (II-CHAR-8) and shifts the Flow on success; a Decisive Attack rolls against the
guard (``guard − Flow in the attacker's favour``, at least the minimum guard) and wounds on success. Each
participant acts once per round; a side with no one left, or a side that yields, ends the conflict.
"""

from __future__ import annotations

from typing import Any

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand
from . import rule_ids as ids
from . import tension
from .acting import is_auto, talent_roll
from .chances import action_crisis, failure_crisis
from .commands import Attack, EndConflict, Move, SpendTension, StartConflict, YieldConflict
from .crisis import raise_crisis
from .draft import Draft
from .rules import Rules
from .sheet import Character, defences, max_hits
from .sheet_checks import parse_sheet
from .state import Conflict, GameState

__all__ = [
    "attack",
    "end_conflict",
    "enemy_sheets",
    "guard",
    "join_conflict",
    "move",
    "next_round",
    "participants",
    "start_conflict",
    "yield_conflict",
]

SIDES = ("characters", "enemies")


def participants(state: GameState) -> dict[str, tuple[str, Character, int, int]]:
    """Everyone still in the conflict: name → (side, sheet, wounds, max hits)."""
    scene = state.scene
    if scene is None or scene.conflict is None:
        return {}
    out: dict[str, tuple[str, Character, int, int]] = {}
    for name in scene.present:
        member = state.member(name)
        if member is None or name in scene.conflict.out:
            continue
        hits = max_hits(member.sheet, state.rules)
        if member.wounds < hits:  # II-FLOW-4: taken out, and not healed since, it stays out
            out[name] = ("characters", member.sheet, member.wounds, hits)
    for enemy in scene.conflict.enemies:
        if enemy.name not in scene.conflict.out:
            out[enemy.name] = ("enemies", enemy.sheet, enemy.wounds, enemy.max_hits)
    return out


def guard(rules: Rules, flow: int, side: str) -> int:
    """II-FLOW-3: what a Decisive Attack by ``side`` rolls against: the guard less the Flow in its favour.

    The Flow is positive in the characters' favour, so it lowers their guard and raises the enemies';
    the guard never falls below its minimum.
    """
    sign = 1 if side == SIDES[0] else -1
    return max(rules.conflict.guard_minimum, rules.conflict.guard - sign * flow)


def _conflict(draft: Draft) -> Conflict:
    conflict = draft.scene("conflict").conflict
    if conflict is None or conflict.ended:
        raise IllegalCommand("no conflict is under way: start one with start_conflict", rule=ids.FLOW_1)
    return conflict


def enemy_sheets(draft: Draft, command: StartConflict | SpendTension) -> list[dict[str, Any]]:
    """The ``enemies:`` of a command: sheets checked by every II-CHAR rule, names not yet taken."""
    raw = command.enemies
    if not isinstance(raw, list) or not raw:
        raise MalformedCommand(
            f"{command.do} needs enemies: a list of sheets", code="missing_field", path="enemies"
        )
    conflict = draft.state.scene.conflict if draft.state.scene is not None else None
    enemies: list[dict[str, Any]] = []
    for index, item in enumerate(raw):
        sheet = parse_sheet(item, draft.rules, where=f"enemies[{index}]")
        taken = draft.state.member(sheet.name) is not None or any(
            e["sheet"]["name"] == sheet.name for e in enemies
        )
        if taken or (conflict is not None and not conflict.ended and conflict.enemy(sheet.name) is not None):
            raise MalformedCommand(
                f"the name {sheet.name!r} is taken", code="duplicate_character", path=f"enemies[{index}]"
            )
        enemies.append({"sheet": sheet.to_json(), "max_hits": max_hits(sheet, draft.rules)})
    return enemies


def join_conflict(draft: Draft, command: SpendTension, reason: str | None) -> None:
    """II-RT-3: enemies bought with Rising Tension join the conflict under way (or start it)."""
    scene = draft.scene("conflict")
    enemies = enemy_sheets(draft, command)
    tension.spend(draft, "enemy", len(enemies), reason)
    if scene.conflict is None or scene.conflict.ended:
        draft.emit("ConflictStarted", {"flow": draft.rules.conflict.flow_start, "enemies": enemies})
    else:
        draft.emit("EnemiesJoined", {"enemies": enemies})


def start_conflict(draft: Draft, command: StartConflict, rng: Rng) -> None:
    """II-FLOW-1: the opposition enters with sheets; the Flow starts at its rules value."""
    scene = draft.scene("conflict")
    if scene.conflict is not None and not scene.conflict.ended:
        raise IllegalCommand("a conflict is already under way in this scene", rule=ids.FLOW_1)
    enemies = enemy_sheets(draft, command)
    if command.spend:
        tension.spend(draft, "enemy", len(enemies), command.reason)
    draft.emit("ConflictStarted", {"flow": draft.rules.conflict.flow_start, "enemies": enemies})


def attack(draft: Draft, command: Attack, rng: Rng) -> None:
    """II-FLOW-2/3/4: a Regular or Decisive Attack by a character or an enemy."""
    conflict = _conflict(draft)
    rules = draft.rules
    people = participants(draft.state)
    decisive = command.do == "decisive_attack"
    if command.character is None:
        raise MalformedCommand(f"{command.do}: character is required", code="missing_field", path="character")
    attacker, target = command.character, command.target
    for role, name in (("character", attacker), ("target", target)):
        if name not in people:
            known = draft.state.member(name) is not None or conflict.enemy(name) is not None
            if known:
                raise IllegalCommand(f"{name} is out of the conflict", rule=ids.FLOW_4)
            raise MalformedCommand(f"unknown participant {name!r}", code="unknown_character", path=role)
    side, sheet, _, _ = people[attacker]
    target_side, target_sheet, wounds, hits = people[target]
    if side == target_side:
        raise IllegalCommand(f"{attacker} and {target} are on the same side", rule=ids.FLOW_2)
    if rules.conflict.one_action_per_round and attacker in conflict.acted:
        raise IllegalCommand(f"{attacker} has already acted this round", rule=ids.FLOW_1)
    ability = rules.defences.default_ability if command.ability is None else command.ability
    if ability not in rules.abilities:
        raise MalformedCommand(
            f"ability must be one of {', '.join(rules.abilities)}", code="bad_field", path="ability"
        )
    is_auto(command, allowed=False)
    sign = 1 if side == SIDES[0] else -1
    against = guard(rules, conflict.flow, side) if decisive else rules.roll.target
    base = defences(target_sheet, rules)[str(ability)]
    purpose = "decisive_attack" if decisive else "regular_attack"
    result = talent_roll(draft, command, sheet, rng, against=against, base_d6=base, purpose=purpose)
    data = {
        "attacker": attacker,
        "target": target,
        "ability": ability,
        "side": side,
        "decisive": decisive,
        "success": result.success,
        "against": against,
    }
    draft.emit("AttackMade", data)
    if result.success and decisive:
        _wound(draft, target, target_side, wounds, hits)
    elif result.success:
        shift = max(rules.conflict.success_minimum_flow, result.total - against) + result.effects.get(
            "flow", 0
        )
        _shift(draft, sign * shift, f"{attacker}'s Regular Attack", attacker)
    elif side != SIDES[0]:
        _shift(draft, rules.conflict.enemy_failure_flow, f"{attacker}'s failed attack", attacker)
    own = failure_crisis(result.total, rules.roll.target, rules) if not result.success and sign > 0 else 0
    crisis = action_crisis(own, result.effects.get("crisis", 0), rules=rules)
    outcome = "failed attack" if not result.success else "attack"
    raise_crisis(draft, crisis, f"{attacker}'s {outcome}", attacker, protected=result.protect)
    next_round(draft)


def _shift(draft: Draft, amount: int, cause: str, character: str | None) -> None:
    conflict = draft.scene().conflict
    assert conflict is not None
    if amount:
        data = {"amount": amount, "flow": conflict.flow + amount, "cause": cause, "character": character}
        draft.emit("FlowShifted", data)


def _wound(draft: Draft, target: str, side: str, wounds: int, hits: int) -> None:
    rules = draft.rules.conflict
    now = wounds + rules.wounds_per_decisive
    draft.emit("WoundTaken", {"character": target, "side": side, "wounds": now, "max_hits": hits})
    conflict = draft.scene().conflict
    assert conflict is not None
    _shift(draft, rules.flow_after_wound - conflict.flow, f"{target} was wounded", None)
    if now >= hits:
        draft.emit("TakenOut", {"character": target, "side": side})
        left = {s for s, *_ in participants(draft.state).values()}
        if side not in left:
            winner = SIDES[1] if side == SIDES[0] else SIDES[0]
            draft.emit("ConflictEnded", {"winner": winner, "reason": f"no {side} left"})


def next_round(draft: Draft) -> None:
    """II-FLOW-1: a new round starts once every participant still in has acted."""
    conflict = draft.scene().conflict
    assert conflict is not None
    if not conflict.ended and set(participants(draft.state)) <= set(conflict.acted):
        draft.emit("RoundStarted", {"round": conflict.round + 1})


def move(draft: Draft, command: Move, rng: Rng) -> None:
    """II-FLOW-1: a participant spends its action of the round moving (or on anything but an attack)."""
    conflict = _conflict(draft)
    name = command.character
    if name not in participants(draft.state):
        raise MalformedCommand(f"{name!r} is not in the conflict", code="unknown_character", path="character")
    if draft.rules.conflict.one_action_per_round and name in conflict.acted:
        raise IllegalCommand(f"{name} has already acted this round", rule=ids.FLOW_1)
    draft.emit("Moved", {"character": name, "text": command.text})
    next_round(draft)


def yield_conflict(draft: Draft, command: YieldConflict, rng: Rng) -> None:
    """II-FLOW-4: one side yields and the conflict ends."""
    _conflict(draft)
    side = command.side
    if side not in SIDES:
        raise MalformedCommand(
            f"side must be one of {', '.join(SIDES)}, got {side!r}", code="bad_field", path="side"
        )
    draft.emit("SideYielded", {"side": side})
    draft.emit(
        "ConflictEnded", {"winner": SIDES[1] if side == SIDES[0] else SIDES[0], "reason": f"{side} yielded"}
    )


def end_conflict(draft: Draft, command: EndConflict, rng: Rng) -> None:
    """The GM ends the conflict (naming a winner, or none)."""
    _conflict(draft)
    winner = command.winner
    if winner is not None and winner not in SIDES:
        raise MalformedCommand(f"winner must be one of {', '.join(SIDES)}", code="bad_field", path="winner")
    draft.emit("ConflictEnded", {"winner": winner, "reason": command.reason or "GM ended the conflict"})
