"""The commands of Ascend, as typed models parsed from the mappings scripts and the table send.

A command is a mapping with ``do:`` naming it, in the imperative. One Test is described by the same keys
everywhere — a ``test`` command, each side of an ``opposed_test``, each step of an ``extended_test``::

    {do: test, hero: Susan, skill: Athletics, difficulty: 0, trait: Agility, background: Avanus,
     invoke: [Strength], narration: narrated, required: 1, faces: [0, 3, 9, 4, 7, 2]}

Shape errors (an unknown key, a wrong type, an unknown ``do``) raise
:class:`~talespin.systems.errors.MalformedCommand` with the path of the offending key; whether the rules allow
the command is decided later, by the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictStr, ValidationError, field_validator

from ...text import excerpt
from ..bounds import Whole
from ..errors import MalformedCommand
from ..registry import registered
from .rules import Narration
from .sheet import Hero

__all__ = [
    "AddHero",
    "AnyCommand",
    "AscendCommand",
    "AwardNarration",
    "Defend",
    "EndExtended",
    "ExtendedStep",
    "ExtendedTest",
    "Narrate",
    "OpposedTest",
    "RequestNarration",
    "SceneScript",
    "TestCommand",
    "TestSpec",
    "WithdrawOpposed",
    "parse_command",
    "script_schema",
]

Visibility = Literal["public", "gm"]
ItemChoice = StrictStr | list[StrictStr] | None
"""A Trait, Background or Aid by name; a list is accepted only to be refused with a clear word."""
InvokedItem = StrictStr | dict[Literal["trait", "background", "aid"], StrictStr]
"""An Invoked item by name, or ``{trait: Strength}`` when a name is shared by two kinds."""


class _Shape(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TestSpec(_Shape):
    """One Test: what is Tested, the Difficulty, the Dice Pool's items, narration, maybe dice."""

    __test__: ClassVar[bool] = False  # a rules term, not a pytest test class

    hero: StrictStr | None = None
    skill: StrictStr | None = None
    conviction: StrictStr | None = None
    difficulty: Whole | None = None
    required: Whole | None = None
    trait: ItemChoice = None
    background: ItemChoice = None
    aid: ItemChoice = None
    invoke: list[InvokedItem] = Field(default_factory=list)
    narration: Narration = "none"
    faces: list[Any] | None = None
    text: StrictStr | None = None


class TestCommand(TestSpec):
    """``test``: a Test of Skill or of Conviction, rolled or with physical faces."""

    do: Literal["test"]
    visibility: Visibility = "public"


class OpposedTest(_Shape):
    """``opposed_test``: both sides roll their own Test; more Successes wins (AS-OPP-1)."""

    do: Literal["opposed_test"]
    attacker: TestSpec
    defender: TestSpec
    visibility: Visibility = "public"


class ExtendedTest(_Shape):
    """``extended_test``: start a sequence of Tests toward a goal; ``steps`` roll at once, more may follow."""

    do: Literal["extended_test"]
    hero: StrictStr | None = None
    goal: Whole | None = None
    limit: Whole | None = None
    steps: list[TestSpec] = Field(default_factory=list)
    visibility: Visibility = "public"


class ExtendedStep(TestSpec):
    """``extended_step``: one more Test of the open extended Test (its hero by default)."""

    do: Literal["extended_step"]
    visibility: Visibility = "public"


class Defend(TestSpec):
    """``defend``: the defender's side of the proposed opposed Test, chosen by its controller (AS-OPP-1)."""

    do: Literal["defend"]
    visibility: Visibility = "public"


class WithdrawOpposed(_Shape):
    """``withdraw_opposed``: the Storyteller withdraws the opposed Test waiting for its defender."""

    do: Literal["withdraw_opposed"]


class RequestNarration(_Shape):
    """``request_narration``: a Player asks for exceptional narration for its hero's next Test (AS-POOL-3)."""

    do: Literal["request_narration"]
    hero: StrictStr
    text: StrictStr | None = None


