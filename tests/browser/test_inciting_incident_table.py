"""A GM and two players play an Inciting Incident action scene in three browsers.

The scene has a public and a GM-only Trigger and a Complex Obstacle; the players take Regular Actions and a
Decisive Action (with physical dice), the GM undoes one entry and ends the scene, and every page checks the
revealed seed against its commitment.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}

ADA = {
    "name": "Ada",
    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
    "talents": [
        {
            "name": "Piloting",
            "ability": "nimbleness",
            "level": 5,
            "description": "Flies anything with wings or thrusters.",
            "limitations": ["only vehicles she has studied"],
            "skills": [],
        }
    ],
}
BRAM_YAML = """\
name: Bram
abilities: {fortitude: 5, perseverance: 3, nimbleness: 2}
talents:
  - name: Mechanics
    ability: fortitude
    level: 4
    description: Keeps old engines alive.
    limitations: [needs his tools]
"""
SECRET_TRIGGER = "The reactor is unstable"
SECRET_NOTE = "The captain is the traitor"
# A Decisive Action rolled with physical dice: 5d6 (the scene's difficulty) then Piloting's 2d6.
# The first d6 explodes twice (6, 6, 6, 2); total 20 + 10 + 15 + 13 + 5 = 63, above any Obstruction here.
DECISIVE_FACES = "6,6,6,2; 6,4; 5; 5; 5; 6,6,1; 5"


def _rolled_by(page: Any, character: str) -> Any:
    return page.locator(f'#log li[data-actor="{character}"] .event[data-type="TalentRolled"]')


def test_a_gm_and_two_players_play_an_action_scene(new_page: Any, table: Any) -> None:
    """Rolls reach the GM live, secrets never reach players, undo strikes on every screen, seeds verify."""
    # rule: II-CRISIS-2, II-COMPLEX-1, II-COMPLEX-3, II-COMPLEX-6, II-ROLL-2, II-ROLL-4
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Night Flight", "inciting-incident")
    assert re.search(r"/table\.html#campaign=[^&]+&token=.+", gm_link)
    assert re.search(r"/join\.html#campaign=[^&]+&invite=.+", invite)
    gm.goto(gm_link)
    expect(gm.locator("#role-badge")).to_have_text("GM")

    bea = new_page()
    table.join(bea, invite, "Bea")
    table.import_sheet(bea, json.dumps(ADA))
    expect(bea.locator("#sheet-status")).to_contain_text("follows every rule")
    table.add_to_table(bea)

    cal = new_page()
    table.join(cal, invite, "Cal")
    table.import_sheet(cal, BRAM_YAML)
    expect(cal.locator("#sheet-name")).to_have_value("Bram")
    expect(cal.locator("#sheet-status")).to_contain_text("follows every rule")
    table.add_to_table(cal)
    expect(gm.locator("#people")).to_contain_text("Bram")

    # The GM starts an action scene with a public repeating Trigger and a GM-only one.
    gm.click("#add-trigger-row")
    gm.click("#add-trigger-row")
    rows = gm.locator("#scene-triggers .trigger-row")
    rows.nth(0).locator(".t-at").fill("6")
    rows.nth(0).locator(".t-every").fill("6")
    rows.nth(0).locator(".t-text").fill("Alarms blare")
    rows.nth(1).locator(".t-at").fill("9")
    rows.nth(1).locator(".t-text").fill(SECRET_TRIGGER)
    rows.nth(1).locator(".t-gm").check()
    gm.click("#start-scene")
    expect(gm.locator("#crisis-meter")).to_be_visible()
    expect(gm.locator('#trigger-list li[data-visibility="gm"]')).to_contain_text(SECRET_TRIGGER)
    expect(gm.locator('#crisis-meter .meter-mark[data-visibility="gm"]')).to_have_count(1)
    table.open_gm_group(gm, "Notes and cast")
    gm.fill("#gm-note", SECRET_NOTE)
    gm.click("#gm-add-note")
    expect(gm.locator("#notes")).to_contain_text(SECRET_NOTE)
    gm.fill("#gm-obstruction", "30")
    gm.fill("#gm-attempts", "2")
    gm.click("#gm-complex")
    expect(gm.locator("#stat-obstruction")).to_contain_text("30")

    # Players see the scene but never the GM-only Trigger or note: not hidden, absent.
    for player in (bea, cal):
        expect(player.locator("#stat-obstruction")).to_contain_text("30")
        expect(player.locator("#trigger-list li")).to_have_count(1)
        expect(player.locator("#trigger-list")).to_contain_text("Alarms blare")
        expect(player.locator('.meter-mark[data-visibility="gm"]')).to_have_count(0)
        assert SECRET_TRIGGER not in player.content()
        assert SECRET_NOTE not in player.content()
        expect(player.locator("#gm")).to_be_hidden()

    # Odds and expected Crisis are on screen before anyone clicks.
    piloting = bea.locator('#choices .action[data-do="regular_action"][data-talent="Piloting"]')
    expect(piloting).to_contain_text(re.compile(r"\d+% success · \+[\d.]+ Crisis expected"))
    expect(bea.locator('#choices .action[data-do="regular_action"][data-choice="auto"]')).to_contain_text(
        "+4 Crisis"
    )
    expect(bea.locator('#choices .action[data-do="decisive_action"]')).to_contain_text("% success")
    expect(bea.locator("#chart svg.chart rect.bar")).not_to_have_count(0)
    # The exact solver names the best play of anyone present; each of Ada's choices is marked best or
    # says what it costs against the best (auto, Regular Piloting, Decisive Piloting).
    # rule: II-COMPLEX-4
    expect(bea.locator("#advice-note")).to_contain_text("Best play now")
    expect(bea.locator("#choices .best-choice, #choices .choice-cost")).to_have_count(3)
    table.screenshot(bea, "table-player-desktop.png")

    # Each player's roll reaches the GM's page within 2 s.
    piloting.locator("button.act").click()
    expect(_rolled_by(gm, "Ada")).to_have_count(1, timeout=10_000)
    # Not two actions in a row: Ada's page keeps the odds but offers no button until Bram has acted.
    # rule: II-COMPLEX-5
    expect(bea.locator("#no-actions")).to_contain_text("Ada took the last action")
    expect(bea.locator("#choices button.act")).to_have_count(0)
    mechanics = cal.locator('#choices .action[data-do="regular_action"][data-talent="Mechanics"]')
    expect(mechanics).to_contain_text("% success")
    mechanics.locator("button.act").click()
    expect(_rolled_by(gm, "Bram")).to_have_count(1, timeout=10_000)

    # A Decisive Action from physical dice: the chain's faces side by side, exploded dice marked.
    bea.click("#act details summary")
    bea.fill("#faces", DECISIVE_FACES)
    bea.locator('#choices .action[data-do="decisive_action"][data-talent="Piloting"] button.act').click()
    expect(_rolled_by(gm, "Ada")).to_have_count(2, timeout=10_000)
    decisive = gm.locator("#log li", has=gm.locator('.event[data-type="DecisiveActionTaken"]'))
    expect(decisive.locator(".chain.exploded").first).to_be_visible()
    expect(decisive.locator(".chain.exploded").first.locator(".die.max")).to_have_count(3)
    expect(decisive).to_contain_text("physical dice")
    expect(gm.locator("#obstacle")).to_contain_text("beaten")
    table.screenshot(gm, "table-gm-desktop.png")
    phone = new_page(PHONE)
    phone.goto(bea.url)
    expect(phone.locator("#crisis-meter")).to_be_visible()
    table.screenshot(phone, "table-player-phone.png")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    gm_phone = new_page(PHONE)
    gm_phone.goto(gm_link)
    expect(gm_phone.locator("#crisis-meter")).to_be_visible()
    table.screenshot(gm_phone, "table-gm-phone.png")
    assert gm_phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Undo strikes the Decisive Action through on every screen (each numbers the entry its own way).
    entry = decisive.get_attribute("data-entry")
    expect(gm.locator("#gm-undo")).to_contain_text(f"#{entry}")
    gm.click("#gm-undo")
    for page in (gm, bea, cal, phone):
        struck = page.locator("#log li", has=page.locator('.event[data-type="DecisiveActionTaken"]'))
        expect(struck).to_have_class(re.compile(r"\bundone\b"))
        expect(struck.locator(".events")).to_have_css("text-decoration-line", "line-through")
    expect(bea.locator("#obstacle")).to_contain_text("in play")

    # Ending the scene reveals the seed; each browser recomputes its SHA-256 and finds the commitment.
    gm.click("#end-scene")
    for page in (gm, bea, cal):
        expect(page.locator("#fair-verdict")).to_contain_text("Verified")


def test_a_blind_roll_shows_players_only_that_a_roll_happened(new_page: Any, table: Any) -> None:
    """A GM blind roll reaches a player as a bare fact, no dice and no total, until the GM reveals it."""
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Blind", "inciting-incident")
    gm.goto(gm_link)
    bea = new_page()
    table.join(bea, invite, "Bea")
    table.import_sheet(bea, json.dumps(ADA))
    table.add_to_table(bea)
    gm.click("#start-scene")
    gm.click("#gm-simple")
    expect(gm.locator('#choices .action[data-talent="Piloting"]')).to_be_visible()
    gm.check("#blind")
    gm.locator('#choices .action[data-talent="Piloting"] button.act').click()
    expect(gm.locator('#log .event[data-type="TalentRolled"]')).to_have_count(1, timeout=10_000)
    expect(bea.locator('#log .event[data-type="BlindRollMade"]')).to_have_count(1, timeout=10_000)
    expect(bea.locator('#log .event[data-type="TalentRolled"]')).to_have_count(0)
    expect(bea.locator("#log .die")).to_have_count(0)
    expect(bea.locator("#pending")).to_contain_text("Hidden changes are pending")
    expect(gm.locator("#gm-reveal")).to_be_enabled()
    gm.click("#gm-reveal")
    expect(bea.locator('#log .event[data-type="TalentRolled"]')).to_have_count(1, timeout=10_000)
    expect(bea.locator('#log .event[data-type="BlindRollRevealed"]')).to_have_count(1)
    expect(bea.locator("#pending")).to_have_count(0)


def test_the_gm_adds_cast_and_moves_crisis_and_rising_tension_by_hand(new_page: Any, table: Any) -> None:
    """The GM's character, a Crisis adjustment, a re-armed Trigger and Rising Tension reach the players."""
    # rule: II-CRISIS-2, II-CRISIS-4, II-CRISIS-5, II-RT-1, II-RT-2
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "By hand", "inciting-incident")
    gm.goto(gm_link)
    bea = new_page()
    table.join(bea, invite, "Bea")
    bea.click("#skip-link")
    bea.wait_for_url("**/table.html#*")
    table.open_gm_group(gm, "Notes and cast")
    gm.click("details.gm-group[data-group='Notes and cast'] details summary")
    gm.fill("#gm-sheet", json.dumps({**ADA, "name": "Captain Ortiz"}))
    gm.click("#gm-add-character")
    expect(bea.locator("#people")).to_contain_text("Captain Ortiz")
    expect(bea.locator("#people")).not_to_contain_text("yours")
    gm.click("#add-trigger-row")
    gm.locator("#scene-triggers .t-at").fill("5")
    gm.locator("#scene-triggers .t-text").fill("The lights fail")
    gm.click("#start-scene")
    table.open_gm_group(gm, "Crisis and Rising Tension")
    gm.fill("#gm-crisis", "7")
    gm.fill("#gm-crisis-why", "the hull cracks")
    gm.click("#gm-adjust-crisis")
    expect(bea.locator("#stat-crisis")).to_contain_text("7")
    expect(bea.locator("#log")).to_contain_text("the hull cracks")
    expect(bea.locator("#trigger-list")).to_contain_text("fired at 5")
    expect(bea.locator("#trigger-list button[data-rearm]")).to_have_count(0)
    gm.locator("#trigger-list button[data-rearm]").click()
    expect(bea.locator("#trigger-list")).not_to_contain_text("fired at 5")
    gm.fill("#gm-rt", "2")
    gm.fill("#gm-rt-why", "the fleet is near")
    gm.click("#gm-add-tension")
    expect(bea.locator("#stat-tension")).to_contain_text("2")

    # Rising Tension buys the Trigger written under "Spend Rising Tension", in one command; with nothing to
    # buy, nothing is spent.
    # rule: II-RT-3
    table.open_gm_group(gm, "Spend Rising Tension")
    gm.select_option("#spend-on", "trigger")
    gm.click("#spend-button")
    expect(gm.locator("#toast")).to_contain_text("Say what the Trigger does")
    expect(bea.locator("#stat-tension")).to_contain_text("2")
    gm.locator("#spend-trigger .t-at").fill("12")
    gm.locator("#spend-trigger .t-text").fill("The reactor whines")
    gm.click("#spend-button")
    expect(bea.locator("#trigger-list")).to_contain_text("The reactor whines", timeout=10_000)
    expect(bea.locator("#stat-tension")).to_contain_text("0")


