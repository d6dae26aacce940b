"""Exact odds (II-ODDS-1/2) against icepool, brute force and a seeded simulation."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

import icepool
import pytest

from talespin.dice import pool_total, roll_pool
from talespin.systems import MalformedCommand, get_system
from talespin.systems.inciting_incident import default_rules, expected_reduction, roll_chances

RULES = default_rules()


def _icepool_total(sizes: list[int], cap: int) -> Any:
    """The oracle: icepool exploding dice, explosion depth ⌈cap/S⌉−1 per die size (exact below the cap)."""
    total = icepool.Die([0])
    for size in sizes:
        total = total + icepool.Die(range(1, size + 1)).explode(depth=math.ceil(cap / size) - 1)
    return total


@pytest.mark.parametrize(
    ("d6", "level", "against"),
    [
        (5, 5, 20),
        (1, 0, 20),
        (0, 3, 20),
        (3, 9, 20),
        (9, 1, 20),
        (5, 8, 37),
        (2, 4, 7),
        (13, 6, 20),
        (4, 2, 30),
    ],
)
def test_odds_match_icepool(d6: int, level: int, against: int) -> None:
    """P(success), the capped distribution and expected Crisis agree exactly with icepool."""
    # rule: II-ODDS-1 II-ROLL-2
    sizes = [6] * d6 + list(RULES.levels.dice[level])
    chances = roll_chances(d6, RULES.levels.dice[level], against, rules=RULES)
    oracle = _icepool_total(sizes, against)
    assert chances.p_success == oracle.probability(">=", against)
    crisis = oracle.map(lambda t: 2 if t >= against else max(2, against - t))
    assert chances.expected_crisis == crisis.mean()
    for total, p in chances.distribution.items():
        if total < against:
            assert p == oracle.probability(total)
        else:
            assert p == oracle.probability(">=", against)


def _brute(sizes: list[int], cap: int) -> dict[int, Fraction]:
    """Enumerate every chain of every die until the running total reaches the cap."""
    dist = {0: Fraction(1)}
    for size in sizes:
        nxt: dict[int, Fraction] = {}

        def walk(
            base: int, p: Fraction, running: int, size: int = size, nxt: dict[int, Fraction] = nxt
        ) -> None:
            for face in range(1, size + 1):
                q = p / size
                value = running + face
                if face == size and base + value < cap:
                    walk(base, q, value)
                else:
                    key = min(cap, base + value)
                    nxt[key] = nxt.get(key, Fraction(0)) + q

        for base, p in dist.items():
            if base >= cap:
                nxt[cap] = nxt.get(cap, Fraction(0)) + p
            else:
                walk(base, p, 0)
        dist = nxt
    return dist


@pytest.mark.parametrize(("d6", "level", "against"), [(1, 1, 8), (2, 2, 11), (0, 5, 14), (1, 3, 20)])
def test_odds_match_brute_force(d6: int, level: int, against: int) -> None:
    """On small pools the capped distribution equals an enumeration of every chain."""
    # rule: II-ODDS-1
    chances = roll_chances(d6, RULES.levels.dice[level], against, rules=RULES)
    brute = _brute([6] * d6 + list(RULES.levels.dice[level]), against)
    assert dict(chances.distribution.items()) == {k: v for k, v in brute.items() if v}


def test_simulation_agrees_with_exact_odds() -> None:
    """10^5 seeded Talent Rolls succeed at the exact rate within 4 standard errors."""
    # rule: II-ODDS-1 II-ROLL-2
    rng = random.Random(20261202)
    sizes = [6] * 4 + [8, 8]
    n = 100_000
    hits = sum(roll_pool(sizes, rng).total >= 20 for _ in range(n))
    p = float(roll_chances(4, (8, 8), 20, rules=RULES).p_success)
    se = math.sqrt(p * (1 - p) / n)
    assert abs(hits / n - p) < 4 * se


def test_expected_obstruction_reduction_matches_icepool() -> None:
    """E[Obstruction reduction] of a rolled Regular Action is exact (capped at the Obstruction)."""
    # rule: II-ODDS-2
    for obstruction in (0, 5, 12):
        oracle = _icepool_total([6] * 5 + [6, 6], 20 + obstruction)
        expected = oracle.map(lambda t, o=obstruction: 0 if t < 20 else min(o, t - 20)).mean()
        assert expected_reduction(5, (6, 6), obstruction, rules=RULES) == expected


def test_state_odds_for_a_simple_obstacle(h: Any) -> None:
    """odds() lists Auto and every Talent with exact and float P(success) and expected Crisis."""
    # rule: II-ODDS-1 II-SIMPLE-2
    state, _ = h.run([h.ACTION])
    answer = get_system("ii").odds(state, {"character": "Ada", "advantage": 2})
    assert answer["situation"] == "simple_obstacle"
    auto, piloting = answer["choices"][0], answer["choices"][1]
    assert auto == {
        "choice": "auto",
        "label": "Auto",
        "p_success": 1.0,
        "p_success_exact": "1/1",
        "expected_crisis": 4.0,
        "expected_crisis_exact": "4/1",
    }
    exact = roll_chances(6, (6, 6), 20, rules=RULES)
    assert (
        piloting["talent"] == "Piloting" and piloting["d6"] == 6 and piloting["talent_dice"] == ["d6", "d6"]
    )
    assert piloting["p_success_exact"] == f"{exact.p_success.numerator}/{exact.p_success.denominator}"
    assert piloting["distribution"][-1][0] == 20
    assert [c.get("talent") for c in answer["choices"]] == [None, "Piloting", "Quickdraw", "Mechanics"]


def test_state_odds_for_a_complex_obstacle(h: Any) -> None:
    """For a Complex Obstacle odds() gives the Decisive chance now and the expected reduction per Talent."""
    # rule: II-ODDS-2 II-COMPLEX-4
    state, _ = h.run(
        [
            h.ACTION,
            {"do": "complex_obstacle", "obstruction": 12, "attempts": 2},
            {
                "do": "regular_action",
                "character": "Ada",
                "talent": "Piloting",
                "faces": [[1], [1], [1], [1], [1], [1], [1]],
            },
        ]
    )
    answer = get_system("ii").odds(state, {"character": "Ada"})
    assert answer["situation"] == "regular_action" and answer["obstruction"] == 12
    auto, piloting = answer["choices"][0], answer["choices"][1]
    assert auto["expected_obstruction_reduction"] == 4.0
    assert piloting["repeated"] is True
    assert piloting["expected_obstruction_reduction_exact"] == _frac(
        expected_reduction(5, (6, 6), 12, rules=RULES)
    )
    decisive = {c["talent"]: c for c in answer["decisive"]}
    assert decisive["Piloting"]["p_success_exact"] == _frac(
        roll_chances(5, (6, 6), 12, rules=RULES).p_success
    )
    plain = roll_chances(5, (6, 6), 20, extra_crisis=3, rules=RULES)
    assert piloting["expected_crisis_exact"] == _frac(plain.expected_crisis)


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def test_state_odds_for_an_attack(h: Any) -> None:
    """In a conflict odds() rolls against the target's defence and the guard for a Decisive Attack."""
    # rule: II-ODDS-1 II-FLOW-2 II-FLOW-3
    state, _ = h.run(
        [{"do": "start_scene", "kind": "conflict"}, {"do": "start_conflict", "enemies": [h.GUARD]}]
    )
    regular = get_system("ii").odds(state, {"character": "Ada"})
    assert regular["situation"] == "regular_attack" and regular["target"] == "Guard"
    assert regular["choices"][0]["d6"] == 6  # Guard's nimbleness 3 → defence 6
    decisive = get_system("ii").odds(state, {"character": "Ada", "situation": "decisive_attack"})
    assert decisive["against"] == 30
    for ability in ("charm", ["nimbleness"]):
        with pytest.raises(MalformedCommand, match="ability must be one of") as refused:
            get_system("ii").odds(state, {"character": "Ada", "ability": ability})
        assert refused.value.rule == "II-FLOW-2"
    with pytest.raises(MalformedCommand, match="no target"):
        get_system("ii").odds(state, {"character": "Ada", "target": ["Guard"]})


