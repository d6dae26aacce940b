"""axe-core on every page and the states a table goes through, light and dark: no critical or serious finding.

axe-core is vendored from the npm registry (tests/browser/vendor/axe-core) and injected into each page, so
nothing is fetched at test time. The dark pages are reached both ways: the system's preference (emulated)
and the page's own toggle.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from layout_probes import PHONE, axe
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ADA = {
    "name": "Ada",
    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
    "talents": [
        {
            "name": "Piloting",
            "ability": "nimbleness",
            "level": 5,
            "limitations": ["only vehicles she knows"],
            "skills": [{"name": "Barrel Roll", "cost": 4, "kind": "modifier", "effects": {"advantage": 2}}],
        }
    ],
}
SUSAN = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "convictions": {"Protect the weak": 4},
    "traits": {"Agility": 3, "Strength": 2},
    "backgrounds": {"Avanus": 1},
    "aids": {},
}


class Audit:
    """axe-core's findings, page state by page state."""

    def __init__(self, scheme: str) -> None:
        self.scheme = scheme
        self.found: dict[str, list[str]] = {}

    def page(self, page: Any) -> Any:
        page.emulate_media(color_scheme=self.scheme)
        return page

    def check(self, page: Any, state: str) -> None:
        violations = axe(page)
        if violations:
            self.found[state] = violations


def _open_every_gm_group(page: Any) -> None:
    closed = page.locator("details.gm-group:not([open]) > summary")
    for _ in range(closed.count()):
        closed.first.click()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_has_a_serious_accessibility_violation(new_page: Any, table: Any, scheme: str) -> None:
    """Start, join, the sheet editor with errors, both systems' tables for GM and player, the lab."""
    audit = Audit(scheme)
    gm = audit.page(new_page())
    gm.goto("/")
    audit.check(gm, "start page")
    gm_link, invite = table.create_campaign(gm, "Accessible", "inciting-incident")
    audit.check(gm, "start page with the links")

    player = audit.page(new_page(PHONE))
    player.goto(invite)
    audit.check(player, "join page")
    table.join(player, invite, "Pia")
    player.fill('[data-path="abilities.nimbleness"]', "12")
    expect(player.locator("#sheet-errors li").first).to_be_visible()
    audit.check(player, "sheet editor with errors")
    table.import_sheet(player, json.dumps(ADA))
    table.add_to_table(player)

    gm.goto(gm_link)
    expect(gm.locator("#people")).to_contain_text("Ada")
    gm.click("#add-trigger-row")
    gm.locator("#scene-triggers .t-text").fill("Sirens")
    gm.click("#start-scene")
    expect(gm.locator("#crisis-meter")).to_be_visible()
    gm.click("#gm-simple")
    expect(gm.locator("#obstacle")).to_contain_text("Simple")
    _open_every_gm_group(gm)
    audit.check(gm, "the GM's table mid-scene, every control group open")

    roll = player.locator('#choices .action[data-talent="Piloting"] button.act')
    expect(roll).to_be_visible()
    audit.check(player, "the player's move")
    roll.click()
    expect(player.locator("#roll-result")).to_be_visible()
    player.locator("#people details summary").first.click()
    audit.check(player, "after the roll, a sheet open")
    expect(gm.locator('#log .event[data-type="TalentRolled"]')).to_have_count(1)
    audit.check(gm, "the GM's table after the roll")

    gm.click("#theme-toggle")  # the page's own toggle, the other way round from the system's
    audit.check(gm, "the GM's table, theme toggled")

    ascend = audit.page(new_page())
    ascend_link, ascend_invite = table.create_campaign(ascend, "Accessible heights", "ascend")
    hero = audit.page(new_page(PHONE))
    table.seat(hero, ascend_invite, "Sam", json.dumps(SUSAN))
    audit.check(hero, "an Ascend player's table")
    ascend.goto(ascend_link)
    expect(ascend.locator("#people")).to_contain_text("Susan")
    _open_every_gm_group(ascend)
    audit.check(ascend, "an Ascend GM's table")

    lab = audit.page(new_page())
    lab.goto("/lab.html")
    lab.wait_for_load_state("networkidle")
    audit.check(lab, "the designer's lab")

    assert audit.found == {}, f"axe-core, {scheme}: {json.dumps(audit.found, indent=1)}"


def test_the_audit_sees_a_violation_when_there_is_one(new_page: Any) -> None:
    """The probe is live: an unnamed button and a low-contrast line on the start page are reported."""
    page = new_page()
    page.goto("/")
    page.evaluate(
        """() => { const b = document.createElement('button'); document.querySelector('main').append(b);
                   const p = document.createElement('p'); p.textContent = 'faint'; p.style.color = '#eee';
                   document.querySelector('main').append(p); }"""
    )
    found = " ".join(axe(page))
    assert "button-name (critical)" in found and "color-contrast (serious)" in found
