"""The `talespin ascend` command line: contracts, golden scene scripts, sheets, advice and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from talespin.cli import app

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
SCRIPTS = [
    "ascend-narrated-test",
    "ascend-opposed",
    "ascend-opposed-reroll",
    "ascend-extended",
    "ascend-narrated-outcome",
]
runner = CliRunner()


def _run(*args: str) -> tuple[int, dict[str, Any]]:
    result = runner.invoke(app, ["ascend", *args, "--json"])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, json.loads(result.stdout.strip().splitlines()[-1])


def _script(tmp_path: Path, commands: list[dict[str, Any]], **extra: Any) -> str:
    path = tmp_path / "scene.yaml"
    body = {
        "system": "ascend",
        "heroes": [str(EXAMPLES / "ascend-hero-susan.yaml")],
        "commands": commands,
        **extra,
    }
    path.write_text(yaml.safe_dump(body), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", SCRIPTS)
def test_example_scripts_match_golden_output(name: str) -> None:
    """`talespin ascend play EXAMPLE --seed 7 --json` prints the committed golden document."""
    # rule: AS-POOL-2, AS-POOL-3, AS-OPP-1, AS-EXT-1, AS-TEST-5
    code, body = _run("play", str(EXAMPLES / f"{name}.yaml"), "--seed", "7")
    assert code == 0
    assert body == json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def test_play_results_carry_the_contract_keys() -> None:
    """Each test result has do, target, pool, successes, success and margin; the cliff Test is 6d10."""
    # rule: AS-POOL-5, AS-TEST-4
    _, body = _run("play", str(EXAMPLES / "ascend-narrated-test.yaml"))
    first = body["results"][0]
    assert {"do", "target", "pool", "successes", "success", "margin"} <= set(first)
    assert (first["do"], first["pool"], first["target"], first["successes"]) == ("test", 6, 3, 3)
    assert body["state"]["tests"] == 3


def test_each_example_kind_is_present() -> None:
    """The examples hold a narrated Test, an opposed Test, an extended Test and a narrated outcome."""
    done = set()
    for name in SCRIPTS:
        script = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"))
        for command in script["commands"]:
            done.add((command["do"], command.get("narration", "none")))
    assert {
        ("test", "narrated"),
        ("opposed_test", "none"),
        ("extended_test", "none"),
        ("narrate", "none"),
    } <= done


@pytest.mark.parametrize(
    ("command", "code", "rule"),
    [
        (
            {
                "do": "test",
                "hero": "Susan",
                "skill": "Athletics",
                "trait": "Agility",
                "invoke": ["Agility"],
                "narration": "narrated",
            },
            "item_used_twice",
            "AS-POOL-2",
        ),
        (
            {"do": "test", "hero": "Susan", "skill": "Athletics", "trait": "Agility", "invoke": ["Strength"]},
            "needs_narration",
            "AS-POOL-2",
        ),
        ({"do": "test", "hero": "Susan", "skill": "Sailing"}, "unknown_skill", "AS-TEST-1"),
        (
            {"do": "test", "hero": "Susan", "skill": "Athletics", "trait": "Agility", "faces": [0, 1, 10]},
            "bad_faces",
            "AS-TEST-3",
        ),
        (
            {"do": "test", "hero": "Susan", "skill": "Athletics", "trait": "Agility", "faces": [0, 1]},
            "bad_faces",
            "AS-TEST-3",
        ),
    ],
)
def test_an_illegal_command_stops_the_script_with_exit_2(
    tmp_path: Path, command: dict[str, Any], code: str, rule: str | None
) -> None:
    """The run stops at the refused command: exit 2, the error's code, rule, command index and message."""
    # rule: AS-POOL-2, AS-TEST-1, AS-TEST-3
    good = {"do": "test", "hero": "Susan", "skill": "Stealth", "trait": "Agility"}
    exit_code, body = _run("play", _script(tmp_path, [good, command, good]))
    assert exit_code == 2
    error = body["error"]
    assert (error["code"], error["rule"], error["command_index"]) == (code, rule, 1)
    assert error["message"].startswith("command 2 (commands[1]):"), "messages count commands from 1"


