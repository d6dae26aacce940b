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
    shown = {
        "store": ("talespin.store.EventStore", "talespin.store.open_store"),
        "web": ("talespin.web.create_app",),
        "cli": ("talespin.cli.main", "talespin.cli.root_help.render", "talespin.cli.lazy.LazyGroup"),
    }
    for page, names in shown.items():
        html = (site / "api" / page / "index.html").read_text(encoding="utf-8")
        assert all(f'id="{name}"' in html for name in names), page


def _public_subpackages() -> list[str]:
    """Every package under ``talespin`` a user imports: the layers and the two rule systems."""
    import talespin

    names = [f"talespin.{name}" for name in talespin.SUBPACKAGES]
    systems = sorted(
        path.parent.name for path in (ROOT / "src" / "talespin" / "systems").glob("*/__init__.py")
    )
    assert systems, "the rule systems are found"
    return ["talespin", *names, *(f"talespin.systems.{name}" for name in systems)]


def test_every_public_subpackage_has_a_reference_page_in_the_nav() -> None:
    """Each package (``talespin.store``, ``talespin.web``, ``talespin.cli``, …) is rendered by a page that the
    site's navigation lists, so none is left out of the reference."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    rendered: dict[str, str] = {}
    for page in sorted((ROOT / "docs" / "api").glob("*.md")):
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("::: "):
                rendered[line[4:].strip()] = page.name
    packages = _public_subpackages()
    assert {"talespin.store", "talespin.web", "talespin.cli"} <= set(packages)
    for package in packages:
        assert package in rendered, f"no docs/api page renders {package}"
        assert f"api/{rendered[package]}" in config, f"docs/api/{rendered[package]} is not in the nav"


def test_the_makefile_builds_the_docs_strictly() -> None:
    """`make docs` is the strict build, and the mkdocs tools are in the `docs` dependency group."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "mkdocs build --strict" in makefile.split("\ndocs:", 1)[1].split("\n\n", 1)[0]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "mkdocstrings[python]" in pyproject
