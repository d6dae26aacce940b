"""Rule systems, found by name or alias through a registry.

>>> get_system("ii").name
'inciting-incident'
"""

from __future__ import annotations

from .errors import IllegalCommand, MalformedCommand, RulesError
from .protocol import Command, Event, Role, RuleSystem, Visibility
from .registry import get_system, system_names

__all__ = [
    "Command",
    "Event",
    "IllegalCommand",
    "MalformedCommand",
    "Role",
    "RuleSystem",
    "RulesError",
    "Visibility",
    "get_system",
    "system_names",
]
