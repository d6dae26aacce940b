"""Optimistic concurrency against the real server: one winner per version, no lost update."""

from __future__ import annotations

import threading
from collections import Counter

import httpx
from web_support import Campaign, ServerProcess, bearer

RACERS = 20
ROUNDS = 5


def test_twenty_clients_racing_on_one_version_have_exactly_one_winner(server: ServerProcess) -> None:
    """Each round, 20 clients send a command expecting the same version: one gets 200, nineteen get 409."""
    with httpx.Client(base_url=server.url, timeout=10.0) as http:
        campaign = Campaign.create(http, "ascend")
        headers = bearer(campaign.gm_token)
        winners: list[str] = []
        for round_number in range(ROUNDS):
            version = campaign.version()
            barrier = threading.Barrier(RACERS)
            statuses: list[int] = []

            def race(
                racer: int,
                version: int = version,
                barrier: threading.Barrier = barrier,
                statuses: list[int] = statuses,
                round_number: int = round_number,
            ) -> None:
                text = f"round {round_number} racer {racer}"
                body = {"command": {"do": "note", "text": text}, "expected_version": version}
                with httpx.Client(base_url=server.url, timeout=10.0) as own:
                    barrier.wait(timeout=10)
                    response = own.post(f"{campaign.base}/commands", json=body, headers=headers)
                statuses.append(response.status_code)
                if response.status_code == 200:
                    winners.append(text)

            threads = [threading.Thread(target=race, args=(n,)) for n in range(RACERS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
            assert Counter(statuses) == {200: 1, 409: RACERS - 1}
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

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    with httpx.Client(base_url=server.url, timeout=10.0) as http:
        notes = [n["text"] for n in Campaign(http, campaign.id, campaign.gm_token, "", {}).state()["notes"]]
    assert sorted(notes) == sorted(f"{r}:{i}" for r in range(RACERS) for i in range(5))
