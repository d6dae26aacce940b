"""Fixtures for the browser tests: the real server as a subprocess and the system's Chromium via Playwright.

The server is ``talespin serve`` on a free port with a SQLite file in a temporary directory; it is stopped
after the module. Chromium is the distribution's (``/usr/bin/chromium``); no browser is ever downloaded. When
it is missing, every browser test is skipped with a reason saying how to get it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the browser tests' helper modules (layout_probes, serving)

from serving import serving  # found through the path above

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real ``talespin serve`` with a fresh SQLite database."""
    with serving(tmp_path_factory.mktemp("server")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """The system's Chromium, headless, driven by Playwright."""
    if not CHROMIUM.exists():
        pytest.skip(
            "BROWSER TESTS SKIPPED: /usr/bin/chromium is missing — run `make test` "
            "(scripts/ensure-chromium.sh installs the distribution's chromium package)"
        )
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def _note_violation(message: Any, errors: list[str]) -> None:
    if message.type == "error" and "Content Security Policy" in message.text:
        errors.append(message.text)


@pytest.fixture
def new_page(browser: Any, server: str) -> Iterator[Any]:
    """A factory of pages, each in its own browser context (its own storage: one person at the table).

    After the test, no page may have thrown an uncaught error, broken the Content Security Policy (the
    browser reports each violation on the console) or fetched anything from outside the app.
    """
    contexts: list[Any] = []

    def make(viewport: dict[str, int] | None = None) -> Any:
        from playwright.sync_api import expect

        context = browser.new_context(viewport=viewport or DESKTOP, base_url=server)
        context.set_default_timeout(10_000)
        expect.set_options(timeout=10_000)  # assertions wait as long as actions do (a shared, busy machine)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: _note_violation(message, errors))
        page.on("request", lambda request: requests.append(request.url))
        return page

    errors: list[str] = []
    requests: list[str] = []
    yield make
    for context in contexts:
        context.close()
    assert not errors, f"uncaught errors in the pages: {errors}"
    origin = server.replace("http://", "")
    outside = [
        url for url in requests if not url.startswith(("data:", "blob:")) and origin not in url.split("/")[2]
    ]
    assert not outside, f"the pages fetched from outside the app: {outside}"


class Table:
    """Steps people take at the table, through the pages only (no API shortcuts)."""

    @staticmethod
    def create_campaign(page: Any, name: str, system: str) -> tuple[str, str]:
        """Create a campaign on the start page; returns the GM link and the invite link it shows."""
        page.goto("/")
        page.fill("#campaign-name", name)
        page.select_option("#campaign-system", system)
        page.click("#create-button")
        page.locator("#links-card").wait_for()
        return page.input_value("#gm-link"), page.input_value("#invite-link")

    @staticmethod
    def join(page: Any, invite: str, name: str) -> None:
        """Open the invite and join under ``name``; the sheet editor opens."""
        page.goto(invite)
        page.fill("#player-name", name)
        page.click("#join-button")
        page.locator("#sheet-card").wait_for()

    @staticmethod
    def import_sheet(page: Any, text: str) -> None:
        """Paste a sheet (JSON or YAML) into the import box and wait until the server has read it."""
        if page.get_attribute("#import", "open") is None:
            page.click("#import summary")
        page.fill("#import-text", text)
        page.evaluate("document.querySelector('#import-errors').removeAttribute('data-state')")
        page.click("#import-button")
        page.locator('#import-errors[data-state="read"], #import-errors[data-state="refused"]').wait_for(
            state="attached"
        )

    @staticmethod
    def add_to_table(page: Any) -> None:
        """Add the edited sheet with ``add_character`` and wait for the table page."""
        page.click("#add-button")
        page.wait_for_url("**/table.html#*")
        page.locator("#role-badge").wait_for()

    @classmethod
    def seat(cls, page: Any, invite: str, name: str, sheet: str) -> Any:
        """A player joins under ``name``, imports ``sheet`` (JSON or YAML) and sits at the table."""
        cls.join(page, invite, name)
        cls.import_sheet(page, sheet)
        cls.add_to_table(page)
        return page

    @staticmethod
    def open_gm_group(page: Any, title: str) -> None:
        """Open one of the GM's control groups (they are disclosures)."""
        group = page.locator(f'details.gm-group[data-group="{title}"]')
        if group.get_attribute("open") is None:
            group.locator(":scope > summary").click()

    @staticmethod
    def screenshot(page: Any, name: str) -> Path:
        """Save the page as a user sees it at rest, from the top, under docs/screenshots/, light and dark.

        At rest: the mouse is off the page (no hover state or tooltip), nothing has focus, and every toast
        has gone (they hide themselves after a few seconds).
        """
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / name
        page.mouse.move(0, 0)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        toasts = page.locator(".toast:not([hidden])")
        if toasts.count():
            toasts.first.wait_for(state="hidden", timeout=10_000)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(path), full_page=False)
        page.emulate_media(color_scheme="dark")  # the same moment in dark mode, beside it as NAME-dark.png
        page.screenshot(path=str(path.with_name(f"{path.stem}-dark{path.suffix}")), full_page=False)
        page.emulate_media(color_scheme="light")
        return path


@pytest.fixture
def table() -> type[Table]:
    """The steps people take at the table, as page actions."""
    return Table
