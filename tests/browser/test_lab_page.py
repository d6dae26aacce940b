"""The designer's lab page: a variant uploaded, grids and difference heatmaps drawn, the best play shown,
a whole scene analysed exactly and the balance report laid out with its pictures.

The page needs no login. It is checked on a desktop and on a phone, in dark mode, and with axe-core (WCAG 2
A/AA, contrast included); a campaign created with a variant links to it with that variant filled in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from layout_probes import VIEWPORTS, axe, layout, tab_walk
from playwright.sync_api import expect

from talespin.lab.scene import analyse_scene
from talespin.lab.scene_spec import parse_scene
from talespin.systems.inciting_incident import default_rules

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
PHONE = {"width": 375, "height": 812}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
AXE_RUN = """async () => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa"]}});
  const where = (v) => v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ");
  return result.violations.map((v) => `${v.id}: ${where(v)}`);
}"""


def _accessible(page: Any) -> None:
    page.evaluate(AXE.read_text(encoding="utf-8"))  # not a <script> tag: the page's CSP forbids inline script
    assert page.evaluate(AXE_RUN) == []


def test_a_designer_uploads_a_variant_and_reads_the_difference(new_page: Any, tmp_path: Path) -> None:
    """An uploaded variant beside the typed one: summary, baseline grid, one difference map per variant."""
    # rule: II-SIMPLE-2
    # rule: II-SIMPLE-3
    page = new_page()
    page.goto("/lab.html")
    expect(page.locator("#variants .variant")).to_have_count(1)  # "auto 5" is offered to start with
    upload = tmp_path / "auto6.yaml"
    upload.write_text("crisis:\n  auto: 6   # harsher still\n")
    page.set_input_files("#variant-file", str(upload))
    expect(page.locator("#variants .variant")).to_have_count(2)
    expect(page.locator("#variants .variant").nth(1).locator(".v-name")).to_have_value("auto6")
    page.click("#compare-button")
    expect(page.locator("#results-status")).to_contain_text("Compared 3 rule sets")
    expect(page.locator("#summary tbody tr")).to_have_count(3)
    expect(page.locator("#summary")).to_contain_text("auto6")
    maps = page.locator("#grids table.heatmap")
    expect(maps).to_have_count(3)  # the shipped rules, then auto 5 − shipped and auto6 − shipped
    expect(maps.nth(0).locator("tbody tr")).to_have_count(10)  # Talent levels 0–9
    expect(maps.nth(1).locator("caption")).to_contain_text("auto 5 − shipped")
    # A dearer automatic pass makes rolling the better choice somewhere: those cells are marked.
    expect(maps.nth(2).locator("td.marked").first).to_be_visible()
    assert maps.nth(2).locator("td.marked").count() >= maps.nth(1).locator("td.marked").count() > 0
    page.select_option("#grid-net", "2")
    expect(maps.nth(0).locator("caption")).to_contain_text("net Advantage 2")
    page.select_option("#grid-figure", "p_success")
    expect(maps.nth(1).locator("td").first).to_contain_text("0%")  # the pass's cost moves no P(success)
    _accessible(page)
    page.select_option("#grid-figure", "played")
    expect(maps.nth(1).locator("td.marked").first).to_contain_text("+")  # a dearer pass costs Crisis
    page.mouse.move(0, 0)
    page.locator("#results-card").screenshot(path=str(SCREENSHOTS / "lab-results-desktop.png"))


def test_the_best_play_is_marked_and_each_alternative_costs(new_page: Any) -> None:
    """The solver's table: every legal action, one marked best, the others with their cost."""
    # rule: II-COMPLEX-5
    page = new_page()
    page.goto("/lab.html")
    page.fill("#advice-last", "Bo")
    page.click("#advice-button")
    rows = page.locator("#advice-table tbody tr")
    expect(rows).to_have_count(5)  # Bo acted last: Ada's auto, two Regular and two Decisive actions
    expect(page.locator("#advice-table .best-choice")).to_have_count(1)
    expect(rows.nth(1).locator("td").nth(1)).to_contain_text("Crisis")
    expect(page.locator("#advice-result")).to_contain_text("Best: Ada:")
    _accessible(page)
    page.fill("#advice-last", "Zed")
    page.click("#advice-button")
    expect(page.locator("#advice-errors")).to_contain_text("Zed")