GUARD = {
    "name": "Guard",
    "abilities": {"fortitude": 3, "perseverance": 2, "nimbleness": 3},
    "talents": [
        {"name": "Spear", "ability": "nimbleness", "level": 3, "description": "Pokes.", "limitations": []}
    ],
}


def test_a_conflict_shows_the_flow_of_battle_and_attack_odds(new_page: Any, table: Any) -> None:
    """In a conflict a player sees attack odds against the chosen defence, and the Flow moves after a hit."""
    # rule: II-FLOW-1, II-FLOW-2, II-FLOW-3, II-FLOW-4, II-CHAR-8
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Skirmish", "inciting-incident")
    gm.goto(gm_link)
    bea = new_page()
    table.join(bea, invite, "Bea")
    table.import_sheet(bea, json.dumps(ADA))
    table.add_to_table(bea)
    gm.select_option("#scene-kind", "conflict")
    gm.click("#start-scene")
    table.open_gm_group(gm, "Conflict")
    gm.fill("#gm-enemies", json.dumps([GUARD]))
    gm.click("#gm-start-conflict")
    expect(bea.locator("#stat-flow")).to_contain_text("0")
    expect(bea.locator("#scene")).to_contain_text("Guard")
    expect(bea.locator("#attack-target")).to_have_value("Guard")
    attack = bea.locator('#choices .action[data-do="regular_attack"][data-talent="Piloting"]')
    # Guard's Nimbleness 3 gives a defence of 6d6 (II-CHAR-8), a Decisive Attack is against the guard of 30.
    expect(attack).to_contain_text("6d6 + d6 + d6 vs 20")
    expect(bea.locator('#choices .action[data-do="decisive_attack"]')).to_contain_text("vs 30")
    # Physical dice: 6d6 and Piloting's 2d6, a total of 40: the Flow moves 20 toward the characters.
    bea.click("#act details summary")
    bea.fill("#faces", "5; 5; 5; 5; 5; 5; 5; 5")
    attack.locator("button.act").click()
    expect(gm.locator("#stat-flow")).to_contain_text("+20", timeout=10_000)
    expect(bea.locator('#choices .action[data-do="decisive_attack"]')).to_contain_text("vs 10")
    gm.click("#gm-yield-enemies")
    expect(bea.locator("#log")).to_contain_text("the characters won", timeout=10_000)


