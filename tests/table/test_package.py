"""The table, store and web packages: curated public names, teaching examples that run, layering."""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import talespin

PACKAGES = ["talespin.table", "talespin.store", "talespin.web"]
SRC = Path(talespin.__file__).parent


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        names.append(package)
        for info in pkgutil.iter_modules(module.__path__):
            if info.name != "migrations":
                names.append(f"{package}.{info.name}")
    return names


@pytest.mark.parametrize("name", _modules())
def test_every_module_has_a_complete_all(name: str) -> None:
    """Each module lists exactly its public top-level definitions in __all__, and each name exists."""
    module = importlib.import_module(name)
    exported = set(getattr(module, "__all__", []))
    assert exported, f"{name} has no __all__"
    assert all(hasattr(module, item) for item in exported)
    tree = ast.parse(Path(module.__file__ or "").read_text())
    defined = {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
    }
    assert defined <= exported, f"{name} does not export {sorted(defined - exported)}"


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples_run(name: str) -> None:
    """The examples in the modules' docstrings are true."""
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_the_table_imports_no_web_or_database_library() -> None:
    """table/ imports no web or database library (FastAPI, Starlette, SQLAlchemy, Alembic, psycopg)."""
    banned = ("fastapi", "starlette", "sqlalchemy", "alembic", "psycopg", "uvicorn")
    for path in (SRC / "table").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] in banned for n in names), f"{path.name} imports {names}"
    port = (SRC / "store" / "port.py").read_text()
    assert "sqlalchemy" not in port and "alembic" not in port
