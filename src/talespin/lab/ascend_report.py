"""The Ascend balance report: one page a designer hands to playtesters.

Six sections, each computed exactly from the rules data (and any variants) by the lab's own functions:

1. **What a rating point buys** — Traits, Backgrounds and Aids cost nothing but their ratings, and every
   rating point is one d10 (AS-POOL-1): P(success) per pool at a low, a middling and a high Target, what the
   next point adds, and from which pool a point on the Skill (Target + 1) buys more than a point on the pool;
2. **P(success) per Target × pool** — the shipped grid at the default number of Successes required, and the
   fewest dice for even odds per Target and Successes required;
3. **The value of narration** — for a reference Hero (or the designer's), each Skill's and Conviction's best
   P(success) without narration, narrated (one Invoke) and exceptional (two);
4. **Extended Tests** — P(reaching the goal within n Tests) per pool;
5. **Opposed Tests** — P(the attacker wins) for each pair of pools, ``tie: defender`` and ``tie: reroll``;
6. **Where a variant changes a Hero's best choice** — per variant, the Hero's Tests and narration levels whose
   best Dice Pool (AS-ODDS-3) changes, and the Targets whose fewest dice for even odds change.

:func:`ascend_report` computes; :meth:`AscendReport.markdown` writes the page, naming the pictures the caller
drew (:mod:`.ascend_report_plot`). No I/O here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..systems.ascend import SYSTEM, Choice, Hero, Rules, advise, load_rules, parse_hero, successes
from ..systems.ascend.chances import exact
from .ascend_report_page import page
from .ascend_tests import (
    NARRATIONS,
    ExtendedTable,
    NarrationTable,
    OpposedTable,
    extended_table,
    narration_value,
    opposed_table,
)
from .ascend_variants import AscendComparison, compare_ascend

__all__ = [
    "REFERENCE_HERO",
    "AscendReport",
    "ChoiceChange",
    "ascend_report",
]

REFERENCE_HERO: dict[str, Any] = {
    "name": "Rowan",
    "skills": {"Athletics": 3, "Stealth": 2, "Persuasion": 1},
    "convictions": {"Protect the weak": 4},
    "traits": {"Agility": 3, "Strength": 2, "Wits": 1},
    "backgrounds": {"Avanus": 2, "Scout": 1},
    "aids": {"Lucky charm": 2, "Climbing rope": 1},
}
"""The Hero of sections 3 and 6 when the designer names none: two or three items of each kind, so that
exceptional narration has something left to Invoke."""

MAX_POOL = 12
"""Sections 1 and 2 run to this many dice: three items of rating 4, or a narrated pool of middling items."""
COST_TARGETS = (1, 3, 5)
"""The Targets of section 1: a hard, a middling and an easy Test."""
MAX_REQUIRED = 3
"""Section 2's even-odds table runs to this many Successes required."""
EXTENDED_TARGET, EXTENDED_LIMIT = 3, 6
"""Section 4: the extended Test's Target and limit; its goal is the rules' default (``extended.goal``)."""
OPPOSED_TARGETS = (3, 3)
"""Section 5: the attacker's and the defender's Target."""
SECTION_POOLS = (2, 4, 6, 8)
"""Sections 4 and 5: the pools compared (and, in 5, each side's)."""


@dataclass(frozen=True, slots=True)
class ChoiceChange:
    """A Test of the Hero at one narration level: its best Dice Pool under the shipped rules and under a
    variant (``changed`` when the variant picks other items)."""

    test: str
    """``"Athletics (skill)"``."""
    narration: str
    before: str
    """The shipped rules' best pool, ``"Agility + Avanus + Climbing rope (5d10)"``."""
    before_p: Fraction
    after: str
    after_p: Fraction
    changed: bool

    def to_json(self) -> dict[str, Any]:
        """The change, each P(success) as a float and an exact fraction."""
        return {
            "test": self.test,
            "narration": self.narration,
            "before": self.before,
            "before_p": float(self.before_p),
            "before_p_exact": exact(self.before_p),
            "after": self.after,
            "after_p": float(self.after_p),
            "after_p_exact": exact(self.after_p),
            "changed": self.changed,
        }


