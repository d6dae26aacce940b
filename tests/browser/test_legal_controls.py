"""The table pages offer a command's control exactly when the server's ``legal`` list holds the command.

Each control for a listed command carries the command it sends as ``data-command``; in real states, for
players and for the GM, every enabled one is an entry of the ``legal`` that ``GET /state`` answers that
viewer, the page's rolled choices cover the list's, and a command the rules refuse (acting twice in a row on
a Complex Obstacle, acting for another player's character) has no enabled control.
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


def test_inciting_incident_controls_follow_legal(new_page: Any, table: Any) -> None:
    """A Simple and a Complex Obstacle, for two players and the GM: controls are legal's entries, no more."""
    # rule: II-SIMPLE-4, II-COMPLEX-5
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Legal Controls", "inciting-incident")
    gm.goto(gm_link)
    bea = _player(new_page, table, invite, "Bea", ADA)
    cal = _player(new_page, table, invite, "Cal", BRAM)
    expect(gm.locator("#people")).to_contain_text("Bram")

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
