"""Optimal play on a Complex Obstacle: an exact dynamic programme over every state the rules allow.

A state is the Obstruction left, the Decisive attempts left, the character who acted last (II-COMPLEX-5: no
one acts twice in a row unless alone), the Talents each character has already used for a Regular Action
(II-COMPLEX-4: using one again adds Crisis) and the Crisis so far, capped at ``cap``. Every action raises
Crisis by at least one (the solver checks the rules data for it), so once Crisis is capped the states form
a finite, acyclic graph ordered by Crisis: the solver sweeps Crisis from the cap down, and at each level
computes every state's value at once with numpy: a few matrix products per character over the window of
higher levels its actions reach. The value of a beaten obstacle at Crisis ``c`` is ``terminal[c]``, a
vector the caller chooses (:func:`utility`): ``−c`` minimises expected Crisis, ``[c < T]`` maximises
P(Crisis stays below the next Trigger at T); a scene passes the value of what comes after.

A character's modifier Skills (II-SKILL-1/2) are choices too: each Talent is rolled once for every set of its
modifier Skills that change a roll (:class:`~.party.Modifier`), the dice and effects of each read from the
systems' :class:`~talespin.systems.inciting_incident.plan.RollPlan`, as the table rolls them; the advice
names the Skills of each action (``"Ada: Regular, Wits + Quick Study"``).

The outcome of every roll comes from the rules engine (:mod:`.party`); nothing here restates a rule number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from ..dice import LimitExceeded
from ..systems.errors import MalformedCommand
from ..systems.inciting_incident.chances import action_crisis, roll_crisis
from ..systems.inciting_incident.plan import RollPlan
from ..systems.inciting_incident.rules import Rules
from . import limits as solver_limits
from .crisis_sweep import MOST_LEVELS_AT_ONCE, Board, Character, Moves, sweep
from .limits import SolverLimits, SolveSize
from .party import Member, RollTable, total_table

__all__ = [
    "MAX_SOLVER_STATES",
    "Action",
    "Solution",
    "Spot",
    "check_progress",
    "solve",
    "solve_size",
    "utility",
]

FloatArray = npt.NDArray[np.float64]

MAX_SOLVER_STATES = solver_limits.LAB.states
"""At most this many (Crisis × Obstruction × attempts × last actor × Talents used) states are solved in the
lab (:data:`.limits.LAB`; the table's advice solves fewer, :data:`.limits.TABLE`)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One legal action: ``auto`` (a Regular Action without rolling), ``regular`` or ``decisive``."""

    kind: str
    character: str
    talent: str | None = None
    skills: tuple[str, ...] = ()
    """The modifier Skills ticked on the roll, in sheet order (none for ``auto``)."""

    @property
    def label(self) -> str:
        """How a table names the action: ``"Ada: Regular, Piloting"``, ``"Ada: Decisive, Wits + Quick"``."""
        if self.kind == "auto":
            return f"{self.character}: Regular, automatic"
        return f"{self.character}: {self.kind.capitalize()}, {' + '.join((str(self.talent), *self.skills))}"


@dataclass(frozen=True, slots=True)
class Spot:
    """A Complex Obstacle in play: what is left of it and what has been done on it."""

    obstruction: int
    attempts_left: int
    last_actor: str | None = None
    used: frozenset[tuple[str, str]] = frozenset()
    crisis: int = 0


def utility(objective: str, cap: int) -> FloatArray:
    """The terminal value over Crisis 0..cap: ``crisis`` → −c (less is better), ``below`` → 1 if c < cap."""
    levels = np.arange(cap + 1, dtype=np.float64)
    if objective == "crisis":
        return -levels
    if objective == "below":
        return (levels < cap).astype(np.float64)
    raise MalformedCommand(
        f"objective must be 'crisis' or 'below', got {objective!r}", code="bad_field", path="objective"
    )


@dataclass(frozen=True)
class Solution:
    """Each legal action's value at the spot (higher is better), and optionally the whole policy."""

    values: dict[Action, float]
    actions: tuple[Action, ...]
    policy: npt.NDArray[np.int16] | None = field(default=None, repr=False)
    """``policy[c, last, O, a, used]`` = index into :attr:`actions` of a best action (last = n: no one)."""
    start: FloatArray | None = field(default=None, repr=False)
    """``start[c]``: the value at the spot's Obstruction, attempts, last actor and Talents used, had the
    Crisis so far been ``c`` (for ``c`` from the spot's Crisis up to the cap); a scene chains these."""

    def best(self) -> Action:
        """A best action (the first listed among equals)."""
        top = max(self.values.values())
        return next(a for a, v in self.values.items() if v >= top - 1e-12)


@dataclass(frozen=True, slots=True)
class _Roll:
    """One way a character rolls a Talent: its Talents-used bit, the ticked Skills and their effects."""

    talent: str
    bit: int
    skills: tuple[str, ...]
    table: RollTable
    crisis: int  # II-SKILL-2 ``crisis``: added to the action's Crisis
    obstruction: int  # II-SKILL-2 ``obstruction``: extra Obstruction reduction on a successful Regular Action


def _moves(roll: _Roll, rules: Rules, top: int, width: int) -> Moves:
    """The transitions of one roll, with the Crisis and reduction the engine gives it (see ``obstacles``)."""
    floor = rules.complex.obstruction_min
    target = rules.roll.target
    floats = roll.table.floats
    extras = (roll.crisis, roll.crisis + rules.crisis.repeated_talent)
    fail = np.zeros((2, width))
    for x, extra in enumerate(extras):
        for t, p in enumerate(floats):
            if p and t < target:
                fail[x, action_crisis(roll_crisis(t, target, rules), extra, rules=rules)] += p
    reduce = np.zeros((top + 1, top + 1))
    for o in range(top + 1):
        for t in range(target, len(floats)):
            reduce[o, max(floor, o - (t - target + roll.obstruction))] += floats[t]
    dec_fail = np.zeros((top + 1, width))
    dec_success = np.zeros(top + 1)
    for o in range(top + 1):
        for t, p in enumerate(floats):
            if p and t >= o:
                dec_success[o] += p
            elif p:
                dec_fail[o, action_crisis(roll_crisis(t, o, rules), roll.crisis, rules=rules)] += p
    won = action_crisis(rules.crisis.success, roll.crisis, rules=rules)
    success = (won, action_crisis(rules.crisis.success, extras[1], rules=rules))
    return Moves(fail, success, reduce, dec_fail, dec_success, won)


def _width(rules: Rules, top: int, extra: int) -> int:
    """One more than the largest Crisis a single action can add (the window of levels a state looks at),
    with ``extra`` the largest Crisis a Skill adds."""
    target = rules.roll.target
    rep = rules.crisis.repeated_talent + extra
    largest = max(
        action_crisis(roll_crisis(0, target, rules), rep, rules=rules),
        action_crisis(roll_crisis(0, top, rules), extra, rules=rules),
        action_crisis(rules.crisis.success, rep, rules=rules),
        action_crisis(rules.crisis.auto, 0, rules=rules),
    )
    return largest + 1


def least_crisis(rules: Rules) -> int:
    """The least Crisis an action without Skills adds: a success, an automatic action or a failure."""
    return min(
        action_crisis(rules.crisis.success, 0, rules=rules),
        action_crisis(rules.crisis.auto, 0, rules=rules),
        action_crisis(rules.crisis.failure_minimum, 0, rules=rules),
    )


def check_progress(rules: Rules) -> None:
    """Every action must raise Crisis, or the states would not be ordered and the solver could loop."""
    least = least_crisis(rules)
    if least < 1:
        raise MalformedCommand(
            "the obstacle solver needs every action to raise Crisis by at least 1; these rules let an "
            f"action add {least}",
            code="unsolvable_rules",
            path="crisis",
        )


def skill_sets(member: Member, talent: str) -> list[tuple[str, ...]]:
    """Every set of ``talent``'s modifier Skills a roll may tick: none first, then by size, in sheet order."""
    names = [m.name for m in member.modifiers_of(talent)]
    return [combo for size in range(len(names) + 1) for combo in combinations(names, size)]


def legal_actions(party: Sequence[Member]) -> tuple[Action, ...]:
    """Every action of every character, in a fixed order: auto, then each Talent Regular (each set of its
    modifier Skills in :func:`skill_sets` order), then each Decisive the same way."""
    out: list[Action] = []
    for member in party:
        rolls = [(t, sk) for t, _ in member.talents for sk in skill_sets(member, t)]
        out.append(Action("auto", member.name))
        out += [Action("regular", member.name, t, sk) for t, sk in rolls]
        out += [Action("decisive", member.name, t, sk) for t, sk in rolls]
    return tuple(out)


def _rolls(
    member: Member, bits: dict[tuple[str, str], int], plan: RollPlan, tcap: int, rules: Rules
) -> list[_Roll]:
    """Every roll of ``member`` in :func:`legal_actions` order, its dice and effects from the roll plan."""
    out = []
    for talent, level in member.talents:
        sheet = member.plan_talent(talent)
        for skills in skill_sets(member, talent):
            ticked = replace(plan, skills=skills)
            effects = ticked.effects(sheet)
            roll = _Roll(
                talent,
                bits[(member.name, talent)],
                skills,
                total_table(ticked.d6(sheet), level, tcap, rules),
                effects.get("crisis", 0),
                effects.get("obstruction", 0),
            )
            _check_roll(member, roll, rules)
            out.append(roll)
    return out


def _check_roll(member: Member, roll: _Roll, rules: Rules) -> None:
    """A ticked Skill may neither raise the Obstruction nor let an action add no Crisis."""
    if not roll.skills:
        return
    named = f"{member.name}'s {' + '.join(roll.skills)} on {roll.talent}"
    if roll.obstruction < 0:
        raise MalformedCommand(
            f"{named} raises the Obstruction ({roll.obstruction}); the solver weighs only Skills lowering it",
            code="unsolvable_rules",
            path="characters",
        )
    least = min(
        action_crisis(rules.crisis.success, roll.crisis, rules=rules),
        action_crisis(rules.crisis.failure_minimum, roll.crisis, rules=rules),
    )
    if least < 1:
        raise MalformedCommand(
            f"the obstacle solver needs every action to raise Crisis by at least 1; {named} lets an action "
            f"add {least}",
            code="unsolvable_rules",
            path="characters",
        )


def _bits(party: Sequence[Member]) -> dict[tuple[str, str], int]:
    bits: dict[tuple[str, str], int] = {}
    for member in party:
        for talent, _ in member.talents:
            bits[(member.name, talent)] = len(bits)
    return bits


def solve_size(
    party: Sequence[Member], spot: Spot, rules: Rules, cap: int, *, keep_policy: bool = False
) -> SolveSize:
    """What solving ``spot`` up to Crisis ``cap`` would need, counted without building anything.

    Memory counts the ring of Crisis levels a block of levels reaches (two copies of ``width + block − 1``
    levels per character, :mod:`.crisis_sweep`, of the attempts still in play), one character's products
    over a block, the values kept for the repeat extra, the best values of every character over a block
    and, with ``keep_policy``, the policy.
    """
    talents = sum(len(m.talents) for m in party)
    sets = [1 << len(m.modifiers_of(t)) for m in party for t, _ in m.talents]
    most = max(sets, default=1)
    slab = (spot.obstruction + 1) * (spot.attempts_left + 1) * (1 << talents)
    n = len(party)
    states = (cap + 1) * (n + 1) * slab
    rolls_of = [sum(1 << len(m.modifiers_of(t)) for t, _ in m.talents) for m in party]
    skill_crisis = max(
        (
            sum(max(0, v) for mod in m.modifiers_of(t) for k, v in mod.effects if k == "crisis")
            for m in party
            for t, _ in m.talents
        ),
        default=0,
    )
    width = _width(rules, spot.obstruction, skill_crisis)
    levels = max(cap - min(spot.crisis, cap), 0)
    block = max(1, min(least_crisis(rules), MOST_LEVELS_AT_ONCE))
    memo = (max(rules.crisis.repeated_talent, 0) + block) * sum(rolls_of) // 2  # values kept for the repeat
    beaten = rules.complex.last_attempt_beats and spot.attempts_left > 0  # no attempt left: not kept
    ring = 2 * n * (width + block - 1) * (slab - slab // (spot.attempts_left + 1) * beaten)
    floats = ring + slab * (block * (4 * max(rolls_of, default=0) + n) + 1 + memo)
    memory = 8 * floats + (2 * (n * block + (cap + 1) * (n + 1)) * slab if keep_policy else 0)
    return SolveSize(states, levels * slab * sum(rolls_of), memory, most)


def solve(
    party: Sequence[Member],
    spot: Spot,
    rules: Rules,
    *,
    terminal: FloatArray,
    base_d6: int,
    advantage: int = 0,
    keep_policy: bool = False,
    limits: SolverLimits | None = None,
) -> Solution:
    """The value of every legal action at ``spot`` when play continues optimally (higher is better).

    ``terminal[c]`` (c = 0..cap) is the value of beating the obstacle with Crisis c; Crisis at or above
    the cap ends the question with ``terminal[cap]``. A question past ``limits`` (by default the lab's,
    :data:`.limits.LAB`) is refused with :class:`~talespin.dice.LimitExceeded` before any work.
    """
    check_progress(rules)
    cap = len(terminal) - 1
    bits = _bits(party)
    names = [m.name for m in party]
    if spot.last_actor is not None and spot.last_actor not in names:
        raise MalformedCommand(f"{spot.last_actor!r} is not present", code="unknown_character", path="last")
    for pair in spot.used:
        if pair not in bits:
            raise MalformedCommand(f"no Talent {pair[1]!r} of {pair[0]!r}", code="bad_field", path="used")
    top, attempts = spot.obstruction, spot.attempts_left
    if top < rules.complex.obstruction_min or attempts < 0:
        raise MalformedCommand(
            "the obstacle's Obstruction and attempts must not be negative", code="bad_field"
        )
    size = solve_size(party, spot, rules, cap, keep_policy=keep_policy)
    excess = size.excess(solver_limits.LAB if limits is None else limits)
    if excess is not None:
        raise LimitExceeded(excess)
    tcap = max(rules.roll.target + top, top, 1)
    plan = RollPlan(rules, base_d6, max(advantage, 0), max(-advantage, 0))
    rolls = [_rolls(m, bits, plan, tcap, rules) for m in party]
    width = _width(rules, top, max([0] + [r.crisis for rs in rolls for r in rs]))
    moves = [[(r.bit, _moves(r, rules, top, width)) for r in rs] for rs in rolls]
    actions = legal_actions(party)
    # The products have a few rows and many columns: they wait on memory, not arithmetic, and BLAS threads
    # only fight the machine's other work for its cores (BENCHMARKS.md, the lab): one thread.
    with threadpool_limits(limits=1, user_api="blas"):
        swept = sweep(
            [Character.of(ms, top + 1, width, rules.crisis.repeated_talent) for ms in moves],
            _board(party, spot, rules, terminal, bits),
            keep_policy,
        )
    values = {actions[k]: v for k, v in sorted(swept.values.items())}
    if spot.crisis >= cap:
        firsts = _firsts(party)
        last = _last(party, spot)
        for i in range(len(party)):
            if len(party) == 1 or i != last:
                for k in range(firsts[i], firsts[i + 1]):
                    if actions[k].kind != "decisive" or attempts:
                        values[actions[k]] = float(terminal[cap])
    policy = swept.policy
    # the policy is read policy[c, last, O, a, used]: Obstruction before attempts, as a view
    return Solution(values, actions, None if policy is None else np.swapaxes(policy, 2, 3), swept.start)


def _firsts(party: Sequence[Member]) -> list[int]:
    """The index of each character's first action in :func:`legal_actions`, and the count of all."""
    sizes = [1 + 2 * sum(len(skill_sets(m, t)) for t, _ in m.talents) for m in party]
    return [int(k) for k in np.cumsum([0, *sizes])]


def _last(party: Sequence[Member], spot: Spot) -> int:
    """The index of the character who acted last at ``spot`` (the party's size: no one)."""
    return len(party) if spot.last_actor is None else [m.name for m in party].index(spot.last_actor)


def _board(
    party: Sequence[Member], spot: Spot, rules: Rules, terminal: FloatArray, bits: dict[tuple[str, str], int]
) -> Board:
    """The obstacle as the sweep sees it: its slabs, the automatic action and the spot's own state."""
    top, attempts = spot.obstruction, spot.attempts_left
    # with the last attempt beating the obstacle, a state with no attempt left is beaten: not solved
    low = 1 if rules.complex.last_attempt_beats and attempts > 0 else 0
    shrink = np.maximum(
        rules.complex.obstruction_min, np.arange(top + 1) - rules.complex.obstruction_reduction
    )
    return Board(
        terminal=terminal,
        shape=(attempts + 1, top + 1, 1 << len(bits)),
        low=low,
        shrink=shrink,
        auto=action_crisis(rules.crisis.auto, 0, rules=rules),
        beats=rules.complex.last_attempt_beats,
        crisis=spot.crisis,
        root=(attempts - low, top, sum(1 << bits[p] for p in spot.used)),
        last=_last(party, spot),
        firsts=tuple(_firsts(party)[:-1]),
    )
