"""The Inciting Incident odds grid: P(success) for every level × base d6 count, and its heatmap.

>>> grid = odds_grid(20)
>>> grid.p_success[5][4]          # level 5 (2d6), base 5d6
Fraction(...)
>>> round(float(grid.p_success[5][4]), 4)
0.8962
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..dice.fast import exploding_die_array, pool_total_array, sum_arrays
from ..extras import require
from ..systems.inciting_incident import Rules, default_rules, final_d6, roll_chances
from ..text import percent

__all__ = ["OddsGrid", "fast_grid", "odds_grid", "plot_grid"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class OddsGrid:
    """Exact P(success) against ``against``: ``p_success[level][i]`` for base d6 ``dice[i]``."""

    against: int
    levels: tuple[int, ...]
    dice: tuple[int, ...]
    p_success: tuple[tuple[Fraction, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """``{"against", "levels", "dice", "p_success": [[float]], "p_success_exact": [["n/d"]]}``."""
        return {
            "against": self.against,
            "levels": list(self.levels),
            "dice": list(self.dice),
            "p_success": [[float(p) for p in row] for row in self.p_success],
            "p_success_exact": [[f"{p.numerator}/{p.denominator}" for p in row] for row in self.p_success],
        }


def odds_grid(against: int | None = None, rules: Rules | None = None) -> OddsGrid:
    """The grid over every level of the rules and every base d6 count of the difficulty range."""
    rules = rules or default_rules()
    target = rules.roll.target if against is None else against
    levels = tuple(range(rules.levels.min, rules.levels.max + 1))
    dice = tuple(range(rules.roll.difficulty.min, rules.roll.difficulty.max + 1))
    rows = tuple(
        tuple(roll_chances(d, rules.levels.dice[level], target, rules=rules).p_success for d in dice)
        for level in levels
    )
    return OddsGrid(target, levels, dice, rows)


def fast_grid(
    against: int | None = None, max_base: int = 13, max_net: int = 10, rules: Rules | None = None
) -> tuple[FloatArray, FloatArray]:
    """Float P(success) and expected Crisis for every level × base d6 1..max_base × net −max_net..max_net.

    Arrays are shaped ``(levels, max_base, 2·max_net + 1)``. Each distinct pool is computed once: the d6
    pools by repeated convolution, each level's dice once, then one convolution per (level, d6) pair.
    Expected Crisis follows II-SIMPLE-3 (success amount, else at least the failure minimum).
    """
    rules = rules or default_rules()
    target = rules.roll.target if against is None else against
    levels = range(rules.levels.min, rules.levels.max + 1)
    nets = range(-max_net, max_net + 1)
    finals = np.array(
        [[final_d6(b, max(n, 0), max(-n, 0), rules) for n in nets] for b in range(1, max_base + 1)],
        dtype=np.intp,
    )
    d6_pools = [pool_total_array([], target)]
    one = exploding_die_array(rules.roll.d6_size, target)
    for _ in range(int(finals.max())):
        d6_pools.append(sum_arrays(d6_pools[-1], one, target))
    totals = np.arange(target + 1)
    crisis_of = np.where(
        totals >= target, rules.crisis.success, np.maximum(rules.crisis.failure_minimum, target - totals)
    )
    p_table = np.empty((len(levels), len(d6_pools)))
    c_table = np.empty((len(levels), len(d6_pools)))
    for i, level in enumerate(levels):
        talent = pool_total_array(rules.levels.dice[level], target)
        for d6, pool in enumerate(d6_pools):
            dist = sum_arrays(pool, talent, target)
            p_table[i, d6] = dist[target]
            c_table[i, d6] = dist @ crisis_of
    return p_table[:, finals], c_table[:, finals]


def plot_grid(grid: OddsGrid, path: str | Path) -> Path:
    """Draw the grid as a heatmap with the percentages in the cells; the suffix picks PNG or SVG."""
    matplotlib = require("matplotlib")  # loaded only when a plot is drawn (slow import; the [plot] extra)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 -- after choosing the Agg backend

    out = Path(path)
    values = [[float(p) for p in row] for row in grid.p_success]
    fig, ax = plt.subplots(figsize=(8, 7))
    image = ax.imshow(values, cmap="viridis", vmin=0.0, vmax=1.0, origin="lower", aspect="auto")
    ax.set_xticks(range(len(grid.dice)), [str(d) for d in grid.dice])
    ax.set_yticks(range(len(grid.levels)), [str(level) for level in grid.levels])
    ax.set_xlabel("base d6 count (scene difficulty)")
    ax.set_ylabel("Talent level")
    ax.set_title(f"Inciting Incident: P(total ≥ {grid.against})")
    for y, row in enumerate(values):
        for x, p in enumerate(row):
            shade = "white" if p < 0.6 else "black"
            ax.text(x, y, percent(p, 0), ha="center", va="center", color=shade, fontsize=8)
    fig.colorbar(image, ax=ax, label="P(success)")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
