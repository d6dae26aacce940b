"""Scenes, Triggers, Crisis adjustments, Rising Tension and the characters of a campaign.

The GM's commands (``add_character``, ``start_scene``, ``end_scene``, ``add_trigger``, ``rearm_trigger``,
``adjust_crisis``, ``add_tension``, ``spend_tension``), each adding its events to a :class:`~.draft.Draft`
(II-SCENE-1/3/4, II-RT-1..3, II-CRISIS-*). The cooperative-scene commands live in :mod:`.cooperative`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand, RulesError
from . import rule_ids as ids
from . import tension
from .commands import (
    AddCharacter,
    AddTension,
    AddTrigger,
    AdjustCrisis,
    ComplexObstacle,
    EndScene,
    IiCommand,
    RearmTrigger,
    Rest,
    SimpleObstacle,
    SpendTension,
    StartScene,
    parse_command,
)
from .conflict import join_conflict
from .cooperative import rest
from .crisis import lower_crisis, raise_crisis
from .draft import Draft
from .obstacles import check_difficulty, complex_obstacle, simple_obstacle
from .sheet_checks import parse_sheet

Part = TypeVar("Part", bound=IiCommand)

__all__ = [
    "add_character",
    "add_tension",
    "add_trigger",
    "adjust_crisis",
    "end_scene",
    "rearm_trigger",
    "spend_tension",
    "start_scene",
]


def add_character(draft: Draft, command: AddCharacter, rng: Rng) -> None:
    """Add a character from its sheet (every II-CHAR rule checked)."""
    sheet = parse_sheet(command.sheet, draft.rules)
    if draft.state.member(sheet.name) is not None:
        raise MalformedCommand(
            f"a character called {sheet.name!r} already exists", code="duplicate_character", path="sheet.name"
        )
    draft.emit("CharacterAdded", {"sheet": sheet.to_json()})


def _present(draft: Draft, command: StartScene) -> tuple[str, ...]:
    """II-SCENE-1: the characters present (every member by default), each known and listed once."""
    present = (
        tuple(command.present) if command.present is not None else tuple(m.name for m in draft.state.members)
    )
    for index, name in enumerate(present):
        if name in present[:index]:
            raise MalformedCommand(
                f"{name!r} is listed twice in present: each character is present once",
                code="bad_field",
                path=f"present[{index}]",
            )
        if draft.state.member(name) is None:
            raise MalformedCommand(
                f"unknown character {name!r} in present", code="unknown_character", path="present"
            )
    return present


def start_scene(draft: Draft, command: StartScene, rng: Rng) -> None:
    """II-SCENE-1/3/4: start a scene (ending the one in play); cooperative streaks gain Rising Tension."""
    rules = draft.rules
    montage = command.montage
    kind = command.kind if command.given("kind") else ("cooperative" if montage else None)
    if kind not in rules.scenes.kinds:
        raise MalformedCommand(
            f"kind must be one of {', '.join(rules.scenes.kinds)}, got {kind!r}",
            code="bad_field",
            rule=ids.SCENE_1,
            path="kind",
        )
    if montage and kind != "cooperative":
        raise MalformedCommand(
            "a montage is a cooperative scene", code="bad_field", rule=ids.SCENE_1, path="montage"
        )
    difficulty = check_difficulty(draft, command)
    present = _present(draft, command)
    restful = command.restful
    if restful and kind != "cooperative":
        raise IllegalCommand("only a cooperative scene can be restful", rule=ids.RT_4)
    triggers = command.triggers
    if triggers and kind == "cooperative":
        raise IllegalCommand("a cooperative scene has no Crisis, so no Triggers", rule=ids.CRISIS_1)
    if draft.state.scene is not None:
        draft.emit("SceneEnded", {"number": draft.state.scene.number})
    streak = draft.state.cooperative_streak + 1 if kind == "cooperative" else 0
    number = draft.state.scenes_played + 1
    data = {
        "number": number,
        "kind": kind,
        "difficulty": difficulty,
        "location": command.location,
        "present": list(present),
        "montage": montage,
        "restful": restful,
        "cooperative_streak": streak,
    }
    draft.emit("SceneStarted", data)
    if streak:
        gain = rules.scenes.cooperative_first_gain + (streak - 1) * rules.scenes.cooperative_gain_step
        tension.gain(draft, gain, f"cooperative scene {streak} in a row", streak=streak)
    for index, raw in enumerate(triggers):
        try:
            add_trigger(draft, _as(AddTrigger, {**raw, "do": "add_trigger"}), rng)
        except RulesError as error:
            error.path = f"triggers[{index}]" + (f".{error.path}" if error.path else "")
            raise
    if restful:
        rest(draft, Rest(do="rest"), rng)


def end_scene(draft: Draft, command: EndScene, rng: Rng) -> None:
    """End the scene in play."""
    draft.emit("SceneEnded", {"number": draft.scene().number})


def _as(model: type[Part], raw: dict[str, Any]) -> Part:
    """A command built inside another one (a scene's Trigger, a bought obstacle), parsed as its own kind."""
    parsed = parse_command(raw)
    assert isinstance(parsed, model)  # raw["do"] names the model
    return parsed


def add_trigger(draft: Draft, command: AddTrigger, rng: Rng) -> None:
    """II-CRISIS-2: add a Trigger (GM-only ones stay hidden from players until they fire).

    Public Triggers are numbered 1, 2, 3, …; GM-only ones -1, -2, -3, …, so that whether a GM-only Trigger
    exists changes no public Trigger's id.
    """
    draft.scene("action", "conflict")
    at, every, text, shown = command.at, command.every, command.text, command.visibility
    if command.spend:
        tension.spend(draft, "trigger", 1, command.reason)
    hidden = shown == "gm"  # numbered apart: a public Trigger's id must not count the GM's secret ones
    data = {
        "trigger": draft.state.next_hidden_trigger_id if hidden else draft.state.next_trigger_id,
        "at": at,
        "every": every,
        "text": text,
        "visibility": shown,
    }
    draft.emit("TriggerAdded", data, "gm" if hidden else "public")


def rearm_trigger(draft: Draft, command: RearmTrigger, rng: Rng) -> None:
    """II-CRISIS-4: re-arm one fired value of a Trigger (or all of them) so it can fire again."""
    trigger_id = command.trigger
    trigger = draft.scene().trigger(trigger_id)
    if trigger is None:
        raise MalformedCommand(
            f"no Trigger with id {trigger_id} in this scene", code="unknown_trigger", path="trigger"
        )
    if command.value is not None:
        value = command.value
        if value not in trigger.fired:
            raise IllegalCommand(f"Trigger {trigger_id} has not fired at {value}", rule=ids.CRISIS_4)
        values = [value]
    else:
        values = list(trigger.fired)
    draft.emit(
        "TriggerRearmed",
        {"trigger": trigger_id, "values": values},
        "gm" if trigger.visibility == "gm" else None,
    )


def adjust_crisis(draft: Draft, command: AdjustCrisis, rng: Rng) -> None:
    """II-CRISIS-5: the GM raises or lowers Crisis by hand, with a reason."""
    draft.scene("action", "conflict")
    amount = command.amount
    cause = f"GM adjustment: {command.reason or 'no reason given'}"
    character = command.character
    if amount >= 0:
        raise_crisis(draft, amount, cause, character)
    else:
        lower_crisis(draft, -amount, cause, character)


def add_tension(draft: Draft, command: AddTension, rng: Rng) -> None:
    """II-RT-2: the GM declares a story condition that adds Rising Tension (any amount, with a reason)."""
    amount = command.amount
    reason = command.reason
    if not reason:
        raise MalformedCommand(
            "add_tension needs a reason", code="missing_field", rule=ids.RT_2, path="reason"
        )
    tension.gain(draft, amount, reason)


def spend_tension(draft: Draft, command: SpendTension, rng: Rng) -> None:
    """II-RT-3: the GM spends Rising Tension, buying the thing in the same command or not at all.

    Each purchase names what it buys, or the Rising Tension would vanish for nothing:

    * ``on: disadvantage`` needs ``character:`` (the one whose next roll takes it) and a scene in play;
    * ``on: trigger`` needs ``trigger: {at, every, text, visibility}``, added to the action or conflict scene;
    * ``on: obstacle`` needs ``obstacle: {kind: simple, to, individually, choose}`` or
      ``{kind: complex, obstruction, attempts, difficulty}``, presented at once;
    * ``on: enemy`` needs ``enemies: [sheets]`` (as many as ``count``, if given), joining the conflict under
      way or starting it.

    Spending more than is available is refused; every refusal leaves the state unchanged.
    """
    on = command.on
    costs = draft.rules.rising_tension.costs.model_dump()
    if on is None or on not in costs:
        raise MalformedCommand(
            f"on must be one of {', '.join(costs)}, got {on!r}", code="bad_field", rule=ids.RT_3, path="on"
        )
    listed = command.enemies
    tension.afford(
        draft, str(on), len(listed) if on == "enemy" and isinstance(listed, list) and listed else 1
    )
    bought = _PURCHASE[str(on)]
    for key in _PURCHASE.values():
        if key != bought and command.given(key):
            raise MalformedCommand(
                f"spending on {on} buys {bought}, not {key}", code="bad_field", rule=ids.RT_3, path=key
            )
    if not command.given(bought):
        raise MalformedCommand(
            f"spending on {on} needs {bought}: {_WHAT[str(on)]}; Rising Tension is spent only on something",
            code="missing_field",
            rule=ids.RT_3,
            path=bought,
        )
    reason = command.reason
    if on == "disadvantage":
        count = 1 if command.count is None else command.count
        character = command.character
        if not character:
            raise MalformedCommand(
                f"spend_tension: character must be a non-empty text, got {character!r}",
                code="bad_field",
                path="character",
            )
        draft.scene()
        if draft.state.member(character) is None:
            raise MalformedCommand(
                f"unknown character {character!r}", code="unknown_character", path="character"
            )
        tension.spend(draft, "disadvantage", count, reason, character)
        return
    _one_purchase(draft, command, str(on))
    try:
        _buy(draft, command, str(on), reason, rng)
    except RulesError as error:
        error.path = bought + (f".{error.path}" if error.path and error.path != bought else "")
        raise


def _one_purchase(draft: Draft, command: SpendTension, on: str) -> None:
    """``count`` is one Trigger or obstacle, or exactly as many enemies as are listed."""
    if command.count is None:
        return
    count = command.count
    listed = command.enemies
    expected = len(listed) if on == "enemy" and isinstance(listed, list) else 1
    if count != expected:
        raise MalformedCommand(
            f"count is {count} but the purchase is {expected} {on}",
            code="bad_field",
            rule=ids.RT_3,
            path="count",
        )


def _buy(draft: Draft, command: SpendTension, on: str, reason: str | None, rng: Rng) -> None:
    extra: dict[str, Any] = {"spend": True, **({"reason": reason} if reason else {})}
    if on == "enemy":
        _check_conflict_for_enemies(draft)
        join_conflict(draft, command, reason)
        return
    raw = getattr(command, _PURCHASE[on])
    if not isinstance(raw, dict):
        raise MalformedCommand(
            f"{_PURCHASE[on]} must be a mapping: {_WHAT[on]}", code="bad_field", rule=ids.RT_3, path=""
        )
    if on == "trigger":
        add_trigger(draft, _as(AddTrigger, {**raw, "do": "add_trigger", **extra}), rng)
        return
    kind = raw.get("kind")
    if kind not in ("simple", "complex"):
        raise MalformedCommand(
            f"obstacle kind must be simple or complex, got {kind!r}", code="bad_field", path="kind"
        )
    fields = {k: v for k, v in raw.items() if k != "kind"}
    if kind == "simple":
        if "character" in fields:
            raise MalformedCommand(
                "a bought Simple Obstacle is presented, not faced: use to: NAME",
                code="bad_field",
                path="character",
            )
        simple_obstacle(draft, _as(SimpleObstacle, {**fields, "do": "simple_obstacle", **extra}), rng)
    else:
        complex_obstacle(draft, _as(ComplexObstacle, {**fields, "do": "complex_obstacle", **extra}), rng)


_PURCHASE = {"disadvantage": "character", "trigger": "trigger", "obstacle": "obstacle", "enemy": "enemies"}
"""II-RT-3: the field naming what each purchase buys."""
_WHAT = {
    "disadvantage": "the character whose next roll takes the Disadvantage",
    "trigger": "{at, every, text, visibility}",
    "obstacle": "{kind: simple, to} or {kind: complex, obstruction, attempts}",
    "enemy": "a list of enemy sheets",
}


def _check_conflict_for_enemies(draft: Draft) -> None:
    """II-RT-3: enemies bought with Rising Tension join a conflict, under way or about to start."""
    scene = draft.state.scene
    if scene is None or scene.kind != "conflict" or (scene.conflict is not None and scene.conflict.ended):
        where = "no scene is in play" if scene is None else f"the scene in play is {scene.kind}"
        if scene is not None and scene.kind == "conflict":
            where = "the conflict in this scene is over"
        raise IllegalCommand(
            f"spending on enemy adds enemies to a conflict, but {where}: it needs a conflict scene whose "
            "conflict is not over (or start_conflict with spend: true)",
            rule=ids.RT_3,
        )
