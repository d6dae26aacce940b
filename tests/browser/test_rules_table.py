"""The table in the browser keeps the rules: each side of an opposed Test chosen by its own player,
exceptional narration asked for and granted by the GM, and the GM's switch for physical dice."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SUSAN = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "convictions": {},
    "traits": {"Agility": 3, "Strength": 2},
    "backgrounds": {"Avanus": 1},
    "aids": {},
}
KAI = {
    "name": "Kai",
    "skills": {"Stealth": 4},
    "convictions": {},
    "traits": {"Quick": 2},
    "backgrounds": {},
    "aids": {},
}
ADA = {
    "name": "Ada",
    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
    "talents": [
        {"name": "Piloting", "ability": "nimbleness", "level": 5, "limitations": ["only vehicles she knows"]}
    ],
}


def _player(new_page: Any, table: Any, invite: str, name: str, sheet: dict[str, Any]) -> Any:
    return table.seat(new_page(), invite, name, json.dumps(sheet))


def test_two_players_each_choose_their_own_side_of_an_opposed_test(new_page: Any, table: Any) -> None:
    """Pia proposes Susan against Kai; Kai's player chooses Kai's side with its odds; then it resolves."""
    # rule: AS-OPP-1 AS-ODDS-2
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Rivals", "ascend")
    gm.goto(gm_link)
    pia = _player(new_page, table, invite, "Pia", SUSAN)
    quin = _player(new_page, table, invite, "Quin", KAI)
    pia.select_option("#trait", "Agility")
    pia.check("#opposed")
    pia.select_option("#defender", "Kai")
    expect(pia.locator("#defender-trait")).to_be_hidden()
    expect(pia.locator("#defender-chooses")).to_contain_text("Kai chooses its own side")
    pia.click("#act details summary")
    pia.fill("#ascend-faces", "0 1 2")
    pia.click("#roll-test")

    expect(quin.locator("#opposed-waiting")).to_contain_text(
        "Susan opposes Kai with Athletics", timeout=10_000
    )
    expect(pia.locator("#opposed-waiting")).to_contain_text("waits for Kai's side")
    expect(pia.locator("#opposed")).to_be_hidden()  # no second opposed Test while one waits
    expect(quin.locator("#roll-test")).to_have_text("Resist: roll both sides")
    quin.select_option("#trait", "Quick")
    expect(quin.locator("#opposed-odds")).to_contain_text(re.compile(r"You hold \d+% · Susan wins \d+%"))
    expect(quin.locator("#opposed-odds")).to_contain_text("2d10 against 3d10")
    quin.click("#act details summary")
    quin.fill("#ascend-faces", "9 9")
    quin.click("#roll-test")

    decided = pia.locator('#log .event[data-type="OpposedTestDecided"]')
    expect(decided).to_have_count(1, timeout=10_000)
    expect(decided).to_contain_text("Susan won, 3 to 0")
    expect(pia.locator("#opposed-waiting")).to_be_hidden()
    expect(gm.locator('#log .event[data-type="OpposedTestDecided"]')).to_have_count(1)

    # The GM's adversary against a player's hero: the GM, too, leaves the hero's side to its player.
    table.open_gm_group(gm, "Notes and cast")
    gm.click("details.gm-group[data-group='Notes and cast'] details summary")
    gm.fill("#gm-sheet", "{name: Ghoul, skills: {Athletics: 2}, traits: {Strength: 2}}")
    gm.click("#gm-add-character")
    gm.select_option("#hero", "Ghoul")
    gm.check("#opposed")
    gm.select_option("#defender", "Kai")
    expect(gm.locator("#defender-chooses")).to_contain_text("Kai chooses its own side")
    gm.click("#roll-test")
    expect(quin.locator("#opposed-waiting")).to_contain_text(
        "Ghoul opposes Kai with Athletics", timeout=10_000
    )
    expect(gm.locator("#opposed-waiting")).to_contain_text("waits for Kai's side")
    gm.click("#withdraw-opposed")
    expect(quin.locator("#opposed-waiting")).to_be_hidden(timeout=10_000)


def test_exceptional_narration_is_asked_for_and_granted_by_the_gm(new_page: Any, table: Any) -> None:
    """A player cannot pick exceptional narration alone: it asks, the GM grants, the log says who did."""
    # rule: AS-POOL-3 AS-POOL-2
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Consensus", "ascend")
    gm.goto(gm_link)
    pia = _player(new_page, table, invite, "Pia", SUSAN)
    exceptional = pia.locator('#narration option[value="exceptional"]')
    expect(exceptional).to_be_disabled()
    pia.click("#ask-exceptional")
    expect(pia.locator("#exceptional-status")).to_contain_text("waiting for the GM", timeout=10_000)
    expect(pia.locator("#ask-exceptional")).to_be_hidden()
    table.open_gm_group(gm, "Exceptional narration")
    request = gm.locator('#narration-requests [data-request="Susan"]')
    expect(request).to_contain_text("Susan asks for exceptional narration", timeout=10_000)
    request.locator("button[data-grant]").click()
    awarded = pia.locator('#log .event[data-type="NarrationAwarded"]')
    expect(awarded).to_contain_text("Susan was awarded exceptional narration by GM", timeout=10_000)
    expect(exceptional).to_be_enabled()
    expect(pia.locator("#exceptional-status")).to_contain_text("The GM awarded Susan")
    pia.select_option("#narration", "exceptional")
    pia.select_option("#trait", "Agility")
    pia.check('#invokes input[value="Strength"]')
    pia.check('#invokes input[value="Avanus"]')
    expect(pia.locator("#test-odds")).to_contain_text("6d10")
    pia.click("#roll-test")
    expect(gm.locator('#log .event[data-type="NarrationUsed"]')).to_have_count(1, timeout=10_000)
    expect(gm.locator('#log .event[data-type="TestRolled"]')).to_contain_text("on 6d10")
    expect(exceptional).to_be_disabled()  # the award is spent


def test_the_gm_switches_who_enters_physical_dice(new_page: Any, table: Any) -> None:
    """A player's typed total is shown to everyone as entered by that player; then only the GM enters dice."""
    # rule: II-ROLL-4
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Dice", "inciting-incident")
    gm.goto(gm_link)
    bea = _player(new_page, table, invite, "Bea", ADA)
    cal = _player(new_page, table, invite, "Cal", {**ADA, "name": "Cy"})
    gm.click("#start-scene")
    gm.check("#gm-simple-each")
    gm.click("#gm-simple")
    piloting = bea.locator('#choices .action[data-talent="Piloting"]')
    expect(piloting.locator("button.act")).to_be_visible()
    bea.click("#act details summary")
    bea.fill("#faces", "6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,6,1; 1; 1; 1; 1; 1; 1")
    piloting.locator("button.act").click()
    rolled = cal.locator('#log .event[data-type="TalentRolled"]')
    expect(rolled).to_contain_text("Ada rolled Piloting: 103 against 20", timeout=10_000)
    expect(rolled).to_contain_text("Physical dice, entered by Bea.")

    table.open_gm_group(gm, "Physical dice")
    gm.select_option("#gm-physical-dice", "gm")
    gm.click("#gm-physical-set")
    expect(bea.locator('#log .event[data-type="SettingChanged"]')).to_contain_text(
        "only the GM enters physical dice", timeout=10_000
    )
    expect(bea.locator("#act details", has_text="Physical dice")).to_be_hidden()
    expect(cal.locator("#act details", has_text="Physical dice")).to_be_hidden()
    expect(gm.locator("#act details", has_text="Physical dice")).to_be_visible()
