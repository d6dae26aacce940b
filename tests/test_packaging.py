"""What `pip install talespin` brings: lean dependencies, extras that say what is missing, lazy layers."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import talespin
from talespin.extras import MissingExtra, require

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_subpackages_are_attributes() -> None:
    """`import talespin; talespin.dice` works for every layer, loaded on first use."""
    for name in talespin.SUBPACKAGES:
        assert getattr(talespin, name).__name__ == f"talespin.{name}"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = talespin.nothing  # type: ignore[attr-defined]


def test_base_install_leaves_heavy_and_developer_tools_out() -> None:
    """PostgreSQL, plots and GMP big integers are extras, developer tools dependency groups; WebSockets
    are in the base."""
    project = PYPROJECT["project"]
    base = " ".join(project["dependencies"]).lower()
    assert "websockets" in base and "uvicorn" in base
    for heavy in ("psycopg", "matplotlib", "gmpy2", "pytest", "mypy", "ruff", "playwright"):
        assert heavy not in base, heavy
    assert set(project["optional-dependencies"]) == {"postgres", "plot", "fast"}
    assert project["license"] == "MIT" and (ROOT / "LICENSE").is_file()
    assert project["dynamic"] == ["version"]


def test_group_script_expands_included_groups() -> None:
    """scripts/group.py lists the `dev` group with its included groups, for pips without --group."""
    script = str(ROOT / "scripts" / "group.py")
    out = subprocess.run([sys.executable, script, "dev"], capture_output=True, text=True, check=True)
    listed = out.stdout.split()
    assert "pytest>=8" in listed and "ruff>=0.5" in listed


def test_missing_extra_names_the_extra() -> None:
    """A missing optional package is an error naming the extra to install."""
    error = MissingExtra("psycopg")
    assert "pip install 'talespin[postgres]'" in str(error)
    assert require("matplotlib").__name__ == "matplotlib"


def test_python_dash_m_runs_the_cli() -> None:
    """`python -m talespin` is the same command line as the script."""
    command = [sys.executable, "-m", "talespin", "--help"]
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "roll" in done.stdout


def test_version_help_and_completion_options() -> None:
    """`talespin --version` prints the package version; `-h` is help; completion can be installed."""
    command = [sys.executable, "-m", "talespin"]
    done = subprocess.run([*command, "--version"], check=False, capture_output=True, text=True)
    assert done.stdout.strip() == f"talespin {talespin.__version__}"
    helped = subprocess.run([*command, "ii", "-h"], check=False, capture_output=True, text=True)
    assert helped.returncode == 0 and "odds" in helped.stdout
    root = subprocess.run([*command, "-h"], check=False, capture_output=True, text=True)
    assert "--install-completion" in root.stdout


def test_the_sdist_carries_tests_examples_and_docs() -> None:
    """MANIFEST.in puts the whole test suite, the examples, the docs and the benchmarks in the sdist."""
    lines = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    grafted = {line.split()[1] for line in lines if line.startswith("graft ")}
    for folder in ("tests", "examples", "docs", "bench", "scripts"):
        assert folder in grafted and (ROOT / folder).is_dir(), folder
