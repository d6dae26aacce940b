"""The one reader of YAML and JSON documents (sheets, scripts, variants), with one set of limits.

Everything a person hands the program as a document goes through here: the CLI reads sheets and scripts
with :func:`read_document`, and the server checks every JSON body and WebSocket message with
:func:`parse_document` and :func:`check_value`. The limits hold for both, so a file refused by ``talespin
ii play`` is refused over HTTP too, and every refusal costs bounded work (no input makes the reader run
for more than a moment or hold more than a few megabytes):

* a file holds at most :data:`MAX_BYTES` bytes (reading stops there: ``/dev/zero`` is refused at once);
* mappings and lists nest at most :data:`MAX_DEPTH` deep;
* a YAML file uses at most :data:`MAX_ALIASES` aliases (``*name``) and expands to at most
  :data:`MAX_NODES` values, counted while it is composed (a "billion laughs" file is refused, not built);
* every text is valid Unicode (no lone surrogates) without control characters other than newline and tab,
  at most :data:`MAX_TEXT` characters long;
* every whole number lies within ±:data:`MAX_WHOLE_NUMBER`, and no number is infinite or NaN.

A refusal is a :class:`DocumentError` naming the path of the offending value (``sheet.talents[0].name``);
its message quotes at most :data:`EXCERPT` characters of the input, escaped.

>>> parse_document('{"name": "Ada", "abilities": {"fortitude": 3}}', "json")
{'name': 'Ada', 'abilities': {'fortitude': 3}}
>>> check_value({"text": "a\\x00b"})
Traceback (most recent call last):
...
talespin.documents.DocumentError: text: 'a\\x00b' holds U+0000, a control character: texts may hold \
newlines and tabs but no other control characters
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final, Literal

import yaml

from .systems.bounds import MAX_WHOLE_NUMBER
from .text import EXCERPT, UNSAFE_CHARACTERS, excerpt

__all__ = [
    "EXCERPT",
    "MAX_ALIASES",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "MAX_TEXT",
    "MAX_WHOLE_NUMBER",
    "Document",
    "DocumentError",
    "Kind",
    "check_nesting",
    "check_value",
    "child_path",
    "decode_text",
    "excerpt",
    "load_yaml",
    "nested_values",
    "parse_document",
    "parse_text",
    "parse_with_node",
    "read_document",
    "read_source",
    "read_text",
    "repeated_keys",
]

MAX_BYTES: Final = 64 * 1024
"""The largest sheet, script or variant file, in bytes: the HTTP body limit too (real ones: a few KiB)."""
MAX_DEPTH: Final = 16
"""The deepest nesting of mappings and lists in a document, command, odds query or sheet (real ones: 6)."""
MAX_ALIASES: Final = 64
"""The most aliases (``*name``) one YAML file may use."""
MAX_NODES: Final = 20_000
"""The most values (texts, numbers, mappings, lists) a YAML file may expand to, aliases included."""
MAX_TEXT: Final = 4000
"""The longest text in a document, in characters (a note's limit too)."""
Kind = Literal["yaml", "json"]


class DocumentError(ValueError):
    """A document, or a value in one, refused: a stable ``code``, the ``path`` of the value, a message."""

    def __init__(self, message: str, *, code: str = "bad_document", path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = path


def child_path(path: str, key: object) -> str:
    """The path of ``key`` inside the mapping at ``path``: ``sheet.name``, or ``name`` at the top.

    A key that is long or holds unusual characters is shown escaped and cut short, so a path can always
    be printed and sent back:

    >>> child_path("sheet", "A\\x00"), child_path("", "k" * 50)[-3:]
    ('sheet.A\\\\x00', 'kk…')
    """
    text = str(key)
    if len(text) > EXCERPT or UNSAFE_CHARACTERS.search(text):
        text = ascii(text[:EXCERPT])[1:-1] + ("…" if len(text) > EXCERPT else "")
    return f"{path}.{text}" if path else text


def _text_problem(text: str) -> str | None:
    if len(text) > MAX_TEXT:
        return f"is {len(text)} characters long; a text may be at most {MAX_TEXT}"
    bad = UNSAFE_CHARACTERS.search(text)
    if bad is None:
        return None
    code = f"U+{ord(bad.group()):04X}"
    if "\ud800" <= bad.group() <= "\udfff":
        return f"holds {code}, a lone surrogate: texts must be valid Unicode"
    return (
        f"holds {code}, a control character: texts may hold newlines and tabs but no other control characters"
    )


def _number_problem(value: int | float) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else "is not a finite number"
    if abs(value) > MAX_WHOLE_NUMBER:
        return f"must be a whole number between -{MAX_WHOLE_NUMBER} and {MAX_WHOLE_NUMBER}"
    return None


def nested_values(value: Any, path: str = "", *, limit: int = MAX_DEPTH) -> Iterator[tuple[Any, str]]:
    """Every value inside ``value`` that is neither a mapping nor a list, with its path; keys included.

    The one walk over a document's nesting: it keeps its own stack (no recursion), and raises a
    :class:`DocumentError` (``too_deep``) for a mapping or list ``limit`` levels down before looking
    any deeper. A mapping's text keys come out as values of their own, at the path of their value:

    >>> list(nested_values({"a": [1, "b"]}))
    [('a', 'a'), ('b', 'a[1]'), (1, 'a[0]')]
    >>> list(nested_values([[[]]], limit=2))
    Traceback (most recent call last):
    ...
    talespin.documents.DocumentError: [0][0] nests more than 2 levels deep
    """
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        item, here, depth = stack.pop()
        if not isinstance(item, Mapping | list | tuple):
            yield item, here
        elif depth >= limit:
            shown = here or "the document"
            raise DocumentError(
                f"{shown} nests more than {limit} levels deep", code="too_deep", path=here or None
            )
        elif isinstance(item, Mapping):
            for key, child in item.items():
                key_path = child_path(here, key)
                stack.append((child, key_path, depth + 1))
                if isinstance(key, str):
                    stack.append((key, key_path, depth + 1))
        else:
            stack.extend((child, f"{here}[{index}]", depth + 1) for index, child in enumerate(item))


def check_nesting(value: Any, path: str = "", *, limit: int = MAX_DEPTH) -> None:
    """Refuse ``value`` with :class:`DocumentError` (``too_deep``) when it nests deeper than ``limit``."""
    for _ in nested_values(value, path, limit=limit):
        pass


def _within_limits(value: Any, limit: int) -> bool:
    """Whether every text, number and nesting inside ``value`` is within limits: :func:`check_value`'s
    question without the paths, which only a refusal needs (every command asks it; almost none fail)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_TEXT or UNSAFE_CHARACTERS.search(item):
                return False
        elif isinstance(item, Mapping):
            if depth >= limit:
                return False
            for key, child in item.items():
                if isinstance(key, str) and (len(key) > MAX_TEXT or UNSAFE_CHARACTERS.search(key)):
                    return False
                stack.append((child, depth + 1))
        elif isinstance(item, list | tuple):
            if depth >= limit:
                return False
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, int | float) and _number_problem(item) is not None:
            return False
    return True


def check_value(value: Any, path: str = "", *, limit: int = MAX_DEPTH) -> None:
    """Refuse ``value`` with :class:`DocumentError` unless every text, number and nesting is within limits.

    Mapping keys are texts like any other. The walk is :func:`nested_values`, so a document past the
    nesting limit is refused before its deeper levels are looked at. A document within every limit is
    passed by a quicker walk that makes no paths; one that is not is walked again, with paths, to say
    where its first problem is.
    """
    if not _within_limits(value, limit):
        _refuse_first_problem(value, path, limit)


def _refuse_first_problem(value: Any, path: str, limit: int) -> None:
    """Raise :class:`DocumentError` for the first problem met walking ``value`` with paths (if any)."""
    for item, here in nested_values(value, path, limit=limit):
        problem: str | None = None
        code = ""
        if isinstance(item, str):
            problem, code = _text_problem(item), "bad_text"
        elif isinstance(item, int | float):
            problem, code = _number_problem(item), "out_of_range"
        if problem is not None:
            shown = f"{here or 'the document'}: {excerpt(item)}"
            raise DocumentError(f"{shown} {problem}", code=code, path=here or None)


class _Loader(yaml.SafeLoader):
    """Safe YAML with YAML 1.2 booleans, composed within the alias, expansion and nesting budgets.

    PyYAML follows YAML 1.1, where ``on``, ``off``, ``yes`` and ``no`` are booleans: the script command
    ``{do: spend_tension, on: trigger}`` would arrive with the key ``True``. Here they stay text.

    While composing, each node's expanded size (itself and everything under it, an alias counting as
    the whole of its anchor) is kept, so a file whose aliases would expand past :data:`MAX_NODES` is
    refused before anything is constructed from it.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0
        self._sizes: dict[int, int] = {}

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise DocumentError(f"uses more than {MAX_ALIASES} aliases (*name)", code="too_many_aliases")
        elif self._depth >= MAX_DEPTH and self.check_event(yaml.SequenceStartEvent, yaml.MappingStartEvent):
            raise DocumentError(f"nests more than {MAX_DEPTH} levels deep", code="too_deep")
        self._depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if node is not None and id(node) not in self._sizes:
            self._sizes[id(node)] = self._size(node)
        return node

    def _size(self, node: yaml.Node) -> int:
        if isinstance(node, yaml.MappingNode):
            parts = [part for pair in node.value for part in pair]
        elif isinstance(node, yaml.SequenceNode):
            parts = list(node.value)
        else:
            return 1
        size = 1 + sum(self._sizes.get(id(part), 1) for part in parts)
        if size > MAX_NODES:
            raise DocumentError(
                f"expands to more than {MAX_NODES} values (aliases count in full)", code="too_large"
            )
        return size


_Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load_yaml(text: str) -> tuple[yaml.Node | None, Any]:
    """The node tree and the data of a YAML text, composed once within the budgets (unchecked values).

    The node tree keeps what the data loses (key order, repeated keys) for readers that report them.
    """
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        return node, (None if node is None else loader.construct_document(node))
    finally:
        loader.dispose()


def _refuse_constant(name: str) -> float:
    raise DocumentError(f"{name} is not a number a document may hold", code="out_of_range")


def parse_document(text: str, kind: Kind, **json_options: Any) -> Any:
    """The data of a YAML or JSON text, checked by :func:`check_value`; :class:`DocumentError` otherwise.

    ``json_options`` go to :func:`json.loads` (an ``object_pairs_hook``, to see repeated keys).
    """
    return parse_with_node(text, kind, **json_options)[1]


def parse_with_node(text: str, kind: Kind, **json_options: Any) -> tuple[yaml.Node | None, Any]:
    """:func:`parse_document`, with the YAML node tree (``None`` for JSON) for readers of key order."""
    node: yaml.Node | None = None
    try:
        if kind == "json":
            data = json.loads(text, parse_constant=_refuse_constant, **json_options)
        else:
            node, data = load_yaml(text)
    except DocumentError:
        raise
    except yaml.YAMLError as error:
        raise DocumentError(f"is not valid YAML: {_short(error)}", code="unparsable_file") from None
    except RecursionError:
        raise DocumentError(f"nests more than {MAX_DEPTH} levels deep", code="too_deep") from None
    except ValueError as error:  # bad JSON, or a number with more digits than Python will read
        if "integer string conversion" in str(error):
            message = (
                f"holds a number thousands of digits long; whole numbers lie between -{MAX_WHOLE_NUMBER} "
                f"and {MAX_WHOLE_NUMBER}"
            )
            raise DocumentError(message, code="out_of_range") from None
        raise DocumentError(f"is not valid {kind.upper()}: {_short(error)}", code="unparsable_file") from None
    check_value(data)
    return node, data


def _short(error: Exception) -> str:
    text = str(error)
    return text if len(text) <= 300 else f"{text[:300]}…"


def read_text(path: Path) -> str:
    """The text of a file of at most :data:`MAX_BYTES` bytes of UTF-8 (reading stops past the limit)."""
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_BYTES + 1)
    except OSError as error:
        reason = error.strerror or error
        raise DocumentError(f"cannot read {path}: {reason}", code="unreadable_file") from None
    return decode_text(raw, path)


