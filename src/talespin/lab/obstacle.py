"""Optimal play on a Complex Obstacle: an exact dynamic programme over every state the rules allow.

A state is the Obstruction left, the Decisive attempts left, the character who acted last (II-COMPLEX-5: no
one acts twice in a row unless alone), the Talents each character has already used for a Regular Action
(II-COMPLEX-4: using one again adds Crisis) and the Crisis so far, capped at ``cap``. Every action raises
Crisis by at least one (the solver checks the rules data for it), so once Crisis is capped the states form
a finite, acyclic graph ordered by Crisis: the solver sweeps Crisis from the cap down, and at each level
computes every state's value at once with numpy. The value of a beaten obstacle at Crisis ``c`` is
``terminal[c]``, a vector the caller chooses (:func:`utility`): ``−c`` minimises expected Crisis, ``[c < T]``
maximises P(Crisis stays below the next Trigger at T); a scene passes the value of what comes after.

The outcome of every roll comes from the rules engine (:mod:`.party`); nothing here restates a rule number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..dice import LimitExceeded
from ..systems.errors import MalformedCommand
from ..systems.inciting_incident.chances import action_crisis, roll_crisis
from ..systems.inciting_incident.rules import Rules
from .party import Member, RollTable, roll_table

__all__ = ["MAX_SOLVER_STATES", "Action", "Solution", "Spot", "check_progress", "solve", "utility"]

FloatArray = npt.NDArray[np.float64]

MAX_SOLVER_STATES = 40_000_000
"""At most this many (Crisis × Obstruction × attempts × last actor × Talents used) states are solved."""


@dataclass(frozen=True, slots=True)
class Action:
    """One legal action: ``auto`` (a Regular Action without rolling), ``regular`` or ``decisive``."""

    kind: str
    character: str
    talent: str | None = None

    @property
    def label(self) -> str:
        """How a table names the action: ``"Ada: Regular, Piloting"``."""
        if self.kind == "auto":
            return f"{self.character}: Regular, automatic"
        return f"{self.character}: {self.kind.capitalize()}, {self.talent}"


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


def _moves(table: RollTable, rules: Rules, top: int, width: int) -> _Moves:
    floor = rules.complex.obstruction_min
    target = rules.roll.target
    extras = (0, rules.crisis.repeated_talent)
    fail = np.zeros((2, width))
    for x, extra in enumerate(extras):
        for t, p in enumerate(table.floats):
            if p and t < target:
                fail[x, action_crisis(roll_crisis(t, target, rules), extra, rules=rules)] += p
    reduce = np.zeros((top + 1, top + 1))
    for o in range(top + 1):
        for t in range(target, len(table.floats)):
            reduce[o, max(floor, o - (t - target))] += table.floats[t]
    dec_fail = np.zeros((top + 1, width))
    dec_success = np.zeros(top + 1)
    for o in range(top + 1):
        for t, p in enumerate(table.floats):
            if p and t >= o:
                dec_success[o] += p
            elif p:
                dec_fail[o, action_crisis(roll_crisis(t, o, rules), 0, rules=rules)] += p
    won = action_crisis(rules.crisis.success, 0, rules=rules)
    success = (won, action_crisis(rules.crisis.success, extras[1], rules=rules))
    return _Moves(fail, success, reduce, dec_fail, dec_success, won)


def _width(rules: Rules, top: int) -> int:
    """One more than the largest Crisis a single action can add (the window of levels a state looks at)."""
    target = rules.roll.target
    rep = rules.crisis.repeated_talent
    largest = max(
        action_crisis(roll_crisis(0, target, rules), rep, rules=rules),
        action_crisis(roll_crisis(0, top, rules), 0, rules=rules),
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


def legal_actions(party: Sequence[Member]) -> tuple[Action, ...]:
    """Every action of every character, in a fixed order: auto, then each Talent Regular, then Decisive."""
    out: list[Action] = []
    for member in party:
        out.append(Action("auto", member.name))
        out += [Action("regular", member.name, t) for t, _ in member.talents]
        out += [Action("decisive", member.name, t) for t, _ in member.talents]
    return tuple(out)


def _bits(party: Sequence[Member]) -> dict[tuple[str, str], int]:
    bits: dict[tuple[str, str], int] = {}
    for member in party:
        for talent, _ in member.talents:
            bits[(member.name, talent)] = len(bits)
    return bits


def solve(
    party: Sequence[Member],
    spot: Spot,
    rules: Rules,
    *,
    terminal: FloatArray,
    base_d6: int,
    advantage: int = 0,
    keep_policy: bool = False,
) -> Solution:
    """The value of every legal action at ``spot`` when play continues optimally (higher is better).

    ``terminal[c]`` (c = 0..cap) is the value of beating the obstacle with Crisis c; Crisis at or above
    the cap ends the question with ``terminal[cap]``.
    """
    check_progress(rules)
    cap = len(terminal) - 1
    n = len(party)
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
    used_count = 1 << len(bits)
    states = (cap + 1) * (n + 1) * (top + 1) * (attempts + 1) * used_count
    if states > MAX_SOLVER_STATES:
        raise LimitExceeded(
            f"the obstacle has {states} states to solve (at most {MAX_SOLVER_STATES}): use fewer Talents, "
            "a lower Obstruction or a lower Crisis cap"
        )
    width = _width(rules, top)
    tcap = max(rules.roll.target + top, top, 1)
    moves = [
        [_moves(roll_table(base_d6, advantage, lvl, tcap, rules), rules, top, width) for _, lvl in m.talents]
        for m in party
    ]
    actions = legal_actions(party)
    return _sweep(party, spot, rules, terminal, moves, bits, actions, width, keep_policy)


def _sweep(  # noqa: PLR0912, PLR0915, PLR0917 -- one sweep kept whole so its loop order reads at once
    party: Sequence[Member],
    spot: Spot,
    rules: Rules,
    terminal: FloatArray,
    moves: list[list[_Moves]],
    bits: dict[tuple[str, str], int],
    actions: tuple[Action, ...],
    width: int,
    keep_policy: bool,
) -> Solution:
    """Crisis from the cap down: every state of one Crisis level at once, from the levels above it."""
    cap, n = len(terminal) - 1, len(party)
    top, attempts = spot.obstruction, spot.attempts_left
    every = np.arange(1 << len(bits))
    flat = (attempts + 1) * every.size
    # ring[i, O, level slot, attempts, used]: one character's states, Crisis levels side by side per O.
    ring = np.full((n, top + 1, width + 1, attempts + 1, every.size), terminal[cap])
    window = np.arange(width)
    shrink = np.maximum(
        rules.complex.obstruction_min, np.arange(top + 1) - rules.complex.obstruction_reduction
    )
    auto = action_crisis(rules.crisis.auto, 0, rules=rules)
    root_used = sum(1 << bits[p] for p in spot.used)
    last = n if spot.last_actor is None else [m.name for m in party].index(spot.last_actor)
    policy = np.zeros((cap + 1, n + 1, top + 1, attempts + 1, every.size), np.int16) if keep_policy else None
    starts = np.cumsum([0] + [1 + 2 * len(m.talents) for m in party])
    values: dict[Action, float] = {}
    start = np.full(cap + 1, terminal[cap])
    shape = (top + 1, attempts + 1, every.size)
    for c in range(cap - 1, min(spot.crisis, cap) - 1, -1):
        levels = c + window
        slots = np.where(levels >= cap, width, levels % width)
        bests, args = [], []
        for i, member in enumerate(party):
            seen = ring[i][:, slots]  # (O, K, attempts, used)
            lined = seen.reshape(top + 1, width, flat)
            options = [seen[shrink, auto]]
            for j, (talent, _) in enumerate(member.talents):
                mv, bit = moves[i][j], 1 << bits[(member.name, talent)]
                failed = np.matmul(mv.fail, lined)  # (O, 2, flat)
                after = [
                    (failed[:, x] + mv.reduce @ lined[:, mv.success_crisis[x]]).reshape(shape) for x in (0, 1)
                ]
                again = (every & bit).astype(bool)
                options.append(np.where(again, after[1][..., every | bit], after[0][..., every | bit]))
            for j in range(len(member.talents)):
                mv = moves[i][j]
                decisive = np.full(shape, -np.inf)
                if attempts:
                    failed = np.matmul(mv.dec_fail[:, None, :], lined).reshape(shape)
                    won = mv.dec_success[:, None, None] * terminal[min(c + mv.dec_crisis, cap)]
                    decisive[:, 1:, :] = failed[:, :attempts] + won
                options.append(decisive)
            stack = np.stack(options)
            bests.append(stack.max(axis=0))
            args.append(stack.argmax(axis=0) + starts[i])
            if c == spot.crisis and (n == 1 or i != last):
                for k, v in enumerate(stack[:, top, attempts, root_used]):
                    if np.isfinite(v):
                        values[actions[starts[i] + k]] = float(v)
        best, arg = np.stack(bests), np.stack(args)
        for k in range(n + 1):
            allowed = np.array([n == 1 or i != k for i in range(n)])
            masked = np.where(allowed[:, None, None, None], best, -np.inf)
            pick = masked.argmax(axis=0)
            if k == last:
                start[c] = masked[pick[top, attempts, root_used], top, attempts, root_used]
            if k < n:
                ring[k, :, c % width] = np.take_along_axis(masked, pick[None], 0)[0]
            if policy is not None:
                policy[c, k] = np.take_along_axis(arg, pick[None], 0)[0]
        if rules.complex.last_attempt_beats:
            ring[:, :, c % width, 0, :] = terminal[c]
            if attempts == 0:
                start[c] = terminal[c]
    if spot.crisis >= cap:
        for i in range(n):
            if n == 1 or i != last:
                for k in range(starts[i], starts[i + 1]):
                    if actions[k].kind != "decisive" or attempts:
                        values[actions[k]] = float(terminal[cap])
    return Solution(values, actions, policy, start)
