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
A system whose candidates depend on nothing but the state and one more value (the role asking) names that
value as the ``question``: asked it again about an equal state, :func:`legal` gives back the whole answer
it found, without making or encoding a single candidate.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple, TypeVar

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


class _Record(NamedTuple):
    """What was found in one state decided."""

    state: object
    decide: Callable[..., Any]
    verdicts: dict[str, bool]
    """Each candidate's verdict there, by its canonical JSON text."""
    answers: dict[Hashable, list[dict[str, Any]]]
    """Each whole answer given there, by question."""


_remembered: deque[_Record] = deque(maxlen=STATES_REMEMBERED)
_remembering = threading.Lock()


def _record(state: object, decide: Callable[..., Any]) -> _Record:
    """What was found so far in a state equal to ``state`` under the same ``decide`` (a new, empty record
    if there is none)."""
    with _remembering:
        for record in _remembered:
            if record.state is state and record.decide is decide:
                return record
        for record in _remembered:
            known = record.state
            if record.decide is decide and type(known) is type(state) and known == state:
                return record
        record = _Record(state, decide, {}, {})
        _remembered.appendleft(record)
        return record


def legal(
    state: StateT,
    candidates: Iterable[dict[str, Any]],
    decide: Callable[[StateT, Command, int], list[Event]],
    *,
    question: Hashable | None = None,
) -> list[dict[str, Any]]:
    """The candidates ``decide`` accepts in ``state``, in their order, each once.

    With a ``question`` (a value that, with the state, fixes every candidate: the role asking), the answer
    is kept and given back whole when the same question is asked about an equal state; ``candidates`` is
    then never iterated. The answer is shared: read it, never change it.
    """
    _, _, verdicts, answers = _record(state, decide)
    if question is not None and question in answers:
        return answers[question]
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
    if question is not None:
        answers[question] = kept
    return kept
