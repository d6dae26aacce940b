"""A 10,000-event campaign on the table page: the newest entries first, earlier ones on demand, in order.

The campaign is written into the server's SQLite file before the server starts (:mod:`long_campaign`), so
building it takes seconds, not ten thousand HTTP calls. How fast the page becomes ready is measured by the
benchmark (``bench/bench_pages.py``, ``page_ready_10k_events``); these tests check what the page shows.
Live state: while the socket is up the page fetches no state after an event and asks for no odds when
nothing they depend on changed; with the socket gone it polls and still follows the table.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from long_campaign import LAST_NOTE, LongCampaign, build, note_text
from playwright.sync_api import expect
from serving import serving

pytestmark = pytest.mark.browser

RECENT = 200
"""The events the page loads first (table.js); earlier ones load this many at a time."""


@pytest.fixture(scope="module")
def long_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, LongCampaign]]:
    """A server whose database already holds a campaign of about 10,000 events."""
    folder = tmp_path_factory.mktemp("long")
    campaign = build(folder / "talespin.db", events=10_000)
    with serving(folder) as url:
        yield url, campaign


@pytest.fixture(scope="module")
def server(long_table: tuple[str, LongCampaign]) -> str:
    """The pages of this module open the long campaign's server."""
    return long_table[0]


def _note(url: str, campaign: LongCampaign, text: str) -> None:
    """The GM adds a public note over HTTP (someone else at the table acting)."""
    base = f"{url}/api/campaigns/{campaign.id}"
    headers = {"Authorization": f"Bearer {campaign.gm_token}", "Content-Type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(f"{base}/state", headers=headers)) as answer:
        version = json.load(answer)["version"]
    body = json.dumps({"command": {"do": "note", "text": text}, "expected_version": version}).encode()
    request = urllib.request.Request(f"{base}/commands", data=body, headers=headers, method="POST")
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 200


def _orders(page: Any) -> list[int]:
    return [
        int(x) for x in page.eval_on_selector_all("#log > li", "items => items.map(li => li.dataset.order)")
    ]


def _entries_in_order(page: Any) -> None:
    """Newest entry first, no entry twice, and each entry's events in version order."""
    orders = _orders(page)
    assert orders == sorted(orders, reverse=True)
    assert len(set(orders)) == len(orders)
    within = page.eval_on_selector_all(
        "#log > li",
        "items => items.map(li => [...li.querySelectorAll('.event')].map(e => +e.dataset.version))",
    )
    assert all(versions == sorted(versions) for versions in within)


def test_a_long_log_opens_with_its_newest_entries_and_loads_earlier_ones_in_order(
    new_page: Any, long_table: tuple[str, LongCampaign]
) -> None:
    url, campaign = long_table
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(campaign.gm_link)
    expect(page.locator("#version")).to_have_text(str(campaign.version))
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#roll-test")).to_be_enabled()  # the controls are usable
    newest = page.locator("#log > li").first
    expect(newest).to_contain_text(LAST_NOTE)
    expect(page.locator("#log > li").nth(1).locator('.event[data-type="TestRolled"]')).to_have_count(1)
    # only the recent part of the log was read, not all of it
    reads = [u for u in asked if "/events?" in u]
    assert reads and all(
        int(re.search(r"after=(\d+)", u).group(1)) >= campaign.version - RECENT - 2 for u in reads
    )  # type: ignore[union-attr]
    shown = page.locator("#log > li").count()
    assert shown <= RECENT // 2 + 4
    _entries_in_order(page)
    expect(page.locator("#log-status")).to_contain_text("earlier events are not loaded yet")

    earlier = page.get_by_role("button", name="Load earlier entries")
    earlier.click()
    page.wait_for_function("n => document.querySelectorAll('#log > li').length > n", arg=shown)
    # a page of RECENT events is RECENT / 2 notes, one more where the page's first event cuts an entry
    assert page.locator("#log > li").count() - shown in (RECENT // 2, RECENT // 2 + 1)
    _entries_in_order(page)
    oldest = min(_orders(page))
    number = (oldest - campaign.first_note_version) // 2 + 1
    expect(page.locator(f'#log > li[data-order="{oldest}"]')).to_contain_text(note_text(number))
    # every entry loaded is whole: its command line as well as its note
    assert page.locator("#log > li .what .type").count() == page.locator("#log > li").count()

    _note(url, campaign, "Said after the earlier entries were loaded")
    expect(page.locator("#log > li").first).to_contain_text("Said after the earlier entries were loaded")
    _entries_in_order(page)


def test_live_events_bring_the_state_without_fetching_it_or_the_odds_again(
    new_page: Any, long_table: tuple[str, LongCampaign]
) -> None:
    """While the socket is up, an event that changes nothing the advice depends on costs no request."""
    url, campaign = long_table
    page = new_page()
    page.goto(campaign.gm_link)
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#test-odds")).to_contain_text("d10")
    asked: list[tuple[str, str, str | None]] = []
    page.on("request", lambda request: asked.append((request.method, request.url, request.post_data)))
    version = int(page.inner_text("#version"))
    _note(url, campaign, "A note changes no odds")
    expect(page.locator("#version")).to_have_text(str(version + 2))  # the state came over the socket
    expect(page.locator("#log > li").first).to_contain_text("A note changes no odds")
    page.wait_for_timeout(500)  # a fetch the page would make after the event has had time to start
    assert [(m, u) for m, u, _ in asked if "/state" in u or "/odds" in u] == []
    # an option the player changes asks again: the advice's best rows and the chosen pool, not every pool
    with page.expect_request(re.compile(r"/odds$")) as odds:
        page.fill("#difficulty", "1")
        page.locator("#difficulty").dispatch_event("change")
    query = json.loads(odds.value.post_data or "{}")
    assert query["difficulty"] == 1 and query["top"] == 8
    assert set(query["current"]) == {"trait", "background", "aid", "invoke"}


def test_without_the_socket_the_page_polls_and_follows_the_table(
    new_page: Any, long_table: tuple[str, LongCampaign]
) -> None:
    """A browser whose WebSocket never connects still shows new entries and the new version (polling)."""
    url, campaign = long_table
    page = new_page()
    page.add_init_script("window.WebSocket = function () { throw new Error('no sockets here'); };")
    page.goto(campaign.gm_link)
    expect(page.locator("#conn")).not_to_have_text("live")
    expect(page.locator("#version")).to_have_text(re.compile(r"^\d+$"))  # the first state has arrived
    version = int(page.inner_text("#version"))
    _note(url, campaign, "Heard by polling")
    # A poll every 3 s, then the state fetched: on a busy machine that is more than the default 10 s.
    expect(page.locator("#log > li").first).to_contain_text("Heard by polling", timeout=30_000)
    expect(page.locator("#version")).to_have_text(str(version + 2), timeout=30_000)
