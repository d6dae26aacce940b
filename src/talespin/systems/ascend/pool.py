"""Preparing one Test: what is Tested, its Target, and the Dice Pool, checked against the Hero and the rules.

:func:`prepare_test` turns a :class:`~.commands.TestSpec` into a :class:`PreparedTest` — or raises, naming the
rule: the Skill or Conviction must be the Hero's (AS-TEST-1); Target = rating − Difficulty (AS-TEST-2); one,
and only one, Trait, Background and Aid (AS-POOL-1); Invoked items need narration, one per narrated Test and
two for an exceptional one (AS-POOL-2, AS-POOL-3), each an item not already in the Test. The Dice Pool is the
sum of the ratings of every item used; no item at all is an empty pool (AS-POOL-4).

>>> from .sheet import Hero
>>> will = Hero(name="Will", skills={"Melee": 3}, traits={"Strength": 4},
...             backgrounds={"Exorcist": 2}, aids={"Soul Blade": 3})
>>> spec = TestSpec(hero="Will", skill="Melee", trait="Strength", background="Exorcist", aid="Soul Blade")
>>> prepare_test(spec, will, default_rules()).pool
9
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...dice import LimitExceeded
from ...dice.limits import check_dice_count
from ..errors import IllegalCommand, MalformedCommand
from .commands import InvokedItem, TestSpec
from .rule_ids import POOL_1, POOL_2, POOL_3, TEST_1, TEST_2, TEST_4
from .rules import Narration, Rules, default_rules
from .sheet import ITEM_KIND, POOL_KINDS, Hero

__all__ = ["Item", "PreparedTest", "prepare_test"]

_SINGULAR = ITEM_KIND
_PLURAL = {single: plural for plural, single in _SINGULAR.items()}


@dataclass(frozen=True, slots=True)
class Item:
    """One Trait, Background or Aid used in a Test, with its rating."""

    kind: str
    name: str
    rating: int

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "trait", "name": "Strength", "rating": 2}``."""
        return {"kind": self.kind, "name": self.name, "rating": self.rating}


@dataclass(frozen=True, slots=True)
class PreparedTest:
    """A legal Test, ready to roll: everything but the dice."""

    hero: str
    kind: str
    tested: str
    rating: int
    difficulty: int
    required: int
    chosen: tuple[Item, ...]
    invoked: tuple[Item, ...]
    narration: Narration

    @property
    def target(self) -> int:
        """AS-TEST-2: Target = rating − Difficulty."""
        return self.rating - self.difficulty

    @property
    def pool(self) -> int:
        """AS-POOL-1: the number of dice, the sum of the ratings of every item used."""
        return sum(item.rating for item in self.chosen + self.invoked)

    def slot(self, kind: str) -> str | None:
        """The name of the Trait, Background or Aid chosen (``kind`` singular), if any."""
        return next((item.name for item in self.chosen if item.kind == kind), None)


def _tested(spec: TestSpec, hero: Hero) -> tuple[str, str, int]:
    if spec.skill is not None and spec.conviction is None:
        kind, name = "skill", spec.skill
    elif spec.conviction is not None and spec.skill is None:
        kind, name = "conviction", spec.conviction
    else:
        raise MalformedCommand(
            "a Test is of a Skill or of a Conviction: give exactly one of 'skill' or 'conviction'",
            rule=TEST_1,
            code="what_is_tested",
            path="skill",
        )
    owned = hero.ratings(kind + "s")
    if name not in owned:
        known = ", ".join(sorted(owned)) or "none"
        raise IllegalCommand(
            f"{hero.name} has no {kind.capitalize()} {name!r} (theirs: {known})",
            rule=TEST_1,
            code=f"unknown_{kind}",
            path=kind,
        )
    return kind, name, owned[name]


def _setting(value: int | None, default: int, low: int, what: str, rule: str) -> int:
    chosen = default if value is None else value
    if chosen < low:
        raise MalformedCommand(
            f"{what} must be {low} or more, got {chosen}", rule=rule, code=f"bad_{what}", path=what
        )
    return chosen


