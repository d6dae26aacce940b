"""The start and join pages on their own: links to share, broken sheets, imports, exports, keyboard use."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_start_page_works_from_the_keyboard_alone(new_page: Any) -> None:
    """A campaign can be created with Tab and Enter; both links appear with copy buttons, and it is listed."""
    page = new_page()
    page.goto("/")
    for _ in range(4):  # the brand link, the dark-mode toggle, then the campaign's name
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "campaign-name":
            break
    page.keyboard.type("Keyboard Quest")
    expect(page.locator("#campaign-name")).to_have_value("Keyboard Quest")
    page.keyboard.press("Enter")
    expect(page.locator("#links-card")).to_be_visible()
    assert "/table.html#campaign=" in page.input_value("#gm-link")
    assert "/join.html#campaign=" in page.input_value("#invite-link")
    expect(page.get_by_role("button", name="Copy GM link")).to_be_visible()
    expect(page.get_by_role("button", name="Copy invite")).to_be_visible()
    gm_link = page.input_value("#gm-link")
    page.goto("/")
    mine = page.locator("#mine a", has_text="Keyboard Quest")
    expect(mine).to_have_attribute("href", gm_link.removeprefix(page.url.rstrip("/")))


def test_a_broken_character_shows_every_rule_it_breaks(new_page: Any, table: Any) -> None:
    """Typing a Talent above its Ability and too many Talents lists each broken rule with its ID."""
    # rule: II-CHAR-2, II-CHAR-3, II-CHAR-7
    gm = new_page()
    _, invite = table.create_campaign(gm, "Broken", "inciting-incident")
    page = new_page()
    table.join(page, invite, "Dee")
    page.fill('[data-path="talents[0].name"]', "Piloting")
    page.fill('[data-path="abilities.nimbleness"]', "1")
    page.fill('[data-path="talents[0].level"]', "4")
    expect(
        page.locator('#sheet-errors li[data-rule="II-CHAR-2"][data-path="talents[0].level"]')
    ).to_be_visible()
    page.click("#add-talent")
    page.fill('[data-path="talents[1].name"]', "Dodging")
    expect(page.locator('#sheet-errors li[data-rule="II-CHAR-3"]').first).to_be_visible()
    expect(page.locator("#sheet-status")).to_contain_text("broken")
    page.click("#add-button")
    expect(page.locator("#add-errors li")).to_be_visible()
    assert "/join.html" in page.url


def test_a_sheet_with_a_syntax_error_is_refused_clearly(new_page: Any, table: Any) -> None:
    """Pasting text that is neither JSON nor YAML says what is wrong and leaves the editor as it was."""
    gm = new_page()
    _, invite = table.create_campaign(gm, "Paste", "ascend")
    page = new_page()
    table.join(page, invite, "Eve")
    table.import_sheet(page, "name: Eve\n  skills: [unclosed")
    expect(page.locator("#import-errors li")).to_contain_text("Could not read the sheet")
    expect(page.locator("#sheet-name")).to_have_value("Eve")


def test_the_record_exports_as_json_and_markdown(new_page: Any, table: Any) -> None:
    """The export buttons download the session record as JSON and as a readable Markdown recap."""
    gm = new_page()
    gm_link, _ = table.create_campaign(gm, "Archive", "inciting-incident")
    gm.goto(gm_link)
    expect(gm.locator("#conn")).to_have_text("live")
    with gm.expect_download() as json_download:
        gm.click("#export-json")
    record = json.loads(Path(json_download.value.path()).read_text(encoding="utf-8"))
    assert record["campaign"]["name"] == "Archive"
    table.open_gm_group(gm, "Notes and cast")
    gm.fill("#gm-note", "The *vault* opens")
    gm.uncheck("#gm-note-private")
    gm.click("#gm-add-note")
    expect(gm.locator("#log")).to_contain_text("The *vault* opens")
    with gm.expect_download() as markdown_download:
        gm.click("#export-md")
    assert markdown_download.value.suggested_filename.endswith("-recap.md")
    recap = Path(markdown_download.value.path()).read_text(encoding="utf-8")
    assert recap.startswith("# Archive\n") and "## At the table" in recap
    assert "**GM** — note" in recap and "Note: The \\*vault\\* opens." in recap


def test_the_log_catches_up_after_the_connection_drops(new_page: Any, table: Any) -> None:
    """A dropped WebSocket reconnects with ?after=n and shows what happened meanwhile, once."""
    gm = new_page()
    gm_link, _ = table.create_campaign(gm, "Reconnect", "inciting-incident")
    gm.goto(gm_link)
    other = new_page()
    other.goto(gm_link)
    expect(other.locator("#conn")).to_have_text("live")
    other.evaluate("window.talespinFeed.drop()")
    table.open_gm_group(gm, "Notes and cast")
    gm.fill("#gm-note", "While you were away")
    gm.uncheck("#gm-note-private")
    gm.click("#gm-add-note")
    expect(other.locator("#log")).to_contain_text("While you were away")
    expect(other.locator("#conn")).to_have_text("live")
    expect(other.locator('#log .event[data-type="NoteAdded"]')).to_have_count(1)


# WCAG 2 contrast of every visible text against the first opaque background behind it (4.5:1, or 3:1 for
# large text); disabled controls are exempt, as WCAG says.
LOW_CONTRAST = """() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(',').map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const background = (el) => { for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0.5) return c; }
    return { r: 255, g: 255, b: 255, a: 1 }; };
  const low = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode; const el = text.parentElement;
    if (!text.textContent.trim() || el.closest('svg, [hidden], :disabled')) continue;
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    const fg = parse(style.color); const bg = background(el);
    const [a, b] = [lum(fg), lum(bg)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize); const bold = Number(style.fontWeight) >= 700;
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) low.push(`${text.textContent.trim().slice(0, 40)} (${ratio.toFixed(2)})`);
  }
  return low;
}"""


def test_every_text_on_the_pages_meets_wcag_aa_contrast(new_page: Any, table: Any) -> None:
    """Start, join (with errors) and a GM's table mid-scene have no text below the AA contrast ratio."""
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, "Contrast", "inciting-incident")
    assert gm.evaluate(LOW_CONTRAST) == []
    player = new_page()
    table.join(player, invite, "Fay")
    player.fill('[data-path="abilities.nimbleness"]', "12")
    expect(player.locator("#sheet-errors li").first).to_be_visible()
    assert player.evaluate(LOW_CONTRAST) == []
    gm.goto(gm_link)
    gm.click("#add-trigger-row")
    gm.locator("#scene-triggers .t-text").fill("Sirens")
    gm.locator("#scene-triggers .t-gm").check()
    gm.click("#start-scene")
    gm.fill("#gm-obstruction", "20")
    gm.click("#gm-complex")
    expect(gm.locator("#stat-obstruction")).to_contain_text("20")
    assert gm.evaluate(LOW_CONTRAST) == []


