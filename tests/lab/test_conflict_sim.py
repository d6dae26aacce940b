"""The conflict Monte Carlo: reproducible by seed, and within 4 standard errors of exact answers."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from talespin.dice import pool_total
from talespin.lab.conflict_plain import play_conflict
from talespin.lab.conflict_sim import LONGEST, _Dice, simulate_conflict
from talespin.lab.conflict_spec import parse_conflict
from talespin.systems.errors import MalformedCommand
from talespin.systems.inciting_incident import default_rules

RULES = default_rules()


def _sheet(name: str, fortitude: int, nimbleness: int, level: int) -> dict:
    return {
        "name": name,
        "abilities": {"fortitude": fortitude, "perseverance": 1, "nimbleness": nimbleness},
        "talents": [{"name": "Strike", "ability": "nimbleness", "level": min(level, nimbleness)}],
    }


def _exact(a: dict, b: dict, rounds: int, at: tuple[int, int]):
    """(P(characters win), P(enemies win), E[Crisis], E[rounds]) of a duel, by direct recursion.

    Restates II-FLOW-2/3/4 and II-CHAR-8/9: defence max(1, 9 − Nimbleness), hits 1 + Fortitude, guard
    max(10, 30 − Flow in the attacker's favour), a wound returns the Flow to 0, a character's failure adds
    max(2, 20 − total) Crisis, an enemy's failure moves the Flow 2 toward the characters.
    """
    cap = 160  # the mass of totals past 160 is far below any standard error here
    who = [a, b]
    levels = [min(s["talents"][0]["level"], s["abilities"]["nimbleness"]) for s in who]
    hits = [1 + s["abilities"]["fortitude"] for s in who]
    defence = [max(1, 9 - s["abilities"]["nimbleness"]) for s in who]
    dists = [
        [
            (t, float(p))
            for t, p in pool_total([6] * defence[1 - i] + list(RULES.levels.dice[levels[i]]), cap).items()
        ]
        for i in range(2)
    ]

    @cache
    def value(r: int, i: int, flow: int, w0: int, w1: int):
        if w0 >= hits[0]:
            return 0.0, 1.0, 0.0, float(r)
        if w1 >= hits[1]:
            return 1.0, 0.0, 0.0, float(r)
        if i == 2:
            if r == rounds:
                return 0.0, 0.0, 0.0, float(r)
            return value(r + 1, 0, flow, w0, w1)
        sign = 1 if i == 0 else -1
        favour = sign * flow
        decisive = favour >= at[i]
        against = max(10, 30 - favour) if decisive else 20
        out = [0.0, 0.0, 0.0, 0.0]
        for t, p in dists[i]:
            crisis = 0
            if t >= against and decisive:
                nxt = (0, w0 + (i == 1), w1 + (i == 0))
            elif t >= against:
                nxt = (flow + sign * max(1, t - 20), w0, w1)
            else:
                nxt = (flow + (2 if i == 1 else 0), w0, w1)
                crisis = max(2, 20 - t) if i == 0 else 0
            sub = value(r, i + 1, *nxt)
            out = [o + p * v for o, v in zip(out, (sub[0], sub[1], sub[2] + crisis, sub[3]), strict=True)]
        return tuple(out)

    return value(1, 0, 0, 0, 0)


DUELS = [
    (_sheet("Ada", 0, 5, 5), _sheet("Orc", 0, 3, 3), 1, (0, 0)),  # one exchange: a Decisive Attack each
    (_sheet("Ada", 1, 4, 4), _sheet("Orc", 1, 4, 4), 3, (3, 2)),  # Regular until the Flow favours, 3 rounds
]


@pytest.mark.parametrize(("a", "b", "rounds", "at"), DUELS)
def test_simulation_agrees_with_the_exact_duel_within_4_standard_errors(a, b, rounds, at) -> None:
    """P(win) for each side, E[Crisis] and E[rounds] are within 4 s.e. of the exact recursion (seed fixed)."""
    # rule: II-FLOW-2
    # rule: II-FLOW-3
    # rule: II-FLOW-4
    # rule: II-CHAR-8
    # rule: II-CHAR-9
    conflict = parse_conflict(
        {
            "characters": [a],
            "enemies": [b],
            "max_rounds": rounds,
            "policies": {"characters": {"decisive_at": at[0]}, "enemies": {"decisive_at": at[1]}},
        },
        RULES,
    )
    got = simulate_conflict(conflict, RULES, sims=60_000, seed=11)
    want = _exact(a, b, rounds, at)
    for estimate, exact in zip(
        (got.p_characters_win, got.p_enemies_win, got.crisis, got.rounds), want, strict=True
    ):
        assert abs(estimate.value - exact) <= 4 * max(estimate.se, 1e-9), (estimate, exact)


def _skirmish():
    return parse_conflict(
        {
            "characters": [_sheet("Ada", 2, 5, 5), _sheet("Bo", 3, 3, 3)],
            "enemies": [_sheet("Orc", 2, 4, 4), _sheet("Imp", 0, 6, 2)],
            "policies": {"characters": {"decisive_at": 4}, "enemies": {"decisive_at": 1, "target": "first"}},
        },
        RULES,
    )


def test_the_same_seed_gives_the_same_answer_and_another_seed_another() -> None:
    """Seeded and reproducible: every figure is identical for one seed."""
    conflict = _skirmish()
    one = simulate_conflict(conflict, RULES, sims=5_000, seed=3).to_json()
    assert one == simulate_conflict(conflict, RULES, sims=5_000, seed=3).to_json()
    assert one != simulate_conflict(conflict, RULES, sims=5_000, seed=4).to_json()


def test_vectorised_and_plain_simulations_agree_on_a_skirmish() -> None:
    """Two sides of two: the vectorised and the one-at-a-time simulations agree within 4 s.e."""
    # rule: II-FLOW-1
    # rule: II-FLOW-5
    conflict = _skirmish()
    fast = simulate_conflict(conflict, RULES, sims=40_000, seed=5)
    rng = random.Random(5)
    plays = [play_conflict(conflict, rng, RULES) for _ in range(8_000)]
    p_plain = sum(1 for w, *_ in plays if w == 1) / len(plays)
    se = (p_plain * (1 - p_plain) / len(plays)) ** 0.5
    assert abs(fast.p_characters_win.value - p_plain) <= 4 * (se**2 + fast.p_characters_win.se**2) ** 0.5
    crisis = [c for _, _, c, _ in plays]
    mean = sum(crisis) / len(crisis)
    sd = (sum((x - mean) ** 2 for x in crisis) / (len(crisis) - 1)) ** 0.5
    assert abs(fast.crisis.value - mean) <= 4 * ((sd**2 / len(crisis)) + fast.crisis.se**2) ** 0.5
    low, high = fast.p_characters_win.interval
    assert low < fast.p_characters_win.value < high


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"enemies": []}, "enemies"),
        ({"policies": {"enemies": {"target": "loudest"}}}, "policies.enemies.target"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"ambush": True}, "ambush"),
    ],
)
def test_bad_conflicts_are_refused_with_the_path(change, path) -> None:
    """A malformed conflict names where it is wrong."""
    raw = {"characters": [_sheet("Ada", 2, 5, 5)], "enemies": [_sheet("Orc", 2, 4, 4)]} | change
    with pytest.raises(MalformedCommand) as caught:
        parse_conflict(raw, RULES)
    assert caught.value.path == path


@pytest.mark.parametrize("longest", [1, LONGEST])
def test_pool_totals_drawn_from_tables_follow_the_exact_distribution(longest) -> None:
    """Totals drawn from the tables (last faces by index, maxima by alias) match the exact pool
    distribution within 4 s.e., also when the table names only one maximum and the rest is drawn as tail."""
    # rule: II-ROLL-2
    sizes, cap, n = [6, 6, 8], 40, 200_000
    dice = _Dice.of(sizes, longest)
    assert dice is not None
    drawn = np.minimum(dice.roll(np.random.default_rng(1), n), cap)
    counts = np.bincount(drawn, minlength=cap + 1)
    for total, chance in pool_total(sizes, cap).items():
        p = float(chance)
        assert abs(counts[total] / n - p) <= 4 * (p * (1 - p) / n) ** 0.5 + 1e-9, (
            total,
            counts[total] / n,
            p,
        )