def test_a_script_for_another_system_or_with_a_typo_is_refused(tmp_path: Path) -> None:
    """Wrong system, unknown keys and unreadable files are exit 2 with a JSON error."""
    code, body = _run("play", _script(tmp_path, [], system="ii"))
    assert (code, body["error"]["code"]) == (2, "wrong_system")
    code, body = _run("play", _script(tmp_path, [], characters=[]))
    assert (code, body["error"]["code"]) == (2, "unknown_key")
    code, body = _run("play", str(tmp_path / "missing.yaml"))
    assert (code, body["error"]["code"]) == (2, "unreadable_file")
    broken = tmp_path / "broken.yaml"
    broken.write_text("commands: [", encoding="utf-8")
    code, body = _run("play", str(broken))
    assert (code, body["error"]["code"]) == (2, "unparsable_file")
    repeated = tmp_path / "repeated.yaml"
    repeated.write_text("system: ascend\ncommands: []\ncommands: []\n", encoding="utf-8")
    code, body = _run("play", str(repeated))
    assert (code, body["error"]["code"], body["error"]["path"]) == (2, "duplicate_key", "commands")


def test_odds_contract() -> None:
    """`ascend odds` prints target, pool, required, P(success) twice and the distribution."""
    # rule: AS-ODDS-1, AS-POOL-5
    code, body = _run("odds", "--rating", "3", "--difficulty", "2", "--pool", "4")
    assert code == 0
    assert (body["target"], body["pool"], body["required"]) == (1, 4, 1)
    assert body["p_success_exact"] == "369/625"
    assert body["p_success"] == pytest.approx(369 / 625)
    assert body["distribution"][0] == [0, 256 / 625, "256/625"]


def test_test_with_physical_faces() -> None:
    """`ascend test --faces` counts the dice at or below the Target."""
    # rule: AS-TEST-3, AS-TEST-4, AS-POOL-5
    code, body = _run("test", "--rating", "2", "--pool", "3", "--faces", "0,3,2", "--required", "2")
    assert code == 0
    assert body == {
        "target": 2,
        "pool": 3,
        "required": 2,
        "faces": [0, 3, 2],
        "successes": 2,
        "success": True,
        "margin": 0,
    }


def test_test_rolls_reproducibly_with_a_seed() -> None:
    """The same seed gives the same faces."""
    first = _run("test", "--rating", "5", "--pool", "6", "--seed", "3")[1]
    assert first == _run("test", "--rating", "5", "--pool", "6", "--seed", "3")[1]
    assert len(first["faces"]) == 6


@pytest.mark.parametrize(
    "args",
    [
        ["test", "--rating", "2", "--pool", "3", "--faces", "0,3,10"],
        ["test", "--rating", "2", "--pool", "3", "--faces", "0,3"],
        ["test", "--rating", "2", "--pool", "3", "--faces", "a,b,c"],
        ["odds", "--rating", "10", "--pool", "3"],
        ["odds", "--rating", "3", "--pool", "-1"],
        ["odds", "--rating", "3", "--pool", "2", "--difficulty", "-1"],
        ["odds", "--rating", "3", "--pool", "2", "--required", "0"],
        ["odds", "--rating", "3", "--pool", "5000"],
    ],
)
def test_bad_numbers_are_exit_2_with_a_json_error(args: list[str]) -> None:
    """Faces off the die or of the wrong count, ratings out of range, negative pools: exit 2, a message."""
    # rule: AS-TEST-3, AS-HERO-2
    code, body = _run(*args)
    assert code == 2
    assert body["error"]["message"]


def test_opposed_and_extended_odds_commands() -> None:
    """`ascend opposed` and `ascend extended` give the AS-ODDS-2 figures."""
    # rule: AS-ODDS-2
    code, body = _run("opposed", "--rating", "3", "--pool", "2", "--vs-rating", "3", "--vs-pool", "2")
    assert code == 0
    assert body["p_win_exact"] == body["p_lose_exact"]
    assert body["p_defender_wins"] == pytest.approx(body["p_tie"] + body["p_lose"])
    code, rerolled = _run(
        "opposed", "--rating", "3", "--pool", "2", "--vs-rating", "3", "--vs-pool", "2", "--tie", "reroll"
    )
    assert rerolled["p_attacker_wins"] > body["p_attacker_wins"]
    code, body = _run("extended", "--rating", "4", "--pool", "3", "--goal", "3", "--limit", "2")
    assert code == 0
    assert [row[0] for row in body["tests_needed"]] == [1, 2]


