"""Whole conflicts by Monte Carlo (II-FLOW-1..5): many conflicts at once, one numpy array per quantity.

Every conflict of a batch advances in lockstep: in each round each participant still in acts in order, in
every conflict where it is still in and the conflict is not over. Dice explode exactly — a die showing its
maximum is rolled again and added, with no depth limit — but an attack's total is drawn at once from a
table of its pool (:class:`_Dice`), with the rare long runs of maxima drawn exactly past it, so nothing is
truncated. The generator is made from the seed alone and batches have a fixed size, so a seed gives the
same answer on every run.

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

__all__ = ["BATCH", "LONGEST", "MAX_SIMS", "ConflictOdds", "Estimate", "roll_totals", "simulate_conflict"]

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
    wounds: IntArray  # (fighters, n)
    crisis: IntArray
    rounds: IntArray
    winner: IntArray  # 0 no one yet, 1 characters, 2 enemies
    live: npt.NDArray[np.bool_]


LONGEST = 24
"""Maxima of one size in a pool read from a table; more (a chance of about 4e-13 for ten d6) are drawn
exactly by :meth:`_Maxima.tail`."""


def _alias(pmf: Sequence[float]) -> tuple[npt.NDArray[np.float64], IntArray]:
    """Walker's alias table of a finite distribution (Vose's construction): draw an entry ``i`` uniformly
    and a uniform ``u``; the outcome is ``i`` if ``u < chance[i]``, else ``alias[i]``."""
    n = len(pmf)
    scaled = [q * n for q in pmf]
    chance, alias = [1.0] * n, list(range(n))
    small = [i for i, q in enumerate(scaled) if q < 1.0]
    large = [i for i, q in enumerate(scaled) if q >= 1.0]
    while small and large:
        low, high = small.pop(), large.pop()
        chance[low], alias[low] = scaled[low], high
        scaled[high] -= 1.0 - scaled[low]
        (small if scaled[high] < 1.0 else large).append(high)
    return np.array(chance), np.array(alias, dtype=np.int64)


@dataclass(frozen=True)
class _Maxima:
    """How many times ``count`` exploding dice of ``size`` show their maximum before all stop: negative
    binomial (each roll shows the maximum with chance ``1/size``), drawn by Walker's alias method from its
    probabilities for ``0 .. longest`` plus one entry for "more", which :meth:`tail` resolves exactly."""

    size: int
    count: int
    pmf: tuple[float, ...]  # P(0), …, P(longest) maxima, then P(more)
    chance: npt.NDArray[np.float64]
    alias: IntArray

    @classmethod
    def of(cls, size: int, count: int, longest: int = LONGEST) -> _Maxima:
        """The alias table of ``count`` dice of ``size``, ``longest`` maxima the most it names."""
        stop = (size - 1) / size
        pmf = [math.comb(j + count - 1, j) * stop**count * (1 - stop) ** j for j in range(longest + 1)]
        rolls = longest + count  # more than ``longest`` maxima: fewer than ``count`` stops in these rolls
        pmf.append(math.fsum(math.comb(rolls, s) * stop**s * (1 - stop) ** (rolls - s) for s in range(count)))
        return cls(size, count, tuple(pmf), *_alias(pmf))

    @property
    def longest(self) -> int:
        """The most maxima the table names."""
        return len(self.pmf) - 2

    def draw(self, rng: np.random.Generator, n: int) -> IntArray:
        """``n`` draws."""
        entry = rng.integers(0, len(self.chance), size=n)
        kept = rng.random(n) < self.chance[entry]
        out = np.where(kept, entry, self.alias[entry])
        more = np.flatnonzero(out > self.longest)
        if more.size:
            out[more] = self.tail(rng, more.size)
        return out

    def within(self, rng: np.random.Generator, n: int) -> IntArray:
        """``n`` draws given at most ``longest`` maxima (the others are drawn again)."""
        out = self.draw(rng, n)
        more = np.flatnonzero(out > self.longest)
        while more.size:
            out[more] = self.draw(rng, more.size)
            more = more[out[more] > self.longest]
        return out

    def tail(self, rng: np.random.Generator, n: int) -> IntArray:
        """``n`` draws given more than ``longest`` maxima, exactly: that is fewer than ``count`` stops in
        the first ``longest + count`` rolls; draw how many stops ``s`` there were, then the maxima before
        the ``count − s`` stops still to come."""
        trials = self.longest + self.count
        stop = (self.size - 1) / self.size
        weights = np.array(
            [math.comb(trials, s) * stop**s * (1 - stop) ** (trials - s) for s in range(self.count)]
        )
        stops = rng.choice(self.count, size=n, p=weights / weights.sum())
        more: IntArray = trials - stops + rng.negative_binomial(self.count - stops, stop)
        return more


@dataclass(frozen=True)
class _Dice:
    """One attack's pool of exploding dice, its total drawn from one table (II-ROLL-2), exactly.

    A die of size ``s`` shows ``s`` some number of times ``k`` and then one face ``r`` of ``1 .. s − 1``:
    ``k`` is geometric (the die shows its maximum with chance ``1/s``), ``r`` uniform and independent of
    ``k``. So a pool's total is the sum of its last faces (finitely many equally likely combinations,
    ``faces``) plus, for each size, ``s`` times the maxima its dice showed (:class:`_Maxima`). The alias
    table holds every total with at most ``longest`` maxima of each size, and one entry per size for "more
    of this size (and at most ``longest`` of the sizes before it)"; such a draw (a chance below 1e-12 for
    ten d6) is made again part by part, the part past the table exactly. Nothing is truncated.
    """

    faces: npt.NDArray[np.int16]  # the sum of last faces of every combination, each equally likely
    maxima: tuple[_Maxima, ...]
    values: IntArray  # the total of each entry; −1 − i for "more maxima of size i"
    chance: npt.NDArray[np.float64]
    alias: IntArray

    @classmethod
    def of(cls, sizes: Sequence[int], longest: int = LONGEST) -> _Dice | None:
        """The pool's tables, or None when they are too big (more than 2**20 combinations of last faces)
        or a die has one face: then the dice are rolled one by one."""
        groups = [(size, sum(1 for s in sizes if s == size)) for size in sorted(set(sizes))]
        if any(size < 2 for size, _ in groups) or math.prod((s - 1) ** k for s, k in groups) > 1 << 20:
            return None
        faces = np.zeros(1, dtype=np.int64)
        for size in sizes:
            faces = (faces[:, None] + np.arange(1, size, dtype=np.int64)).ravel()
        maxima = tuple(_Maxima.of(size, k, longest) for size, k in groups)
        pmf = np.bincount(faces) / len(faces)
        before = 1.0  # P(at most ``longest`` maxima of every size so far)
        tails = []
        for m in maxima:
            spread = np.zeros(m.size * m.longest + 1)
            spread[:: m.size] = m.pmf[:-1]
            pmf = np.convolve(pmf, spread)
            tails.append(before * m.pmf[-1])
            before *= 1.0 - m.pmf[-1]
        totals = np.flatnonzero(pmf > 0)
        values = np.concatenate([totals, -1 - np.arange(len(maxima))])
        chance, alias = _alias([*pmf[totals], *tails])
        return cls(faces.astype(np.int16), maxima, values.astype(np.int64), chance, alias)

    def roll(self, rng: np.random.Generator, count: int) -> IntArray:
        """``count`` totals of the pool, distributed exactly as rolling every die until it stops."""
        entry = rng.integers(0, len(self.chance), size=count)
        kept = rng.random(count) < self.chance.take(entry)
        pick = self.alias.take(entry)
        np.copyto(pick, entry, where=kept)
        total = self.values.take(pick)
        if total.min() < 0:
            for i in range(len(self.maxima)):
                rows = np.flatnonzero(total == -1 - i)
                if rows.size:
                    total[rows] = self._past(rng, i, rows.size)
        return total

    def _past(self, rng: np.random.Generator, i: int, n: int) -> IntArray:
        """``n`` totals with more than ``longest`` maxima of size ``i`` and at most that of the sizes
        before it."""
        total = self.faces[rng.integers(0, len(self.faces), size=n)].astype(np.int64)
        for j, m in enumerate(self.maxima):
            drawn = m.within(rng, n) if j < i else m.tail(rng, n) if j == i else m.draw(rng, n)
            total += m.size * drawn
        return total


@dataclass(frozen=True)
class _Plan:
    """What a conflict's simulation looks up rather than recomputes: each attack's dice, each failed
    total's Crisis (from the rules' own functions), who opposes whom."""

    hits: IntArray
    foes: tuple[tuple[int, ...], ...]
    dice: dict[tuple[int, int], _Dice | None]  # (attacker, foe) → the attack's pool
    sizes: dict[tuple[int, int], list[int]]
    failure_crisis: IntArray  # Crisis of a failed attack by total, totals capped at the target

    @classmethod
    def of(cls, conflict: Conflict, rules: Rules) -> _Plan:
        """The plan of ``conflict`` under ``rules``."""
        fighters = conflict.fighters
        foes = tuple(tuple(k for k, x in enumerate(fighters) if x.side != me.side) for me in fighters)
        sizes = {
            (f, k): [rules.roll.d6_size] * fighters[k].defence + list(me.dice)
            for f, me in enumerate(fighters)
            for k in foes[f]
        }
        target = rules.roll.target
        table = [action_crisis(failure_crisis(t, target, rules), 0, rules=rules) for t in range(target + 1)]
        return cls(
            np.array([x.hits for x in fighters], dtype=np.int64),
            foes,
            {pair: _Dice.of(pool) for pair, pool in sizes.items()},
            sizes,
            np.array(table, dtype=np.int64),
        )

    def roll(self, rng: np.random.Generator, attacker: int, foe: int, count: int) -> IntArray:
        """``count`` totals of ``attacker``'s attack against ``foe``."""
        dice = self.dice[(attacker, foe)]
        if dice is None:
            return roll_totals(rng, count, self.sizes[(attacker, foe)])
        return dice.roll(rng, count)


