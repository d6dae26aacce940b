"""Whole conflicts by Monte Carlo (II-FLOW-1..5): many conflicts at once, one numpy array per quantity.

Every conflict of a batch advances in lockstep: in each round each participant still in acts in order, in
every conflict where it is still in and the conflict is not over. Dice are rolled exactly — a die showing its
maximum is rolled again and added, with no depth limit — so nothing is truncated. The generator is made
from the seed alone and batches have a fixed size, so a seed gives the same answer on every run.

Figures come with standard errors (a proportion's ``sqrt(p(1−p)/n)``, a mean's ``sd/sqrt(n)``) and 95%
intervals (± 1.96 standard errors).

>>> from .conflict_spec import Conflict, Fighter, SidePolicy
>>> duel = Conflict((Fighter("Ada", 0, "Wits", (8,), 5, 2), Fighter("Orc", 1, "Axe", (6,), 5, 2)),
...                 (SidePolicy(), SidePolicy()))
>>> a, b = simulate_conflict(duel, sims=2000, seed=7), simulate_conflict(duel, sims=2000, seed=7)
>>> a.p_characters_win.value == b.p_characters_win.value
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..systems.errors import MalformedCommand
from ..systems.inciting_incident.chances import action_crisis, failure_crisis
from ..systems.inciting_incident.rules import Rules, default_rules
from .conflict_spec import Conflict

__all__ = ["BATCH", "MAX_SIMS", "ConflictOdds", "Estimate", "roll_totals", "simulate_conflict"]

IntArray = npt.NDArray[np.int64]
BATCH = 20_000
"""Conflicts simulated together (memory stays small; the seed fixes every batch)."""
MAX_SIMS = 10_000_000
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A simulated figure with its standard error and 95% interval."""

    value: float
    se: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval, value ± 1.96 standard errors."""
        return (self.value - Z95 * self.se, self.value + Z95 * self.se)

    def to_json(self) -> dict[str, Any]:
        """``{"value", "se", "ci95": [low, high]}``."""
        return {"value": self.value, "se": self.se, "ci95": list(self.interval)}


def _proportion(hits: int, n: int) -> Estimate:
    p = hits / n
    return Estimate(p, math.sqrt(p * (1 - p) / n))


def _mean(sums: Sequence[float], n: int) -> Estimate:
    """A mean and its standard error from the sum and the sum of squares of ``n`` values."""
    total, squares = sums
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / max(n - 1, 1)
    return Estimate(mean, math.sqrt(var / n))


def roll_totals(rng: np.random.Generator, count: int, sizes: Sequence[int]) -> IntArray:
    """``count`` totals of exploding dice of ``sizes`` (II-ROLL-2), exactly: chains run until they stop."""
    total = np.zeros(count, dtype=np.int64)
    for size in sorted(set(sizes)):
        k = sum(1 for s in sizes if s == size)
        faces = rng.integers(1, size + 1, size=(count, k), dtype=np.int16)
        total += faces.sum(axis=1, dtype=np.int64)
        chains = np.flatnonzero(faces == size) // k  # the conflict of every die that exploded
        while chains.size:
            more = rng.integers(1, size + 1, size=chains.size, dtype=np.int16)
            total += np.bincount(chains, weights=more, minlength=count).astype(np.int64)
            chains = chains[more == size]
    return total


@dataclass(frozen=True)
class ConflictOdds:
    """What many simulated conflicts say: who wins, how long, how hurt, how much Crisis."""

    sims: int
    seed: int
    p_characters_win: Estimate
    p_enemies_win: Estimate
    p_unfinished: Estimate
    rounds: Estimate
    crisis: Estimate
    wounds: dict[str, Estimate]
    """Mean wounds each participant takes."""

    def to_json(self) -> dict[str, Any]:
        """Every figure as ``{"value", "se", "ci95"}``."""
        return {
            "sims": self.sims,
            "seed": self.seed,
            "p_characters_win": self.p_characters_win.to_json(),
            "p_enemies_win": self.p_enemies_win.to_json(),
            "p_unfinished": self.p_unfinished.to_json(),
            "rounds": self.rounds.to_json(),
            "crisis": self.crisis.to_json(),
            "wounds": {name: e.to_json() for name, e in self.wounds.items()},
        }

    def _repr_html_(self) -> str:
        rows = [
            ("P(characters win)", self.p_characters_win),
            ("P(enemies win)", self.p_enemies_win),
            ("rounds", self.rounds),
            ("Crisis", self.crisis),
        ]
        body = "".join(f"<tr><td>{k}</td><td>{e.value:.4f}</td><td>±{e.se:.4f}</td></tr>" for k, e in rows)
        return f"<table><tr><th>{self.sims} conflicts</th><th>mean</th><th>s.e.</th></tr>{body}</table>"


@dataclass
class _Batch:
    flow: IntArray
    wounds: IntArray  # (n, fighters)
    crisis: IntArray
    rounds: IntArray
    winner: IntArray  # 0 no one yet, 1 characters, 2 enemies
    live: npt.NDArray[np.bool_]


def _act(batch: _Batch, f: int, conflict: Conflict, rng: np.random.Generator, rules: Rules) -> None:
    """Participant ``f`` attacks in every conflict where it is still in (II-FLOW-2/3/4)."""
    fighters, me = conflict.fighters, conflict.fighters[f]
    hits = np.array([x.hits for x in fighters])
    acting = batch.live & (batch.wounds[:, f] < me.hits)
    if not acting.any():
        return
    foes = [k for k, x in enumerate(fighters) if x.side != me.side]
    left = hits[foes] - batch.wounds[:, foes]  # (n, foes): hits left, 0 when out
    policy = conflict.policies[me.side]
    if policy.target == "weakest":
        choice = np.where(left > 0, left, np.iinfo(np.int64).max).argmin(axis=1)
    else:
        choice = (left > 0).argmax(axis=1)
    sign = 1 if me.side == 0 else -1
    c = rules.conflict
    target = rules.roll.target
    for k, foe in enumerate(foes):
        rows = np.flatnonzero(acting & (choice == k))
        if rows.size == 0:
            continue
        total = roll_totals(rng, rows.size, [rules.roll.d6_size] * fighters[foe].defence + list(me.dice))
        favour = sign * batch.flow[rows]
        decisive = favour >= policy.decisive_at
        guard = np.maximum(c.guard_minimum, c.guard - favour)
        against = np.where(decisive, guard, target)
        success = total >= against
        wounded = rows[success & decisive]
        batch.wounds[wounded, foe] += c.wounds_per_decisive
        batch.flow[wounded] = c.flow_after_wound
        shifted = success & ~decisive
        batch.flow[rows[shifted]] += sign * np.maximum(c.success_minimum_flow, total[shifted] - target)
        failed = rows[~success]
        if me.side == 0:
            batch.crisis[failed] += _failure_crisis(total[~success], rules)
        else:
            batch.flow[failed] += c.enemy_failure_flow
    for side in (0, 1):
        members = [k for k, x in enumerate(fighters) if x.side == side]
        gone = (batch.wounds[:, members] >= hits[members]).all(axis=1) & batch.live
        batch.winner[gone] = 2 - side  # the other side wins
        batch.live &= ~gone


def _failure_crisis(totals: IntArray, rules: Rules) -> IntArray:
    """A character's failed attack's Crisis, looked up from the rules' own function for each total."""
    target = rules.roll.target
    table = np.array(
        [action_crisis(failure_crisis(t, target, rules), 0, rules=rules) for t in range(target + 1)]
    )
    return table[np.minimum(totals, target)]


