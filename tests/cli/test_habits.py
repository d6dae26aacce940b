"""The command line behaves as command-line tools do: one JSON document, documented error codes, `-` for
standard input, no folding into a pipe, NO_COLOR, choices, words instead of reprs, commands counted from 1."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer.main
from fastapi.testclient import TestClient

from talespin.cli import app, main
from talespin.systems.inciting_incident import check_sheet, default_rules

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CONTRACTS = ROOT / "docs" / "contracts.md"
DOCUMENTED = frozenset(re.findall(r"^\| `([a-z_]+)` \|", CONTRACTS.read_text(encoding="utf-8"), re.MULTILINE))
PARTY = "- {name: Ada, talents: {Piloting: 5, Wits: 2}}\n- {name: Bo, talents: {Brawl: 4}}\n"
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-79]|9[0-7]|38)(?:;[0-9;]*)?m")
"""An ANSI escape that sets a foreground colour (bold or dim alone are not colour)."""
OPPOSED = ["ascend", "opposed", "--rating", "3", "--pool", "5", "--vs-rating", "2", "--vs-pool", "4"]
"""An opposed Test that works; with ``--tie x`` it is refused."""


def _json_commands() -> Iterator[str]:
    """Every command of the CLI that takes ``--json``, as its words (``ii character validate``)."""

    def walk(command: Any, words: list[str]) -> Iterator[str]:
        if hasattr(command, "list_commands"):  # a group, maybe one that loads its commands on use
            context = command.make_context(command.name, [], resilient_parsing=True)
            for name in command.list_commands(context):
                yield from walk(command.get_command(context, name), [*words, name])
        elif any("--json" in getattr(p, "opts", ()) for p in command.params):
            yield " ".join(words)

    yield from walk(typer.main.get_command(app), [])


def _export(tmp_path: Path) -> Path:
    from talespin.web import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'export.db'}")) as client:
        made = client.post("/api/campaigns", json={"name": "Export", "system": "ascend"}).json()
        headers = {"Authorization": f"Bearer {made['gm_token']}"}
        record = client.get(f"/api/campaigns/{made['id']}/export?format=json", headers=headers)
    path = tmp_path / "export.json"
    path.write_text(record.text, encoding="utf-8")
    return path


def _cases(tmp: Path) -> dict[str, tuple[list[str], list[str]]]:
    """For each ``--json`` command: arguments that work, and arguments it must refuse."""
    party = tmp / "party.yaml"
    party.write_text(PARTY, encoding="utf-8")
    variant = tmp / "auto5.yaml"
    variant.write_text("crisis: {auto: 5}\n", encoding="utf-8")
    bad_script = tmp / "bad.yaml"
    bad_script.write_text(
        "system: ascend\nheroes: [" + str(EXAMPLES / "ascend-hero-susan.yaml") + "]\ncommands:\n"
        "  - {do: test, hero: Susan, skill: Athletics, trait: Agility}\n"
        "  - {do: test, hero: Susan, skill: Sailing, trait: Agility}\n",
        encoding="utf-8",
    )
    missing = str(tmp / "missing.yaml")
    susan = str(EXAMPLES / "ascend-hero-susan.yaml")
    return {
        "roll": (["roll", "2d6! + 1", "--seed", "4"], ["roll", "2d"]),
        "odds": (["odds", "2d6!", "--cap", "12"], ["odds", "3d0"]),
        "verify": (["verify", str(_export(tmp))], ["verify", str(variant)]),
        "ii odds": (
            ["ii", "odds", "--talent-level", "5"],
            ["ii", "odds", "--talent-level", "5", "--dice", "12"],
        ),
        "ii roll": (
            ["ii", "roll", "--talent-level", "5", "--seed", "1"],
            ["ii", "roll", "--talent-level", "5", "--faces", "6;3"],
        ),
        "ii table": (["ii", "table"], ["ii", "table", "--plot", str(tmp / "grid.gif")]),
        "ii play": (["ii", "play", str(EXAMPLES / "ii-action-scene.yaml")], ["ii", "play", missing]),
        "ii character validate": (
            ["ii", "character", "validate", str(EXAMPLES / "ii-ada.yaml")],
            ["ii", "character", "validate", missing],
        ),
        "ascend odds": (
            ["ascend", "odds", "--rating", "3", "--pool", "4"],
            ["ascend", "odds", "--rating", "99"],
        ),
        "ascend test": (
            ["ascend", "test", "--rating", "2", "--pool", "3", "--seed", "1"],
            ["ascend", "test", "--rating", "2", "--pool", "3", "--faces", "a,b"],
        ),
        "ascend opposed": (
            OPPOSED,
            [*OPPOSED, "--tie", "x"],
        ),
        "ascend extended": (
            ["ascend", "extended", "--rating", "3", "--pool", "5", "--goal", "6", "--limit", "4"],
            ["ascend", "extended", "--rating", "3", "--pool", "5", "--goal", "0"],
        ),
        "ascend advise": (
            ["ascend", "advise", "--hero", susan, "--skill", "Athletics"],
            ["ascend", "advise", "--hero", susan, "--skill", "Sailing"],
        ),
        "ascend play": (
            ["ascend", "play", str(EXAMPLES / "ascend-opposed.yaml")],
            ["ascend", "play", str(bad_script)],
        ),
        "ascend hero validate": (
            ["ascend", "hero", "validate", susan],
            ["ascend", "hero", "validate", missing],
        ),
        "lab advise": (
            [
                "lab",
                "advise",
                "--party",
                str(party),
                "--obstruction",
                "12",
                "--attempts",
                "2",
                "--last",
                "Bo",
            ],
            ["lab", "advise", "--party", str(party), "--obstruction", "8", "--last", "Zed"],
        ),
        "lab compare": (["lab", "compare", str(variant)], ["lab", "compare", missing]),
        "lab report": (
            ["lab", "report", "--out", str(tmp / "report")],
            ["lab", "report", "--scene", missing],
        ),
        "lab conflict": (
            ["lab", "conflict", str(EXAMPLES / "ii-lab-conflict.yaml"), "--sims", "200"],
            ["lab", "conflict", missing],
        ),
        "lab scene": (["lab", "scene", str(EXAMPLES / "ii-lab-scene.yaml")], ["lab", "scene", missing]),
        "lab ascend narration": (
            ["lab", "ascend", "narration", "--hero", susan],
            ["lab", "ascend", "narration", "--hero", missing],
        ),
        "lab ascend opposed": (
            [
                "lab",
                "ascend",
                "opposed",
                "--target",
                "3",
                "--vs-target",
                "2",
                "--pools",
                "3,4",
                "--vs-pools",
                "3",
            ],
            ["lab", "ascend", "opposed", "--target", "3", "--vs-target", "2", "--pools", "x"],
        ),
        "lab ascend extended": (
            ["lab", "ascend", "extended", "--goal", "3", "--limit", "3", "--target", "3", "--pools", "3,4"],
            [
                "lab",
                "ascend",
                "extended",
                "--goal",
                "3",
                "--limit",
                "3",
                "--hero",
                susan,
                "--narration",
                "loud",
            ],
        ),
    }


def _main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as stopped:
        main([*args, "--json"])
    code = stopped.value.code
    return (code if isinstance(code, int) else 0), capsys.readouterr().out


def test_every_json_command_prints_one_document_and_documented_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each --json command prints exactly one JSON document, worked or refused; a refusal is exit 2 with a
    code from the contract's list and a ``rule`` key (null when no numbered rule applies)."""
    cases = _cases(tmp_path)
    assert set(cases) == set(_json_commands()), "every --json command has a case here"
    for name, (good, bad) in cases.items():
        code, out = _main(good, capsys)
        assert code in (0, 1, 3), (name, code, out)
        assert out.count("\n") == 1 and isinstance(json.loads(out), dict), name
        code, out = _main(bad, capsys)
        error = json.loads(out)["error"]
        assert code == 2 and out.count("\n") == 1, (name, out)
        assert error["code"] in DOCUMENTED, (name, error)
        assert "rule" in error and isinstance(error["message"], str), (name, error)


