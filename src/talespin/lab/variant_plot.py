"""The picture of a variant comparison: per variant, the difference of expected Crisis from the baseline at
net Advantage 0 (level × base d6), with an ``R`` where a player would roll rather than pass automatically."""

from __future__ import annotations

from pathlib import Path

from .heatmap import Panel, draw_panels
from .variants import VariantComparison

__all__ = ["plot_comparison"]


def plot_comparison(cmp: VariantComparison, path: str | Path) -> Path:
    """Draw one difference heatmap per variant after the first; the suffix picks PNG or SVG."""
    zero = cmp.nets.index(0)
    panels = []
    for name in cmp.names[1:] or cmp.names:
        rolls = cmp.rolls[name][:, :, zero]
        marks = {
            (x, y): "R" if rolls[y, x] else "A" for y in range(rolls.shape[0]) for x in range(rolls.shape[1])
        }
        panels.append(
            Panel(
                cmp.difference(name, "expected_crisis")[:, :, zero],
                marks,
                cmp.bases,
                cmp.levels,
                "base d6 count",
                "Talent level",
                f"{name} − {cmp.names[0]}: E[Crisis] of the roll (R roll, A auto)",
                "Δ expected Crisis",
                fontsize=7,
            )
        )
    return draw_panels(panels, path, (7, 6))
