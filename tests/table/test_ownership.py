"""Every command acts for the characters its sender owns, in every position it names one, in both systems."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from table_sheets import ADA, BEA, SUSAN

from talespin.systems.ascend.commands import _MODELS as ASCEND_COMMANDS
from talespin.systems.inciting_incident import COMMANDS as II_COMMANDS
from talespin.systems.inciting_incident.decide import CHARACTER_COMMANDS
from talespin.table.errors import Forbidden

Open = Callable[[str], Any]
KAI: dict[str, Any] = {**SUSAN, "name": "Kai"}
"""Quin's hero; Pia owns Susan."""

II_SHAPES: dict[str, dict[str, Any]] = {
    "simple_obstacle": {"choice": "auto"},
    "regular_action": {"choice": "auto"},
    "decisive_action": {"talent": "Stealth"},
    "use_skill": {"skill": "Shadowstep"},
    "recreate_skill": {"talent": "Stealth", "skill": {"name": "Blink", "cost": 1, "kind": "modifier"}},
    "ability_roll": {"ability": "nimbleness"},
    "learn": {"talent": {"name": "Stealth", "ability": "nimbleness", "level": 2}},
    "heal": {},
    "regular_attack": {"target": "Ada", "talent": "Stealth"},
    "decisive_attack": {"target": "Ada", "talent": "Stealth"},
    "move": {},
}
"""One command of each shape that acts for a character, its ``character:`` left to fill."""


def _ii(table: Open) -> tuple[Any, Any, Any]:
    t = table("ii")
    pia, quin = t.join("Pia"), t.join("Quin")
    t.send(pia, {"do": "add_character", "sheet": ADA})
    t.send(quin, {"do": "add_character", "sheet": BEA})
    return t, pia, quin


def test_every_inciting_incident_character_command_is_walked() -> None:
    """The shapes below cover every command that acts for a character."""
    # rule: II-SCENE-1
    assert set(II_SHAPES) == set(CHARACTER_COMMANDS)


@pytest.mark.parametrize("do", sorted(II_SHAPES))
def test_a_player_acts_for_no_other_players_inciting_incident_character(table: Open, do: str) -> None:
    """Each character command naming another player's character is refused before any rule is checked."""
    # rule: II-SCENE-1
    t, pia, _ = _ii(table)
    before = t.version
    with pytest.raises(Forbidden) as refused:
        t.send(pia, {"do": do, "character": "Bea", **II_SHAPES[do]})
    assert refused.value.extra["character"] == "Bea" and t.version == before


@pytest.mark.parametrize("do", sorted(set(II_COMMANDS) - set(CHARACTER_COMMANDS) - {"add_character"}))
def test_the_gms_inciting_incident_commands_are_the_gms(table: Open, do: str) -> None:
    """A command that acts for no character (the GM's) is refused to a player, whoever it names."""
    t, pia, _ = _ii(table)
    with pytest.raises(Forbidden):
        t.send(pia, {"do": do, "character": "Ada"})


def _ascend(table: Open) -> tuple[Any, Any, Any]:
    t = table("ascend")
    pia, quin = t.join("Pia"), t.join("Quin")
    t.send(pia, {"do": "add_character", "sheet": SUSAN})
    t.send(quin, {"do": "add_character", "sheet": KAI})
    return t, pia, quin


