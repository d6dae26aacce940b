"""Reading commands: typed fields with clear errors, and the keys each command accepts.

A command is a mapping with ``do:`` (the same vocabulary in scene scripts and over HTTP). These helpers read
one field with its expected type and raise :class:`~talespin.systems.errors.MalformedCommand` naming the
field when it is missing or of the wrong kind; :func:`check_keys` refuses keys a command does not know.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...text import excerpt
from ..bounds import MAX_WHOLE_NUMBER
from ..errors import MalformedCommand
from ..protocol import Command

__all__ = [
    "MAX_WHOLE_NUMBER",
    "ROLL_KEYS",
    "base_dice",
    "check_keys",
    "opt_bool",
    "opt_int",
    "opt_str",
    "req_int",
    "req_str",
    "str_list",
    "visibility",
]

ROLL_KEYS = frozenset(
    {"character", "choice", "talent", "advantage", "disadvantage", "dice", "skills", "faces", "visibility"}
)
"""The options every roll command takes."""


def check_keys(command: Command, allowed: Iterable[str]) -> None:
    """Refuse a key the command does not know (a typo would otherwise be silently ignored)."""
    known = set(allowed) | {"do", "note"}
    for key in command:
        if key not in known:
            raise MalformedCommand(
                f"{command.get('do')}: unknown key {key!r}; expected one of: {', '.join(sorted(known))}",
                code="unknown_key",
                path=str(key),
            )


def _fail(command: Command, key: str, expected: str, value: Any) -> MalformedCommand:
    what = command.get("do") or "odds query"
    message = f"{what}: {key} must be {expected}, got {excerpt(value)}"
    return MalformedCommand(message, code="bad_field", path=key)


def req_int(command: Command, key: str, *, minimum: int | None = None, rule: str | None = None) -> int:
    """A required whole number (at least ``minimum`` when given)."""
    if key not in command:
        raise MalformedCommand(f"{command.get('do')}: {key} is required", code="missing_field", path=key)
    value = opt_int(command, key, 0, minimum=minimum, rule=rule)
    return value


def opt_int(
    command: Command, key: str, default: int, *, minimum: int | None = None, rule: str | None = None
) -> int:
    """An optional whole number, at most :data:`MAX_WHOLE_NUMBER` in size either way."""
    value = command.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(command, key, "a whole number", value)
    if abs(value) > MAX_WHOLE_NUMBER:
        raise _fail(command, key, f"a whole number between -{MAX_WHOLE_NUMBER} and {MAX_WHOLE_NUMBER}", value)
    if minimum is not None and value < minimum:
        error = _fail(command, key, f"at least {minimum}", value)
        error.rule = rule
        raise error
    return value


def base_dice(command: Command, key: str, default: int, span: Any, *, rule: str | None = None) -> int:
    """A base d6 count (II-ROLL-5): ``command[key]`` or ``default``, within the rules' ``span.min..max``.

    The same range holds wherever a base d6 count is set: a scene's difficulty, an obstacle's, one action's
    ``dice:``, an odds query's.
    """
    value = opt_int(command, key, default)
    if not span.min <= value <= span.max:
        what = command.get("do") or "odds query"
        raise MalformedCommand(
            f"{what}: {key} (the base d6 count) must lie between {span.min} and {span.max}, got {value}",
            code="bad_field",
            rule=rule,
            path=key,
        )
    return value


def opt_bool(command: Command, key: str, default: bool = False) -> bool:
    """An optional true/false flag."""
    value = command.get(key, default)
    if not isinstance(value, bool):
        raise _fail(command, key, "true or false", value)
    return value


def req_str(command: Command, key: str) -> str:
    """A required non-empty text."""
    value = command.get(key)
    if not isinstance(value, str) or not value:
        raise _fail(command, key, "a non-empty text", value)
    return value


def opt_str(command: Command, key: str) -> str | None:
    """An optional text."""
    value = command.get(key)
    if value is not None and not isinstance(value, str):
        raise _fail(command, key, "a text", value)
    return value


def str_list(command: Command, key: str) -> tuple[str, ...]:
    """An optional list of texts."""
    value = command.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(command, key, "a list of texts", value)
    return tuple(value)


def visibility(command: Command | Mapping[str, Any]) -> str:
    """``"public"`` (the default) or ``"gm"``."""
    value = command.get("visibility", "public")
    if value not in ("public", "gm"):
        raise MalformedCommand(
            f"visibility must be 'public' or 'gm', got {value!r}", code="bad_field", path="visibility"
        )
    return str(value)
