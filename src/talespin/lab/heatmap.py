"""Difference heatmaps, one panel per variant, for both systems' variant comparisons.

A :class:`Panel` is what one variant's picture says: the difference from the baseline over a grid, a
letter per marked cell, the axes' ticks and labels; :func:`draw_panels` lays the panels side by side on a
colour scale centred on zero and writes PNG or SVG (chosen by the path's suffix).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..extras import require

__all__ = ["Panel", "draw_panels"]


@dataclass(frozen=True)
class Panel:
    """One variant's heatmap: ``diff[y, x]`` against the baseline, ``marks[(x, y)]`` written on cells."""

    diff: npt.NDArray[np.float64]
    marks: Mapping[tuple[int, int], str]
    xticks: Sequence[int]
    yticks: Sequence[int]
    xlabel: str
    ylabel: str
    title: str
    scale: str
    fontsize: int = 8


def draw_panels(panels: Sequence[Panel], path: str | Path, size: tuple[float, float]) -> Path:
    """Draw ``panels`` side by side, each ``size`` inches (width, height), and save them to ``path``."""
    matplotlib = require("matplotlib")  # loaded only when a plot is drawn (slow import; the [plot] extra)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 -- after choosing the Agg backend

    out = Path(path)
    fig, axes = plt.subplots(1, len(panels), figsize=(size[0] * len(panels), size[1]), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        bound = max(float(abs(panel.diff).max()), 1e-9)
        image = ax.imshow(panel.diff, cmap="coolwarm", vmin=-bound, vmax=bound, origin="lower", aspect="auto")
        for (x, y), text in panel.marks.items():
            ax.text(x, y, text, ha="center", va="center", fontsize=panel.fontsize)
        ax.set_xticks(range(len(panel.xticks)), [str(t) for t in panel.xticks])
        ax.set_yticks(range(len(panel.yticks)), [str(t) for t in panel.yticks])
        ax.set_xlabel(panel.xlabel)
        ax.set_ylabel(panel.ylabel)
        ax.set_title(panel.title)
        fig.colorbar(image, ax=ax, label=panel.scale)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
