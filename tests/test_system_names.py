"""The registry is the one owner of system names: no other module of the table, CLI, web, lab, a system's
protocol object or its scene-script model spells a name, alias or label of a system in its code (docstrings
may, to teach), and the page's client (``api.js``) takes them from ``/api/systems``.

The root's ``--help`` (``cli/root_help.py``) is the one exception, on purpose: it imports nothing of talespin,
so it spells its words itself, and a test holds them equal to the registry's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from talespin.cli import root_help
from talespin.systems import entries

SRC = Path(__file__).resolve().parent.parent / "src" / "talespin"
SCANNED = [
    *sorted((SRC / "table").rglob("*.py")),
    # root_help.py is left out: the root's --help imports nothing of talespin, so it spells its words
    *sorted(p for p in (SRC / "cli").rglob("*.py") if p.name != "root_help.py"),
    *sorted((SRC / "web").rglob("*.py")),
    *sorted(SRC.glob("systems/*/system.py")),
    *sorted(SRC.glob("systems/*/view.py")),
    *sorted((SRC / "lab").rglob("*.py")),
    SRC / "systems" / "ascend" / "commands.py",  # the scene-script model (SceneScript.system)
]
SCANNED_JS = [SRC / "web" / "static" / "js" / "api.js"]
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
    """Each system name, alias and label in table/, cli/, web/, lab/ and systems' code is the registry's."""
    assert len(SCANNED) > 50
    found = [hit for path in SCANNED for hit in _spelled(path)]
    assert found == []


_JS_TOKEN = re.compile(
    r"//[^\n]*|/\*.*?\*/"  # comments: skipped
    r"|\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$]|\\.|\$(?!\{))*)`",
    re.DOTALL,
)
"""A JavaScript comment, or a string literal (double, single or back quotes without ``${}``): its text."""


def _spelled_in_js(path: Path) -> list[str]:
    """The string literals of a JavaScript file equal (any case) to a system's name, alias or label."""
    source = path.read_text(encoding="utf-8")
    names = {name.lower() for name in NAMES}
    hits = []
    for match in _JS_TOKEN.finditer(source):
        literal = next((group for group in match.groups() if group is not None), None)
        if literal is not None and literal.strip().lower() in names:
            line = source.count("\n", 0, match.start()) + 1
            hits.append(f"{path.name}:{line}: {literal!r}")
    return hits


def test_the_page_client_takes_system_names_from_the_server() -> None:
    """api.js spells no system name, alias or label: it reads them from ``/api/systems``."""
    for path in SCANNED_JS:
        assert "/api/systems" in path.read_text(encoding="utf-8")
        assert _spelled_in_js(path) == []


def test_the_js_scan_finds_a_name_written_as_a_literal(tmp_path: Path) -> None:
    """The JavaScript scan is not blind: literals in any quotes are caught, comments are not."""
    module = tmp_path / "probe.js"
    module.write_text(
        "// ascend in a comment\nconst a = \"ii\";\nconst b = { x: 'Inciting Incident' };\n"
        '/* cn-ascend\n */ const c = `ascend`, d = `${a}ascend`, e = "ascending";\n',
        encoding="utf-8",
    )
    assert _spelled_in_js(module) == [
        "probe.js:2: 'ii'",
        "probe.js:3: 'Inciting Incident'",
        "probe.js:5: 'ascend'",
    ]


def test_the_root_help_says_what_the_registry_says() -> None:
    """root_help.py spells the systems' words itself (it imports nothing): they equal the registry's."""
    systems = {entry.short: entry for entry in entries()}
    spelled = {word for word in root_help.COMMANDS if word.lower() in {name.lower() for name in NAMES}}
    assert spelled == set(systems)
    for short, entry in systems.items():
        module, first_paragraph = root_help.COMMANDS[short]
        assert first_paragraph == f"{entry.label}: {entry.summary}"
        assert module == f"{short}_commands"


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
