"""One session of each system through the table that records every event type the blind-roll session does not.

:func:`play_all_events` plays a script (a player's commands for its own character, the GM's for the rest)
through the table service: a cooperative scene's change, healing and rest, a recreated Skill and the roll
it prepares, an Advanced Action, Crisis lowered and a Trigger re-armed, enemies bought into a conflict, a
move, a character taken out and a side yielding (Inciting Incident); a request for exceptional narration
declined and then granted, an opposed Test proposed and withdrawn, an extended Test the Storyteller closes
and an outcome narrated (Ascend); and the table's settings, invite, hand-over and removal. Every GM command
is meant to succeed, and the session fails loudly if one does not.
"""

from __future__ import annotations

from typing import Any

from table_sheets import SUSAN, susan_test
from test_blind import ServiceDriver

__all__ = ["SCRIPTS", "play_all_events"]

PILOT: dict[str, Any] = {
    "name": "Ada",
    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
    "talents": [
        {
            "name": "Piloting",
            "ability": "nimbleness",
            "level": 5,
            "skills": [{"name": "Barrel Roll", "cost": 4, "kind": "modifier", "effects": {"advantage": 2}}],
        },
        {"name": "Quickdraw", "ability": "nimbleness", "level": 4},
    ],
}
MEDIC: dict[str, Any] = {
    "name": "Bram",
    "abilities": {"fortitude": 5, "perseverance": 3, "nimbleness": 2},
    "talents": [
        {"name": "Brawling", "ability": "fortitude", "level": 4},
        {
            "name": "Medicine",
            "ability": "perseverance",
            "level": 3,
            "skills": [
                {"name": "Calm Voice", "cost": 4, "kind": "advanced", "effects": {"reduce_crisis": 3}}
            ],
        },
    ],
}
MINION: dict[str, Any] = {
    "name": "Minion",
    "abilities": {"fortitude": 1, "perseverance": 1, "nimbleness": 1},
    "talents": [],
}
GUARD: dict[str, Any] = {
    "name": "Guard",
    "abilities": {"fortitude": 2, "perseverance": 2, "nimbleness": 3},
    "talents": [{"name": "Spear", "ability": "nimbleness", "level": 3}],
}
GHOUL: dict[str, Any] = {
    "name": "Ghoul",
    "skills": {"Clawing": 3},
    "convictions": {"Hunger": 2},
    "traits": {"Rot": 2},
    "backgrounds": {},
    "aids": {},
}
GLIDE = {"name": "Glide", "cost": 6, "kind": "modifier", "effects": {"obstruction": 3}}
HIGH_QUICKDRAW = [[6, 6, 6, 1]] + [[5]] * 9
"""Faces of Ada's Decisive Attack on the Minion that wound it: the ten d6 of its defence."""
PLAYER = "player"
"""Stands for the player's id in a script: the command is the player's own."""

