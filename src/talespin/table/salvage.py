"""Reading a log that holds an entry the table cannot render, without taking the campaign down.

The edge (:func:`.shape.check_input`) refuses every text the table cannot store or send back, so a new log
never holds one. An older log, or one written by hand, may: a lone surrogate in a name cannot be encoded
as UTF-8, an infinite number cannot be written as JSON, an event may lack a field. One such entry must not
make every read of the campaign fail for everyone, across restarts. So the store's events are folded
here, one by one:

* a value that cannot be rendered is repaired where it stands (a lone surrogate becomes U+FFFD, the
  replacement character; a number that is not finite becomes ``null``);
* an event the ledger cannot fold at all keeps its place in the log (versions stay whole) but changes
  nothing;

and each is reported as a :class:`Problem`: in the GM's state (``"problems"``) and in the server's log.
The rest of the campaign is served as usual.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..store.port import StoredEvent
from ..text import excerpt
from .ledger import Ledger

__all__ = ["Problem", "fold", "render_safe", "repaired"]

log = logging.getLogger("talespin.table")


@dataclass(frozen=True, slots=True)
class Problem:
    """An entry of the log that could not be served as written: its version, type and what was done."""

    version: int
    type: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        """``{"version", "type", "reason"}`` for the GM's state."""
        return {"version": self.version, "type": self.type, "reason": self.reason}


_SURROGATE = re.compile("[\ud800-\udfff]")


def _text(value: str) -> str:
    return _SURROGATE.sub("\ufffd", value) if _broken(value) else value


def _broken(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def render_safe(value: Any) -> tuple[Any, bool]:
    """``value`` with every text valid UTF-8 and every number finite, and whether anything changed.

    >>> render_safe({"name": "A\\ud800", "hp": float("inf"), "ok": [1, "x"]}) == (
    ...     {"name": "A\\ufffd", "hp": None, "ok": [1, "x"]}, True)
    True
    """
    if isinstance(value, str):
        fixed = _text(value)
        return fixed, fixed is not value
    if isinstance(value, float) and not math.isfinite(value):
        return None, True
    if isinstance(value, Mapping):
        changed = False
        out: dict[Any, Any] = {}
        for key, child in value.items():
            new_key, key_changed = render_safe(key) if isinstance(key, str) else (key, False)
            new_child, child_changed = render_safe(child)
            out[new_key] = new_child
            changed = changed or key_changed or child_changed
        return out, changed
    if isinstance(value, list | tuple):
        pairs = [render_safe(child) for child in value]
        return [child for child, _ in pairs], any(flag for _, flag in pairs)
    return value, False


def repaired(stored: StoredEvent) -> StoredEvent:
    """``stored`` as the ledger folds it: every text valid UTF-8 and every number finite."""
    return _repaired(stored)[0]


def _renderable(stored: StoredEvent) -> bool:
    """Whether ``stored`` needs no repair, checked at C speed: its data written as strict JSON (no NaN nor
    infinity) encodes as UTF-8 (no lone surrogate), and so does its actor.

    Every event this code writes passes (the edge refused anything else), so the walk of
    :func:`render_safe` runs only for what fails here; a value JSON cannot write at all (a key that is not
    text or a number) fails too, and is walked.
    """
    try:
        json.dumps(stored.data, ensure_ascii=False, allow_nan=False).encode("utf-8")
        if isinstance(stored.actor, str):
            stored.actor.encode("utf-8")
    except (TypeError, ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
        return False
    return True


def _repaired(stored: StoredEvent) -> tuple[StoredEvent, bool]:
    if _renderable(stored):
        return stored, False
    data, changed = render_safe(stored.data)
    actor, actor_changed = (
        render_safe(stored.actor) if isinstance(stored.actor, str) else (stored.actor, False)
    )
    if not (changed or actor_changed):
        return stored, False
    return replace(stored, data=data, actor=actor), True


def fold(ledger: Ledger, events: Iterable[StoredEvent], problems: list[Problem]) -> Ledger:
    """Fold stored ``events`` into ``ledger``, repairing or skipping what it cannot serve (see above)."""
    for stored in events:
        fixed, changed = _repaired(stored)
        if changed:
            _report(
                ledger, problems, Problem(stored.version, stored.type, "unrenderable text or number replaced")
            )
        try:
            ledger.apply(fixed)
        except Exception as error:  # any fault of one entry must not take the campaign down
            if ledger.version < stored.version:  # it failed before taking its place: keep versions whole
                ledger.log.append(fixed)
                ledger.version = stored.version
            reason = f"not folded ({type(error).__name__}: {excerpt(str(error), 80)})"
            _report(ledger, problems, Problem(stored.version, stored.type, reason))
    return ledger


def _report(ledger: Ledger, problems: list[Problem], problem: Problem) -> None:
    problems.append(problem)
    log.warning(
        "campaign %s: entry %d (%s) %s", ledger.campaign_id, problem.version, problem.type, problem.reason
    )
