"""The registry of rule systems: one entry per system, found by its name or any alias."""

from __future__ import annotations

from importlib import import_module

from .errors import MalformedCommand
from .protocol import RuleSystem

__all__ = ["get_system", "system_names"]

# name → (module holding ``SYSTEM``, aliases). Modules load on first use.
_SYSTEMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "inciting-incident": ("talespin.systems.inciting_incident", ("ii", "inciting_incident")),
    "ascend": ("talespin.systems.ascend", ("cn-ascend",)),
}


def system_names() -> list[str]:
    """Every canonical system name."""
    return sorted(_SYSTEMS)


def _canonical(name: str) -> str:
    key = name.strip().lower()
    for canonical, (_, aliases) in _SYSTEMS.items():
        if key == canonical or key in aliases:
            return canonical
    known = ", ".join(f"{n} ({', '.join(a)})" for n, (_, a) in sorted(_SYSTEMS.items()))
    raise MalformedCommand(f"unknown system {name!r}; expected one of: {known}", code="unknown_system")


def get_system(name: str) -> RuleSystem:
    """The system called ``name`` (or one of its aliases); unknown names raise MalformedCommand."""
    module = import_module(_SYSTEMS[_canonical(name)][0])
    system: RuleSystem = module.SYSTEM
    return system
