"""The join page asks the campaign, not the shipped rules: a sheet its variant refuses is shown refused.

Ada's levels of 5 follow the shipped Inciting Incident rules; a campaign capping levels at 4 refuses them
(II-CHAR-1). The page sends the pasted text and the edited sheet to ``POST /api/campaigns/{id}/validate``
and lists the server's verdict, rule and path, under the import box and under the editor.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ADA = """\
name: Ada
abilities: {fortitude: 3, perseverance: 4, nimbleness: 5}
talents:
  - {name: Piloting, ability: nimbleness, level: 5}
"""
CAPPED = {"levels": {"max": 4, "dice": [[], [4], [6], [8], [10]], "cost": [0, 1, 3, 6, 10]}}


def _campaign(page: Any, variant: dict[str, Any] | None) -> str:
    """Create an Inciting Incident campaign on the start page, with ``variant`` typed in; the invite link."""
    page.goto("/")
    page.fill("#campaign-name", "Capped" if variant else "Shipped")
    page.select_option("#campaign-system", "inciting-incident")
    if variant is not None:
        page.click("summary:has-text('Rule variant')")
        page.fill("#campaign-variant", json.dumps(variant))
    page.click("#create-button")
    page.locator("#links-card").wait_for()
    return str(page.input_value("#invite-link"))


def test_a_sheet_the_variant_refuses_is_shown_refused(new_page: Any, table: Any) -> None:
    """The same text: valid on a shipped campaign, refused (II-CHAR-1 at its path) under the cap."""
    # rule: II-CHAR-1
    gm = new_page()
    shipped, capped = _campaign(gm, None), _campaign(gm, CAPPED)

    page = new_page()
    table.join(page, shipped, "Reader")
    table.import_sheet(page, ADA)
    expect(page.locator("#import-errors")).to_have_attribute("data-valid", "true")
    expect(page.locator("#sheet-status")).to_contain_text("follows every rule")

    page = new_page()
    table.join(page, capped, "Reader")
    table.import_sheet(page, ADA)
    expect(page.locator("#import-errors")).to_have_attribute("data-valid", "false")
    refused = page.locator('#import-errors li[data-rule="II-CHAR-1"]')
    expect(refused.first).to_be_visible()
    paths = {item.get_attribute("data-path") for item in refused.all()}
    assert "abilities.nimbleness" in paths, paths
    expect(page.locator('#sheet-errors li[data-rule="II-CHAR-1"]').first).to_be_visible()
    expect(page.locator("#sheet-status")).to_contain_text("broken")