def test_state_odds_for_recreation_and_ability_rolls(h: Any) -> None:
    """odds() covers recreating a Skill (5d6 less the cost's Disadvantage) and Ability Rolls."""
    # rule: II-ODDS-1 II-SKILL-3 II-ROLL-1
    state, _ = h.run([h.ACTION])
    recreate = get_system("ii").odds(state, {"character": "Ada", "situation": "recreate_skill", "cost": 6})
    piloting = recreate["choices"][0]
    assert piloting["d6"] == 2 and piloting["expected_crisis_exact"] == "6/1"
    assert piloting["p_success_exact"] == _frac(roll_chances(2, (6, 6), 20, rules=RULES).p_success)
    ability = get_system("ii").odds(state, {"character": "Bram", "situation": "ability_roll"})
    assert [c["ability"] for c in ability["choices"]] == ["fortitude", "perseverance", "nimbleness"]
    assert ability["choices"][0]["talent_dice"] == ["d6", "d6"]


def _direct(
    d6: int, dice: tuple[int, ...], against: int, *, extra: int, obstruction: int = 0, bonus: int = 0
):
    """P(success), E[Crisis] and E[reduction] summed outcome by outcome from the capped distribution."""
    cap = max(against, 20 + obstruction)
    dist = pool_total([6] * d6 + list(dice), cap)
    p = sum((q for t, q in dist.items() if t >= against), Fraction(0))
    crisis = sum(
        (q * max(0, (2 if t >= against else max(2, against - t)) + extra) for t, q in dist.items()),
        Fraction(0),
    )
    reduction = sum((q * min(obstruction, t - 20 + bonus) for t, q in dist.items() if t >= 20), Fraction(0))
    return p, crisis, reduction


