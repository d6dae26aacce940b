"""The pictures of the Ascend balance report (:mod:`.ascend_report`), one per section; PNG or SVG by suffix.

:func:`draw_report` draws them all into a folder and answers the ``images`` mapping that
:meth:`~talespin.lab.ascend_report.AscendReport.markdown` takes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .ascend_plot import plot_ascend_comparison
from .ascend_report import AscendReport
from .ascend_tests import NARRATIONS
from .report_plot import pyplot

__all__ = [
    "IMAGES",
    "draw_report",
    "plot_extended",
    "plot_grid",
    "plot_narration",
    "plot_opposed",
    "plot_points",
]

IMAGES = {
    "cost": "ascend-cost",
    "grid": "ascend-grid",
    "narration": "ascend-narration",
    "extended": "ascend-extended",
    "opposed": "ascend-opposed",
}
"""Each section's picture and its file name (without the suffix); ``variants`` is added with a variant."""


def _save(plt: Any, fig: Any, ax: Any, title: str, path: str | Path) -> Path:
    out = Path(path)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out


def plot_points(report: AscendReport, path: str | Path) -> Path:
    """P(success) against the rating points in the pool (one die each), one line per Target."""
    plt: Any = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for t in report.targets[:-1]:
        style = "-" if t in report.cost_targets else ":"
        ax.plot(report.pools, [float(p) for p in report.p_grid[t]], style, marker=".", label=f"Target {t}")
    ax.set_xlabel("rating points of Trait + Background + Aid (dice in the pool)")
    ax.set_ylabel(f"P({report.required}+ Successes)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, ncol=3)
    return _save(plt, fig, ax, "What a rating point buys", path)


def plot_grid(report: AscendReport, path: str | Path) -> Path:
    """P(success) per Target × pool as a heatmap, every cell written in."""
    plt: Any = pyplot()
    fig, ax = plt.subplots(figsize=(8, 5))
    grid = [[float(p) for p in row] for row in report.p_grid]
    image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=1, origin="lower", aspect="auto")
    for t, row in enumerate(grid):
        for n, p in enumerate(row):
            ax.text(n, t, f"{p:.0%}", ha="center", va="center", fontsize=6, color="w" if p < 0.6 else "k")
    ax.set_xticks(range(len(report.pools)), [str(n) for n in report.pools])
    ax.set_yticks(range(len(report.targets)), [str(t) for t in report.targets])
    ax.set_xlabel("pool (d10s)")
    ax.set_ylabel("Target")
    fig.colorbar(image, ax=ax, label=f"P({report.required}+ Successes)")
    return _save(plt, fig, ax, "P(success) per Target × pool", path)


def plot_narration(report: AscendReport, path: str | Path) -> Path:
    """Best P(success) of each of the Hero's Tests, one bar per narration level."""
    plt: Any = pyplot()
    rows = report.narration.rows
    fig, ax = plt.subplots(figsize=(7, 4.5))
    width = 0.8 / len(NARRATIONS)
    for k, level in enumerate(NARRATIONS):
        xs = [i + (k - 1) * width for i in range(len(rows))]
        ax.bar(xs, [float(r.best[k]) for r in rows], width, label=level)
    ax.set_xticks(range(len(rows)), [r.name for r in rows], rotation=15, fontsize=8)
    ax.set_ylabel("best P(success)")
    ax.set_ylim(0, 1)
    ax.legend(title="narration")
    return _save(plt, fig, ax, f"{report.narration.hero}: the value of narration", path)


def plot_extended(report: AscendReport, path: str | Path) -> Path:
    """P(reaching the goal within n Tests), one line per pool."""
    plt: Any = pyplot()
    ext = report.extended
    fig, ax = plt.subplots(figsize=(7, 4.5))
    tests = range(1, ext.limit + 1)
    for pool, row in zip(ext.pools, ext.within, strict=True):
        ax.plot(tests, [float(p) for p in row], marker="o", label=f"{pool}d10")
    ax.set_xlabel("Tests rolled")
    ax.set_ylabel(f"P({ext.goal} Successes reached)")
    ax.set_ylim(0, 1)
    ax.legend()
    return _save(plt, fig, ax, f"Extended Test: {ext.goal} Successes at Target {ext.target}", path)


def plot_opposed(report: AscendReport, path: str | Path) -> Path:
    """P(the attacker wins) against the attacker's pool, one colour per defender pool: solid with ties to
    the defender, dashed with ties rolled again."""
    plt: Any = pyplot()
    opp = report.opposed
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for j, d in enumerate(opp.defender_pools):
        for tie, style in (("defender", "-"), ("reroll", "--")):
            line = [float(opp.wins[tie][i][j]) for i in range(len(opp.attacker_pools))]
            label = f"vs {d}d10, tie: {tie}"
            ax.plot(opp.attacker_pools, line, style, color=f"C{j}", marker="o", label=label)
    ax.set_xlabel("attacker's pool (d10s)")
    ax.set_ylabel("P(the attacker wins)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, ncol=2)
    title = f"Opposed Test, Target {opp.attacker_target} vs {opp.defender_target}"
    return _save(plt, fig, ax, title, path)


def draw_report(report: AscendReport, folder: str | Path, suffix: str = ".png") -> dict[str, str]:
    """Draw every picture into ``folder``; the ``images`` mapping of their file names."""
    out = Path(folder)
    drawers = {
        "cost": plot_points,
        "grid": plot_grid,
        "narration": plot_narration,
        "extended": plot_extended,
        "opposed": plot_opposed,
    }
    images = {}
    for key, draw in drawers.items():
        images[key] = IMAGES[key] + suffix
        draw(report, out / images[key])
    if report.choices:
        images["variants"] = "ascend-variants" + suffix
        plot_ascend_comparison(report.comparison, out / images["variants"], report.required)
    return images
