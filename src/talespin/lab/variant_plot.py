"""The picture of a variant comparison: per variant, the difference of expected Crisis from the baseline at
net Advantage 0 (level × base d6), with an ``R`` where a player would roll rather than pass automatically."""

from __future__ import annotations

from pathlib import Path

from ..extras import require
from .variants import VariantComparison

__all__ = ["plot_comparison"]


def plot_comparison(cmp: VariantComparison, path: str | Path) -> Path:
    """Draw one difference heatmap per variant after the first; the suffix picks PNG or SVG."""
    matplotlib = require("matplotlib")  # loaded only when a plot is drawn (slow import; the [plot] extra)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 -- after choosing the Agg backend

    out = Path(path)
    others = cmp.names[1:] or cmp.names
    zero = cmp.nets.index(0)
    fig, axes = plt.subplots(1, len(others), figsize=(7 * len(others), 6), squeeze=False)
    for ax, name in zip(axes[0], others, strict=True):
        diff = cmp.difference(name, "expected_crisis")[:, :, zero]
        bound = max(float(abs(diff).max()), 1e-9)
        image = ax.imshow(diff, cmap="coolwarm", vmin=-bound, vmax=bound, origin="lower", aspect="auto")
        rolls = cmp.rolls[name][:, :, zero]
        for y in range(rolls.shape[0]):
            for x in range(rolls.shape[1]):
                ax.text(x, y, "R" if rolls[y, x] else "A", ha="center", va="center", fontsize=7)
        ax.set_xticks(range(len(cmp.bases)), [str(b) for b in cmp.bases])
        ax.set_yticks(range(len(cmp.levels)), [str(v) for v in cmp.levels])
        ax.set_xlabel("base d6 count")
        ax.set_ylabel("Talent level")
        ax.set_title(f"{name} − {cmp.names[0]}: E[Crisis] of the roll (R roll, A auto)")
        fig.colorbar(image, ax=ax, label="Δ expected Crisis")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
