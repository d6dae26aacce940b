"""Legal commands, found the way python-chess finds legal moves: propose every candidate, keep what passes.

A system lists the commands that could make sense now (each complete: every character, Talent, Skill,
Ability, target or option it names is one the state has) and :func:`legal` keeps those its own ``decide``
accepts on the state as it is, with a fixed generator. A command the list offers is therefore accepted by
the rules; the table then keeps a player's to the commands acting only for characters it owns.

The dice a refusal could depend on are none: a rule refuses a command before any die is rolled, so the
fixed generator decides nothing but the probe's own dice, which are thrown away with its events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .errors import RulesError
from .protocol import Command, Event

__all__ = ["PROBE_SEED", "legal"]

PROBE_SEED = 0
"""The seed of the dice a candidate is decided with (its events are never kept)."""

StateT = TypeVar("StateT")


def legal(
    state: StateT,
    candidates: Iterable[dict[str, Any]],
    decide: Callable[[StateT, Command, int], list[Event]],
) -> list[dict[str, Any]]:
    """The candidates ``decide`` accepts in ``state``, in their order, each once."""
    kept: list[dict[str, Any]] = []
    for command in candidates:
        if command in kept:
            continue
        try:
            decide(state, command, PROBE_SEED)
        except RulesError:
            continue
        kept.append(command)
    return kept
