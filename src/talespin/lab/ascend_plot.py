"""The picture of an Ascend variant comparison: per variant, the difference of P(success) from the baseline
(Target × pool, at one number of Successes required), with the baseline's and the variant's even-odds pool
marked on every Target's row (``B`` and ``V``, ``*`` where they agree)."""

from __future__ import annotations

from pathlib import Path

from ..extras import require
from .ascend_variants import AscendComparison

__all__ = ["plot_ascend_comparison"]


def plot_ascend_comparison(cmp: AscendComparison, path: str | Path, required: int = 1) -> Path:
    """Draw one difference heatmap per variant after the first; the suffix picks PNG or SVG."""
    matplotlib = require("matplotlib")  # loaded only when a plot is drawn (slow import; the [plot] extra)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 -- after choosing the Agg backend

    out = Path(path)
    k = cmp.required.index(required)
    others = cmp.names[1:] or cmp.names
    fig, axes = plt.subplots(1, len(others), figsize=(8 * len(others), 5), squeeze=False)
    base_even = cmp.dice_for_even_odds[cmp.names[0]][:, k]
    for ax, name in zip(axes[0], others, strict=True):
        diff = cmp.difference(name)[:, :, k]
        bound = max(float(abs(diff).max()), 1e-9)
        image = ax.imshow(diff, cmap="coolwarm", vmin=-bound, vmax=bound, origin="lower", aspect="auto")
        even = cmp.dice_for_even_odds[name][:, k]
        for y, (b, v) in enumerate(zip(base_even, even, strict=True)):
            marks = {int(b): "B", int(v): "V"} if b != v else {int(b): "*"}
            for x, text in marks.items():
                if x >= 0:
                    ax.text(x, y, text, ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(cmp.pools)), [str(p) for p in cmp.pools])
        ax.set_yticks(range(len(cmp.targets)), [str(t) for t in cmp.targets])
        ax.set_xlabel("pool (d10s)")
        ax.set_ylabel("Target")
        ax.set_title(f"{name} − {cmp.names[0]}: P({required}+ Successes); B/V: fewest dice for even odds")
        fig.colorbar(image, ax=ax, label="Δ P(success)")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out
