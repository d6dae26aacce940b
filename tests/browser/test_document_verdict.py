"""The join page reads a pasted sheet through the server: its verdict on the text is the CLI's, to the rule.

The page has no YAML reader of its own; these are the texts a home-made one got wrong (``yes`` read as
true, ``010`` as 10 instead of YAML 1.1's 8, a repeated key silently dropped), each compared with what
``talespin … validate FILE --json`` prints for the same text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from talespin.cli import main

pytestmark = pytest.mark.browser

II_TEXT = """\
name: yes
abilities: {fortitude: 3, perseverance: 4, nimbleness: 5}
talents:
  - {name: Piloting, ability: nimbleness, level: 010}
"""
ASCEND_TEXT = """\
name: Susan
skills: {Athletics: 3}
traits: {Agility: 3, Agility: 2}
backgrounds: {Avanus: 1}
"""


def _cli_verdict(argv: list[str], text: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    file = folder / "sheet.yaml"
    file.write_text(text, encoding="utf-8")
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main([*argv, str(file), "--json"])
    return json.loads(capsys.readouterr().out)


def _page_verdict(page: Any) -> tuple[str | None, list[tuple[str | None, str | None]]]:
    errors = page.locator("#import-errors li")
    shown = [(item.get_attribute("data-rule"), item.get_attribute("data-path")) for item in errors.all()]
    return page.get_attribute("#import-errors", "data-valid"), shown


CASES = [
    ("inciting-incident", ["ii", "character", "validate"], II_TEXT),
    ("ascend", ["ascend", "hero", "validate"], ASCEND_TEXT),
]


@pytest.mark.parametrize("case", CASES, ids=["ii-yes-010", "ascend-repeated-key"])
def test_a_pasted_sheet_gets_the_verdict_the_cli_gives_the_same_text(
    new_page: Any,
    table: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: tuple[str, list[str], str],
) -> None:
    """Every rule and path the CLI names is listed under the import box, and nothing else."""
    # rule: II-CHAR-2, AS-HERO-2
    system, argv, text = case
    expected = _cli_verdict(argv, text, tmp_path, capsys)
    assert expected["valid"] is False
    gm = new_page()
    _, invite = table.create_campaign(gm, f"Verdict {system}", system)
    page = new_page()
    table.join(page, invite, "Reader")
    table.import_sheet(page, text)
    valid, shown = _page_verdict(page)
    assert valid == "false"
    assert shown == [(e["rule"], e["path"]) for e in expected["errors"]]
    if system == "inciting-incident":  # the data read is the CLI's too: a name "yes", level 8
        expect(page.locator("#sheet-name")).to_have_value("yes")
        expect(page.locator('input[data-path="talents[0].level"]')).to_have_value("8")
    else:
        expect(page.locator('#import-errors li[data-rule="AS-HERO-2"]')).to_contain_text("traits.Agility")
