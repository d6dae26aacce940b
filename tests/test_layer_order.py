"""Imports run one way between layers: ``dice`` → ``systems`` → ``table`` → adapters, never back."""

from __future__ import annotations

import ast
from pathlib import Path

import talespin

SRC = Path(talespin.__file__).resolve().parent

LAYER = {
    "dice": 0,
    "text": 0,
    "extras": 0,
    "systems": 1,
    "documents": 1,
    "table": 2,
    "cli": 3,
    "web": 3,
    "store": 3,
    "lab": 3,
    "__main__": 3,
}
"""How deep each top-level package sits; a module may import only from its own depth or shallower ones."""

PORTS = {"store.port"}
"""The table's own port: plain dataclasses and a Protocol the stores implement, no database library."""


def _package_of(path: Path, root: Path) -> list[str]:
    """The dotted package parts a module's relative imports start from."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return parts[:-1]


def imported_modules(path: Path, root: Path = SRC) -> set[str]:
    """The ``talespin`` modules one source file imports (``table.errors``), relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name.split(".") for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _package_of(path, root)
            if node.level:
                base = base[: len(base) - (node.level - 1)]
                head = base + (node.module.split(".") if node.module else [])
            else:
                head = node.module.split(".") if node.module else []
            targets = [[*head, alias.name] for alias in node.names]
        else:
            continue
        for target in targets:
            if len(target) > 1 and target[0] == "talespin":
                found.add(".".join(target[1:]))
    return found


def layer_breaches(root: Path = SRC) -> list[str]:
    """Every import that points from a shallower layer into a deeper one, as ``file -> module``."""
    breaches: list[str] = []
    for path in sorted(root.rglob("*.py")):
        own = path.relative_to(root).parts[0].removesuffix(".py")
        if own not in LAYER:
            continue
        for target in sorted(imported_modules(path, root)):
            top = target.split(".")[0]
            if top in LAYER and LAYER[top] > LAYER[own] and not _is_port(target):
                breaches.append(f"{path.relative_to(root)} -> {target}")
    return breaches


def _is_port(target: str) -> bool:
    return any(target == port or target.startswith(port + ".") for port in PORTS)


def test_no_layer_imports_a_deeper_one() -> None:
    """No module in dice, systems or table imports from a layer that sits above it."""
    assert layer_breaches() == []


def test_every_top_level_package_has_a_layer() -> None:
    """A new top-level package must be placed in the layer order before it can land."""
    names = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    names |= {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert names <= set(LAYER), sorted(names - set(LAYER))


def test_the_order_check_sees_a_backward_import(tmp_path: Path) -> None:
    """A systems module importing the table or the web is reported, so the check above can fail."""
    root = tmp_path / "talespin"
    (root / "systems").mkdir(parents=True)
    (root / "table").mkdir()
    (root / "systems" / "probe.py").write_text(
        "from ..table import errors\nfrom talespin.web import app\nfrom ..dice import roll\n",
        encoding="utf-8",
    )
    (root / "table" / "probe.py").write_text("from ..store.port import NewEvent\n", encoding="utf-8")
    assert layer_breaches(root) == ["systems/probe.py -> table.errors", "systems/probe.py -> web.app"]
