"""Who is here and table talk across browser contexts: presence, chat live, whispers only to their two ends.

A GM and two players, each in a browser context of their own. The GM sees who is connected and sees a
player leave; a message to the table reaches every page live; a player's whisper reaches the GM and the GM's
reply reaches that player, and neither text is in any byte the other player's browser received — HTTP
bodies and WebSocket frames, caught as they arrive, and the page again after a reload.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error, expect

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WHISPER = "The captain pays double for silence"
REPLY = "Take the money and say nothing"


class Received:
    """Every byte one page received over HTTP and its WebSockets."""

    def __init__(self, page: Any) -> None:
        self.parts: list[str] = []
        page.on("response", self._response)
        page.on("websocket", lambda socket: socket.on("framereceived", self._frame))

    def _response(self, response: Any) -> None:
        try:
            self.parts.append(response.text())
        except Error:  # a redirect or a download has no body to read
            return

    def _frame(self, payload: Any) -> None:
        self.parts.append(payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))

    def holds(self, text: str) -> bool:
        return any(text in part for part in self.parts)


def _player(new_page: Any, table: Any, invite: str, name: str) -> Any:
    page = new_page()
    table.join(page, invite, name)
    page.click("#skip-link")
    page.wait_for_url("**/table.html#*")
    expect(page.locator("#conn")).to_have_text("live")
    return page


def _say(page: Any, text: str, to: str) -> None:
    page.fill("#chat-text", text)
    page.select_option("#chat-to", label=to)
    page.click("#chat-send")


def _picture(page: Any, name: str) -> None:
    """The talk panel as the GM sees it, light and dark, for the README."""
    page.mouse.move(0, 0)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for scheme, suffix in (("light", ""), ("dark", "-dark")):
        page.emulate_media(color_scheme=scheme)
        page.locator("#talk").screenshot(path=str(SCREENSHOTS / f"{name}{suffix}.png"))
    page.emulate_media(color_scheme="light")


def test_presence_chat_and_whispers_between_three_browsers(new_page: Any, table: Any) -> None:
    """Presence follows the pages, chat arrives live, a whisper is seen only by the GM and its player."""
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Whispers", "inciting-incident")
    gm.goto(gm_link)
    expect(gm.locator("#conn")).to_have_text("live")
    pia = _player(new_page, table, invite, "Pia")
    cal = _player(new_page, table, invite, "Cal")
    overheard = Received(cal)
    cal.reload()
    expect(cal.locator("#conn")).to_have_text("live")

    # Presence: the GM sees both players connected, and Pia's page sees Cal's.
    for name in ("Pia", "Cal"):
        expect(gm.locator("#presence li.online", has_text=name)).to_be_visible()
    expect(pia.locator("#presence li.online", has_text="Cal")).to_be_visible()

    # Chat to the table arrives live on every page.
    _say(cal, "Evening, everyone", "everyone")
    for page in (gm, pia, cal):
        expect(page.locator("#chat li", has_text="Evening, everyone")).to_have_count(1)

    # A whisper to the GM: the GM sees it marked as a whisper, Cal never receives it.
    _say(pia, WHISPER, "a whisper to the GM")
    expect(gm.locator("#chat li.whisper", has_text=WHISPER)).to_be_visible()
    expect(pia.locator("#chat li.whisper", has_text=WHISPER)).to_be_visible()
    _say(gm, REPLY, "a whisper to Pia")
    expect(pia.locator("#chat li.whisper", has_text=REPLY)).to_be_visible()
    _picture(gm, "table-talk")
    _say(gm, "The ship docks at dawn", "everyone")
    expect(cal.locator("#chat li", has_text="The ship docks at dawn")).to_be_visible()  # after both whispers
    cal.reload()
    expect(cal.locator("#chat li", has_text="Evening, everyone")).to_be_visible()
    for secret in (WHISPER, REPLY):
        assert secret not in cal.content(), f"{secret!r} is on the other player's page"
        assert not overheard.holds(secret), f"{secret!r} reached the other player's browser"
    assert overheard.holds("The ship docks at dawn"), "the capture saw the public talk (it can see a leak)"

    # Presence follows a page closing.
    pia.close()
    expect(gm.locator("#presence li.offline", has_text="Pia")).to_be_visible()
    expect(gm.locator("#presence li.online", has_text="Cal")).to_be_visible()
