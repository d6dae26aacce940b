"""``POST /api/lab/scene`` and ``POST /api/lab/conflict``: the lab's own answers over HTTP, bounded work."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from talespin.lab.conflict_sim import simulate_conflict
from talespin.lab.conflict_spec import parse_conflict
from talespin.lab.scene import analyse_scene
from talespin.lab.scene_spec import parse_scene
from talespin.systems.inciting_incident import default_rules
from talespin.web.lab_scene_routes import (
    MAX_CHARACTERS,
    MAX_COMPLEX,
    MAX_FIGHTERS,
    MAX_ROUNDS,
    MAX_RUNS,
    MAX_STEPS,
    MAX_TALENTS,
)

RULES = default_rules()
SCENE: dict[str, Any] = {
    "difficulty": 5,
    "triggers": [{"at": 10, "every": 10}, {"at": 15}],
    "characters": [{"name": "Ada", "talents": {"Piloting": 3}}, {"name": "Bo", "talents": {"Brawl": 2}}],
    "obstacles": [{"kind": "simple", "to": "Ada"}, {"kind": "complex", "obstruction": 8, "attempts": 2}],
}


def _sheet(name: str, level: int) -> dict[str, Any]:
    return {
        "name": name,
        "abilities": {"fortitude": 2, "perseverance": 1, "nimbleness": 3},
        "talents": [{"name": "Strike", "ability": "nimbleness", "level": level}],
    }


CONFLICT: dict[str, Any] = {
    "characters": [_sheet("Ada", 3)],
    "enemies": [_sheet("Grunt", 2)],
    "policies": {"characters": {"decisive_at": 2, "target": "weakest"}},
    "max_rounds": 20,
}


def _refused(client: TestClient, url: str, body: Any) -> dict[str, Any]:
    raw = json.dumps(body)  # ensure_ascii: a lone surrogate travels as its \u escape
    answer = client.post(url, content=raw, headers={"content-type": "application/json"})
    assert 400 <= answer.status_code < 500, answer.text
    error = answer.json()["error"]
    assert isinstance(error["code"], str) and isinstance(error["message"], str)
    assert "rule" in error
    return dict(error)


@pytest.mark.parametrize("policy", ["auto", "roll", "optimal"])
def test_lab_scene_answers_the_analysis_itself(client: TestClient, policy: str) -> None:
    """The answer is exactly :func:`analyse_scene`'s for the same scene (II-CRISIS-2 Triggers counted)."""
    # rule: II-CRISIS-2
    answer = client.post("/api/lab/scene", json={**SCENE, "policy": policy, "cap": 30})
    assert answer.status_code == 200, answer.text
    expected = analyse_scene(parse_scene(SCENE, RULES), RULES, policy=policy, cap=30).to_json()
    assert answer.json() == expected
    assert answer.json()["policy"] == policy


def test_lab_conflict_answers_the_simulation_itself(client: TestClient) -> None:
    """The same seed and runs give exactly :func:`simulate_conflict`'s odds; another seed, other odds."""
    answer = client.post("/api/lab/conflict", json={**CONFLICT, "seed": 7, "runs": 2000})
    assert answer.status_code == 200, answer.text
    expected = simulate_conflict(parse_conflict(CONFLICT, RULES), RULES, sims=2000, seed=7).to_json()
    assert answer.json() == expected
    other = client.post("/api/lab/conflict", json={**CONFLICT, "seed": 8, "runs": 2000}).json()
    assert other != expected


@pytest.mark.parametrize(
    ("body", "code", "word"),
    [
        ([1, 2], None, None),
        ({**SCENE, "difficulty": "five"}, "bad_scene", "difficulty"),
        ({k: v for k, v in SCENE.items() if k != "obstacles"}, "bad_scene", "obstacles"),
        ({**SCENE, "policy": "lucky"}, "bad_field", "policy"),
        ({**SCENE, "cap": "high"}, "bad_field", "cap"),
        ({**SCENE, "cap": 5}, "bad_field", "cap"),
        ({**SCENE, "obstacles": [{"kind": "simple"}] * (MAX_STEPS + 1)}, "too_large", "obstacles"),
        (
            {**SCENE, "obstacles": [{"kind": "simple", "individually": True}] * (MAX_STEPS // 2 + 1)},
            "too_large",
            "obstacles",
        ),
        (
            {**SCENE, "characters": [{"name": f"C{i}", "talents": {}} for i in range(MAX_CHARACTERS + 1)]},
            "too_large",
            "characters",
        ),
        ({**SCENE, "obstacles": [{"kind": "complex", "obstruction": 1000}]}, "too_large", "obstruction"),
        (
            {**SCENE, "obstacles": [{"kind": "complex", "obstruction": 5}] * (MAX_COMPLEX + 1)},
            "too_large",
            "complex",
        ),
        (
            {
                **SCENE,
                "characters": [{"name": "Ada", "talents": {f"T{i}": 2 for i in range(MAX_TALENTS + 1)}}],
            },
            "too_large",
            "talents",
        ),
        ({**SCENE, "triggers": [{"at": 5000}]}, "too_large", "cap"),
        ({**SCENE, "characters": [{"name": "Ada\ud800", "talents": {}}]}, "bad_text", None),
    ],
)
def test_lab_scene_refuses_bad_input(
    client: TestClient, body: Any, code: str | None, word: str | None
) -> None:
    """Wrong types, missing keys, sizes past the limits, a lone surrogate: a 4xx naming the problem."""
    error = _refused(client, "/api/lab/scene", body)
    if code is not None:
        assert error["code"] == code, error
    if word is not None:
        assert word in error["message"].lower() or word in str(error.get("path")), error


@pytest.mark.parametrize(
    ("body", "code", "word"),
    [
        ("conflict", None, None),
        ({**CONFLICT, "seed": 1}, "bad_field", "runs"),
        ({**CONFLICT, "runs": 10}, "bad_field", "seed"),
        ({**CONFLICT, "seed": 1, "runs": "many"}, "bad_field", "runs"),
        ({**CONFLICT, "seed": 1.5, "runs": 10}, "bad_field", "seed"),
        ({**CONFLICT, "seed": 1, "runs": MAX_RUNS + 1}, "out_of_range", "runs"),
        ({**CONFLICT, "seed": 1, "runs": 0}, "bad_field", "runs"),
        ({"enemies": CONFLICT["enemies"], "seed": 1, "runs": 10}, "bad_conflict", "characters"),
        ({**CONFLICT, "seed": 1, "runs": 10, "max_rounds": MAX_ROUNDS + 1}, "too_large", "max_rounds"),
        (
            {
                **CONFLICT,
                "seed": 1,
                "runs": 10,
                "enemies": [_sheet(f"E{i}", 1) for i in range(MAX_FIGHTERS + 1)],
            },
            "too_large",
            "enemies",
        ),
        ({**CONFLICT, "seed": 1, "runs": 10, "characters": [_sheet("Ada\udc00", 3)]}, "bad_text", None),
    ],
)
def test_lab_conflict_refuses_bad_input(
    client: TestClient, body: Any, code: str | None, word: str | None
) -> None:
    """Wrong types, missing keys, sizes past the limits, a lone surrogate: a 4xx naming the problem."""
    error = _refused(client, "/api/lab/conflict", body)
    if code is not None:
        assert error["code"] == code, error
    if word is not None:
        assert word in error["message"].lower() or word in str(error.get("path")), error
