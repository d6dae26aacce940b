"""``odds(state, query)``: the choices open to a character now, each with exact odds (II-ODDS-1/2).

The situation is read from the state (an open Simple Obstacle, a Complex Obstacle, a conflict) or named in
the query (``"situation": "decisive_action"``). Each choice carries P(success) and expected Crisis as a float
and as an exact fraction, and the distribution of the total capped at the largest relevant target. For a
Complex Obstacle each choice also carries the expected Obstruction reduction of a Regular Action, and the
answer lists the Decisive Action odds now. The shape is the one of ``docs/state-views.md``.

Modifier Skills ticked for the roll (``"skills": ["Barrel Roll"]``) count with every structured effect
(II-SKILL-2), on the rows of the Talent that has them: ``advantage``/``disadvantage`` move the d6 count,
``crisis`` is added to the action's Crisis (never below the floor), ``obstruction`` adds to the Obstruction
reduction of a success. What a character carries from an earlier command (a recreated modifier, a failed
one's Disadvantage) counts the same way, as the engine applies it to the next roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..errors import MalformedCommand
from .chances import distribution_rows, expected_reduction, roll_chances
from .conflict import participants
from .rolls import final_d6
from .rules import Rules
from .sheet import Character, Talent, defences
from .state import GameState, Prepared

__all__ = ["SITUATIONS", "exact", "odds", "skill_effects", "talent_choice"]

SITUATIONS = (
    "simple_obstacle",
    "regular_action",
    "decisive_action",
    "regular_attack",
    "decisive_attack",
    "recreate_skill",
    "ability_roll",
)


def exact(value: Fraction) -> str:
    """A fraction as the contract writes it, ``"n/d"``."""
    return f"{value.numerator}/{value.denominator}"


def talent_choice(
    talent: Talent | None,
    level: int,
    d6: int,
    against: int,
    rules: Rules,
    *,
    extra_crisis: int = 0,
    cap: int = 0,
) -> dict[str, Any]:
    """One rolled choice: d6, Talent dice, P(success), expected Crisis and the capped distribution."""
    dice = rules.levels.dice[level]
    chances = roll_chances(d6, dice, against, rules, extra_crisis=extra_crisis, cap=cap)
    name = talent.name if talent is not None else None
    return {
        "choice": "talent",
        "talent": name,
        "label": f"Roll {name}" if name else "Roll",
        "d6": d6,
        "talent_dice": [f"d{s}" for s in dice],
        "against": against,
        "p_success": float(chances.p_success),
        "p_success_exact": exact(chances.p_success),
        "expected_crisis": float(chances.expected_crisis),
        "expected_crisis_exact": exact(chances.expected_crisis),
        "distribution": distribution_rows(chances.distribution),
    }


def _skill_names(query: Mapping[str, Any], sheet: Character) -> tuple[str, ...]:
    """The modifier Skills named by ``query["skills"]``; each must be a modifier Skill of the character."""
    names = query.get("skills", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise MalformedCommand("skills must be a list of Skill names", code="bad_field", path="skills")
    for name in names:
        found = [s for t in sheet.talents for s in t.skills if s.name == name]
        if not found:
            raise MalformedCommand(f"{sheet.name} has no Skill {name!r}", code="bad_field", path="skills")
        if all(s.kind != "modifier" for s in found):
            raise MalformedCommand(
                f"{name!r} is an advanced Skill, an action of its own, not part of a roll",
                code="bad_field",
                path="skills",
            )
    return tuple(names)


def skill_effects(talent: Talent, names: tuple[str, ...], prepared: Prepared | None) -> dict[str, int]:
    """II-SKILL-2: summed effects of ``talent``'s ticked modifier Skills and what the character carries."""
    effects: dict[str, int] = {}
    for skill in talent.skills:
        if skill.name in names and skill.kind == "modifier":
            for key, value in skill.effects.items():
                effects[key] = effects.get(key, 0) + value
    if prepared is not None:
        effects["disadvantage"] = effects.get("disadvantage", 0) + prepared.disadvantage
        for key, value in prepared.effects:
            effects[key] = effects.get(key, 0) + value
    return effects


def _applied(talent: Talent, names: tuple[str, ...]) -> list[str]:
    own = {s.name for s in talent.skills if s.kind == "modifier"}
    return [name for name in names if name in own]


