"""Exact odds of one roll (II-ODDS-1/2): P(success), the capped distribution, expected Crisis and reduction.

The total of exploding dice is unbounded, but every question asked of it is "is it at least T?" for the
targets in play, so the distribution of ``min(total, cap)`` with the cap at the largest relevant target is
finite and exact (:func:`talespin.dice.pool_total`). Expected Crisis follows the rules data:

* against the standard target: ``success`` on success, else ``max(failure_minimum, target − total)``;
* against an Obstruction (a Decisive Action) the same with the Obstruction as target (II-COMPLEX-6);
* an action's extra Crisis (a repeated Talent, a Skill's ``crisis`` effect) is added, never below the floor;
* a character's attack adds Crisis only when it fails, measured against the standard target (II-FLOW-*).

Every odds function of both systems takes its arguments the same way: what is rolled first (here the
``d6`` count and the Talent's ``talent_dice``), then what it is rolled against (``against``, an
``obstruction``, a ``cap``), all positional or by name; every option after them is keyword-only, and so is
``rules=``, which defaults to the shipped rules. Five d6 and a level-5 Talent's two d6 against 20:

>>> odds = roll_chances(5, (6, 6), 20)
>>> round(float(odds.p_success), 4)
0.8962
>>> from talespin.systems.inciting_incident import load_rules
>>> dearer = load_rules({"crisis": {"success": 3}})
>>> roll_chances(5, (6, 6), 20, rules=dearer).expected_crisis > odds.expected_crisis
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...dice import Distribution, pool_total
from .rules import Rules, default_rules
from .sheet import Talent

__all__ = [
    "RollChances",
    "action_crisis",
    "distribution_rows",
    "exact",
    "expected_attack_crisis",
    "expected_reduction",
    "roll_chances",
    "talent_choice",
    "total_distribution",
]


def _rules(rules: Rules | None) -> Rules:
    """The rules asked for, or the shipped ones."""
    return default_rules() if rules is None else rules


def action_crisis(base: int, extra: int, *, rules: Rules | None = None) -> int:
    """An action's Crisis: its own amount plus extras, never below the floor (II-SKILL-2)."""
    return max(_rules(rules).crisis.floor, base + extra)


def failure_crisis(total: int, against: int, rules: Rules) -> int:
    """II-SIMPLE-3 / II-COMPLEX-3/6: the Crisis of a failure, at least the minimum."""
    return max(rules.crisis.failure_minimum, against - total)


def roll_crisis(total: int, against: int, rules: Rules) -> int:
    """The Crisis a rolled action adds before extras: success amount, or the failure amount."""
    return rules.crisis.success if total >= against else failure_crisis(total, against, rules)


@dataclass(frozen=True, slots=True)
class RollChances:
    """The exact odds of one roll: P(success), E[Crisis] and the distribution capped at ``cap``."""

    against: int
    p_success: Fraction
    expected_crisis: Fraction
    distribution: Distribution


def total_distribution(
    d6: int, talent_dice: Sequence[int], cap: int, *, rules: Rules | None = None
) -> Distribution:
    """``min(total, cap)`` for ``d6`` exploding d6 plus the Talent's dice (``talent_dice``: their sizes)."""
    return pool_total([_rules(rules).roll.d6_size] * d6 + list(talent_dice), max(1, cap))


def roll_chances(
    d6: int,
    talent_dice: Sequence[int],
    against: int,
    *,
    extra_crisis: int = 0,
    cap: int | None = None,
    rules: Rules | None = None,
) -> RollChances:
    """Exact odds of a roll of ``d6`` exploding d6 and ``talent_dice`` against ``against``.

    The distribution is capped at ``cap`` (default: ``against`` itself); ``extra_crisis`` is what the
    action adds to its Crisis besides the roll's own (a repeated Talent, a Skill's ``crisis`` effect).
    """
    rules = _rules(rules)
    dist = total_distribution(d6, talent_dice, max(against, cap or 0), rules=rules)
    expected = dist.expectation(
        lambda t: action_crisis(roll_crisis(t, against, rules), extra_crisis, rules=rules)
    )
    return RollChances(against, dist.p_at_least(against), expected, dist)


def expected_reduction(
    d6: int,
    talent_dice: Sequence[int],
    obstruction: int,
    *,
    extra_on_success: int = 0,
    rules: Rules | None = None,
) -> Fraction:
    """II-ODDS-2: E[Obstruction reduction] of a rolled Regular Action, exact (capped at the Obstruction).

    A success reduces the Obstruction by the margin over the target, plus ``extra_on_success`` (a Skill's
    ``obstruction`` effect).
    """
    rules = _rules(rules)
    target = rules.roll.target
    dist = total_distribution(d6, talent_dice, target + obstruction, rules=rules)

    def reduction(total: int) -> int:
        if total < target:
            return 0
        return min(obstruction, total - target + extra_on_success)

    return dist.expectation(reduction)


def expected_attack_crisis(
    d6: int,
    talent_dice: Sequence[int],
    against: int,
    *,
    extra_crisis: int = 0,
    failure_adds: bool = True,
    rules: Rules | None = None,
) -> Fraction:
    """E[Crisis] of an attack: a character's failure adds the failure amount against the target (an
    enemy's, with ``failure_adds=False``, adds none); a Skill's ``crisis`` effect counts either way."""
    rules = _rules(rules)
    target = rules.roll.target
    dist = total_distribution(d6, talent_dice, max(against, target), rules=rules)

    def crisis(total: int) -> int:
        own = failure_crisis(total, target, rules) if total < against and failure_adds else 0
        return action_crisis(own, extra_crisis, rules=rules)

    return dist.expectation(crisis)


def distribution_rows(dist: Distribution) -> list[list[object]]:
    """``[[total, p, "n/d"], …]``: the contract's distribution rows (the last holds "≥ cap")."""
    return [[t, float(p), f"{p.numerator}/{p.denominator}"] for t, p in dist.items()]


def exact(value: Fraction) -> str:
    """A fraction as the contract writes it, ``"n/d"``."""
    return f"{value.numerator}/{value.denominator}"


def talent_choice(
    d6: int,
    talent_dice: Sequence[int],
    against: int,
    *,
    talent: Talent | None = None,
    extra_crisis: int = 0,
    cap: int = 0,
    rules: Rules | None = None,
) -> dict[str, Any]:
    """One rolled choice: d6, Talent dice, P(success), expected Crisis and the capped distribution.

    ``talent_dice`` are the dice of the Talent's level (or an Ability's score, ``rules.levels.dice``);
    ``talent`` names the choice (none: a plain roll, labelled "Roll").
    """
    chances = roll_chances(d6, talent_dice, against, extra_crisis=extra_crisis, cap=cap, rules=rules)
    name = talent.name if talent is not None else None
    return {
        "choice": "talent",
        "talent": name,
        "label": f"Roll {name}" if name else "Roll",
        "d6": d6,
        "talent_dice": [f"d{s}" for s in talent_dice],
        "against": against,
        "p_success": float(chances.p_success),
        "p_success_exact": exact(chances.p_success),
        "expected_crisis": float(chances.expected_crisis),
        "expected_crisis_exact": exact(chances.expected_crisis),
        "distribution": distribution_rows(chances.distribution),
    }