def test_ascend_on_a_phone_in_dark_mode(new_page: Any) -> None:
    """Ascend variants on a phone: the page never scrolls sideways, the maps do; dark mode stays readable."""
    # rule: AS-TEST-3
    page = new_page(PHONE)
    page.goto("/lab.html")
    page.click("#theme-toggle")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.select_option("#lab-system", "ascend")
    page.fill("#variants .variant .v-text", "die: {size: 12}")
    page.fill("#variants .variant .v-name", "d12")
    page.click("#compare-button")
    maps = page.locator("#grids table.heatmap")
    expect(maps).to_have_count(2)
    expect(maps.nth(0).locator("caption")).to_contain_text("P(1+ Successes)")
    expect(maps.nth(1).locator("td.marked").first).to_be_visible()  # d12's fewest dice for even odds
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("document.querySelector('#grids .heatmap-wrap').scrollWidth > window.innerWidth")
    page.select_option("#grid-required", "3")
    expect(maps.nth(0).locator("caption")).to_contain_text("P(3+ Successes)")
    _accessible(page)


def test_a_mistyped_variant_is_refused_naming_the_key(new_page: Any) -> None:
    """A key the rules do not have comes back from the server with its name; nothing is drawn."""
    page = new_page()
    page.goto("/lab.html")
    page.fill("#variants .variant .v-text", "crisys: {auto: 5}")
    page.click("#compare-button")
    expect(page.locator("#compare-errors")).to_contain_text("crisys")
    expect(page.locator("#results-card")).to_be_hidden()


def test_a_campaigns_variant_opens_in_the_lab(new_page: Any) -> None:
    """The table's variant note links to the lab with the campaign's overrides filled in."""
    gm = new_page()
    gm.goto("/")
    gm.fill("#campaign-name", "House rules")
    gm.click("#create-card details summary")
    gm.fill("#campaign-variant", "crisis: {auto: 5}")
    gm.click("#create-button")
    gm.click("#open-table")
    gm.locator("#variant summary").click()
    href = gm.locator("#variant-lab").get_attribute("href")
    lab = new_page()
    lab.goto(href)
    expect(lab.locator("#variants .variant .v-name")).to_have_value("House rules")
    expect(lab.locator("#variants .variant .v-text")).to_have_value('{"crisis":{"auto":5}}')
    lab.click("#compare-button")
    expect(lab.locator("#summary")).to_contain_text("House rules")


def _fixed(x: float) -> str:
    """A figure as the page writes it: two decimals, a trailing ".00" dropped (ui.js num)."""
    text = f"{x:.2f}"
    return text[:-3] if text.endswith(".00") else text


def test_a_scene_is_analysed_exactly_and_shown(new_page: Any) -> None:
    """The scene typed on the page, under a chosen policy: the figures are the lab's own analysis of it, with
    the Crisis distribution charted and tabulated and every Trigger's odds (II-CRISIS-2)."""
    # rule: II-CRISIS-2
    page = new_page()
    page.goto("/lab.html")
    page.fill("#scene-difficulty", "4")
    page.select_option("#scene-policy", "roll")
    page.fill("#scene-triggers", "- {at: 8, every: 6, text: Sirens}\n- {at: 12}")
    page.fill("#scene-characters", "- {name: Ada, talents: {Piloting: 3}}\n- {name: Bo, talents: {Brawl: 2}}")
    page.fill("#scene-obstacles", "- {kind: simple, to: Ada}\n- {kind: complex, obstruction: 8, attempts: 2}")
    page.click("#scene-button")
    expect(page.locator("#scene-status")).to_contain_text("always the best Talent roll")
    rules = default_rules()
    scene = parse_scene(
        {
            "difficulty": 4,
            "triggers": [{"at": 8, "every": 6, "text": "Sirens"}, {"at": 12}],
            "characters": [
                {"name": "Ada", "talents": {"Piloting": 3}},
                {"name": "Bo", "talents": {"Brawl": 2}},
            ],
            "obstacles": [
                {"kind": "simple", "to": "Ada"},
                {"kind": "complex", "obstruction": 8, "attempts": 2},
            ],
        },
        rules,
    )
    want = analyse_scene(scene, rules, policy="roll").to_json()
    figures = page.locator("#scene-figures dd")
    expect(figures.nth(0)).to_have_text(_fixed(want["expected_crisis"]))
    expect(figures.nth(2)).to_have_text(_fixed(want["expected_rising_tension"]))
    expect(figures.nth(3)).to_have_text(_fixed(want["expected_actions"]))
    expect(page.locator("#scene-crisis tbody tr")).to_have_count(len(want["crisis"]))
    expect(page.locator("#scene-crisis tbody tr").last).to_contain_text(f"{want['cap']} or more")
    expect(page.locator("#scene-result svg.chart rect.bar")).to_have_count(len(want["crisis"]))
    triggers = page.locator("#scene-triggers-table tbody tr")
    expect(triggers).to_have_count(2)
    expect(triggers.nth(0)).to_contain_text("Sirens: at 8, again every 6")
    expect(triggers.nth(0).locator("td").nth(0)).to_have_text(
        f"{round(want['triggers'][0]['p_fires'] * 100)}%"
    )
    _accessible(page)
    page.fill("#scene-obstacles", "- {kind: simple, to: Zed}")
    page.click("#scene-button")
    expect(page.locator("#scene-errors")).to_contain_text("Zed")


