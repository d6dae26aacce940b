"""Bad input on the command line: one JSON error document under ``--json``, exit code 2, never a traceback."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from talespin.cli import main
from talespin.cli.ascend_files import MAX_DEPTH
from talespin.dice import LimitExceeded
from talespin.systems.inciting_incident import default_rules
from talespin.systems.inciting_incident.rolls import final_d6

TALESPIN = [sys.executable, "-c", "from talespin.cli import main; main()"]
"""The console script, run by this interpreter."""


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run the console script's entry point in process: its exit code and its stdout."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    code = stopped.value.code
    return (code if isinstance(code, int) else 0), capsys.readouterr().out


def error_of(out: str) -> dict[str, object]:
    """The ``error`` object of the single JSON document on stdout."""
    document = json.loads(out)
    assert set(document) == {"error"}
    error: dict[str, object] = document["error"]
    return error


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["roll", "--json"], "notation"),
        (["ii", "odds", "--talent-level", "abc", "--json"], "--talent-level"),
        (["ii", "odds", "--talent-level", "5", "--advantage", "-3", "--json"], "--advantage"),
        (["ascend", "odds", "--rating", "x", "--pool", "3", "--json"], "--rating"),
        (["ii", "odds", "--bogus", "--json"], "--bogus"),
    ],
)
def test_usage_errors_are_one_json_document(
    argv: list[str], option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing argument or an option of the wrong type or range under --json is a JSON error, exit 2."""
    code, out = run(argv, capsys)
    assert code == 2
    error = error_of(out)
    assert error["code"] == "bad_usage"
    assert option in str(error["message"])


def test_a_good_command_through_main_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """The entry point still runs a correct command with --json and exits 0."""
    code, out = run(["ii", "odds", "--talent-level", "5", "--dice", "5", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["p_success_exact"] == "2257907/2519424"


@pytest.mark.parametrize("dice", ["0", "-3", "10", "99999999999"])
@pytest.mark.parametrize("command", ["odds", "roll"])
def test_base_d6_outside_the_scene_difficulty_span_is_refused(
    command: str, dice: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """--dice outside the rules' base d6 span is refused by name (no silent clamping, no memory blow-up)."""
    # rule: II-ROLL-5
    seed = ["--seed", "1"] if command == "roll" else []
    code, out = run(["ii", command, "--talent-level", "5", "--dice", dice, *seed, "--json"], capsys)
    assert code == 2
    error = error_of(out)
    assert error["code"] == "bad_dice"
    assert error["rule"] == "II-ROLL-5"
    assert "between 1 and 9" in str(error["message"])


@pytest.mark.parametrize("base", [-1, 10**11])
def test_final_d6_refuses_an_impossible_base(base: int) -> None:
    """A negative base d6 count, or one beyond the dice limit, raises LimitExceeded before dice are built."""
    # rule: II-ADV-3
    with pytest.raises(LimitExceeded):
        final_d6(base, 0, 0, default_rules())


def _files(tmp_path: Path) -> dict[str, Path]:
    nested = "[" * 5000 + "]" * 5000
    made = {
        "binary.yaml": bytes(range(128, 256)),
        "deep.json": nested.encode(),
        "deep.yaml": nested.encode(),
        "deepobj.json": ('{"a":' * 3000 + "1" + "}" * 3000).encode(),
        "shallow-too-deep.json": ("[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2)).encode(),
    }
    for name, content in made.items():
        (tmp_path / name).write_bytes(content)
    return {name: tmp_path / name for name in made}


@pytest.mark.parametrize(
    "command",
    [
        ["ii", "character", "validate"],
        ["ii", "play"],
        ["ascend", "hero", "validate"],
        ["ascend", "play"],
        ["verify"],
    ],
)
@pytest.mark.parametrize(
    "name", ["binary.yaml", "deep.json", "deep.yaml", "deepobj.json", "shallow-too-deep.json"]
)
def test_binary_and_deeply_nested_files_are_refused(
    command: list[str], name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that is not UTF-8 text or nests lists and mappings too deep is exit 2 with a JSON error."""
    path = _files(tmp_path)[name]
    code, out = run([*command, str(path), "--json"], capsys)
    assert code == 2
    error = error_of(out)
    assert str(error["code"]) in {"unreadable_file", "unparsable_file", "unreadable", "bad_export"}
    assert str(error["message"])


def test_yaml_on_is_a_key_not_a_boolean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``{do: spend_tension, on: trigger}`` in a YAML script reaches the engine with the key 'on'."""
    # rule: II-RT-3
    script = tmp_path / "spend.yaml"
    script.write_text(
        "system: inciting-incident\n"
        "rising_tension: 1\n"
        "characters:\n"
        "  - {name: Ada, abilities: {fortitude: 3, perseverance: 4, nimbleness: 5}, talents: []}\n"
        "commands:\n"
        "  - {do: start_scene, kind: action}\n"
        "  - {do: spend_tension, on: trigger}\n",
        encoding="utf-8",
    )
    code, out = run(["ii", "play", str(script), "--json"], capsys)
    assert code == 2
    error = error_of(out)
    assert error["rule"] == "II-RT-3"
    assert "needs 2, only 1 is available" in str(error["message"])


def test_serve_on_a_busy_port_exits_two(tmp_path: Path) -> None:
    """``talespin serve`` on a port another socket holds exits 2 with a message, not uvicorn's own code."""
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        done = subprocess.run(
            [*TALESPIN, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 't.db'}"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        busy.close()
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
