"""The `talespin ii` command line: contracts, golden scene scripts, and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from talespin.cli import app
from talespin.web import create_app

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = Path(__file__).resolve().parent / "golden"
runner = CliRunner()


def _json(*args: str) -> tuple[int, dict[str, Any]]:
    result = runner.invoke(app, ["ii", *args, "--json"])
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", ["ii-action-scene", "ii-cooperative", "ii-conflict"])
def test_example_scripts_match_golden_output(name: str) -> None:
    """`talespin ii play EXAMPLE --json` prints the committed golden document."""
    # rule: II-CRISIS-2 II-CRISIS-3 II-FLOW-4
    code, body = _json("play", str(ROOT / "examples" / f"{name}.yaml"))
    assert code == 0
    assert body == json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def test_action_scene_summary() -> None:
    """The action scene ends with the expected Crisis, Rising Tension and Trigger firings."""
    _, body = _json("play", str(ROOT / "examples" / "ii-action-scene.yaml"))
    assert body["state"]["crisis"] == 21 and body["state"]["obstacle_beaten"] is True
    assert [(t["value"], t["character"]) for t in body["triggers_fired"]] == [
        (10, "Bram"),
        (15, "Ada"),
        (20, "Bram"),
    ]
    blind = [e for e in body["events"] if e["type"] == "AbilityRolled"]
    assert blind[0]["visibility"] == "gm"


def test_odds_contract() -> None:
    """`ii odds` prints the contract's keys with the ladder applied."""
    code, body = _json(
        "odds", "--talent-level", "6", "--dice", "5", "--advantage", "3", "--disadvantage", "1"
    )
    assert code == 0
    assert body["d6"] == 6 and body["talent_dice"] == ["d8", "d8"] and body["against"] == 20
    assert {"p_success", "p_success_exact", "expected_crisis", "expected_crisis_exact", "auto_crisis"} <= set(
        body
    )
    assert body["auto_crisis"] == 4
    _, ability = _json("odds", "--ability-level", "1", "--against", "12")
    assert ability["talent_dice"] == ["d4"] and ability["against"] == 12


def test_roll_with_faces() -> None:
    """`ii roll --faces` checks physical dice and reports total, success and Crisis."""
    code, body = _json("roll", "--talent-level", "3", "--dice", "2", "--faces", "6,2;3;8,1")
    assert code == 0
    assert body["total"] == 20 and body["success"] is True and body["crisis"] == 2
    assert body["chains"] == [
        {"size": 6, "faces": [6, 2]},
        {"size": 6, "faces": [3]},
        {"size": 8, "faces": [8, 1]},
    ]
    code, seeded = _json("roll", "--talent-level", "3", "--seed", "4")
    assert code == 0 and seeded == _json("roll", "--talent-level", "3", "--seed", "4")[1]


def test_table_json_and_plot(tmp_path: Path) -> None:
    """`ii table` gives the level × d6 grid, and --plot writes a heatmap."""
    code, body = _json("table", "--against", "25")
    assert code == 0 and body["against"] == 25
    assert len(body["p_success"]) == 10 and len(body["p_success"][0]) == 9
    target = tmp_path / "grid.svg"
    code, body = _json("table", "--plot", str(target))
    assert code == 0 and target.read_text(encoding="utf-8").startswith("<?xml")
    code, body = _json("table", "--plot", str(tmp_path / "grid.gif"))
    assert code == 2 and body["error"]["code"] == "bad_option"


def test_character_validate_exit_codes(tmp_path: Path, h: Any) -> None:
    """Valid: exit 0; invalid: exit 1 with every error; unreadable or unparsable: exit 2."""
    # rule: II-CHAR-7
    good = tmp_path / "ada.yaml"
    good.write_text(yaml.safe_dump(h.ADA), encoding="utf-8")
    code, body = _json("character", "validate", str(good))
    assert code == 0 and body["valid"] is True and body["cost"] == 62
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**h.ADA, "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 1}}))
    code, body = _json("character", "validate", str(bad))
    assert code == 1 and body["valid"] is False and len(body["errors"]) >= 2
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed", encoding="utf-8")
    code, body = _json("character", "validate", str(broken))
    assert code == 2 and body["error"]["code"] == "unparsable_file"
    code, body = _json("character", "validate", str(tmp_path / "missing.yaml"))
    assert code == 2 and body["error"]["code"] == "unreadable_file"


