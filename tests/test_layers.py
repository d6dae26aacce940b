"""Imports flow one way: ``dice`` and ``systems`` never load an adapter's library; ``__all__`` is honest."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import talespin

SRC = Path(talespin.__file__).resolve().parent

FORBIDDEN = [
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "typer",
    "rich",
    "matplotlib",
    "httpx",
]
"""Adapter libraries (web, storage, terminal, plotting, HTTP client). numpy, lark, pydantic, yaml are fine."""


def _core_modules() -> list[str]:
    """``talespin.dice``, ``talespin.systems`` and every module found on disk under ``systems/``."""
    names = ["talespin.dice", "talespin.systems"]
    for path in sorted((SRC / "systems").rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def test_core_layers_load_no_adapter_library() -> None:
    """Importing dice and every systems module in a fresh interpreter loads none of the adapter libraries."""
    modules = _core_modules()
    assert len(modules) > 2
    program = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in {FORBIDDEN!r} if m in sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def test_the_layer_check_can_see_a_forbidden_import() -> None:
    """The same check notices an adapter library when one is imported (so the test above can fail)."""
    program = (
        f"import json, sys, rich\nprint(json.dumps(sorted(m for m in {FORBIDDEN!r} if m in sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], check=False, capture_output=True, text=True, timeout=60
    )
    assert json.loads(done.stdout) == ["rich"]


def _packages() -> list[str]:
    found = ["talespin"]
    for info in pkgutil.walk_packages([str(SRC)], prefix="talespin."):
        if info.ispkg:
            found.append(info.name)
    return sorted(found)


@pytest.mark.parametrize("name", _packages())
def test_each_package_all_names_only_what_exists(name: str) -> None:
    """Every name in a package's ``__all__`` is defined by that package, with no duplicates."""
    package = importlib.import_module(name)
    exported = getattr(package, "__all__", [])
    missing = [item for item in exported if not hasattr(package, item)]
    assert not missing, f"{name}.__all__ names what it does not define: {missing}"
    assert len(set(exported)) == len(exported)
