"""The registry of rule systems: the one owner of every system's name, aliases and label.

Nothing else in talespin spells a system's name: a system package asks for its own entry
(:func:`registered`), the table, the CLI and the page ask the registry (``/api/systems`` serves it), and a
test greps the sources for a name outside this module. A name is canonical (``"inciting-incident"``); an
alias finds the same system (``"ii"``); ``short`` is the word the CLI gives the system's commands.

>>> get_system("II").name
'inciting-incident'
>>> [entry.short for entry in entries()]
['ascend', 'ii']
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from .errors import MalformedCommand
from .protocol import AnySystem

__all__ = ["Registered", "canonical_name", "entries", "get_system", "registered", "system_names"]


@dataclass(frozen=True, slots=True)
class Registered:
    """One system: its canonical name, the module holding ``SYSTEM``, other names, label and summary."""

    name: str
    module: str
    aliases: tuple[str, ...]
    label: str
    summary: str
    """What its CLI commands do, after the label (the first paragraph of their help)."""
    sheet: str
    """What one of its sheets is: a ``hero`` (Tested by a Dice Pool) or a ``character`` (Talent rolls). The
    pages lay out their editors and Test builders by it, never by the system's name."""

    @property
    def short(self) -> str:
        """The shortest of its names: the CLI's command word (``ii``, ``ascend``)."""
        return min((self.name, *self.aliases), key=len)

    def to_json(self) -> dict[str, Any]:
        """``{"name", "aliases", "label", "sheet"}``, as ``/api/systems`` lists it."""
        return {"name": self.name, "aliases": list(self.aliases), "label": self.label, "sheet": self.sheet}


_SYSTEMS: tuple[Registered, ...] = (
    Registered(
        "ascend",
        "talespin.systems.ascend",
        ("cn-ascend",),
        "Ascend",
        "odds, Tests, hero sheets, invoke advice and scene scripts.",
        "hero",
    ),
    Registered(
        "inciting-incident",
        "talespin.systems.inciting_incident",
        ("ii", "inciting_incident"),
        "Inciting Incident",
        "odds, rolls, sheets and scene scripts.",
        "character",
    ),
)
"""Every system, sorted by canonical name. Modules load on first use."""


def entries() -> tuple[Registered, ...]:
    """Every registered system, sorted by canonical name."""
    return _SYSTEMS


def system_names() -> list[str]:
    """Every canonical system name."""
    return [entry.name for entry in _SYSTEMS]


def _entry(name: str) -> Registered:
    key = name.strip().lower() if isinstance(name, str) else name
    for entry in _SYSTEMS:
        if key == entry.name or key in entry.aliases:
            return entry
    known = ", ".join(f"{e.name} ({', '.join(e.aliases)})" for e in _SYSTEMS)
    raise MalformedCommand(f"unknown system {name!r}; expected one of: {known}", code="unknown_system")


def canonical_name(name: str) -> str:
    """The canonical name of the system ``name`` (or an alias); unknown names raise MalformedCommand."""
    return _entry(name).name


def registered(module: str) -> Registered:
    """The entry of the system package ``module`` (or one of its modules): how a system learns its name."""
    for entry in _SYSTEMS:
        if module == entry.module or module.startswith(f"{entry.module}."):
            return entry
    raise LookupError(f"{module!r} is not a registered system package")


def get_system(name: str) -> AnySystem:
    """The system called ``name`` (or one of its aliases); unknown names raise MalformedCommand.

    The answer is typed :data:`~.protocol.AnySystem`, the protocol over any system's state: the table
    only ever hands a system the state that same system made, so its methods meet their own state type.
    """
    found = _LOADED.get(name) if isinstance(name, str) else None
    if found is None:
        entry = _entry(name)
        found = import_module(entry.module).SYSTEM
        if name == entry.name or name in entry.aliases:  # only the names as registered: a finite set
            _LOADED[name] = found
    return found


_LOADED: dict[str, AnySystem] = {}
"""Each name (or alias) already asked for, and its system: the ledger asks once per event it folds, and an
import, even of a module loaded long ago, is a walk through ``importlib`` each time."""
