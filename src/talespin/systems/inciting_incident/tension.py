"""Rising Tension (II-RT-1..3): what makes it rise, and the GM paying for a purchase with it.

Rising Tension belongs to the campaign, not to a scene: it rises with its cause (:func:`gain`), and the GM
spends it on Disadvantage, Triggers, obstacles and enemies at the prices of the rules data (:func:`spend`),
never more than is available (:func:`afford`). Each adds its events to a :class:`~.draft.Draft`.
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalCommand
from . import rule_ids as ids
from .draft import Draft

__all__ = ["afford", "gain", "spend"]


def gain(draft: Draft, amount: int, cause: str, **extra: Any) -> None:
    """II-RT-1/2: Rising Tension rises, with its cause."""
    if amount > 0:
        total = draft.state.rising_tension + amount
        draft.emit(
            "RisingTensionGained", {"amount": amount, "rising_tension": total, "cause": cause, **extra}
        )


def afford(draft: Draft, on: str, count: int) -> int:
    """II-RT-3: the price of ``count`` purchases ``on`` something; more than is available is refused."""
    cost: int = getattr(draft.rules.rising_tension.costs, on) * count
    have = draft.state.rising_tension
    if cost > have:
        raise IllegalCommand(
            f"spending {cost} Rising Tension on {count} {on} needs {cost}, only {have} is available",
            rule=ids.RT_3,
        )
    return cost


def spend(draft: Draft, on: str, count: int, reason: str | None, character: str | None = None) -> None:
    """II-RT-3: the GM pays for a purchase; more than is available is refused."""
    cost = afford(draft, on, count)
    have = draft.state.rising_tension
    data = {
        "amount": cost,
        "rising_tension": have - cost,
        "on": on,
        "count": count,
        "cause": reason or f"GM spent on {on}",
        "character": character,
    }
    draft.emit("RisingTensionSpent", data, "public")
