"""``legal`` in each viewer's state: every command offered is accepted for that viewer, others are refused.

Campaigns of both systems are played by picking, at each step, one command some viewer is offered; before
each step, every command offered to every viewer is tried (on a copy of the campaign's log) and a sample
of what a viewer is not offered (another viewer's offers, the system's refused candidates) is refused.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from table_fakes import MemoryStore
from table_sheets import ADA, BEA, SUSAN

from talespin.systems import RulesError
from talespin.systems.ascend.decide import decide
from talespin.systems.ascend.legal import _candidates, legal_commands
from talespin.systems.legal import PROBE_SEED
from talespin.table import TableService, Viewer
from talespin.table.errors import Forbidden, StaleVersion

KAI: dict[str, Any] = {**SUSAN, "name": "Kai"}
SETUPS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "ii": [("pia", {"do": "add_character", "sheet": ADA}), ("quin", {"do": "add_character", "sheet": BEA})],
    "ascend": [
        ("pia", {"do": "add_character", "sheet": SUSAN}),
        ("quin", {"do": "add_character", "sheet": KAI}),
    ],
}


class Played:
    """A campaign on a fresh service, with the GM and two players."""

    def __init__(self, system: str, seed: int) -> None:
        self.service = TableService(MemoryStore())
        made = self.service.create_campaign("Legal", system)
        self.id = made.id
        self.viewers: dict[str, Viewer] = {"gm": Viewer("gm")}
        for name in ("pia", "quin"):
            joined = self.service.join(self.id, made.invite_token, name)
            self.viewers[name] = self.service.viewer(self.id, joined.player_token)
        self.rng = random.Random(seed)
        for who, command in SETUPS[system]:
            self.send(who, command)

    def send(self, who: str, command: dict[str, Any]) -> None:
        viewer = self.viewers[who]
        self.service.command(self.id, viewer, command, self.service.version(self.id, viewer))

    def offered(self, who: str) -> list[dict[str, Any]]:
        return list(self.service.state(self.id, self.viewers[who])["legal"])

    def refused(self, who: str, command: dict[str, Any]) -> bool:
        """Whether the table refuses ``command`` from ``who`` now (nothing is kept if it accepts)."""
        before = self.service.ledger(self.id).version
        try:
            self.send(who, command)
        except (Forbidden, RulesError, StaleVersion):
            return self.service.ledger(self.id).version == before
        self.service.command(
            self.id, self.viewers["gm"], {"do": "undo"}, self.service.ledger(self.id).version
        )
        return False


def _accepted_everywhere(played: Played) -> None:
    offers = {who: played.offered(who) for who in played.viewers}
    for who, commands in offers.items():
        for command in commands:
            if command["do"] in {"undo", "reveal_seed", "reveal", "start_scene", "end_scene"}:
                continue  # their effect outlives an undo (a seed revealed, an entry struck): played below
            before = played.service.ledger(played.id).version
            played.send(who, command)  # raises if the table refuses an offered command
            assert played.service.ledger(played.id).version > before
            played.service.command(
                played.id, played.viewers["gm"], {"do": "undo"}, played.service.ledger(played.id).version
            )
    for who in ("pia", "quin"):
        mine = offers[who]
        others = [c for c in offers["gm"] if c not in mine and c["do"] not in {"undo", "reveal_seed"}]
        for command in played.rng.sample(others, min(6, len(others))):
            assert played.refused(who, command), (who, command)


@pytest.mark.parametrize("system", ["ii", "ascend"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_offered_command_is_accepted_and_others_are_refused(system: str, seed: int) -> None:
    """Twelve steps of a played campaign, each from the offers of a random viewer."""
    # rule: II-SCENE-1
    # rule: AS-OPP-1
    played = Played(system, seed)
    if system == "ii":
        played.send("gm", {"do": "start_scene", "kind": "action", "difficulty": 4})
    for _ in range(12):
        _accepted_everywhere(played)
        who = played.rng.choice(sorted(played.viewers))
        offers = [c for c in played.offered(who) if c["do"] not in {"undo", "reveal_seed"}]
        if offers:
            played.send(who, played.rng.choice(offers))


def test_a_player_is_offered_only_its_own_characters() -> None:
    """Pia is offered Ada's actions, never Bea's, and no GM command."""
    # rule: II-SCENE-1
    played = Played("ii", 0)
    played.send("gm", {"do": "start_scene", "kind": "action"})
    played.send("gm", {"do": "simple_obstacle"})
    pia = played.offered("pia")
    assert pia and {c.get("character") for c in pia} == {"Ada"}
    assert {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting"} in pia
    assert {"do": "simple_obstacle", "character": "Bea", "talent": "Stealth"} in played.offered("gm")


def test_the_rules_list_legal_commands_once_per_version_for_all_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pia's and Quin's states share one search of the players' legal commands; the GM's is its own; a new
    version searches again, and each viewer still gets only what it may send."""
    played = Played("ascend", 0)
    system = played.service.ledger(played.id).system
    searched: list[str] = []
    search = system.legal_commands

    def counted(state: Any, role: Any) -> list[dict[str, Any]]:
        searched.append(role)
        return search(state, role)

    monkeypatch.setattr(system, "legal_commands", counted)
    pia, quin, gm = played.offered("pia"), played.offered("quin"), played.offered("gm")
    assert sorted(searched) == ["gm", "player"]
    assert pia and {c["hero"] for c in pia if c["do"] == "test"} == {"Susan"}
    assert quin and {c["hero"] for c in quin if c["do"] == "test"} == {"Kai"}
    assert not any(c["do"] == "reveal_seed" for c in [*pia, *quin]) and {"do": "reveal_seed"} in gm
    played.send("gm", {"do": "note", "text": "a new version"})
    played.offered("pia")
    played.offered("quin")
    assert sorted(searched) == ["gm", "player", "player"]


def test_ascend_verdicts_do_not_depend_on_the_counters_of_tests_and_narration() -> None:
    """The Ascend search decides in the state with ``tests`` and ``narrated`` at zero; deciding every
    candidate in the true state (four Tests in, an award of narration waiting) keeps the same commands."""
    played = Played("ascend", 1)
    for _ in range(3):
        played.send("gm", {"do": "test", "hero": "Susan", "skill": "Athletics", "difficulty": 0})
    played.send("pia", {"do": "request_narration", "hero": "Susan"})
    played.send("gm", {"do": "award_narration", "hero": "Susan"})
    played.send("gm", {"do": "test", "hero": "Susan", "skill": "Athletics", "difficulty": 0})
    state = played.service.ledger(played.id).state
    assert state.tests == 4 and state.awards == ("Susan",)
    for role in ("gm", "player"):
        kept = []
        for command in _candidates(state, role):
            try:
                decide(state, command, PROBE_SEED)
            except RulesError:
                continue
            if command not in kept:
                kept.append(command)
        assert legal_commands(state, role) == kept
