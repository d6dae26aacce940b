"""The shape of each event's data, declared as data beside the events that carry it.

An event's ``data`` is a JSON object of named fields. Whoever records an event type (each rule system for
its own, the table for its own) declares its :class:`Shape`: the fields its data always has
(``required``), the ones it has only sometimes (``optional``) and what each field holds. A field's value is
described in a small vocabulary of JSON Schema values — :data:`TEXT`, :data:`WHOLE`, :data:`FLAG`,
:func:`maybe`, :func:`list_of`, a :class:`Shape` for an object inside it — and a pydantic model (a
character sheet) stands for its own schema. The table writes every declared shape into
``docs/schemas/events.schema.json`` (:mod:`talespin.table.event_schema`), and the tests validate every event
they record against it: an event recorded with a field its shape lacks, without one it requires, or with a
value of another type fails them.

>>> crisis = Shape({"amount": WHOLE, "crisis": WHOLE}, {"character": maybe(TEXT)})
>>> schema = data_schema(crisis, {})
>>> schema["required"], schema["additionalProperties"]
(['amount', 'crisis'], False)
>>> schema["properties"]["character"]
{'type': ['string', 'null']}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import BaseModel

__all__ = [
    "ANY",
    "CHAIN",
    "FLAG",
    "OBJECT",
    "TEXT",
    "WHOLE",
    "Shape",
    "Value",
    "data_schema",
    "list_of",
    "mapping_of",
    "maybe",
    "one_of",
    "value_schema",
]

TEXT: Final[Mapping[str, Any]] = {"type": "string"}
"""A text: a name, a cause, a message."""
WHOLE: Final[Mapping[str, Any]] = {"type": "integer"}
"""A whole number: a count, a total, a version."""
FLAG: Final[Mapping[str, Any]] = {"type": "boolean"}
"""True or false."""
OBJECT: Final[Mapping[str, Any]] = {"type": "object"}
"""Any JSON object: an open shape another contract owns (a command as sent, a variant)."""
ANY: Final[Mapping[str, Any]] = {}
"""Any JSON value."""


def maybe(value: Value) -> Mapping[str, Any]:
    """``value`` or ``null``."""
    if not isinstance(value, Mapping):
        return {"anyOf": [value, {"type": "null"}]}
    if set(value) == {"type"} and isinstance(value["type"], str):
        return {"type": [value["type"], "null"]}
    if set(value) == {"enum"}:
        return {"enum": [*value["enum"], None]}
    return {"anyOf": [value, {"type": "null"}]}


def one_of(choices: Iterable[str | int]) -> Mapping[str, Any]:
    """Exactly one of ``choices`` (the words of the rules or the code that lists them)."""
    return {"enum": list(choices)}


def list_of(item: Value) -> Mapping[str, Any]:
    """A list whose every item is ``item``."""
    return {"type": "array", "items": item}


def mapping_of(value: Value) -> Mapping[str, Any]:
    """An object from any names to ``value`` (a Skill's effects, ratings by name)."""
    return {"type": "object", "additionalProperties": value}


@dataclass(frozen=True, slots=True)
class Shape:
    """The fields of one event type's data (or of an object inside it), each with what it holds.

    ``open`` leaves room for fields not listed (a shape owned elsewhere); every event's own shape is
    closed, so an undeclared field is an error.
    """

    required: Mapping[str, Value]
    optional: Mapping[str, Value] = field(default_factory=dict)
    about: str = ""
    open: bool = False

    def __post_init__(self) -> None:
        both = sorted(set(self.required) & set(self.optional))
        if both:
            raise ValueError(f"a field is either required or optional, not both: {both}")


Value = Mapping[str, Any] | type[BaseModel] | Shape
"""What one field holds: a JSON Schema (its parts may be values too), a pydantic model standing for its own
schema (a sheet), or the :class:`Shape` of an object."""

CHAIN: Final = Shape(
    {"size": WHOLE, "faces": {"type": "array", "items": WHOLE}},
    about="One die as rolled: its size and every face, the exploded ones after the first.",
)
"""A rolled die's chain, as every roll event of either system writes it (``{"size": 6, "faces": [6, 2]}``)."""


def value_schema(value: Any, defs: dict[str, Any]) -> Any:
    """The JSON Schema of ``value``; each model it names is put in ``defs`` under its name and referred to."""
    if isinstance(value, Shape):
        return data_schema(value, defs)
    if isinstance(value, type) and issubclass(value, BaseModel):
        return _model_ref(value, defs)
    if isinstance(value, Mapping):
        return {key: value_schema(item, defs) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [value_schema(item, defs) for item in value]
    return value


def data_schema(shape: Shape, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of data of ``shape``: an object with its required and optional fields."""
    fields = {**shape.required, **shape.optional}
    schema: dict[str, Any] = {"type": "object"}
    if shape.about:
        schema["description"] = shape.about
    schema["required"] = list(shape.required)
    schema["properties"] = {name: value_schema(value, defs) for name, value in fields.items()}
    if not shape.open:
        schema["additionalProperties"] = False
    return schema


def _model_ref(model: type[BaseModel], defs: dict[str, Any]) -> dict[str, str]:
    """Add ``model``'s JSON Schema (and the models inside it) to ``defs``; a reference to it."""
    schema = model.model_json_schema(ref_template="#/$defs/{model}")
    for name, inner in {**schema.pop("$defs", {}), model.__name__: schema}.items():
        if defs.setdefault(name, inner) != inner:
            raise ValueError(f"two different schemas are both called {name!r}")
    return {"$ref": f"#/$defs/{model.__name__}"}