PILOT_WITH_SKILLS = {
    **ADA,
    "talents": [
        {
            **ADA["talents"][0],
            "skills": [
                {
                    "name": "Barrel Roll",
                    "cost": 4,
                    "kind": "modifier",
                    "text": "Spins.",
                    "effects": {"advantage": 2},
                },
                {
                    "name": "Steady Hands",
                    "cost": 3,
                    "kind": "advanced",
                    "text": "Calms.",
                    "effects": {"reduce_crisis": 2},
                },
            ],
        }
    ],
}


def test_skills_change_the_odds_before_the_roll_and_go_with_it(new_page: Any, table: Any) -> None:
    """A ticked modifier Skill shows its Advantage in the odds; an advanced Skill is an action of its own."""
    # rule: II-SKILL-1, II-SKILL-2, II-ADV-2
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Stunts", "inciting-incident")
    gm.goto(gm_link)
    bea = new_page()
    table.join(bea, invite, "Bea")
    table.import_sheet(bea, json.dumps(PILOT_WITH_SKILLS))
    table.add_to_table(bea)
    gm.click("#start-scene")
    # rule: II-SIMPLE-4
    expect(bea.locator("#no-actions")).to_contain_text("no obstacle is in play")
    expect(bea.locator('#choices .action[data-do="simple_obstacle"] button.act')).to_have_count(0)
    gm.click("#gm-simple")
    piloting = bea.locator('#choices .action[data-talent="Piloting"]')
    expect(piloting).to_contain_text("5d6 + d6 + d6")
    bea.check("#skills input[value='Barrel Roll']")
    # Advantage 2 is one step of the ladder: one more d6.
    expect(piloting).to_contain_text("6d6 + d6 + d6")
    expect(piloting).to_contain_text("with Barrel Roll")
    piloting.locator("button.act").click()
    expect(gm.locator('#log .event[data-type="SkillUsed"]')).to_contain_text("Barrel Roll", timeout=10_000)
    # The obstacle is passed: no second action on it is offered, and the Advanced Action shows its odds.
    # rule: II-SKILL-5
    expect(bea.locator("#no-actions")).to_contain_text("the obstacle is passed")
    steady = bea.locator("#advanced .action[data-skill='Steady Hands']")
    expect(steady).to_contain_text(re.compile(r"\d+% success · \+[\d.]+ Crisis expected · 5d6 \+ d6 \+ d6"))
    bea.click("#act details summary")
    bea.fill("#faces", "6,6,1; 5; 5; 5; 5; 4; 4")
    steady.locator("button.act").click()
    expect(gm.locator('#log .event[data-type="CrisisLowered"]')).to_have_count(1, timeout=10_000)
