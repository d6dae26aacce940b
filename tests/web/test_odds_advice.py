"""``POST …/odds`` on a Complex Obstacle: the solver's best choice and each alternative's cost."""

from __future__ import annotations

from typing import Any

import pytest
from table_sheets import ADA, BEA, action_scene
from web_support import Campaign, bearer

from talespin.lab import limits
from talespin.lab.advice import advise
from talespin.lab.obstacle import Spot
from talespin.lab.party import parse_party
from talespin.systems.inciting_incident import default_rules
from talespin.web import odds_advice
from talespin.web.odds_advice import HORIZON, _next_trigger


def _odds(campaign: Campaign, token: str, **query: Any) -> dict[str, Any]:
    answer = campaign.client.post(f"{campaign.base}/odds", json=query, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _scene(ii: Campaign, *, secret: bool) -> None:
    for sheet in (ADA, BEA):
        ii.send({"do": "add_character", "sheet": sheet})
    ii.send(action_scene(secret=secret))
    ii.send({"do": "complex_obstacle", "obstruction": 12, "attempts": 2})


def test_odds_carry_the_solvers_advice_and_costs(ii: Campaign) -> None:
    """The answer names the best action of anyone present; each of Ada's rows says what it costs."""
    # rule: II-COMPLEX-4
    # rule: II-COMPLEX-5
    _scene(ii, secret=False)
    ii.send({"do": "regular_action", "character": "Bea", "choice": "auto"})
    body = _odds(ii, ii.gm_token, character="Ada")
    assert body["situation"] == "regular_action" and body["choices"][0]["choice"] == "auto"  # old keys kept
    advice = body["advice"]
    rules = default_rules()
    left, crisis = 12 - rules.complex.obstruction_reduction, rules.crisis.auto  # Bea's automatic pass
    spot = Spot(left, 2, "Bea", frozenset(), crisis)
    expected = advise(parse_party([ADA, BEA]), spot, objective="crisis", cap=crisis + HORIZON).to_json()
    assert advice == expected
    assert [a["character"] for a in advice["actions"]] == ["Ada"] * 3  # Bea acted last (II-COMPLEX-5)
    rows = body["choices"] + body["decisive"]
    assert all(row["cost_vs_best"] >= 0 for row in rows)
    assert sum(row["optimal"] for row in rows) == 1
    best = next(row for row in rows if row["optimal"])
    assert advice["best"].endswith(best.get("talent") or "automatic")


def test_below_objective_stops_at_the_next_visible_trigger(ii: Campaign) -> None:
    """With ``below`` the cap is the next Trigger the viewer sees; a GM-only one shapes no player's advice."""
    # rule: II-CRISIS-2
    _scene(ii, secret=True)
    player = ii.join("Pia")
    gm = _odds(ii, ii.gm_token, character="Ada", objective="below")["advice"]
    assert gm["cap"] == 10 and gm["objective"] == "below"
    assert 0 <= gm["actions"][0]["p_below_cap"] <= 1
    seen = _odds(ii, player, character="Ada", objective="below")["advice"]
    assert seen["cap"] == HORIZON  # the hidden Trigger at 10 shapes nothing a player receives


def test_no_complex_obstacle_no_advice_and_bad_objective_is_422(ii: Campaign) -> None:
    """A Simple Obstacle has no solver advice; an unknown objective is refused naming the key."""
    for sheet in (ADA, BEA):
        ii.send({"do": "add_character", "sheet": sheet})
    ii.send(action_scene(secret=False))
    assert "advice" not in _odds(ii, ii.gm_token, character="Ada")
    ii.send({"do": "complex_obstacle", "obstruction": 12})
    refused = ii.client.post(
        f"{ii.base}/odds", json={"character": "Ada", "objective": "most"}, headers=bearer(ii.gm_token)
    )
    assert refused.status_code == 422 and refused.json()["error"]["path"] == "objective"


@pytest.mark.parametrize("situation", ["decisive_action"])
def test_a_named_decisive_situation_is_marked_too(ii: Campaign, situation: str) -> None:
    """Asked for Decisive Actions by name, each row still says its cost against the best action."""
    # rule: II-COMPLEX-6
    _scene(ii, secret=False)
    body = _odds(ii, ii.gm_token, character="Bea", situation=situation)
    assert body["advice"]["best"] and all("cost_vs_best" in row for row in body["choices"])


@pytest.mark.parametrize(
    ("crisis", "triggers", "expected"),
    [
        (0, [], None),
        (4, [{"at": 10, "every": None, "fired": []}], 10),
        (12, [{"at": 10, "every": 10, "fired": [10]}], 20),
        (20, [{"at": 10, "every": 10, "fired": [10, 20]}, {"at": 25, "every": None, "fired": []}], 25),
        (12, [{"at": 10, "every": None, "fired": [10]}], None),
    ],
)
def test_next_trigger_value(crisis: int, triggers: list[dict[str, Any]], expected: int | None) -> None:
    """II-CRISIS-2: the next value above the Crisis so far, a repeating Trigger's too."""
    # rule: II-CRISIS-2
    assert _next_trigger({"crisis": crisis, "triggers": triggers}) == expected


def test_a_character_without_talents_takes_part_by_automatic_actions(ii: Campaign) -> None:
    """A supporting character with no Talents is in the advice with its automatic Regular Action only."""
    # rule: II-COMPLEX-3
    helper = {
        "name": "Ortiz",
        "abilities": {"fortitude": 2, "perseverance": 2, "nimbleness": 2},
        "talents": [],
    }
    for sheet in (ADA, helper):
        ii.send({"do": "add_character", "sheet": sheet})
    ii.send(action_scene(secret=False))
    ii.send({"do": "complex_obstacle", "obstruction": 12, "attempts": 2})
    body = _odds(ii, ii.gm_token, character="Ortiz")
    labels = [a["label"] for a in body["advice"]["actions"]]
    assert "Ortiz: Regular, automatic" in labels and any(label.startswith("Ada:") for label in labels)
    assert "cost_vs_best" in body["choices"][0]


def test_rules_the_solver_cannot_order_give_a_reason_not_an_error(ii: Campaign) -> None:
    """Under a variant where a success adds no Crisis the solver declines; the odds still answer."""
    made = ii.client.post(
        "/api/campaigns", json={"name": "Free wins", "system": "ii", "variant": {"crisis": {"success": 0}}}
    )
    assert made.status_code == 201, made.text
    free = Campaign(ii.client, made.json()["id"], made.json()["gm_token"], made.json()["invite_token"], {})
    _scene(free, secret=False)
    body = _odds(free, free.gm_token, character="Ada")
    assert body["advice"] is None and "Crisis" in body["advice_reason"]
    assert body["choices"] and "cost_vs_best" not in body["choices"][0]


STEADY = {"name": "Steady Hands", "cost": 3, "kind": "modifier", "effects": {"advantage": 3}}
ADA_STEADY = ADA | {"talents": [ADA["talents"][0] | {"skills": [STEADY]}]}


def test_modifier_skills_are_weighed_and_mark_the_ticked_rows(ii: Campaign) -> None:
    """Ada's modifier Skill is an action of its own in the advice, weighed as the table rolls it; the rows
    of a query that ticks it carry that action's cost, those of one that does not carry the plain roll's."""
    # rule: II-SKILL-1
    # rule: II-SKILL-2
    for sheet in (ADA_STEADY, BEA):
        ii.send({"do": "add_character", "sheet": sheet})
    ii.send(action_scene(secret=False))
    ii.send({"do": "complex_obstacle", "obstruction": 24, "attempts": 2})
    ticked = _odds(ii, ii.gm_token, character="Ada", skills=["Steady Hands"])
    plain = _odds(ii, ii.gm_token, character="Ada")
    expected = advise(parse_party([ADA_STEADY, BEA]), Spot(24, 2), objective="crisis", cap=HORIZON)
    assert ticked["advice"] == plain["advice"] == expected.to_json()
    costs = {row["label"]: row["cost"] for row in expected.to_json()["actions"]}
    assert "Ada: Decisive, Piloting + Steady Hands" in costs
    assert ticked["decisive"][0]["skills"] == ["Steady Hands"]
    assert ticked["decisive"][0]["cost_vs_best"] == costs["Ada: Decisive, Piloting + Steady Hands"]
    assert plain["decisive"][0]["cost_vs_best"] == costs["Ada: Decisive, Piloting"]
    assert costs["Ada: Decisive, Piloting + Steady Hands"] < costs["Ada: Decisive, Piloting"]


def test_an_obstacle_past_the_table_limits_gives_a_reason(
    ii: Campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the table's limits (:data:`talespin.lab.limits.TABLE`) the odds answer without advice and say
    which limit and what to reduce."""
    monkeypatch.setattr(odds_advice, "TABLE", limits.SolverLimits(1000, 10**9, 1 << 30, 16))
    _scene(ii, secret=False)
    body = _odds(ii, ii.gm_token, character="Ada")
    assert body["advice"] is None
    assert "at most 1000" in body["advice_reason"] and "talespin lab advise" in body["advice_reason"]
    assert body["choices"]
