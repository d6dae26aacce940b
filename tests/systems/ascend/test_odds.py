"""Exact odds checked against icepool and brute force: Successes, opposed Tests and extended Tests."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import icepool
import pytest

from talespin.systems.ascend import (
    SYSTEM,
    AscendState,
    extended_odds,
    load_rules,
    opposed_odds,
    successes,
)
from talespin.systems.ascend import test_odds as odds_of_test

RULES = load_rules()
TARGETS = range(-1, 11)


def _icepool_successes(target: int, pool: int) -> icepool.Die:
    """The oracle: each die is ``d10 − 1`` (0–9), a Success when ≤ target; sum of ``pool`` of them."""
    one = (icepool.d10 - 1 <= target).map(int, star=False)
    return pool @ one if pool else icepool.Die([0])


def _as_dict(die: icepool.Die) -> dict[int, Fraction]:
    return {int(outcome): Fraction(p) for outcome, p in zip(die.outcomes(), die.probabilities(), strict=True)}


@pytest.mark.parametrize("pool", range(31))
def test_successes_match_icepool_for_every_target(pool: int) -> None:
    """Pools of 0–30 dice, Targets −1..10: the binomial Successes distribution equals icepool's, exactly."""
    # rule: AS-ODDS-1, AS-TEST-3, AS-POOL-4
    for target in TARGETS:
        ours = dict(successes(pool, target, rules=RULES).items())
        oracle = {k: p for k, p in _as_dict(_icepool_successes(target, pool)).items() if p}
        assert ours == oracle, (target, pool)


@pytest.mark.parametrize("pool", range(5))
def test_successes_match_brute_force_enumeration(pool: int) -> None:
    """Every face combination of up to 4 dice, counted by hand, gives the same exact P(success)."""
    # rule: AS-ODDS-1, AS-TEST-3, AS-TEST-4
    for target in TARGETS:
        counts = [sum(1 for f in faces if f <= target) for faces in product(range(10), repeat=pool)]
        total = len(counts)
        for required in range(1, pool + 2):
            expected = Fraction(sum(1 for c in counts if c >= required), total)
            assert odds_of_test(pool, target, required=required, rules=RULES).p_success == expected


def test_the_contract_json_gives_floats_and_exact_fractions() -> None:
    """p_success is the float of p_success_exact; the distribution rows are [successes, p, "n/d"]."""
    # rule: AS-ODDS-1
    body = odds_of_test(3, 2, rules=RULES).to_json()
    assert body["p_success_exact"] == "657/1000"
    assert body["p_success"] == pytest.approx(0.657)
    assert body["distribution"] == [
        [0, 0.343, "343/1000"],
        [1, 0.441, "441/1000"],
        [2, 0.189, "189/1000"],
        [3, 0.027, "27/1000"],
    ]
    assert {"target", "pool", "required", "p_success", "p_success_exact", "distribution"} <= set(body)


@pytest.mark.parametrize(("a_pool", "d_pool"), [(0, 0), (1, 3), (4, 2), (6, 6), (9, 5)])
def test_opposed_odds_match_icepool(a_pool: int, d_pool: int) -> None:
    """P(win), P(tie), P(lose) equal icepool's difference of the two Successes distributions."""
    # rule: AS-ODDS-2, AS-OPP-1
    for a_target, d_target in [(-1, 3), (2, 2), (5, 1), (9, 0), (3, 7)]:
        figures = opposed_odds((a_pool, a_target), (d_pool, d_target), rules=RULES)
        difference = _icepool_successes(a_target, a_pool) - _icepool_successes(d_target, d_pool)
        oracle = _as_dict(difference)
        assert figures.win == sum(p for k, p in oracle.items() if k > 0)
        assert figures.tie == oracle.get(0, 0)
        assert figures.lose == sum(p for k, p in oracle.items() if k < 0)
        assert figures.attacker_wins == figures.win
        assert figures.defender_wins == figures.tie + figures.lose


def test_rerolled_ties_follow_the_bounded_geometric_series() -> None:
    """With ``reroll``, P(attacker wins) sums win · tie^k over every allowed roll, checked step by step."""
    # rule: AS-ODDS-2, AS-OPP-1
    rules = load_rules({"opposed": {"tie": "reroll", "reroll_limit": 4}})
    figures = opposed_odds((2, 3), (2, 3), rules=rules)
    win, tie = figures.win, figures.tie
    attacker, still_tied = Fraction(0), Fraction(1)
    for _ in range(5):
        attacker += still_tied * win
        still_tied *= tie
    assert figures.attacker_wins == attacker
    assert figures.defender_wins == 1 - attacker
    assert figures.win == figures.lose  # equal sides


