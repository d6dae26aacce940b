"""What each role sees: the state view, blind rolls redacted for players, and who acts for a command."""

from __future__ import annotations

from typing import Any

from talespin.systems import Event
from talespin.systems.ascend import SYSTEM, AscendState, evolve

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
    awarded, _ = apply(state, {"do": "award_narration", "hero": "Susan"})
    _, events = apply(awarded, {**BLIND, "invoke": ["Strength", "Avanus"], "narration": "exceptional"})
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


def test_the_actors_are_every_hero_acting(state: AscendState) -> None:
    """A command acts for every hero it names in a choosing position; the Storyteller's for no one."""

    # rule: AS-OPP-1 AS-EXT-1
    def acts(command: dict[str, Any], where: AscendState = state) -> set[str]:
        return set(SYSTEM.actors(where, command))

    assert acts({"do": "test", "hero": "Susan"}) == {"Susan"}
    # A bare defender leaves its side to its controller; a defender with choices is acted for.
    assert acts({"do": "opposed_test", "attacker": {"hero": "Will"}, "defender": {"hero": "Ghost"}}) == {
        "Will"
    }
    chosen = {"hero": "Ghost", "skill": "Haunting"}
    assert acts({"do": "opposed_test", "attacker": {"hero": "Will"}, "defender": chosen}) == {"Will", "Ghost"}
    assert acts({"do": "defend", "hero": "Ghost"}) == {"Ghost"}
    steps = [{"hero": "Susan"}, {"hero": "Will"}, {"skill": "Melee"}]
    assert acts({"do": "extended_test", "hero": "Susan", "steps": steps}) == {"Susan", "Will"}
    assert acts({"do": "extended_step", "hero": "Will"}) == {"Will"}
    assert acts({"do": "request_narration", "hero": "Will"}) == {"Will"}
    started = evolve(state, Event("ExtendedTestStarted", {"hero": "Susan", "goal": 3, "limit": None}))
    assert acts({"do": "extended_step", "skill": "Athletics"}, started) == {"Susan"}
    for gm in ("end_extended", "narrate", "award_narration", "withdraw_opposed"):
        assert acts({"do": gm, "hero": "Susan"}) == set()
    assert acts({"do": "add_character", "sheet": {}}) == set()
    assert acts({"do": "test", "hero": 3}) == set()


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