TEST = {"skill": "Athletics", "trait": "Agility"}
ASCEND_SHAPES: list[tuple[str, dict[str, Any]]] = [
    ("test.hero", {"do": "test", "hero": "Kai", **TEST}),
    (
        "opposed_test.attacker",
        {"do": "opposed_test", "attacker": {"hero": "Kai", **TEST}, "defender": {"hero": "Susan"}},
    ),
    (
        "opposed_test.defender",
        {"do": "opposed_test", "attacker": {"hero": "Susan", **TEST}, "defender": {"hero": "Kai", **TEST}},
    ),
    ("extended_test.hero", {"do": "extended_test", "hero": "Kai", "goal": 3}),
    (
        "extended_test.steps[1]",
        {"do": "extended_test", "hero": "Susan", "goal": 3, "steps": [TEST, {"hero": "Kai", **TEST}]},
    ),
    ("extended_step.hero", {"do": "extended_step", "hero": "Kai", **TEST}),
    ("request_narration.hero", {"do": "request_narration", "hero": "Kai"}),
    ("defend.hero", {"do": "defend", "hero": "Kai", **TEST}),
]
"""Every position an Ascend command names a hero in, filled with the other player's hero."""
ASCEND_GM = ["narrate", "award_narration", "withdraw_opposed", "end_extended"]


def test_every_ascend_command_is_walked() -> None:
    """The shapes and the Storyteller's commands below cover the whole Ascend vocabulary."""
    # rule: AS-OPP-1 AS-EXT-1 AS-POOL-3
    walked = {name.split(".")[0] for name, _ in ASCEND_SHAPES} | set(ASCEND_GM) | {"extended_step"}
    assert walked == set(ASCEND_COMMANDS) - {"add_character", "add_hero"}


@pytest.mark.parametrize(("where", "command"), ASCEND_SHAPES, ids=[name for name, _ in ASCEND_SHAPES])
def test_a_player_acts_for_no_other_players_hero_anywhere(
    table: Open, where: str, command: dict[str, Any]
) -> None:
    """A hero named in any choosing position of a command must be the sender's own."""
    # rule: AS-OPP-1 AS-EXT-1 AS-POOL-3
    t, pia, _ = _ascend(table)
    t.send(t.gm, {"do": "extended_test", "hero": "Susan", "goal": 9})
    if where == "defend.hero":
        t.send(t.gm, {"do": "end_extended"})
        t.send(
            t.gm, {"do": "opposed_test", "attacker": {"hero": "Susan", **TEST}, "defender": {"hero": "Kai"}}
        )
    before = t.version
    with pytest.raises(Forbidden) as refused:
        t.send(pia, command)
    assert refused.value.extra["character"] == "Kai" and t.version == before


def test_an_extended_step_without_a_hero_acts_for_the_extended_tests_hero(table: Open) -> None:
    """A step that names no hero is the extended Test's hero's: only that hero's player sends it."""
    # rule: AS-EXT-1
    t, pia, quin = _ascend(table)
    t.send(t.gm, {"do": "extended_test", "hero": "Kai", "goal": 9})
    with pytest.raises(Forbidden):
        t.send(pia, {"do": "extended_step", **TEST})
    t.send(quin, {"do": "extended_step", **TEST})


@pytest.mark.parametrize("do", ASCEND_GM)
def test_the_storytellers_commands_are_the_gms(table: Open, do: str) -> None:
    """Narrating, awarding, withdrawing and closing are the Storyteller's, whoever they name."""
    t, pia, _ = _ascend(table)
    with pytest.raises(Forbidden):
        t.send(pia, {"do": do, "hero": "Susan", "text": "x"})


def test_two_players_each_choose_their_own_side_of_an_opposed_test(table: Open) -> None:
    """The attacker's player proposes, the defender's player chooses its side, and the Test resolves."""
    # rule: AS-OPP-1
    t, pia, quin = _ascend(table)
    t.send(
        pia,
        {
            "do": "opposed_test",
            "attacker": {"hero": "Susan", **TEST, "faces": [0, 0, 0]},
            "defender": {"hero": "Kai"},
        },
    )
    with pytest.raises(Forbidden):
        t.send(pia, {"do": "defend", "hero": "Kai", **TEST})
    events = t.send(
        quin, {"do": "defend", "hero": "Kai", "skill": "Athletics", "trait": "Strength", "faces": [9, 9]}
    )
    decided = events[-1]
    assert decided["type"] == "OpposedTestDecided" and decided["data"]["winning_hero"] == "Susan"
