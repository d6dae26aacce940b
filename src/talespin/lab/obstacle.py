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


@dataclass
class _Moves:
    """Float transition tables of one Talent roll of one character."""

    fail: FloatArray  # (2, K): Crisis of a failed Regular Action, without and with the repeat extra
    success_crisis: tuple[int, int]
    reduce: FloatArray  # (O+1, O+1): P(Obstruction O → O') on a successful Regular Action
    dec_fail: FloatArray  # (O+1, K): Crisis of a failed Decisive Action at each Obstruction
    dec_success: FloatArray  # (O+1,): P(a Decisive Action at O beats the obstacle)
    dec_crisis: int


@dataclass(frozen=True, slots=True)
class _Roll:
    """One way a character rolls a Talent: its Talents-used bit, the ticked Skills and their effects."""

    talent: str
    bit: int
    skills: tuple[str, ...]
    table: RollTable
    crisis: int  # II-SKILL-2 ``crisis``: added to the action's Crisis
    obstruction: int  # II-SKILL-2 ``obstruction``: extra Obstruction reduction on a successful Regular Action


def _moves(roll: _Roll, rules: Rules, top: int, width: int) -> _Moves:
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
    return _Moves(fail, success, reduce, dec_fail, dec_success, won)


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


def check_progress(rules: Rules) -> None:
    """Every action must raise Crisis, or the states would not be ordered and the solver could loop."""
    least = min(
        action_crisis(rules.crisis.success, 0, rules=rules),
        action_crisis(rules.crisis.auto, 0, rules=rules),
        action_crisis(rules.crisis.failure_minimum, 0, rules=rules),
    )
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

    Memory counts the ring of Crisis levels an action reaches (two copies of ``width`` levels per
    character), one character's options at one level, the values kept for the repeat extra, the best
    values and, with ``keep_policy``, the policy.
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
    memo = (max(rules.crisis.repeated_talent, 0) + 1) * sum(rolls_of) // 2  # values kept for the repeat
    floats = slab * (2 * n * width + 8 * max(rolls_of, default=0) + 1 + n + memo)
    memory = 8 * floats + (2 * (n + (cap + 1) * (n + 1)) * slab if keep_policy else 0)
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
        return _sweep(party, spot, rules, terminal, moves, bits, actions, width, keep_policy)


