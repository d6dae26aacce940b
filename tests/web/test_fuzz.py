"""Bad input finds no 500 and no hang: schemathesis over /openapi.json, and Hypothesis over commands."""

from __future__ import annotations

from typing import Any

from fuzz_support import fuzz_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from table_sheets import ADA
from web_support import Campaign, bearer

APP, CLIENT, II, ASCEND, SCHEMA = fuzz_table("fuzz")


@SCHEMA.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_server_error(case: Any) -> None:
    """Generated requests to every operation, on a real campaign or a random one, never get a 5xx."""
    campaign = II if hash(str(case.body)) % 2 else ASCEND
    if case.path_parameters and "campaign_id" in case.path_parameters and hash(repr(case.query)) % 3:
        case.path_parameters["campaign_id"] = campaign.id
    headers = bearer(campaign.gm_token) if hash(repr(case.path_parameters)) % 4 else None
    case.call_and_validate(headers=headers, checks=[not_a_server_error])


_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_II_DO = [
    "start_scene",
    "end_scene",
    "simple_obstacle",
    "complex_obstacle",
    "regular_action",
    "decisive_action",
    "add_trigger",
    "add_character",
    "note",
    "undo",
    "reveal_seed",
    "regular_attack",
    "decisive_attack",
]
_II_KEYS = [
    "character",
    "choice",
    "talent",
    "advantage",
    "disadvantage",
    "dice",
    "faces",
    "visibility",
    "kind",
    "difficulty",
    "triggers",
    "obstruction",
    "attempts",
    "text",
    "sheet",
    "target",
    "skills",
    "at",
    "every",
]
_AS_DO = [
    "test",
    "opposed_test",
    "extended_test",
    "extended_step",
    "end_extended",
    "narrate",
    "add_character",
    "start_scene",
    "end_scene",
    "note",
    "undo",
]
_AS_KEYS = [
    "hero",
    "skill",
    "difficulty",
    "trait",
    "background",
    "invoke",
    "narration",
    "required",
    "faces",
    "aid",
    "visibility",
    "goal",
    "limit",
    "opponent",
    "sheet",
    "text",
]


def _commands(dos: list[str], keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(
        lambda do, rest: {"do": do, **rest},
        st.sampled_from(dos),
        st.dictionaries(st.sampled_from(keys), _values, max_size=5),
    )


def _post(campaign: Campaign, command: dict[str, Any]) -> None:
    response = campaign.post(command)
    assert response.status_code < 500, response.text
    assert response.status_code in {200, 403, 409, 422}, response.text


@given(command=_commands(_II_DO, _II_KEYS))
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_random_inciting_incident_commands_are_answered_or_refused(command: dict[str, Any]) -> None:
    """Commands of every II name with random arguments get 200 or a clear 4xx, never a 500."""
    _post(II, command)


@given(command=_commands(_AS_DO, _AS_KEYS))
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
def test_random_ascend_commands_are_answered_or_refused(command: dict[str, Any]) -> None:
    """Commands of every Ascend name with random arguments get 200 or a clear 4xx, never a 500."""
    _post(ASCEND, command)


@given(query=st.dictionaries(st.sampled_from(_II_KEYS + _AS_KEYS), _values, max_size=5))
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
def test_random_odds_queries_are_answered_or_refused(query: dict[str, Any]) -> None:
    """Odds queries with random keys and values never get a 500."""
    for campaign in (II, ASCEND):
        response = campaign.client.post(
            f"{campaign.base}/odds", json=query, headers=bearer(campaign.gm_token)
        )
        assert response.status_code in {200, 422}, response.text


@given(
    sheet=st.dictionaries(
        st.sampled_from(["name", "abilities", "talents", "skills", "traits", "aids"]), _values
    )
)
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
def test_random_sheets_are_validated_or_refused(sheet: dict[str, Any]) -> None:
    """Sheet validation of random sheets answers 200 (a verdict) or 422, never a 500."""
    for system in ("ii", "ascend"):
        response = CLIENT.post(f"/api/systems/{system}/validate", json={"sheet": sheet})
        assert response.status_code in {200, 422}, response.text


ODDS = Campaign.create(CLIENT, "ii")
"""A campaign only odds queries touch, so random commands elsewhere cannot undo its character."""
ODDS.send({"do": "add_character", "sheet": ADA})
_ODDS_KEYS = ["dice", "advantage", "disadvantage", "against", "cost", "situation", "skills", "talent"]


@given(extra=st.dictionaries(st.sampled_from(_ODDS_KEYS), _values, max_size=4))
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
def test_odds_for_a_real_character_with_random_numbers_are_answered_or_refused(extra: dict[str, Any]) -> None:
    """An odds query about a real character with badly typed numbers is refused with 422, never a 500."""
    response = ODDS.client.post(
        f"{ODDS.base}/odds", json={"character": "Ada", **extra}, headers=bearer(ODDS.gm_token)
    )
    assert response.status_code in {200, 422}, response.text


def test_odds_refuse_badly_typed_numbers_by_name() -> None:
    """Each badly typed number of an odds query is refused naming its key, and a good query still answers."""
    bad = [
        ({"dice": "x"}, "dice"),
        ({"advantage": "x"}, "advantage"),
        ({"disadvantage": [1]}, "disadvantage"),
        ({"dice": 1.5}, "dice"),
        ({"advantage": -3}, "advantage"),
        ({"situation": "recreate_skill", "cost": "x"}, "cost"),
        ({"situation": "ability_roll", "against": "x"}, "against"),
    ]
    for extra, key in bad:
        response = ODDS.client.post(
            f"{ODDS.base}/odds", json={"character": "Ada", **extra}, headers=bearer(ODDS.gm_token)
        )
        assert response.status_code == 422, (extra, response.text)
        assert key in response.json()["error"]["message"], response.text
    good = ODDS.client.post(
        f"{ODDS.base}/odds", json={"character": "Ada", "dice": 4}, headers=bearer(ODDS.gm_token)
    )
    assert good.status_code == 200, good.text
    assert good.json()["choices"]
