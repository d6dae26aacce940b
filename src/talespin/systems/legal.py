"""Legal commands, found the way python-chess finds legal moves: propose every candidate, keep what passes.

A system lists the commands that could make sense now (each complete: every character, Talent, Skill,
Ability, target or option it names is one the state has) and :func:`legal` keeps those its own ``decide``
accepts on the state as it is, with a fixed generator. A command the list offers is therefore accepted by
the rules; the table then keeps a player's to the commands acting only for characters it owns.

The dice a refusal could depend on are none: a rule refuses a command before any die is rolled, so the
fixed generator decides nothing but the probe's own dice, which are thrown away with its events.

So a candidate's verdict depends on nothing but the state and the candidate, whoever asks: :func:`legal`
remembers the verdicts of the few states it decided last (:data:`STATES_REMEMBERED`) and, asked again about
an equal state, decides only the candidates it has not met there. The table asks about the true state for
the GM and about the state the players know for a player; while nothing is held back from the players the
two are equal, and the players' search reuses the GM's verdicts instead of deciding every command again.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .errors import RulesError
from .protocol import Command, Event

__all__ = ["PROBE_SEED", "STATES_REMEMBERED", "legal"]

PROBE_SEED = 0
"""The seed of the dice a candidate is decided with (its events are never kept)."""

StateT = TypeVar("StateT")


STATES_REMEMBERED = 8
"""How many of the states decided last keep their candidates' verdicts."""

_canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode
"""A candidate's canonical JSON text (one encoder for all: making one per call costs more than encoding)."""
_remembered: deque[tuple[object, Callable[..., Any], dict[str, bool]]] = deque(maxlen=STATES_REMEMBERED)
_remembering = threading.Lock()


def _verdicts(state: object, decide: Callable[..., Any]) -> dict[str, bool]:
    """The verdicts met so far in a state equal to ``state`` under the same ``decide`` (a new, empty record
    if there is none); keyed by each candidate's canonical JSON text."""
    with _remembering:
        for known, decided_by, verdicts in _remembered:
            if known is state and decided_by is decide:
                return verdicts
        for known, decided_by, verdicts in _remembered:
            if decided_by is decide and type(known) is type(state) and known == state:
                return verdicts
        verdicts = {}
        _remembered.appendleft((state, decide, verdicts))
        return verdicts


def legal(
    state: StateT,
    candidates: Iterable[dict[str, Any]],
    decide: Callable[[StateT, Command, int], list[Event]],
) -> list[dict[str, Any]]:
    """The candidates ``decide`` accepts in ``state``, in their order, each once."""
    verdicts = _verdicts(state, decide)
    kept: list[dict[str, Any]] = []
    met: set[str] = set()
    for command in candidates:
        key = _canonical(command)
        if key in met:
            continue
        met.add(key)
        accepted = verdicts.get(key)
        if accepted is None:
            try:
                decide(state, command, PROBE_SEED)
                accepted = True
            except RulesError:
                accepted = False
            verdicts[key] = accepted
        if accepted:
            kept.append(command)
    return kept
