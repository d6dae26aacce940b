"""The README tells the truth: its Python examples run and the commands it names exist."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from typer.testing import CliRunner

from talespin.cli import app

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def test_readme_python_examples_run() -> None:
    """Every '>>>' example of the README gives the output it shows."""
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_readme_starts_with_the_two_commands() -> None:
    """A newcomer meets `make run` and `make test` before anything else."""
    text = README.read_text(encoding="utf-8")
    first_block = text.split("```")[1]
    assert "make run" in first_block
    assert "make test" in first_block


RAW = "https://raw.githubusercontent.com/talespin-rpg/talespin/main/"
BLOB = "https://github.com/talespin-rpg/talespin/blob/main/"


def test_readme_images_exist() -> None:
    """Every picture the README shows is in the repository, linked absolutely (the package index shows it)."""
    text = README.read_text(encoding="utf-8")
    escaped = re.escape(RAW)
    paths = re.findall(rf"\]\({escaped}([^)]+\.png)\)", text) + re.findall(
        rf'src="{escaped}([^"]+\.png)"', text
    )
    assert paths
    for path in paths:
        assert (ROOT / path).is_file(), path


def test_readme_links_work_off_the_repository() -> None:
    """No relative link or image: on the package index page they would break; each file linked exists."""
    text = README.read_text(encoding="utf-8")
    assert not re.findall(r"\]\((?!https?://|#)[^)]+\)|src=\"(?!https?://)", text)
    for path in re.findall(rf"\]\({re.escape(BLOB)}([^)#]+)\)", text):
        assert (ROOT / path).exists(), path


def test_readme_cli_commands_exist() -> None:
    """Every `talespin …` sub-command the README names answers --help."""
    text = README.read_text(encoding="utf-8")
    commands = set(re.findall(r"\$ talespin ((?:ii |ascend )?[a-z]+(?: validate)?)", text))
    assert commands
    runner = CliRunner()
    for command in sorted(commands):
        result = runner.invoke(app, [*command.split(), "--help"])
        assert result.exit_code == 0, f"talespin {command} --help: {result.output}"
