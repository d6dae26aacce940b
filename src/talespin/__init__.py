"""talespin: rules engines, exact odds and a live game table for Inciting Incident and Ascend.

The package is layered (imports flow one way):

``dice`` → ``systems`` → ``table`` → adapters (``cli``, ``web``, ``store``, ``lab``).

Each layer is an attribute of the package, loaded the first time it is used, so ``import talespin`` stays
quick and a notebook can write ``talespin.dice.odds("3d6")`` after ``import talespin`` without importing
the web server.
"""

from __future__ import annotations

import importlib
from types import ModuleType

TYPE_CHECKING = False  # as typing.TYPE_CHECKING (type checkers take it as true), without importing typing

__version__ = "0.1.0"

#: The subpackages reachable as attributes of :mod:`talespin`.
SUBPACKAGES = ("dice", "systems", "table", "cli", "web", "store", "lab")

__all__ = ["SUBPACKAGES", "__version__", "cli", "dice", "lab", "store", "systems", "table", "web"]

if TYPE_CHECKING:
    from . import cli, dice, lab, store, systems, table, web


def __getattr__(name: str) -> ModuleType:
    """Import a subpackage the first time it is asked for (``talespin.dice``)."""
    if name in SUBPACKAGES:
        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'talespin' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, the lazily loaded subpackages included."""
    return sorted(__all__)
