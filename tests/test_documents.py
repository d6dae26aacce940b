"""The document reader: every YAML or JSON input is read within its budgets or refused, never built past."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from talespin.documents import (
    MAX_ALIASES,
    MAX_BYTES,
    MAX_DEPTH,
    MAX_NODES,
    MAX_TEXT,
    DocumentError,
    _refuse_first_problem,
    _within_limits,
    check_value,
    parse_document,
    read_document,
)


@dataclass(frozen=True)
class Definition:
    """One anchored list ``dN: &dN [[…[items]…]]``: its items are ``x`` or aliases of earlier lists."""

    nest: int
    items: tuple[int | None, ...]  # None: the scalar x; n: an alias of definition n


@st.composite
def alias_structures(draw: st.DrawFn) -> list[Definition]:
    """Up to 12 anchored lists, each up to 10 wide, some nested up to 20 deep, aliasing earlier ones."""
    count = draw(st.integers(1, 12))
    made: list[Definition] = []
    for index in range(count):
        item = st.none() | st.just(index - 1) | st.integers(0, index - 1) if index else st.none()
        width = draw(st.integers(1, 10))
        items = tuple(draw(st.lists(item, min_size=width, max_size=width)))
        deep = draw(st.integers(0, 3)) == 0
        made.append(Definition(draw(st.integers(0, 20) if deep else st.integers(0, 2)), items))
    return made


def _text(structure: list[Definition]) -> str:
    lines = []
    for index, definition in enumerate(structure):
        items = ", ".join("x" if item is None else f"*d{item}" for item in definition.items)
        lines.append(f"d{index}: &d{index} {'[' * definition.nest}[{items}]{']' * definition.nest}")
    return "\n".join(lines) + "\n"


def _expected(structure: list[Definition]) -> tuple[dict[str, Any], int, int, int]:
    """The data the text means, how many values it expands to, its deepest list and its aliases."""
    values: list[Any] = []
    sizes: list[int] = []
    heights: list[int] = []  # how many lists deep each definition goes below its own top list
    for definition in structure:
        inner = [None if item is None else item for item in definition.items]
        size = 1 + sum(1 if item is None else sizes[item] for item in inner)
        height = max([1 + heights[item] for item in inner if item is not None] or [0])
        value: Any = ["x" if item is None else values[item] for item in inner] if size <= MAX_NODES else None
        for _ in range(definition.nest):
            value = [value]
        values.append(value)
        sizes.append(size + definition.nest)
        heights.append(height + definition.nest)
    data = {f"d{index}": value for index, value in enumerate(values)}
    total = 1 + sum(1 + size for size in sizes)
    deepest = 1 + max(heights)  # the root mapping is level 0, each definition's top list level 1
    aliases = sum(1 for definition in structure for item in definition.items if item is not None)
    return data, total, deepest, aliases


@given(structure=alias_structures())
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
def test_alias_and_nesting_structures_are_read_exactly_or_refused_within_budget(
    structure: list[Definition],
) -> None:
    """A YAML file is refused exactly when it expands past the budget, nests too deep or aliases too often."""
    data, total, deepest, aliases = _expected(structure)
    over = total > MAX_NODES or deepest >= MAX_DEPTH or aliases > MAX_ALIASES
    try:
        read = parse_document(_text(structure), "yaml")
    except DocumentError as error:
        assert over, (error.message, total, deepest, aliases)
        assert error.code in {"too_large", "too_deep", "too_many_aliases"}
        return
    assert not over, (total, deepest, aliases)
    assert read == data


def test_a_billion_laughs_is_refused_before_it_is_built() -> None:
    """Nine lists of nine aliases (387 bytes, 9⁹ values expanded) are refused as too large."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    with pytest.raises(DocumentError) as refused:
        parse_document("\n".join(lines), "yaml")
    assert refused.value.code in {"too_large", "too_many_aliases"}


@given(raw=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_bytes_are_read_or_refused_with_a_document_error(raw: bytes, tmp_path_factory: Any) -> None:
    """Random bytes, as YAML and as JSON, give data within every limit or a DocumentError, nothing else."""
    folder = tmp_path_factory.mktemp("bytes")
    for name in ("doc.yaml", "doc.json"):
        path = folder / name
        path.write_bytes(raw)
        try:
            data = read_document(path)
        except DocumentError as error:
            assert len(error.message) < 600
            continue
        check_value(data)


@pytest.mark.parametrize(
    ("text", "kind", "code", "path"),
    [
        ('{"name": "A\\u0000"}', "json", "bad_text", "name"),
        ('{"a": [{"b": "\\ud800"}]}', "json", "bad_text", "a[0].b"),
        ('{"x\\u0007": 1}', "json", "bad_text", "x\\x07"),  # the key is shown escaped
        ('{"n": 10001}', "json", "out_of_range", "n"),
        ('{"n": -1e999}', "json", "out_of_range", "n"),
        ('{"n": NaN}', "json", "out_of_range", None),
        ("n: " + "9" * 5000, "yaml", "out_of_range", None),
        ("t: " + "x" * (MAX_TEXT + 1), "yaml", "bad_text", "t"),
        ("[" * 40 + "]" * 40, "yaml", "too_deep", None),
        ("a: &a x\nb: [" + "*a, " * (MAX_ALIASES + 1) + "]", "yaml", "too_many_aliases", None),
        ("[" * 40 + "]" * 40, "json", "too_deep", "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"),
    ],
)
def test_each_limit_is_refused_by_name(text: str, kind: Any, code: str, path: str | None) -> None:
    """Each bad text, number and nesting is refused with its code and the path of the value."""
    with pytest.raises(DocumentError) as refused:
        parse_document(text, kind)
    assert refused.value.code == code
    assert refused.value.path == path
    assert len(refused.value.message) < 300  # the input is quoted by an excerpt, never whole


def test_newlines_and_tabs_are_text(tmp_path: Path) -> None:
    """Newline and tab are the two control characters a text may hold."""
    assert parse_document(json.dumps({"t": "a\nb\tc"}), "json") == {"t": "a\nb\tc"}


def test_reading_stops_at_the_size_limit() -> None:
    """/dev/zero is refused after MAX_BYTES bytes, not read to the end."""
    with pytest.raises(DocumentError, match=f"larger than {MAX_BYTES // 1024} KiB"):
        read_document(Path("/dev/zero"))


_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**16), max_value=10**16),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["ok", "a\x00b", "\ud800", "tab\tand\nnewline", "x" * (MAX_TEXT + 1)]),
)
_KEYS = st.one_of(st.text(max_size=4), st.sampled_from(["k\x07", "y" * (MAX_TEXT + 1)]))
_DOCUMENTS = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(_DOCUMENTS, st.integers(min_value=1, max_value=5))
def test_the_quick_look_and_the_walk_with_paths_agree(value: Any, limit: int) -> None:
    """check_value passes a document by a walk that makes no paths and explains a refusal by one that
    does: they agree on every document, so the quick walk passes nothing the careful one refuses."""
    try:
        _refuse_first_problem(value, "", limit)
        refused = False
    except DocumentError:
        refused = True
    assert _within_limits(value, limit) is not refused
    if refused:
        with pytest.raises(DocumentError):
            check_value(value, limit=limit)
    else:
        check_value(value, limit=limit)
