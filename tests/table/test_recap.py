"""The Markdown recap: a session record in the game's words, with names, dice, scenes; user text escaped."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from table_sheets import ADA, BEA, SECRET_NOTE, SECRET_TRIGGER, SUSAN, action_scene, susan_test
from typer.testing import CliRunner

from talespin.cli import app
from talespin.table import export_json, export_markdown
from talespin.table.recap import escape, recap_markdown

Open = Callable[[str], Any]
TRICKY = (
    "Zoë *the* _bold_ <img src=x onerror=alert(1)> [link](http://x) `code` | ~~gone~~ &amp; #1\n# Heading"
)
"""Text a person may type: every Markdown and HTML construct, and a line break before a heading."""


def _render(markdown: str) -> str:
    """The HTML a CommonMark renderer with GitHub's tables and strikethrough makes of ``markdown``."""
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)


class _Tags(HTMLParser):
    """The tags of an HTML document and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parsed(markdown: str) -> _Tags:
    tags = _Tags()
    tags.feed(_render(markdown))
    return tags


def _played(table: Open, player_name: str = "Pia") -> tuple[Any, Any]:
    """An action scene: a public and a GM-only Trigger, a note, a Simple and a Complex Obstacle, an undo."""
    t = table("ii")
    pia = t.join(player_name)
    t.send(pia, {"do": "add_character", "sheet": ADA})
    t.send(t.gm, {"do": "add_character", "sheet": BEA})
    scene = action_scene()
    scene["triggers"].append({"at": 4, "text": "Alarms blare", "visibility": "public"})
    t.send(t.gm, scene)
    t.send(t.gm, {"do": "note", "text": SECRET_NOTE, "visibility": "gm"})
    t.send(t.gm, {"do": "simple_obstacle", "to": "Ada"})
    t.send(pia, {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting"})
    t.send(t.gm, {"do": "complex_obstacle", "obstruction": 30, "attempts": 2})
    t.send(pia, {"do": "regular_action", "character": "Ada", "talent": "Piloting"})
    t.send(t.gm, {"do": "regular_action", "character": "Bea", "talent": "Stealth"})
    t.send(t.gm, {"do": "undo"})
    t.send(t.gm, {"do": "end_scene"})
    return t, pia


def test_the_recap_tells_the_session_scene_by_scene_with_names_and_dice(table: Open) -> None:
    """Who played whom, the scene and its Triggers, each roll with its dice, Crisis, undone entries struck."""
    t, _ = _played(table)
    text = export_markdown(t.service.ledger(t.id), t.gm)
    record = export_json(t.service.ledger(t.id), t.gm)
    assert text.startswith("# Test\n")
    assert "- Pia, playing Ada" in text and "- the GM, playing Bea" in text
    assert "## Scene 1: an action scene, difficulty 5" in text
    assert "Trigger at 4: “Alarms blare”." in text
    assert f"Trigger at 10 (every 10): “{SECRET_TRIGGER}”. *(GM only)*" in text
    rolls = [e["data"] for e in record["events"] if e["type"] == "TalentRolled"]
    assert len(rolls) == 3
    first = rolls[0]
    faces = " ".join("+".join(str(f) for f in c["faces"]) for c in first["chains"] if c["size"] == 6)
    assert f"Ada rolled Piloting: **{first['total']}** against {first['against']}" in text
    assert f"Dice: d6: {faces}" in text
    assert "**Pia** — simple obstacle (Ada, Piloting)" in text
    assert re.search(r"- #\d+ ~~\*\*GM\*\* — regular action \(Bea, Stealth\)~~ \*\(undone\)\*", text)
    assert re.search(r"\*\*GM\*\* undid #\d+", text)
    crisis = [e["data"]["crisis"] for e in record["events"] if e["type"] == "CrisisRaised"]
    assert f"It ended on Crisis {crisis[-1]}" in text  # the undone roll's Crisis is the last one told
    assert "## Fair dice" in text and "revealed `" in text
    for event in record["events"]:
        if event["type"] == "PlayerJoined":
            assert event["data"]["player_id"] not in text, "a player id in the recap"
    assert "CommandIssued" not in text and '{"' not in text, "raw events or JSON in the recap"


def test_a_players_recap_holds_no_gm_secret(table: Open) -> None:
    """The player's recap is built from the player's export: no GM-only Trigger, note or command."""
    t, pia = _played(table)
    text = export_markdown(t.service.ledger(t.id), pia)
    assert SECRET_NOTE not in text and "GM only" not in text
    # A GM-only Trigger is secret until it fires (II-CRISIS-2): the dice decide whether Crisis reaches it,
    # so the recap may name it on the line telling that it fired, and on no other line.
    gm_record = export_json(t.service.ledger(t.id), t.gm)
    fired = [
        e
        for e in gm_record["events"]
        if e["type"] == "TriggerFired" and e["data"].get("text") == SECRET_TRIGGER
    ]
    naming = [line for line in text.splitlines() if SECRET_TRIGGER in line]
    assert len(naming) == len(fired), naming
    assert all("Trigger fired at" in line for line in naming), naming
    assert "## Scene 1: an action scene, difficulty 5" in text, (
        "the scene is told though its command is hidden"
    )
    assert "Trigger at 4: “Alarms blare”." in text and "as a player sees it" in text


def test_text_a_person_typed_reads_as_typed_and_never_becomes_markup(table: Open) -> None:
    """Names, Triggers, notes and the campaign's name with Markdown and HTML in them render as plain text."""
    t, _ = _played(table, player_name=TRICKY)
    t.send(t.gm, {"do": "note", "text": TRICKY, "visibility": "public"})
    record = export_json(t.service.ledger(t.id), t.gm)
    record["campaign"]["name"] = TRICKY
    text = recap_markdown(record)
    flat = " ".join(TRICKY.split())
    parsed = _parsed(text.split("## Fair dice")[0])  # the seeds and chain head are code spans of their own
    assert "img" not in parsed.tags and "a" not in parsed.tags and "code" not in parsed.tags
    assert "s" not in parsed.tags[: parsed.tags.index("h2")], "strikethrough from typed text"
    assert parsed.tags.count("h1") == 1, "a line break in a name started a heading"
    rendered = "".join(parsed.text)
    assert rendered.count(flat) >= 3, "the name, the player and the note each read exactly as typed"


