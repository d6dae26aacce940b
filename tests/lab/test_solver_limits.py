"""The solver's limits (``talespin.lab.limits``): a question inside them is solved exactly, one past them is
refused before any work with exit code 2 and a message naming the limit and what to reduce."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from talespin.cli import app
from talespin.lab import limits
from talespin.lab.obstacle import Spot, solve_size
from talespin.lab.party import parse_party
from talespin.systems.inciting_incident import default_rules

SMALL = [{"name": "Ada", "talents": {"Piloting": 5, "Wits": 2}}, {"name": "Bo", "talents": {"Brawl": 4}}]
ONE_MORE = [SMALL[0], {"name": "Bo", "talents": {"Brawl": 4, "Lore": 1}}]
ARGS = ["--obstruction", "10", "--attempts", "2", "--cap", "20", "--json"]


def _advise(tmp_path: Path, party: list[dict[str, Any]], *args: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "party.yaml"
    path.write_text(yaml.safe_dump(party))
    done = CliRunner().invoke(app, ["lab", "advise", "--party", str(path), *(args or ARGS)])
    return done.exit_code, json.loads(done.stdout)


def _states(party: list[dict[str, Any]]) -> int:
    return solve_size(parse_party(party), Spot(10, 2), default_rules(), 20).states


def test_a_party_at_the_state_limit_is_solved_and_one_talent_more_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the lab's state limit set to exactly the small party's states, it is solved; one more Talent
    doubles the sets of Talents used and is refused, exit 2, naming the limit and what to reduce."""
    at = _states(SMALL)
    assert _states(ONE_MORE) == 2 * at  # one Talent more doubles the Talents-used sets
    monkeypatch.setattr(limits, "LAB", limits.SolverLimits(at, 10**9, 1 << 30, 16))
    code, body = _advise(tmp_path, SMALL)
    assert code == 0 and body["actions"][0]["best"]
    code, body = _advise(tmp_path, ONE_MORE)
    assert code == 2
    message = body["error"]["message"]
    assert f"{2 * at} states" in message and f"at most {at}" in message and "fewer characters" in message


def test_memory_limit_refuses_before_any_array_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The working memory a solve would need is counted first; past the limit it is refused in MiB."""
    need = solve_size(parse_party(SMALL), Spot(10, 2), default_rules(), 20).memory
    monkeypatch.setattr(limits, "LAB", limits.SolverLimits(10**9, 10**9, need, 16))
    assert _advise(tmp_path, SMALL)[0] == 0
    code, body = _advise(tmp_path, ONE_MORE)
    assert code == 2 and "MiB" in body["error"]["message"] and "at most" in body["error"]["message"]


def test_a_big_party_is_refused_at_once_under_the_shipped_limits(tmp_path: Path) -> None:
    """Six characters with six Talents each (2³⁶ sets of Talents used) are refused, not solved for hours."""
    party = [{"name": f"C{i}", "talents": {f"T{j}": 3 for j in range(6)}} for i in range(6)]
    code, body = _advise(tmp_path, party)
    assert code == 2
    assert body["error"]["code"] == "limit_exceeded"
    assert f"at most {limits.LAB.states}" in body["error"]["message"]


def _skilled(count: int) -> list[dict[str, Any]]:
    skills = [
        {"name": f"S{k}", "cost": 1, "kind": "modifier", "effects": {"advantage": 1 + k}}
        for k in range(count)
    ]
    return [{"name": "Ada", "talents": {"Piloting": 5}, "skills": {"Piloting": skills}}]


def test_skill_sets_limit_both_sides(tmp_path: Path) -> None:
    """Four modifier Skills on a Talent (16 sets) are weighed; a fifth (32 sets) is refused by name."""
    assert limits.LAB.skill_sets == 16
    args = ["--obstruction", "6", "--attempts", "1", "--cap", "12", "--json"]
    code, body = _advise(tmp_path, _skilled(4), *args)
    assert code == 0 and len(body["actions"]) == 1 + 2 * 16
    code, body = _advise(tmp_path, _skilled(5), *args)
    assert code == 2 and "32 sets of modifier Skills" in body["error"]["message"]
