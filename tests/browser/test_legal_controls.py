"""The table pages offer a command's control exactly when the server's ``legal`` list holds the command.

Each control for a listed command carries the command it sends as ``data-command``; in real states, for
players and for the GM, every enabled one is an entry of the ``legal`` that ``GET /state`` answers that
viewer, the page's rolled choices (Inciting Incident) or Tests (Ascend) cover the list's, and a command the
rules refuse (acting twice in a row on a Complex Obstacle, acting for another player's character or hero,
defending with no opposed Test proposed, a step of an extended Test not under way) has no enabled control.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ADA = {
    "name": "Ada",
    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
    "talents": [
        {"name": "Piloting", "ability": "nimbleness", "level": 5, "limitations": ["only vehicles she knows"]},
        {"name": "Charm", "ability": "perseverance", "level": 3, "limitations": ["strangers only"]},
    ],
}
BRAM = {
    "name": "Bram",
    "abilities": {"fortitude": 5, "perseverance": 3, "nimbleness": 2},
    "talents": [
        {"name": "Mechanics", "ability": "fortitude", "level": 4, "limitations": ["needs his tools"]},
    ],
}
ROLLED = ("simple_obstacle", "regular_action", "decisive_action")

READ = """async () => {
  const p = new URLSearchParams(location.hash.slice(1));
  const res = await fetch(`/api/campaigns/${p.get("campaign")}/state`, {
    headers: { Authorization: `Bearer ${p.get("token")}` },
  });
  const state = await res.json();
  const controls = [...document.querySelectorAll("[data-command]")].filter(
    (b) => !b.disabled && !b.closest("[hidden]"),
  );
  return {
    version: state.version,
    legal: state.legal,
    shown: Number(document.querySelector("#version").textContent),
    offered: controls.map((b) => JSON.parse(b.dataset.command)),
    choices: [...document.querySelectorAll("#choices [data-command]")].map((b) =>
      JSON.parse(b.dataset.command),
    ),
    actor: document.querySelector("#actor")?.value || null,
    hero: document.querySelector("#hero")?.value || null,
    tested: [...document.querySelectorAll("#tested option")].map((o) => o.value),
  };
}"""


def _settled(page: Any) -> dict[str, Any]:
    """What the page offers and what ``legal`` holds, once the page shows the state's version."""
    seen: dict[str, Any] = {}

    def same() -> bool:
        seen.update(page.evaluate(READ))
        return bool(seen["shown"] == seen["version"])

    for _ in range(100):
        if same():
            page.wait_for_timeout(300)  # the odds the choices are drawn from arrive after the state
            seen.update(page.evaluate(READ))
            if seen["shown"] == seen["version"]:
                return seen
        page.wait_for_timeout(100)
    raise AssertionError(f"the page never showed version {seen.get('version')}: it shows {seen.get('shown')}")


def _check(page: Any) -> dict[str, Any]:
    """Every enabled control is in ``legal``; the acting character's rolled choices are all of ``legal``'s."""
    seen = _settled(page)
    legal = seen["legal"]
    for command in seen["offered"]:
        assert command in legal, f"the page offers {command}, which legal does not hold: {legal}"
    listed = [c for c in legal if c["do"] in ROLLED and c.get("character") == seen["actor"]]
    rolled = [c for c in seen["choices"] if c["do"] in ROLLED]
    assert sorted(json.dumps(c, sort_keys=True) for c in rolled) == sorted(
        json.dumps(c, sort_keys=True) for c in listed
    )
    return seen


def _player(new_page: Any, table: Any, invite: str, name: str, sheet: dict[str, Any]) -> Any:
    page = new_page()
    table.seat(page, invite, name, json.dumps(sheet))
    return page


def _table_of_three(
    new_page: Any, table: Any, system: str, bea_sheet: dict[str, Any], cal_sheet: dict[str, Any]
) -> tuple[Any, Any, Any]:
    """The GM's page and two players' (Bea and Cal, each with a character of their own), all seated."""
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Legal Controls", system)
    gm.goto(gm_link)
    bea = _player(new_page, table, invite, "Bea", bea_sheet)
    cal = _player(new_page, table, invite, "Cal", cal_sheet)
    expect(gm.locator("#people")).to_contain_text(cal_sheet["name"])
    return gm, bea, cal


