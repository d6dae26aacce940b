"""``POST /api/lab/ascend/…``: the Ascend lab over HTTP, no token needed, the same figures as the library."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from talespin.lab.ascend_tests import extended_table, narration_value, opposed_table
from talespin.systems.ascend import load_rules, parse_hero

SUSAN = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "convictions": {"Protect the weak": 4},
    "traits": {"Agility": 3, "Strength": 2},
    "backgrounds": {"Avanus": 1},
    "aids": {"Climbing rope": 1},
}


def _post(client: TestClient, route: str, body: dict[str, object]) -> dict[str, object]:
    answer = client.post(f"/api/lab/ascend/{route}", json=body)
    assert answer.status_code == 200, answer.text
    result: dict[str, object] = answer.json()
    return result


def test_the_three_questions_answer_as_the_library_does(client: TestClient) -> None:
    """Extended per pool, opposed under both ties (under a variant), narration for a hero."""
    # rule: AS-EXT-1
    # rule: AS-OPP-1
    # rule: AS-POOL-2
    rules = load_rules()
    got = _post(client, "extended", {"target": 3, "pools": [3, 5], "goal": 5, "limit": 3})
    assert got == extended_table(rules, target=3, pools=[3, 5], goal=5, limit=3).to_json()
    variant = {"opposed": {"reroll_limit": 2}}
    got = _post(client, "opposed", {"target": 3, "vs_target": 2, "pools": [2, 4], "variant": variant})
    want = opposed_table(
        load_rules(variant),
        attacker_target=3,
        defender_target=2,
        attacker_pools=[2, 4],
        defender_pools=[2, 4],
    )
    assert got == want.to_json()
    got = _post(client, "narration", {"hero": SUSAN, "difficulty": 1})
    assert got == narration_value(parse_hero(SUSAN, rules), rules, difficulty=1).to_json()


@pytest.mark.parametrize(
    ("route", "body", "path"),
    [
        ("extended", {"target": 3, "pools": [], "goal": 5, "limit": 3}, "pools"),
        ("extended", {"target": 3, "pools": [3], "goal": 5, "limit": 500}, "limit"),
        ("opposed", {"target": 3, "vs_target": "two", "pools": [3]}, "vs_target"),
        (
            "opposed",
            {"target": 3, "vs_target": 2, "pools": [3], "variant": {"opposed": {"tie": "coin"}}},
            None,
        ),
        ("narration", {"hero": {"name": "Nobody", "skills": {"Run": 12}}}, None),
    ],
)
def test_bad_questions_are_422_naming_what_was_expected(
    client: TestClient, route: str, body: dict[str, object], path: str | None
) -> None:
    """Each bad body is a 422 with a message, and the path of the bad key where there is one."""
    answer = client.post(f"/api/lab/ascend/{route}", json=body)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["message"]
    if path is not None:
        assert error["path"] == path
