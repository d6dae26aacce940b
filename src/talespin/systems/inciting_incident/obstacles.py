"""Simple and Complex Obstacles (II-SIMPLE-*, II-COMPLEX-*): presenting them and acting on them.

Each function takes a :class:`~.draft.Draft`, the command and the generator, and adds the events the rules
call for. The amounts (4 Crisis for an automatic pass, 2 on success, at least 2 on failure, +3 for a repeated
Talent, Obstruction −4, …) are read from the rules data.
"""

from __future__ import annotations

from ...dice import Rng
from ..errors import IllegalCommand, MalformedCommand
from . import rule_ids as ids
from . import tension
from .acting import character_sheet, is_auto, talent_roll
from .chances import action_crisis, roll_crisis
from .commands import ComplexObstacle, DecisiveAction, RegularAction, SimpleObstacle, StartScene, check_base
from .crisis import raise_crisis
from .draft import Draft
from .state import Obstacle, Scene

__all__ = ["check_difficulty", "complex_obstacle", "decisive_action", "regular_action", "simple_obstacle"]

_SCENES = ("action", "conflict")


def _present_simple(draft: Draft, command: SimpleObstacle, rng: Rng, scene: Scene) -> None:
    """II-SIMPLE-1: the GM presents a Simple Obstacle to one character, at random, or to each present."""
    if command.spend:
        tension.spend(draft, "obstacle", 1, command.reason)
    to = command.to
    must_pass: tuple[str, ...] = ()
    if command.individually:
        must_pass = scene.present
    elif command.choose == "random":
        if not scene.present:
            raise IllegalCommand("no characters are present to choose from", rule=ids.SIMPLE_1)
        to = scene.present[rng.randrange(len(scene.present))]
    elif to is not None and to not in scene.present:
        raise IllegalCommand(f"{to} is not present in this scene", rule=ids.SIMPLE_1)
    draft.emit("SimpleObstaclePresented", {"to": to, "must_pass": list(must_pass)})


def simple_obstacle(draft: Draft, command: SimpleObstacle, rng: Rng) -> None:
    """Present a Simple Obstacle (no ``character:``) or face one (auto: II-SIMPLE-2; roll: II-SIMPLE-3)."""
    scene = draft.scene(*_SCENES)
    if command.character is None:
        _present_simple(draft, command, rng, scene)
        return
    sheet = character_sheet(draft, command)
    name = sheet.name
    open_ = (
        scene.obstacle
        if scene.obstacle and scene.obstacle.kind == "simple" and not scene.obstacle.beaten
        else None
    )
    if open_ is not None:
        if open_.presented_to is not None and open_.presented_to != name:
            raise IllegalCommand(
                f"this Simple Obstacle was presented to {open_.presented_to}, not {name}", rule=ids.SIMPLE_1
            )
        if open_.must_pass and (name not in open_.must_pass or name in open_.passed):
            raise IllegalCommand(f"{name} does not have to pass this obstacle (again)", rule=ids.SIMPLE_1)
    elif draft.rules.simple.gm_presents:
        passed = scene.obstacle is not None and scene.obstacle.kind == "simple"
        raise IllegalCommand(
            f"no Simple Obstacle is in play for {name} to act on"
            + (": the last one is already passed" if passed else "")
            + "; the GM presents one with simple_obstacle (no character)",
            rule=ids.SIMPLE_4,
        )
    else:
        if command.spend:
            tension.spend(draft, "obstacle", 1, command.reason)
        draft.emit("SimpleObstaclePresented", {"to": name, "must_pass": []})
    rules = draft.rules
    if is_auto(command):
        draft.emit("SimpleObstacleFaced", {"character": name, "choice": "auto", "talent": None})
        raise_crisis(draft, rules.crisis.auto, "passed a Simple Obstacle automatically", name)
        tension.gain(draft, rules.simple.auto_rising_tension, f"{name} passed an obstacle without rolling")
    else:
        result = talent_roll(
            draft,
            command,
            sheet,
            rng,
            against=rules.roll.target,
            base_d6=scene.difficulty,
            purpose="simple_obstacle",
        )
        draft.emit("SimpleObstacleFaced", {"character": name, "choice": "talent", "talent": result.talent})
        crisis = action_crisis(
            roll_crisis(result.total, result.against, rules), result.effects.get("crisis", 0), rules=rules
        )
        raise_crisis(
            draft,
            crisis,
            f"Simple Obstacle, {result.talent} roll of {result.total}",
            name,
            protected=result.protect,
        )
    obstacle = draft.scene().obstacle
    assert obstacle is not None
    if not obstacle.must_pass or set(obstacle.must_pass) <= set(obstacle.passed):
        draft.emit(
            "ObstaclePassed",
            {"characters": list(obstacle.passed if obstacle.must_pass else draft.scene().present)},
        )