def test_inciting_incident_controls_follow_legal(new_page: Any, table: Any) -> None:
    """A Simple and a Complex Obstacle, for two players and the GM: controls are legal's entries, no more."""
    # rule: II-SIMPLE-4, II-COMPLEX-5
    gm, bea, cal = _table_of_three(new_page, table, "inciting-incident", ADA, BRAM)

    # No scene: the GM may start one (of each kind) but not end one or present an obstacle.
    seen = _check(gm)
    assert {"do": "start_scene", "kind": "action"} in seen["offered"]
    expect(gm.locator("#end-scene")).to_be_disabled()
    expect(gm.locator("#gm-simple")).to_be_disabled()
    for player in (bea, cal):
        assert not [c for c in _check(player)["offered"] if c["do"] in ROLLED]

    # A Simple Obstacle presented to Ada: her player's page offers Ada's choices only, Cal's none.
    gm.click("#start-scene")
    expect(gm.locator("#end-scene")).to_be_enabled()
    gm.select_option("#gm-simple-to", "Ada")
    gm.click("#gm-simple")
    expect(bea.locator("#choices button.act").first).to_be_visible()
    seen = _check(bea)
    assert {"do": "simple_obstacle", "character": "Ada", "talent": "Charm"} in seen["offered"]
    assert all(c.get("character") == "Ada" for c in seen["offered"])
    _check(cal)
    _check(gm)
    undo = _settled(gm)
    assert any(c["do"] == "undo" for c in undo["offered"])

    # Ada beats it; the GM sets a Complex Obstacle; Ada acts, and may not act again before Bram.
    bea.locator('#choices .action[data-do="simple_obstacle"][data-choice="auto"] button.act').click()
    expect(bea.locator("#obstacle")).to_contain_text("passed")
    assert not [c for c in _check(bea)["offered"] if c["do"] in ROLLED]
    gm.fill("#gm-obstruction", "30")
    gm.fill("#gm-attempts", "2")
    gm.click("#gm-complex")
    piloting = bea.locator('#choices .action[data-do="regular_action"][data-talent="Piloting"] button.act')
    expect(piloting).to_be_visible()
    _check(bea)
    piloting.click()
    expect(bea.locator("#no-actions")).to_contain_text("Ada took the last action")
    seen = _check(bea)
    assert not [c for c in seen["legal"] if c["do"] in ROLLED]
    assert not [c for c in seen["offered"] if c["do"] in ROLLED]
    expect(bea.locator("#choices button.act")).to_have_count(0)
    # Bram may act: his player's page offers it, for Bram only.
    seen = _check(cal)
    assert {"do": "regular_action", "character": "Bram", "talent": "Mechanics"} in seen["offered"]
    assert all(c.get("character") == "Bram" for c in seen["offered"])
    # The GM's page, acting for Ada, offers no second action either; for Bram, the list's.
    gm.select_option("#actor", "Ada")
    seen = _check(gm)
    assert not [c for c in seen["offered"] if c["do"] in ROLLED and c.get("character") == "Ada"]
    gm.select_option("#actor", "Bram")
    seen = _check(gm)
    assert {"do": "decisive_action", "character": "Bram", "talent": "Mechanics"} in seen["offered"]
    assert {"do": "end_scene"} in seen["offered"]


SUSAN = {
    "name": "Susan",
    "skills": {"Athletics": 3},
    "convictions": {"Never again": 2},
    "traits": {"Agility": 3},
    "backgrounds": {"Avanus": 1},
}
TOM = {
    "name": "Tom",
    "skills": {"Lore": 4, "Stealth": 2},
    "convictions": {"Curious": 1},
    "traits": {"Wits": 3},
}

SEND = """async (command) => {
  const p = new URLSearchParams(location.hash.slice(1));
  const base = `/api/campaigns/${p.get("campaign")}`;
  const headers = { Authorization: `Bearer ${p.get("token")}`, "Content-Type": "application/json" };
  const { version } = await (await fetch(`${base}/state`, { headers })).json();
  const res = await fetch(`${base}/commands`, {
    method: "POST",
    headers,
    body: JSON.stringify({ command, expected_version: version }),
  });
  return { status: res.status, body: await res.json() };
}"""