def decode_text(raw: bytes, source: Path | str) -> str:
    """Bytes read from ``source`` (a file, or "standard input") as UTF-8 text within :data:`MAX_BYTES`.

    A reader stops after ``MAX_BYTES + 1`` bytes and hands them here, so a source past the limit is
    refused without being read whole.
    """
    if len(raw) > MAX_BYTES:
        raise DocumentError(
            f"cannot read {source}: it is larger than {MAX_BYTES // 1024} KiB, the limit for a document",
            code="unreadable_file",
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DocumentError(f"cannot read {source}: it is not UTF-8 text", code="unreadable_file") from None
    return text


def read_document(path: Path, kind: Kind | None = None) -> Any:
    """The data of a YAML or JSON file (JSON when it ends in ``.json``), within every limit.

    Reading stops after :data:`MAX_BYTES` bytes; a file that is larger, is not UTF-8 text, or breaks a
    limit is refused with :class:`DocumentError` whose message begins with the file's name.
    """
    text = read_text(path)
    kind = kind or ("json" if path.suffix.lower() == ".json" else "yaml")
    return parse_text(path, text, kind)[1]


def parse_text(path: Path | str, text: str, kind: Kind) -> tuple[yaml.Node | None, Any]:
    """:func:`parse_with_node` for the text of ``path``: a refusal's message begins with the file's name."""
    try:
        return parse_with_node(text, kind)
    except DocumentError as error:
        code = error.code if error.code in {"bad_text", "out_of_range"} else "unparsable_file"
        raise DocumentError(f"cannot parse {path}: {error.message}", code=code, path=error.path) from None


class Document:
    """A parsed document: its data, and the paths of the keys its mappings repeat (``traits.Agility``).

    A mapping that repeats a key keeps only the last value in the data, so a reader that must not lose
    one (a script, a hero sheet whose names are unique within their kind) refuses or reports them.
    """

    def __init__(self, data: Any, repeated: list[str]) -> None:
        self.data = data
        self.repeated = repeated


def read_source(name: Path | str, text: str, kind: Kind) -> Document:
    """The :class:`Document` of the ``text`` of ``name`` (a file, "standard input", "the sheet").

    The one way a sheet, script or variant is read, by the CLI from a file and by the server from the text a
    page sends, so both read ``yes``, ``010`` and a repeated key alike; a refusal is a
    :class:`DocumentError` whose message begins with ``name``.

    >>> read_source("the sheet", "name: yes\\nlevel: 010\\nname: Ada", "yaml").repeated
    ['name']
    """
    node, data = parse_text(name, text, kind)
    return Document(data, repeated_keys(text, kind, node))


def repeated_keys(text: str, kind: Kind, node: yaml.Node | None = None) -> list[str]:
    """The paths of every key a mapping of the document repeats, in document order.

    ``node`` is the YAML node tree when it is at hand (from :func:`parse_with_node`); JSON is read again
    with a hook that sees each mapping's pairs before they become a dict.
    """
    if kind == "json":
        return _json_repeats(text)
    if node is None:
        node = load_yaml(text)[0]
    return _yaml_repeats(node)


def _yaml_repeats(node: yaml.Node | None, path: str = "") -> list[str]:
    found: list[str] = []
    if isinstance(node, yaml.MappingNode):
        seen: set[object] = set()
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else repr(key_node)
            here = child_path(path, key)
            if key in seen:
                found.append(here)
            seen.add(key)
            found.extend(_yaml_repeats(value_node, here))
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            found.extend(_yaml_repeats(item, f"{path}[{index}]"))
    return found


def _json_repeats(text: str) -> list[str]:
    """The full paths of repeated keys of a JSON text (found by the identity of each mapping)."""
    repeats: list[tuple[int, str]] = []

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        made = dict(pairs)
        keys = [key for key, _ in pairs]
        repeats.extend((id(made), key) for i, key in enumerate(keys) if key in keys[:i])
        return made

    data = json.loads(text, object_pairs_hook=hook)
    paths: dict[int, str] = {}

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            paths[id(node)] = path
            for key, value in node.items():
                walk(value, child_path(path, key))
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, f"{path}[{index}]")

    walk(data, "")
    return [child_path(paths.get(owner, ""), key) for owner, key in repeats]
