"""The pages on a 390×844 phone and a 1366×900 laptop: where the key controls are, their size, the keyboard.

A GM and a player play an Inciting Incident scene; on each page the test measures every control a person
can reach: none off the sides of the screen, none under 44×44 px, none overlapping another. The player's
Roll button and, after the roll, its result with the dice are in the first screen; focus stays on a control
near them. Tab walks every page in document order with the focus ring drawn at each stop.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from layout_probes import VIEWPORTS, focused, layout, tab_walk
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ADA = {
    "name": "Ada",
    "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
    "talents": [
        {"name": "Piloting", "ability": "nimbleness", "level": 5, "limitations": ["only vehicles she knows"]}
    ],
}


def _sound(page: Any, where: str) -> None:
    """Nothing off the sides, nothing under 44 px, no two controls on top of each other."""
    found = layout(page)
    assert found["scrollWidth"] <= found["width"], f"{where}: the page scrolls sideways"
    assert found["offscreen"] == [], f"{where}: controls off the screen: {found['offscreen']}"
    assert found["small"] == [], f"{where}: targets under 44 px: {found['small']}"
    assert found["overlaps"] == [], f"{where}: overlapping controls: {found['overlaps']}"


def _in_order(stops: list[dict[str, Any]], where: str) -> None:
    """Every Tab stop shows its focus ring, and the stops follow the document (no tabindex jumps)."""
    assert stops, f"{where}: Tab reaches nothing"
    hidden = [s["name"] for s in stops if not s["drawn"] or not s["inView"]]
    assert hidden == [], f"{where}: focus not shown at {hidden}"
    indexes = [s["index"] for s in stops]
    order = [s["name"] for s in stops]
    assert indexes == sorted(indexes), f"{where}: Tab jumps out of document order: {order}"


def _scene_at_the_players_move(new_page: Any, table: Any, viewport: dict[str, int]) -> tuple[Any, Any]:
    gm = new_page(viewport)
    gm_link, invite = table.create_campaign(gm, "Layout", "inciting-incident")
    _sound(gm, "start page with links")
    player = new_page(viewport)
    table.join(player, invite, "Pia")
    _sound(player, "join page")
    table.import_sheet(player, json.dumps(ADA))
    table.add_to_table(player)
    gm.goto(gm_link)
    expect(gm.locator("#people")).to_contain_text("Ada")
    gm.click("#start-scene")
    expect(gm.locator("#crisis-meter")).to_be_visible()
    gm.click("#gm-simple")
    expect(gm.locator("#obstacle")).to_contain_text("Simple")
    expect(player.locator('#choices .action[data-talent="Piloting"] button.act')).to_be_visible()
    return gm, player


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
def test_the_roll_and_its_result_are_in_the_first_screen(new_page: Any, table: Any, size: str) -> None:
    """The player's Roll button, then its result with the dice, sit in the first screen; focus stays near."""
    viewport = VIEWPORTS[size]
    _, player = _scene_at_the_players_move(new_page, table, viewport)
    player.evaluate("window.scrollTo(0, 0)")
    roll = player.locator('#choices .action[data-talent="Piloting"] button.act')
    expect(roll).to_be_in_viewport(ratio=1)  # wholly in the first screen, page scrolled to the top
    expect(roll).to_have_accessible_name("Roll Piloting for Ada")
    _sound(player, f"{size}: the player's move")
    roll.focus()
    player.keyboard.press("Enter")  # as a keyboard user rolls: the focus that follows must show
    result = player.locator("#roll-result")
    expect(result).to_be_visible()
    expect(result.locator(".die").first).to_be_visible()
    player.evaluate("window.scrollTo(0, 0)")
    expect(player.locator("#roll-result-headline")).to_be_in_viewport(ratio=1)
    expect(result.locator(".die").first).to_be_in_viewport(ratio=1)
    now = focused(player)
    assert now is not None, "focus dropped to the page after the roll"
    assert now["drawn"], f"the focus after the roll is not drawn on {now['name']}"
    _sound(player, f"{size}: after the roll")


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
def test_every_page_is_walked_by_tab_in_order_with_focus_shown(new_page: Any, table: Any, size: str) -> None:
    """Start, join, the player's and the GM's table: Tab follows the page, the ring shows at every stop."""
    viewport = VIEWPORTS[size]
    start = new_page(viewport)
    start.goto("/")
    _in_order(tab_walk(start), f"{size}: start page")
    gm, player = _scene_at_the_players_move(new_page, table, viewport)
    _sound(gm, f"{size}: the GM's table")
    player_stops = tab_walk(player)
    _in_order(player_stops, f"{size}: the player's table")
    names = [s["name"] for s in player_stops]
    assert any("Roll Piloting" in n for n in names[:12]), f"the Roll is not in the first 12 Tabs: {names}"
    gm_stops = tab_walk(gm, limit=200)
    _in_order(gm_stops, f"{size}: the GM's table")
    undo = next(i for i, s in enumerate(gm_stops) if s["name"].startswith(("button#bar-z", "button#gm-undo")))
    assert "Undo #" in gm_stops[undo]["name"], "the Undo a Tab reaches names its entry"
    assert undo < 12, f"the GM needs {undo + 1} Tabs to reach Undo: {[s['name'] for s in gm_stops[:undo]]}"
    assert any(s["name"].startswith("ol#log") for s in gm_stops), "the log is not reachable by keyboard"
