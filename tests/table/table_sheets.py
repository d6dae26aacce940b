"""Sheets and commands the table tests share."""

from __future__ import annotations

from typing import Any

ADA: dict[str, Any] = {
    "name": "Ada",
    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
    "talents": [
        {"name": "Piloting", "ability": "nimbleness", "level": 5, "limitations": ["only vehicles she knows"]}
    ],
}
BEA: dict[str, Any] = {
    "name": "Bea",
    "abilities": {"fortitude": 4, "perseverance": 4, "nimbleness": 3},
    "talents": [{"name": "Stealth", "ability": "nimbleness", "level": 3, "limitations": ["in the dark"]}],
}
SUSAN: dict[str, Any] = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "convictions": {"Protect the weak": 4},
    "traits": {"Agility": 3, "Strength": 2},
    "backgrounds": {"Avanus": 1},
    "aids": {},
}
SECRET_TRIGGER = "The sleeper agent wakes"
SECRET_NOTE = "The innkeeper is the traitor"


def action_scene(*, secret: bool = True) -> dict[str, Any]:
    """An action scene of difficulty 5 with one Trigger (GM-only unless ``secret`` is False)."""
    trigger = {"at": 10, "every": 10, "text": SECRET_TRIGGER, "visibility": "gm" if secret else "public"}
    return {"do": "start_scene", "kind": "action", "difficulty": 5, "triggers": [trigger]}


def susan_test(**extra: Any) -> dict[str, Any]:
    """An Ascend Test of Susan's Athletics with Agility."""
    return {"do": "test", "hero": "Susan", "skill": "Athletics", "difficulty": 0, "trait": "Agility", **extra}
