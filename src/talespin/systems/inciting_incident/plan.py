"""The roll plan: which dice one roll uses, the one answer ``decide`` rolls and ``odds`` weighs.

A roll is ``final d6`` six-sided dice plus the dice of a Talent (or Ability) level, every die exploding
(II-ROLL-1/2). The final d6 count is the base count (the scene difficulty, an obstacle's, an action's, or a
defence) moved by the ladder of the net Advantage (II-ADV-1..3)::

    >>> from .rules import default_rules
    >>> ladder(4, default_rules())
    2
    >>> final_d6(5, advantage=1, disadvantage=11, rules=default_rules())
    1

Advantage and Disadvantage come from three places, and a :class:`RollPlan` counts all of them the same way
whether the roll is being made (:mod:`.acting`) or only weighed (:mod:`.odds`): the command's (or query's)
own ``advantage``/``disadvantage``; the ticked modifier Skills of the Talent rolled (II-SKILL-1/2); and what
the character carries from an earlier command (a recreated modifier, a failed one's Disadvantage, II-SKILL-3).
The same effects give the roll's other Skill effects (``crisis``, ``obstruction``, ``flow``, ``protect``).

    >>> plan = RollPlan(default_rules(), base=5, advantage=1)
    >>> plan.d6(None), plan.with_base(2).d6(None)
    (6, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...dice.limits import check_dice_count
from .rules import Rules
from .sheet import Talent
from .state import GameState, Prepared

__all__ = ["RollPlan", "RollSpec", "final_d6", "ladder", "plan_for"]


def ladder(net: int, rules: Rules) -> int:
    """II-ADV-2: the d6 added (positive net) or removed (negative net) by net Advantage."""
    step = 0
    for rung in rules.ladder:
        if abs(net) >= rung.at_least:
            step = rung.d6
    return step if net >= 0 else -step


def final_d6(base: int, advantage: int, disadvantage: int, rules: Rules) -> int:
    """II-ADV-1/3: ``max(0, base + ladder(advantage − disadvantage))``; it may exceed 9.

    A negative base, or more base d6 than one roll may hold, is refused
    (:class:`~talespin.dice.LimitExceeded`) before any dice are built.
    """
    check_dice_count(base)
    return max(0, base + ladder(advantage - disadvantage, rules))


@dataclass(frozen=True, slots=True)
class RollSpec:
    """What is rolled: whose roll, with which Talent or Ability, how many d6, against what."""

    character: str
    kind: str  # "talent" | "ability"
    name: str
    level: int
    base_d6: int
    advantage: int
    disadvantage: int
    against: int
    rules: Rules

    @property
    def d6(self) -> int:
        """The final d6 count."""
        return final_d6(self.base_d6, self.advantage, self.disadvantage, self.rules)

    @property
    def talent_dice(self) -> tuple[int, ...]:
        """The die sizes of the Talent's (or Ability's) level."""
        return self.rules.levels.dice[self.level]

    @property
    def sizes(self) -> tuple[int, ...]:
        """Every die in the order faces are written: the d6 first, then the Talent's dice."""
        return (self.rules.roll.d6_size,) * self.d6 + self.talent_dice


@dataclass(frozen=True, slots=True)
class RollPlan:
    """Which dice one roll uses: base d6, own Advantage and Disadvantage, ticked Skills, what is carried.

    ``skills`` are the names of the ticked modifier Skills; each counts on the Talent that has it (an odds
    query may tick Skills of several Talents, each answering for its own rows). ``prepared`` is what the
    character carries into its next roll; an Ability Roll carries nothing and ticks no Skill.
    """

    rules: Rules
    base: int
    advantage: int = 0
    disadvantage: int = 0
    skills: tuple[str, ...] = ()
    prepared: Prepared | None = None

    def with_base(self, base: int) -> RollPlan:
        """The same plan from another base d6 count (a defence, the recreation base, the difficulty now)."""
        return replace(self, base=base)

    def with_disadvantage(self, extra: int) -> RollPlan:
        """The same plan with ``extra`` more Disadvantage (II-SKILL-3: a recreated Skill's cost)."""
        return replace(self, disadvantage=self.disadvantage + extra)

    def effects(self, talent: Talent | None) -> dict[str, int]:
        """II-SKILL-2: the summed effects of ``talent``'s ticked modifier Skills and what is carried."""
        effects: dict[str, int] = {}
        for skill in talent.skills if talent is not None else ():
            if skill.name in self.skills and skill.kind == "modifier":
                for key, value in skill.effects.items():
                    effects[key] = effects.get(key, 0) + value
        if self.prepared is not None:
            effects["disadvantage"] = effects.get("disadvantage", 0) + self.prepared.disadvantage
            for key, value in self.prepared.effects:
                effects[key] = effects.get(key, 0) + value
        return effects

    def applied(self, talent: Talent) -> list[str]:
        """The ticked Skills that count on ``talent``'s roll (its own modifier Skills), in ticked order."""
        own = {s.name for s in talent.skills if s.kind == "modifier"}
        return [name for name in self.skills if name in own]

    def totals(self, talent: Talent | None) -> tuple[int, int]:
        """Every Advantage and every Disadvantage of the roll of ``talent``, each summed."""
        fx = self.effects(talent)
        return self.advantage + fx.get("advantage", 0), self.disadvantage + fx.get("disadvantage", 0)

    def d6(self, talent: Talent | None) -> int:
        """The final d6 count of the roll of ``talent`` (II-ADV-1..3), every Advantage counted."""
        advantage, disadvantage = self.totals(talent)
        return final_d6(self.base, advantage, disadvantage, self.rules)

    def talent_spec(self, character: str, talent: Talent, against: int) -> RollSpec:
        """The roll of ``talent`` by ``character`` against ``against``."""
        advantage, disadvantage = self.totals(talent)
        return RollSpec(
            character,
            "talent",
            talent.name,
            talent.level,
            self.base,
            advantage,
            disadvantage,
            against,
            self.rules,
        )

    def ability_spec(self, character: str, ability: str, level: int, against: int) -> RollSpec:
        """An Ability Roll (II-ROLL-1) by ``character`` against ``against``: no Skill counts."""
        advantage, disadvantage = self.totals(None)
        return RollSpec(
            character, "ability", ability, level, self.base, advantage, disadvantage, against, self.rules
        )


def plan_for(
    state: GameState,
    character: str,
    *,
    base: int,
    advantage: int = 0,
    disadvantage: int = 0,
    skills: tuple[str, ...] = (),
) -> RollPlan:
    """The plan of ``character``'s next Talent Roll in ``state``, with what it carries from the scene."""
    scene = state.scene
    prepared = scene.prepared_for(character) if scene is not None else None
    return RollPlan(state.rules, base, advantage, disadvantage, skills, prepared)