SWEEP = """() => {
  const roll = document.querySelector("#roll-test");
  const tested = document.querySelector("#tested");
  const was = tested.value;
  const seen = [];
  for (const option of tested.options) {
    tested.value = option.value;
    tested.dispatchEvent(new Event("change"));
    const command = roll.dataset.command ? JSON.parse(roll.dataset.command) : null;
    seen.push({ command, enabled: !roll.disabled });
  }
  tested.value = was;
  tested.dispatchEvent(new Event("change"));
  return seen;
}"""


def _send(page: Any, command: dict[str, Any]) -> None:
    """Send ``command`` through the HTTP API with the token of ``page``'s viewer; the table accepts it."""
    answer = page.evaluate(SEND, command)
    assert answer["status"] == 200, answer


def _tested(value: str) -> dict[str, str]:
    """A ``#tested`` option's value (``skill:Athletics``) as commands name it: ``{"skill": "Athletics"}``."""
    kind, _, name = value.partition(":")
    return {kind: name}


def _acting(command: dict[str, Any]) -> str | None:
    """The hero an Ascend command acts for (the attacker of an opposed Test); None for the GM's own."""
    hero = command.get("attacker", command).get("hero")
    return hero if command["do"] != "award_narration" else None


def _check_ascend(page: Any) -> dict[str, Any]:
    """Every enabled control is in ``legal``; the chosen hero's Tests cover the list's; through each Tested
    choice, the Roll button is enabled exactly when ``legal`` holds the command it would send."""
    seen = _settled(page)
    legal = seen["legal"]
    for command in seen["offered"]:
        assert command in legal, f"the page offers {command}, which legal does not hold: {legal}"
    hero = seen["hero"]
    tests = [{"do": "test", "hero": hero, **_tested(value)} for value in seen["tested"]]
    for command in legal:
        if command["do"] == "test" and command["hero"] == hero:
            assert command in tests, f"the page's Tests for {hero} leave out {command}: {tests}"
    for roll in page.evaluate(SWEEP):
        assert roll["enabled"] == (roll["command"] in legal), f"the Roll button: {roll}, legal: {legal}"
    return seen


def _refused(seen: dict[str, Any], *commands: dict[str, Any]) -> None:
    """Each of ``commands`` is one the rules refuse this viewer now: not in its list, and not offered."""
    for command in commands:
        assert command not in seen["legal"], f"legal holds {command}"
        assert command not in seen["offered"], f"the page offers {command}"