@dataclass
class _Member:
    """One character's transitions stacked over its rolls (each Talent with each set of ticked Skills), so a
    Crisis level costs a few matrix products.

    A Regular Action with roll ``j`` leads to a state where its Talent's bit is set, so only that half of the
    next level's states matters: :meth:`_regular` weighs the roll on that half only. Its value at level ``c``
    with the repeat extra is, when the extra only shifts every Crisis by ``rep`` (no floor in the way), its
    value without the extra at level ``c + rep``: each level's values are kept ``rep + 1`` levels in
    ``memo`` and weighed once.
    """

    fail: FloatArray  # (2, R, k1 − k0): Crisis of a failed Regular Action per roll, without/with repeat
    k0: int
    k1: int
    success: npt.NDArray[np.int64]  # (2, R): Crisis of a successful Regular Action, without/with repeat
    groups: tuple[tuple[int, int, FloatArray, tuple[int, ...]], ...]
    """Rolls sharing a Talent bit and the Crisis of a success: ``(bit, x, stacked reductions, rolls)``
    per repeat index ``x``; the reductions are P(O → O') on success, ``len(rolls)·(O+1)`` rows."""
    dec_fail: FloatArray  # (O+1, R, K): Crisis of a failed Decisive Action at each Obstruction
    dec_success: FloatArray  # (R, O+1): P(a Decisive Action at O beats the obstacle)
    dec_crisis: npt.NDArray[np.int64]  # (R,): Crisis of a successful Decisive Action per roll
    bits: tuple[int, ...]
    dec_span: tuple[tuple[int, int], ...]  # per Obstruction, the Crisis window its failures fall in
    shift: int | None  # the repeat extra when it only shifts Crisis (then ``memo`` is used), else None
    memo: FloatArray | None = None  # (shift + 1, R, half): values without the extra, by level % (shift + 1)

    @classmethod
    def of(cls, moves: list[tuple[int, _Moves]], tops: int, width: int, rep: int) -> _Member:
        """Stack the per-roll tables ``(bit, moves)`` (none for a character without Talents: auto only)."""
        tables = [mv for _, mv in moves]
        bits = tuple(bit for bit, _ in moves)
        fail = np.stack([mv.fail for mv in tables], axis=1) if tables else np.zeros((2, 0, width))
        used = np.flatnonzero(fail.any(axis=(0, 1)))
        k0, k1 = (int(used[0]), int(used[-1]) + 1) if used.size else (0, 1)
        success = np.array([mv.success_crisis for mv in tables], dtype=np.int64).reshape(-1, 2).T
        shifted = (
            rep >= 0
            and bool(np.all(success[1] == success[0] + rep))
            and bool(np.array_equal(fail[1, :, rep:], fail[0, :, : width - rep]))
            and not fail[1, :, :rep].any()
        )
        dec_fail = np.zeros((tops, 0, width))
        if tables:
            dec_fail = np.ascontiguousarray(np.stack([mv.dec_fail for mv in tables], axis=1))
        spans = []
        for row in dec_fail:
            hit = np.flatnonzero(row.any(axis=0))
            spans.append((int(hit[0]), int(hit[-1]) + 1) if hit.size else (0, 0))
        groups = []
        for x in range(2):
            keys = sorted({(bits[j], int(success[x, j])) for j in range(len(tables))})
            for bit, k in keys:
                which = tuple(j for j in range(len(tables)) if (bits[j], int(success[x, j])) == (bit, k))
                stacked = np.concatenate([tables[j].reduce for j in which])
                groups.append((x, k, stacked, which))
        return cls(
            np.ascontiguousarray(fail[:, :, k0:k1]),
            k0,
            k1,
            success,
            tuple(groups),
            dec_fail,
            np.stack([mv.dec_success for mv in tables]) if tables else np.zeros((0, tops)),
            np.array([mv.dec_crisis for mv in tables], dtype=np.int64),
            bits,
            tuple(spans),
            rep if shifted else None,
        )

    def _regular(self, live: FloatArray, x: int) -> FloatArray:
        """``(R, half)``: each roll's Regular Action value (repeat index ``x``) on the half of the states
        where its Talent is used, from ``live[k]`` = the values ``k`` levels higher (attempts, Obstruction,
        Talents used; only the attempts still in play)."""
        _, attempts1, tops, count = live.shape
        rolls = len(self.bits)
        out = np.empty((rolls, attempts1 * tops * count // 2))
        failed = (self.fail[x] @ live[self.k0 : self.k1].reshape(self.k1 - self.k0, -1)).reshape(
            rolls, attempts1, tops, count
        )
        for j, bit in enumerate(self.bits):
            own = failed[j].reshape(attempts1, tops, -1, 2, 1 << bit)[..., 1, :]
            out[j].reshape(own.shape)[...] = own
        for gx, k, reduce, which in self.groups:
            if gx != x:
                continue
            bit = self.bits[which[0]]
            used = np.ascontiguousarray(live[k].reshape(attempts1, tops, -1, 2, 1 << bit)[..., 1, :])
            done = np.matmul(reduce, used.reshape(attempts1, tops, -1))  # (attempts, rolls·tops, half)
            for g, j in enumerate(which):
                out[j].reshape(attempts1, tops, -1)[...] += done[:, g * tops : (g + 1) * tops]
        return out

    def prime(self, ring: FloatArray, width: int, cap: int, low: int) -> None:
        """Weigh the levels ``cap .. cap + shift − 1`` (all at the cap's value) into ``memo``; ``low`` is
        the fewest attempts still in play."""
        if self.shift is None or not self.bits:
            return
        _, attempts1, tops, count = ring.shape
        self.memo = np.empty((self.shift + 1, len(self.bits), (attempts1 - low) * tops * count // 2))
        for level in range(cap, cap + self.shift):
            slot = level % width
            self.memo[level % (self.shift + 1)] = self._regular(ring[slot : slot + width, low:], 0)

    def options(  # noqa: PLR0917 -- the level's inputs, each used once
        self,
        window: FloatArray,
        level: int,
        low: int,
        won: FloatArray,
        shrink: npt.NDArray[np.int64],
        auto: int,
    ) -> list[FloatArray]:
        """Each of the character's actions' value at every state of Crisis ``level`` with ``low`` or more
        attempts left, in :func:`legal_actions` order, from ``window[k]`` = the values ``k`` levels higher
        (after it acted); ``won[j]``: the value of beating the obstacle with roll ``j``'s Decisive Action."""
        _, attempts1, tops, count = window.shape
        live = window[:, low:]
        rolls = len(self.bits)
        out = [live[auto][:, shrink]]
        if rolls:
            fresh = self._regular(live, 0)
            if self.shift is not None and self.memo is not None:
                depth = self.shift + 1
                self.memo[level % depth] = fresh
                again = self.memo[(level + self.shift) % depth]
            else:
                again = self._regular(live, 1)
            for j, bit in enumerate(self.bits):
                option = np.empty((attempts1 - low, tops, count))
                view = option.reshape(attempts1 - low, tops, -1, 2, 1 << bit)
                view[..., 0, :] = fresh[j].reshape(view[..., 0, :].shape)  # Talent not used yet: used after
                view[..., 1, :] = again[j].reshape(view[..., 1, :].shape)  # used already: the repeat extra
                out.append(option)
        decisive = np.empty((rolls, attempts1 - low, tops, count))
        if low == 0:
            decisive[:, 0] = -np.inf  # no attempt left: no Decisive Action
        if attempts1 > 1:
            spent = decisive[:, 1 - low :]  # (rolls, attempts 1.., tops, count), reading one attempt fewer
            spent[...] = (self.dec_success * won[:, None])[:, None, :, None]
            for o, (k0, k1) in enumerate(self.dec_span):  # only the levels a failure at o can reach
                if k0 == k1:
                    continue
                fewer = window[k0:k1, : attempts1 - 1, o].transpose(1, 0, 2)  # (attempts, levels, count)
                spent[:, :, o] += np.matmul(self.dec_fail[o, :, k0:k1], fewer).transpose(1, 0, 2)
        out += list(decisive)
        return out


def _sweep(  # noqa: PLR0912, PLR0917 -- one sweep kept whole so its loop order reads at once
    party: Sequence[Member],
    spot: Spot,
    rules: Rules,
    terminal: FloatArray,
    moves: list[list[tuple[int, _Moves]]],
    bits: dict[tuple[str, str], int],
    actions: tuple[Action, ...],
    width: int,
    keep_policy: bool,
) -> Solution:
    """Crisis from the cap down: every state of one Crisis level at once, from the levels above it.

    ``ring[i]`` holds the values of the states just after character ``i`` acted, one slab (Obstruction,
    attempts, Talents used) per Crisis level. Each level is stored twice, at slots ``l % width`` and
    ``l % width + width``, so the window of levels ``c .. c + width − 1`` an action can reach is one
    contiguous slice and every transition is a matrix product over it, with no gathering.
    """
    cap, n = len(terminal) - 1, len(party)
    top, attempts = spot.obstruction, spot.attempts_left
    shape = (attempts + 1, top + 1, 1 << len(bits))
    ring = np.full((n, 2 * width, *shape), terminal[cap])
    # with the last attempt beating the obstacle, a state with no attempt left is beaten: not solved
    low = 1 if rules.complex.last_attempt_beats and attempts > 0 else 0
    shrink = np.maximum(
        rules.complex.obstruction_min, np.arange(top + 1) - rules.complex.obstruction_reduction
    )
    auto = action_crisis(rules.crisis.auto, 0, rules=rules)
    root = (attempts - low, top, sum(1 << bits[p] for p in spot.used))
    last = n if spot.last_actor is None else [m.name for m in party].index(spot.last_actor)
    policy = np.zeros((cap + 1, n + 1, *shape), np.int16) if keep_policy else None
    starts = np.cumsum([0] + [1 + 2 * len(rolls) for rolls in moves])
    members = [_Member.of(rolls, top + 1, width, rules.crisis.repeated_talent) for rolls in moves]
    for i, member in enumerate(members):
        member.prime(ring[i], width, cap, low)
    values: dict[Action, float] = {}
    start = np.full(cap + 1, terminal[cap])
    for c in range(cap - 1, min(spot.crisis, cap) - 1, -1):
        slot = c % width
        bests, args = [], []
        for i, member in enumerate(members):
            won = terminal[np.minimum(c + member.dec_crisis, cap)]
            options = member.options(ring[i, slot : slot + width], c, low, won, shrink, auto)
            if c == spot.crisis and (n == 1 or i != last):
                for k, option in enumerate(options):
                    if np.isfinite(option[root]):
                        values[actions[starts[i] + k]] = float(option[root])
            best, arg = _best(options, int(starts[i]), keep_policy)
            bests.append(best)
            args.append(arg)
        for k in range(n + 1):
            value, pick = _best_of([i for i in range(n) if n == 1 or i != k], bests, args)
            if k == last:
                start[c] = value[root]
            if k < n:
                ring[k, slot, low:] = value
                ring[k, slot + width, low:] = value
            if policy is not None and pick is not None:
                policy[c, k, low:] = pick
        if rules.complex.last_attempt_beats:
            ring[:, slot, 0] = terminal[c]
            ring[:, slot + width, 0] = terminal[c]
            if attempts == 0:
                start[c] = terminal[c]
    if spot.crisis >= cap:
        for i in range(n):
            if n == 1 or i != last:
                for k in range(starts[i], starts[i + 1]):
                    if actions[k].kind != "decisive" or attempts:
                        values[actions[k]] = float(terminal[cap])
    # the policy is read policy[c, last, O, a, used]: Obstruction before attempts, as a view
    return Solution(values, actions, None if policy is None else np.swapaxes(policy, 2, 3), start)


IntArray = npt.NDArray[np.int16]


def _best(options: list[FloatArray], first: int, keep: bool) -> tuple[FloatArray, IntArray | None]:
    """The best option at every state, and (if ``keep``) the index of the first best (``first`` + k)."""
    best = options[0].copy()
    arg = np.full(best.shape, first, np.int16) if keep else None
    for k, option in enumerate(options[1:], start=1):
        if arg is not None:
            arg[option > best] = first + k  # strictly better: the first among equals stays
        np.maximum(best, option, out=best)
    return best, arg


def _best_of(
    allowed: list[int], bests: list[FloatArray], args: list[IntArray | None]
) -> tuple[FloatArray, IntArray | None]:
    """The best over the characters ``allowed`` to act, and which action it is (the first among equals)."""
    value = bests[allowed[0]].copy()
    first = args[allowed[0]]
    pick = None if first is None else first.copy()
    for i in allowed[1:]:
        other = args[i]
        if pick is not None and other is not None:
            better = bests[i] > value
            pick[better] = other[better]
        np.maximum(value, bests[i], out=value)
    return value, pick
