"""The Inciting Incident balance report: its figures against the exact odds engine, and its page on disk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from talespin.cli import app
from talespin.lab.report import balance_report
from talespin.systems.inciting_incident import default_rules, roll_chances

RULES = default_rules()


@pytest.fixture(scope="module")
def report():
    return balance_report({"auto 5": {"crisis": {"auto": 5}}})


def test_crossover_is_the_first_level_whose_roll_beats_the_automatic_pass(report) -> None:
    """Per base d6, the exact expected Crisis of each level's roll puts the crossover where the page says."""
    # rule: II-SIMPLE-2
    # rule: II-SIMPLE-3
    for name, auto in (("shipped", 4), ("auto 5", 5)):
        for base, level in enumerate(report.crossover[name], start=1):
            rolls = [
                lv
                for lv in range(10)
                if roll_chances(base, RULES.levels.dice[lv], 20, rules=RULES).expected_crisis < auto
            ]
            assert level == (rolls[0] if rolls else None), (name, base)


def test_cost_section_odds_are_the_exact_odds(report) -> None:
    """P(success) per level at the default difficulty equals the exact engine's."""
    # rule: II-CHAR-4
    # rule: II-CHAR-5
    for level in range(10):
        exact = roll_chances(5, RULES.levels.dice[level], 20, rules=RULES).p_success
        assert report.p_grid[level][4] == pytest.approx(float(exact), abs=1e-12)
    assert report.costs == (0, 1, 3, 6, 10, 15, 21, 28, 36, 45)


def test_variant_changes_are_the_cells_between_the_two_prices(report) -> None:
    """With the automatic pass at 5, the cells that now roll are exactly those whose roll costs 4 to 5."""
    zero = report.comparison.nets.index(0)
    listed = {(lv, b) for lv, bases, now in report.changes("auto 5") for b in bases if now}
    expected = report.comparison.expected_crisis["shipped"][:, :, zero]
    want = {(lv, b) for lv in range(10) for b in range(1, 10) if 4 <= expected[lv, b - 1] < 5}
    assert listed == want and listed
    assert not [
        c for c in report.changes("auto 5") if not c[2]
    ]  # a dearer pass never turns a roll into a pass


def test_optimal_play_never_costs_more_crisis_than_always_rolling(report) -> None:
    """At every difficulty, the reference scene's E[Crisis] under optimal play is at most always-roll's."""
    for best, roll in zip(report.scene_crisis["optimal"], report.scene_crisis["roll"], strict=True):
        assert best <= roll + 1e-9


def test_report_command_writes_the_page_and_its_pictures(tmp_path: Path) -> None:
    """The page has its four sections and names pictures that exist; a file as --out is refused."""
    variant = tmp_path / "auto5.yaml"
    variant.write_text("crisis: {auto: 5}\n")
    out = tmp_path / "report"
    done = CliRunner().invoke(app, ["lab", "report", str(variant), "--out", str(out), "--json"])
    assert done.exit_code == 0, done.output
    body = json.loads(done.stdout)
    page = Path(body["report"]).read_text(encoding="utf-8")
    for heading in ("## 1.", "## 2.", "## 3.", "## 4."):
        assert heading in page
    for image in body["images"]:
        assert Path(image).read_bytes().startswith(b"\x89PNG")
        assert f"]({Path(image).name})" in page
    done = CliRunner().invoke(app, ["lab", "report", "--out", str(variant), "--json"])
    assert done.exit_code == 2
