"""The Ascend lab: extended Tests per pool, opposed Tests under both tie rules, the value of narration.

Every figure is exact (a :class:`~fractions.Fraction`, also given as a float) and comes from the odds
engine of :mod:`talespin.systems.ascend` — the lab only lays its answers side by side:

- :func:`extended_table`: P(reaching the goal within n Tests), n = 1..limit, for each pool (AS-EXT-1,
  AS-ODDS-2);
- :func:`opposed_table`: P(the attacker wins) for each pair of pools, under ``tie: defender`` and under
  ``tie: reroll`` (AS-OPP-1);
- :func:`narration_value`: for each Skill and Conviction of a Hero, the best P(success) without narration,
  narrated (one Invoke, AS-POOL-2) and exceptional (two, AS-POOL-3), and what each adds.

>>> rules = load_rules()
>>> table = extended_table(rules, target=3, pools=[4], goal=2, limit=2)
>>> table.within[0]   # 4d10 at Target 3: 2 Successes in one Test, or within two
(Fraction(328, 625), Fraction(349072, 390625))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from itertools import accumulate
from typing import Any

from ..systems.ascend import Hero, Rules, advise, extended_odds, load_rules, opposed_odds
from ..systems.ascend.chances import exact
from ..systems.ascend.rules import Narration
from ..systems.errors import MalformedCommand

__all__ = [
    "NARRATIONS",
    "ExtendedTable",
    "NarrationRow",
    "NarrationTable",
    "OpposedTable",
    "extended_table",
    "narration_value",
    "opposed_table",
    "pool_choices",
]

NARRATIONS: tuple[Narration, ...] = ("none", "narrated", "exceptional")
TIE_RULES = ("defender", "reroll")


def _pair(p: Fraction) -> list[Any]:
    return [float(p), exact(p)]


def _html(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    top = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{top}</tr>{body}</table>"


@dataclass(frozen=True)
class ExtendedTable:
    """``within[i][n − 1]`` = P(pool ``pools[i]`` reaches ``goal`` Successes within n Tests)."""

    target: int
    goal: int
    limit: int
    pools: tuple[int, ...]
    within: tuple[tuple[Fraction, ...], ...]
    labels: tuple[str, ...] = ()
    """How each pool is made (``"Agility + Avanus"``), when it came from a Hero's choices."""

    def to_json(self) -> dict[str, Any]:
        """``{"target", "goal", "limit", "rows": [{"pool", "label", "within": [[n, p, "n/d"], …]}]}``."""
        return {
            "target": self.target,
            "goal": self.goal,
            "limit": self.limit,
            "rows": [
                {
                    "pool": pool,
                    "label": label,
                    "within": [[n, *_pair(p)] for n, p in enumerate(row, start=1)],
                }
                for pool, label, row in zip(self.pools, self._labels(), self.within, strict=True)
            ],
        }

    def _labels(self) -> tuple[str, ...]:
        return self.labels or tuple(f"{pool}d10" for pool in self.pools)

    def _repr_html_(self) -> str:
        head = ["pool", *(f"≤ {n} Tests" for n in range(1, self.limit + 1))]
        rows = [
            [label, *(f"{float(p):.2%}" for p in row)]
            for label, row in zip(self._labels(), self.within, strict=True)
        ]
        return _html(head, rows)


def extended_table(
    rules: Rules,
    *,
    target: int,
    pools: Sequence[int],
    goal: int,
    limit: int,
    labels: Sequence[str] = (),
) -> ExtendedTable:
    """AS-ODDS-2 per pool: the running P(goal reached) after each of ``limit`` Tests, exactly."""
    if not pools:
        raise MalformedCommand("name at least one pool size", code="bad_field", path="pools")
    if goal < 1 or limit < 1 or any(p < 0 for p in pools):
        raise MalformedCommand(
            "goal and limit must be 1 or more and pools 0 or more", code="bad_field", path="goal"
        )
    rows = tuple(
        tuple(accumulate(extended_odds(p, target, goal, limit=limit, rules=rules).needed)) for p in pools
    )
    return ExtendedTable(target, goal, limit, tuple(pools), rows, tuple(labels))


def pool_choices(
    hero: Hero,
    rules: Rules,
    *,
    skill: str | None,
    conviction: str | None,
    difficulty: int | None,
    narration: Narration,
) -> tuple[int, list[int], list[str]]:
    """A Hero's Test: its Target and each distinct pool size it can build, labelled by the items of the
    best-ranked choice of that size (AS-ODDS-3), largest pool first."""
    seen: dict[int, str] = {}
    target = 0
    for choice in advise(
        hero,
        skill=skill,
        conviction=conviction,
        difficulty=difficulty,
        narration=narration,
        rules=rules,
        distinct=True,
    ):
        target = choice.target
        items = [x for x in (choice.trait, choice.background, choice.aid, *choice.invoke) if x]
        seen.setdefault(choice.pool, " + ".join(items) or "no items")
    sizes = sorted(seen, reverse=True)
    return target, sizes, [f"{seen[n]} ({n}d10)" for n in sizes]


