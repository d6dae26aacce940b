"""The Inciting Incident odds grid: P(success) for every level × base d6 count, and its heatmap.

>>> grid = odds_grid(20)
>>> grid.p_success[5][4]          # level 5 (2d6), base 5d6
Fraction(...)
>>> round(float(grid.p_success[5][4]), 4)
0.9034
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..systems.inciting_incident import Rules, default_rules, roll_chances

__all__ = ["OddsGrid", "odds_grid", "plot_grid"]


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
        tuple(roll_chances(d, rules.levels.dice[level], target, rules).p_success for d in dice) for level in levels
    )
    return OddsGrid(target, levels, dice, rows)


def plot_grid(grid: OddsGrid, path: str | Path) -> Path:
    """Draw the grid as a heatmap with the percentages in the cells; the suffix picks PNG or SVG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
            ax.text(x, y, f"{p:.0%}", ha="center", va="center", color="white" if p < 0.6 else "black", fontsize=8)
    fig.colorbar(image, ax=ax, label="P(success)")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