def _fresh(conflict: Conflict, n: int, rules: Rules) -> _Batch:
    zeros = np.zeros(n, dtype=np.int64)
    wounds = np.zeros((n, len(conflict.fighters)), dtype=np.int64)
    return _Batch(
        zeros + rules.conflict.flow_start, wounds, zeros.copy(), zeros.copy(), zeros.copy(), zeros == 0
    )


def _run(conflict: Conflict, n: int, rng: np.random.Generator, rules: Rules) -> _Batch:
    """``n`` conflicts to their end; each round plays only those still going (finished ones are set aside)."""
    done = _fresh(conflict, n, rules)
    play = _fresh(conflict, n, rules)
    ids = np.arange(n)
    for _ in range(conflict.max_rounds):
        play.rounds += 1
        for f in range(len(conflict.fighters)):
            _act(play, f, conflict, rng, rules)
        over = ~play.live
        if over.any():
            rows = ids[over]
            done.wounds[rows], done.crisis[rows] = play.wounds[over], play.crisis[over]
            done.rounds[rows], done.winner[rows] = play.rounds[over], play.winner[over]
            keep = play.live
            ids = ids[keep]
            play = _Batch(
                play.flow[keep],
                play.wounds[keep],
                play.crisis[keep],
                play.rounds[keep],
                play.winner[keep],
                play.live[keep],
            )
        if ids.size == 0:
            break
    done.wounds[ids], done.crisis[ids], done.rounds[ids] = play.wounds, play.crisis, play.rounds
    return done


def simulate_conflict(
    conflict: Conflict,
    rules: Rules | None = None,
    *,
    sims: int = 100_000,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> ConflictOdds:
    """Simulate ``sims`` conflicts from ``seed``; ``progress(done)`` is called after each batch."""
    rules = rules or default_rules()
    if not 1 <= sims <= MAX_SIMS:
        raise MalformedCommand(f"sims must be 1..{MAX_SIMS}, got {sims}", code="bad_field", path="sims")
    rng = np.random.default_rng(seed)
    names = [f.name for f in conflict.fighters]
    wins = np.zeros(3, dtype=np.int64)
    sums = {"rounds": [0.0, 0.0], "crisis": [0.0, 0.0], **{name: [0.0, 0.0] for name in names}}
    done = 0
    while done < sims:
        n = min(BATCH, sims - done)
        batch = _run(conflict, n, rng, rules)
        wins += np.bincount(batch.winner, minlength=3)
        columns = {"rounds": batch.rounds, "crisis": batch.crisis}
        columns |= {name: batch.wounds[:, k] for k, name in enumerate(names)}
        for key, values in columns.items():
            sums[key][0] += float(values.sum())
            sums[key][1] += float((values.astype(np.float64) ** 2).sum())
        done += n
        if progress is not None:
            progress(done)
    return ConflictOdds(
        sims,
        seed,
        _proportion(int(wins[1]), sims),
        _proportion(int(wins[2]), sims),
        _proportion(int(wins[0]), sims),
        _mean(sums["rounds"], sims),
        _mean(sums["crisis"], sims),
        {name: _mean(sums[name], sims) for name in names},
    )
