"""Limits on input that hold for every command of every system: not rules, but bounds on work.

No rule of either system needs a number past a few hundred, or a command that causes thousands of events;
these bounds keep one command, query or sheet from asking for unbounded work. Each field may have a
narrower range of its own (a rule, with its ID); these are the outer walls, documented in the README.

>>> WHOLE.validate_python(12)
12
>>> from pydantic import ValidationError
>>> try:
...     WHOLE.validate_python(10**30)
... except ValidationError as error:
...     print(error.errors()[0]["msg"])
Input should be less than or equal to 10000
"""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import Field, StrictInt, TypeAdapter

from .errors import IllegalCommand

__all__ = ["MAX_EVENTS_PER_COMMAND", "MAX_WHOLE_NUMBER", "WHOLE", "Whole", "too_many_events"]

MAX_WHOLE_NUMBER: Final = 10_000
"""The largest whole number, either way, in any command, query, sheet or script (an amount, a threshold, a
Difficulty, an Obstruction, a count).

A Crisis increase of 10¹² past a Trigger repeating every 1 would otherwise fire 10¹² times and never
answer; an Ascend Difficulty of 10³⁰ would ask for a pool no table could roll.
"""

MAX_EVENTS_PER_COMMAND: Final = 1_000
"""The most events one command may cause; a command that would cause more is refused, nothing applied.

Real commands cause a handful (a roll, its Crisis, the Triggers it fires); an ``adjust_crisis`` of 10,000
past 50 Triggers repeating every 1 would ask for 500,000.
"""

Whole = Annotated[StrictInt, Field(ge=-MAX_WHOLE_NUMBER, le=MAX_WHOLE_NUMBER)]
"""A whole number within ±:data:`MAX_WHOLE_NUMBER`, for the typed commands and queries."""
WHOLE: Final = TypeAdapter(Whole)
"""Checks one :data:`Whole`."""


def too_many_events(count: int | None = None) -> IllegalCommand:
    """The refusal of a command that would cause more than :data:`MAX_EVENTS_PER_COMMAND` events."""
    asked = "" if count is None else f" ({count})"
    return IllegalCommand(
        f"this command would cause more events{asked} than the {MAX_EVENTS_PER_COMMAND} one command may "
        "cause; nothing was applied (ask for less at once, e.g. a smaller Crisis change)",
        code="too_many_events",
    )
