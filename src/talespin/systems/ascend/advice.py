"""Invoke advice (AS-ODDS-3): every legal Dice Pool for a Hero's Test, ranked by P(success).

A choice is one Trait, one Background and one Aid (each optional, AS-POOL-1) plus the items Invoked by
narration (none, one, or two for exceptional narration; AS-POOL-2/3). Every legal assignment is listed, so a
table can find the one a player picked; with ``distinct=True`` assignments that use the same set of items
(Agility chosen and Strength Invoked, or the other way round) are listed once, slots filled first. The
ranking is by P(success), then expected Successes, then fewer items used: the smallest pool that does the
job comes first among equals.

>>> from .sheet import Hero
>>> susan = Hero(name="Susan", skills={"Athletics": 3}, traits={"Agility": 3, "Strength": 2},
...              backgrounds={"Avanus": 1})
>>> best = advise(susan, skill="Athletics", narration="narrated", distinct=True)[0]
>>> (best.trait, best.background, best.invoke, best.pool)
('Agility', 'Avanus', ('Strength',), 6)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any, cast, get_args

from ...dice import LimitExceeded
from ..arguments import instance, one_of, optional_text, optional_whole
from .chances import distribution_rows, exact, successes
from .commands import TestSpec
from .pool import Item, prepare_test
from .rules import Narration, Rules, default_rules
from .sheet import ITEM_KIND, POOL_KINDS, Hero

__all__ = ["MAX_ADVICE_CHOICES", "Choice", "advise"]

MAX_ADVICE_CHOICES = 100_000
"""At most this many Dice Pools are ranked (about two seconds of exact odds).

A Hero with dozens of items of each kind and exceptional narration has millions of legal pools; advice for
such a sheet is refused with :class:`~talespin.dice.LimitExceeded` before any work, instead of running for
minutes.
"""


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal Dice Pool for the Test, with its exact odds."""

    trait: str | None
    background: str | None
    aid: str | None
    invoke: tuple[str, ...]
    pool: int
    target: int
    required: int
    p_success: Fraction
    expected: Fraction
    items: int
    invoke_kinds: tuple[str, ...] = ()
    """The kind (trait, background, aid) of each Invoked item, in the order of ``invoke``."""

    @property
    def invoke_items(self) -> list[dict[str, str]]:
        """Each Invoked item by kind and name, ``{"trait": "Strength"}``: a Test's ``invoke`` takes it as is,
        and a name two kinds share stays unambiguous."""
        return [{kind: name} for kind, name in zip(self.invoke_kinds, self.invoke, strict=True)]

    def to_json(self, rules: Rules) -> dict[str, Any]:
        """The shape of docs/state-views.md: items, pool, P(success) and the Successes distribution.

        ``invoke`` names the Invoked items; ``invoke_items`` gives each with its kind, so the choice can be
        played back as a Test (``"trait", "background", "aid", "invoke": invoke_items``) even when a name is
        both a Trait and a Background.
        """
        return {
            "trait": self.trait,
            "background": self.background,
            "aid": self.aid,
            "invoke": list(self.invoke),
            "invoke_items": self.invoke_items,
            "pool": self.pool,
            "p_success": float(self.p_success),
            "p_success_exact": exact(self.p_success),
            "expected_successes": float(self.expected),
            "expected_successes_exact": exact(self.expected),
            "distribution": distribution_rows(successes(self.pool, self.target, rules=rules)),
        }


def _options(names: list[str], most: int) -> Iterator[tuple[str, ...]]:
    """Subsets of up to ``most`` names, largest first, so a shared set is listed with its slots filled."""
    for size in range(most, -1, -1):
        yield from combinations(names, size)


def _count_at_most(names: int, most: int) -> int:
    return sum(comb(names, size) for size in range(min(most, names) + 1))