class AwardNarration(_Shape):
    """``award_narration``: the Storyteller grants (``grant: false``: declines) exceptional narration."""

    do: Literal["award_narration"]
    hero: StrictStr
    grant: bool = True


class EndExtended(_Shape):
    """``end_extended``: the Storyteller closes the open extended Test where it stands."""

    do: Literal["end_extended"]


class Narrate(_Shape):
    """``narrate``: an outcome told without dice, when nothing is at stake (AS-TEST-5)."""

    do: Literal["narrate"]
    hero: StrictStr | None = None
    text: StrictStr
    success: bool = True
    visibility: Visibility = "public"


class AddHero(_Shape):
    """``add_character`` (alias ``add_hero``): a Hero or Adversary joins, from its sheet."""

    do: Literal["add_character", "add_hero"]
    sheet: dict[str, Any]


AnyCommand = (
    TestCommand
    | OpposedTest
    | Defend
    | WithdrawOpposed
    | ExtendedTest
    | ExtendedStep
    | EndExtended
    | Narrate
    | RequestNarration
    | AwardNarration
    | AddHero
)
AscendCommand = Annotated[AnyCommand, Field(discriminator="do")]


_ENTRY = registered(__package__ or __name__)
_SYSTEM_NAMES: list[JsonValue] = [_ENTRY.name, *_ENTRY.aliases]


class SceneScript(_Shape):
    """A whole scene script: the system, rules-data overrides, the heroes (sheets or paths), the commands."""

    # Ascend's name or one of its aliases, as the registry spells them (the schema lists them as an enum)
    system: StrictStr = Field(default=_ENTRY.name, json_schema_extra={"enum": _SYSTEM_NAMES})
    description: StrictStr | None = None
    variant: dict[str, Any] = Field(default_factory=dict)
    heroes: list[Hero | StrictStr] = Field(default_factory=list)
    commands: list[AscendCommand] = Field(default_factory=list)

    @field_validator("system")
    @classmethod
    def _ascend(cls, value: str) -> str:
        if value not in _SYSTEM_NAMES:
            raise ValueError(f"a scene script of this system names it one of {_SYSTEM_NAMES}, got {value!r}")
        return value


def script_schema() -> dict[str, Any]:
    """The JSON Schema of an Ascend scene script (committed as docs/schemas/ascend-script.schema.json)."""
    schema = SceneScript.model_json_schema()
    schema["title"] = "Ascend scene script"
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


_MODELS: dict[str, type[_Shape]] = {
    "test": TestCommand,
    "opposed_test": OpposedTest,
    "extended_test": ExtendedTest,
    "extended_step": ExtendedStep,
    "end_extended": EndExtended,
    "defend": Defend,
    "withdraw_opposed": WithdrawOpposed,
    "narrate": Narrate,
    "request_narration": RequestNarration,
    "award_narration": AwardNarration,
    "add_character": AddHero,
    "add_hero": AddHero,
}


def _describe(item: Mapping[str, Any]) -> tuple[str, str]:
    loc = ".".join(str(part) for part in item["loc"])
    if item["type"] == "extra_forbidden":
        return loc, f"unknown key {loc!r}"
    if item["type"] == "missing":
        return loc, f"{loc!r} is required"
    return loc, f"{loc}: {item['msg']} (got {excerpt(item.get('input'))})"


def parse_command(raw: Any) -> AnyCommand:
    """The typed command for a raw mapping, or MalformedCommand saying what was expected."""
    if not isinstance(raw, Mapping):
        raise MalformedCommand(f"a command is a mapping with 'do', got {type(raw).__name__}", path="")
    do = raw.get("do")
    model = _MODELS.get(do) if isinstance(do, str) else None
    if model is None:
        known = ", ".join(sorted(_MODELS))
        raise MalformedCommand(
            f"unknown command {do!r}; expected one of: {known}", code="unknown_command", path="do"
        )
    try:
        parsed = model.model_validate(dict(raw))
    except ValidationError as error:
        path, message = _describe(error.errors()[0])
        raise MalformedCommand(f"{do}: {message}", path=path) from None
    return parsed  # type: ignore[return-value]
