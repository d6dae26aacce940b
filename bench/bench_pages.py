"""What open pages cost the server: CPU seconds per command with and without five real table pages.

A real ``talespin serve`` process (SQLite) holds two equal Ascend campaigns: the GM and four players, each
player handed a hero of their own (five heroes well into play: 4 Traits, 3 Backgrounds, 3 Aids each); the
five pages are open on one of them only. Commands (an Ascend Test of the GM's hero, server dice) are sent
over HTTP one at a time, by turns 20 to each campaign (80 each in all, so a change of load on the shared
machine weighs on both alike), at a steady pace, one every :data:`PACE` seconds with pages open or not,
each once every open page shows the last; each turn's count runs from a quiet server to a quiet server, so
every command's whole aftermath is counted. The same pace both ways
matters: a server's idle work between commands (its timers, the collector's short passes) and waking up to
a command cost CPU too, and a benchmark that waited longer with pages open (a quiet window after each
command, and five pages to draw on a busy machine) charged that idle time to the pages.

* ``table_cpu_per_command``: the server's CPU seconds (``/proc``: user + system, every thread) per command
  with no page open: the command itself.
* ``table_cpu_per_command_with_5_pages``: the same with the GM's page and the four players' pages open in
  headless Chromium (Playwright, ``/usr/bin/chromium``), each holding its WebSocket and doing after every
  live event whatever the shipped page does. The pages are the real ones, so the figure follows the page
  as it changes: today each gets a command's events and its state in one frame (``?state=1&batch=1``) and
  asks for odds only when its Test or the hero's sheet changes.
* ``table_pages_vs_no_pages``: the second over the first (target ≤ 2).
* ``page_ready_10k_events``: seconds from opening the GM's page of a 10,000-event campaign (written into the
  server's SQLite file beforehand, ``tests/browser/long_campaign.py``) until it is usable: the newest
  version and entry shown, the Roll button enabled, the Test's odds in (median of 3, after one warm-up load
  that also has the server read the campaign; target < 1 s).

Skipped, and saying so, where Chromium is missing.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from load import TEST, Server

Figure = float | int | str

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
COMMANDS = 20
"""Commands a turn on each campaign: at a few ms of CPU each, counted in ``/proc``'s 10 ms ticks."""
ROUNDS = 4
"""Turns on each campaign: 80 commands each way in all."""
PACE = 0.25
"""Seconds from one command to the next, with pages or without (five pages show a command in about 0.1 s)."""
PLAYERS = 4
HEROES = ["Susan", "Ann", "Bo", "Cyra", "Dov"]
BROWSER_TESTS = Path(__file__).resolve().parents[1] / "tests" / "browser"
READY = """v => document.querySelector('#version')?.textContent === v
  && !document.querySelector('#roll-test')?.disabled
  && /last word/.test(document.querySelector('#log > li')?.textContent ?? '')
  && /d10/.test(document.querySelector('#test-odds')?.textContent ?? '')"""
"""The GM's page is ready: the newest version, the newest entry, the Roll button usable, the odds in."""
HERO = {
    "skills": {"Athletics": 3},
    "convictions": {"Protect the weak": 4},
    "traits": {"Agility": 3, "Strength": 2, "Wits": 2, "Grace": 1},
    "backgrounds": {"Avanus": 1, "Sailor": 2, "Scholar": 1},
    "aids": {"Rope": 1, "Lantern": 2, "Map": 1},
}
"""Every hero's sheet (a hero well into play: 4 Traits, 3 Backgrounds, 3 Aids), under each name."""
QUIET_CPU_SECONDS = 0.01
"""The server counts as quiet once it uses less than this much CPU in :data:`QUIET_WINDOW` seconds."""
QUIET_WINDOW = 0.4
SETTLE_LIMIT = 60.0


class _Table:
    """The campaign, driven over HTTP: the GM's token, the players' tokens and the version."""

    def __init__(self, server: Server) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=60)
        made = self._ok("POST", "/api/campaigns", {"name": "Five pages", "system": "ascend"})
        self.id, self.gm_token, self.version = made["id"], made["gm_token"], int(made["version"])
        for name in HEROES:
            self.command({"do": "add_character", "sheet": {**HERO, "name": name}})
        self.player_tokens = []
        for number in range(PLAYERS):
            body = {"invite_token": made["invite_token"], "name": f"Player {number + 1}"}
            joined = self._ok("POST", f"{self.base}/join", body)
            self.player_tokens.append(joined["player_token"])
            hand = {"character": HEROES[number + 1], "to": joined["player_id"]}
            self.version = int(self._ok("POST", f"{self.base}/seats/hand", hand, self.gm_token)["version"])

    @property
    def base(self) -> str:
        return f"/api/campaigns/{self.id}"

    def _ok(self, method: str, path: str, body: Any, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.request(method, path, json=body, headers=headers)
        if response.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text}")
        return response.json()

    def command(self, command: dict[str, Any]) -> None:
        body = {"command": command, "expected_version": self.version}
        self.version = int(self._ok("POST", f"{self.base}/commands", body, self.gm_token)["version"])

    def links(self) -> list[str]:
        return [f"/table.html#campaign={self.id}&token={t}" for t in [self.gm_token, *self.player_tokens]]