def test_state_odds_count_every_effect_of_ticked_skills(h: Any) -> None:
    """Ticked modifier Skills' Advantage, Disadvantage, Crisis and Obstruction effects all enter the odds."""
    # rule: II-SKILL-1 II-SKILL-2 II-ODDS-1 II-ODDS-2
    sheet = json.loads(json.dumps(h.ADA))
    sheet["talents"][0]["skills"].append(
        {"name": "Risky Dive", "cost": 5, "kind": "modifier", "effects": {"crisis": 3, "obstruction": 4}}
    )
    sheet["talents"][0]["skills"].append(
        {"name": "Heavy Load", "cost": 1, "kind": "modifier", "effects": {"disadvantage": 1}}
    )
    setup = {"characters": [sheet, h.BRAM], "rising_tension": 5}
    state, _ = h.run([h.ACTION, {"do": "complex_obstacle", "obstruction": 14, "attempts": 2}], setup=setup)
    system = get_system("ii")
    ticked = ["Barrel Roll", "Risky Dive", "Steady Hands"]
    answer = system.odds(state, {"character": "Ada", "skills": ticked})
    piloting = next(c for c in answer["choices"] if c.get("talent") == "Piloting")
    # Barrel Roll: Advantage 2 → 6d6; crisis +3 (Risky Dive) −1 (Steady Hands); Obstruction +4 on success.
    p, crisis, reduction = _direct(6, (6, 6), 20, extra=2, obstruction=14, bonus=4)
    assert piloting["d6"] == 6 and piloting["skills"] == ticked
    assert piloting["p_success_exact"] == _frac(p)
    assert piloting["expected_crisis_exact"] == _frac(crisis)
    assert piloting["expected_obstruction_reduction_exact"] == _frac(reduction)
    decisive = next(c for c in answer["decisive"] if c["talent"] == "Piloting")
    p, crisis, _ = _direct(6, (6, 6), 14, extra=2)
    assert decisive["p_success_exact"] == _frac(p) and decisive["expected_crisis_exact"] == _frac(crisis)
    other = next(c for c in answer["choices"] if c.get("talent") == "Quickdraw")
    assert other["d6"] == 5 and "skills" not in other  # another Talent's Skills do not apply to it
    slowed = system.odds(state, {"character": "Ada", "skills": ["Heavy Load"], "advantage": 1})
    row = next(c for c in slowed["choices"] if c.get("talent") == "Piloting")
    p, crisis, _ = _direct(5, (6, 6), 20, extra=0, obstruction=14)
    assert (
        row["d6"] == 5
        and row["p_success_exact"] == _frac(p)
        and row["expected_crisis_exact"] == _frac(crisis)
    )


