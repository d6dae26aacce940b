"""Exact odds of Ascend: Successes of one Test, opposed Tests and extended Tests (AS-ODDS-1, AS-ODDS-2).

Each die is a Success with probability ``p = (Target + 1)/10`` clamped to [0, 1] (for the shipped d10 read
0–9), so the Successes of a pool of ``n`` dice are binomial. Everything here is an exact
:class:`~talespin.dice.Distribution` or :class:`~fractions.Fraction`; floats are only made for presentation.

Every odds function of both systems takes its arguments the same way: what is rolled first (here the
``pool``), then what it is rolled against (the ``target``) and anything else the question cannot do
without (an extended Test's ``goal``), all positional or by name; every option after them is keyword-only,
and so is ``rules=``, which defaults to the shipped rules. A variant is one keyword away:

>>> test_odds(1, 2).p_success
Fraction(3, 10)
>>> successes(3, 9).outcomes()
[3]
>>> from talespin.systems.ascend import load_rules
>>> opposed_odds((3, 4), (3, 4), rules=load_rules({"opposed": {"tie": "reroll"}})).tie_rule
'reroll'
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

from ...dice import Distribution, LimitExceeded
from .rules import Die, Rules, default_rules

MAX_EXTENDED_WORK = 400_000
"""The largest extended-Test odds computed: Tests × (goal + 1) × (Successes one Test can add + 1).

About two seconds of exact arithmetic; a goal or limit far beyond any table (``--limit 10¹¹``) is refused
with :class:`~talespin.dice.LimitExceeded` before any work, instead of running for hours.
"""

__all__ = [
    "MAX_EXTENDED_WORK",
    "ExtendedOdds",
    "OpposedOdds",
    "TestOdds",
    "distribution_rows",
    "exact",
    "extended_odds",
    "opposed_odds",
    "successes",
    "test_odds",
]


def exact(p: Fraction) -> str:
    """An exact probability as the contracts write it: ``"numerator/denominator"`` in lowest terms."""
    return f"{p.numerator}/{p.denominator}"


def distribution_rows(dist: Distribution) -> list[list[Any]]:
    """``[[outcome, p, "n/d"], …]`` for every possible outcome, ascending."""
    return [[outcome, float(p), exact(p)] for outcome, p in dist.items()]


def _rules(rules: Rules | None) -> Rules:
    """The rules asked for, or the shipped ones."""
    return default_rules() if rules is None else rules


@lru_cache(maxsize=4096)
def _binomial(die: Die, target: int, pool: int) -> Distribution:
    return Distribution.bernoulli(die.p_success(target)).repeat_sum(pool)


def successes(pool: int, target: int, *, rules: Rules | None = None) -> Distribution:
    """AS-ODDS-1: the number of Successes of ``pool`` dice against ``target`` (0 dice: 0 Successes).

    Two dice against Target 4, each a Success half the time:

    >>> list(successes(2, 4).items())
    [(0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4))]
    """
    return _binomial(_rules(rules).die, target, pool)


@dataclass(frozen=True, slots=True)
class TestOdds:
    """The odds of one Test: its Successes distribution and P(at least ``required``)."""

    __test__: ClassVar[bool] = False  # a rules term, not a pytest test class

    target: int
    pool: int
    required: int
    distribution: Distribution

    @property
    def p_success(self) -> Fraction:
        """P(Successes ≥ required)."""
        return self.distribution.p_at_least(self.required)

    def to_json(self) -> dict[str, Any]:
        """The contract's ``{"target", "pool", "required", "p_success", "p_success_exact", …}``."""
        mean = self.distribution.mean()
        return {
            "target": self.target,
            "pool": self.pool,
            "required": self.required,
            "p_success": float(self.p_success),
            "p_success_exact": exact(self.p_success),
            "expected_successes": float(mean),
            "expected_successes_exact": exact(mean),
            "distribution": distribution_rows(self.distribution),
        }


def test_odds(pool: int, target: int, *, required: int | None = None, rules: Rules | None = None) -> TestOdds:
    """AS-ODDS-1: the odds of a Test of ``pool`` dice against ``target`` needing ``required`` Successes
    (the rules' default number when not given)."""
    rules = _rules(rules)
    needed = rules.required.default if required is None else required
    return TestOdds(target, pool, needed, successes(pool, target, rules=rules))