_II: list[tuple[str, dict[str, Any]]] = [
    (PLAYER, {"do": "add_character", "sheet": PILOT}),
    ("gm", {"do": "add_character", "sheet": MEDIC}),
    ("gm", {"do": "start_scene", "kind": "cooperative", "restful": True}),
    ("gm", {"do": "learn", "character": "Ada", "talent": {**PILOT["talents"][1], "level": 5}}),
    ("gm", {"do": "heal", "character": "Bram"}),
    ("gm", {"do": "start_scene", "kind": "action", "triggers": [{"at": 3, "text": "Sirens"}]}),
    ("gm", {"do": "complex_obstacle", "obstruction": 40}),
    (
        PLAYER,
        {
            "do": "recreate_skill",
            "character": "Ada",
            "talent": "Piloting",
            "skill": GLIDE,
            "faces": [[6, 6, 1], [5], [6, 6, 2], [4]],
        },
    ),
    (PLAYER, {"do": "regular_action", "character": "Ada", "talent": "Piloting"}),
    ("gm", {"do": "use_skill", "character": "Bram", "skill": "Calm Voice"}),
    ("gm", {"do": "adjust_crisis", "amount": 4}),
    ("gm", {"do": "adjust_crisis", "amount": -1}),
    ("gm", {"do": "rearm_trigger", "trigger": 1}),
    ("gm", {"do": "ability_roll", "character": "Bram", "ability": "fortitude"}),
    ("gm", {"do": "start_scene", "kind": "conflict"}),
    ("gm", {"do": "start_conflict", "enemies": [MINION]}),
    ("gm", {"do": "add_tension", "amount": 3, "reason": "the alarm"}),
    ("gm", {"do": "spend_tension", "on": "enemy", "enemies": [GUARD]}),
    ("gm", {"do": "move", "character": "Bram", "text": "ducks behind the crates"}),
    (
        PLAYER,
        {
            "do": "decisive_attack",
            "character": "Ada",
            "target": "Minion",
            "talent": "Quickdraw",
            "faces": HIGH_QUICKDRAW,
        },
    ),
    ("gm", {"do": "move", "character": "Minion"}),
    ("gm", {"do": "move", "character": "Guard"}),
    (
        PLAYER,
        {
            "do": "decisive_attack",
            "character": "Ada",
            "target": "Minion",
            "talent": "Quickdraw",
            "faces": HIGH_QUICKDRAW,
        },
    ),
    ("gm", {"do": "yield", "side": "enemies"}),
]
_ASCEND: list[tuple[str, dict[str, Any]]] = [
    (PLAYER, {"do": "add_character", "sheet": SUSAN}),
    ("gm", {"do": "add_hero", "sheet": GHOUL}),
    (PLAYER, {"do": "request_narration", "hero": "Susan", "text": "She vaults the wall"}),
    ("gm", {"do": "award_narration", "hero": "Susan", "grant": False}),
    (PLAYER, {"do": "request_narration", "hero": "Susan"}),
    ("gm", {"do": "award_narration", "hero": "Susan"}),
    (PLAYER, susan_test(narration="exceptional", text="over the wall")),
    (
        "gm",
        {
            "do": "opposed_test",
            "attacker": {"hero": "Ghoul", "skill": "Clawing", "trait": "Rot"},
            "defender": {"hero": "Susan"},
        },
    ),
    ("gm", {"do": "withdraw_opposed"}),
    (
        "gm",
        {
            "do": "extended_test",
            "hero": "Susan",
            "goal": 9,
            "limit": 4,
            "steps": [{"skill": "Athletics", "difficulty": 0, "trait": "Agility"}],
        },
    ),
    ("gm", {"do": "end_extended"}),
    ("gm", {"do": "narrate", "text": "Dawn breaks.", "success": True}),
]
SCRIPTS = {"ii": _II, "ascend": _ASCEND}
"""Each system's script: who sends each command (the GM, or :data:`PLAYER`) and the command."""


def play_all_events(system: str) -> tuple[ServiceDriver, list[dict[str, Any]]]:
    """A campaign of ``system`` played through its script, then the table's own changes: a setting of each
    kind, the invite renewed, the player's character handed to the GM, and a second player removed.

    Returns the table and the events each command's answer gave its sender.
    """
    driver = ServiceDriver(system)
    service, gm = driver.service, driver.viewers["gm"]
    player = driver.join("Pia")
    settings = [
        ("gm", {"do": "set_physical_dice", "who": "gm"}),
        ("gm", {"do": "set_blind_reveal", "at": "gm"}),
    ]
    answered: list[dict[str, Any]] = []
    for who, command in [*SCRIPTS[system], *settings]:
        viewer = driver.viewers[player if who == PLAYER else who]
        _, events = service.command(driver.id, viewer, command, service.version(driver.id, viewer))
        assert len(events) > 1, command  # its CommandIssued and what it did
        answered.extend(events)
    service.renew_invite(driver.id, gm)
    character = str(SCRIPTS[system][0][1]["sheet"]["name"])
    service.hand_character(driver.id, gm, character, None)
    leaving = service.join(driver.id, service.renew_invite(driver.id, gm), "Bo").player_id
    service.remove_player(driver.id, gm, leaving)
    return driver, answered
