"""Typed commands: every command parses into its model, and a malformed one is refused naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from talespin.systems import MalformedCommand
from talespin.systems.inciting_incident import COMMANDS, new_state, odds
from talespin.systems.inciting_incident.commands import MODELS, AddTrigger, parse_command


def test_every_command_has_a_model_and_a_handler() -> None:
    """The vocabulary of the models is the vocabulary of decide."""
    assert set(MODELS) == set(COMMANDS)


def test_a_command_parses_into_its_typed_model() -> None:
    """Fields are read with their types; what is not given keeps the model's default."""
    parsed = parse_command({"do": "add_trigger", "at": 12, "every": 4, "text": "Sirens", "visibility": "gm"})
    assert isinstance(parsed, AddTrigger)
    assert (parsed.at, parsed.every, parsed.visibility, parsed.spend) == (12, 4, "gm", False)
    assert parsed.given("every") and not parsed.given("spend")


@pytest.mark.parametrize(
    ("raw", "code", "path", "rule", "words"),
    [
        (
            {"do": "add_trigger", "at": 0, "text": "x"},
            "bad_field",
            "at",
            "II-CRISIS-2",
            "at must be at least 1",
        ),
        (
            {"do": "add_trigger", "at": 3, "every": 0, "text": "x"},
            "bad_field",
            "every",
            "II-CRISIS-2",
            "every",
        ),
        ({"do": "add_tension", "amount": 0, "reason": "r"}, "bad_field", "amount", "II-RT-2", "at least 1"),
        ({"do": "add_trigger", "text": "x"}, "missing_field", "at", None, "add_trigger: at is required"),
        ({"do": "add_trigger", "at": 3, "text": "x", "colour": 1}, "unknown_key", "colour", None, "colour"),
        ({"do": "regular_action", "advantage": "two"}, "bad_field", "advantage", None, "a whole number"),
        ({"do": "regular_action", "advantage": 10**9}, "bad_field", "advantage", None, "between -10000"),
        ({"do": "start_scene", "montage": "yes"}, "bad_field", "montage", None, "true or false"),
        ({"do": "start_scene", "triggers": [3]}, "bad_field", "triggers[0]", None, "a mapping"),
        ({"do": "move", "character": ""}, "bad_field", "character", None, "a non-empty text"),
        (
            {"do": "use_skill", "character": "A", "skill": "S", "skills": []},
            "unknown_key",
            "skills",
            None,
            "skills",
        ),
        ({"do": "recreate_skill", "character": "A", "dice": 3}, "unknown_key", "dice", None, "dice"),
        ({"do": "teleport"}, "unknown_command", "do", None, "unknown command 'teleport'"),
    ],
)
def test_a_malformed_command_names_the_command_the_field_and_the_rule(
    raw: dict[str, Any], code: str, path: str, rule: str | None, words: str
) -> None:
    """The refusal says which command, which field, what was expected (and the rule, when it is a rule's)."""
    with pytest.raises(MalformedCommand) as refused:
        parse_command(raw)
    error = refused.value
    assert (error.code, error.path, error.rule) == (code, path, rule)
    assert words in error.message
    if code != "unknown_command":
        assert error.message.startswith(f"{raw['do']}: ")


def test_an_unknown_key_lists_the_keys_the_command_takes() -> None:
    """A typo is answered with the keys that would have been accepted (excluded ones not among them)."""
    with pytest.raises(MalformedCommand) as refused:
        parse_command({"do": "use_skill", "character": "A", "skill": "S", "targte": "B"})
    listed = refused.value.message.split("expected one of: ")[1].split(", ")
    assert "target" in listed and "skills" not in listed and "choice" not in listed


def test_an_odds_query_is_typed_too() -> None:
    """An odds query's numbers are checked like a command's, naming the query's field."""
    state = new_state(
        {
            "characters": [
                {
                    "name": "Ada",
                    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
                    "talents": [{"name": "Piloting", "ability": "nimbleness", "level": 5}],
                }
            ]
        }
    )
    with pytest.raises(MalformedCommand) as refused:
        odds(state, {"character": "Ada", "advantage": -1})
    assert (refused.value.path, refused.value.message) == (
        "advantage",
        "odds query: advantage must be at least 0, got -1",
    )