@dataclass(frozen=True)
class OpposedTable:
    """``wins[tie][i][j]`` = P(the attacker with pool ``attacker_pools[i]`` beats ``defender_pools[j]``)."""

    attacker_target: int
    defender_target: int
    attacker_pools: tuple[int, ...]
    defender_pools: tuple[int, ...]
    ties: tuple[tuple[Fraction, ...], ...]
    """P(one roll ties), the same under both rules."""
    wins: dict[str, tuple[tuple[Fraction, ...], ...]]

    def to_json(self) -> dict[str, Any]:
        """Axes, P(tie) of one roll and P(attacker wins) under each tie rule, floats and exact strings."""
        return {
            "attacker_target": self.attacker_target,
            "defender_target": self.defender_target,
            "attacker_pools": list(self.attacker_pools),
            "defender_pools": list(self.defender_pools),
            "p_tie": [[float(p) for p in row] for row in self.ties],
            "p_tie_exact": [[exact(p) for p in row] for row in self.ties],
            "p_attacker_wins": {k: [[float(p) for p in row] for row in v] for k, v in self.wins.items()},
            "p_attacker_wins_exact": {
                k: [[exact(p) for p in row] for row in v] for k, v in self.wins.items()
            },
        }

    def _repr_html_(self) -> str:
        head = ["attacker \\ defender", *(f"{d}d10" for d in self.defender_pools)]
        rows = [
            [
                f"{a}d10",
                *(
                    f"{float(self.wins['defender'][i][j]):.1%} / {float(self.wins['reroll'][i][j]):.1%}"
                    for j in range(len(self.defender_pools))
                ),
            ]
            for i, a in enumerate(self.attacker_pools)
        ]
        return _html(head, rows) + "<p>P(attacker wins): tie to the defender / tie rolled again</p>"


def opposed_table(
    rules: Rules,
    *,
    attacker_target: int,
    defender_target: int,
    attacker_pools: Sequence[int],
    defender_pools: Sequence[int],
) -> OpposedTable:
    """AS-OPP-1 under both tie rules (the variant's ``reroll_limit`` kept), every pair of pools."""
    if not attacker_pools or not defender_pools or min(*attacker_pools, *defender_pools) < 0:
        raise MalformedCommand("name pool sizes of 0 or more for both sides", code="bad_field", path="pools")
    kept = rules.model_dump()
    wins: dict[str, tuple[tuple[Fraction, ...], ...]] = {}
    ties: tuple[tuple[Fraction, ...], ...] = ()
    for tie in TIE_RULES:
        varied = load_rules({**kept, "opposed": {**kept["opposed"], "tie": tie}})
        grid = [
            [opposed_odds((a, attacker_target), (d, defender_target), rules=varied) for d in defender_pools]
            for a in attacker_pools
        ]
        wins[tie] = tuple(tuple(o.attacker_wins for o in row) for row in grid)
        ties = tuple(tuple(o.tie for o in row) for row in grid)
    return OpposedTable(
        attacker_target, defender_target, tuple(attacker_pools), tuple(defender_pools), ties, wins
    )


@dataclass(frozen=True, slots=True)
class NarrationRow:
    """One Skill or Conviction: the best pool and P(success) at each narration level."""

    kind: str
    name: str
    target: int
    pools: tuple[int, ...]
    best: tuple[Fraction, ...]

    @property
    def gains(self) -> tuple[Fraction, Fraction]:
        """What narration adds over none, and what exceptional narration adds over narration."""
        return self.best[1] - self.best[0], self.best[2] - self.best[1]


@dataclass(frozen=True)
class NarrationTable:
    """The value of narration for one Hero at one Difficulty and required number of Successes."""

    hero: str
    difficulty: int
    required: int
    rows: tuple[NarrationRow, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"hero", "difficulty", "required", "rows": [{"kind", "name", "target", "none": {…}, …}]}``."""
        rows = []
        for r in self.rows:
            row: dict[str, Any] = {"kind": r.kind, "name": r.name, "target": r.target}
            for level, pool, p in zip(NARRATIONS, r.pools, r.best, strict=True):
                row[level] = {"pool": pool, "p_success": float(p), "p_success_exact": exact(p)}
            for key, gain in zip(("narration_gain", "exceptional_gain"), r.gains, strict=True):
                row[key], row[f"{key}_exact"] = _pair(gain)
            rows.append(row)
        return {"hero": self.hero, "difficulty": self.difficulty, "required": self.required, "rows": rows}

    def _repr_html_(self) -> str:
        head = ["Test", "Target", "none", "narrated", "exceptional", "+ narration", "+ exceptional"]
        rows = [
            [
                f"{r.name} ({r.kind})",
                str(r.target),
                *(f"{float(p):.2%} ({n}d10)" for p, n in zip(r.best, r.pools, strict=True)),
                *(f"{float(g):+.2%}" for g in r.gains),
            ]
            for r in self.rows
        ]
        return _html(head, rows)


def narration_value(
    hero: Hero, rules: Rules | None = None, *, difficulty: int | None = None, required: int | None = None
) -> NarrationTable:
    """AS-POOL-2/3 as a table: every Skill and Conviction of ``hero``, best pool at each narration level."""
    rules = rules or load_rules()
    level = rules.difficulty.default if difficulty is None else difficulty
    needed = rules.required.default if required is None else required
    rows = []
    for kind, ratings in (("skill", hero.skills), ("conviction", hero.convictions)):
        for name in ratings:
            best = [
                advise(
                    hero,
                    **{kind: name},
                    difficulty=level,
                    required=needed,
                    narration=n,
                    rules=rules,
                    distinct=True,
                )[0]
                for n in NARRATIONS
            ]
            rows.append(
                NarrationRow(
                    kind, name, best[0].target, tuple(c.pool for c in best), tuple(c.p_success for c in best)
                )
            )
    if not rows:
        raise MalformedCommand(
            f"{hero.name} has no Skill or Conviction to Test", code="bad_field", path="hero"
        )
    return NarrationTable(hero.name, level, needed, tuple(rows))
