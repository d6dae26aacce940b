"""Who may act now, and the odds of an Advanced Action: what the table shows before anyone clicks.

:func:`acting_now` answers, for a character and the situation in play, whether the engine would accept an
action now (II-SIMPLE-4: only on the obstacle the GM presented, while it is in play; II-COMPLEX-5: not twice
in a row; II-FLOW-1/4: once per round, not when taken out) and, if not, why — so a page offers no button the
server would refuse. :func:`advanced_choices` gives each owned advanced Skill's Advanced Action (II-SKILL-5)
with its exact odds: a Talent Roll at the current difficulty against the target, the Skill's effect and the
success Crisis on success, the failure Crisis otherwise.
"""

from __future__ import annotations

from typing import Any

from .chances import action_crisis, distribution_rows, exact, failure_crisis, total_distribution
from .conflict import participants
from .plan import RollPlan
from .sheet import Character
from .state import GameState

__all__ = ["acting_now", "advanced_choices", "current_difficulty"]


def current_difficulty(state: GameState) -> int:
    """The base d6 count in play: the Complex Obstacle's own, else the scene's, else the rules' default."""
    scene = state.scene
    if scene is None:
        return state.rules.roll.difficulty.default
    obstacle = scene.obstacle
    if obstacle is not None and obstacle.kind == "complex" and obstacle.difficulty is not None:
        return obstacle.difficulty
    return scene.difficulty


def _simple_open(state: GameState, name: str) -> str | None:
    scene = state.scene
    assert scene is not None
    obstacle = scene.obstacle
    if obstacle is None or obstacle.kind != "simple":
        return "no obstacle is in play: the GM presents one"
    if obstacle.beaten:
        return "the obstacle is passed: the GM presents the next one"
    if obstacle.presented_to is not None and obstacle.presented_to != name:
        return f"the obstacle was presented to {obstacle.presented_to}"
    if obstacle.must_pass and (name not in obstacle.must_pass or name in obstacle.passed):
        return f"{name} has passed this obstacle"
    return None


def _complex_open(state: GameState, name: str) -> str | None:
    scene = state.scene
    assert scene is not None
    obstacle = scene.obstacle
    if obstacle is None or obstacle.kind != "complex":
        return "no Complex Obstacle is in play"
    if obstacle.beaten:
        return "the obstacle is beaten"
    if obstacle.last_actor == name and len(scene.present) > 1:
        return f"{name} took the last action: another character acts first"
    return None


def _conflict_open(state: GameState, name: str) -> str | None:
    scene = state.scene
    assert scene is not None
    conflict = scene.conflict
    if conflict is None or conflict.ended:
        return "no conflict is under way"
    if name not in participants(state):
        return f"{name} is out of the conflict"
    if state.rules.conflict.one_action_per_round and name in conflict.acted:
        return f"{name} has acted this round"
    return None


def acting_now(state: GameState, name: str, situation: str) -> str | None:
    """``None`` when ``name`` may take the ``situation``'s action now, else the reason it may not."""
    scene = state.scene
    if scene is None:
        return "no scene is in play"
    if name not in scene.present and name not in participants(state):
        return f"{name} is not present in this scene"
    if situation == "simple_obstacle":
        return _simple_open(state, name) if state.rules.simple.gm_presents else None
    if situation in ("regular_action", "decisive_action"):
        return _complex_open(state, name)
    if situation in ("regular_attack", "decisive_attack"):
        return _conflict_open(state, name)
    return None


def _advanced_block(state: GameState, name: str) -> str | None:
    """Why an Advanced Action is refused now (it counts as the obstacle's action and the round's)."""
    scene = state.scene
    if scene is None:
        return "no scene is in play"
    obstacle = scene.obstacle
    if obstacle is not None and obstacle.kind == "complex" and not obstacle.beaten:
        blocked = _complex_open(state, name)
        if blocked is not None:
            return blocked
    if scene.conflict is not None and not scene.conflict.ended:
        return _conflict_open(state, name)
    if scene.kind == "cooperative" and name in scene.changed:
        return f"{name} has used this cooperative scene's change"
    return None


def advanced_choices(state: GameState, sheet: Character, roll: RollPlan) -> list[dict[str, Any]]:
    """II-SKILL-5: each owned advanced Skill with the exact odds of its Advanced Action now."""
    rules = state.rules
    scene = state.scene
    target = rules.roll.target
    if state.member(sheet.name) is None:
        return []  # an enemy's advanced Skills are not use_skill actions: the GM plays them by hand
    blocked = _advanced_block(state, sheet.name)
    rows: list[dict[str, Any]] = []
    for talent in sheet.talents:
        for skill in talent.skills:
            if skill.kind != "advanced":
                continue
            row: dict[str, Any] = {
                "choice": "skill",
                "skill": skill.name,
                "talent": talent.name,
                "effects": dict(skill.effects),
                "label": f"Use {skill.name}",
                "can_act": blocked is None,
                "reason": blocked,
            }
            if scene is None or scene.kind == "cooperative" or not rules.skills.advanced_action_rolls:
                rows.append(row | {"rolled": False})
                continue
            d6 = roll.with_base(current_difficulty(state)).d6(talent)
            dice = rules.levels.dice[talent.level]
            dist = total_distribution(d6, dice, target, rules=rules)
            success = action_crisis(rules.crisis.success, skill.effects.get("crisis", 0), rules=rules)

            def crisis(total: int, success: int = success) -> int:
                return success if total >= target else failure_crisis(total, target, rules)

            p, expected = dist.p_at_least(target), dist.expectation(crisis)
            row |= {
                "rolled": True,
                "d6": d6,
                "talent_dice": [f"d{s}" for s in dice],
                "against": target,
                "p_success": float(p),
                "p_success_exact": exact(p),
                "expected_crisis": float(expected),
                "expected_crisis_exact": exact(expected),
                "distribution": distribution_rows(dist),
            }
            rows.append(row)
    return rows
