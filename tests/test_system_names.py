"""The registry is the one owner of system names: no other module of the table, CLI, web or a system's
protocol object spells a name, alias or label of a system in its code (docstrings may, to teach)."""

from __future__ import annotations

import ast
from pathlib import Path

from talespin.systems import entries

SRC = Path(__file__).resolve().parent.parent / "src" / "talespin"
SCANNED = [
    *sorted((SRC / "table").rglob("*.py")),
    # root_help.py is left out: the root's --help imports nothing of talespin, so it spells its words
    *sorted(p for p in (SRC / "cli").rglob("*.py") if p.name != "root_help.py"),
    *sorted((SRC / "web").rglob("*.py")),
    *sorted(SRC.glob("systems/*/system.py")),
    *sorted(SRC.glob("systems/*/view.py")),
]
NAMES = {word for entry in entries() for word in (entry.name, *entry.aliases, entry.label)}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that stand alone as statements (docstrings and their like)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def _spelled(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    return [
        f"{path.relative_to(SRC)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.strip().lower() in {name.lower() for name in NAMES}
        and id(node) not in docs
    ]


def test_no_module_outside_the_registry_spells_a_system_name() -> None:
    """Each system name, alias and label in table/, cli/, web/ and the systems' doors is the registry's."""
    assert len(SCANNED) > 50
    found = [hit for path in SCANNED for hit in _spelled(path)]
    assert found == []


def test_the_scan_finds_a_name_written_as_a_literal(tmp_path: Path) -> None:
    """The scan is not blind: a module comparing with a system's alias is caught."""
    module = tmp_path / "probe.py"
    module.write_text('"""Doc naming ascend."""\nKIND = "cn-ascend"\n', encoding="utf-8")
    assert _spelled_at(module) == ["probe.py:2: 'cn-ascend'"]


def _spelled_at(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    return [
        f"{path.name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in NAMES
        and id(node) not in docs
    ]