def test_every_error_code_in_the_source_is_documented() -> None:
    """Every code a module raises or reports is in the contract's list of error codes."""
    pattern = re.compile(r"""code(?:=|\s*=\s*|":\s*)"([a-z_]+)"|fail\(\s*"([a-z_]+)\"""")
    found: set[str] = set()
    for path in (ROOT / "src" / "talespin").rglob("*.py"):
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1) or match.group(2))
    assert len(found) > 50
    assert not found - DOCUMENTED, sorted(found - DOCUMENTED)


def test_http_errors_always_carry_a_rule(tmp_path: Path) -> None:
    """Over HTTP too, every error body has ``code``, ``message`` and ``rule`` (maybe null)."""
    from talespin.web import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}")) as client:
        made = client.post("/api/campaigns", json={"name": "T", "system": "ascend"}).json()
        answers = [
            client.get("/api/campaigns/nope/state", headers={"Authorization": "Bearer x"}),
            client.get(f"/api/campaigns/{made['id']}/state"),
            client.post("/api/campaigns", json={"name": "T", "system": "chess"}),
            client.post("/api/campaigns", json={"name": ""}),
            client.delete("/api/campaigns"),
        ]
    for answer in answers:
        error = answer.json()["error"]
        assert answer.status_code >= 400 and "rule" in error, answer.text
        assert error["code"] in DOCUMENTED, error