def complex_obstacle(draft: Draft, command: ComplexObstacle, rng: Rng) -> None:
    """II-COMPLEX-1: set a Complex Obstacle with its Obstruction and Decisive attempts."""
    draft.scene(*_SCENES)
    rules = draft.rules
    obstruction = command.obstruction
    if obstruction is None or obstruction < rules.complex.obstruction_min:
        raise MalformedCommand(
            f"obstruction must be a whole number of at least {rules.complex.obstruction_min}, "
            f"got {obstruction!r}",
            code="bad_field",
            rule=ids.COMPLEX_1,
            path="obstruction",
        )
    span = rules.complex.attempts
    attempts = span.min if command.attempts is None else command.attempts
    if not span.min <= attempts <= span.max:
        raise MalformedCommand(
            f"attempts must lie between {span.min} and {span.max}, got {attempts}",
            code="bad_field",
            rule=ids.COMPLEX_1,
            path="attempts",
        )
    difficulty = command.difficulty
    if difficulty is not None:
        check_difficulty(draft, command)
    if command.spend:
        tension.spend(draft, "obstacle", 1, command.reason)
    draft.emit(
        "ComplexObstacleSet", {"obstruction": obstruction, "attempts": attempts, "difficulty": difficulty}
    )


def check_difficulty(draft: Draft, command: StartScene | ComplexObstacle) -> int:
    """II-ROLL-5: a scene's or an obstacle's difficulty, a base d6 count in the rules' range."""
    span = draft.rules.roll.difficulty
    return check_base(
        command.difficulty, span.default, span, key="difficulty", do=command.do, rule=ids.ROLL_5
    )


def _complex_in_play(draft: Draft, name: str) -> Obstacle:
    """II-COMPLEX-8 and II-COMPLEX-5: an unbeaten Complex Obstacle on which ``name`` may act now."""
    scene = draft.scene(*_SCENES)
    obstacle = scene.obstacle
    if obstacle is None or obstacle.kind != "complex":
        raise IllegalCommand(
            "no Complex Obstacle is in play: set one with complex_obstacle", rule=ids.COMPLEX_8
        )
    if obstacle.beaten:
        raise IllegalCommand(
            "this Complex Obstacle is already beaten: no more actions on it", rule=ids.COMPLEX_8
        )
    if obstacle.last_actor == name and len(scene.present) > 1:
        raise IllegalCommand(
            f"{name} took the last action on this obstacle; another character must act first",
            rule=ids.COMPLEX_5,
        )
    return obstacle


def regular_action(draft: Draft, command: RegularAction, rng: Rng) -> None:
    """II-COMPLEX-2/3/4: a Regular Action, automatic or rolled, against the Obstruction."""
    sheet = character_sheet(draft, command)
    name = sheet.name
    obstacle = _complex_in_play(draft, name)
    rules = draft.rules
    if is_auto(command):
        draft.emit(
            "RegularActionTaken", {"character": name, "choice": "auto", "talent": None, "repeated": False}
        )
        _reduce(draft, rules.complex.obstruction_reduction, name)
        raise_crisis(draft, rules.crisis.auto, "automatic Regular Action", name)
        tension.gain(draft, rules.complex.auto_rising_tension, f"{name} acted without rolling")
        return
    base = obstacle.difficulty if obstacle.difficulty is not None else draft.scene().difficulty
    result = talent_roll(
        draft, command, sheet, rng, against=rules.roll.target, base_d6=base, purpose="regular_action"
    )
    repeated = result.talent in obstacle.talents_used_by(name)
    data = {"character": name, "choice": "talent", "talent": result.talent, "repeated": repeated}
    draft.emit("RegularActionTaken", data)
    if result.success:
        _reduce(draft, result.total - result.against + result.effects.get("obstruction", 0), name)
    extra = result.effects.get("crisis", 0) + (rules.crisis.repeated_talent if repeated else 0)
    crisis = action_crisis(roll_crisis(result.total, result.against, rules), extra, rules=rules)
    raise_crisis(
        draft,
        crisis,
        f"Regular Action, {result.talent} roll of {result.total}",
        name,
        protected=result.protect,
    )


def _reduce(draft: Draft, amount: int, name: str) -> None:
    obstacle = draft.scene().obstacle
    assert obstacle is not None
    new = max(draft.rules.complex.obstruction_min, obstacle.obstruction - amount)
    if new != obstacle.obstruction:
        data = {"amount": obstacle.obstruction - new, "obstruction": new, "character": name}
        draft.emit("ObstructionReduced", data)


def decisive_action(draft: Draft, command: DecisiveAction, rng: Rng) -> None:
    """II-COMPLEX-6/7: a Talent Roll against the Obstruction; the last attempt always beats the obstacle."""
    sheet = character_sheet(draft, command)
    name = sheet.name
    obstacle = _complex_in_play(draft, name)
    is_auto(command, allowed=False)
    rules = draft.rules
    base = obstacle.difficulty if obstacle.difficulty is not None else draft.scene().difficulty
    against = obstacle.obstruction
    result = talent_roll(draft, command, sheet, rng, against=against, base_d6=base, purpose="decisive_action")
    left = obstacle.attempts_left if result.success else obstacle.attempts_left - 1
    data = {"character": name, "talent": result.talent, "success": result.success, "attempts_left": left}
    draft.emit("DecisiveActionTaken", data)
    crisis = action_crisis(
        roll_crisis(result.total, against, rules), result.effects.get("crisis", 0), rules=rules
    )
    raise_crisis(
        draft,
        crisis,
        f"Decisive Action, {result.talent} roll of {result.total}",
        name,
        protected=result.protect,
    )
    last = rules.complex.last_attempt_beats and left <= 0
    if result.success or last:
        draft.emit("ObstacleBeaten", {"character": name, "last_attempt": not result.success})