def test_state_odds_with_skills_match_the_engine_crisis(h: Any) -> None:
    """The expected Crisis shown with a Skill ticked is the mean of what the engine adds for each outcome."""
    # rule: II-SKILL-2 II-SIMPLE-3
    state, _ = h.run([h.ACTION])
    answer = get_system("ii").odds(state, {"character": "Ada", "skills": ["Steady Hands"]})
    piloting = next(c for c in answer["choices"] if c.get("talent") == "Piloting")
    p, crisis, _ = _direct(5, (6, 6), 20, extra=-1)
    assert piloting["p_success_exact"] == _frac(p) and piloting["expected_crisis_exact"] == _frac(crisis)
    # A success adds 2 − 1 = 1 Crisis in the engine too.
    success = [[6, 6, 6, 2], [1], [1], [1], [1], [1], [1]]
    command = {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "skills": ["Steady Hands"]}
    _, events = h.run([h.ACTION, h.OBSTACLE, {**command, "faces": success}])
    assert h.last(events, "CrisisRaised").data["amount"] == 1


def test_state_odds_refuse_unknown_or_advanced_skills(h: Any) -> None:
    """A Skill the character lacks, or an advanced one, is refused in an odds query with a clear error."""
    # rule: II-SKILL-1
    state, _ = h.run([h.ACTION])
    with pytest.raises(MalformedCommand, match="no Skill"):
        get_system("ii").odds(state, {"character": "Ada", "skills": ["Nope"]})
    with pytest.raises(MalformedCommand, match="advanced"):
        get_system("ii").odds(state, {"character": "Bram", "skills": ["Calm Voice"]})


def test_attack_odds_count_crisis_only_on_failure_with_skill_crisis(h: Any) -> None:
    """A character's attack adds Crisis only on failure (plus its Skill's Crisis); enemies add none."""
    # rule: II-SKILL-2 II-FLOW-2 II-FLOW-3
    state, _ = h.run(
        [{"do": "start_scene", "kind": "conflict"}, {"do": "start_conflict", "enemies": [h.GUARD]}]
    )
    system = get_system("ii")
    answer = system.odds(state, {"character": "Ada", "skills": ["Steady Hands"]})
    piloting = next(c for c in answer["choices"] if c["talent"] == "Piloting")
    dist = pool_total([6] * 6 + [6, 6], 20)
    crisis = sum((q * max(0, max(2, 20 - t) - 1) for t, q in dist.items() if t < 20), Fraction(0))
    assert piloting["d6"] == 6 and piloting["expected_crisis_exact"] == _frac(crisis)
    decisive = system.odds(state, {"character": "Ada", "situation": "decisive_attack"})
    row = next(c for c in decisive["choices"] if c["talent"] == "Piloting")
    dist = pool_total([6] * 6 + [6, 6], 30)
    crisis = sum((q * max(2, 20 - t) for t, q in dist.items() if t < 30), Fraction(0))
    assert row["expected_crisis_exact"] == _frac(crisis)
    guard = system.odds(state, {"character": "Guard"})
    assert all(c["expected_crisis_exact"] == "0/1" for c in guard["choices"])
