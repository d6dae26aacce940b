"""The designer's lab: odds grids, plots and comparisons built on the rules engines.

The lab is an adapter: it may import plotting libraries (matplotlib); the rules engines never import it.
:mod:`.obstacle` solves a Complex Obstacle exactly (each legal action's value under optimal play), over
the parties of :mod:`.party`, whose rolls come from the rules engine itself.
"""

from __future__ import annotations

from .ii_table import OddsGrid, odds_grid, plot_grid
from .obstacle import Action, Solution, Spot, solve, utility
from .party import Member, parse_party
from .scene import analyse_scene
from .scene_spec import Scene, parse_scene

__all__ = [
    "Action",
    "Member",
    "OddsGrid",
    "Scene",
    "Solution",
    "Spot",
    "analyse_scene",
    "odds_grid",
    "parse_party",
    "parse_scene",
    "plot_grid",
    "solve",
    "utility",
]