def _shown(pages: list[Any]) -> list[str]:
    """The version each page shows (a player's page numbers what it receives, so each page has its own)."""
    return [str(page.eval_on_selector("#version", "e => e.textContent")) for page in pages]


def _shown_again(pages: list[Any], before: list[str]) -> None:
    """Wait until every page shows another version than ``before``."""
    for page, shown in zip(pages, before, strict=True):
        page.wait_for_function(
            "v => (document.querySelector('#version')?.textContent ?? v) !== v",
            arg=shown,
            timeout=SETTLE_LIMIT * 1000,
        )


def _settle(server: Server) -> None:
    """Wait until the server has gone quiet: less than :data:`QUIET_CPU_SECONDS` in a window."""
    deadline = time.monotonic() + SETTLE_LIMIT
    before_cpu = server.cpu_seconds()
    while time.monotonic() < deadline:
        time.sleep(QUIET_WINDOW)
        now = server.cpu_seconds()
        if now - before_cpu < QUIET_CPU_SECONDS:
            return
        before_cpu = now
    raise RuntimeError("the server did not go quiet after a command")


def _cpu_seconds(server: Server, table: _Table, pages: list[Any], commands: int) -> float:
    """The server's CPU seconds over ``commands`` commands on ``table`` sent at a steady pace.

    One command every :data:`PACE` seconds (later only if the pages have not all shown the last one yet),
    with or without pages: the same pace both ways, so the server's idle work between commands (its
    timers and the collector's passes, about 2–3 ms a second) and the cost of waking up to each command
    count alike in both figures. The count runs from a quiet server to a quiet server, so every command's
    whole aftermath is in it.
    """
    _settle(server)
    started = server.cpu_seconds()
    due = time.monotonic()
    for _ in range(commands):
        time.sleep(max(0.0, due - time.monotonic()))
        due = max(due + PACE, time.monotonic())
        before = _shown(pages)
        table.command(TEST)
        _shown_again(pages, before)
    _settle(server)
    return server.cpu_seconds() - started


def _cpu_per_command(server: Server, alone: _Table, watched: _Table, pages: list[Any]) -> tuple[float, float]:
    """CPU per command on ``alone`` (no page open) and on ``watched`` (its five pages open), by turns.

    :data:`ROUNDS` rounds, each :data:`COMMANDS` commands on one campaign and then on the other, so a
    change of load on the shared machine weighs on both figures alike.
    """
    for page in pages:  # loaded: the state and the log are in
        page.wait_for_function("() => /\\d/.test(document.querySelector('#version')?.textContent ?? '')")
    spent = {"alone": 0.0, "watched": 0.0}
    for _ in range(ROUNDS):
        spent["alone"] += _cpu_seconds(server, alone, [], COMMANDS)
        spent["watched"] += _cpu_seconds(server, watched, pages, COMMANDS)
    return spent["alone"] / (ROUNDS * COMMANDS), spent["watched"] / (ROUNDS * COMMANDS)


def _page_ready(browser: Any) -> float:
    """Median seconds until the GM's page of a 10,000-event campaign is usable (see the module's doc)."""
    sys.path.insert(0, str(BROWSER_TESTS))
    from long_campaign import build  # noqa: PLC0415 - the browser tests' campaign builder
    from serving import serving  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="talespin-bench-long-") as folder:
        campaign = build(Path(folder) / "talespin.db", events=10_000)
        with serving(Path(folder)) as url:
            times = []
            for _ in range(4):
                context = browser.new_context()
                page = context.new_page()
                started = time.perf_counter()
                page.goto(url + campaign.gm_link)
                page.wait_for_function(READY, arg=str(campaign.version), timeout=SETTLE_LIMIT * 1000)
                times.append(time.perf_counter() - started)
                context.close()
    return statistics.median(times[1:])


def run() -> dict[str, Figure]:
    """Measure the command alone and with five pages open, by turns, on one server."""
    if not CHROMIUM.exists():
        return {"table_pages": "SKIPPED: /usr/bin/chromium is missing (make test installs it)"}
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only this benchmark drives a browser

    server = Server("sqlite").start()
    try:
        alone, table = _Table(server), _Table(server)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                pages = []
                for link in table.links():
                    page = browser.new_context().new_page()  # one person each: its own storage
                    page.goto(server.url + link)
                    pages.append(page)
                per_command, with_pages = _cpu_per_command(server, alone, table, pages)
                ready = _page_ready(browser)
            finally:
                browser.close()
        table.http.close()
        alone.http.close()
    finally:
        server.stop()
    return {
        "table_pages": len(table.links()),
        "table_cpu_per_command": round(per_command, 5),
        "table_cpu_per_command_with_5_pages": round(with_pages, 5),
        "table_pages_vs_no_pages": round(with_pages / per_command, 2),
        "page_ready_10k_events": round(ready, 3),
    }


if __name__ == "__main__":
    print(run())
