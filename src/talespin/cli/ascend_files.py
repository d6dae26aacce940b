"""Reading the files of ``talespin ascend``: sheets and scripts in YAML or JSON, and ``--faces`` text.

Reading stays in the CLI (the rules engine does no I/O). A YAML or JSON mapping that repeats a key would
silently keep only the last value, so the reader reports every repeated key with its path
(``traits.Agility``): for a hero sheet that breaks AS-HERO-2 (names are unique within their kind).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from .output import BadInput

__all__ = ["MAX_DEPTH", "Document", "parse_faces", "read_document"]


class _Loader(yaml.SafeLoader):
    """Safe YAML whose booleans are only ``true``/``false`` (YAML 1.2).

    PyYAML follows YAML 1.1, where ``on``, ``off``, ``yes`` and ``no`` are booleans: the script command
    ``{do: spend_tension, on: trigger}`` would arrive with the key ``True``. Here they stay text.
    """


_Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


class Document:
    """A parsed file: its data, and the paths of keys its mappings repeat."""

    def __init__(self, data: Any, repeated: list[str]) -> None:
        self.data = data
        self.repeated = repeated

    def strict(self, what: str) -> Any:
        """The data, or BadInput when a key is repeated (a script, or a sheet that is not being validated)."""
        if self.repeated:
            raise BadInput(
                f"{what} repeats the key {self.repeated[0]!r}: each key may appear once in a mapping",
                code="duplicate_key",
                path=self.repeated[0],
            )
        return self.data


def _child(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def _yaml_repeats(node: yaml.Node | None, path: str = "") -> list[str]:
    found: list[str] = []
    if isinstance(node, yaml.MappingNode):
        seen: set[object] = set()
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else repr(key_node)
            here = _child(path, key)
            if key in seen:
                found.append(here)
            seen.add(key)
            found.extend(_yaml_repeats(value_node, here))
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            found.extend(_yaml_repeats(item, f"{path}[{index}]"))
    return found


def _json_repeats(text: str) -> tuple[Any, list[str]]:
    """The parsed JSON and the full paths of repeated keys (found by the identity of each mapping)."""
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
                walk(value, _child(path, key))
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, f"{path}[{index}]")

    walk(data, "")
    return data, [_child(paths.get(owner, ""), key) for owner, key in repeats]


MAX_DEPTH = 64
"""Mappings and lists may nest at most this deep in a sheet or script (real ones nest about 5 deep)."""


def _too_deep(data: Any) -> bool:
    """Whether ``data`` nests mappings and lists deeper than :data:`MAX_DEPTH` (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(node, dict):
            stack.extend((value, depth + 1) for value in node.values())
        elif isinstance(node, list):
            stack.extend((item, depth + 1) for item in node)
    return False


def read_document(path: Path) -> Document:
    """A YAML or JSON file with its repeated keys, or BadInput (exit 2) when it cannot be read or parsed.

    A file that is not UTF-8 text, or whose mappings and lists nest deeper than :data:`MAX_DEPTH`, is
    refused the same way (never a traceback).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise BadInput(f"cannot read {path}: {error.strerror or error}", code="unreadable_file") from None
    except UnicodeDecodeError:
        raise BadInput(f"cannot read {path}: it is not UTF-8 text", code="unreadable_file") from None
    too_deep = BadInput(
        f"cannot parse {path}: mappings and lists may nest at most {MAX_DEPTH} deep", code="unparsable_file"
    )
    try:
        if path.suffix.lower() == ".json":
            document = Document(*_json_repeats(text))
        else:
            data = yaml.load(text, Loader=_Loader)  # a SafeLoader, with YAML 1.2 booleans
            if _too_deep(data):
                raise too_deep
            document = Document(data, _yaml_repeats(yaml.compose(text, Loader=_Loader)))
    except (yaml.YAMLError, json.JSONDecodeError) as error:
        raise BadInput(f"cannot parse {path}: {error}", code="unparsable_file") from None
    except RecursionError:
        raise too_deep from None
    if _too_deep(document.data):
        raise too_deep
    return document


def parse_faces(text: str) -> list[int]:
    """``"0,3,9"`` → ``[0, 3, 9]``; an empty text is no dice (a pool of 0)."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    try:
        return [int(part) for part in parts]
    except ValueError:
        raise BadInput(
            f"faces are whole numbers separated by ',' (one per die, e.g. \"0,3,9\"), got {text!r}",
            code="bad_faces",
        ) from None