def _auto(crisis: int) -> dict[str, Any]:
    one, amount = Fraction(1), Fraction(crisis)
    return {
        "choice": "auto",
        "label": "Auto",
        "p_success": 1.0,
        "p_success_exact": exact(one),
        "expected_crisis": float(amount),
        "expected_crisis_exact": exact(amount),
    }


def _situation(state: GameState, query: Mapping[str, Any]) -> str:
    named = query.get("situation")
    if named is not None:
        if named not in SITUATIONS:
            raise MalformedCommand(
                f"situation must be one of {', '.join(SITUATIONS)}", code="bad_field", path="situation"
            )
        return str(named)
    scene = state.scene
    if scene is not None and scene.conflict is not None and not scene.conflict.ended:
        return "regular_attack"
    if (
        scene is not None
        and scene.obstacle is not None
        and scene.obstacle.kind == "complex"
        and not scene.obstacle.beaten
    ):
        return "regular_action"
    return "simple_obstacle"


def _sheet(state: GameState, name: Any) -> Character:
    member = state.member(name) if isinstance(name, str) else None
    if member is not None:
        return member.sheet
    people = participants(state)
    if isinstance(name, str) and name in people:
        return people[name][1]
    raise MalformedCommand(f"unknown character {name!r}", code="unknown_character", path="character")


class _Roll:
    """The per-Talent numbers of one query: base d6, net Advantage, ticked Skills and carried effects."""

    def __init__(self, state: GameState, query: Mapping[str, Any], sheet: Character, base: int) -> None:
        self.rules = state.rules
        self.base = base
        self.advantage = int(query.get("advantage", 0))
        self.disadvantage = int(query.get("disadvantage", 0))
        self.names = _skill_names(query, sheet)
        scene = state.scene
        self.prepared = scene.prepared_for(sheet.name) if scene is not None else None

    def effects(self, talent: Talent) -> dict[str, int]:
        """The Skill effects (ticked and carried) this Talent's roll would use."""
        return skill_effects(talent, self.names, self.prepared)

    def d6(self, talent: Talent, *, base: int | None = None, disadvantage: int = 0) -> int:
        """The final d6 count of a roll of ``talent`` (II-ADV-1..3), every Advantage counted."""
        fx = self.effects(talent)
        return final_d6(
            self.base if base is None else base,
            self.advantage + fx.get("advantage", 0),
            self.disadvantage + disadvantage + fx.get("disadvantage", 0),
            self.rules,
        )

    def row(
        self, talent: Talent, against: int, *, extra_crisis: int = 0, cap: int = 0, d6: int | None = None
    ) -> dict[str, Any]:
        """One Talent's choice with its Skills' Crisis counted; ``"skills"`` names the ticked ones used."""
        fx = self.effects(talent)
        dice = self.d6(talent) if d6 is None else d6
        extra = extra_crisis + fx.get("crisis", 0)
        row = talent_choice(talent, talent.level, dice, against, self.rules, extra_crisis=extra, cap=cap)
        applied = _applied(talent, self.names)
        if applied:
            row["skills"] = applied
        return row


