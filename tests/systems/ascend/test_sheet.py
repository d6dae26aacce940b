"""Hero sheets: the pydantic model, its JSON Schema, and validation against every AS-HERO rule at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from talespin.systems import MalformedCommand, get_system
from talespin.systems.ascend import Hero, check_hero, hero_schema, load_rules, parse_hero

ROOT = Path(__file__).resolve().parents[3]


def test_a_sheet_holds_five_kinds_of_named_ratings(susan_sheet: dict[str, Any]) -> None:
    """Skills, Convictions, Traits, Backgrounds and Aids are mappings from name to rating."""
    # rule: AS-HERO-1
    hero = parse_hero(susan_sheet)
    assert hero.ratings("skills")["Athletics"] == 3
    assert hero.ratings("convictions")["Protect the weak"] == 4
    assert hero.ratings("traits") == {"Agility": 3, "Strength": 2}
    assert hero.ratings("backgrounds") == {"Avanus": 1}
    assert hero.ratings("aids") == {"Climbing rope": 1}


def test_an_adversary_is_the_same_sheet_with_kinds_left_out() -> None:
    """A sheet may leave out kinds it has none of; they are empty."""
    # rule: AS-HERO-1
    ghost = parse_hero({"name": "Ghost", "skills": {"Haunting": 4}})
    assert ghost.aids == {}
    assert get_system("ascend").validate_sheet({"name": "Ghost"}) == {
        "valid": True,
        "cost": None,
        "errors": [],
    }


def test_ratings_outside_zero_to_nine_are_refused_with_their_path(susan_sheet: dict[str, Any]) -> None:
    """A rating of 10 or −1 is an AS-HERO-2 error at ``traits.Agility``."""
    # rule: AS-HERO-2
    sheet = susan_sheet
    sheet["traits"]["Agility"] = 10
    sheet["skills"]["Stealth"] = -1
    issues = check_hero(sheet)
    assert {(i["rule"], i["path"]) for i in issues} == {
        ("AS-HERO-2", "traits.Agility"),
        ("AS-HERO-2", "skills.Stealth"),
    }
    assert "outside 0–9" in issues[0]["message"]


def test_a_variant_widens_the_rating_range(susan_sheet: dict[str, Any]) -> None:
    """The rating range is rules data: a campaign may allow 10."""
    # rule: AS-HERO-2
    sheet = susan_sheet
    sheet["traits"]["Agility"] = 10
    assert check_hero(sheet, load_rules({"ratings": {"max": 10}})) == []


def test_names_are_unique_within_their_kind(susan_sheet: dict[str, Any]) -> None:
    """Two Traits that differ only in case or spacing are the same name; a Skill may share a Trait's name."""
    # rule: AS-HERO-2
    sheet = susan_sheet
    sheet["traits"]["agility "] = 1
    sheet["skills"]["Agility"] = 2
    issues = check_hero(sheet)
    assert [(i["rule"], i["path"]) for i in issues] == [("AS-HERO-2", "traits.agility ")]


def test_every_broken_rule_is_reported_at_once() -> None:
    """Shape errors (pydantic) and rule errors come back together as {rule, path, message} rows."""
    # rule: AS-HERO-3, AS-HERO-1, AS-HERO-2
    sheet = {"skills": {"Athletics": "three"}, "traits": {"Agility": 12}, "powers": {}, "aids": []}
    issues = check_hero(sheet)
    by_path = {i["path"]: i for i in issues}
    assert set(by_path) == {"name", "skills.Athletics", "traits.Agility", "powers", "aids"}
    assert by_path["name"]["rule"] == "AS-HERO-1"
    assert by_path["skills.Athletics"]["rule"] == "AS-HERO-2"
    assert "whole number" in by_path["skills.Athletics"]["message"]
    assert by_path["traits.Agility"]["rule"] == "AS-HERO-2"
    assert by_path["powers"]["rule"] == "AS-HERO-1"
    assert "mapping" in by_path["aids"]["message"]
    assert all(set(i) == {"rule", "path", "message"} for i in issues)


def test_a_sheet_that_is_not_a_mapping_is_one_clear_error() -> None:
    """A list or a string is not a sheet."""
    # rule: AS-HERO-3
    assert check_hero(["Susan"]) == [
        {"rule": "AS-HERO-1", "path": "", "message": "a sheet is a mapping, got list"}
    ]


def test_booleans_are_not_ratings() -> None:
    """``true`` is not a rating, even though Python counts it as 1."""
    # rule: AS-HERO-2
    issues = check_hero({"name": "X", "traits": {"Agility": True}})
    assert [i["path"] for i in issues] == ["traits.Agility"]


def test_parse_hero_raises_with_every_problem_in_the_message() -> None:
    """parse_hero names the first rule and lists all of them."""
    with pytest.raises(MalformedCommand) as caught:
        parse_hero({"name": " ", "traits": {"Agility": 11}})
    assert caught.value.rule == "AS-HERO-1"
    assert "outside 0–9" in caught.value.message


def test_the_committed_schema_is_current() -> None:
    """docs/schemas/ascend-hero.schema.json is what ``talespin ascend hero schema`` prints."""
    from talespin.cli.ascend_commands import published_hero_schema

    committed = json.loads(
        (ROOT / "docs" / "schemas" / "ascend-hero.schema.json").read_text(encoding="utf-8")
    )
    assert committed == published_hero_schema()


def test_the_schema_carries_the_rating_range() -> None:
    """The schema says every rating is an integer 0–9 and no other field is allowed."""
    # rule: AS-HERO-2
    schema = hero_schema()
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["name"]
    for kind in ("skills", "convictions", "traits", "backgrounds", "aids"):
        assert schema["properties"][kind]["additionalProperties"] == {
            "type": "integer",
            "minimum": 0,
            "maximum": 9,
        }


def test_the_model_is_frozen(susan_sheet: dict[str, Any]) -> None:
    """A sheet in the state cannot be changed in place."""
    hero = Hero.model_validate(susan_sheet)
    with pytest.raises(ValueError, match="frozen"):
        hero.name = "Sue"  # type: ignore[misc]
