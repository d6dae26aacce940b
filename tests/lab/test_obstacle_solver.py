"""The Complex Obstacle solver against an independent plain-Python recursion on small obstacles."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest

from talespin.dice import pool_total
from talespin.lab.advice import advise
from talespin.lab.obstacle import Action, Spot, solve, utility
from talespin.lab.party import Member, parse_party
from talespin.systems.errors import MalformedCommand
from talespin.systems.inciting_incident import default_rules, load_rules

RULES = default_rules()


LADDER = ((1, 1), (3, 2), (6, 3), (10, 4))  # II-ADV-2, restated: |net| at least this → that many d6


def _d6(base: int, net: int) -> int:
    step = max((d6 for at, d6 in LADDER if abs(net) >= at), default=0)
    return max(0, base + (step if net >= 0 else -step))


def _subsets(skills):
    """Every set of a Talent's Skills, none first, then by size, in sheet order."""
    return [combo for size in range(len(skills) + 1) for combo in combinations(skills, size)]


def _oracle(party, obstruction: int, attempts: int, cap: int, objective: str, *, last: int = -1, exact=False):
    """Best value of every first action by a direct recursion that restates II-COMPLEX-2..7 and the modifier
    Skill effects of II-ADV-1..3 / II-SKILL-2 itself.

    ``party`` is ``[(name, levels, skills)]`` with ``skills[j]`` the modifier Skills of Talent ``j`` as
    ``[(skill name, {effect: value})]``; an action is keyed ``(kind, i, j, skill names)``. With ``exact``
    every probability and value is a :class:`~fractions.Fraction`.
    """
    number = Fraction if exact else float

    @cache
    def dist(d6: int, lv: int):
        total = pool_total([6] * d6 + list(RULES.levels.dice[lv]), 20 + obstruction)
        return [(t, number(p)) for t, p in total.items() if p]

    def rolls(lvs, skills):
        """``(j, names, outcomes, crisis extra, obstruction extra)`` for each Talent and set of its Skills."""
        for j, lv in enumerate(lvs):
            for combo in _subsets(skills.get(j, [])):
                fx: dict[str, int] = {}
                for _, effects in combo:
                    for key, v in effects.items():
                        fx[key] = fx.get(key, 0) + v
                net = fx.get("advantage", 0) - fx.get("disadvantage", 0)
                names = tuple(n for n, _ in combo)
                yield j, names, dist(_d6(5, net), lv), fx.get("crisis", 0), fx.get("obstruction", 0)

    def term(c: int):
        c = min(c, cap)
        return number(-c) if objective == "crisis" else number(int(c < cap))

    @cache
    def value(o: int, a: int, last: int, used: frozenset, c: int):
        if c >= cap:
            return term(cap)
        return max(v for _, v in moves(o, a, last, used, c))

    def moves(o, a, last, used, c):
        for i, (_, lvs, skills) in enumerate(party):
            if len(party) > 1 and i == last:
                continue
            yield ("auto", i, None, ()), value(max(0, o - 4), a, i, used, c + 4)
            for j, names, outcomes, own, lower in rolls(lvs, skills):
                extra = own + (3 if (i, j) in used else 0)
                total = number(0)
                for t, p in outcomes:
                    if t >= 20:
                        after = max(0, o - (t - 20 + lower))
                        total += p * value(after, a, i, used | {(i, j)}, c + max(0, 2 + extra))
                    else:
                        total += p * value(o, a, i, used | {(i, j)}, c + max(0, max(2, 20 - t) + extra))
                yield ("regular", i, j, names), total
            for j, names, outcomes, extra, _ in rolls(lvs, skills):
                total = number(0)
                for t, p in outcomes:
                    if t >= o:
                        total += p * term(c + max(0, 2 + extra))
                    elif a == 1:
                        total += p * term(c + max(0, max(2, o - t) + extra))
                    else:
                        total += p * value(o, a - 1, i, used, c + max(0, max(2, o - t) + extra))
                yield ("decisive", i, j, names), total

    return dict(moves(obstruction, attempts, last, frozenset(), 0))


def _key(action):
    return (
        action.kind,
        int(action.character[1:]),
        None if action.talent is None else int(action.talent[1:]),
        action.skills,
    )


@pytest.mark.parametrize(
    ("levels", "obstruction", "attempts", "cap", "objective"),
    [
        ([[5]], 8, 2, 16, "crisis"),
        ([[5, 2], [3]], 10, 2, 18, "crisis"),
        ([[4], [6, 1]], 12, 3, 14, "below"),
    ],
)
def test_solver_matches_plain_recursion(levels, obstruction, attempts, cap, objective) -> None:
    """Every first action's value equals the direct recursion's."""
    # rule: II-COMPLEX-2
    # rule: II-COMPLEX-3
    # rule: II-COMPLEX-4
    # rule: II-COMPLEX-5
    # rule: II-COMPLEX-6
    # rule: II-COMPLEX-7
    raw = [
        {"name": f"C{i}", "talents": {f"T{j}": lv for j, lv in enumerate(lvs)}}
        for i, lvs in enumerate(levels)
    ]
    party = parse_party(raw, RULES)
    got = solve(party, Spot(obstruction, attempts), RULES, terminal=utility(objective, cap), base_d6=5)
    want = _oracle(
        [(r["name"], lvs, {}) for r, lvs in zip(raw, levels, strict=True)],
        obstruction,
        attempts,
        cap,
        objective,
    )
    assert len(got.values) == len(want)
    for action, v in got.values.items():
        assert v == pytest.approx(want[_key(action)], abs=1e-9)


