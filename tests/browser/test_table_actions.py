"""Every action of the table is reachable from the page, with its odds shown before the click that rolls.

Inciting Incident: who is present when a scene starts, recreating a Skill, Ability Rolls, a ticked
Skill's Crisis in the expected Crisis, and learning in a cooperative scene. Ascend: the resisting side of an
opposed Test Invokes items. And the GM's fresh invite link from any browser.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
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
            "limitations": ["only vehicles she has studied"],
            "skills": [
                {"name": "Risky Dive", "cost": 3, "kind": "modifier", "effects": {"crisis": 3}},
                {"name": "Barrel Roll", "cost": 4, "kind": "modifier", "effects": {"advantage": 2}},
            ],
        }
    ],
}
BRAM = {
    "name": "Bram",
    "abilities": {"fortitude": 5, "perseverance": 3, "nimbleness": 2},
    "talents": [
        {"name": "Mechanics", "ability": "fortitude", "level": 4, "limitations": ["needs his tools"]},
        {
            "name": "Medicine",
            "ability": "perseverance",
            "level": 3,
            "limitations": ["needs a kit"],
            "skills": [{"name": "Field Dressing", "cost": 3, "kind": "advanced", "effects": {"heal": 1}}],
        },
    ],
}


def _expected_crisis(row: Any) -> float:
    """The "+N Crisis expected" figure of an action row."""
    match = re.search(r"\+([\d.]+) Crisis expected", row.inner_text())
    assert match, row.inner_text()
    return float(match.group(1))


def _player(new_page: Any, table: Any, invite: str, name: str, sheet: dict[str, Any]) -> Any:
    page = new_page()
    table.join(page, invite, name)
    table.import_sheet(page, json.dumps(sheet))
    expect(page.locator("#sheet-status")).to_contain_text("follows every rule")
    table.add_to_table(page)
    return page


def test_scene_cast_recreation_ability_rolls_skills_and_learning(new_page: Any, table: Any) -> None:
    """The GM picks who is present; a player recreates a Skill and learns; the GM calls an Ability Roll."""
    # rule: II-SCENE-1, II-SKILL-1, II-SKILL-2, II-SKILL-3, II-ROLL-1, II-SCENE-2, II-ODDS-1
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Cast and Skills", "inciting-incident")
    gm.goto(gm_link)
    bea = _player(new_page, table, invite, "Bea", ADA)
    cal = _player(new_page, table, invite, "Cal", BRAM)
    expect(gm.locator("#scene-present input")).to_have_count(2)

    # Only Ada is present: Bram's player has nothing to roll in this scene.
    gm.locator('#scene-present input[value="Bram"]').uncheck()
    gm.click("#start-scene")
    expect(gm.locator("#scene-present-list")).to_have_text("Present: Ada")
    expect(cal.locator("#scene-present-list")).to_have_text("Present: Ada")
    expect(cal.locator("#recreate")).to_be_hidden()
    gm.click("#gm-simple")

    # A ticked Skill's Crisis effect is in the expected Crisis: +3 on every outcome.
    piloting = bea.locator('#choices .action[data-do="simple_obstacle"][data-talent="Piloting"]')
    expect(piloting).to_contain_text("Crisis expected")
    plain = _expected_crisis(piloting)
    bea.locator('#skills input[value="Risky Dive"]').check()
    expect(piloting).to_contain_text("with Risky Dive")
    assert _expected_crisis(piloting) == pytest.approx(plain + 3, abs=0.051)

    # Recreating a Skill: 5d6 less the cost's Disadvantage, Crisis + cost, shown before the roll.
    bea.locator("#recreate > summary").click()
    bea.fill("#recreate-name", "Wing Walk")
    bea.fill("#recreate-cost", "4")
    bea.fill("#recreate-effects", "advantage 1")
    bea.locator("#recreate-cost").dispatch_event("change")
    expect(bea.locator("#recreate-odds")).to_contain_text(
        re.compile(r"Piloting: \d+% success · \+4 Crisis · 3d6")
    )
    bea.click("#recreate-roll")
    expect(gm.locator('#log .event[data-type="SkillRecreated"]')).to_have_count(1)
    expect(gm.locator('#log .event[data-type="SkillRecreated"]')).to_contain_text("Wing Walk")

    # The GM calls for an Ability Roll: the rules' list lets Ada's player roll it and the GM roll it for her,
    # and no one roll it for Bram, who is not in the scene.
    expect(bea.locator("#ability-roll")).to_be_visible()
    expect(cal.locator("#ability-roll")).to_be_hidden()
    gm.select_option("#actor", "Ada")
    gm.locator("#ability-roll > summary").click()
    gm.select_option("#ability-name", "perseverance")
    expect(gm.locator("#ability-odds")).to_contain_text(re.compile(r"perseverance: \d+% success · 5d6 \+ d"))
    gm.click("#ability-roll-button")
    expect(bea.locator('#log .event[data-type="AbilityRolled"]')).to_have_count(1)
    expect(bea.locator('#log .event[data-type="AbilityRolled"]')).to_contain_text("perseverance")

    # A cooperative scene: each character changes one thing; a second change is refused.
    gm.click("#end-scene")
    gm.select_option("#scene-kind", "cooperative")
    gm.locator('#scene-present input[value="Bram"]').check()
    gm.click("#start-scene")
    expect(bea.locator("#learn")).to_be_visible()
    # An Ability is not changed in a cooperative scene: the page does not offer it.
    # rule: II-SCENE-2
    expect(bea.locator('#learn-what option[value="ability"]')).to_be_disabled()
    bea.select_option("#learn-what", "skill")
    bea.fill("#learn-skill-name", "Spin")
    bea.click("#learn-button")
    expect(gm.locator('#log .event[data-type="CharacterChanged"]')).to_have_count(1)
    cal.select_option("#learn-what", "talent")
    expect(cal.locator("#learn-talent-sheet")).to_have_value(re.compile(r'"level": 4'))
    cal.fill(
        "#learn-talent-sheet", cal.input_value("#learn-talent-sheet").replace('"level": 4', '"level": 5')
    )
    cal.click("#learn-button")
    expect(gm.locator('#log .event[data-type="CharacterChanged"]')).to_have_count(2)
    expect(gm.locator('#people li[data-character="Bram"]')).to_contain_text("Mechanics 5")
    # A second change is not offered.
    expect(bea.locator("#learn-button")).to_be_disabled()
    expect(bea.locator("#learn-used")).to_contain_text("Ada has made this scene's change")

    # An advanced Skill in a cooperative scene needs no roll but is the scene's one change: Cal has made his.
    # rule: II-SKILL-5
    field = cal.locator('#advanced .action[data-skill="Field Dressing"]')
    expect(field).to_contain_text("has used this cooperative scene's change")
    expect(field.locator("button.act")).to_have_count(0)
    gm.click("#start-scene")
    # A healing one may heal someone else.
    cal.select_option('select[data-heal-target="Field Dressing"]', "Ada")
    cal.click('#advanced button[data-skill="Field Dressing"]')
    expect(gm.locator('#log .event[data-type="SkillUsed"]')).to_contain_text("Bram used Field Dressing")
    expect(gm.locator('#log .event[data-type="WoundsHealed"]').first).to_contain_text("Ada healed")


def test_the_gm_makes_a_fresh_invite_link_from_any_browser(new_page: Any, table: Any) -> None:
    """A GM whose browser lost the invite gets a new one: it lets players in, the old one no longer does."""
    creator = new_page()
    gm_link, invite = table.create_campaign(creator, "Lost Invite", "inciting-incident")
    elsewhere = new_page()  # another browser: nothing stored
    elsewhere.goto(gm_link)
    expect(elsewhere.locator("#invite-card")).to_be_visible()
    expect(elsewhere.locator("#invite-link")).to_have_value("")
    elsewhere.click("#new-invite")
    expect(elsewhere.locator("#invite-link")).to_have_value(re.compile(r"/join\.html#campaign=.+&invite=.+"))
    fresh = elsewhere.input_value("#invite-link")
    assert fresh != invite
    table.join(new_page(), fresh, "Dora")
    old = new_page()
    old.goto(invite)
    old.fill("#player-name", "Eve")
    old.click("#join-button")
    expect(old.locator("#join-errors")).to_contain_text("invite token does not match")
    player = new_page()
    table.join(player, fresh, "Finn")
    table.import_sheet(player, json.dumps(BRAM))
    table.add_to_table(player)
    expect(player.locator("#new-invite")).to_be_hidden()
    expect(player.locator("#invite-card")).to_be_hidden()


HEROES = [
    {
        "name": "Susan",
        "skills": {"Athletics": 3},
        "convictions": {},
        "traits": {"Agility": 3, "Strength": 2},
        "backgrounds": {"Avanus": 1},
        "aids": {},
    },
    {
        "name": "Ghoul",
        "skills": {"Brawl": 4},
        "convictions": {},
        "traits": {"Brute": 3, "Claws": 2},
        "backgrounds": {},
        "aids": {},
    },
]


def test_the_resisting_side_of_an_opposed_test_invokes(new_page: Any, table: Any) -> None:
    """The defender's narration lets it Invoke; pool and odds count the Invoked item before rolling."""
    # rule: AS-OPP-1, AS-POOL-2, AS-ODDS-2
    gm = new_page()
    gm_link, _ = table.create_campaign(gm, "Opposed", "ascend")
    gm.goto(gm_link)
    table.open_gm_group(gm, "Notes and cast")
    gm.click("#gm .gm-group[data-group='Notes and cast'] details summary")
    for hero in HEROES:
        gm.fill("#gm-sheet", json.dumps(hero))
        gm.click("#gm-add-character")
        expect(gm.locator("#people")).to_contain_text(hero["name"])
    gm.select_option("#hero", "Susan")
    gm.select_option("#trait", "Agility")
    gm.check("#opposed")
    gm.select_option("#defender", "Ghoul")
    gm.select_option("#defender-trait", "Brute")
    expect(gm.locator("#opposed-odds")).to_contain_text("(3d10 against 3d10)")
    expect(gm.locator('#defender-invokes input[value="Claws"]')).to_be_disabled()
    gm.select_option("#defender-narration", "narrated")
    gm.check('#defender-invokes input[value="Claws"]')
    expect(gm.locator("#opposed-odds")).to_contain_text("(3d10 against 5d10)")
    expect(gm.locator("#opposed-odds")).to_contain_text(re.compile(r"Win \d+% · tie \d+% · lose \d+%"))
    gm.click("#roll-test")
    decided = gm.locator('#log .event[data-type="OpposedTestDecided"]')
    expect(decided).to_have_count(1)
    expect(gm.locator("#log")).to_contain_text(re.compile(r"Ghoul tested Brawl: .* on 5d10"))
