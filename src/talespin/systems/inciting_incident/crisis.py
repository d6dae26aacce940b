"""Crisis and its Triggers (II-CRISIS-1..5): raising and lowering Crisis, and the Triggers a rise fires.

Every action that raises Crisis goes through :func:`raise_crisis`, which records the rise with its cause and
then fires each Trigger value passed, ascending (by value, then in the order the Triggers were added), once
per value unless the GM re-arms it. :func:`lower_crisis` never goes below the rules' floor. Both add their
events to a :class:`~.draft.Draft`, so the state they read is the one after the command's earlier events.
"""

from __future__ import annotations

from ..bounds import MAX_EVENTS_PER_COMMAND, too_many_events
from .draft import Draft
from .state import Trigger

__all__ = ["lower_crisis", "raise_crisis", "trigger_values"]


def trigger_values(trigger: Trigger, old: int, new: int) -> list[int]:
    """II-CRISIS-2: the values of ``trigger`` that Crisis passes when it rises from ``old`` to ``new``."""
    if trigger.every is None or trigger.every <= 0:
        return [trigger.at] if old < trigger.at <= new else []
    value = trigger.at
    if value <= old:
        value += -(-(old + 1 - value) // trigger.every) * trigger.every
    values = []
    while value <= new:
        values.append(value)
        value += trigger.every
    return values


def raise_crisis(
    draft: Draft, amount: int, cause: str, character: str | None, *, protected: bool = False
) -> None:
    """II-CRISIS-2..5: raise Crisis with its cause, then fire every Trigger value passed, ascending."""
    if amount <= 0:
        return
    scene = draft.scene()
    old, new = scene.crisis, scene.crisis + amount
    draft.emit("CrisisRaised", {"amount": amount, "crisis": new, "cause": cause, "character": character})
    due: list[tuple[int, int, Trigger]] = []
    for added, trigger in enumerate(scene.triggers):  # ties of value fire in the order added
        for value in trigger_values(trigger, old, new):
            if not (draft.rules.crisis.once_per_value and value in trigger.fired):
                due.append((value, added, trigger))
        if len(draft.events) + len(due) > MAX_EVENTS_PER_COMMAND:
            raise too_many_events()  # before building and applying any of them
    for value, _, trigger in sorted(due, key=lambda item: (item[0], item[1])):
        data: dict[str, object] = {
            "trigger": trigger.id,
            "value": value,
            "text": trigger.text,
            "character": character,
            "affects": None if protected else character,
            "protected": protected,
        }
        if trigger.visibility == "gm":  # the number players will know it by (see ``redact``)
            revealed = draft.state.revealed_triggers
            data["shown_as"] = -(
                revealed.index(trigger.id) + 1 if trigger.id in revealed else len(revealed) + 1
            )
        draft.emit("TriggerFired", data, "public")


def lower_crisis(draft: Draft, amount: int, cause: str, character: str | None) -> None:
    """II-CRISIS-1/5: lower Crisis with its cause, never below the floor."""
    scene = draft.scene()
    amount = min(amount, scene.crisis - draft.rules.crisis.floor)
    if amount > 0:
        data = {"amount": amount, "crisis": scene.crisis - amount, "cause": cause, "character": character}
        draft.emit("CrisisLowered", data)