def test_ascend_controls_follow_legal(new_page: Any, table: Any) -> None:
    """Plain Tests, an extended Test open and over, an opposed Test proposed, exceptional narration asked
    for: for two players and the GM, the Ascend page's controls are the list's entries, no more."""
    # rule: AS-TEST-1, AS-EXT-1, AS-OPP-1, AS-POOL-3
    gm, bea, cal = _table_of_three(new_page, table, "ascend", SUSAN, TOM)

    # Nothing under way: each player rolls, opposes or asks for its own hero only; no one defends or steps.
    athletics = {"do": "test", "hero": "Susan", "skill": "Athletics"}
    lore = {"do": "test", "hero": "Tom", "skill": "Lore"}
    propose = {
        "do": "opposed_test",
        "attacker": {"hero": "Susan", "skill": "Athletics"},
        "defender": {"hero": "Tom"},
    }
    seen = _check_ascend(bea)
    assert athletics in seen["offered"]
    assert {"do": "request_narration", "hero": "Susan"} in seen["offered"]
    assert all(_acting(c) == "Susan" for c in seen["offered"])
    _refused(
        seen,
        lore,
        {"do": "request_narration", "hero": "Tom"},
        {"do": "defend", "hero": "Susan", "skill": "Athletics"},
        {"do": "extended_step", "hero": "Susan", "skill": "Athletics"},
        {"do": "withdraw_opposed"},
    )
    expect(bea.locator("#extended-step")).to_be_hidden()
    bea.check("#opposed")
    expect(bea.locator("#defender")).to_have_value("Tom")
    seen = _check_ascend(bea)
    assert propose in seen["offered"]
    bea.uncheck("#opposed")
    seen = _check_ascend(cal)
    assert lore in seen["offered"]
    assert all(_acting(c) == "Tom" for c in seen["offered"])
    _refused(seen, athletics, {"do": "defend", "hero": "Tom", "skill": "Lore"})
    seen = _check_ascend(gm)
    _refused(seen, {"do": "end_extended"}, {"do": "withdraw_opposed"})

    # An extended Test open: each player's Roll counts a step for its own hero, and sends it.
    _send(gm, {"do": "extended_test", "goal": 30, "limit": 3})
    expect(bea.locator("#extended-step")).to_be_checked()
    step = {"do": "extended_step", "hero": "Susan", "skill": "Athletics"}
    seen = _check_ascend(bea)
    assert step in seen["offered"]
    _refused(seen, {"do": "extended_step", "hero": "Tom", "skill": "Lore"})
    bea.click("#roll-test")
    expect(gm.locator("#stat-extended")).to_contain_text("1 of 3 Tests")
    expect(cal.locator("#extended-step")).to_be_checked()
    seen = _check_ascend(cal)
    assert {"do": "extended_step", "hero": "Tom", "skill": "Lore"} in seen["offered"]
    _refused(seen, step)
    assert {"do": "end_extended"} in _check_ascend(gm)["offered"]

    # Susan opposes Tom: only Tom's player resists; nobody proposes another; the GM may withdraw it.
    _send(bea, propose)
    expect(cal.locator("#opposed-waiting")).to_contain_text("Choose Tom's side")
    seen = _check_ascend(cal)
    assert {"do": "defend", "hero": "Tom", "skill": "Lore"} in seen["offered"]
    expect(cal.locator("#opposed")).to_be_hidden()
    expect(cal.locator("#withdraw-opposed")).to_have_count(0)
    expect(bea.locator("#opposed-waiting")).to_contain_text("waits for Tom's side")
    seen = _check_ascend(bea)
    _refused(seen, {"do": "defend", "hero": "Susan", "skill": "Athletics"}, propose)
    expect(bea.locator("#opposed")).to_be_hidden()
    seen = _check_ascend(gm)
    assert {"do": "withdraw_opposed"} in seen["offered"]
    expect(gm.locator("#withdraw-opposed")).to_be_enabled()
    cal.click("#roll-test")
    expect(gm.locator('#log .event[data-type="OpposedTestDecided"]')).to_have_count(1)
    seen = _check_ascend(cal)
    _refused(seen, {"do": "defend", "hero": "Tom", "skill": "Lore"})
    _refused(_check_ascend(gm), {"do": "withdraw_opposed"})

    # The extended Test closed: no step for anyone; a plain Test again.
    _send(gm, {"do": "end_extended"})
    expect(gm.locator("#stat-extended")).to_contain_text("Extended Test (over)")
    for page, hero, skill in ((bea, "Susan", "Athletics"), (cal, "Tom", "Lore")):
        expect(page.locator("#extended-step")).to_be_hidden()
        seen = _check_ascend(page)
        assert {"do": "test", "hero": hero, "skill": skill} in seen["offered"]
        _refused(seen, {"do": "extended_step", "hero": hero, "skill": skill})
    _refused(_check_ascend(gm), {"do": "end_extended"})

    # Susan asks for exceptional narration: she may not ask twice; the GM may grant or decline it.
    bea.click("#ask-exceptional")
    expect(bea.locator("#exceptional-status")).to_contain_text("waiting for the GM")
    expect(bea.locator("#ask-exceptional")).to_be_hidden()
    _refused(_check_ascend(bea), {"do": "request_narration", "hero": "Susan"})
    seen = _check_ascend(gm)
    assert {"do": "award_narration", "hero": "Susan", "grant": False} in seen["offered"]
    assert {"do": "request_narration", "hero": "Tom"} in _check_ascend(cal)["offered"]
