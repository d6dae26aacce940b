"""Optional features and the extras that bring them: ``pip install 'talespin[postgres]'``, ``[plot]``.

The base install plays, computes odds and serves the table on SQLite. PostgreSQL needs psycopg and plots
need matplotlib; each is imported only when that feature is used, and a missing one is a
:class:`MissingExtra` naming the extra to install, never a bare ``ModuleNotFoundError``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["EXTRAS", "MissingExtra", "require"]

#: The extra that provides each optional module, and what it is for.
EXTRAS: dict[str, tuple[str, str]] = {
    "psycopg": ("postgres", "a PostgreSQL store"),
    "matplotlib": ("plot", "plots"),
}


class MissingExtra(ImportError):
    """An optional feature was used without its extra installed; the message says what to install."""

    def __init__(self, module: str) -> None:
        extra, purpose = EXTRAS[module]
        self.module = module
        self.extra = extra
        super().__init__(
            f"{purpose} needs the optional package {module!r}, which is not installed: "
            f"pip install 'talespin[{extra}]'"
        )


def require(module: str) -> ModuleType:
    """Import ``module`` (one of :data:`EXTRAS`) or raise :class:`MissingExtra` naming its extra."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is not None and error.name.split(".")[0] != module:
            raise
        raise MissingExtra(module) from None
