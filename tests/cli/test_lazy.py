"""The command line loads a sub-command's code when it runs: ``--help`` imports neither numpy nor them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from talespin.cli import app
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


@pytest.mark.parametrize("args", [("--help",), ("-h",), ()])
def test_the_root_help_imports_no_sub_command_and_no_numpy(args: tuple[str, ...]) -> None:
    """``talespin --help`` (or no arguments) lists every command with none of their modules imported."""
    loaded = _modules_after(*args)
    assert "numpy" not in loaded
    ours = {"talespin.cli", "talespin.cli.lazy"}
    assert [m for m in loaded if m.startswith("talespin.") and m not in ours] == []


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