def test_hero_validate_verdicts(tmp_path: Path) -> None:
    """A valid sheet is exit 0; an invalid one exit 1 with every error; an unreadable one exit 2."""
    # rule: AS-HERO-3, AS-HERO-2
    code, body = _run("hero", "validate", str(EXAMPLES / "ascend-hero-susan.yaml"))
    assert (code, body) == (0, {"valid": True, "cost": None, "errors": []})
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Kit\ntraits: {Luck: 12, Luck: 3}\nskills: {Dice: x}\n", encoding="utf-8")
    code, body = _run("hero", "validate", str(bad))
    assert code == 1
    assert {(e["rule"], e["path"]) for e in body["errors"]} == {
        ("AS-HERO-2", "traits.Luck"),
        ("AS-HERO-2", "skills.Dice"),
    }
    code, body = _run("hero", "validate", str(tmp_path / "nope.json"))
    assert (code, body["error"]["code"]) == (2, "unreadable_file")
    as_json = tmp_path / "kit.json"
    as_json.write_text('{"name": "Kit", "aids": {"Luck": 3, "Luck": 4}}', encoding="utf-8")
    code, body = _run("hero", "validate", str(as_json))
    assert (code, body["errors"][0]["path"]) == (1, "aids.Luck")


def test_hero_schema_prints_the_committed_schema() -> None:
    """`ascend hero schema` prints docs/schemas/ascend-hero.schema.json."""
    result = runner.invoke(app, ["ascend", "hero", "schema"])
    assert result.exit_code == 0
    committed = json.loads(
        (ROOT / "docs" / "schemas" / "ascend-hero.schema.json").read_text(encoding="utf-8")
    )
    assert json.loads(result.stdout) == committed


def test_advise_ranks_the_choices() -> None:
    """`ascend advise` lists distinct choices best first, as many as asked."""
    # rule: AS-ODDS-3
    code, body = _run(
        "advise",
        "--hero",
        str(EXAMPLES / "ascend-hero-susan.yaml"),
        "--skill",
        "Athletics",
        "--narration",
        "narrated",
        "--top",
        "3",
    )
    assert code == 0
    assert len(body["advice"]) == 3
    best = body["advice"][0]
    assert (best["trait"], best["background"], best["aid"], best["invoke"], best["pool"]) == (
        "Agility",
        "Avanus",
        "Climbing rope",
        ["Strength"],
        7,
    )
    p = [row["p_success"] for row in body["advice"]]
    assert p == sorted(p, reverse=True)
    code, every = _run(
        "advise",
        "--hero",
        str(EXAMPLES / "ascend-hero-susan.yaml"),
        "--skill",
        "Athletics",
        "--narration",
        "narrated",
        "--all",
        "--every-assignment",
    )
    assert every["choices"] == len(every["advice"]) > body["choices"]


def test_advise_shows_ten_choices_unless_asked() -> None:
    """Without --top or --all, `ascend advise` lists the ten best choices (of many more)."""
    # rule: AS-ODDS-3
    hero = str(EXAMPLES / "ascend-hero-susan.yaml")
    code, body = _run("advise", "--hero", hero, "--skill", "Athletics", "--narration", "narrated")
    assert code == 0
    assert len(body["advice"]) == 10 < body["choices"]


def test_advise_refuses_bad_input() -> None:
    """An unknown Skill or narration level is exit 2."""
    # rule: AS-TEST-1
    hero = str(EXAMPLES / "ascend-hero-susan.yaml")
    code, body = _run("advise", "--hero", hero, "--skill", "Sailing")
    assert (code, body["error"]["code"]) == (2, "unknown_skill")
    loud = ["ascend", "advise", "--hero", hero, "--skill", "Athletics", "--narration", "loud"]
    refused = runner.invoke(app, loud)
    assert refused.exit_code == 2, "--narration is a choice: an unknown one is a usage error"
    assert all(word in refused.output for word in ("'loud'", "'narrated'", "'exceptional'"))


def test_rich_output_for_people() -> None:
    """Without --json the commands print tables and sentences, not JSON."""
    result = runner.invoke(app, ["ascend", "odds", "--rating", "2", "--pool", "3"])
    assert result.exit_code == 0
    assert "P(success)" in result.stdout and "657/1000" in result.stdout
    result = runner.invoke(app, ["ascend", "play", str(EXAMPLES / "ascend-opposed.yaml")])
    assert result.exit_code == 0
    assert "Will" in result.stdout and "wins" in result.stdout


def test_the_committed_script_schema_is_current() -> None:
    """docs/schemas/ascend-script.schema.json is what ``talespin ascend script-schema`` prints."""
    result = runner.invoke(app, ["ascend", "script-schema"])
    assert result.exit_code == 0
    committed = json.loads(
        (ROOT / "docs" / "schemas" / "ascend-script.schema.json").read_text(encoding="utf-8")
    )
    assert json.loads(result.stdout) == committed


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_example_script_fits_the_script_model(name: str) -> None:
    """The examples are valid scene scripts by the model the schema is made from."""
    from talespin.systems.ascend.commands import SceneScript

    script = SceneScript.model_validate(
        yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text(encoding="utf-8"))
    )
    assert script.commands