def _check_size(hero: Hero, rules: Rules, narration: Narration) -> None:
    """Refuse advice whose legal pools (bounded above without listing them) exceed the limit."""
    counts = [len(hero.ratings(kind)) for kind in POOL_KINDS]
    bound = _count_at_most(sum(counts), rules.invokes.allowed(narration))
    for count in counts:
        bound *= _count_at_most(count, rules.pool.per_kind)
    if bound > MAX_ADVICE_CHOICES:
        raise LimitExceeded(
            f"{hero.name} has up to {bound} legal Dice Pools for this Test, more than the "
            f"{MAX_ADVICE_CHOICES} advice ranks: ask with less narration, or for a sheet with fewer items"
        )


def _assignments(hero: Hero, rules: Rules, narration: Narration) -> Iterator[tuple[list[Item], list[Item]]]:
    """Every (chosen, invoked) pair of items the rules allow, chosen per kind then Invoked from the rest."""
    every = [
        Item(ITEM_KIND[kind], name, hero.ratings(kind)[name])
        for kind in POOL_KINDS
        for name in sorted(hero.ratings(kind))
    ]
    allowed = rules.invokes.allowed(narration)

    def per_kind(index: int) -> Iterator[list[Item]]:
        if index == len(POOL_KINDS):
            yield []
            return
        mine = [item for item in every if item.kind == ITEM_KIND[POOL_KINDS[index]]]
        for picked in _options([item.name for item in mine], rules.pool.per_kind):
            chosen = [item for item in mine if item.name in picked]
            for rest in per_kind(index + 1):
                yield chosen + rest

    for chosen in per_kind(0):
        remaining = [item for item in every if item not in chosen]
        for count in range(allowed + 1):
            for invoked in combinations(remaining, count):
                yield chosen, list(invoked)


def advise(
    hero: Hero,
    *,
    skill: str | None = None,
    conviction: str | None = None,
    difficulty: int | None = None,
    required: int | None = None,
    narration: Narration = "none",
    rules: Rules | None = None,
    distinct: bool = False,
) -> list[Choice]:
    """AS-ODDS-3: every legal Dice Pool for this Test (each set of items once if ``distinct``), best first.

    The Test itself is checked as a Test would be (the Skill or Conviction must be the Hero's), so a query
    for a Test that could not be rolled is refused the same way. An argument of the wrong kind is refused
    with :class:`~talespin.systems.arguments.BadArgument` naming it and what it must be.
    """
    hero = instance(hero, "hero", Hero, "parse_hero(sheet, rules) makes one from a sheet")
    rules = default_rules() if rules is None else instance(rules, "rules", Rules, "load_rules(variant)")
    narration = cast(Narration, one_of(narration, "narration", get_args(Narration)))
    for name, text in (("skill", skill), ("conviction", conviction)):
        optional_text(text, name)
    optional_whole(difficulty, "difficulty")
    optional_whole(required, "required")
    _check_size(hero, rules, narration)
    base = prepare_test(
        TestSpec(
            hero=hero.name, skill=skill, conviction=conviction, difficulty=difficulty, required=required
        ),
        hero,
        rules,
    )
    seen: set[frozenset[tuple[str, str]]] = set()
    choices = []
    for chosen, invoked in _assignments(hero, rules, narration):
        key = frozenset((item.kind, item.name) for item in chosen + invoked)
        if distinct and key in seen:
            continue
        seen.add(key)
        pool = sum(item.rating for item in chosen + invoked)
        dist = successes(pool, base.target, rules=rules)
        slot = {item.kind: item.name for item in chosen}
        choices.append(
            Choice(
                slot.get("trait"),
                slot.get("background"),
                slot.get("aid"),
                tuple(item.name for item in invoked),
                pool,
                base.target,
                base.required,
                dist.p_at_least(base.required),
                dist.mean(),
                len(key),
                tuple(item.kind for item in invoked),
            )
        )
    choices.sort(key=lambda c: (-c.p_success, -c.expected, c.items, c.pool))
    return choices