def _struck(
    batch: _Batch, plan: _Plan, foes: tuple[int, ...], acting: npt.NDArray[np.bool_], target: str
) -> list[npt.NDArray[np.bool_]]:
    """For each foe, the conflicts where the acting participant strikes it under the side's ``target``."""
    if len(foes) == 1:
        return [acting]
    n = acting.size
    if target == "weakest":  # the foe with the fewest hits left, the first among equals
        fewest = np.full(n, np.iinfo(np.int64).max)
        choice = np.zeros(n, dtype=np.int64)
        for k, foe in enumerate(foes):
            left = plan.hits[foe] - batch.wounds[foe]
            fewer = (left > 0) & (left < fewest)
            np.copyto(fewest, left, where=fewer)
            np.copyto(choice, k, where=fewer)
        return [acting & (choice == k) for k in range(len(foes))]
    # the first foe still in
    free = acting.copy()
    struck = []
    for foe in foes:
        mine = free & (batch.wounds[foe] < plan.hits[foe])
        free &= ~mine
        struck.append(mine)
    return struck


def _act(  # noqa: PLR0917 -- one participant's turn needs all of these
    batch: _Batch, f: int, conflict: Conflict, plan: _Plan, rng: np.random.Generator, rules: Rules
) -> None:
    """Participant ``f`` attacks in every conflict where it is still in (II-FLOW-2/3/4).

    Every conflict of the batch gets a roll and every quantity is updated with a mask of the conflicts
    where ``f`` acts (the rolls of the others are thrown away): whole-array operations, no gathering."""
    me = conflict.fighters[f]
    acting = batch.live & (batch.wounds[f] < me.hits)
    if not acting.any():
        return
    foes = plan.foes[f]
    policy = conflict.policies[me.side]
    sign = 1 if me.side == 0 else -1
    c = rules.conflict
    target = rules.roll.target
    n = acting.size
    struck = _struck(batch, plan, foes, acting, policy.target)
    total = plan.roll(rng, f, foes[0], n)
    for k in range(1, len(foes)):
        np.copyto(total, plan.roll(rng, f, foes[k], n), where=struck[k])
    favour = batch.flow if sign > 0 else -batch.flow
    decisive = favour >= policy.decisive_at
    against = np.maximum(c.guard_minimum, c.guard - favour)
    np.copyto(against, target, where=~decisive)
    success = total >= against
    hit = success & decisive
    for foe, mine in zip(foes, struck, strict=True):
        batch.wounds[foe] += (hit & mine) * c.wounds_per_decisive
    hit &= acting
    shifted = success & ~decisive & acting
    gain = np.maximum(c.success_minimum_flow, total - target)
    if sign < 0:
        gain = -gain
    batch.flow += gain * shifted
    np.copyto(batch.flow, c.flow_after_wound, where=hit)
    failed = acting & ~success
    if me.side == 0:
        batch.crisis += plan.failure_crisis.take(np.minimum(total, target)) * failed
    else:
        batch.flow += failed * c.enemy_failure_flow
    # only the other side can have been beaten by this participant's attacks
    gone = batch.live.copy()
    for foe in foes:
        gone &= batch.wounds[foe] >= plan.hits[foe]
    np.copyto(batch.winner, 1 + me.side, where=gone)
    batch.live &= ~gone