def test_the_balance_report_appears_with_its_pictures(new_page: Any) -> None:
    """The report of the variants typed above: its sections, tables and SVG pictures laid out on the page, a
    variant's changes listed; Ascend's report takes a hero sheet (AS-TEST-3); a bad variant is named."""
    # rule: II-SIMPLE-2
    # rule: AS-TEST-3
    page = new_page()
    page.goto("/lab.html")
    expect(page.locator("#report-hero-field")).to_be_hidden()  # a hero is Ascend's
    page.click("#report-button")
    report = page.locator("#report-page")
    expect(report.locator("h3")).to_have_text("Inciting Incident: balance report")
    expect(report.locator("h4")).to_have_count(4)
    expect(report.locator("img.report-plot")).to_have_count(3)  # costs, the scene, the variant
    expect(report).to_contain_text("auto 5 changes")
    expect(page.locator("#report-status")).to_contain_text("3 pictures")
    assert report.locator("table").count() >= 3
    loaded = "() => [...document.querySelectorAll('#report-page img')].every((i) => i.naturalWidth > 0)"
    page.wait_for_function(loaded)
    expect(page.locator("#report-save")).to_have_attribute("download", "inciting-incident-report.md")
    _accessible(page)
    page.select_option("#lab-system", "ascend")
    page.fill("#variants .variant .v-name", "d12")
    page.fill("#variants .variant .v-text", "die: {size: 12}")
    page.fill(
        "#report-hero",
        "name: Mira\nskills: {Stealth: 3}\ntraits: {Agility: 4}\nconvictions: {}\nbackgrounds: {}\naids: {}",
    )
    page.click("#report-button")
    expect(report.locator("h3")).to_have_text("Ascend: balance report")
    expect(report).to_contain_text("Mira")
    expect(report.locator("img.report-plot")).to_have_count(6)
    page.wait_for_function(loaded)
    page.fill("#variants .variant .v-text", "dye: {size: 12}")
    page.click("#report-button")
    expect(page.locator("#report-errors")).to_contain_text("dye")
    expect(page.locator("#report-errors code")).to_have_text("variants.d12")


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
def test_the_lab_page_lays_out_for_fingers_and_keys(new_page: Any, size: str) -> None:
    """With results and advice drawn: nothing off the sides or under 44 px or overlapping; Tab in order."""
    page = new_page(VIEWPORTS[size])
    page.goto("/lab.html")
    page.click("#compare-button")
    expect(page.locator("#grids table.heatmap")).to_have_count(2)
    page.click("#advice-button")
    expect(page.locator("#advice-table")).to_be_visible()
    page.click("#scene-button")
    expect(page.locator("#scene-crisis")).to_be_visible()
    page.click("#report-button")
    expect(page.locator("#report-page img.report-plot")).to_have_count(3)
    found = layout(page)
    assert found["scrollWidth"] <= found["width"], f"{size}: the page scrolls sideways"
    assert found["offscreen"] == [] and found["small"] == [] and found["overlaps"] == [], found
    stops = tab_walk(page)
    assert stops and all(s["drawn"] and s["inView"] for s in stops), stops
    assert [s["index"] for s in stops] == sorted(s["index"] for s in stops)
    assert axe(page) == []
