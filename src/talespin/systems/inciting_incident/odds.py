"""``odds(state, query)``: the choices open to a character now, each with exact odds (II-ODDS-1/2).

The situation is read from the state (an open Simple Obstacle, a Complex Obstacle, a conflict) or named in
the query (``"situation": "decisive_action"``). Each choice carries P(success) and expected Crisis as a float
and as an exact fraction, and the distribution of the total capped at the largest relevant target. For a
Complex Obstacle each choice also carries the expected Obstruction reduction of a Regular Action, and the
answer lists the Decisive Action odds now. The shape is the one of ``docs/state-views.md``.

Each roll is weighed with the :class:`~.plan.RollPlan` the engine would roll it with: the query's own
Advantage and Disadvantage, the modifier Skills it ticks (``"skills": ["Barrel Roll"]``, II-SKILL-1; each
counts with every structured effect, II-SKILL-2, on the rows of the Talent that has it) and what the
character carries from an earlier command. A character's attack adds Crisis only when it fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from ..bounds import Whole
from ..errors import MalformedCommand
from . import rule_ids as ids
from .chances import exact, expected_attack_crisis, expected_reduction, talent_choice
from .commands import Count, check_base, refusal
from .conflict import guard, participants
from .plan import RollPlan, plan_for
from .rules import Rules
from .sheet import Character, Talent, defences
from .state import GameState
from .turns import acting_now, advanced_choices, current_difficulty

__all__ = ["SITUATIONS", "exact", "odds", "talent_choice"]

SITUATIONS = (
    "simple_obstacle",
    "regular_action",
    "decisive_action",
    "regular_attack",
    "decisive_attack",
    "recreate_skill",
    "ability_roll",
)


class OddsQuery(BaseModel):
    """An odds query: whose choices, in which situation, with what dice (unknown keys are let through)."""

    model_config = ConfigDict(frozen=True, extra="allow")
    character: Any = None
    situation: Any = None
    target: Any = None
    ability: Any = None
    skills: Any = []
    dice: Whole | None = None
    advantage: Count = 0
    disadvantage: Count = 0
    cost: Count = 0
    against: Count | None = None


def parse_query(query: Mapping[str, Any]) -> OddsQuery:
    """The typed odds query, or MalformedCommand naming the field (as a command's are named)."""
    if not isinstance(query, Mapping):
        raise MalformedCommand("an odds query is a mapping with character", code="malformed")
    try:
        return OddsQuery.model_validate(dict(query))
    except ValidationError as error:
        raise refusal(OddsQuery, "odds query", error.errors()[0]) from None


def _base(query: OddsQuery, default: int, rules: Rules) -> int:
    """II-ROLL-5: the query's base d6 count (``dice``), or the one in play."""
    return check_base(
        query.dice, default, rules.roll.difficulty, key="dice", do="odds query", rule=ids.ROLL_5
    )


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


def _situation(state: GameState, query: OddsQuery) -> str:
    named = query.situation
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


def _skill_names(query: OddsQuery, sheet: Character) -> tuple[str, ...]:
    """The modifier Skills named by ``query["skills"]``; each must be a modifier Skill of the character."""
    names = query.skills
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


def _plan(
    state: GameState, query: OddsQuery, sheet: Character, base: int, *, skills: bool = True
) -> RollPlan:
    """The plan of the roll a query asks about (``skills=False``: none ticked, as for an Advanced Action)."""
    return plan_for(
        state,
        sheet.name,
        base=base,
        advantage=query.advantage,
        disadvantage=query.disadvantage,
        skills=_skill_names(query, sheet) if skills else (),
    )


def _row(
    plan: RollPlan, talent: Talent, against: int, *, extra_crisis: int = 0, cap: int = 0
) -> dict[str, Any]:
    """One Talent's choice with its Skills' Crisis counted; ``"skills"`` names the ticked ones used."""
    extra = extra_crisis + plan.effects(talent).get("crisis", 0)
    row = talent_choice(
        plan.d6(talent),
        plan.rules.levels.dice[talent.level],
        against,
        talent=talent,
        extra_crisis=extra,
        cap=cap,
        rules=plan.rules,
    )
    applied = plan.applied(talent)
    if applied:
        row["skills"] = applied
    return row


def odds(state: GameState, query: Mapping[str, Any]) -> dict[str, Any]:
    """The choices open to ``query["character"]`` now, with exact odds.

    Besides the situation's choices, the answer says whether the character may act on it now
    (``can_act``, and the ``reason`` when not: II-SIMPLE-4, II-COMPLEX-5, II-FLOW-1/4) and lists its
    Advanced Actions (``advanced``, II-SKILL-5), each with its odds and its own ``can_act``.
    """
    parsed = parse_query(query)
    answer = _odds(state, parsed)
    name = answer["character"]
    reason = acting_now(state, name, answer["situation"])
    sheet = _sheet(state, name)
    # An Advanced Action carries no modifier Skill: the ticked ones are left out of its odds.
    plan = _plan(state, parsed, sheet, current_difficulty(state), skills=False)
    return answer | {
        "can_act": reason is None,
        "reason": reason,
        "advanced": advanced_choices(state, sheet, plan),
    }


def _odds(state: GameState, query: OddsQuery) -> dict[str, Any]:
    rules = state.rules
    sheet = _sheet(state, query.character)
    situation = _situation(state, query)
    scene = state.scene
    obstacle = scene.obstacle if scene is not None else None
    base = scene.difficulty if scene is not None else rules.roll.difficulty.default
    if obstacle is not None and obstacle.difficulty is not None:
        base = obstacle.difficulty
    roll = _plan(state, query, sheet, _base(query, base, rules))
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
        choices += [_row(roll, t, target) for t in sheet.talents]
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
            row = _row(roll, t, target, extra_crisis=extra, cap=target + obstruction)
            reduction = expected_reduction(
                roll.d6(t),
                rules.levels.dice[t.level],
                obstruction,
                extra_on_success=roll.effects(t).get("obstruction", 0),
                rules=rules,
            )
            row |= {
                "expected_obstruction_reduction": float(reduction),
                "expected_obstruction_reduction_exact": exact(reduction),
                "repeated": bool(extra),
            }
            choices.append(row)
        answer["obstruction"] = obstruction
        answer["decisive"] = [_row(roll, t, obstruction) for t in sheet.talents]
    else:
        answer["obstruction"] = obstruction
        choices += [_row(roll, t, obstruction) for t in sheet.talents]
    return answer


def _attack_odds(
    state: GameState,
    *,
    query: OddsQuery,
    sheet: Character,
    situation: str,
    roll: RollPlan,
    answer: dict[str, Any],
) -> dict[str, Any]:
    rules = state.rules
    people = participants(state)
    side = people[sheet.name][0] if sheet.name in people else "characters"
    target = query.target
    if target is None:
        target = next((n for n, p in people.items() if p[0] != side), None)
    if not isinstance(target, str) or target not in people:
        raise MalformedCommand(f"no target {target!r} to attack", code="unknown_character", path="target")
    ability = rules.defences.default_ability if query.ability is None else query.ability
    if ability not in rules.abilities:
        raise MalformedCommand(
            f"ability must be one of {', '.join(rules.abilities)}, got {ability!r}",
            code="bad_field",
            rule=ids.FLOW_2,
            path="ability",
        )
    base = defences(people[str(target)][1], rules)[ability]
    flow = state.scene.conflict.flow if state.scene is not None and state.scene.conflict is not None else 0
    against = guard(rules, flow, side) if situation == "decisive_attack" else rules.roll.target
    answer |= {"target": target, "ability": ability, "against": against}
    cap = max(against, rules.roll.target)
    roll = roll.with_base(base)
    for t in sheet.talents:
        d6 = roll.d6(t)
        row = _row(roll, t, against, cap=cap)
        extra = roll.effects(t).get("crisis", 0)
        crisis = expected_attack_crisis(
            d6,
            rules.levels.dice[t.level],
            against,
            extra_crisis=extra,
            failure_adds=side == "characters",
            rules=rules,
        )
        row |= {"expected_crisis": float(crisis), "expected_crisis_exact": exact(crisis)}
        answer["choices"].append(row)
    return answer


def _other_odds(
    state: GameState,
    *,
    query: OddsQuery,
    sheet: Character,
    situation: str,
    roll: RollPlan,
    answer: dict[str, Any],
) -> dict[str, Any]:
    """II-SKILL-3 (5d6 with Disadvantage = cost, Crisis = cost) and II-ROLL-1 Ability Rolls (no Crisis)."""
    rules = state.rules
    target = rules.roll.target
    if situation == "recreate_skill":
        cost = query.cost
        crisis = Fraction(cost * rules.skills.recreate_crisis_per_cost)
        answer["cost"] = cost
        roll = roll.with_base(rules.skills.recreate_base_d6).with_disadvantage(cost)
        for t in sheet.talents:
            row = _row(roll, t, target)
            row |= {"expected_crisis": float(crisis), "expected_crisis_exact": exact(crisis)}
            answer["choices"].append(row)
        return answer
    scene = state.scene
    default_base = scene.difficulty if scene is not None else rules.roll.difficulty.default
    base = _base(query, default_base, rules)
    d6 = RollPlan(rules, base, roll.advantage, roll.disadvantage).d6(None)  # an Ability Roll carries nothing
    against = target if query.against is None else query.against
    zero = Fraction(0)
    for ability in rules.abilities:
        row = talent_choice(d6, rules.levels.dice[sheet.abilities[ability]], against, rules=rules)
        row |= {"choice": "ability", "ability": ability, "label": f"Roll {ability}"}
        row |= {"expected_crisis": float(zero), "expected_crisis_exact": exact(zero)}
        answer["choices"].append(row)
    return answer
