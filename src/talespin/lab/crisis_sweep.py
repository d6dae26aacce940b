"""The Crisis sweep of the Complex Obstacle solver: every state's value, from the Crisis cap down.

:mod:`.obstacle` turns the rules into transition tables (:class:`Moves`, one per Talent roll); this module
weighs them. Values are kept per character ``i``: ``ring[i]`` holds the value of every state just after
``i`` acted, one slab (attempts, Obstruction, Talents used) per Crisis level. Three ideas keep a solve
waiting on memory as little as possible:

* **Levels in blocks.** Every action adds at least :meth:`Character.least` Crisis, so the levels
  ``c − least + 1 .. c`` depend only on levels above ``c``: they are solved together, and each matrix product
  reads the window of levels above once for the whole block (two levels per read under the shipped rules,
  where every action adds at least 2) instead of once per level.
* **A contiguous window.** Each level is stored twice, at slots ``l % period`` and ``l % period + period``
  (``period``: one more than the most Crisis an action adds, plus the block's levels but one), so the
  levels a block reaches are one slice and every transition is a matrix product over it, with no
  gathering. Levels at or past the cap are all worth the cap's value: products weigh them at once
  (:class:`Capped`) instead of reading them.
* **A running maximum.** A character's options are folded into its best value as each is produced
  (``np.maximum(..., out=...)``), never all kept first; the best over the characters allowed to act next is
  written straight into the ring.

A Regular Action with roll ``j`` leads to a state where its Talent's bit is set, so only that half of the
next level's states matters: it is weighed on that half only. Its value with the repeat extra at level ``c``
is, when the extra only shifts every Crisis by ``shift`` (no floor in the way), its value without the extra
at level ``c + shift``: those values are kept in a small ring (``memo``) and weighed once.

Among equal options the first in :func:`~.obstacle.legal_actions` order is the one the policy names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int16]
Bands = tuple[tuple[int, int, int], ...]

MOST_LEVELS_AT_ONCE = 4
"""A block never holds more Crisis levels than this, whatever the least Crisis an action adds: each level of a
block costs its own slab of values for every roll."""


@dataclass
class Moves:
    """Float transition tables of one Talent roll of one character."""

    fail: FloatArray  # (2, K): Crisis of a failed Regular Action, without and with the repeat extra
    success_crisis: tuple[int, int]
    reduce: FloatArray  # (O+1, O+1): P(Obstruction O → O') on a successful Regular Action
    dec_fail: FloatArray  # (O+1, K): Crisis of a failed Decisive Action at each Obstruction
    dec_success: FloatArray  # (O+1,): P(a Decisive Action at O beats the obstacle)
    dec_crisis: int


@dataclass(frozen=True, slots=True)
class Board:
    """What the sweep needs to know of the obstacle besides the characters' tables.

    Slabs are indexed ``[attempts, Obstruction, Talents used]``; "live" slabs start at ``low`` attempts
    (with the last attempt beating the obstacle, no state without attempts is solved: it is beaten).
    """

    terminal: FloatArray  # the value of a beaten obstacle at Crisis 0..cap
    shape: tuple[int, int, int]  # (attempts + 1, Obstruction + 1, sets of Talents used)
    low: int  # the fewest attempts still in play
    shrink: npt.NDArray[np.int64]  # the Obstruction after an automatic Regular Action, per Obstruction
    auto: int  # the Crisis an automatic Regular Action adds
    beats: bool  # the last attempt beats the obstacle
    crisis: int  # the Crisis of the spot asked about
    root: tuple[int, int, int]  # the spot's state in a live slab
    last: int  # the character who acted last at the spot (the party's size: no one)
    firsts: tuple[int, ...]  # the index of each character's first action among the legal actions


@dataclass(frozen=True, slots=True)
class Swept:
    """The sweep's answer: each legal action's value at the spot (by its index), the spot's value at every
    Crisis (``start``) and, if asked, the policy ``[c, last, attempts, O, used]``."""

    values: dict[int, float]
    start: FloatArray
    policy: IntArray | None


@dataclass
class Character:
    """One character's transitions stacked over its rolls (each Talent with each set of ticked Skills), so a
    block of Crisis levels costs a few matrix products."""

    fail: FloatArray  # (2, R, k1 − k0): Crisis of a failed Regular Action per roll, without/with repeat
    k0: int
    k1: int
    success: npt.NDArray[np.int64]  # (2, R): Crisis of a successful Regular Action, without/with repeat
    groups: tuple[tuple[int, int, FloatArray, tuple[int, ...], Bands], ...]
    """Rolls sharing a Talent bit and the Crisis of a success: ``(x, Crisis, stacked reductions, rolls,
    bands)`` per repeat index ``x``; the reductions are P(O → O') on success, ``len(rolls)·(O+1)`` rows,
    weighed band by band (:func:`_bands`)."""
    dec_fail: FloatArray  # (O+1, R, K): Crisis of a failed Decisive Action at each Obstruction
    dec_success: FloatArray  # (R, O+1): P(a Decisive Action at O beats the obstacle)
    dec_crisis: npt.NDArray[np.int64]  # (R,): Crisis of a successful Decisive Action per roll
    bits: tuple[int, ...]
    dec_span: tuple[tuple[int, int], ...]  # per Obstruction, the Crisis window its failures fall in
    shift: int | None  # the repeat extra when it only shifts Crisis (then ``memo`` is used), else None
    memo: FloatArray | None = None  # (shift + block, R, half): values without the extra, by level
    blocks: dict[tuple[int, int, int], tuple[FloatArray, FloatArray]] = field(default_factory=dict)
    """The tables laid out for a block of levels, by (table, row, levels): see :meth:`_stagger`."""

    @classmethod
    def of(cls, moves: list[tuple[int, Moves]], tops: int, width: int, rep: int) -> Character:
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
                groups.append((x, k, stacked, which, _bands(stacked, tops)))
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

    def least(self, auto: int) -> int:
        """The least Crisis any of the character's actions adds (``auto``: an automatic Regular Action's)."""
        steps = [auto]
        if self.bits:
            steps += [self.k0, int(self.success.min()), int(self.dec_crisis.min())]
            steps += [k0 for k0, k1 in self.dec_span if k0 < k1]
        return min(steps)

    def reach(self, auto: int) -> int:
        """One more than the most Crisis any of the character's actions adds: the levels it reads."""
        ends = [auto + 1]
        if self.bits:
            ends += [self.k1, int(self.success.max()) + 1, max(k1 for _, k1 in self.dec_span)]
        return max(ends)

    def _stagger(self, key: int, row: int, table: FloatArray, levels: int) -> tuple[FloatArray, FloatArray]:
        """``table`` (R rows over consecutive Crisis offsets) laid out for a block: ``(levels·R, K +
        levels − 1)``, the rows of level ``d`` shifted ``d`` columns right, so that one product over the
        window gives every level of the block; and the sums of each row's columns from each one on (for
        :meth:`Capped.split`). Built once per table and block size."""
        found = self.blocks.get((key, row, levels))
        if found is None:
            rolls, span = table.shape
            staggered = np.zeros((levels, rolls, span + levels - 1))
            for d in range(levels):
                staggered[d, :, d : d + span] = table
            staggered = staggered.reshape(levels * rolls, -1)
            tails = np.zeros((levels * rolls, span + levels))
            tails[:, :-1] = np.cumsum(staggered[:, ::-1], axis=1)[:, ::-1]
            found = self.blocks[(key, row, levels)] = (staggered, tails)
        return found

    def _regular(self, live: FloatArray, levels: int, x: int, outs: list[FloatArray], capped: Capped) -> None:
        """Each roll's Regular Action value (repeat index ``x``) at the block's ``levels`` lowest levels of
        ``live`` into ``outs[d]`` (``(R, half)``: the half of the states where the roll's Talent is used),
        from ``live[k]`` = the values ``k`` levels above the block's lowest."""
        _, attempts1, tops, count = live.shape
        rolls = len(self.bits)
        read, beyond = capped.split(self._stagger(0, x, self.fail[x], levels), self.k0)
        reach = read.shape[1]
        failed = (read @ live[self.k0 : self.k0 + reach].reshape(reach, -1)).reshape(
            levels, rolls, attempts1, tops, count
        )
        beyond = beyond.reshape(levels, rolls)
        for gx, k, reduce, which, bands in self.groups:
            if gx != x:
                continue
            bit = self.bits[which[0]]
            used = np.ascontiguousarray(_half(live[k : k + levels], bit, 1)).view(np.float64)
            used = used.reshape(levels * attempts1, tops, -1)
            done = np.empty((levels * attempts1, len(reduce), used.shape[2]))
            for first, stop, columns in bands:  # a success only lowers the Obstruction
                np.matmul(reduce[first:stop, :columns], used[:, :columns], out=done[:, first:stop])
            done = done.reshape(levels, attempts1, len(which), tops, -1)
            for g, j in enumerate(which):
                for d in range(levels):
                    out = outs[d][j].reshape(attempts1, tops, -1)
                    _runs(out, bit)[...] = _half(failed[d, j], bit, 1)
                    out += done[d, :, g]
                    if beyond[d, j]:
                        out += beyond[d, j]

    def prime(self, ring: FloatArray, period: int, cap: int, block: int) -> None:
        """Weigh the levels ``cap .. cap + shift − 1`` (all at the cap's value, so weighed once) into
        ``memo``, which keeps ``shift + block`` levels so that a block never overwrites a level it reads."""
        if self.shift is None or not self.bits:
            return
        self.memo = np.empty((self.shift + block, len(self.bits), ring[0].size // 2))
        for level in range(cap, cap + self.shift):
            if level == cap:
                slot = level % period
                window, capped = ring[slot : slot + period], Capped(0, float(ring[slot].flat[0]))
                self._regular(window, 1, 0, [self.memo[level % len(self.memo)]], capped)
            else:
                self.memo[level % len(self.memo)] = self.memo[cap % len(self.memo)]

    def _regulars(
        self, live: FloatArray, lo: int, levels: int, capped: Capped
    ) -> tuple[list[FloatArray], list[FloatArray]]:
        """Each level's Regular Action values ``(R, half)`` without and with the repeat extra."""
        rolls, half = len(self.bits), live[0].size // 2
        if self.memo is not None and self.shift is not None:
            depth = len(self.memo)
            fresh = [self.memo[(lo + d) % depth] for d in range(levels)]
            self._regular(live, levels, 0, fresh, capped)
            return fresh, [self.memo[(lo + d + self.shift) % depth] for d in range(levels)]
        fresh = [np.empty((rolls, half)) for _ in range(levels)]
        again = [np.empty((rolls, half)) for _ in range(levels)]
        self._regular(live, levels, 0, fresh, capped)
        self._regular(live, levels, 1, again, capped)
        return fresh, again

    def _decisive(self, window: FloatArray, lo: int, levels: int, terminal: FloatArray) -> FloatArray:
        """``(attempts, O+1, levels·R, Talents used)``: each roll's Decisive Action value at each level of the
        block with one more attempt than ``window``'s first ones, read one attempt fewer."""
        _, attempts1, tops, count = window.shape
        rolls = len(self.bits)
        spent = np.empty((attempts1 - 1, tops, levels * rolls, count))
        won = self._won(lo, levels, terminal).transpose(2, 0, 1).reshape(tops, levels * rolls, 1)
        capped = Capped(len(terminal) - 1 - lo, float(terminal[-1]))
        for o, (k0, k1) in enumerate(self.dec_span):  # only the levels a failure at o can reach
            if k0 == k1:
                spent[:, o] = 0.0
                continue
            read, beyond = capped.split(self._stagger(1, o, self.dec_fail[o, :, k0:k1], levels), k0)
            fewer = window[k0 : k0 + read.shape[1], : attempts1 - 1, o].transpose(
                1, 0, 2
            )  # (attempts, levels, used)
            np.matmul(read, fewer, out=spent[:, o])
            won[o, :, 0] += beyond
        spent += won
        return spent

    def _won(self, lo: int, levels: int, terminal: FloatArray) -> FloatArray:
        """``(levels, R, O+1)``: what a Decisive Action wins by beating the obstacle, times its chance."""
        cap = len(terminal) - 1
        won: FloatArray = terminal[np.minimum(lo + np.arange(levels)[:, None] + self.dec_crisis, cap)]
        return np.multiply(won[:, :, None], self.dec_success[None])  # (levels, R, O+1)

    def _last_attempt(self, lo: int, levels: int, terminal: FloatArray) -> FloatArray:
        """``(levels, R, O+1)``: each roll's Decisive Action value with one attempt left when the last attempt
        beats the obstacle: every state it fails into is beaten, worth ``terminal`` at its Crisis, whatever
        the Talents used, so no slab is read."""
        cap, width = len(terminal) - 1, self.dec_fail.shape[2]
        reach = terminal[np.minimum(lo + np.arange(levels)[:, None] + np.arange(width), cap)]  # (levels, K)
        failed: FloatArray = np.einsum("ojk,dk->djo", self.dec_fail, reach)
        return np.add(failed, self._won(lo, levels, terminal))

    def fold(self, block: Block, board: Board, at_root: bool) -> dict[int, float]:
        """Fold every action of the character at the block's levels into ``block.best`` (and ``block.arg``,
        if kept): see :class:`Block`.

        With ``at_root`` it also returns each action's value at the spot's state at level ``block.lo``, by
        its index counted from the character's first action (a Decisive Action only with an attempt left)."""
        window, best, arg = block.window, block.best, block.arg
        found: dict[int, float] = {}
        for d in range(len(best)):
            np.take(window[d + board.auto], board.shrink, axis=1, out=best[d], mode="clip")
        if arg is not None:
            arg[...] = block.first
        if at_root:
            found[0] = float(best[0][board.root])
        if not self.bits:
            return found
        capped = Capped(len(board.terminal) - 1 - block.lo, float(board.terminal[-1]))
        found |= self._fold_regular(block, capped, board.root if at_root else None)
        found |= self._fold_decisive(block, board, at_root)
        return found

    def _fold_regular(
        self, block: Block, capped: Capped, root: tuple[int, int, int] | None
    ) -> dict[int, float]:
        """Fold each roll's Regular Action into the block's best; with ``root`` (a live state) each one's
        value there at level ``block.lo``."""
        live, best, arg = block.window, block.best, block.arg
        fresh, again = self._regulars(live, block.lo, len(best), capped)
        option = np.empty(best.shape[1:])
        found: dict[int, float] = {}
        for j, bit in enumerate(self.bits):
            for d in range(len(best)):
                _half(option, bit, 0)[...] = _runs(fresh[d][j].reshape((*option.shape[:-1], -1)), bit)
                _half(option, bit, 1)[...] = _runs(again[d][j].reshape((*option.shape[:-1], -1)), bit)
                _fold(best[d], None if arg is None else arg[d], option, block.first + 1 + j)
            if root is not None:
                ra, ro, ru = root
                runs = (fresh, again)[(ru >> bit) & 1][0][j].reshape(*live.shape[1:3], -1, 1 << bit)
                found[1 + j] = float(runs[ra, ro, ru >> (bit + 1), ru % (1 << bit)])
        return found

    def _fold_decisive(self, block: Block, board: Board, at_root: bool) -> dict[int, float]:
        """Fold each roll's Decisive Action into the block's best (no attempt left: none); with ``at_root``
        each one's value at the spot's state at level ``block.lo``."""
        window, lo, best, arg = block.window, block.lo, block.best, block.arg
        rolls, (ra, ro, ru) = len(self.bits), board.root
        decisive = block.first + 1 + rolls
        found: dict[int, float] = {}
        if board.low:  # the first live attempt is the last one: it beats the obstacle
            last = self._last_attempt(lo, len(best), board.terminal)
            for d in range(len(best)):
                for j in range(rolls):
                    picks = None if arg is None else arg[d, 0]
                    _fold(best[d, 0], picks, last[d, j][:, None], decisive + j)
            if at_root and ra == 0:
                found.update({1 + rolls + j: float(last[0, j, ro]) for j in range(rolls)})
        if window.shape[1] > 1:
            spent = self._decisive(window, lo, len(best), board.terminal)
            for d in range(len(best)):
                for j in range(rolls):
                    picks = None if arg is None else arg[d, 1:]
                    _fold(best[d, 1:], picks, spent[:, :, d * rolls + j], decisive + j)
            if at_root and ra > 0:
                found.update({1 + rolls + j: float(spent[ra - 1, ro, j, ru]) for j in range(rolls)})
        return found


@dataclass(frozen=True, slots=True)
class Block:
    """One character's share of a block of Crisis levels ``lo ..`` (``len(best)`` of them), as
    :meth:`Character.fold` reads and fills it."""

    window: FloatArray
    """``window[k]``: the values ``k`` levels above ``lo``, after the character acted."""
    lo: int
    best: FloatArray
    """``best[d]``: the best value of the character's actions at every live state of level ``lo + d``."""
    arg: IntArray | None
    """``arg[d]``: the index of the first best action (when the policy is kept)."""
    first: int
    """The index of the character's first action among the legal actions."""


BANDS = 3
"""A success's reductions are weighed in this many bands of Obstructions per roll, each reading only the
Obstructions a success from them can reach: about a third less work than the whole square."""


def _bands(reduce: FloatArray, tops: int) -> Bands:
    """``(first row, stop row, columns)``: the rows of ``reduce`` (``tops`` per roll) in bands, each with the
    columns up to its last nonzero one (a success never raises the Obstruction, so the low rows need few)."""
    rows = len(reduce)
    edges = np.linspace(0, rows, min(rows, BANDS * (rows // tops)) + 1).astype(int)
    out = []
    for first, stop in pairwise(edges):
        hit = np.flatnonzero(reduce[first:stop].any(axis=0))
        out.append((int(first), int(stop), int(hit[-1]) + 1 if hit.size else 1))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Capped:
    """Where a window reaches the Crisis cap: from index ``edge`` on, every level is worth ``value`` in every
    state, so a product weighs those levels at once instead of reading them."""

    edge: int
    value: float

    def split(self, staggered: tuple[FloatArray, FloatArray], start: int) -> tuple[FloatArray, FloatArray]:
        """A staggered table's columns read the window from index ``start``: the columns still to be read
        (at least one), and what the others add to each row."""
        table, tails = staggered
        cut = min(table.shape[1], max(self.edge - start, 1))
        return table[:, :cut], tails[:, cut] * self.value


def _runs(values: FloatArray, bit: int) -> npt.NDArray[np.void]:
    """``values`` (last axis: sets of Talents used, contiguous) seen as runs of ``1 << bit`` numbers, the
    sets that agree on every Talent from ``bit`` up: numpy copies a run at once, not number by number."""
    return values.view(np.dtype((np.void, 8 << bit)))


def _half(values: FloatArray, bit: int, side: int) -> npt.NDArray[np.void]:
    """The half of ``values`` where Talent ``bit`` is used (``side`` 1) or not yet (0), as runs (a view)."""
    runs = _runs(values, bit)
    return runs.reshape(*runs.shape[:-1], -1, 2)[..., side]


def _fold(best: FloatArray, arg: IntArray | None, option: FloatArray, index: int) -> None:
    """Keep the better of ``best`` and ``option`` in ``best``; ``arg`` names ``index`` where it is strictly
    better (the first among equals stays)."""
    if arg is not None:
        arg[option > best] = index
    np.maximum(best, option, out=best)


def _best_of(
    allowed: list[int], bests: FloatArray, args: IntArray | None, out: FloatArray, pick: IntArray | None
) -> None:
    """The best over the characters ``allowed`` to act into ``out``, and which action it is into ``pick``
    (the first among equals)."""
    if args is None or pick is None:
        if len(allowed) == 1:
            out[...] = bests[allowed[0]]
            return
        np.maximum(bests[allowed[0]], bests[allowed[1]], out=out)
        for i in allowed[2:]:
            np.maximum(out, bests[i], out=out)
        return
    out[...] = bests[allowed[0]]
    pick[...] = args[allowed[0]]
    for i in allowed[1:]:
        better = bests[i] > out
        pick[better] = args[i][better]
        np.maximum(out, bests[i], out=out)


def sweep(characters: list[Character], board: Board, keep_policy: bool) -> Swept:
    """Crisis from the cap down, a block of levels at a time, each from the levels above it."""
    terminal, low, root = board.terminal, board.low, board.root
    cap, n = len(terminal) - 1, len(characters)
    block = max(1, min([MOST_LEVELS_AT_ONCE] + [c.least(board.auto) for c in characters]))
    period = max(c.reach(board.auto) for c in characters) + block - 1
    live = (board.shape[0] - low, *board.shape[1:])
    ring = np.full((n, 2 * period, *live), terminal[cap])  # only the attempts still in play
    for i, character in enumerate(characters):
        character.prime(ring[i], period, cap, block)
    bests = np.empty((n, block, *live))
    args = np.empty((n, block, *live), np.int16) if keep_policy else None
    policy = np.zeros((cap + 1, n + 1, *board.shape), np.int16) if keep_policy else None
    values: dict[int, float] = {}
    start = np.full(cap + 1, terminal[cap])
    bottom = min(board.crisis, cap)
    for top in range(cap - 1, bottom - 1, -block):
        lo = max(top - block + 1, bottom)
        levels = top - lo + 1
        slot = lo % period
        for i, character in enumerate(characters):
            at_root = lo == board.crisis and (n == 1 or i != board.last)
            arg = None if args is None else args[i, :levels]
            share = Block(ring[i, slot : slot + period], lo, bests[i, :levels], arg, board.firsts[i])
            found = character.fold(share, board, at_root)
            values.update({board.firsts[i] + k: v for k, v in found.items()})
        for d in range(levels):
            level = lo + d
            here = level % period
            for k in range(n + 1):
                allowed = [i for i in range(n) if n == 1 or i != k]
                pick = None if policy is None else policy[level, k, low:]
                if k == n and pick is None:  # no one acted last: only the spot's own value is read
                    if k == board.last:
                        start[level] = max(bests[i, d][root] for i in allowed)
                    continue
                out = ring[k, here] if k < n else np.empty(live)
                _best_of(allowed, bests[:, d], None if args is None else args[:, d], out, pick)
                if k < n:
                    ring[k, here + period] = out
                if k == board.last:
                    start[level] = out[root]
            if board.beats and board.shape[0] == 1:  # no attempt left: the obstacle is beaten
                ring[:, here, 0] = terminal[level]
                ring[:, here + period, 0] = terminal[level]
                start[level] = terminal[level]
    return Swept(values, start, policy)
