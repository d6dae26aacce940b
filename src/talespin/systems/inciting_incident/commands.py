"""The commands of Inciting Incident, as typed models parsed from the mappings scripts and the table send.

A command is a mapping with ``do:`` naming it, in the imperative (the same vocabulary in scene scripts and
over HTTP). :func:`parse_command` turns it into one frozen pydantic model — every key known, every value of
its type — or raises :class:`~talespin.systems.errors.MalformedCommand` naming the command, the field, what
was expected and what came (and the rule, when a field's range is a rule's)::

    >>> parse_command({"do": "add_trigger", "at": 10, "text": "The reactor overheats"}).at
    10
    >>> parse_command({"do": "add_trigger", "at": 0, "text": "x"})
    Traceback (most recent call last):
    ...
    talespin.systems.errors.MalformedCommand: add_trigger: at must be at least 1, got 0

Whether the rules allow the command (a scene in play, a Talent the character has, a difficulty in the rules'
range) is decided later, by the handlers of :mod:`.decide`, which read these models' attributes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, ValidationError

from ...text import excerpt
from ..bounds import MAX_WHOLE_NUMBER, Whole
from ..errors import MalformedCommand
from . import rule_ids as ids

__all__ = [
    "MAX_WHOLE_NUMBER",
    "MODELS",
    "AbilityRoll",
    "AddCharacter",
    "AddTension",
    "AddTrigger",
    "AdjustCrisis",
    "Attack",
    "ComplexObstacle",
    "Count",
    "DecisiveAction",
    "EndConflict",
    "EndScene",
    "Heal",
    "IiCommand",
    "Learn",
    "Move",
    "RearmTrigger",
    "RecreateSkill",
    "RegularAction",
    "Rest",
    "Roll",
    "SimpleObstacle",
    "SpendTension",
    "StartConflict",
    "StartScene",
    "UseSkill",
    "YieldConflict",
    "check_base",
    "parse_command",
    "refusal",
]

Visibility = Literal["public", "gm"]
Count = Annotated[Whole, Field(ge=0)]
"""A whole number of 0 or more (Advantage, Disadvantage, a Skill's cost)."""
Name = Annotated[StrictStr, Field(min_length=1)]
"""A non-empty text: a character's, a Talent's, a Skill's name."""


def _rule(rule: str) -> dict[str, Any]:
    """A field's range is this rule's: a value out of it is refused naming the rule."""
    return {"rule": rule}


class IiCommand(BaseModel):
    """Every command: its ``do`` and an optional ``note`` (a remark kept with it, never read by the rules)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    do: str
    note: StrictStr | None = None

    def given(self, key: str) -> bool:
        """Whether the command set ``key`` itself (rather than leaving the default)."""
        return key in self.model_fields_set


class Roll(IiCommand):
    """The options every roll command takes: who rolls, with what Talent or automatically, and the dice.

    ``choice: auto`` passes without rolling; a roll names its ``talent``. ``dice`` overrides the base d6
    count (II-ROLL-5), ``skills`` tick modifier Skills of the Talent (II-SKILL-1), ``faces`` are physical
    dice (II-ROLL-4), ``visibility: gm`` is a blind roll.
    """

    character: Name | None = None
    choice: Literal["auto", "talent"] | None = None
    talent: StrictStr | None = None
    advantage: Count = 0
    disadvantage: Count = 0
    dice: Whole | None = None
    skills: list[StrictStr] = Field(default_factory=list)
    faces: list[Any] | None = None
    visibility: Visibility = "public"


class _Spend(IiCommand):
    """A GM's command that may be paid for with Rising Tension (II-RT-3): ``spend: true`` and a reason."""

    spend: StrictBool = False
    reason: StrictStr | None = None


class AddCharacter(IiCommand):
    """``add_character``: a character joins, from its sheet (every II-CHAR rule checked)."""

    do: Literal["add_character"]
    sheet: Any = None


class StartScene(IiCommand):
    """``start_scene``: a scene of a kind, its difficulty, who is present, its Triggers (II-SCENE-1/3/4)."""

    do: Literal["start_scene"]
    kind: StrictStr | None = None
    difficulty: Whole | None = None
    location: StrictStr | None = None
    present: list[StrictStr] | None = None
    triggers: list[dict[str, Any]] = Field(default_factory=list)
    montage: StrictBool = False
    restful: StrictBool = False


class EndScene(IiCommand):
    """``end_scene``: the scene in play ends."""

    do: Literal["end_scene"]


class AddTrigger(_Spend):
    """``add_trigger``: a Trigger at a Crisis value, repeating ``every`` so many (II-CRISIS-2)."""

    do: Literal["add_trigger"]
    at: Annotated[Whole, Field(ge=1, json_schema_extra=_rule(ids.CRISIS_2))]
    every: Whole | None = Field(default=None, ge=1, json_schema_extra=_rule(ids.CRISIS_2))
    text: Name
    visibility: Visibility = "public"


class RearmTrigger(IiCommand):
    """``rearm_trigger``: a fired value of a Trigger (or all of them) may fire again (II-CRISIS-4)."""

    do: Literal["rearm_trigger"]
    trigger: Whole
    value: Whole | None = None


class AdjustCrisis(IiCommand):
    """``adjust_crisis``: the GM raises (or, negative, lowers) Crisis by hand, with a reason (II-CRISIS-5)."""

    do: Literal["adjust_crisis"]
    amount: Whole
    reason: StrictStr | None = None
    character: StrictStr | None = None


class AddTension(IiCommand):
    """``add_tension``: a story condition adds Rising Tension, with its reason (II-RT-2)."""

    do: Literal["add_tension"]
    amount: Annotated[Whole, Field(ge=1, json_schema_extra=_rule(ids.RT_2))]
    reason: StrictStr | None = None


class SpendTension(IiCommand):
    """``spend_tension``: the GM spends Rising Tension on something, bought in the same command (II-RT-3)."""

    do: Literal["spend_tension"]
    on: StrictStr | None = None
    count: Annotated[Whole, Field(ge=1)] | None = None
    reason: StrictStr | None = None
    character: StrictStr | None = None
    trigger: Any = None
    obstacle: Any = None
    enemies: Any = None


class Rest(IiCommand):
    """``rest``: a restful cooperative scene lowers Rising Tension (II-RT-4)."""

    do: Literal["rest"]


class Learn(IiCommand):
    """``learn``: in a cooperative scene, change, upgrade or learn one Talent or Skill (II-SCENE-2)."""

    do: Literal["learn"]
    character: Name
    talent: Any = None
    skill: dict[str, Any] | None = None
    ability: StrictStr | None = None
    level: Whole | None = None


class Heal(IiCommand):
    """``heal``: in a cooperative scene a character heals (II-SCENE-2)."""

    do: Literal["heal"]
    character: Name
    amount: Annotated[Whole, Field(ge=1)] = 1


class SimpleObstacle(Roll, _Spend):
    """``simple_obstacle``: presented by the GM (no ``character``) or faced by a character (II-SIMPLE-*)."""

    do: Literal["simple_obstacle"]
    individually: StrictBool = False
    to: StrictStr | None = None
    choose: StrictStr | None = None


class ComplexObstacle(_Spend):
    """``complex_obstacle``: an Obstruction, Decisive attempts and maybe its own difficulty (II-COMPLEX-1)."""

    do: Literal["complex_obstacle"]
    obstruction: Whole | None = None
    attempts: Whole | None = None
    difficulty: Whole | None = None


class RegularAction(Roll):
    """``regular_action``: automatic or rolled, against the Obstruction (II-COMPLEX-2/3/4)."""

    do: Literal["regular_action"]


class DecisiveAction(Roll):
    """``decisive_action``: a Talent Roll against the Obstruction (II-COMPLEX-6/7)."""

    do: Literal["decisive_action"]


class UseSkill(Roll):
    """``use_skill``: an owned advanced Skill, an Advanced Action (II-SKILL-1/5); no choice, no modifiers."""

    do: Literal["use_skill"]
    excluded: ClassVar[frozenset[str]] = frozenset({"choice", "skills"})
    skill: Name
    target: StrictStr | None = None


class RecreateSkill(Roll):
    """``recreate_skill``: a Skill the character lacks, from the rules' base d6 with its cost (II-SKILL-3)."""

    do: Literal["recreate_skill"]
    excluded: ClassVar[frozenset[str]] = frozenset({"dice", "skills"})
    skill: Any = None
    target: StrictStr | None = None


class AbilityRoll(IiCommand):
    """``ability_roll``: an Ability Roll, the d6 plus the Ability's dice, no Crisis (II-ROLL-1)."""

    do: Literal["ability_roll"]
    character: Name | None = None
    ability: Name
    advantage: Count = 0
    disadvantage: Count = 0
    dice: Whole | None = None
    faces: list[Any] | None = None
    visibility: Visibility = "public"
    against: Count | None = None


class StartConflict(_Spend):
    """``start_conflict``: the opposition enters with its sheets (II-FLOW-1)."""

    do: Literal["start_conflict"]
    enemies: Any = None


class Attack(Roll):
    """``regular_attack`` / ``decisive_attack``: a Talent Roll against a target's defence (II-FLOW-2/3)."""

    do: Literal["regular_attack", "decisive_attack"]
    target: Name
    ability: StrictStr | None = None


class Move(IiCommand):
    """``move``: a participant spends its action of the round on anything but an attack (II-FLOW-1)."""

    do: Literal["move"]
    character: Name
    text: StrictStr | None = None


class YieldConflict(IiCommand):
    """``yield``: one side yields and the conflict ends (II-FLOW-4)."""

    do: Literal["yield"]
    side: StrictStr | None = None


class EndConflict(IiCommand):
    """``end_conflict``: the GM ends the conflict, naming a winner or none."""

    do: Literal["end_conflict"]
    winner: StrictStr | None = None
    reason: StrictStr | None = None


MODELS: dict[str, type[IiCommand]] = {
    "add_character": AddCharacter,
    "start_scene": StartScene,
    "end_scene": EndScene,
    "add_trigger": AddTrigger,
    "rearm_trigger": RearmTrigger,
    "adjust_crisis": AdjustCrisis,
    "add_tension": AddTension,
    "spend_tension": SpendTension,
    "rest": Rest,
    "learn": Learn,
    "heal": Heal,
    "simple_obstacle": SimpleObstacle,
    "complex_obstacle": ComplexObstacle,
    "regular_action": RegularAction,
    "decisive_action": DecisiveAction,
    "use_skill": UseSkill,
    "recreate_skill": RecreateSkill,
    "ability_roll": AbilityRoll,
    "start_conflict": StartConflict,
    "regular_attack": Attack,
    "decisive_attack": Attack,
    "move": Move,
    "yield": YieldConflict,
    "end_conflict": EndConflict,
}
"""The model of each command, by its ``do:`` name."""


def _keys(model: type[BaseModel]) -> list[str]:
    excluded: frozenset[str] = getattr(model, "excluded", frozenset())
    return sorted(name for name in model.model_fields if name not in excluded)


def _where(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path = f"{path}[{part}]" if isinstance(part, int) else (f"{path}.{part}" if path else str(part))
    return path


def _expected(item: Mapping[str, Any]) -> str:
    kind, ctx = item["type"], item.get("ctx") or {}
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "must be a whole number"
    if kind in ("greater_than_equal", "less_than_equal") and abs(ctx.get("le", 0)) == MAX_WHOLE_NUMBER:
        return f"must be a whole number between -{MAX_WHOLE_NUMBER} and {MAX_WHOLE_NUMBER}"
    if kind in ("greater_than_equal", "less_than_equal") and ctx.get("ge") == -MAX_WHOLE_NUMBER:
        return f"must be a whole number between -{MAX_WHOLE_NUMBER} and {MAX_WHOLE_NUMBER}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx['ge']}"
    phrases = {
        "bool_type": "must be true or false",
        "string_type": "must be a text",
        "string_too_short": "must be a non-empty text",
        "list_type": "must be a list",
        "dict_type": "must be a mapping",
        "literal_error": f"must be one of {ctx.get('expected')}",
    }
    return phrases.get(kind, f"is not accepted: {item['msg']}")


def refusal(model: type[BaseModel], do: str, item: Mapping[str, Any]) -> MalformedCommand:
    """The friendly refusal of one pydantic error of ``model``: the command (or "odds query"), the field,
    what was expected and what came, with the field's rule when its range is a rule's."""
    loc = tuple(item["loc"])
    if item["type"] == "union_tag_invalid" or not loc:
        return MalformedCommand(f"{do}: {item['msg']}", code="bad_field")
    path = _where(loc)
    # A union (text or mapping) reports each member; the first word of its location is the field.
    if item["type"] == "extra_forbidden":
        expected = ", ".join(_keys(model))
        return MalformedCommand(
            f"{do}: unknown key {path!r}; expected one of: {expected}", code="unknown_key", path=path
        )
    if item["type"] == "missing":
        return MalformedCommand(f"{do}: {path} is required", code="missing_field", path=path)
    field = model.model_fields.get(str(loc[0]))
    extra = field.json_schema_extra if field is not None else None
    rule = extra.get("rule") if isinstance(extra, dict) else None
    message = f"{do}: {path} {_expected(item)}, got {excerpt(item.get('input'))}"
    return MalformedCommand(
        message, code="bad_field", path=path, rule=rule if isinstance(rule, str) else None
    )


def parse_command(raw: Any) -> IiCommand:
    """The typed command for a raw mapping, or MalformedCommand saying what was expected."""
    if not isinstance(raw, Mapping):
        raise MalformedCommand("a command is a mapping with do: NAME", code="malformed")
    do = raw.get("do")
    model = MODELS.get(do) if isinstance(do, str) else None
    if model is None:
        known = ", ".join(sorted(MODELS))
        raise MalformedCommand(
            f"unknown command {do!r}; expected one of: {known}", code="unknown_command", path="do"
        )
    excluded: frozenset[str] = getattr(model, "excluded", frozenset())
    for key in raw:
        if key in excluded:
            expected = ", ".join(_keys(model))
            raise MalformedCommand(
                f"{do}: unknown key {key!r}; expected one of: {expected}", code="unknown_key", path=str(key)
            )
    try:
        return model.model_validate(dict(raw))
    except ValidationError as error:
        raise refusal(model, str(do), error.errors()[0]) from None


def check_base(value: int | None, default: int, span: Any, *, key: str, do: str, rule: str | None) -> int:
    """A base d6 count (II-ROLL-5): ``value`` or ``default``, within the rules' ``span.min..max``.

    The same range holds wherever a base d6 count is set: a scene's difficulty, an obstacle's, one action's
    ``dice:``, an odds query's.
    """
    chosen = default if value is None else value
    if not span.min <= chosen <= span.max:
        raise MalformedCommand(
            f"{do}: {key} (the base d6 count) must lie between {span.min} and {span.max}, got {chosen}",
            code="bad_field",
            rule=rule,
            path=key,
        )
    return chosen