def _fresh(conflict: Conflict, n: int, rules: Rules) -> _Batch:
    zeros = np.zeros(n, dtype=np.int64)
    wounds = np.zeros((len(conflict.fighters), n), dtype=np.int64)
    return _Batch(
        zeros + rules.conflict.flow_start, wounds, zeros.copy(), zeros.copy(), zeros.copy(), zeros == 0
    )


def _run(conflict: Conflict, n: int, rng: np.random.Generator, rules: Rules, plan: _Plan) -> _Batch:
    """``n`` conflicts to their end; each round plays only those still going (finished ones are set aside)."""
    done = _fresh(conflict, n, rules)
    play = _fresh(conflict, n, rules)
    ids = np.arange(n)
    for _ in range(conflict.max_rounds):
        play.rounds += 1
        for f in range(len(conflict.fighters)):
            _act(play, f, conflict, plan, rng, rules)
        over = ~play.live
        if over.any():
            rows = ids[over]
            done.wounds[:, rows], done.crisis[rows] = play.wounds[:, over], play.crisis[over]
            done.rounds[rows], done.winner[rows] = play.rounds[over], play.winner[over]
            keep = play.live
            ids = ids[keep]
            play = _Batch(
                play.flow[keep],
                play.wounds[:, keep],
                play.crisis[keep],
                play.rounds[keep],
                play.winner[keep],
                play.live[keep],
            )
        if ids.size == 0:
            break
    done.wounds[:, ids], done.crisis[ids], done.rounds[ids] = play.wounds, play.crisis, play.rounds
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
    plan = _Plan.of(conflict, rules)
    names = [f.name for f in conflict.fighters]
    wins = np.zeros(3, dtype=np.int64)
    sums = {"rounds": [0.0, 0.0], "crisis": [0.0, 0.0], **{name: [0.0, 0.0] for name in names}}
    done = 0
    while done < sims:
        n = min(BATCH, sims - done)
        batch = _run(conflict, n, rng, rules, plan)
        wins += np.bincount(batch.winner, minlength=3)
        columns = {"rounds": batch.rounds, "crisis": batch.crisis}
        columns |= {name: batch.wounds[k] for k, name in enumerate(names)}
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