def _talespin(*args: str, stdin: bytes | None = None, cwd: Path = ROOT, **env: str) -> tuple[int, str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR", "FORCE_COLOR")}
    done = subprocess.run(
        [sys.executable, "-m", "talespin", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env={**clean, **env},
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout.decode("utf-8")


def test_a_dash_reads_standard_input() -> None:
    """`-` as a file argument reads standard input: sheets, scripts (files relative to the directory)."""
    ada = (EXAMPLES / "ii-ada.yaml").read_bytes()
    code, out = _talespin("ii", "character", "validate", "-", "--json", stdin=ada)
    assert code == 0 and json.loads(out)["valid"] is True
    susan = (EXAMPLES / "ascend-hero-susan.yaml").read_bytes()
    code, out = _talespin("ascend", "hero", "validate", "-", stdin=susan)
    assert code == 0 and "valid" in out
    script = (EXAMPLES / "ii-action-scene.yaml").read_bytes()
    code, out = _talespin("ii", "play", "-", "--json", stdin=script, cwd=EXAMPLES)
    assert code == 0 and "state" in json.loads(out)
    code, out = _talespin("ii", "character", "validate", "-", "--json", stdin=b"\xff\xfe")
    assert code == 2 and "standard input" in json.loads(out)["error"]["message"]


def test_piped_output_is_not_folded_at_80_columns() -> None:
    """Into a pipe, a long line stays one line (no hard wrap); COLUMNS still sets a width when given."""
    code, out = _talespin("ii", "play", str(EXAMPLES / "ii-action-scene.yaml"))
    first = out.splitlines()[0]
    assert (
        code == 0 and len(first) > 80 and first.startswith("SceneStarted") and "cooperative_streak" in first
    )
    code, out = _talespin(
        "ascend", "advise", "--hero", str(EXAMPLES / "ascend-hero-susan.yaml"), "--skill", "Athletics"
    )
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 120


def test_no_color_is_honoured() -> None:
    """FORCE_COLOR colours output even into a pipe; NO_COLOR takes every colour away again."""
    args = ("ascend", "test", "--rating", "2", "--pool", "6", "--faces", "0,3,9,4,7,2")
    _, forced = _talespin(*args, FORCE_COLOR="1")
    assert COLOUR.search(forced), "the check can see colour"
    _, plain = _talespin(*args, FORCE_COLOR="1", NO_COLOR="1")
    assert not COLOUR.search(plain) and "Success" in plain


def test_human_output_is_in_words_not_python_reprs() -> None:
    """A scene's events and final state read as words: no ['…'], {'…'}, None, True or False."""
    for script in ("ii-action-scene.yaml", "ii-conflict.yaml", "ii-cooperative.yaml"):
        code, out = _talespin("ii", "play", str(EXAMPLES / script))
        assert code == 0, out
        for repr_mark in ("['", "{'", "None", "True", "False"):
            assert repr_mark not in out, (script, repr_mark)


def test_seed_with_faces_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """--seed means nothing when --faces gives the dice: refused in both systems, not silently ignored."""
    for args in (
        ["ii", "roll", "--talent-level", "5", "--faces", "6,2;3;4;5;1;6,6,1;3", "--seed", "3"],
        ["ascend", "test", "--rating", "2", "--pool", "3", "--faces", "1,2,3", "--seed", "3"],
    ):
        code, out = _main(args, capsys)
        assert code == 2 and "--seed" in json.loads(out)["error"]["message"]


def test_choices_are_choices(capsys: pytest.CaptureFixture[str]) -> None:
    """--tie and --narration take one of their values; another is a usage error naming the choices."""
    code, out = _main(
        [*OPPOSED, "--tie", "x"],
        capsys,
    )
    message = json.loads(out)["error"]["message"]
    assert code == 2 and "'defender'" in message and "'reroll'" in message
    hero = str(EXAMPLES / "ascend-hero-susan.yaml")
    code, out = _main(
        ["ascend", "advise", "--hero", hero, "--skill", "Athletics", "--narration", "loud"], capsys
    )
    assert code == 2 and "'exceptional'" in json.loads(out)["error"]["message"]


def test_a_refused_script_command_is_counted_from_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The message names the second command "command 2"; command_index stays its 0-based place."""
    script = tmp_path / "s.yaml"
    script.write_text(
        "system: inciting-incident\ncharacters: [" + str(EXAMPLES / "ii-ada.yaml") + "]\ncommands:\n"
        "  - {do: start_scene, kind: action}\n  - {do: simple_obstacle, character: Zed, choice: auto}\n",
        encoding="utf-8",
    )
    code, out = _main(["ii", "play", str(script)], capsys)
    error = json.loads(out)["error"]
    assert code == 2 and error["command_index"] == 1
    assert error["message"].startswith("command 2 (commands[1]): ")


def test_inciting_incident_sheet_shape_errors_are_in_words() -> None:
    """A wrong field or a misspelt key is reported with its rule ID, path and a plain message."""
    # rule: II-CHAR-7
    raw = {
        "name": "Ada",
        "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": "x"},
        "talents": [{"name": "Piloting", "ability": "nimbleness", "level": 2, "colour": "red"}],
    }
    _, errors = check_sheet(raw, default_rules())
    by_path = {error.path: error for error in errors}
    assert by_path["abilities.nimbleness"].message == "nimbleness must be a whole number, got 'x'"
    assert by_path["abilities.nimbleness"].rule == "II-CHAR-1"
    assert by_path["talents[0].colour"].rule == "II-CHAR-2"
    assert "'colour' is not a field here" in by_path["talents[0].colour"].message
    for error in errors:
        assert "Input should" not in error.message and "Extra inputs" not in error.message
    _, missing = check_sheet({"abilities": {}, "talents": []}, default_rules())
    assert any(e.path == "name" and e.message == "name is missing" for e in missing)
