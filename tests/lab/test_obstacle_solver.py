"""The Complex Obstacle solver against an independent plain-Python recursion on small obstacles."""

from __future__ import annotations

from functools import cache

import pytest

from talespin.dice import pool_total
from talespin.lab.obstacle import Spot, solve, utility
from talespin.lab.party import Member, parse_party
from talespin.systems.errors import MalformedCommand
from talespin.systems.inciting_incident import default_rules, load_rules

RULES = default_rules()


def _oracle(party: list[tuple[str, list[int]]], obstruction: int, attempts: int, cap: int, objective: str):
    """Best value of every first action by a direct recursion that restates II-COMPLEX-2..7 itself."""
    dists = {
        lv: [float(p) for _, p in pool_total([6] * 5 + list(RULES.levels.dice[lv]), 20 + obstruction).items()]
        for _, lvs in party
        for lv in lvs
    }
    lows = {
        lv: pool_total([6] * 5 + list(RULES.levels.dice[lv]), 20 + obstruction).low
        for _, lvs in party
        for lv in lvs
    }

    def term(c: int) -> float:
        c = min(c, cap)
        return -float(c) if objective == "crisis" else float(c < cap)

    def outcomes(lv: int):
        for k, p in enumerate(dists[lv]):
            if p:
                yield lows[lv] + k, p

    @cache
    def value(o: int, a: int, last: int, used: frozenset, c: int) -> float:
        if c >= cap:
            return term(cap)
        return max(v for _, v in moves(o, a, last, used, c))

    def moves(o, a, last, used, c):
        for i, (_, lvs) in enumerate(party):
            if len(party) > 1 and i == last:
                continue
            yield ("auto", i, None), value(max(0, o - 4), a, i, used, c + 4)
            for j, lv in enumerate(lvs):
                extra = 3 if (i, j) in used else 0
                total = 0.0
                for t, p in outcomes(lv):
                    if t >= 20:
                        total += p * value(max(0, o - (t - 20)), a, i, used | {(i, j)}, c + 2 + extra)
                    else:
                        total += p * value(o, a, i, used | {(i, j)}, c + max(2, 20 - t) + extra)
                yield ("regular", i, j), total
            for j, lv in enumerate(lvs):
                total = 0.0
                for t, p in outcomes(lv):
                    if t >= o:
                        total += p * term(c + 2)
                    elif a == 1:
                        total += p * term(c + max(2, o - t))
                    else:
                        total += p * value(o, a - 1, i, used, c + max(2, o - t))
                yield ("decisive", i, j), total

    return dict(moves(obstruction, attempts, -1, frozenset(), 0))


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
        [(r["name"], lvs) for r, lvs in zip(raw, levels, strict=True)], obstruction, attempts, cap, objective
    )
    assert len(got.values) == len(want)
    for action, v in got.values.items():
        i = int(action.character[1:])
        j = None if action.talent is None else int(action.talent[1:])
        assert v == pytest.approx(want[(action.kind, i, j)], abs=1e-9)


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
    want = _oracle([("C0", [5]), ("C1", [])], 10, 2, 18, "crisis")
    assert {a.kind for a in got.values if a.character == "C1"} == {"auto"}
    assert len(got.values) == len(want)
    for action, v in got.values.items():
        j = None if action.talent is None else int(action.talent[1:])
        assert v == pytest.approx(want[(action.kind, int(action.character[1:]), j)], abs=1e-9)
