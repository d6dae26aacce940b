"""A draft of the events one command causes, with the state kept current as each is added.

Deciding a command often needs the state *between* its events (Crisis after the Obstruction fell, which
Trigger values are still armed). :class:`Draft` applies each event with :func:`.evolve.evolve` as it is
emitted, so the rule code reads the up-to-date state; nothing outside the draft changes until the caller
keeps the events. Crisis changes and Trigger firing (II-CRISIS-1..5) live here because every action needs
them.
"""

from __future__ import annotations

from typing import Any

from ..bounds import MAX_EVENTS_PER_COMMAND, too_many_events
from ..errors import IllegalCommand
from ..protocol import Event, Visibility
from . import rule_ids as ids
from .evolve import evolve
from .rules import Rules
from .state import GameState, Scene, Trigger

__all__ = ["Draft", "trigger_values"]


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


class Draft:
    """Events being decided, and the state they lead to."""

    def __init__(self, state: GameState, visibility: Visibility = "public") -> None:
        self.state = state
        self.events: list[Event] = []
        self.visibility: Visibility = visibility

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self.state.rules

    def scene(self, *kinds: str) -> Scene:
        """The scene in play (of one of ``kinds`` when given), or IllegalCommand."""
        scene = self.state.scene
        if scene is None:
            raise IllegalCommand("no scene is in play: start one with start_scene", rule=ids.SCENE_1)
        if kinds and scene.kind not in kinds:
            raise IllegalCommand(
                f"this needs a {' or '.join(kinds)} scene; the scene in play is {scene.kind}",
                rule=ids.SCENE_4,
            )
        return scene

    def emit(self, type_: str, data: dict[str, Any], visibility: Visibility | None = None) -> None:
        """Add one event and apply it to the draft state."""
        if len(self.events) >= MAX_EVENTS_PER_COMMAND:
            raise too_many_events()
        event = Event(type_, data, visibility or self.visibility)
        self.state = evolve(self.state, event)
        self.events.append(event)

    def raise_crisis(
        self, amount: int, cause: str, character: str | None, *, protected: bool = False
    ) -> None:
        """II-CRISIS-2..5: raise Crisis with its cause, then fire every Trigger value passed, ascending."""
        if amount <= 0:
            return
        scene = self.scene()
        old, new = scene.crisis, scene.crisis + amount
        self.emit("CrisisRaised", {"amount": amount, "crisis": new, "cause": cause, "character": character})
        due: list[tuple[int, int, Trigger]] = []
        for added, trigger in enumerate(scene.triggers):  # ties of value fire in the order added
            for value in trigger_values(trigger, old, new):
                if not (self.rules.crisis.once_per_value and value in trigger.fired):
                    due.append((value, added, trigger))
            if len(self.events) + len(due) > MAX_EVENTS_PER_COMMAND:
                raise too_many_events()  # before building and applying any of them
        for value, _, trigger in sorted(due, key=lambda item: (item[0], item[1])):
            data = {
                "trigger": trigger.id,
                "value": value,
                "text": trigger.text,
                "character": character,
                "affects": None if protected else character,
                "protected": protected,
            }
            self.emit("TriggerFired", data, "public")

    def lower_crisis(self, amount: int, cause: str, character: str | None) -> None:
        """II-CRISIS-1/5: lower Crisis with its cause, never below the floor."""
        scene = self.scene()
        amount = min(amount, scene.crisis - self.rules.crisis.floor)
        if amount > 0:
            data = {"amount": amount, "crisis": scene.crisis - amount, "cause": cause, "character": character}
            self.emit("CrisisLowered", data)

    def gain_tension(self, amount: int, cause: str, **extra: Any) -> None:
        """II-RT-1/2: Rising Tension rises, with its cause."""
        if amount > 0:
            total = self.state.rising_tension + amount
            self.emit(
                "RisingTensionGained", {"amount": amount, "rising_tension": total, "cause": cause, **extra}
            )

    def afford(self, on: str, count: int) -> int:
        """II-RT-3: the price of ``count`` purchases ``on`` something; more than is available is refused."""
        cost: int = getattr(self.rules.rising_tension.costs, on) * count
        have = self.state.rising_tension
        if cost > have:
            raise IllegalCommand(
                f"spending {cost} Rising Tension on {count} {on} needs {cost}, only {have} is available",
                rule=ids.RT_3,
            )
        return cost

    def spend_tension(self, on: str, count: int, reason: str | None, character: str | None = None) -> None:
        """II-RT-3: the GM pays for a purchase; more than is available is refused."""
        cost = self.afford(on, count)
        have = self.state.rising_tension
        data = {
            "amount": cost,
            "rising_tension": have - cost,
            "on": on,
            "count": count,
            "cause": reason or f"GM spent on {on}",
            "character": character,
        }
        self.emit("RisingTensionSpent", data, "public")
