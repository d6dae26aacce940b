"""Ascend rules variants side by side: P(success) per Target × pool × required Successes, exactly.

Every variant is the shipped rules with a campaign's overrides laid over them (:func:`load_rules`); each
cell is the odds engine's own exact binomial (:func:`talespin.systems.ascend.successes`), kept as a
fraction and as a float. An Ascend Test has no automatic pass to weigh against rolling, so where the
Inciting Incident grid shows the player's auto-or-roll choice, this one shows the decision a player makes
when building a pool: the fewest dice that give at least even odds (``dice_for_even_odds``, −1 where no
pool on the grid does), and counts the cells where a variant changes it.

>>> cmp = compare_ascend({"shipped": {}, "d12": {"die": {"size": 12}}}, max_pool=4, max_required=2)
>>> float(cmp.p_success["shipped"][2, 1, 0])   # Target 2, 1 die, 1 Success required
0.3
>>> bool((cmp.difference("d12") <= 0).all())   # a bigger die makes every Target harder
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

import numpy as np
import numpy.typing as npt

from ..systems.ascend import SYSTEM, load_rules, successes
from ..systems.ascend.chances import exact
from ..systems.errors import MalformedCommand

__all__ = ["AscendComparison", "compare_ascend"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

_EVEN = Fraction(1, 2)


@dataclass(frozen=True)
class AscendComparison:
    """Per variant, in the order given: ``p_success[name][target, pool, required − 1]``."""

    names: tuple[str, ...]
    targets: tuple[int, ...]
    pools: tuple[int, ...]
    required: tuple[int, ...]
    exact: dict[str, tuple[tuple[tuple[Fraction, ...], ...], ...]]
    p_success: dict[str, FloatArray]
    dice_for_even_odds: dict[str, IntArray]
    """``[target, required − 1]``: the smallest pool with P(success) ≥ 1/2, or −1 if none on the grid."""

    def difference(self, name: str) -> FloatArray:
        """``name``'s P(success) minus the first variant's, cell by cell."""
        return self.p_success[name] - self.p_success[self.names[0]]

    def changed_choices(self, name: str) -> int:
        """How many (Target, required) pairs where ``name`` changes the dice needed for even odds."""
        return int((self.dice_for_even_odds[name] != self.dice_for_even_odds[self.names[0]]).sum())

    def to_json(self) -> dict[str, Any]:
        """Axes, then per variant the grid (floats and exact strings) and the dice for even odds."""
        return {
            "system": SYSTEM.name,
            "targets": list(self.targets),
            "pools": list(self.pools),
            "required": list(self.required),
            "variants": [
                {
                    "name": n,
                    "p_success": self.p_success[n].tolist(),
                    "p_success_exact": [
                        [[exact(p) for p in row] for row in plane] for plane in self.exact[n]
                    ],
                    "dice_for_even_odds": self.dice_for_even_odds[n].tolist(),
                    "changed_choices": self.changed_choices(n),
                }
                for n in self.names
            ],
        }

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{escape(n)}</td><td>{float(self.p_success[n].mean()):.4f}</td>"
            f"<td>{float(abs(self.difference(n)).max()):.4f}</td><td>{self.changed_choices(n)}</td></tr>"
            for n in self.names
        )
        columns = ("variant", "mean P(success)", "largest |ΔP|", "even-odds pools changed")
        head = "<tr>" + "".join(f"<th>{c}</th>" for c in columns) + "</tr>"
        return f"<table>{head}{rows}</table>"


def compare_ascend(
    variants: Mapping[str, Any], *, max_pool: int = 15, max_required: int = 5
) -> AscendComparison:
    """Every variant on the same grid: Targets 0 to the largest rating of any variant (AS-TEST-2 with no
    Difficulty), pools 0..``max_pool`` dice, 1..``max_required`` Successes required. The first variant
    named is the baseline of differences."""
    if not variants:
        raise MalformedCommand("name at least one variant to compare", code="bad_variant", path="variants")
    if not 0 <= max_pool <= 60 or not 1 <= max_required <= 20:
        raise MalformedCommand(
            f"the grid takes 0..60 dice and 1..20 Successes required, got {max_pool} and {max_required}",
            code="bad_grid",
        )
    loaded = {name: load_rules(overrides or None) for name, overrides in variants.items()}
    targets = tuple(range(max(r.ratings.max for r in loaded.values()) + 1))
    pools = tuple(range(max_pool + 1))
    needed = tuple(range(1, max_required + 1))
    exact_grids, floats, even = {}, {}, {}
    for name, rules in loaded.items():
        grid = tuple(
            tuple(tuple(successes(n, t, rules=rules).p_at_least(k) for k in needed) for n in pools)
            for t in targets
        )
        exact_grids[name] = grid
        floats[name] = np.array(grid, dtype=np.float64)
        even[name] = np.array(
            [
                [next((n for n in pools if grid[t][n][k] >= _EVEN), -1) for k in range(len(needed))]
                for t in targets
            ],
            dtype=np.int64,
        )
    return AscendComparison(tuple(variants), targets, pools, needed, exact_grids, floats, even)
