"""The pictures of the balance report: what points buy, and a scene's Crisis by difficulty."""

from __future__ import annotations

from pathlib import Path

from ..extras import require
from .report import BalanceReport

__all__ = ["plot_costs", "plot_scene_crisis", "pyplot"]


def pyplot() -> object:
    """``matplotlib.pyplot`` on the Agg backend (files only, no window), or :class:`MissingExtra`."""
    matplotlib = require("matplotlib")  # loaded only when a plot is drawn (slow import; the [plot] extra)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 -- after choosing the Agg backend

    return plt


def plot_costs(report: BalanceReport, path: str | Path, difficulties: tuple[int, ...] = (3, 5, 7)) -> Path:
    """P(success) against a Talent level's point cost, one line per base d6 count; PNG or SVG."""
    plt = pyplot()
    out = Path(path)
    fig, ax = plt.subplots(figsize=(7, 4.5))  # type: ignore[attr-defined]
    for d in difficulties:
        ps = [row[d - 1] for row in report.p_grid]
        ax.plot(report.costs, ps, marker="o", label=f"base {d}d6")
    for level, cost, row in zip(report.levels, report.costs, report.p_grid, strict=True):
        ax.annotate(
            str(level),
            (cost, row[report.difficulty - 1]),
            textcoords="offset points",
            xytext=(0, 6),
            fontsize=8,
        )
    ax.set_xlabel("point cost of the Talent level (numbers: the level)")
    ax.set_ylabel("P(success) against the standard target")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title("What a Talent level costs and what it buys")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)  # type: ignore[attr-defined]
    return out


def plot_scene_crisis(report: BalanceReport, path: str | Path) -> Path:
    """E[Crisis] of the reference scene at each difficulty, one line per policy; PNG or SVG."""
    plt = pyplot()
    out = Path(path)
    fig, ax = plt.subplots(figsize=(7, 4.5))  # type: ignore[attr-defined]
    for policy, row in report.scene_crisis.items():
        ax.plot(range(1, len(row) + 1), row, marker="o", label=policy)
    for t in report.scene.triggers:
        ax.axhline(t.at, color="#c44e52", linestyle="--", linewidth=1)
    ax.set_xlabel("scene difficulty (base d6 count)")
    ax.set_ylabel("E[Crisis] (dashed: Triggers)")
    ax.legend()
    ax.set_title("Crisis per scene by difficulty")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)  # type: ignore[attr-defined]
    return out
