"""Rule systems, found by name or alias through a registry.

>>> get_system("ii").name
'inciting-incident'
"""

from __future__ import annotations

from .errors import IllegalCommand, MalformedCommand, RulesError
from .protocol import AnySystem, Command, Event, Role, RulesData, RuleSystem, SystemState, Visibility
from .registry import Registered, canonical_name, entries, get_system, registered, system_names

__all__ = [
    "AnySystem",
    "Command",
    "Event",
    "IllegalCommand",
    "MalformedCommand",
    "Registered",
    "Role",
    "RuleSystem",
    "RulesData",
    "RulesError",
    "SystemState",
    "Visibility",
    "canonical_name",
    "entries",
    "get_system",
    "registered",
    "system_names",
]
