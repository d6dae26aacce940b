"""Schemathesis over the whole OpenAPI description, with texts no JSON generator makes by default.

Schemathesis draws valid and invalid requests for every operation; each is then *poisoned* with a drawn
text (lone UTF-16 surrogates, C0 and C1 control characters, NUL, noncharacters) put into one string of the
body, as a value or as a key, or into a query parameter as raw bytes that are not UTF-8. The body goes out
as JSON text with ``\\ud800`` escapes, as a hostile client would send it. Every answer must be below 500,
and every 4xx must carry ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from fuzz_support import fuzz_table
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.core import NOT_SET
from web_support import bearer

APP, CLIENT, II, ASCEND, SCHEMA = fuzz_table("schema")
SCHEMA.config.phases.examples.enabled = False  # drawn cases only: each is poisoned by a drawn text
SCHEMA.config.phases.coverage.enabled = False

_BAD_CHARACTERS = st.characters(categories=["Cs", "Cc"]) | st.sampled_from(["\ufffe", "\uffff", "\u0085"])
POISON = st.one_of(
    st.sampled_from(["\ud800", "\udfff", "a\ud83d", "\udc00b", "\x00", "\x1b[31m", "[/]", "\u2028"]),
    st.text(_BAD_CHARACTERS, min_size=1, max_size=4),
    st.builds(lambda a, b, c: a + b + c, st.text(max_size=3), _BAD_CHARACTERS, st.text(max_size=3)),
)
RAW_QUERY = ["%ED%A0%80", "%00", "%FF%FE", "%C0%80", "1%00", "%F4%90%80%80"]


def _strings(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every string value and key inside ``value``."""
    found: list[tuple[Any, ...]] = []
    if isinstance(value, str):
        found.append(path)
    elif isinstance(value, dict):
        for key, child in value.items():
            found.append((*path, ("key", key)))
            found += _strings(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _strings(child, (*path, index))
    return found


def _quoted(value: Any) -> str:
    """``value`` percent-encoded for a URL, byte for byte (a lone surrogate as the bytes it would take)."""
    return quote(str(value).encode("utf-8", "surrogatepass"), safe="")


def poisoned(body: Any, poison: str, where: int) -> Any:
    """``body`` with the ``where``-th string (value or key) replaced by ``poison``, or ``poison`` itself."""
    spots = _strings(body)
    if not spots:
        return (
            {"name": poison, "system": "ii", "text": poison}
            if isinstance(body, dict) or body is None
            else poison
        )
    spot = spots[where % len(spots)]
    if spot == ():
        return poison
    *parents, last = spot
    holder = body
    for step in parents:
        holder = holder[step]
    if isinstance(last, tuple):  # a key
        holder[poison] = holder.pop(last[1])
    else:
        holder[last] = poison
    return body


@SCHEMA.parametrize()
@SCHEMA.given(
    twist=st.tuples(
        POISON,
        st.integers(0, 10_000),
        st.sampled_from(["body", "body", "query", "none"]),
        st.sampled_from(RAW_QUERY),
        st.integers(0, 5),
    )
)
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_generated_or_poisoned_request_makes_a_5xx_and_every_4xx_says_why(
    case: Any, twist: tuple[str, int, str, str, int]
) -> None:
    """Every operation, generated and then poisoned: never a 5xx; every 4xx has an ``error`` object."""
    poison, where, place, raw, seat = twist
    campaign = II if seat % 2 else ASCEND
    path_parameters = dict(case.path_parameters or {})
    if "campaign_id" in path_parameters and seat < 4:
        path_parameters["campaign_id"] = campaign.id
    path = case.path.format(**{k: _quoted(v) for k, v in path_parameters.items()})
    body = None if case.body is NOT_SET else case.body
    if place == "body" and case.method.upper() == "POST" and not isinstance(body, bytes):
        body = poisoned(json.loads(json.dumps(body)), poison, where)
    query = "&".join(f"{_quoted(k)}={_quoted(v)}" for k, v in (case.query or {}).items())
    if place == "query":
        query = "&".join(filter(None, [query, f"after={raw}", f"format={raw}", f"limit={raw}"]))
    headers = {"content-type": "application/json"}
    if seat % 3:
        headers |= bearer(campaign.gm_token)
    content = body if isinstance(body, bytes) or body is None else json.dumps(body).encode("ascii")
    response = CLIENT.request(
        case.method, f"{path}?{query}" if query else path, content=content, headers=headers
    )
    assert response.status_code < 500, (case.method, path, content, response.text)
    if response.status_code >= 400:
        error = response.json().get("error")
        assert isinstance(error, dict) and error.get("code") and error.get("message"), response.text


def test_poisoning_reaches_the_checks_it_means_to_reach() -> None:
    """The poisoner really puts a lone surrogate where the server reads it, and is refused naming it."""
    body = poisoned({"name": "Night", "system": "ii"}, "\ud800", 1)
    assert body["name"] == "\ud800" or "\ud800" in body
    response = CLIENT.post(
        "/api/campaigns",
        content=json.dumps(body).encode("ascii"),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422 and response.json()["error"]["path"] == "name", response.text
    assert b"\\ud800" in json.dumps(body).encode("ascii")
