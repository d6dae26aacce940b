"""The rules-data values of both games, each with the rules that name it and a small change to it (a mutant).

Every number and decision of a game lives in its ``rules.yaml``, and each key carries a comment naming the
rules it encodes (``# II-CRISIS-1``, ``# II-COMPLEX-2..7``, ``# II-SIMPLE-2/3``). A mutant changes one value
(an integer by one, a flag flipped, a choice swapped, a list shortened) in a way the rules model still
accepts; the tests that name those rules must then fail. A mutant nothing catches is a rule that no test
really checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module, resources
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

SYSTEMS = {
    "inciting_incident": "talespin.systems.inciting_incident",
    "ascend": "talespin.systems.ascend",
}
"""Each game's package, which ships ``rules.yaml`` and its model ``rules.Rules``."""

_RULE_REF = re.compile(r"\b(II|AS)-([A-Z]+)-(\d+)((?:/\d+)*)(?:\.\.(\d+))?")

# Strings that are one of a known set: a mutant swaps one for another of its set.
_CHOICES = [
    ("defender", "reroll"),
    ("storyteller", "player"),
    ("fortitude", "perseverance", "nimbleness"),
]


@dataclass(frozen=True)
class Mutant:
    """One rules-data value of one game changed: ``path`` in ``system``'s rules file now holds ``value``."""

    system: str
    path: tuple[str | int, ...]
    original: Any
    value: Any
    rules: tuple[str, ...]

    @property
    def key(self) -> str:
        """The value's dotted key, as a campaign variant would write it."""
        return ".".join(str(part) for part in self.path)

    def describe(self) -> str:
        """A line for a report: where, from what, to what."""
        return f"{self.system}: {self.key} {self.original!r} -> {self.value!r}"


def rule_ids(comment: str) -> list[str]:
    """The rule IDs a rules-file comment names, ranges and slashes spelled out.

    >>> rule_ids("# II-COMPLEX-2..4, II-SIMPLE-2/3 (D)")
    ['II-COMPLEX-2', 'II-COMPLEX-3', 'II-COMPLEX-4', 'II-SIMPLE-2', 'II-SIMPLE-3']
    """
    ids: list[str] = []
    for game, section, first, slashes, last in _RULE_REF.findall(comment):
        numbers = [int(first)]
        numbers += [int(n) for n in slashes.split("/") if n]
        if last:
            numbers += list(range(int(first) + 1, int(last) + 1))
        ids += [f"{game}-{section}-{n}" for n in numbers]
    return ids


def _comment(lines: list[str], line: int) -> str:
    text = lines[line]
    return text.split("#", 1)[1] if "#" in text else ""


def _leaves(
    node: yaml.Node, lines: list[str], path: tuple[str | int, ...], inherited: list[str]
) -> Iterator[tuple[tuple[str | int, ...], list[str]]]:
    """Every value under ``node`` that is not a mapping, with the rules its own or nearest comment names."""
    own = rule_ids(_comment(lines, node.start_mark.line))
    here = own or inherited
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key_rules = rule_ids(_comment(lines, key_node.start_mark.line)) or here
            yield from _leaves(value_node, lines, (*path, key_node.value), key_rules)
    else:
        yield path, here


def _lookup(data: Any, path: tuple[str | int, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def replaced(data: Any, path: tuple[str | int, ...], value: Any) -> Any:
    """A copy of ``data`` with the value at ``path`` replaced (the rest shared, nothing mutated)."""
    if not path:
        return value
    head, *rest = path
    if isinstance(data, list):
        copy_list = list(data)
        copy_list[int(head)] = replaced(data[int(head)], tuple(rest), value)
        return copy_list
    copy = dict(data)
    copy[head] = replaced(data[head], tuple(rest), value)
    return copy


def _candidates(value: Any) -> Iterator[Any]:
    """Changes to try for one value, the most telling first."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield value + 1
        yield value - 1
    elif value is None:
        yield from (1, 3, 0)
    elif isinstance(value, str):
        for choice in _CHOICES:
            if value in choice:
                yield from (other for other in choice if other != value)
    elif isinstance(value, list):
        yield from _list_candidates(value)
    elif isinstance(value, dict):
        for key, inner in value.items():
            for changed in _candidates(inner):
                yield {**value, key: changed}
                break


def _list_candidates(value: list[Any]) -> Iterator[list[Any]]:
    """Changes to a list: its last number raised, its last item dropped, its last inner list lengthened."""
    if value and all(isinstance(item, int) for item in value):
        yield [*value[:-1], value[-1] + 1]
    if len(value) > 1:
        yield value[:-1]
    if value and isinstance(value[-1], list):
        yield [*value[:-1], [*value[-1], 6]]


def _model(system: str) -> type[BaseModel]:
    model: type[BaseModel] = import_module(f"{SYSTEMS[system]}.rules").Rules
    return model


def mutants() -> list[Mutant]:
    """One accepted mutant per rules-data value of both games (see :func:`unmutated` for the rest)."""
    return [m for m in _every_value() if isinstance(m, Mutant)]


def unmutated() -> list[tuple[str, tuple[str | int, ...]]]:
    """The values for which no small change passes the rules model (it ties them to other values)."""
    return [m for m in _every_value() if not isinstance(m, Mutant)]


def _every_value() -> Iterator[Mutant | tuple[str, tuple[str | int, ...]]]:
    for system, package in SYSTEMS.items():
        text = resources.files(package).joinpath("rules.yaml").read_text(encoding="utf-8")
        lines = text.splitlines()
        data = yaml.safe_load(text)
        model = _model(system)
        for path, rules in _leaves(yaml.compose(text), lines, (), []):
            if path == ("version",):
                continue
            original = _lookup(data, path)
            for value in _candidates(original):
                try:
                    model.model_validate(replaced(data, path, value))
                except ValidationError:
                    continue
                yield Mutant(system, path, original, value, tuple(rules))
                break
            else:
                yield system, path
