"""The command line loads a sub-command's code when it runs; ``--help`` imports no Typer, numpy nor them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
import typer.main
from typer.testing import CliRunner

from talespin.cli import app, root_help
from talespin.cli.lazy import COMMANDS, load

_LOADED = """
import json, sys
from talespin.cli import main
sys.argv = ["talespin", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def _modules_after(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, *args], capture_output=True, text=True, timeout=120, check=True
    )
    assert "Usage" in done.stdout
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


HEAVY = (
    "typer",
    "click",
    "rich",
    "rich.markdown",
    "markdown_it",
    "numpy",
    "fastapi",
    "sqlalchemy",
    "pydantic",
)
"""Modules ``talespin --help`` must not import: it is written from :mod:`talespin.cli.root_help` alone."""


@pytest.mark.parametrize("args", [("--help",), ("-h",)])
def test_the_root_help_imports_neither_typer_nor_any_heavy_module(args: tuple[str, ...]) -> None:
    """``talespin --help`` and ``-h`` list every command with no Typer, Rich, numpy, web or store loaded."""
    loaded = _modules_after(*args)
    assert [m for m in HEAVY if m in loaded] == []
    assert not [m for m in loaded if m.split(".")[0] in {h.split(".")[0] for h in HEAVY}]
    ours = {"talespin.cli", "talespin.cli.root_help"}
    assert [m for m in loaded if m.startswith("talespin.") and m not in ours] == []


def test_no_arguments_show_the_help_through_typer_without_sub_commands() -> None:
    """``talespin`` alone prints Typer's help box, still with no sub-command module and no numpy."""
    loaded = _modules_after()
    assert "numpy" not in loaded and "typer" in loaded
    ours = {"talespin.cli", "talespin.cli.lazy", "talespin.cli.root", "talespin.cli.root_help"}
    assert [m for m in loaded if m.startswith("talespin.") and m not in ours] == []


def test_the_root_help_lists_what_the_typer_app_declares() -> None:
    """Usage, help, every option (names and help) and every command of the quick help are the app's own."""
    command = typer.main.get_command(app)
    context = command.make_context("talespin", [], resilient_parsing=True)
    assert command.get_usage(context) == root_help.USAGE
    assert command.help == root_help.HELP
    declared = {(", ".join(sorted(p.opts, key=len)), p.help) for p in command.get_params(context)}
    assert declared == set(root_help.OPTIONS)
    assert command.list_commands(context) == list(root_help.COMMANDS)
    text = root_help.render()
    for names, help_text in root_help.OPTIONS:
        assert any(line.split() == [*names.split(), *help_text.split()] for line in text.splitlines()), names
    for name, (_, help_text) in root_help.COMMANDS.items():
        assert f"  {name}" in text and help_text in text, name


def _in_a_terminal(*args: str, **env: str) -> str:
    """What ``talespin ARGS`` writes into a pseudo-terminal 100 columns wide."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    clean = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR", "FORCE_COLOR")}
    with subprocess.Popen(
        [sys.executable, "-m", "talespin", *args],
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env={**clean, "TERM": "xterm", **env},
    ) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end closed: the command is done
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode("utf-8")


def test_the_root_help_fits_a_terminal_and_is_plain_in_a_pipe() -> None:
    """Into a terminal: wrapped to its width, headings in bold, and no bold with NO_COLOR. Into a pipe: one
    line per command however long, no escape codes (FORCE_COLOR brings the bold back)."""
    shown = _in_a_terminal("--help")
    assert "\x1b[1mCommands:" in shown
    plain = re.sub("\x1b\\[[0-9;]*m", "", shown)
    assert max(len(line) for line in plain.splitlines()) <= 100
    assert "recap" in plain and "a talespin export." in plain
    assert "\x1b" not in _in_a_terminal("-h", NO_COLOR="1")
    piped = subprocess.run(
        [sys.executable, "-m", "talespin", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR", "FORCE_COLOR")},
    ).stdout
    assert "\x1b" not in piped
    (recap,) = [line for line in piped.splitlines() if line.startswith("  recap")]
    assert recap.endswith("Exit 2 when the file is not a talespin export.")
    assert root_help.render(bold=True).count("\x1b[1m") > len(root_help.COMMANDS)
    assert root_help.wants_bold(sys.stdout, {"FORCE_COLOR": "1"})
    assert not root_help.wants_bold(sys.stdout, {"FORCE_COLOR": "1", "NO_COLOR": "1"})


def test_a_sub_command_help_imports_only_its_own_module() -> None:
    """``talespin roll --help`` loads the dice commands, not the table's, Ascend's or the web server."""
    loaded = _modules_after("roll", "--help")
    assert "talespin.cli.dice_commands" in loaded
    assert not {"talespin.cli.table_commands", "talespin.cli.ascend_commands", "talespin.web"} & set(loaded)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_listed_help_is_the_commands_own(name: str) -> None:
    """The help the root lists for a command is the first paragraph of that command's own help."""
    own = load(name).help or ""
    first = " ".join(own.split("\n\n")[0].split())
    assert first == COMMANDS[name][1]


def test_commands_run_through_the_lazy_root() -> None:
    """A command loaded on use behaves as before: ``roll 2d6 --seed 3 --json`` gives its JSON document."""
    result = CliRunner().invoke(app, ["roll", "2d6", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["seed"] == 3
    unknown = CliRunner().invoke(app, ["no-such-command"])
    assert unknown.exit_code == 2
