"""Three real `talespin serve` processes on one PostgreSQL: every campaign live and consistent on all of them.

Each test starts its own three processes on a schema of its own (LISTEN/NOTIFY channels are per schema), so
parallel runs on one database never meet. Skipped loudly when TALESPIN_TEST_POSTGRES is unset.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from cluster_support import Listener, cluster, replayed_state, visible_versions
from web_support import ServerProcess, bearer, one_winner

pytestmark = pytest.mark.postgres

NOTES = 30
RACERS = 20
ROUNDS = 5


def _create(server: ServerProcess) -> dict[str, str]:
    response = httpx.post(
        f"{server.url}/api/campaigns", json={"name": "Club", "system": "ascend"}, timeout=10
    )
    assert response.status_code == 201, response.text
    return dict(response.json())


def _join(server: ServerProcess, campaign_id: str, invite: str, name: str) -> httpx.Response:
    body = {"invite_token": invite, "name": name}
    return httpx.post(f"{server.url}/api/campaigns/{campaign_id}/join", json=body, timeout=10)


def _note(
    server: ServerProcess, campaign_id: str, token: str, text: str, version: int, *, http: Any = httpx
) -> httpx.Response:
    """Post a note through ``server`` (with the client ``http``, or a connection of its own)."""
    body = {"command": {"do": "note", "text": text}, "expected_version": version}
    url = f"{server.url}/api/campaigns/{campaign_id}/commands"
    return http.post(url, json=body, headers=bearer(token), timeout=10)


def _state(server: ServerProcess, campaign_id: str, token: str) -> dict[str, object]:
    response = httpx.get(f"{server.url}/api/campaigns/{campaign_id}/state", headers=bearer(token), timeout=10)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_every_process_streams_every_commit_in_order() -> None:
    """Sockets on 3 processes receive every event committed through any process: in order, once each."""
    with cluster() as servers:
        made = _create(servers[0])
        campaign_id, gm = made["id"], made["gm_token"]
        base = f"/api/campaigns/{campaign_id}"
        player = _join(servers[1], campaign_id, made["invite_token"], "Pia").json()["player_token"]
        # each viewer numbers what it receives: a player's versions are its own, not the GM's
        starts = {token: int(_state(servers[2], campaign_id, token)["version"]) for token in (gm, player)}
        listeners = [Listener([s], base, token, starts[token]) for s in servers for token in (gm, player)]
        for listener in listeners:
            listener.start()
        for listener in listeners:
            listener.wait_open()
        version = starts[gm]
        for index in range(NOTES):  # each command goes to the next process, expecting the last one's version
            answer = _note(servers[index % 3], campaign_id, gm, f"note {index}", version)
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]
        ends = {token: int(_state(servers[0], campaign_id, token)["version"]) for token in (gm, player)}
        assert ends[gm] == version
        for listener, token in zip(listeners, [gm, player] * 3, strict=True):
            listener.wait_for(ends[token])
            listener.close()
        for listener, token in zip(listeners, [gm, player] * 3, strict=True):
            assert listener.versions == visible_versions(servers[0], base, token, starts[token])
        replay = replayed_state(servers[0], campaign_id)
        for server in servers:
            assert _state(server, campaign_id, gm) == replay


def test_racers_on_three_processes_have_one_winner_per_version() -> None:
    """Each round 20 clients spread over 3 processes send at one version: one 200, nineteen 409s."""
    with cluster() as servers:
        made = _create(servers[0])
        campaign_id, gm = made["id"], made["gm_token"]
        winners: list[str] = []
        for round_number in range(ROUNDS):
            version = int(_state(servers[round_number % 3], campaign_id, gm)["version"])
            texts = [f"round {round_number} racer {racer}" for racer in range(RACERS)]

            def send(
                own: httpx.Client, racer: int, version: int = version, texts: list[str] = texts
            ) -> httpx.Response:
                return _note(servers[racer % 3], campaign_id, gm, texts[racer], version, http=own)

            winners.append(texts[one_winner(RACERS, send)])
        for server in servers:
            notes = [note["text"] for note in _state(server, campaign_id, gm)["notes"]]  # type: ignore[attr-defined]
            assert notes == winners


def test_a_renewed_invite_is_refused_by_every_process_at_once() -> None:
    """The GM renews the invite on one process: the old one is refused on all three, the new one admits."""
    with cluster() as servers:
        made = _create(servers[0])
        campaign_id, gm, old = made["id"], made["gm_token"], made["invite_token"]
        for number, server in enumerate(servers):  # every process has the campaign cached, old invite and all
            assert _join(server, campaign_id, old, f"early {number}").status_code == 201
        renewed = httpx.post(
            f"{servers[0].url}/api/campaigns/{campaign_id}/invite", headers=bearer(gm), timeout=10
        )
        assert renewed.status_code == 201, renewed.text
        fresh = renewed.json()["invite_token"]
        for number, server in enumerate(servers):  # at once: no waiting for the announcement
            refused = _join(server, campaign_id, old, f"intruder {number}")
            assert refused.status_code == 401, refused.text
        admitted = _join(servers[2], campaign_id, fresh, "Late")
        assert admitted.status_code == 201, admitted.text
        names = {player["name"] for player in _state(servers[1], campaign_id, gm)["players"]}  # type: ignore[attr-defined]
        assert names == {"early 0", "early 1", "early 2", "Late"}
