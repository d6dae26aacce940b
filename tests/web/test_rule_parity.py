"""One rule, two doors: a command refused in a scene script is refused over HTTP with the same rule, and
the campaign is unchanged."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_support import Campaign

from talespin.systems.ascend.script import ScriptError as AscendScriptError
from talespin.systems.ascend.script import run_script as run_ascend
from talespin.systems.inciting_incident.script import ScriptError, run_script

ADA: dict[str, Any] = {
    "name": "Ada",
    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
    "talents": [
        {
            "name": "Piloting",
            "ability": "nimbleness",
            "level": 5,
            "skills": [{"name": "Reckless", "cost": 2, "kind": "modifier", "effects": {"crisis": 2}}],
        }
    ],
}
BRAM: dict[str, Any] = {
    "name": "Bram",
    "abilities": {"fortitude": 5, "perseverance": 3, "nimbleness": 2},
    "talents": [
        {
            "name": "Medicine",
            "ability": "perseverance",
            "level": 3,
            "skills": [
                {"name": "Calm Voice", "cost": 4, "kind": "advanced", "effects": {"reduce_crisis": 3}}
            ],
        }
    ],
}
ACTION = {"do": "start_scene", "kind": "action", "difficulty": 5}
COOP = {"do": "start_scene", "kind": "cooperative"}
CALM = {
    "do": "use_skill",
    "character": "Bram",
    "skill": "Calm Voice",
    "faces": [[6, 6, 1], [5], [5], [1], [1], [8, 1]],
}

ODD_SKILL = {"name": "Odd", "cost": -2, "kind": "weird", "effects": {"zap": 1}}
II_CASES: list[tuple[str, list[dict[str, Any]], dict[str, Any], str]] = [
    (
        "a Skill broken three ways",
        [],
        {
            "do": "add_character",
            "sheet": {**ADA, "name": "Odd", "talents": [{**ADA["talents"][0], "skills": [ODD_SKILL]}]},
        },
        "II-CHAR-6",
    ),
    ("no obstacle", [ACTION], {"do": "simple_obstacle", "character": "Ada", "choice": "auto"}, "II-SIMPLE-4"),
    (
        "obstacle passed",
        [ACTION, {"do": "simple_obstacle"}, {"do": "simple_obstacle", "character": "Ada", "choice": "auto"}],
        {"do": "simple_obstacle", "character": "Bram", "choice": "auto"},
        "II-SIMPLE-4",
    ),
    (
        "ability learned",
        [COOP],
        {"do": "learn", "character": "Ada", "ability": "fortitude", "level": 9},
        "II-SCENE-2",
    ),
    (
        "second change",
        [COOP, {"do": "use_skill", "character": "Bram", "skill": "Calm Voice"}],
        {
            "do": "learn",
            "character": "Bram",
            "talent": {"name": "Medicine", "ability": "perseverance", "level": 2},
        },
        "II-SCENE-2",
    ),
    ("tension for nothing", [ACTION], {"do": "spend_tension", "on": "trigger"}, "II-RT-3"),
    (
        "enemy for nothing",
        [{"do": "start_scene", "kind": "conflict"}],
        {"do": "spend_tension", "on": "enemy"},
        "II-RT-3",
    ),
    (
        "advanced twice in a row",
        [ACTION, {"do": "complex_obstacle", "obstruction": 20}, CALM],
        CALM,
        "II-COMPLEX-5",
    ),
    (
        "advanced twice in a round",
        [
            {"do": "start_scene", "kind": "conflict"},
            {"do": "start_conflict", "enemies": [{**ADA, "name": "Foe"}]},
            CALM,
        ],
        CALM,
        "II-FLOW-1",
    ),
    (
        "zero dice",
        [ACTION, {"do": "simple_obstacle"}],
        {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "dice": 0},
        "II-ROLL-5",
    ),
    (
        "fifty dice",
        [ACTION],
        {"do": "ability_roll", "character": "Ada", "ability": "nimbleness", "dice": 50},
        "II-ROLL-5",
    ),
]


def _script_rule(commands: list[dict[str, Any]]) -> str | None:
    script = {
        "system": "inciting-incident",
        "rising_tension": 5,
        "characters": [ADA, BRAM],
        "commands": commands,
    }
    with pytest.raises(ScriptError) as refused:
        run_script(script, random.Random(1))
    assert refused.value.command_index == len(commands) - 1
    return refused.value.rule


def _http_rule(
    client: TestClient, system: str, sheets: list[dict[str, Any]], commands: list[dict[str, Any]]
) -> str:
    campaign = Campaign.create(client, system)
    for sheet in sheets:
        campaign.send({"do": "add_character", "sheet": sheet})
    if system == "ii":
        campaign.send({"do": "add_tension", "amount": 5, "reason": "the story so far"})
    for command in commands[:-1]:
        campaign.send(command)
    before = campaign.state()
    response = campaign.post(commands[-1])
    assert response.status_code == 422, response.text
    assert campaign.state() == before
    return str(response.json()["error"]["rule"])


@pytest.mark.parametrize(
    ("setup", "command", "rule"), [c[1:] for c in II_CASES], ids=[c[0] for c in II_CASES]
)
def test_inciting_incident_refusals_match(
    client: TestClient, setup: list[dict[str, Any]], command: dict[str, Any], rule: str
) -> None:
    """The script and the HTTP table refuse the same Inciting Incident command with the same rule."""
    # rule: II-SIMPLE-4 II-SCENE-2 II-RT-3 II-COMPLEX-5 II-FLOW-1 II-ROLL-5 II-SKILL-5
    assert _script_rule([*setup, command]) == rule
    assert _http_rule(client, "ii", [ADA, BRAM], [*setup, command]) == rule


def test_every_broken_rule_of_a_skill_is_reported_over_http(ii: Campaign) -> None:
    """A sheet whose Skill has a bad kind, a negative cost and an unknown effect names all three."""
    # rule: II-CHAR-7
    sheet = {**ADA, "talents": [{**ADA["talents"][0], "skills": [ODD_SKILL]}]}
    message = ii.post({"do": "add_character", "sheet": sheet}).json()["error"]["message"]
    for path in ("skills[0].kind", "skills[0].cost", "skills[0].effects.zap"):
        assert path in message


SUSAN: dict[str, Any] = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "traits": {"Agility": 3, "Strength": 2, "Luck": 1},
    "backgrounds": {"Avanus": 1, "Luck": 2},
    "aids": {},
}
WILL: dict[str, Any] = {
    "name": "Will",
    "skills": {"Melee": 3},
    "traits": {"Strength": 4},
    "backgrounds": {},
    "aids": {},
}
ATHLETICS = {"do": "test", "hero": "Susan", "skill": "Athletics", "trait": "Agility"}
PROPOSE = {
    "do": "opposed_test",
    "attacker": {"hero": "Will", "skill": "Melee"},
    "defender": {"hero": "Susan"},
}
ASCEND_CASES: list[tuple[str, list[dict[str, Any]], dict[str, Any], str]] = [
    (
        "exceptional unawarded",
        [],
        {**ATHLETICS, "invoke": ["Strength", "Avanus"], "narration": "exceptional"},
        "AS-POOL-3",
    ),
    (
        "declined request",
        [
            {"do": "request_narration", "hero": "Susan"},
            {"do": "award_narration", "hero": "Susan", "grant": False},
        ],
        {**ATHLETICS, "invoke": ["Strength", "Avanus"], "narration": "exceptional"},
        "AS-POOL-3",
    ),
    ("face off the die", [], {**ATHLETICS, "faces": [0, 1, 10]}, "AS-TEST-3"),
    ("too few faces", [], {**ATHLETICS, "faces": [0]}, "AS-TEST-3"),
    ("ambiguous invoke", [], {**ATHLETICS, "invoke": ["Luck"], "narration": "narrated"}, "AS-POOL-1"),
    ("defend unasked", [], {"do": "defend", "hero": "Susan", "skill": "Athletics"}, "AS-OPP-1"),
    ("second proposal", [PROPOSE], PROPOSE, "AS-OPP-1"),
    ("wrong defender", [PROPOSE], {"do": "defend", "hero": "Will", "skill": "Melee"}, "AS-OPP-1"),
]


def _ascend_script_rule(heroes: list[dict[str, Any]], commands: list[dict[str, Any]]) -> str | None:
    with pytest.raises(AscendScriptError) as refused:
        run_ascend({"system": "ascend", "heroes": heroes, "commands": commands}, random.Random(1))
    assert refused.value.command_index == len(commands) - 1
    return refused.value.rule


@pytest.mark.parametrize(
    ("setup", "command", "rule"), [c[1:] for c in ASCEND_CASES], ids=[c[0] for c in ASCEND_CASES]
)
def test_ascend_refusals_match(
    client: TestClient, setup: list[dict[str, Any]], command: dict[str, Any], rule: str
) -> None:
    """The script and the HTTP table refuse the same Ascend command with the same rule."""
    # rule: AS-POOL-3 AS-TEST-3 AS-POOL-1 AS-OPP-1
    assert _ascend_script_rule([SUSAN, WILL], [*setup, command]) == rule
    assert _http_rule(client, "ascend", [SUSAN, WILL], [*setup, command]) == rule
