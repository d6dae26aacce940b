"""The package's public surface and its place in the layers."""

from __future__ import annotations

import subprocess
import sys

import talespin.systems.inciting_incident as ii


def test_all_names_exist() -> None:
    """Every name in __all__ is defined and listed once."""
    assert all(hasattr(ii, name) for name in ii.__all__)
    assert len(ii.__all__) == len(set(ii.__all__))


def test_engine_imports_no_adapter_library() -> None:
    """Importing the engine loads no web, CLI, terminal, database or plotting library."""
    adapters = ("typer", "rich", "fastapi", "sqlalchemy", "matplotlib", "uvicorn")
    code = (
        "import sys, talespin.systems.inciting_incident; "
        f"print(','.join(n for n in {adapters!r} if n in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