def test_solver_refuses_rules_where_an_action_adds_no_crisis() -> None:
    """A variant letting an action add no Crisis is refused by name instead of looping."""
    # rule: II-COMPLEX-2
    party = parse_party([{"name": "Ada", "talents": {"Piloting": 5}}])
    rules = load_rules({"crisis": {"success": 0}})
    with pytest.raises(MalformedCommand, match="at least 1"):
        solve(party, Spot(8, 2), rules, terminal=utility("crisis", 20), base_d6=5)


def test_party_refuses_a_talent_without_a_level() -> None:
    """A Talent level out of the rules' range is refused with the path."""
    with pytest.raises(MalformedCommand, match="level"):
        parse_party([{"name": "Ada", "talents": {"Piloting": 12}}])


def test_a_character_without_talents_takes_only_automatic_actions() -> None:
    """A character with no Talents still acts (automatically), and the values match the recursion."""
    # rule: II-COMPLEX-5
    party = (Member("C0", (("T0", 5),)), Member("C1", ()))
    got = solve(party, Spot(10, 2), RULES, terminal=utility("crisis", 18), base_d6=5)
    want = _oracle([("C0", [5], {}), ("C1", [], {})], 10, 2, 18, "crisis")
    assert {a.kind for a in got.values if a.character == "C1"} == {"auto"}
    assert len(got.values) == len(want)
    for action, v in got.values.items():
        assert v == pytest.approx(want[_key(action)], abs=1e-9)


QUICK = {"advantage": 3}
STEADY = {"crisis": 1, "obstruction": 3}
HEAVY = {"advantage": 1, "disadvantage": 4, "crisis": -1}


def _skills(pairs):
    return [{"name": n, "cost": 1, "kind": "modifier", "effects": fx} for n, fx in pairs]


@pytest.mark.parametrize(
    ("first", "second", "obstruction", "attempts", "cap", "objective"),
    [
        ({1: [("Quick", QUICK)]}, [], 10, 2, 18, "crisis"),
        ({0: [("Steady", STEADY), ("Heavy", HEAVY)]}, [("Quick", QUICK)], 12, 2, 16, "crisis"),
        (
            {0: [("Steady", STEADY)], 1: [("Quick", QUICK), ("Heavy", HEAVY)]},
            [("Steady", STEADY)],
            12,
            3,
            14,
            "below",
        ),
    ],
)
def test_modifier_skills_match_plain_recursion(  # noqa: PLR0917 -- one parameter per column of the cases
    first, second, obstruction, attempts, cap, objective
) -> None:
    """With modifier Skills every (Talent, set of Skills) is an action, and each value equals the recursion's:
    C0 has two Talents (Skills given in its sheet's Talents), C1 one (Skills in the short form)."""
    # rule: II-SKILL-1
    # rule: II-SKILL-2
    # rule: II-ADV-2
    levels = [5, 2]
    talents = [
        {"name": f"T{j}", "level": lv, "skills": _skills(first.get(j, []))} for j, lv in enumerate(levels)
    ]
    raw = [
        {"name": "C0", "talents": talents},
        {"name": "C1", "talents": {"T0": 3}, "skills": {"T0": _skills(second)}},
    ]
    party = parse_party(raw, RULES)
    got = solve(party, Spot(obstruction, attempts), RULES, terminal=utility(objective, cap), base_d6=5)
    want = _oracle([("C0", levels, first), ("C1", [3], {0: second})], obstruction, attempts, cap, objective)
    assert len(got.values) == len(want)
    assert any(a.skills for a in got.values)
    for action, v in got.values.items():
        assert v == pytest.approx(want[_key(action)], abs=1e-9)


def test_a_modifier_skill_changes_the_best_action() -> None:
    """C0's Skill on its weaker Talent (3 Advantage) turns the best action from a Decisive roll of the other
    Talent to a Decisive roll of this one with the Skill, and the solver's value of it is the recursion's."""
    # rule: II-SKILL-1
    plain = [{"name": "C0", "talents": {"T0": 5, "T1": 3}}, {"name": "C1", "talents": {"T0": 2}}]
    skilled = [
        plain[0] | {"skills": {"T1": [{"name": "Quick", "cost": 3, "kind": "modifier", "effects": QUICK}]}},
        plain[1],
    ]
    spot = Spot(16, 2, "C1")
    before = advise(parse_party(plain, RULES), spot, cap=20)
    after = advise(parse_party(skilled, RULES), spot, cap=20)
    assert before.best == Action("decisive", "C0", "T0")
    assert after.best == Action("decisive", "C0", "T1", ("Quick",))
    solved = solve(parse_party(skilled, RULES), spot, RULES, terminal=utility("crisis", 20), base_d6=5)
    want = _oracle([("C0", [5, 3], {1: [("Quick", QUICK)]}), ("C1", [2], {})], 16, 2, 20, "crisis", last=1)
    assert solved.values[after.best] == pytest.approx(want[("decisive", 0, 1, ("Quick",))], abs=1e-9)
    assert after.rows[0][1] == pytest.approx(-want[("decisive", 0, 1, ("Quick",))], abs=1e-9)
