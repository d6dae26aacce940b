"""The GM's switch for physical dice: players may enter their own faces (the default), or only the GM may."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from table_sheets import ADA, SUSAN, action_scene

from talespin.systems import MalformedCommand
from talespin.table.errors import Forbidden
from talespin.table.views import state_json

Open = Callable[[str], Any]
FACES = [[6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1], [1], [1], [1], [1], [1], [1]]
"""Ada's Piloting at difficulty 5, typed by hand: a total of 103."""


def test_players_enter_their_own_faces_until_the_gm_keeps_dice_for_itself(table: Open) -> None:
    """By default a player types its own faces; once the GM switches, only the GM may, and undo restores."""
    # rule: II-ROLL-4
    t = table("ii")
    pia = t.join("Pia")
    t.send(pia, {"do": "add_character", "sheet": ADA})
    t.send(t.gm, action_scene(secret=False))
    t.send(t.gm, {"do": "simple_obstacle", "individually": True})
    assert state_json(t.service.ledger(t.id), pia)["physical_dice"] == "players"
    roll = {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "faces": FACES}
    events = t.send(pia, roll)
    rolled = next(e for e in events if e["type"] == "TalentRolled")
    assert rolled["data"]["total"] == 103
    issued = next(e for e in events if e["type"] == "CommandIssued")
    assert issued["data"]["dice"] == "physical" and issued["data"]["by"] == pia.label
    with pytest.raises(Forbidden):
        t.send(pia, {"do": "set_physical_dice", "who": "gm"})
    t.send(t.gm, {"do": "set_physical_dice", "who": "gm"})
    assert state_json(t.service.ledger(t.id), pia)["physical_dice"] == "gm"
    t.send(t.gm, {"do": "simple_obstacle", "individually": True})
    before = t.version
    with pytest.raises(Forbidden, match="only the GM enters physical dice"):
        t.send(pia, roll)
    assert t.version == before
    t.send(pia, {k: v for k, v in roll.items() if k != "faces"})  # server dice are still the player's
    t.send(t.gm, {"do": "simple_obstacle", "individually": True})
    t.send(t.gm, roll)
    with pytest.raises(MalformedCommand):
        t.send(t.gm, {"do": "set_physical_dice", "who": "nobody"})


def test_the_switch_covers_every_place_faces_are_given(table: Open) -> None:
    """Faces of an opposed side or an extended step are physical dice too: a player may not type them."""
    # rule: AS-TEST-3 AS-OPP-1
    t = table("ascend")
    pia = t.join("Pia")
    t.send(pia, {"do": "add_character", "sheet": SUSAN})
    t.send(t.gm, {"do": "set_physical_dice", "who": "gm"})
    step = {"skill": "Athletics", "trait": "Agility", "faces": [0, 0, 0]}
    for command in (
        {"do": "test", "hero": "Susan", **step},
        {"do": "extended_test", "hero": "Susan", "goal": 2, "steps": [step]},
        {"do": "opposed_test", "attacker": {"hero": "Susan", **step}, "defender": {"hero": "Susan"}},
    ):
        with pytest.raises(Forbidden):
            t.send(pia, command)
    t.send(t.gm, {"do": "undo"})
    t.send(pia, {"do": "test", "hero": "Susan", **step})
