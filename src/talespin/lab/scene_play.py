"""How one obstacle of a scene moves the distribution of Crisis, under a stated way of choosing actions.

Each step takes the probability of every Crisis level before the obstacle (index ``cap`` holds "at or above
the cap") and returns it after, with the expected number of actions taken and Rising Tension gained while
Crisis was below the cap (past the cap the analysis has its answer and stops following play). Masses are
floats or, for exact answers, :class:`~fractions.Fraction` — the same code computes both.

A Complex Obstacle is followed state by state (Obstruction, attempts left, last actor, Talents used) in
rising Crisis order: every action raises Crisis (:func:`~.obstacle.check_progress`), so each level only
feeds higher ones and one pass suffices. Choices are made by a ``pick`` function; :mod:`.scene` builds
them for the fixed policies and reads them from the solver's policy for optimal play.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..systems.inciting_incident.chances import action_crisis
from ..systems.inciting_incident.rules import Rules
from .obstacle import Action
from .party import Member, RollTable, roll_table

__all__ = ["ComplexState", "Outcomes", "Play", "Talented", "play_complex", "talent_table"]

Mass = Any
"""A probability: ``float`` on the fast path, ``Fraction`` on the exact one."""

Outcomes = list[tuple[Mass, int]]
"""``(probability, Crisis added)`` of one choice on a Simple Obstacle."""


@dataclass(frozen=True, slots=True)
class ComplexState:
    """A Complex Obstacle in play: Obstruction, attempts left, last actor (``n``: no one), Talents used."""

    obstruction: int
    attempts: int
    last: int
    used: int


@dataclass
class Play:
    """What a step returns: the Crisis distribution after it, E[actions], E[Rising Tension]."""

    crisis: list[Mass]
    actions: Mass
    tension: Mass


@dataclass(frozen=True)
class Talented:
    """One Talent of one character with its roll table at a scene's difficulty."""

    member: int
    talent: int
    bit: int
    table: RollTable


def talent_table(level: int, d6: int, advantage: int, cap: int, rules: Rules) -> RollTable:
    """The capped roll table the lab uses for a Talent (shared with the solver through its cache)."""
    return roll_table(d6, advantage, level, cap, rules)


def _mass(p: Fraction, exact: bool) -> Mass:
    return p if exact else float(p)


def play_complex(  # noqa: PLR0917 -- the obstacle, its party, its rules and how to choose
    party: Sequence[Member],
    talents: Sequence[Talented],
    start: tuple[int, int],
    before: Sequence[Mass],
    pick: Callable[[int, ComplexState], Action],
    rules: Rules,
    exact: bool,
) -> Play:
    """Play one Complex Obstacle from every Crisis level of ``before`` (II-COMPLEX-2..7)."""
    cap = len(before) - 1
    n = len(party)
    zero: Mass = Fraction(0) if exact else 0.0
    after: list[Mass] = [zero] * (cap + 1)
    after[cap] = before[cap]
    levels: list[defaultdict[ComplexState, Mass]] = [defaultdict(lambda: zero) for _ in range(cap)]
    for c in range(cap):
        if before[c]:
            levels[c][ComplexState(start[0], start[1], n, 0)] += before[c]
    index = {m.name: i for i, m in enumerate(party)}
    by_name = {(party[t.member].name, party[t.member].talents[t.talent][0]): t for t in talents}
    auto = action_crisis(rules.crisis.auto, 0, rules=rules)
    floor, step = rules.complex.obstruction_min, rules.complex.obstruction_reduction
    extra = rules.crisis.repeated_talent
    actions, tension = zero, zero
    decisive: dict[tuple[int, int, int], list[tuple[Mass, bool, int]]] = {}
    regular: dict[tuple[int, int, int], list[tuple[Mass, int, int]]] = {}

    def land(c: int, state: ComplexState | None, m: Mass) -> None:
        if state is None or c >= cap:
            after[min(c, cap)] += m
        else:
            levels[c][state] += m

    for c in range(cap):
        for state, m in levels[c].items():
            actions += m
            act = pick(c, state)
            i = index[act.character]
            if act.kind == "auto":
                tension += m * rules.complex.auto_rising_tension
                land(
                    c + auto,
                    ComplexState(max(floor, state.obstruction - step), state.attempts, i, state.used),
                    m,
                )
                continue
            t = by_name[(act.character, str(act.talent))]
            if act.kind == "regular":
                again = bool(state.used & (1 << t.bit))
                key = (t.member, t.talent, int(again))
                if key not in regular:
                    regular[key] = _regular(t.table, rules, extra if again else 0, exact)
                used = state.used | (1 << t.bit)
                for p, red, cr in regular[key]:
                    o = max(floor, state.obstruction - red)
                    land(c + cr, ComplexState(o, state.attempts, i, used), m * p)
                continue
            key = (t.member, t.talent, state.obstruction)
            if key not in decisive:
                decisive[key] = _decisive(t.table, rules, state.obstruction, exact)
            left = state.attempts - 1
            ends = left == 0 and rules.complex.last_attempt_beats
            for p, won, cr in decisive[key]:
                nxt = None if won or ends else ComplexState(state.obstruction, left, i, state.used)
                land(c + cr, nxt, m * p)
    return Play(after, actions, tension)


def _regular(table: RollTable, rules: Rules, extra: int, exact: bool) -> list[tuple[Mass, int, int]]:
    """``(p, Obstruction reduction, Crisis)`` of a Regular Action, straight from the table's own rule."""
    return [(_mass(p, exact), red, cr) for p, red, cr in table.regular(rules, extra)]


def _decisive(table: RollTable, rules: Rules, obstruction: int, exact: bool) -> list[tuple[Mass, bool, int]]:
    """``(p, beaten, Crisis)`` of a Decisive Action against the Obstruction."""
    return [(_mass(p, exact), won, cr) for p, won, cr in table.decisive(rules, obstruction)]


@dataclass(frozen=True)
class Choice:
    """One way to face a Simple Obstacle: ``auto`` or a Talent roll, with its Crisis outcomes."""

    character: str
    talent: str | None
    outcomes: tuple[tuple[Fraction, int], ...]
    tension: int

    def masses(self, exact: bool) -> list[tuple[Mass, int]]:
        """The outcomes as floats or exact fractions."""
        return [(_mass(p, exact), x) for p, x in self.outcomes]

    def expected_crisis(self) -> float:
        """E[Crisis added] (floats; used only to rank choices)."""
        return sum(float(p) * x for p, x in self.outcomes)


def play_simple(
    before: Sequence[Mass],
    pickers: Sequence[tuple[Fraction, Sequence[Choice]]],
    choose: Callable[[int, Sequence[Choice]], Choice],
    exact: bool,
) -> Play:
    """Face one Simple Obstacle from every Crisis level: each picker (who faces it, with what weight)
    offers its choices and ``choose`` takes one (II-SIMPLE-1..3)."""
    cap = len(before) - 1
    zero: Mass = Fraction(0) if exact else 0.0
    after: list[Mass] = [zero] * (cap + 1)
    after[cap] = before[cap]
    actions, tension = zero, zero
    for c in range(cap):
        m = before[c]
        if not m:
            continue
        actions += m
        for weight, choices in pickers:
            w = m * _mass(weight, exact)
            choice = choose(c, choices)
            tension += w * choice.tension
            for p, x in choice.masses(exact):
                after[min(c + x, cap)] += w * p
    return Play(after, actions, tension)
