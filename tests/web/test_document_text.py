"""Sheets and other documents sent as text: the server reads them as the CLI reads a file, verdict and all.

The pages send what a person pasted or uploaded and show the server's answer; these tests pin that the
answer is the CLI's for the texts a home-made reader gets wrong: ``yes`` (text, not true), ``010`` (the
number YAML 1.1 reads, 8) and a repeated key (lost from the data, and an AS-HERO-2 error in a hero sheet).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from talespin.cli import main

II_TEXT = """\
name: yes
abilities: {fortitude: 3, perseverance: 4, nimbleness: 5}
talents:
  - {name: Piloting, ability: nimbleness, level: 010}
"""
"""``yes`` is a name, ``010`` is 8: a Talent above its Ability (II-CHAR-2), not a level out of range."""
ASCEND_TEXT = """\
name: Susan
skills: {Athletics: 3}
traits: {Agility: 3, Agility: 2}
backgrounds: {Avanus: 1}
"""
"""Agility given twice: one value survives in the data, and AS-HERO-2 names the repeated key."""
CASES = [
    ("ii", ["ii", "character", "validate"], II_TEXT, "yaml"),
    ("ascend", ["ascend", "hero", "validate"], ASCEND_TEXT, "yaml"),
    (
        "ascend",
        ["ascend", "hero", "validate"],
        '{"name": "Susan", "traits": {"Agility": 3, "Agility": 2}}',
        "json",
    ),
]


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--json"])
    code = stopped.value.code
    return (code if isinstance(code, int) else 0), json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("case", CASES, ids=["ii-yes-010", "ascend-yaml-repeat", "ascend-json-repeat"])
def test_a_sheet_sent_as_text_gets_the_verdict_of_the_cli(
    client: TestClient,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: tuple[str, list[str], str, str],
) -> None:
    """POST validate with the sheet's text answers exactly what ``validate FILE --json`` prints."""
    # rule: II-CHAR-2, AS-HERO-2
    system, command, text, kind = case
    file = tmp_path / f"sheet.{kind}"
    file.write_text(text, encoding="utf-8")
    code, printed = _cli([*command, str(file)], capsys)
    answer = client.post(f"/api/systems/{system}/validate", json={"text": text, "kind": kind})
    assert answer.status_code == 200, answer.text
    verdict = answer.json()
    assert {key: value for key, value in verdict.items() if key != "sheet"} == printed
    assert code == (0 if printed["valid"] else 1)
    assert printed["valid"] is False  # each text breaks a rule the reader decides


def test_the_texts_read_as_the_cli_reads_them(client: TestClient) -> None:
    """``yes`` stays text, ``010`` is 8, and a repeated key is reported with its path."""
    ii = client.post("/api/documents", json={"text": II_TEXT}).json()
    assert ii["data"]["name"] == "yes" and ii["data"]["talents"][0]["level"] == 8
    assert ii["repeated"] == []
    ascend = client.post("/api/systems/ascend/validate", json={"text": ASCEND_TEXT}).json()
    assert ascend["sheet"]["traits"] == {"Agility": 2}
    assert [(e["rule"], e["path"]) for e in ascend["errors"]][:1] == [("AS-HERO-2", "traits.Agility")]
    listed = client.post("/api/documents", json={"text": '{"a": 1, "a": 2}', "kind": "json"}).json()
    assert listed == {"data": {"a": 2}, "repeated": ["a"]}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("name: Eve\n  skills: [unclosed", "unparsable_file"),
        ('name: "a\\u0000b"', "bad_text"),
        ("level: 100000", "out_of_range"),
        ("a: " + "[" * 40 + "]" * 40, "unparsable_file"),
    ],
)
def test_an_unreadable_text_is_refused_with_the_code_the_cli_gives(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, code: str
) -> None:
    """A text the reader refuses is a 422 with the CLI's exit-2 code and the path it names."""
    file = tmp_path / "sheet.yaml"
    file.write_text(text, encoding="utf-8")
    exit_code, printed = _cli(["ii", "character", "validate", str(file)], capsys)
    assert exit_code == 2 and printed["error"]["code"] == code
    for path, body in (("/api/documents", {"text": text}), ("/api/systems/ii/validate", {"text": text})):
        answer = client.post(path, json=body)
        assert answer.status_code == 422, answer.text
        error = answer.json()["error"]
        assert error["code"] == code and error["rule"] is None
        assert error.get("path") == printed["error"].get("path")
        assert error["message"].startswith("cannot parse the ")


def test_a_sheet_is_sent_as_data_or_as_text_not_both(client: TestClient) -> None:
    """Both forms at once, or neither, is a 422."""
    both = client.post("/api/systems/ii/validate", json={"sheet": {}, "text": "name: x"})
    neither = client.post("/api/systems/ii/validate", json={})
    assert both.status_code == neither.status_code == 422
