"""Character sheets: every II-CHAR rule reported at once, cost, defences, maximum hits, the schema."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from talespin.cli.ii_commands import character_json_schema
from talespin.systems import get_system
from talespin.systems.inciting_incident import (
    check_sheet,
    default_rules,
    defences,
    load_rules,
    max_hits,
    sheet_cost,
)

ROOT = Path(__file__).resolve().parents[3]


def _errors(sheet: dict[str, Any]) -> list[tuple[str, str]]:
    verdict = get_system("ii").validate_sheet(sheet)
    return [(e["rule"], e["path"]) for e in verdict["errors"]]


def test_valid_sheet_has_cost(h: Any) -> None:
    """A valid sheet is valid and costs the sum of its level prices."""
    # rule: II-CHAR-5
    verdict = get_system("ii").validate_sheet(h.ADA)
    assert verdict == {"valid": True, "cost": 6 + 10 + 15 + 15 + 10 + 6, "errors": []}


def test_three_abilities_with_levels(h: Any) -> None:
    """A character has exactly the three Abilities, each 0–9."""
    # rule: II-CHAR-1
    sheet = copy.deepcopy(h.ADA)
    sheet["abilities"] = {"fortitude": 10, "perseverance": 4, "charm": 2}
    sheet["talents"] = []
    assert _errors(sheet) == [
        ("II-CHAR-1", "abilities.nimbleness"),
        ("II-CHAR-1", "abilities.fortitude"),
        ("II-CHAR-1", "abilities.charm"),
    ]


def test_talent_rules(h: Any) -> None:
    """Talent names are unique, levels 0–9 and never above the parent Ability."""
    # rule: II-CHAR-2
    sheet = copy.deepcopy(h.ADA)
    sheet["talents"][1]["name"] = "Piloting"
    sheet["talents"][2]["level"] = 5
    assert _errors(sheet) == [("II-CHAR-2", "talents[1].name"), ("II-CHAR-2", "talents[2].level")]


def test_ability_holds_at_most_its_level_in_talents(h: Any) -> None:
    """An Ability of level 1 holds one Talent; a second is refused by path."""
    # rule: II-CHAR-3
    sheet = copy.deepcopy(h.BRAM)
    sheet["abilities"]["perseverance"] = 1
    sheet["talents"][1]["level"] = 1
    sheet["talents"].append({"name": "Cooking", "ability": "perseverance", "level": 1})
    assert _errors(sheet) == [("II-CHAR-3", "talents[2]")]


def test_skill_shape(h: Any) -> None:
    """A Skill needs a cost ≥ 0, a known kind and known effects."""
    # rule: II-CHAR-6 II-SKILL-2
    sheet = copy.deepcopy(h.ADA)
    sheet["talents"][0]["skills"][0]["cost"] = -1
    sheet["talents"][0]["skills"][1]["effects"] = {"teleport": 1}
    assert _errors(sheet) == [
        ("II-CHAR-6", "talents[0].skills[0].cost"),
        ("II-SKILL-2", "talents[0].skills[1].effects.teleport"),
    ]
    sheet["talents"][0]["skills"][2]["kind"] = "passive"
    assert _errors(sheet) == [
        ("II-CHAR-6", "talents[0].skills[0].cost"),
        ("II-SKILL-2", "talents[0].skills[1].effects.teleport"),
        ("II-CHAR-6", "talents[0].skills[2].kind"),
    ]


def test_one_skill_reports_its_bad_kind_cost_and_effect_at_once(h: Any) -> None:
    """A Skill with a bad kind, a negative cost and an unknown effect reports all three, not the first."""
    # rule: II-CHAR-7 II-CHAR-6 II-SKILL-2
    sheet = copy.deepcopy(h.ADA)
    sheet["talents"][0]["skills"] = [{"name": "Odd", "cost": -2, "kind": "weird", "effects": {"zap": 1}}]
    assert _errors(sheet) == [
        ("II-CHAR-6", "talents[0].skills[0].kind"),
        ("II-CHAR-6", "talents[0].skills[0].cost"),
        ("II-SKILL-2", "talents[0].skills[0].effects.zap"),
    ]
    sheet["talents"][0]["skills"][0]["cost"] = "x"  # a shape error too: still every rule beside it
    assert _errors(sheet) == [
        ("II-CHAR-6", "talents[0].skills[0].cost"),
        ("II-CHAR-6", "talents[0].skills[0].kind"),
        ("II-SKILL-2", "talents[0].skills[0].effects.zap"),
    ]


def test_every_error_at_once_and_nothing_clamped(h: Any) -> None:
    """Validation lists every broken rule with rule, path and message, and changes nothing."""
    # rule: II-CHAR-7
    sheet = copy.deepcopy(h.ADA)
    sheet["abilities"]["nimbleness"] = 3
    before = copy.deepcopy(sheet)
    verdict = get_system("ii").validate_sheet(sheet)
    assert not verdict["valid"]
    assert verdict["cost"] is None
    assert [e["path"] for e in verdict["errors"]] == ["talents[0].level", "talents[1].level"]
    assert all(e["message"] for e in verdict["errors"])
    assert sheet == before


def test_shape_errors_become_rule_rows() -> None:
    """Pydantic shape errors come back as rule/path/message rows too."""
    # rule: II-CHAR-7
    rows = _errors({"name": "X", "abilities": {"fortitude": "high"}, "talents": [{"name": "A"}]})
    assert ("II-CHAR-1", "abilities.fortitude") in rows
    assert ("II-CHAR-2", "talents[0].ability") in rows
    assert _errors([1, 2]) == [("II-CHAR-7", "sheet")]  # type: ignore[arg-type]


def test_budget_is_enforced_only_when_set(h: Any) -> None:
    """No budget by default; a campaign budget refuses a costlier sheet."""
    # rule: II-CHAR-5
    rules = load_rules({"budget": 50})
    _, errors = check_sheet(h.ADA, rules)
    assert [e.rule for e in errors] == ["II-CHAR-5"]
    assert check_sheet(h.ADA, default_rules())[1] == []


def test_defences_and_max_hits(h: Any) -> None:
    """Defences are max(1, 9 − level) per Ability; maximum hits are 1 + Fortitude."""
    # rule: II-CHAR-8 II-CHAR-9
    sheet, _ = check_sheet(h.ADA, default_rules())
    assert sheet is not None
    assert defences(sheet, default_rules()) == {"fortitude": 6, "perseverance": 5, "nimbleness": 4}
    assert max_hits(sheet, default_rules()) == 4
    assert sheet_cost(sheet, default_rules()) == 62
    strong, _ = check_sheet(
        {"name": "S", "abilities": {"fortitude": 9, "perseverance": 9, "nimbleness": 9}}, default_rules()
    )
    assert strong is not None
    assert defences(strong, default_rules())["fortitude"] == 1
    assert defences(strong, load_rules({"defences": {"minimum": 2}}))["fortitude"] == 2


def test_published_schema_is_current() -> None:
    """docs/schemas/ii-character.schema.json is what `talespin ii character schema` prints."""
    published = json.loads(
        (ROOT / "docs" / "schemas" / "ii-character.schema.json").read_text(encoding="utf-8")
    )
    assert published == character_json_schema()
    assert set(published["required"]) == {"name", "abilities"}


def test_variant_may_restrict_skill_kinds(h: Any) -> None:
    """A campaign that allows only modifier Skills refuses advanced ones, by path."""
    # rule: II-CHAR-6
    _, errors = check_sheet(h.BRAM, load_rules({"skills": {"kinds": ["modifier"]}}))
    assert [(e.rule, e.path) for e in errors] == [
        ("II-CHAR-6", "talents[1].skills[0].kind"),
        ("II-CHAR-6", "talents[1].skills[1].kind"),
        ("II-CHAR-6", "talents[1].skills[2].kind"),
    ]


def test_an_unknown_key_does_not_hide_the_rules_a_sheet_breaks(h: Any) -> None:
    """A sheet with an unknown key and a Talent above its Ability reports both at once."""
    # rule: II-CHAR-7 II-CHAR-2
    sheet = copy.deepcopy(h.ADA)
    sheet["notes"] = "a typo of a key"
    sheet["talents"][0]["colour"] = "red"
    sheet["talents"][0]["level"] = 6
    assert sorted(_errors(sheet)) == [
        ("II-CHAR-2", "talents[0].colour"),
        ("II-CHAR-2", "talents[0].level"),
        ("II-CHAR-7", "notes"),
    ]
    assert sheet["notes"] == "a typo of a key" and sheet["talents"][0]["colour"] == "red"


def test_a_type_error_in_a_talent_does_not_hide_the_other_rules(h: Any) -> None:
    """A Talent whose level is not a number is reported, and so are the rules the rest of the sheet breaks."""
    # rule: II-CHAR-7 II-CHAR-2 II-CHAR-6
    sheet = copy.deepcopy(h.ADA)
    sheet["talents"][1]["level"] = "a"
    sheet["talents"][2]["level"] = 6
    sheet["talents"].append({"name": "Piloting", "ability": "nimbleness", "level": 2})
    sheet["talents"].append({"name": "Cooking", "ability": "perseverance", "level": 1, "skills": "none"})
    verdict = get_system("ii").validate_sheet(sheet)
    assert verdict["valid"] is False and verdict["cost"] is None
    assert all(set(e) == {"rule", "path", "message"} and e["message"] for e in verdict["errors"])
    assert [(e["rule"], e["path"]) for e in verdict["errors"]] == [
        ("II-CHAR-2", "talents[1].level"),
        ("II-CHAR-6", "talents[4].skills"),
        ("II-CHAR-2", "talents[2].level"),
        ("II-CHAR-2", "talents[3].name"),
    ]


def test_a_type_error_in_an_ability_does_not_hide_the_other_rules(h: Any) -> None:
    """An Ability that is not a number is reported once; the other Abilities and their Talents are checked."""
    # rule: II-CHAR-7 II-CHAR-1 II-CHAR-2 II-CHAR-6
    sheet = copy.deepcopy(h.ADA)
    sheet["abilities"] = {"fortitude": "x", "perseverance": 12, "nimbleness": 5}
    sheet["talents"][0]["level"] = 7
    sheet["talents"][0]["skills"][0]["cost"] = -2
    sheet["talents"].append({"name": "Brawling", "ability": "fortitude", "level": 9})
    sheet["talents"].append({"name": "Brawling", "ability": "fortitude", "level": 8})
    assert _errors(sheet) == [
        ("II-CHAR-1", "abilities.fortitude"),
        ("II-CHAR-1", "abilities.perseverance"),
        ("II-CHAR-2", "talents[0].level"),
        ("II-CHAR-6", "talents[0].skills[0].cost"),
        ("II-CHAR-2", "talents[4].name"),
    ]


def test_a_talent_broken_in_one_field_still_counts_in_the_rules(h: Any) -> None:
    """The fields of a Talent that do parse are still checked: its name, level and place under its Ability."""
    # rule: II-CHAR-7 II-CHAR-2 II-CHAR-3
    sheet = copy.deepcopy(h.BRAM)
    sheet["abilities"]["nimbleness"] = 1
    sheet["talents"].append({"name": "Brawling", "ability": "nimbleness", "level": 4, "description": 3})
    sheet["talents"].append({"name": "Running", "ability": "nimbleness", "level": 1})
    assert _errors(sheet) == [
        ("II-CHAR-2", "talents[2].description"),
        ("II-CHAR-2", "talents[2].name"),
        ("II-CHAR-2", "talents[2].level"),
        ("II-CHAR-3", "talents[3]"),
    ]


@given(
    sheet=st.recursive(
        st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
        max_leaves=12,
    ).map(lambda body: {"name": "R", "abilities": body, "talents": body})
)
@settings(max_examples=60, deadline=None)
def test_any_malformed_sheet_gets_a_verdict(sheet: dict[str, Any]) -> None:
    """Whatever a sheet holds, validation answers the contract's shape and never raises."""
    # rule: II-CHAR-7
    verdict = get_system("ii").validate_sheet(sheet)
    assert set(verdict) == {"valid", "cost", "errors"}
    assert verdict["valid"] is (not verdict["errors"])
    assert all(set(e) == {"rule", "path", "message"} for e in verdict["errors"])
