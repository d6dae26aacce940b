"""``POST /api/lab/advise``: the lab's obstacle advice over HTTP, no token needed."""

from __future__ import annotations

from fastapi.testclient import TestClient

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