def _chosen(spec: TestSpec, hero: Hero, rules: Rules) -> list[Item]:
    chosen: list[Item] = []
    for plural in POOL_KINDS:
        kind = _SINGULAR[plural]
        value = getattr(spec, kind)
        names = [] if value is None else [value] if isinstance(value, str) else list(value)
        if len(names) > rules.pool.per_kind:
            raise IllegalCommand(
                f"a Test may use one, and only one, {kind.capitalize()} (got {', '.join(names)}); "
                f"narrate to Invoke another one with 'invoke'",
                rule=POOL_1,
                code="one_of_each",
                path=kind,
            )
        for name in names:
            owned = hero.ratings(plural)
            if name not in owned:
                known = ", ".join(sorted(owned)) or "none"
                raise IllegalCommand(
                    f"{hero.name} has no {kind.capitalize()} {name!r} (theirs: {known})",
                    rule=POOL_1,
                    code="unknown_item",
                    path=kind,
                )
            chosen.append(Item(kind, name, owned[name]))
    return chosen


def _resolve_invoked(entry: InvokedItem, hero: Hero, index: int) -> Item:
    path = f"invoke[{index}]"
    if isinstance(entry, dict):
        if len(entry) != 1:
            raise MalformedCommand(
                "an Invoked item is a name or one {kind: name}", path=path, code="bad_invoke"
            )
        ((kind, name),) = entry.items()
        kinds = [_PLURAL[kind]]
    else:
        name, kinds = entry, [plural for plural in POOL_KINDS if entry in hero.ratings(plural)]
    owners = [plural for plural in kinds if name in hero.ratings(plural)]
    if not owners:
        raise IllegalCommand(
            f"{hero.name} has no Trait, Background or Aid {name!r} to Invoke",
            rule=POOL_2,
            code="unknown_item",
            path=path,
        )
    if len(owners) > 1:
        choices = " or ".join(f"{{{_SINGULAR[o]}: {name}}}" for o in owners)
        raise MalformedCommand(
            f"{name!r} names more than one kind of item; write {choices}",
            rule=POOL_1,
            path=path,
            code="ambiguous_item",
        )
    return Item(_SINGULAR[owners[0]], name, hero.ratings(owners[0])[name])


def _invoked(spec: TestSpec, hero: Hero, rules: Rules, chosen: list[Item]) -> list[Item]:
    items = [_resolve_invoked(entry, hero, i) for i, entry in enumerate(spec.invoke)]
    allowed = rules.invokes.allowed(spec.narration)
    if items and allowed == 0:
        second = [i for i in items if any(c.kind == i.kind for c in chosen)]
        what = (
            f"a second {second[0].kind.capitalize()} ({second[0].name})"
            if second
            else f"Invoking {items[0].name}"
        )
        raise IllegalCommand(
            f"{what} needs narration: set narration: narrated to Invoke one more item",
            rule=POOL_2,
            code="needs_narration",
            path="narration",
        )
    if len(items) > allowed:
        raise IllegalCommand(
            f"{spec.narration} narration Invokes at most {allowed} item(s), got {len(items)}; exceptional "
            f"narration (the Storyteller's award) Invokes {rules.invokes.exceptional}",
            rule=POOL_3,
            code="too_many_invokes",
            path="invoke",
        )
    used = {(c.kind, c.name) for c in chosen}
    for index, item in enumerate(items):
        if (item.kind, item.name) in used:
            raise IllegalCommand(
                f"{item.name} is already in the Test: an Invoked item must be one not already used",
                rule=POOL_2,
                code="item_used_twice",
                path=f"invoke[{index}]",
            )
        used.add((item.kind, item.name))
    return items


def prepare_test(spec: TestSpec, hero: Hero, rules: Rules | None = None) -> PreparedTest:
    """The Test ``spec`` describes for ``hero``, checked against every rule, or the first rule it breaks."""
    rules = rules or default_rules()
    kind, tested, rating = _tested(spec, hero)
    difficulty = _setting(
        spec.difficulty, rules.difficulty.default, rules.difficulty.min, "difficulty", TEST_2
    )
    required = _setting(spec.required, rules.required.default, rules.required.min, "required", TEST_4)
    chosen = _chosen(spec, hero, rules)
    invoked = _invoked(spec, hero, rules, chosen)
    prepared = PreparedTest(
        hero.name, kind, tested, rating, difficulty, required, tuple(chosen), tuple(invoked), spec.narration
    )
    try:
        check_dice_count(prepared.pool)
    except LimitExceeded as error:
        raise MalformedCommand(error.message, code=error.code, path="pool") from None
    return prepared