@dataclass(frozen=True, slots=True)
class OpposedOdds:
    """AS-ODDS-2: one roll of an opposed Test, and who finally wins under the campaign's tie rule."""

    win: Fraction
    tie: Fraction
    lose: Fraction
    attacker_wins: Fraction
    defender_wins: Fraction
    tie_rule: str

    def to_json(self) -> dict[str, Any]:
        """Floats and exact strings of every figure."""
        figures = {
            "p_win": self.win,
            "p_tie": self.tie,
            "p_lose": self.lose,
            "p_attacker_wins": self.attacker_wins,
            "p_defender_wins": self.defender_wins,
        }
        body: dict[str, Any] = {"tie_rule": self.tie_rule}
        for key, value in figures.items():
            body[key] = float(value)
            body[f"{key}_exact"] = exact(value)
        return body


def opposed_odds(
    attacker: tuple[int, int], defender: tuple[int, int], *, rules: Rules | None = None
) -> OpposedOdds:
    """AS-ODDS-2: P(win/tie/lose) for the attacker's ``(pool, target)`` against the defender's.

    Each side is what :func:`successes` takes, in its order: the pool, then the target.

    With the tie rule ``defender`` the defender takes every tie. With ``reroll`` a tie is rolled again up to
    ``reroll_limit`` times and a tie that outlasts them goes to the defender, so over ``k = limit + 1`` rolls
    P(attacker wins) = win · (1 + tie + … + tie^(k−1)), exactly.
    """
    rules = _rules(rules)
    a = successes(*attacker, rules=rules)
    d = successes(*defender, rules=rules)
    difference = a - d
    win = difference.p_at_least(1)
    lose = difference.p_at_most(-1)
    tie = 1 - win - lose
    if rules.opposed.tie == "reroll":
        rolls = rules.opposed.reroll_limit + 1
        repeats = sum((tie**k for k in range(rolls)), Fraction(0))
        attacker_wins = win * repeats
    else:
        attacker_wins = win
    return OpposedOdds(win, tie, lose, attacker_wins, 1 - attacker_wins, rules.opposed.tie)


@dataclass(frozen=True, slots=True)
class ExtendedOdds:
    """AS-ODDS-2: how many Tests an extended Test needs to reach its goal."""

    goal: int
    limit: int | None
    needed: tuple[Fraction, ...]
    """``needed[n-1]`` = P(the goal is first reached on Test n), for n up to the limit or the horizon."""

    @property
    def p_within(self) -> Fraction:
        """P(the goal is reached within the limit, or within the horizon when there is none)."""
        return sum(self.needed, Fraction(0))

    def to_json(self) -> dict[str, Any]:
        """``{"goal", "limit", "tests_needed": [[n, p, "n/d"], …], "p_within_limit", …}``."""
        within = self.p_within
        return {
            "goal": self.goal,
            "limit": self.limit,
            "horizon": len(self.needed),
            "tests_needed": [[n, float(p), exact(p)] for n, p in enumerate(self.needed, start=1) if p],
            "p_within_limit": float(within),
            "p_within_limit_exact": exact(within),
            "p_beyond": float(1 - within),
            "p_beyond_exact": exact(1 - within),
        }


def extended_odds(
    pool: int, target: int, goal: int, *, limit: int | None = None, rules: Rules | None = None
) -> ExtendedOdds:
    """AS-ODDS-2: the distribution of the number of Tests (each ``pool`` dice against ``target``) to ``goal``.

    The running total is capped at the goal after every Test, which is exact for "has it reached the goal".
    Without a limit the list stops at the rules' ``odds_horizon``; the rest of the mass is ``p_beyond``.
    """
    rules = _rules(rules)
    steps = limit if limit is not None else rules.extended.odds_horizon
    work = steps * (goal + 1) * (min(pool, goal) + 1)
    if work > MAX_EXTENDED_WORK:
        raise LimitExceeded(
            f"the odds of an extended Test of up to {steps} Tests toward {goal} Successes with {pool} dice "
            f"are too large to compute ({work} steps of work; the limit is {MAX_EXTENDED_WORK}): "
            "use a smaller goal, limit or pool"
        )
    step = successes(pool, target, rules=rules).cap(goal)
    running = Distribution.constant(0)
    reached_before = Fraction(0)
    needed = []
    for _ in range(steps):
        running = (running + step).cap(goal)
        reached = running.p_at_least(goal)
        needed.append(reached - reached_before)
        reached_before = reached
    return ExtendedOdds(goal, limit, tuple(needed))