@pytest.mark.parametrize(
    "typed",
    [
        "*a*",
        "_a_",
        "**a**",
        "<b>x</b>",
        "[a](b)",
        "![a](b)",
        "`a`",
        "a|b",
        "~~a~~",
        "&lt;",
        "1. a",
        "# a",
        "\\*",
    ],
)
def test_escape_round_trips_every_construct(typed: str) -> None:
    """An escaped text renders to exactly itself inside a paragraph, with no element of its own."""
    parsed = _parsed(f"x {escape(typed)}")
    assert parsed.tags == ["p"] and "".join(parsed.text).strip() == f"x {typed}"


def test_a_damaged_export_still_gives_a_recap() -> None:
    """Events of odd shapes (hand-edited files) are told as far as they go, never a traceback."""
    record: dict[str, Any] = {
        "campaign": ["not", "a", "mapping"],
        "events": [
            {"version": 1, "entry": 1, "type": "CommandIssued", "data": {"command": "roll", "by": 7}},
            {"version": 2, "entry": 1, "type": "TalentRolled", "data": {"chains": [{"faces": "x"}, 3]}},
            {"version": 3, "entry": 1, "type": "SceneStarted", "data": []},
            {"version": 4, "type": "SeedRevealed", "data": {"number": None}},
            "not an event",
        ],
    }
    text = recap_markdown(record)
    assert text.startswith("# A campaign") and "## Scene" in text


def test_an_ascend_session_reads_as_one_session_with_its_tests(table: Open) -> None:
    """Ascend has no scenes: one section, each Test with its successes, target and d10s."""
    t = table("ascend")
    t.send(t.gm, {"do": "add_character", "sheet": SUSAN})
    t.send(t.gm, susan_test())
    text = export_markdown(t.service.ledger(t.id), t.gm)
    rolled = next(
        e["data"] for e in export_json(t.service.ledger(t.id), t.gm)["events"] if e["type"] == "TestRolled"
    )
    assert "## The session" in text and "## Scene" not in text
    assert f"Susan tested Athletics with Agility: **{rolled['successes']} success" in text
    assert f"on {rolled['pool']}d10, target {rolled['target']}" in text
    assert "Dice: d10: " + " ".join(str(f) for f in rolled["faces"]) in text


def test_the_cli_writes_the_recap_of_an_export_file(table: Open, tmp_path: Path) -> None:
    """``talespin recap EXPORT`` prints the same recap as the HTTP export; a file that is not one exits 2."""
    t, _ = _played(table)
    record = json.loads(json.dumps(export_json(t.service.ledger(t.id), t.gm)))
    path = tmp_path / "export.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    runner = CliRunner()
    printed = runner.invoke(app, ["recap", str(path)])
    assert printed.exit_code == 0, printed.output
    assert printed.stdout == recap_markdown(record)
    out = tmp_path / "recap.md"
    written = runner.invoke(app, ["recap", str(path), "--out", str(out)])
    assert written.exit_code == 0 and out.read_text(encoding="utf-8") == recap_markdown(record)
    (tmp_path / "other.json").write_text('{"format": "something else"}', encoding="utf-8")
    refused = runner.invoke(app, ["recap", str(tmp_path / "other.json")])
    assert refused.exit_code == 2 and "talespin-export/1" in refused.output
    missing = runner.invoke(app, ["recap", str(tmp_path / "missing.json")])
    assert missing.exit_code == 2
