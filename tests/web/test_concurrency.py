"""Optimistic concurrency against the real server: one winner per version, no lost update."""

from __future__ import annotations

import httpx
from web_support import Campaign, ServerProcess, bearer, in_threads, one_winner

RACERS = 20
ROUNDS = 5


def test_twenty_clients_racing_on_one_version_have_exactly_one_winner(server: ServerProcess) -> None:
    """Each round, 20 clients send a command expecting the same version: one gets 200, nineteen get 409."""
    with httpx.Client(base_url=server.url, timeout=10.0) as http:
        campaign = Campaign.create(http, "ascend")
        headers = bearer(campaign.gm_token)
        url = f"{server.url}{campaign.base}/commands"
        winners: list[str] = []
        for round_number in range(ROUNDS):
            version = campaign.version()
            texts = [f"round {round_number} racer {racer}" for racer in range(RACERS)]

            def send(
                own: httpx.Client, racer: int, version: int = version, texts: list[str] = texts
            ) -> httpx.Response:
                body = {"command": {"do": "note", "text": texts[racer]}, "expected_version": version}
                return own.post(url, json=body, headers=headers)

            winners.append(texts[one_winner(RACERS, send)])
        notes = [n["text"] for n in campaign.state()["notes"]]
        assert notes == winners and len(notes) == ROUNDS


def test_retrying_clients_lose_no_update(server: ServerProcess) -> None:
    """20 clients each add 5 notes, retrying on 409 with a fresh version: all 100 notes are there once."""
    with httpx.Client(base_url=server.url, timeout=10.0) as http:
        campaign = Campaign.create(http, "ascend")
    headers = bearer(campaign.gm_token)
    errors: list[str] = []

    def writer(racer: int) -> None:
        with httpx.Client(base_url=server.url, timeout=10.0) as own:
            for index in range(5):
                for _attempt in range(500):
                    version = own.get(f"{campaign.base}/state", headers=headers).json()["version"]
                    body = {
                        "command": {"do": "note", "text": f"{racer}:{index}"},
                        "expected_version": version,
                    }
                    response = own.post(f"{campaign.base}/commands", json=body, headers=headers)
                    if response.status_code == 200:
                        break
                    if response.status_code != 409:
                        errors.append(response.text)
                        return
                else:
                    errors.append(f"{racer}:{index} never got through")

    in_threads(RACERS, writer, timeout=60)
    assert errors == []
    with httpx.Client(base_url=server.url, timeout=10.0) as http:
        notes = [n["text"] for n in Campaign(http, campaign.id, campaign.gm_token, "", {}).state()["notes"]]
    assert sorted(notes) == sorted(f"{r}:{i}" for r in range(RACERS) for i in range(5))
