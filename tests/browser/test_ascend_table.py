"""A player builds an Ascend hero in the form, then builds and rolls a Test with the advice on screen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


TOM = """\
name: Tom
skills: {Lore: 4}
convictions: {Never again: 2}
traits: {Wits: 3}
backgrounds: {Exorcist: 2}
aids: {Soul Blade: 3}
"""


def _rating(page: Any, kind: str, row: int, name: str, rating: str) -> None:
    """Type a name and a rating into row ``row`` of one kind of the hero form, adding the row if needed."""
    rows = page.locator(f'fieldset[data-kind="{kind}"] .sheet-row')
    if rows.count() <= row:
        page.click(f'button[data-add="{kind}"]')
    inputs = rows.nth(row).locator("input")
    inputs.nth(0).fill(name)
    inputs.nth(1).fill(rating)


def test_a_player_builds_a_hero_and_rolls_a_test_with_advice(new_page: Any, table: Any) -> None:
    """The form shows broken rules as typed; the Test shows odds and advice before the roll reaches the GM."""
    # rule: AS-HERO-2, AS-POOL-1, AS-POOL-2, AS-POOL-5, AS-TEST-2, AS-TEST-3, AS-ODDS-3
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "The Redux", "ascend")
    gm.goto(gm_link)
    expect(gm.locator("#system-badge")).to_have_text("Ascend")

    susan = new_page()
    table.join(susan, invite, "Susan")
    _rating(susan, "skills", 0, "Athletics", "3")
    _rating(susan, "traits", 0, "Agility", "3")
    _rating(susan, "traits", 1, "Strength", "2")
    _rating(susan, "backgrounds", 0, "Avanus", "12")
    error = susan.locator('#sheet-errors li[data-rule="AS-HERO-2"]', has_text="Avanus")
    expect(error).to_contain_text("12")
    _rating(susan, "backgrounds", 0, "Avanus", "1")
    expect(error).to_have_count(0)
    expect(susan.locator("#sheet-status")).to_contain_text("follows every rule")
    table.add_to_table(susan)

    # The advice ranks Agility + Avanus with Strength Invoked by narration first: 6d10 (the text's example).
    susan.select_option("#narration", "narrated")
    best = susan.locator("#advice tbody tr").first
    expect(best).to_contain_text("6d10")
    expect(best).to_contain_text("Strength")
    # rule: AS-ODDS-3
    expect(best.locator(".best-choice")).to_have_text("★ Best")
    expect(susan.locator("#advice tbody tr").last.locator(".vs-best")).to_contain_text("−")
    best.locator("button").click()
    expect(susan.locator("#trait")).to_have_value("Agility")
    expect(susan.locator("#background")).to_have_value("Avanus")
    expect(susan.locator('#invokes input[value="Strength"]')).to_be_checked()
    expect(susan.locator("#test-odds")).to_contain_text(re.compile(r"6d10 · target 3 · \d+% chance"))
    expect(susan.locator("#test-odds svg.chart")).to_be_visible()

    # Physical dice: 0, 3 and 2 are at or under the target 3, so three successes.
    susan.click("#act details summary")
    susan.fill("#ascend-faces", "0 3 9 4 7 2")
    susan.click("#roll-test")
    rolled = gm.locator('#log .event[data-type="TestRolled"]')
    expect(rolled).to_have_count(1, timeout=10_000)
    expect(rolled).to_contain_text("3 successes")
    expect(rolled.locator(".die.hit")).to_have_count(3)
    expect(rolled.locator(".die.miss")).to_have_count(3)

    # An extended Test: the GM sets the goal, the player's next Test counts toward it.
    # rule: AS-EXT-1
    table.open_gm_group(gm, "Extended Test")
    gm.fill("#gm-ext-goal", "4")
    gm.fill("#gm-ext-limit", "2")
    gm.click("#gm-ext-start")
    expect(susan.locator("#extended-step")).to_be_visible()
    expect(susan.locator("#extended-step")).to_be_checked()
    # Each pool's chance to reach the goal in the Tests left (AS-ODDS-2), before the roll.
    expect(susan.locator("#advice thead")).to_contain_text("Goal (4 more in 2)")
    expect(susan.locator("#advice tbody tr").first.locator(".reach-goal")).to_contain_text("%")
    susan.fill("#ascend-faces", "1 1 1 1 9 9")
    susan.click("#roll-test")
    expect(gm.locator("#stat-extended")).to_contain_text("4/4", timeout=10_000)
    expect(susan.locator("#stat-extended")).to_contain_text("goal reached")

    # A second player imports a YAML hero and rolls a Test with server dice: it reaches the GM within 2 s.
    tom = new_page()
    table.join(tom, invite, "Tom")
    table.import_sheet(tom, TOM)
    expect(tom.locator("#sheet-status")).to_contain_text("follows every rule")
    table.add_to_table(tom)
    expect(tom.locator("#advice tbody tr").first).to_contain_text("%")
    tom.locator("#advice tbody tr").first.locator("button").click()
    tom.click("#roll-test")
    expect(gm.locator('#log li[data-actor="Tom"] .event[data-type="TestRolled"]')).to_have_count(
        1, timeout=10_000
    )

    # An opposed Test against the GM's adversary, with the chance to win shown before the roll.
    # rule: AS-OPP-1, AS-ODDS-2, AS-HERO-1
    table.open_gm_group(gm, "Notes and cast")
    gm.click("details.gm-group[data-group='Notes and cast'] details summary")
    gm.fill("#gm-sheet", "{name: Ghoul, skills: {Athletics: 2}, traits: {Strength: 2}}")
    gm.click("#gm-add-character")
    susan.check("#opposed")
    susan.select_option("#defender", "Ghoul")
    # The GM's adversary chooses its own side: Susan's page asks only who resists.
    expect(susan.locator("#defender-trait")).to_be_hidden()
    expect(susan.locator("#defender-chooses")).to_contain_text("Ghoul chooses its own side")
    susan.fill("#ascend-faces", "1 1 1 1 9 9")
    susan.click("#roll-test")
    expect(gm.locator("#opposed-waiting")).to_contain_text(
        "Susan opposes Ghoul with Athletics", timeout=10_000
    )
    expect(susan.locator("#opposed-waiting")).to_contain_text("waits for Ghoul's side")
    gm.select_option("#hero", "Ghoul")
    gm.select_option("#trait", "Strength")
    expect(gm.locator("#opposed-odds")).to_contain_text(re.compile(r"You hold \d+% · Susan wins \d+%"))
    expect(gm.locator("#opposed-odds")).to_contain_text("2d10 against 6d10")
    gm.click("#act details summary")
    gm.fill("#ascend-faces", "9 9")
    gm.click("#roll-test")
    decided = gm.locator('#log .event[data-type="OpposedTestDecided"]')
    expect(decided).to_have_count(1, timeout=10_000)
    expect(decided).to_contain_text("Susan won")

    # Ascend has no scenes in its rules; the table's own scene end still reveals the seed for checking.
    gm.click("#end-scene")
    expect(susan.locator("#fair-verdict")).to_contain_text("Verified")
    table.screenshot(susan, "ascend-player-desktop.png")
    phone = new_page({"width": 375, "height": 812})
    phone.goto(susan.url)
    expect(phone.locator("#advice tbody tr").first).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 375