@dataclass(frozen=True)
class AscendReport:
    """Every figure of the page; ``markdown`` lays them out."""

    required: int
    """The Successes required of sections 1 and 2 (the rules' default)."""
    targets: tuple[int, ...]
    pools: tuple[int, ...]
    p_grid: tuple[tuple[Fraction, ...], ...]
    """``p_grid[target][pool]``: P(success) of the shipped rules at ``required``."""
    skill_beats_die: tuple[int | None, ...]
    """Per Target (but the last), the smallest pool (≥ 1) where +1 Skill adds more P(success) than +1 die."""
    comparison: AscendComparison
    narration: NarrationTable
    extended: ExtendedTable
    opposed: OpposedTable
    choices: dict[str, tuple[ChoiceChange, ...]]
    """Per variant (not the shipped rules), the Hero's best choice of every Test, before and after."""

    @property
    def cost_targets(self) -> tuple[int, ...]:
        """The Targets of section 1 that are on the grid."""
        return tuple(t for t in COST_TARGETS if t in self.targets)

    def even_changes(self, name: str) -> list[tuple[int, int, int, int]]:
        """``(target, required, before, after)`` where ``name`` changes the fewest dice for even odds."""
        cmp = self.comparison
        base, other = cmp.dice_for_even_odds[cmp.names[0]], cmp.dice_for_even_odds[name]
        return [
            (t, k, int(base[t, k - 1]), int(other[t, k - 1]))
            for t in cmp.targets
            for k in cmp.required
            if base[t, k - 1] != other[t, k - 1]
        ]

    def to_json(self) -> dict[str, Any]:
        """The figures, section by section; every probability as a float (exact ones in the parts)."""
        return {
            "system": SYSTEM.name,
            "required": self.required,
            "targets": list(self.targets),
            "pools": list(self.pools),
            "p_success": [[float(p) for p in row] for row in self.p_grid],
            "p_success_exact": [[exact(p) for p in row] for row in self.p_grid],
            "skill_beats_die": list(self.skill_beats_die),
            "dice_for_even_odds": {
                n: self.comparison.dice_for_even_odds[n].tolist() for n in self.comparison.names
            },
            "narration": self.narration.to_json(),
            "extended": self.extended.to_json(),
            "opposed": self.opposed.to_json(),
            "changes": {
                name: {
                    "choices": [c.to_json() for c in choices],
                    "even_odds": [
                        {"target": t, "required": k, "before": b, "after": a}
                        for t, k, b, a in self.even_changes(name)
                    ],
                }
                for name, choices in self.choices.items()
            },
        }

    def markdown(self, images: Mapping[str, str]) -> str:
        """The page; ``images`` maps ``"cost"``, ``"grid"``, ``"narration"``, ``"extended"``,
        ``"opposed"`` and ``"variants"`` to the pictures' file names (a missing one is left out)."""
        return page(self, images)


def _label(choice: Choice) -> str:
    """``"Agility + Avanus + Strength (6 dice)"``; a choice of more than one item of a kind (a variant's
    ``pool.per_kind``) names one per kind and counts the others."""
    items = [x for x in (choice.trait, choice.background, choice.aid, *choice.invoke) if x]
    more = f" + {choice.items - len(items)} more" if choice.items > len(items) else ""
    return f"{' + '.join(items) or 'no items'}{more} ({choice.pool} dice)"


def _items(choice: Choice) -> frozenset[str]:
    return frozenset(x for x in (choice.trait, choice.background, choice.aid, *choice.invoke) if x)


def _best_choices(hero: Hero, rules: Rules) -> dict[tuple[str, str], Choice]:
    """The best Dice Pool (AS-ODDS-3) of each Test of ``hero`` at each narration level."""
    best: dict[tuple[str, str], Choice] = {}
    for kind, ratings in (("skill", hero.skills), ("conviction", hero.convictions)):
        for name in ratings:
            skill, conviction = (name, None) if kind == "skill" else (None, name)
            for level in NARRATIONS:
                ranked = advise(
                    hero, skill=skill, conviction=conviction, narration=level, rules=rules, distinct=True
                )
                best[(f"{name} ({kind})", level)] = ranked[0]
    return best


def _choice_changes(hero: Hero, shipped: Rules, variant: Rules) -> tuple[ChoiceChange, ...]:
    before, after = _best_choices(hero, shipped), _best_choices(hero, variant)
    return tuple(
        ChoiceChange(
            test, level, _label(old), old.p_success, _label(new), new.p_success, _items(old) != _items(new)
        )
        for (test, level), old in before.items()
        for new in [after[(test, level)]]
    )


def _skill_beats_die(rules: Rules, targets: tuple[int, ...], required: int) -> tuple[int | None, ...]:
    """Per Target below the last: the first pool from which a Skill point adds more than a die."""

    def p(pool: int, target: int) -> Fraction:
        return successes(pool, target, rules=rules).p_at_least(required)

    out: list[int | None] = []
    for t in targets[:-1]:
        found = [
            n
            for n in range(1, MAX_POOL + 1)
            if p(n, t + 1) - p(n, t) > p(n + 1, t) - p(n, t)  # a Skill point against a die
        ]
        out.append(found[0] if found else None)
    return tuple(out)


def ascend_report(
    variants: Mapping[str, Any] | None = None, hero: Mapping[str, Any] | None = None
) -> AscendReport:
    """Compute the report for the shipped rules, the named variants (rules overrides) and a Hero's sheet
    (:data:`REFERENCE_HERO` when none is given)."""
    named: dict[str, Any] = {"shipped": {}, **(variants or {})}
    rules = load_rules()
    sheet = parse_hero(hero if hero is not None else REFERENCE_HERO, rules, path="hero")
    cmp = compare_ascend(named, max_pool=MAX_POOL, max_required=MAX_REQUIRED)
    required = rules.required.default
    targets = tuple(range(rules.ratings.max + 1))
    grid = tuple(tuple(cmp.exact["shipped"][t][n][required - 1] for n in cmp.pools) for t in targets)
    extended = extended_table(
        rules,
        target=EXTENDED_TARGET,
        pools=SECTION_POOLS,
        goal=rules.extended.goal,
        limit=EXTENDED_LIMIT,
    )
    opposed = opposed_table(
        rules,
        attacker_target=OPPOSED_TARGETS[0],
        defender_target=OPPOSED_TARGETS[1],
        attacker_pools=SECTION_POOLS,
        defender_pools=SECTION_POOLS,
    )
    choices = {
        name: _choice_changes(sheet, rules, load_rules(overrides or None))
        for name, overrides in named.items()
        if name != "shipped"
    }
    return AscendReport(
        required,
        targets,
        cmp.pools,
        grid,
        _skill_beats_die(rules, targets, required),
        cmp,
        narration_value(sheet, rules),
        extended,
        opposed,
        choices,
    )