def test_a_campaign_plays_the_rules_variant_written_on_the_start_page(new_page: Any) -> None:
    """A YAML variant typed at creation changes the rules the table plays and the odds it shows."""
    # rule: II-SIMPLE-2
    gm = new_page()
    gm.goto("/")
    gm.fill("#campaign-name", "House rules")
    gm.click("#create-card details summary")
    gm.fill("#campaign-variant", "crisis:\n  auto: 5   # a harsher automatic pass\n")
    gm.click("#create-button")
    gm.click("#open-table")
    expect(gm.locator("#variant")).to_contain_text("variant")
    gm.locator('details.gm-group[data-group="Notes and cast"] > summary').click()
    gm.click("details.gm-group[data-group='Notes and cast'] details summary")
    sheet = {
        "name": "Ortiz",
        "abilities": {"fortitude": 2, "perseverance": 2, "nimbleness": 2},
        "talents": [],
    }
    gm.fill("#gm-sheet", json.dumps(sheet))
    gm.click("#gm-add-character")
    expect(gm.locator("#people")).to_contain_text("Ortiz")  # the server read the sheet and added him
    gm.click("#start-scene")
    expect(gm.locator('#choices .action[data-choice="auto"]')).to_contain_text("+5 Crisis")


def test_names_are_shown_as_text_never_as_markup(new_page: Any, table: Any) -> None:
    """A campaign or player name that looks like HTML is printed literally and never becomes an element."""
    name = '<img src="x" onerror="window.hacked = 1">'
    gm = new_page()
    gm_link, invite = table.create_campaign(gm, name, "ascend")
    gm.goto(gm_link)
    expect(gm.locator("#campaign-name")).to_have_text(name)
    player = new_page()
    table.join(player, invite, name)
    player.click("#skip-link")
    expect(gm.locator("#players")).to_contain_text(name)
    expect(gm.locator("#log")).to_contain_text(f"{name} joined the table.")
    for page in (gm, player):
        assert page.locator("img").count() == 0
        assert page.evaluate("window.hacked") is None
