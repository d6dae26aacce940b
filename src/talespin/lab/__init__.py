"""The designer's lab: odds grids, plots and comparisons built on the rules engines.

The lab is an adapter: it may import plotting libraries (matplotlib); the rules engines never import it.
"""

from __future__ import annotations

from .ii_table import OddsGrid, odds_grid, plot_grid

__all__ = ["OddsGrid", "odds_grid", "plot_grid"]
