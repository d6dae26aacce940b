"""Limits on the work one Complex Obstacle solve may ask for, so that no question hangs or exhausts memory.

The exact solver (:mod:`.obstacle`) holds a value for every state — Crisis × last actor × Obstruction ×
attempts × the set of Talents already used — and the last factor is ``2 ** (characters × Talents)``: one more
Talent doubles the work. Before any array is built a solve counts what it would need (:class:`SolveSize`) and
is refused past its limits with :class:`~talespin.dice.LimitExceeded`, a message naming the limit and what to
reduce (exit code 2 on the command line, 422 over HTTP). A question inside the limits is solved exactly.

>>> LAB.states, TABLE.states
(40000000, 10000000)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LAB", "TABLE", "SolveSize", "SolverLimits"]


@dataclass(frozen=True, slots=True)
class SolverLimits:
    """The most one solve may ask for."""

    states: int
    """States solved: Crisis levels × (characters + 1) × Obstruction levels × attempts × Talents-used sets."""
    rolls: int
    """Rolls weighed: for every Crisis level and state after an action, each Talent roll with each set of its
    modifier Skills (the matrix products' rows; this is what the time grows with)."""
    memory: int
    """Bytes of the working arrays (the ring of levels an action reaches, one level's options, the policy)."""
    skill_sets: int
    """Sets of modifier Skills weighed for one Talent (``2 ** Skills``: every set may be ticked)."""


LAB = SolverLimits(states=40_000_000, rolls=120_000_000, memory=1 << 30, skill_sets=16)
"""The designer's lab (``talespin lab advise``, ``POST /api/lab/advise``, a scene's analysis): about two
seconds and a few hundred MB at the reference speed of ``bench/bench_lab.py`` (20.5 M states, 46 M rolls)."""

TABLE = SolverLimits(states=10_000_000, rolls=30_000_000, memory=1 << 28, skill_sets=16)
"""The advice inside a table's odds answer (``POST /api/campaigns/{id}/odds``), solved while a player waits:
past it the answer says so (``"advice": null`` and the reason) and points to ``talespin lab advise``."""


@dataclass(frozen=True, slots=True)
class SolveSize:
    """What one solve would need, counted before any work; :meth:`excess` names the first limit passed."""

    states: int
    rolls: int
    memory: int
    skill_sets: int

    def excess(self, limits: SolverLimits) -> str | None:
        """``None`` within ``limits``, else a message saying which limit is passed and what to reduce."""
        if self.skill_sets > limits.skill_sets:
            return (
                f"a Talent has {self.skill_sets} sets of modifier Skills to weigh (at most "
                f"{limits.skill_sets}): give each Talent fewer modifier Skills"
            )
        reduce = (
            "fewer characters or Talents (each Talent doubles the sets of Talents used), "
            "a lower Obstruction, fewer attempts or a lower Crisis cap"
        )
        if self.states > limits.states:
            return f"the obstacle has {self.states} states to solve (at most {limits.states}): use {reduce}"
        if self.rolls > limits.rolls:
            return (
                f"the obstacle has {self.rolls} rolls to weigh (at most {limits.rolls}): use fewer modifier "
                f"Skills, {reduce}"
            )
        if self.memory > limits.memory:
            return (
                f"the obstacle needs about {self.memory / 2**20:.1f} MiB to solve (at most "
                f"{limits.memory / 2**20:.1f} MiB): use {reduce}"
            )
        return None
