"""The picture of a scene analysis: the distribution of the Crisis a scene ends with, one bar per level,
the Triggers' values marked, one panel row per policy."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..extras import require
from .scene_result import SceneAnalysis

__all__ = ["plot_scene"]


def plot_scene(analyses: Sequence[SceneAnalysis], path: str | Path, title: str = "") -> Path:
    """Draw each analysis's Crisis distribution (the last bar is "at or above the cap"); PNG or SVG."""
    matplotlib = require("matplotlib")  # loaded only when a plot is drawn (slow import; the [plot] extra)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 -- after choosing the Agg backend

    out = Path(path)
    fig, axes = plt.subplots(len(analyses), 1, figsize=(9, 2.6 * len(analyses)), squeeze=False, sharex=True)
    for ax, analysis in zip(axes[:, 0], analyses, strict=True):
        levels = range(analysis.cap + 1)
        ax.bar(levels, analysis.crisis, color="#4c72b0")
        for odds in analysis.triggers:
            at, every = odds.trigger.at, odds.trigger.every
            values = range(at, analysis.cap + 1, every) if every else [at]
            for value in values:
                ax.axvline(value - 0.5, color="#c44e52", linestyle="--", linewidth=1)
        ax.set_ylabel("P")
        ax.set_title(
            f"{analysis.policy}: E[Crisis] {analysis.expected_crisis:.1f}, "
            f"P(≥ {analysis.cap}) {analysis.crisis[analysis.cap]:.2f}",
            fontsize=10,
        )
    axes[-1, 0].set_xlabel("Crisis at the end of the scene (last bar: at or above the cap; dashed: Triggers)")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
