"""Hero (and Adversary) sheets: a pydantic model, its JSON Schema, and validation against every AS-HERO rule.

A sheet names the things a Test is *of* (Skills and Convictions) and the things that size the Dice Pool
(Traits, Backgrounds and Aids), each a mapping from name to rating (AS-HERO-1)::

    name: Susan
    skills: {Athletics: 3}
    convictions: {Protect the weak: 4}
    traits: {Agility: 3, Strength: 2}
    backgrounds: {Avanus: 1}
    aids: {}

:func:`check_hero` reports every broken rule at once (AS-HERO-3) as ``{"rule", "path", "message"}`` rows —
pydantic's shape errors included, turned into the same rows — and :func:`parse_hero` returns the typed
sheet or raises :class:`~talespin.systems.errors.MalformedCommand` naming the first problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..bounds import Whole
from ..errors import MalformedCommand
from .rule_ids import HERO_1, HERO_2
from .rules import Rules, default_rules

__all__ = [
    "ITEM_KIND",
    "KINDS",
    "POOL_KINDS",
    "TESTED_KINDS",
    "Hero",
    "Issue",
    "check_hero",
    "hero_schema",
    "parse_hero",
]

TESTED_KINDS: Final = ("skills", "convictions")
"""The kinds a Test is of (AS-TEST-1)."""
POOL_KINDS: Final = ("traits", "backgrounds", "aids")
"""The kinds that size the Dice Pool (AS-POOL-1), in the order the rules name them."""
KINDS: Final = TESTED_KINDS + POOL_KINDS
ITEM_KIND: Final = {"traits": "trait", "backgrounds": "background", "aids": "aid"}
"""The singular of each pool kind, as commands name it (``trait: Agility``)."""

Issue = dict[str, str]
"""One broken rule: ``{"rule": "AS-HERO-2", "path": "traits.Agility", "message": "…"}``."""

Ratings = Annotated[dict[str, Whole], Field(default_factory=dict)]


class Hero(BaseModel):
    """A Hero or an Adversary (the same sheet): a name and five mappings from name to rating."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1, description="The Hero's or Adversary's name.")]
    skills: Ratings
    convictions: Ratings
    traits: Ratings
    backgrounds: Ratings
    aids: Ratings

    def ratings(self, kind: str) -> dict[str, int]:
        """The mapping of one kind (``"traits"``, ``"skills"`` …)."""
        found: dict[str, int] = getattr(self, kind)
        return found

    def to_json(self) -> dict[str, Any]:
        """The sheet as JSON, every kind present."""
        return self.model_dump()


def hero_schema(rules: Rules | None = None) -> dict[str, Any]:
    """The JSON Schema of a sheet, with the rating range of ``rules`` (the shipped rules by default)."""
    rules = rules or default_rules()
    schema = Hero.model_json_schema()
    schema["title"] = "Ascend hero"
    schema["description"] = "A Hero or Adversary of Ascend: Skills and Convictions are Tested; Traits, "
    schema["description"] += "Backgrounds and Aids size the Dice Pool. Every rating is an integer."
    for kind in KINDS:
        field = schema["properties"][kind]
        field["additionalProperties"] = {
            "type": "integer",
            "minimum": rules.ratings.min,
            "maximum": rules.ratings.max,
        }
        field["description"] = f"{kind.capitalize()}: a mapping from name to rating."
    return schema


def _shape_issues(error: ValidationError) -> list[Issue]:
    issues = []
    for item in error.errors():
        loc = [str(part) for part in item["loc"]]
        rule = HERO_2 if len(loc) == 2 and loc[0] in KINDS else HERO_1
        kind: Literal["missing", "extra", "other"] = (
            "missing"
            if item["type"] == "missing"
            else "extra"
            if item["type"] == "extra_forbidden"
            else "other"
        )
        if kind == "missing":
            message = f"{loc[-1]!r} is required"
        elif kind == "extra":
            message = f"unknown field {loc[-1]!r}; a sheet has name, {', '.join(KINDS)}"
        elif rule == HERO_2:
            message = f"a rating must be a whole number, got {item.get('input')!r}"
        elif len(loc) == 1 and loc[0] in KINDS:
            message = f"{loc[0]} must be a mapping from name to rating"
        else:
            message = str(item["msg"])
        issues.append({"rule": rule, "path": ".".join(loc), "message": message})
    return issues


def _name_issues(raw: Mapping[str, Any]) -> list[Issue]:
    issues: list[Issue] = []
    name = raw.get("name")
    if isinstance(name, str) and not name.strip():
        issues.append({"rule": HERO_1, "path": "name", "message": "the name must not be blank"})
    return issues


def _rating_issues(raw: Mapping[str, Any], rules: Rules) -> list[Issue]:
    low, high = rules.ratings.min, rules.ratings.max
    issues: list[Issue] = []
    for kind in KINDS:
        entries = raw.get(kind)
        if not isinstance(entries, Mapping):
            continue
        seen: dict[str, str] = {}
        for item, rating in entries.items():
            path = f"{kind}.{item}"
            if not isinstance(item, str) or not item.strip():
                issues.append({"rule": HERO_2, "path": path, "message": f"{kind} need a non-blank name"})
                continue
            folded = " ".join(item.split()).casefold()
            if folded in seen:
                issues.append(
                    {
                        "rule": HERO_2,
                        "path": path,
                        "message": f"{item!r} repeats {seen[folded]!r}: names are unique within {kind}",
                    }
                )
            seen.setdefault(folded, item)
            if isinstance(rating, int) and not isinstance(rating, bool) and not low <= rating <= high:
                issues.append(
                    {"rule": HERO_2, "path": path, "message": f"rating {rating} is outside {low}–{high}"}
                )
    return issues


def check_hero(raw: Any, rules: Rules | None = None) -> list[Issue]:
    """Every broken AS-HERO rule of a sheet, at once (an empty list for a valid sheet)."""
    rules = rules or default_rules()
    if not isinstance(raw, Mapping):
        return [{"rule": HERO_1, "path": "", "message": f"a sheet is a mapping, got {type(raw).__name__}"}]
    issues: list[Issue] = []
    try:
        Hero.model_validate(raw)
    except ValidationError as error:
        issues.extend(_shape_issues(error))
    issues.extend(_name_issues(raw))
    issues.extend(_rating_issues(raw, rules))
    return issues


def parse_hero(raw: Any, rules: Rules | None = None, *, path: str = "sheet") -> Hero:
    """The typed sheet, or MalformedCommand naming the first broken rule (all of them in the message)."""
    issues = check_hero(raw, rules)
    if issues:
        first = issues[0]
        listed = "; ".join(f"{i['path'] or 'sheet'}: {i['message']} ({i['rule']})" for i in issues)
        where = f"{path}.{first['path']}" if first["path"] else path
        raise MalformedCommand(
            f"invalid hero sheet: {listed}", rule=first["rule"], path=where, code="invalid_sheet"
        )
    return Hero.model_validate(raw)