def test_character_schema_prints_json() -> None:
    """`ii character schema` prints the published JSON Schema."""
    result = runner.invoke(app, ["ii", "character", "schema"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["title"] == "Inciting Incident character"


def _script(tmp_path: Path, h: Any, *commands: dict[str, Any], tension: int = 1) -> Path:
    path = tmp_path / "script.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "system": "inciting-incident",
                "rising_tension": tension,
                "characters": [h.ADA, h.BRAM],
                "commands": [{"do": "start_scene", "kind": "action"}, *commands],
            }
        )
    )
    return path


@pytest.mark.parametrize(
    ("commands", "code", "rule"),
    [
        (
            [{"do": "simple_obstacle"}, {"do": "simple_obstacle", "character": "Ada", "talent": "Juggling"}],
            "unknown_talent",
            "II-ROLL-1",
        ),
        (
            [
                {"do": "simple_obstacle"},
                {"do": "simple_obstacle", "character": "Ada", "talent": "Piloting", "faces": [[1], [2]]},
            ],
            "bad_faces",
            "II-ROLL-4",
        ),
        ([{"do": "complex_obstacle", "obstruction": -3}], "bad_field", "II-COMPLEX-1"),
        ([{"do": "spend_tension", "on": "trigger"}], "illegal", "II-RT-3"),
        (
            [
                {"do": "complex_obstacle", "obstruction": 20},
                {"do": "regular_action", "character": "Ada", "choice": "auto"},
                {"do": "regular_action", "character": "Ada", "choice": "auto"},
            ],
            "illegal",
            "II-COMPLEX-5",
        ),
    ],
)
def test_illegal_commands_stop_the_run(
    tmp_path: Path, h: Any, commands: list[dict[str, Any]], code: str, rule: str
) -> None:
    """A refused command stops `ii play` with exit 2 and the contract's error (code, rule, command_index)."""
    # rule: II-ROLL-4 II-COMPLEX-1 II-COMPLEX-5 II-RT-3
    status, body = _json("play", str(_script(tmp_path, h, *commands)))
    assert status == 2
    assert body["error"]["code"] == code and body["error"]["rule"] == rule
    assert body["error"]["command_index"] == len(commands)
    assert body["error"]["message"]


def test_malformed_sheet_in_a_script(tmp_path: Path, h: Any) -> None:
    """A script with a malformed character sheet is refused with exit 2 and no traceback."""
    path = tmp_path / "s.yaml"
    path.write_text(
        yaml.safe_dump({"characters": [{"name": "X", "abilities": {"fortitude": "lots"}}], "commands": []})
    )
    status, body = _json("play", str(path))
    assert status == 2 and body["error"]["code"] == "invalid_sheet"
    result = runner.invoke(app, ["ii", "play", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_faces_that_do_not_parse() -> None:
    """`--faces` that are not numbers give exit 2 with code bad_faces."""
    status, body = _json("roll", "--talent-level", "3", "--faces", "6,x;3")
    assert status == 2 and body["error"]["code"] == "bad_faces"
    status, body = _json("roll", "--talent-level", "3", "--dice", "1", "--faces", "6;3")
    assert status == 2 and "chain 1" in body["error"]["message"]


def test_human_output_renders() -> None:
    """Without --json the commands print for people and exit 0."""
    for args in (
        ["odds", "--talent-level", "5"],
        ["roll", "--talent-level", "5", "--seed", "1"],
        ["table"],
        ["play", str(ROOT / "examples" / "ii-conflict.yaml")],
    ):
        result = runner.invoke(app, ["ii", *args])
        assert result.exit_code == 0, result.output
        assert result.output.strip()


def test_validate_reports_type_and_rule_errors_alike_on_cli_and_http(tmp_path: Path) -> None:
    """`ii character validate` and POST .../ii/validate give one verdict for a half-broken sheet."""
    # rule: II-CHAR-7 II-CHAR-2
    sheet = {
        "name": "Ada",
        "abilities": {"fortitude": 3, "perseverance": 4, "nimbleness": 5},
        "talents": [
            {"name": "Piloting", "ability": "nimbleness", "level": "a"},
            {"name": "Mechanics", "ability": "perseverance", "level": 6},
            {"name": "Mechanics", "ability": "perseverance", "level": 2},
        ],
    }
    path = tmp_path / "half-broken.yaml"
    path.write_text(yaml.safe_dump(sheet), encoding="utf-8")
    code, body = _json("character", "validate", str(path))
    assert code == 1 and body["valid"] is False and body["cost"] is None
    assert [(e["rule"], e["path"]) for e in body["errors"]] == [
        ("II-CHAR-2", "talents[0].level"),
        ("II-CHAR-2", "talents[1].level"),
        ("II-CHAR-2", "talents[2].name"),
    ]
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}")) as client:
        response = client.post("/api/systems/ii/validate", json={"sheet": sheet})
    assert response.status_code == 200 and response.json() == body
