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
from talespin.documents import MAX_BYTES
from talespin.systems.inciting_incident import default_rules
from talespin.systems.inciting_incident.plan import final_d6

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


def _bounded_files(tmp_path: Path) -> dict[str, Path]:
    """Files past each limit of the document reader (aliases, size, numbers, texts)."""
    laughs = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    laughs += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    made = {
        "laughs.yaml": "\n".join(laughs) + "\n",
        "huge-number.yaml": "name: Ada\nabilities: {fortitude: " + "9" * 5000 + "}\n",
        "huge-number.json": '{"name": "Ada", "abilities": {"fortitude": ' + "9" * 5000 + "}}",
        "nul-name.json": '{"name": "A\\u0000da"}',
        "surrogate-name.json": '{"name": "A\\ud800da"}',
        "oversize.yaml": "# " + "x" * (MAX_BYTES + 10) + "\n",
    }
    for name, content in made.items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    return {name: tmp_path / name for name in made}


@pytest.mark.parametrize(
    "command",
    [["ii", "character", "validate"], ["ii", "play"], ["ascend", "hero", "validate"], ["ascend", "play"]],
)
@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("laughs.yaml", "unparsable_file"),
        ("huge-number.yaml", "out_of_range"),
        ("huge-number.json", "out_of_range"),
        ("nul-name.json", "bad_text"),
        ("surrogate-name.json", "bad_text"),
        ("oversize.yaml", "unreadable_file"),
        ("/dev/zero", "unreadable_file"),
    ],
)
def test_files_past_the_reader_limits_are_refused_quickly(
    command: list[str], name: str, code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Alias bombs, 5,000-digit numbers, NUL, surrogates, oversize files, /dev/zero: exit 2, short error."""
    path = Path(name) if name.startswith("/") else _bounded_files(tmp_path)[name]
    exit_code, out = run([*command, str(path), "--json"], capsys)
    assert exit_code == 2
    error = error_of(out)
    assert error["code"] == code
    assert len(str(error["message"])) < 400  # an excerpt of the input at most
    if code == "bad_text":
        assert error["path"] == "name"


def test_an_ascend_difficulty_of_ten_to_the_thirty_is_refused_in_a_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``difficulty: 10**30`` in an Ascend script is exit 2 naming the difficulty and its range."""
    # rule: AS-TEST-2
    hero = (Path(__file__).parents[2] / "examples" / "ascend-hero-susan.yaml").read_text(encoding="utf-8")
    (tmp_path / "susan.yaml").write_text(hero, encoding="utf-8")
    script = tmp_path / "huge.yaml"
    script.write_text(
        "system: ascend\nheroes: [susan.yaml]\ncommands:\n"
        f"  - {{do: test, hero: Susan, skill: Athletics, trait: Agility, difficulty: {10**30}}}\n",
        encoding="utf-8",
    )
    exit_code, out = run(["ascend", "play", str(script), "--json"], capsys)
    assert exit_code == 2
    error = error_of(out)
    assert "10000" in str(error["message"])
    assert "difficulty" in str(error.get("path", "")) + str(error["message"])


def test_rich_markup_in_a_message_is_printed_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    """``talespin roll "[/]" --json`` is one JSON error and exit 2, the markup shown on stderr as typed."""
    with pytest.raises(SystemExit) as stopped:
        main(["roll", "[/]", "--json"])
    captured = capsys.readouterr()
    assert stopped.value.code == 2
    assert error_of(captured.out)["code"] == "bad_notation"
    assert "'[/]'" in captured.err


def test_serve_with_an_unsupported_store_scheme_exits_two_naming_the_schemes() -> None:
    """``talespin serve --db mysql://…`` exits 2 naming sqlite and postgresql, without a traceback."""
    done = subprocess.run(
        [*TALESPIN, "serve", "--db", "mysql://user@host/db", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "sqlite" in done.stderr and "postgresql" in done.stderr
    assert "Traceback" not in done.stderr