def odds(state: GameState, query: Mapping[str, Any]) -> dict[str, Any]:
    """The choices open to ``query["character"]`` now, with exact odds."""
    rules = state.rules
    sheet = _sheet(state, query.get("character"))
    situation = _situation(state, query)
    scene = state.scene
    obstacle = scene.obstacle if scene is not None else None
    base = scene.difficulty if scene is not None else rules.roll.difficulty.default
    if obstacle is not None and obstacle.difficulty is not None:
        base = obstacle.difficulty
    roll = _Roll(state, query, sheet, int(query.get("dice", base)))
    answer: dict[str, Any] = {"character": sheet.name, "situation": situation, "choices": []}
    choices: list[dict[str, Any]] = answer["choices"]
    target = rules.roll.target
    if situation in ("regular_attack", "decisive_attack"):
        return _attack_odds(state, query=query, sheet=sheet, situation=situation, roll=roll, answer=answer)
    if situation in ("recreate_skill", "ability_roll"):
        return _other_odds(state, query=query, sheet=sheet, situation=situation, roll=roll, answer=answer)
    obstruction = obstacle.obstruction if obstacle is not None and obstacle.kind == "complex" else 0
    if situation == "simple_obstacle":
        choices.append(_auto(rules.crisis.auto))
        choices += [roll.row(t, target) for t in sheet.talents]
    elif situation == "regular_action":
        used = obstacle.talents_used_by(sheet.name) if obstacle is not None else ()
        auto = _auto(rules.crisis.auto)
        reduce_auto = Fraction(min(obstruction, rules.complex.obstruction_reduction))
        auto |= {
            "expected_obstruction_reduction": float(reduce_auto),
            "expected_obstruction_reduction_exact": exact(reduce_auto),
        }
        choices.append(auto)
        for t in sheet.talents:
            extra = rules.crisis.repeated_talent if t.name in used else 0
            row = roll.row(t, target, extra_crisis=extra, cap=target + obstruction)
            reduction = expected_reduction(
                roll.d6(t),
                rules.levels.dice[t.level],
                obstruction,
                rules,
                extra_on_success=roll.effects(t).get("obstruction", 0),
            )
            row |= {
                "expected_obstruction_reduction": float(reduction),
                "expected_obstruction_reduction_exact": exact(reduction),
                "repeated": bool(extra),
            }
            choices.append(row)
        answer["obstruction"] = obstruction
        answer["decisive"] = [roll.row(t, obstruction) for t in sheet.talents]
    else:
        answer["obstruction"] = obstruction
        choices += [roll.row(t, obstruction) for t in sheet.talents]
    return answer


def _attack_odds(
    state: GameState,
    *,
    query: Mapping[str, Any],
    sheet: Character,
    situation: str,
    roll: _Roll,
    answer: dict[str, Any],
) -> dict[str, Any]:
    rules = state.rules
    people = participants(state)
    side = people[sheet.name][0] if sheet.name in people else "characters"
    target = query.get("target")
    if target is None:
        target = next((n for n, p in people.items() if p[0] != side), None)
    if target not in people:
        raise MalformedCommand(f"no target {target!r} to attack", code="unknown_character", path="target")
    ability = str(query.get("ability", rules.defences.default_ability))
    base = defences(people[str(target)][1], rules)[ability]
    flow = state.scene.conflict.flow if state.scene is not None and state.scene.conflict is not None else 0
    sign = 1 if side == "characters" else -1
    guard = max(rules.conflict.guard_minimum, rules.conflict.guard - sign * flow)
    against = guard if situation == "decisive_attack" else rules.roll.target
    answer |= {"target": target, "ability": ability, "against": against}
    cap = max(against, rules.roll.target)
    answer["choices"] = [roll.row(t, against, cap=cap, d6=roll.d6(t, base=base)) for t in sheet.talents]
    return answer


def _other_odds(
    state: GameState,
    *,
    query: Mapping[str, Any],
    sheet: Character,
    situation: str,
    roll: _Roll,
    answer: dict[str, Any],
) -> dict[str, Any]:
    """II-SKILL-3 (5d6 with Disadvantage = cost, Crisis = cost) and II-ROLL-1 Ability Rolls (no Crisis)."""
    rules = state.rules
    target = rules.roll.target
    if situation == "recreate_skill":
        cost = int(query.get("cost", 0))
        if cost < 0:
            raise MalformedCommand("cost must be 0 or more", code="bad_field", path="cost")
        crisis = Fraction(cost * rules.skills.recreate_crisis_per_cost)
        answer["cost"] = cost
        for t in sheet.talents:
            d6 = roll.d6(t, base=rules.skills.recreate_base_d6, disadvantage=cost)
            row = roll.row(t, target, d6=d6)
            row |= {"expected_crisis": float(crisis), "expected_crisis_exact": exact(crisis)}
            answer["choices"].append(row)
        return answer
    scene = state.scene
    base = int(query.get("dice", scene.difficulty if scene is not None else rules.roll.difficulty.default))
    d6 = final_d6(base, roll.advantage, roll.disadvantage, rules)
    against = int(query.get("against", target))
    zero = Fraction(0)
    for ability in rules.abilities:
        row = talent_choice(None, sheet.abilities[ability], d6, against, rules)
        row |= {"choice": "ability", "ability": ability, "label": f"Roll {ability}"}
        row |= {"expected_crisis": float(zero), "expected_crisis_exact": exact(zero)}
        answer["choices"].append(row)
    return answer
