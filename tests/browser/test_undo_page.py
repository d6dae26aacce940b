"""Undo from the page names the entry it undoes; a refused command (409) is shown, never re-sent behind the
person's back."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _public_note(page: Any, table: Any, text: str) -> None:
    table.open_gm_group(page, "Notes and cast")
    page.fill("#gm-note", text)
    page.uncheck("#gm-note-private")
    page.click("#gm-add-note")
    expect(page.locator("#log")).to_contain_text(text)


def test_the_undo_button_sends_the_entry_it_names(new_page: Any, table: Any) -> None:
    """The button says "Undo #n (note)" and the command it sends carries ``entry: n``; the entry is struck."""
    gm = new_page()
    gm_link, _ = table.create_campaign(gm, "Undo by name", "ascend")
    gm.goto(gm_link)
    _public_note(gm, table, "The bridge is out")
    entry = gm.locator("#log li", has=gm.locator('.event[data-type="NoteAdded"]')).get_attribute("data-entry")
    assert entry is not None
    expect(gm.locator("#gm-undo")).to_have_text(f"Undo #{entry} (note)")
    with gm.expect_request(re.compile(r"/commands$")) as sent:
        gm.click("#gm-undo")
    assert json.loads(sent.value.post_data or "{}")["command"] == {"do": "undo", "entry": int(entry)}
    expect(gm.locator(f'#log li[data-entry="{entry}"]')).to_have_class(re.compile(r"\bundone\b"))


def test_a_stale_command_is_shown_to_the_person_and_not_sent_again(new_page: Any, table: Any) -> None:
    """When the server answers 409 the page says so, brings itself up to date, and sends nothing more."""
    gm = new_page()
    gm_link, _ = table.create_campaign(gm, "Conflict", "ascend")
    gm.goto(gm_link)
    expect(gm.locator("#conn")).to_have_text("live")
    sent: list[dict[str, Any]] = []

    def stale(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        sent.append(body)
        route.continue_(post_data=json.dumps({**body, "expected_version": 1}))

    gm.route(re.compile(r"/commands$"), stale)
    table.open_gm_group(gm, "Notes and cast")
    gm.fill("#gm-note", "Sent while the table moved on")
    gm.uncheck("#gm-note-private")
    gm.click("#gm-add-note")
    expect(gm.locator("#toast")).to_contain_text("Someone else acted first, so nothing was sent")
    expect(gm.locator("#gm-note")).to_have_value("Sent while the table moved on")
    assert len(sent) == 1
    expect(gm.locator('#log .event[data-type="NoteAdded"]')).to_have_count(0)
