"""The registry is the one owner of system names: no other module of the table, CLI, web, lab, a system's
protocol object or its scene-script model spells a name, alias or label of a system in its code (docstrings
may, to teach), and no page script does: ``api.js`` takes them from ``/api/systems``.

The root's ``--help`` (``cli/root_help.py``) is the one exception, on purpose: it imports nothing of talespin,
so it spells its words itself, and a test holds them equal to the registry's."""

from __future__ import annotations

import ast
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
SCANNED_JS = sorted((SRC / "web" / "static" / "js").glob("*.js"))
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


_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}
"""The characters after which a ``/`` starts a regular expression, not a division."""
_REGEX_AFTER_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "yield"}


class _JsLiterals:
    """The string literals of a JavaScript source, each with its line: quotes of every kind, a template
    literal without ``${}`` whole, and the strings inside a template's ``${…}``; comments and regular
    expressions are skipped (so a quote in them starts nothing)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.found: list[tuple[int, str]] = []
        self.at = 0
        self._code(closing=None)

    def _line(self, at: int) -> int:
        return self.source.count("\n", 0, at) + 1

    def _quoted(self, quote: str) -> str:
        """The text of a '…' or "…" literal starting at ``self.at`` (past it afterwards)."""
        start = self.at
        self.at += 1
        while self.at < len(self.source) and self.source[self.at] != quote:
            self.at += 2 if self.source[self.at] == "\\" else 1
        self.at += 1
        return self.source[start + 1 : self.at - 1]

    def _template(self) -> None:
        start, chunks, plain = self.at, [], True
        self.at += 1
        piece = self.at
        while self.at < len(self.source) and self.source[self.at] != "`":
            if self.source[self.at] == "\\":
                self.at += 2
            elif self.source.startswith("${", self.at):
                chunks.append(self.source[piece : self.at])
                plain = False
                self.at += 2
                self._code(closing="}")
                piece = self.at
            else:
                self.at += 1
        chunks.append(self.source[piece : self.at])
        self.at += 1
        if plain:
            self.found.append((self._line(start), "".join(chunks)))

    def _regex(self) -> None:
        self.at += 1
        in_class = False
        while self.at < len(self.source) and (in_class or self.source[self.at] != "/"):
            char = self.source[self.at]
            if char == "\\":
                self.at += 1
            elif char == "[":
                in_class = True
            elif char == "]":
                in_class = False
            self.at += 1
        self.at += 1

    def _code(self, closing: str | None) -> None:
        """Code up to the ``closing`` brace of a ``${…}`` (or the end), tracking braces and the last token."""
        depth, last, source = 0, "", self.source
        while self.at < len(source):
            char = source[self.at]
            if source.startswith("//", self.at):
                end = source.find("\n", self.at)
                self.at = len(source) if end < 0 else end
            elif source.startswith("/*", self.at):
                end = source.find("*/", self.at + 2)
                self.at = len(source) if end < 0 else end + 2
            elif char in "'\"":
                line = self._line(self.at)
                self.found.append((line, self._quoted(char)))
                last = "x"
            elif char == "`":
                self._template()
                last = "x"
            elif char == "/" and (last in _REGEX_AFTER or last in _REGEX_AFTER_WORDS):
                self._regex()
                last = "x"
            elif char.isalnum() or char in "_$":
                start = self.at
                while self.at < len(source) and (source[self.at].isalnum() or source[self.at] in "_$"):
                    self.at += 1
                last = source[start : self.at]
            elif char == "}" and depth == 0 and closing == "}":
                self.at += 1
                return
            else:
                depth += {"{": 1, "}": -1}.get(char, 0)
                if not char.isspace():
                    last = char if char in _REGEX_AFTER else "x"
                self.at += 1


def _spelled_in_js(path: Path) -> list[str]:
    """The string literals of a JavaScript file equal (any case) to a system's name, alias or label."""
    names = {name.lower() for name in NAMES}
    literals = _JsLiterals(path.read_text(encoding="utf-8")).found
    return [f"{path.name}:{line}: {text!r}" for line, text in literals if text.strip().lower() in names]


def test_the_pages_take_system_names_from_the_server() -> None:
    """No page script spells a system name, alias or label: api.js reads them from ``/api/systems``."""
    assert len(SCANNED_JS) > 20
    assert "/api/systems" in (SRC / "web" / "static" / "js" / "api.js").read_text(encoding="utf-8")
    found = [hit for path in SCANNED_JS for hit in _spelled_in_js(path)]
    assert found == []


def test_the_js_scan_finds_a_name_written_as_a_literal(tmp_path: Path) -> None:
    """The JavaScript scan is not blind: literals in any quotes are caught, comments are not."""
    module = tmp_path / "probe.js"
    module.write_text(
        "// ascend in a comment\nconst a = \"ii\";\nconst b = { x: 'Inciting Incident' };\n"
        '/* cn-ascend\n */ const c = `ascend`, d = `${a}ascend`, e = "ascending";\n'
        'const f = `${a === "ascend" ? `x${b}` : "y"} ${"Ascend"}`, g = /["`]/g, k = 1 / 2 / "ii".length;\n',
        encoding="utf-8",
    )
    assert _spelled_in_js(module) == [
        "probe.js:2: 'ii'",
        "probe.js:3: 'Inciting Incident'",
        "probe.js:5: 'ascend'",
        "probe.js:6: 'ascend'",
        "probe.js:6: 'Ascend'",
        "probe.js:6: 'ii'",
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
