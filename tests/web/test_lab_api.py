"""``POST /api/lab/advise``: the lab's obstacle advice over HTTP, no token needed."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from talespin.lab import limits
from talespin.lab.obstacle import Spot, solve_size
from talespin.lab.party import parse_party
from talespin.systems.inciting_incident import default_rules

PARTY = [{"name": "Ada", "talents": {"Piloting": 5}}, {"name": "Bo", "talents": {"Brawl": 4}}]


def test_lab_advise_answers_without_a_token(client: TestClient) -> None:
    """The best action comes first; Bo acted last, so only Ada's actions are offered."""
    # rule: II-COMPLEX-5
    body = {"characters": PARTY, "obstruction": 12, "attempts": 2, "last": "Bo", "cap": 30}
    answer = client.post("/api/lab/advise", json=body)
    assert answer.status_code == 200, answer.text
    actions = answer.json()["actions"]
    assert {a["character"] for a in actions} == {"Ada"}
    assert actions[0]["best"] and actions[0]["cost"] == 0


def test_lab_advise_refuses_bad_input_with_a_422(client: TestClient) -> None:
    """A missing Obstruction is a 422 whose error names the key."""
    answer = client.post("/api/lab/advise", json={"characters": PARTY})
    assert answer.status_code == 422
    assert "obstruction" in answer.json()["error"]["message"]


SMALL = [{"name": "Ada", "talents": {"Piloting": 5, "Wits": 2}}, {"name": "Bo", "talents": {"Brawl": 4}}]
ONE_MORE = [SMALL[0], {"name": "Bo", "talents": {"Brawl": 4, "Lore": 1}}]


def test_lab_advise_at_the_state_limit_answers_and_past_it_is_a_422(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the lab's state limit at exactly the small party's states it is solved; one more Talent doubles
    the states and is a 422 naming the limit and what to reduce, before any work."""
    at = solve_size(parse_party(SMALL), Spot(10, 2), default_rules(), 20).states
    monkeypatch.setattr(limits, "LAB", limits.SolverLimits(at, 10**9, 1 << 30, 16))
    body = {"characters": SMALL, "obstruction": 10, "attempts": 2, "cap": 20}
    assert client.post("/api/lab/advise", json=body).status_code == 200
    refused = client.post("/api/lab/advise", json=body | {"characters": ONE_MORE})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "limit_exceeded"
    assert f"{2 * at} states" in error["message"] and f"at most {at}" in error["message"]
    assert "fewer characters or Talents" in error["message"]


def test_lab_advise_refuses_a_big_party_under_the_shipped_limits(client: TestClient) -> None:
    """Six characters with six Talents each are refused at once with a 422, never solved for hours."""
    party = [{"name": f"C{i}", "talents": {f"T{j}": 3 for j in range(6)}} for i in range(6)]
    answer = client.post("/api/lab/advise", json={"characters": party, "obstruction": 20})
    assert answer.status_code == 422
    assert f"at most {limits.LAB.states}" in answer.json()["error"]["message"]
