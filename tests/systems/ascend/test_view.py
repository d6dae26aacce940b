"""What each role sees: the state view, blind rolls redacted for players, and who acts for a command."""

from __future__ import annotations

from typing import Any

from talespin.systems import Event
from talespin.systems.ascend import SYSTEM, AscendState

BLIND = {"do": "test", "hero": "Susan", "skill": "Stealth", "trait": "Agility", "visibility": "gm"}


def test_the_view_has_the_documented_shape(state: AscendState, apply: Any) -> None:
    """system, rules_version, heroes with sheets, tests and extended, as docs/state-views.md shows."""
    after, _ = apply(state, {"do": "extended_test", "hero": "Susan", "goal": 5, "limit": 3})
    after, _ = apply(
        after, {"do": "extended_step", "skill": "Athletics", "trait": "Agility", "faces": [0, 9, 9]}
    )
    view = SYSTEM.view(after, "player")
    assert view["system"] == "ascend"
    assert view["rules_version"] == "1"
    assert [h["name"] for h in view["heroes"]] == ["Susan", "Will"]
    assert view["heroes"][0]["sheet"]["traits"] == {"Agility": 3, "Strength": 2}
    assert view["tests"] == 1
    assert view["extended"] == {
        "goal": 5,
        "limit": 3,
        "hero": "Susan",
        "successes": 1,
        "tests": 1,
        "done": False,
        "reached": False,
    }


def test_a_blind_roll_shows_players_only_that_a_roll_happened(state: AscendState, apply: Any) -> None:
    """Its events are GM-only; redacted, the roll is BlindRollMade with the hero and nothing else."""
    _, events = apply(state, {**BLIND, "invoke": ["Strength", "Avanus"], "narration": "exceptional"})
    assert all(e.visibility == "gm" for e in events)
    seen = [SYSTEM.redact(e) for e in events]
    assert seen[0] is None  # the award would tell how the roll was made
    assert seen[1] == Event("BlindRollMade", {"hero": "Susan"})
    public = Event("OutcomeNarrated", {"hero": None, "text": "Dawn.", "success": True})
    assert SYSTEM.redact(public) is public


def test_a_blind_step_hides_the_extended_successes_from_players(state: AscendState, apply: Any) -> None:
    """Once a blind roll counts toward an extended Test, players see its Tests but not its Successes."""
    after, _ = apply(state, {"do": "extended_test", "hero": "Susan", "goal": 9})
    after, _ = apply(
        after, {"do": "extended_step", "skill": "Stealth", "trait": "Agility", "visibility": "gm"}
    )
    assert SYSTEM.view(after, "player")["extended"]["successes"] is None
    assert SYSTEM.view(after, "player")["extended"]["tests"] == 1
    assert SYSTEM.view(after, "gm")["extended"]["successes"] is not None


def test_the_actor_is_the_hero_acting() -> None:
    """Tests act for their hero, opposed Tests for the attacker; the Storyteller's commands for no one."""
    assert SYSTEM.actor({"do": "test", "hero": "Susan"}) == "Susan"
    assert (
        SYSTEM.actor({"do": "opposed_test", "attacker": {"hero": "Will"}, "defender": {"hero": "Ghost"}})
        == "Will"
    )
    assert SYSTEM.actor({"do": "extended_test", "steps": [{"hero": "Susan"}]}) == "Susan"
    assert SYSTEM.actor({"do": "extended_step", "hero": "Will"}) == "Will"
    assert SYSTEM.actor({"do": "end_extended"}) is None
    assert SYSTEM.actor({"do": "add_character", "sheet": {}}) is None
    assert SYSTEM.actor({"do": "test", "hero": 3}) is None


def test_a_blind_opposed_test_reveals_only_that_rolls_happened(state: AscendState, apply: Any) -> None:
    """Every roll of a blind opposed Test becomes BlindRollMade; the verdict is absent for players."""
    command = {
        "do": "opposed_test",
        "visibility": "gm",
        "attacker": {"hero": "Will", "skill": "Melee", "trait": "Wits"},
        "defender": {"hero": "Susan", "skill": "Athletics", "trait": "Agility"},
    }
    _, events = apply(state, command)
    seen = [SYSTEM.redact(e) for e in events]
    assert [s.type if s else None for s in seen] == ["BlindRollMade", "BlindRollMade", None]
    assert seen[0] is not None and seen[0].data == {"hero": "Will"}