def _first_reached_by_enumeration(target: int, pool: int, goal: int, tests: int) -> list[Fraction]:
    """P(goal first reached on Test n), n = 1..tests, by walking every sequence of per-Test Successes."""
    step = dict(successes(pool, target, rules=RULES).items())
    first = [Fraction(0)] * tests
    frontier = {0: Fraction(1)}  # running total (below the goal) → probability
    for n in range(tests):
        following: dict[int, Fraction] = {}
        for total, p in frontier.items():
            for got, q in step.items():
                if total + got >= goal:
                    first[n] += p * q
                else:
                    following[total + got] = following.get(total + got, Fraction(0)) + p * q
        frontier = following
    return first


@pytest.mark.parametrize(
    ("target", "pool", "goal", "limit"),
    [(2, 3, 4, 5), (5, 6, 10, 4), (0, 1, 2, 8), (-1, 4, 1, 3), (9, 2, 7, 6), (3, 0, 1, 2)],
)
def test_extended_odds_match_enumeration_and_icepool(target: int, pool: int, goal: int, limit: int) -> None:
    """The distribution of Tests needed, and P(within the limit), match two independent computations."""
    # rule: AS-ODDS-2, AS-EXT-1
    odds = extended_odds(pool, target, goal, limit=limit, rules=RULES)
    assert list(odds.needed) == _first_reached_by_enumeration(target, pool, goal, limit)
    one_test = _icepool_successes(target, pool)
    reached = [Fraction(0)] + [
        sum((Fraction(p) for k, p in _as_dict(n @ one_test).items() if k >= goal), Fraction(0))
        for n in range(1, limit + 1)
    ]
    assert list(odds.needed) == [reached[n] - reached[n - 1] for n in range(1, limit + 1)]
    assert odds.p_within == reached[limit]
    body = odds.to_json()
    assert body["p_within_limit_exact"] == f"{reached[limit].numerator}/{reached[limit].denominator}"
    assert Fraction(body["p_beyond_exact"]) == 1 - reached[limit]


def test_rerolled_ties_stop_after_ten_rerolls_by_default() -> None:
    """Under ``reroll`` with the shipped limit, a tie is rolled again 10 times: 11 rolls in all."""
    # rule: AS-OPP-1
    figures = opposed_odds((2, 4), (2, 4), rules=load_rules({"opposed": {"tie": "reroll"}}))
    eleven = figures.win * sum((figures.tie**k for k in range(11)), Fraction(0))
    assert figures.attacker_wins == eleven
    assert figures.attacker_wins != figures.win * sum((figures.tie**k for k in range(12)), Fraction(0))


def test_extended_odds_without_a_limit_stop_at_the_horizon() -> None:
    """No limit: the odds list the first 30 Tests (the horizon); the rest of the mass is p_beyond."""
    # rule: AS-ODDS-2 AS-EXT-1
    odds = extended_odds(1, 0, 3, rules=RULES)
    assert len(odds.needed) == 30
    assert 0 < odds.p_within < 1


def test_odds_queries_answer_each_kind(state: AscendState) -> None:
    """The table's odds(state, query) answers tests, opposed and extended Tests by their numbers."""
    # rule: AS-ODDS-1, AS-ODDS-2
    test = SYSTEM.odds(state, {"kind": "test", "rating": 3, "difficulty": 2, "pool": 4})
    assert (test["target"], test["p_success_exact"]) == (1, "369/625")
    opposed = SYSTEM.odds(
        state, {"kind": "opposed", "attacker": {"rating": 3, "pool": 2}, "defender": {"rating": 3, "pool": 2}}
    )
    assert opposed["p_win_exact"] == opposed["p_lose_exact"]
    extended = SYSTEM.odds(state, {"kind": "extended", "rating": 4, "pool": 3, "goal": 2, "limit": 2})
    assert extended["tests_needed"][0][0] == 1
    assert extended["p_within_limit"] == pytest.approx(sum(row[1] for row in extended["tests_needed"]))


def test_extended_odds_beyond_the_work_limit_are_refused_before_any_work() -> None:
    """An extended Test with an absurd limit (10¹¹ Tests) is refused with LimitExceeded instead of hanging."""
    # rule: AS-ODDS-2
    from talespin.dice import LimitExceeded
    from talespin.systems.ascend.chances import MAX_EXTENDED_WORK, extended_odds

    with pytest.raises(LimitExceeded, match=str(MAX_EXTENDED_WORK)):
        extended_odds(4, 3, 5, limit=10**11)
    assert extended_odds(4, 3, 5, limit=30).p_within > 0


def test_a_rolled_pool_beyond_the_dice_limit_is_a_malformed_command() -> None:
    """Rolling more dice than the dice limit is refused by name before any list of dice is built."""
    # rule: AS-POOL-1
    import random

    from talespin.systems.ascend.rolling import roll_faces
    from talespin.systems.ascend.rules import default_rules
    from talespin.systems.errors import MalformedCommand

    with pytest.raises(MalformedCommand, match="at most 1000 dice"):
        roll_faces(10**11, None, random.Random(1), default_rules())
