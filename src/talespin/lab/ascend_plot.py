"""The picture of an Ascend variant comparison: per variant, the difference of P(success) from the baseline
(Target × pool, at one number of Successes required), with the baseline's and the variant's even-odds pool
marked on every Target's row (``B`` and ``V``, ``*`` where they agree)."""

from __future__ import annotations

from pathlib import Path

from .ascend_variants import AscendComparison
from .heatmap import Panel, draw_panels

__all__ = ["plot_ascend_comparison"]


def _marks(base_even: list[int], even: list[int]) -> dict[tuple[int, int], str]:
    marks: dict[tuple[int, int], str] = {}
    for y, (b, v) in enumerate(zip(base_even, even, strict=True)):
        row = {b: "B", v: "V"} if b != v else {b: "*"}
        marks.update({(x, y): text for x, text in row.items() if x >= 0})
    return marks


def plot_ascend_comparison(cmp: AscendComparison, path: str | Path, required: int = 1) -> Path:
    """Draw one difference heatmap per variant after the first; the suffix picks PNG or SVG."""
    k = cmp.required.index(required)
    base_even = [int(b) for b in cmp.dice_for_even_odds[cmp.names[0]][:, k]]
    panels = [
        Panel(
            cmp.difference(name)[:, :, k],
            _marks(base_even, [int(v) for v in cmp.dice_for_even_odds[name][:, k]]),
            cmp.pools,
            cmp.targets,
            "pool (d10s)",
            "Target",
            f"{name} − {cmp.names[0]}: P({required}+ Successes); B/V: fewest dice for even odds",
            "Δ P(success)",
        )
        for name in cmp.names[1:] or cmp.names
    ]
    return draw_panels(panels, path, (8, 5))
