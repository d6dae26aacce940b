"""The API reference site builds from the docstrings with every warning an error (`make docs`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_docs_site_builds_strictly(tmp_path: Path) -> None:
    """`mkdocs build --strict` succeeds and renders the reference of every layer it lists."""
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    dice = (site / "api" / "dice" / "index.html").read_text(encoding="utf-8")
    assert 'id="talespin.dice.roll"' in dice and "whole-number seed" in dice
    errors = (site / "contracts" / "index.html").read_text(encoding="utf-8")
    assert "bad_usage" in errors and "unreadable_file" in errors
    for page in ("ascend", "inciting-incident", "table", "lab", "systems", "documents"):
        assert 'id="talespin.' in (site / "api" / page / "index.html").read_text(encoding="utf-8"), page


def test_the_makefile_builds_the_docs_strictly() -> None:
    """`make docs` is the strict build, and the mkdocs tools are in the `docs` dependency group."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "mkdocs build --strict" in makefile.split("\ndocs:", 1)[1].split("\n\n", 1)[0]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "mkdocstrings[python]" in pyproject
