"""Non-interference against real servers: two ``talespin serve`` processes, one session each, same bytes.

Each case starts two real server processes (``fixed_serve.py``: the ``talespin serve`` command line with
fixed seeds, ids, tokens, clock and server nonces, so that two runs are comparable at all; see there), each
on its own fresh SQLite file and free loopback port, with the default rate limits. The same session
(:mod:`blind_play`) is played on each over HTTP, each player with a WebSocket open from the moment it
joins; the runs differ only in one GM secret: a blind roll's physical faces, the text and number of GM-only
notes, whether an unfired GM-only Trigger exists, or (Ascend) the nonce of a blind roll's server dice.
Every HTTP body and WebSocket frame each player received is compared byte for byte up to the reveal.

Nothing is normalised: with the sources fixed, nothing a player receives differs by construction (the
server's port appears in no player's answer). The GM's own record does differ (the secret was real), and
after the reveal the players' records differ too (so the comparison can fail).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from blind_drivers import ServedDriver
from blind_play import SERVED_CASES, Secrets, Seen, assert_same_until_reveal, play_ascend, play_ii, text
from web_support import ServerProcess, all_running, bearer, free_port

LAUNCHER = Path(__file__).with_name("fixed_serve.py")


@contextmanager
def _servers(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    servers = [
        ServerProcess(tmp_path / f"run-{n}.db", free_port(), limits="", launcher=LAUNCHER) for n in (1, 2)
    ]
    with all_running(servers):
        yield servers


def _run(server: ServerProcess, system: str, secrets: Secrets) -> tuple[Seen, Seen, str]:
    """The session on one server: what players got up to the reveal, in all, and the GM's record."""
    with httpx.Client(base_url=server.url, timeout=20) as client:
        driver, seen = ServedDriver(client, server.ws, system), Seen()
        try:
            reveal = (play_ii if system == "ii" else play_ascend)(driver, secrets, seen)
            before = Seen({who: list(texts) for who, texts in seen.answers.items()})
            gm = client.get(f"{driver.base}/events?after=0", headers=bearer(driver.tokens["gm"]))
            reveal()
        finally:
            driver.close()
    return before, seen, text(gm.json()["events"])


CASES = SERVED_CASES


@pytest.mark.parametrize(("system", "what", "first", "second"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_two_real_servers_give_players_the_same_bytes_until_the_reveal(
    tmp_path: Path, system: str, what: str, first: Secrets, second: Secrets
) -> None:
    """Every HTTP body and WebSocket frame each player got from a real server is the same in both runs."""
    with _servers(tmp_path) as (one_server, other_server):
        one, one_after, one_gm = _run(one_server, system, first)
        other, other_after, other_gm = _run(other_server, system, second)
    assert one_gm != other_gm, "the GM's secrets did not differ"
    every = [line for answers in one.answers.values() for line in answers]
    assert any(line.startswith("4") for line in every), "no error body was compared"
    assert_same_until_reveal((one, other), (one_after, other_after), what)
