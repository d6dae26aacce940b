"""Advice on a Complex Obstacle: each legal action's value under optimal play, the best one, and the cost
of every alternative relative to it, in the objective's own units (Crisis, or probability).

>>> party = parse_party([{"name": "Ada", "talents": {"Piloting": 5}}, {"name": "Bo", "talents": {"Wits": 3}}])
>>> advice = advise(party, Spot(10, 2), objective="crisis", cap=30)
>>> advice.best.character in ("Ada", "Bo")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from ..systems.arguments import BadArgument, instance, one_of, optional_whole, whole
from ..systems.bounds import MAX_WHOLE_NUMBER
from ..systems.inciting_incident.rules import Rules, default_rules
from .limits import SolverLimits
from .obstacle import Action, Spot, solve, utility
from .party import Member, parse_party

__all__ = ["Advice", "advise", "parse_party"]


@dataclass(frozen=True)
class Advice:
    """The solver's verdict at one spot: ``rows`` are ``(action, figure, cost)`` best first."""

    objective: str
    cap: int
    spot: Spot
    rows: tuple[tuple[Action, float, float], ...]
    party: tuple[Member, ...] = field(default=(), repr=False)
    """The characters the advice is about (their Talents and modifier Skills)."""

    @property
    def best(self) -> Action:
        """The best action (the first among equals)."""
        return self.rows[0][0]

    def to_json(self) -> dict[str, Any]:
        """``{"objective", "cap", "best", "actions": [{"kind", "character", "talent", "skills", …}]}``."""
        key = "expected_crisis" if self.objective == "crisis" else "p_below_cap"
        return {
            "objective": self.objective,
            "cap": self.cap,
            "obstruction": self.spot.obstruction,
            "attempts_left": self.spot.attempts_left,
            "crisis": self.spot.crisis,
            "best": self.best.label,
            "actions": [
                {
                    "kind": a.kind,
                    "character": a.character,
                    "talent": a.talent,
                    "skills": list(a.skills),
                    "label": a.label,
                    key: figure,
                    "cost": cost,
                    "best": k == 0,
                }
                for k, (a, figure, cost) in enumerate(self.rows)
            ],
        }

    def _repr_html_(self) -> str:
        what = "E[Crisis]" if self.objective == "crisis" else f"P(Crisis < {self.cap})"
        rows = "".join(
            f"<tr><td>{escape(a.label)}{' ★' if k == 0 else ''}</td>"
            f"<td>{figure:.4f}</td><td>{cost:+.4f}</td></tr>"
            for k, (a, figure, cost) in enumerate(self.rows)
        )
        return f"<table><tr><th>action</th><th>{what}</th><th>cost vs best</th></tr>{rows}</table>"


def _check_party(party: object) -> None:
    if (
        isinstance(party, str)
        or not isinstance(party, Sequence)
        or not party
        or not all(isinstance(member, Member) for member in party)
    ):
        raise BadArgument(
            "party must be a non-empty list of Member (made by parse_party([{name, talents: "
            f"{{Talent: level}}}}], rules)); got {type(party).__name__}",
            path="party",
        )


def advise(
    party: Sequence[Member],
    spot: Spot,
    *,
    objective: str = "crisis",
    cap: int = 60,
    base_d6: int | None = None,
    advantage: int = 0,
    rules: Rules | None = None,
    limits: SolverLimits | None = None,
) -> Advice:
    """Every legal action at ``spot``, best first. ``crisis`` minimises E[min(Crisis, cap)]; ``below``
    maximises P(Crisis stays below ``cap``). The cost of an action is how much worse it is than the best.

    ``party`` comes from :func:`~.party.parse_party`, ``spot`` is a :class:`~.obstacle.Spot`; an argument
    of the wrong kind or out of range is refused with :class:`~talespin.systems.arguments.BadArgument`, and
    a question past ``limits`` (by default the lab's, :data:`.limits.LAB`) with
    :class:`~talespin.dice.LimitExceeded`, before any work.
    """
    rules = default_rules() if rules is None else instance(rules, "rules", Rules, "load_rules(variant)")
    _check_party(party)
    spot = instance(spot, "spot", Spot, "Spot(obstruction=20, attempts_left=2)")
    objective = one_of(objective, "objective", ("crisis", "below"))
    cap = whole(cap, "cap", low=1, high=MAX_WHOLE_NUMBER)
    span = rules.roll.difficulty
    base_d6 = optional_whole(base_d6, "base_d6", low=span.min, high=span.max)
    advantage = whole(advantage, "advantage", low=0)
    base = span.default if base_d6 is None else base_d6
    if limits is not None:
        limits = instance(limits, "limits", SolverLimits, "talespin.lab.limits.LAB")
    terminal = utility(objective, cap)
    solution = solve(party, spot, rules, terminal=terminal, base_d6=base, advantage=advantage, limits=limits)
    sign = -1.0 if objective == "crisis" else 1.0
    ranked = sorted(solution.values.items(), key=lambda kv: -kv[1])
    top = ranked[0][1]
    rows = tuple((a, sign * v, top - v) for a, v in ranked)
    return Advice(objective, cap, spot, rows, tuple(party))
