"""Rules variants side by side on the Inciting Incident grid: P(success), expected Crisis and the choice.

Every variant is the shipped rules with a campaign's overrides laid over them (:func:`load_rules`); each is
computed on the same grid (Talent level × base d6 × net Advantage) by the odds engine's own float path
(:func:`talespin.lab.ii_table.fast_grid`). The choice of a cell is the one a player who minimises expected
Crisis makes on a Simple Obstacle: roll when the roll's expected Crisis is below the automatic pass's.

>>> cmp = compare({"shipped": {}, "auto 5": {"crisis": {"auto": 5}}}, max_base=9, max_net=2)
>>> bool((cmp.rolls["auto 5"] >= cmp.rolls["shipped"]).all())
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

import numpy as np
import numpy.typing as npt

from ..systems.errors import MalformedCommand
from ..systems.inciting_incident.rules import load_rules
from .ii_table import fast_grid

__all__ = ["VariantComparison", "compare"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class VariantComparison:
    """Per variant, in the order given: ``p_success``, ``expected_crisis`` (level × base × net), ``rolls``."""

    names: tuple[str, ...]
    levels: tuple[int, ...]
    bases: tuple[int, ...]
    nets: tuple[int, ...]
    p_success: dict[str, FloatArray]
    expected_crisis: dict[str, FloatArray]
    rolls: dict[str, npt.NDArray[np.bool_]]
    """True where rolling beats the automatic pass on expected Crisis."""

    def difference(self, name: str, figure: str = "p_success") -> FloatArray:
        """``name``'s figure minus the first variant's, cell by cell."""
        table = self.p_success if figure == "p_success" else self.expected_crisis
        return table[name] - table[self.names[0]]

    def changed_choices(self, name: str) -> int:
        """How many cells where ``name`` changes the player's choice against the first variant."""
        return int((self.rolls[name] != self.rolls[self.names[0]]).sum())

    def to_json(self) -> dict[str, Any]:
        """Axes, then per variant the grids (nested lists) and the number of changed choices."""
        return {
            "levels": list(self.levels),
            "bases": list(self.bases),
            "nets": list(self.nets),
            "variants": [
                {
                    "name": n,
                    "p_success": self.p_success[n].tolist(),
                    "expected_crisis": self.expected_crisis[n].tolist(),
                    "rolls": self.rolls[n].tolist(),
                    "changed_choices": self.changed_choices(n),
                }
                for n in self.names
            ],
        }

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{escape(n)}</td><td>{float(self.p_success[n].mean()):.4f}</td>"
            f"<td>{float(self.expected_crisis[n].mean()):.3f}</td><td>{int(self.rolls[n].sum())}</td>"
            f"<td>{self.changed_choices(n)}</td></tr>"
            for n in self.names
        )
        columns = ("variant", "mean P", "mean E[Crisis]", "roll cells", "changed")
        head = "<tr>" + "".join(f"<th>{c}</th>" for c in columns) + "</tr>"
        return f"<table>{head}{rows}</table>"


def compare(variants: Mapping[str, Any], *, max_base: int = 9, max_net: int = 10) -> VariantComparison:
    """Every variant on the same grid; the first named is the baseline of differences."""
    if not variants:
        raise MalformedCommand("name at least one variant to compare", code="bad_variant", path="variants")
    p, c, rolls = {}, {}, {}
    levels: tuple[int, ...] = ()
    for name, overrides in variants.items():
        rules = load_rules(overrides or None)
        p[name], c[name] = fast_grid(max_base=max_base, max_net=max_net, rules=rules)
        rolls[name] = c[name] < rules.crisis.auto
        span = tuple(range(rules.levels.min, rules.levels.max + 1))
        if levels and span != levels:
            raise MalformedCommand(
                f"variant {name!r} has other levels than the first; grids could not be compared",
                code="bad_variant",
                path=f"variants.{name}.levels",
            )
        levels = span
    return VariantComparison(
        tuple(variants),
        levels,
        tuple(range(1, max_base + 1)),
        tuple(range(-max_net, max_net + 1)),
        p,
        c,
        rolls,
    )
