"""A rule system's frozen state as plain data (JSON values) and back, read through the state's type hints.

A snapshot (:mod:`.snapshots`) keeps the game state a campaign's log folded to. It keeps it as plain data
only — objects, lists, text, numbers, booleans, ``null`` — never as the objects themselves, so reading it
back runs no code the bytes name: what may be built is decided here, by the state class's own type hints,
starting from the class of the system's starting state. The data names no class at all.

* a frozen dataclass is an object holding each of its fields by name (all of them, no other key);
* a pydantic model (a sheet, the rules data) is its own JSON dump, and is read back by its own validation;
* ``tuple[X, ...]`` and ``tuple[X, Y]`` are lists, ``X | None`` is ``null`` or an ``X``;
* a mapping with text keys is an object; ``Any`` is any JSON value (event data kept in the state);
* ``int``, ``str``, ``bool``, ``float`` and ``Literal`` values are themselves, of exactly that type.

Reading checks every value against its hint and raises :class:`StateDataError` (a ``ValueError``) naming
the path of the first that does not fit; writing raises it for a value its hint does not allow.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Counter:
...     name: str
...     marks: tuple[int, ...] = ()
>>> to_data(Counter("Crisis", (1, 2)), Counter)
{'name': 'Crisis', 'marks': [1, 2]}
>>> from_data({"name": "Crisis", "marks": [1, 2]}, Counter)
Counter(name='Crisis', marks=(1, 2))
>>> from_data({"name": "Crisis", "marks": ["two"]}, Counter)
Traceback (most recent call last):
...
talespin.table.state_data.StateDataError: state.marks[0] must be a whole number
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

__all__ = ["StateDataError", "from_data", "to_data"]


class StateDataError(ValueError):
    """Plain data that does not have the shape a state's type hints ask for (or a value with no such data)."""


_SCALARS: dict[Any, str] = {int: "a whole number", str: "a text", bool: "true or false", float: "a number"}
_MAPPINGS = (dict, Mapping)
_FIELDS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """A dataclass's fields with their resolved type hints, in order (found once per class)."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _FIELDS[cls] = tuple((field.name, hints[field.name]) for field in dataclasses.fields(cls))
    return found


def _optional(hint: Any) -> Any:
    """The ``X`` of ``X | None``; any other union is refused (its data would not say which member it is)."""
    members = [arg for arg in get_args(hint) if arg is not type(None)]
    if len(members) != 1 or len(get_args(hint)) != 2:
        raise StateDataError(f"the type {hint} is not one a state may hold (only X | None unions)")
    return members[0]


def _json_value(value: Any, path: str) -> Any:
    """``value`` as a JSON value (tuples as lists), refusing anything JSON cannot hold."""
    if value is None or type(value) in (str, int, bool):
        return value
    if type(value) is float:
        if not math.isfinite(value):
            raise StateDataError(f"{path} is not a finite number")
        return value
    if isinstance(value, Mapping):
        if not all(type(key) is str for key in value):
            raise StateDataError(f"{path} has a key that is not a text")
        return {key: _json_value(child, f"{path}.{key}") for key, child in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(child, f"{path}[{index}]") for index, child in enumerate(value)]
    raise StateDataError(f"{path} holds a {type(value).__name__}, which is no JSON value")


def to_data(value: Any, hint: Any, path: str = "state") -> Any:
    """``value`` (of the type ``hint``) as plain data."""
    if hint is Any:
        return _json_value(value, path)
    if get_origin(hint) is not None:
        return _generic_to(value, hint, path)
    if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or issubclass(hint, BaseModel)):
        return _object_to(value, hint, path)
    return _scalar(value, hint, path)


def _generic_to(value: Any, hint: Any, path: str) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return None if value is None else to_data(value, _optional(hint), path)
    if origin is Literal:
        if value not in get_args(hint):
            raise StateDataError(f"{path} must be one of {list(get_args(hint))}")
        return value
    if origin is tuple:
        items = _items(value, hint, path)
        return [to_data(child, item, f"{path}[{i}]") for i, (child, item) in enumerate(items)]
    if origin in _MAPPINGS:
        if not isinstance(value, Mapping) or not all(type(key) is str for key in value):
            raise StateDataError(f"{path} must be a mapping with text keys")
        item = get_args(hint)[1]
        return {key: to_data(child, item, f"{path}.{key}") for key, child in value.items()}
    raise StateDataError(f"the type {hint} is not one a state may hold")


def _object_to(value: Any, cls: type, path: str) -> Any:
    if type(value) is not cls:
        raise StateDataError(f"{path} must be a {cls.__name__}")
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_unset=True)
    return {name: to_data(getattr(value, name), item, f"{path}.{name}") for name, item in _fields(cls)}


def _items(value: Any, hint: Any, path: str) -> list[tuple[Any, Any]]:
    """Each item of a tuple ``value`` with its hint (``tuple[X, ...]`` or ``tuple[X, Y, …]``)."""
    args = get_args(hint)
    if not isinstance(value, tuple | list):
        raise StateDataError(f"{path} must be a list")
    if len(args) == 2 and args[1] is Ellipsis:
        return [(child, args[0]) for child in value]
    if len(value) != len(args):
        raise StateDataError(f"{path} must be a list of {len(args)} items")
    return list(zip(value, args, strict=True))


def _scalar(value: Any, hint: Any, path: str) -> Any:
    if hint is type(None):
        if value is not None:
            raise StateDataError(f"{path} must be null")
        return None
    what = _SCALARS.get(hint)
    if what is None:
        raise StateDataError(f"the type {hint} is not one a state may hold")
    if type(value) is not hint or (hint is float and not math.isfinite(value)):
        raise StateDataError(f"{path} must be {what}")
    return value


def from_data(data: Any, hint: Any, path: str = "state") -> Any:
    """The value of type ``hint`` that ``data`` (plain data, as :func:`to_data` writes it) stands for."""
    if hint is Any:
        return data  # read from JSON: already a JSON value
    if get_origin(hint) is not None:
        return _generic_from(data, hint, path)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass(data, hint, path)
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return _model(data, hint, path)
    return _scalar(data, hint, path)


def _generic_from(data: Any, hint: Any, path: str) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return None if data is None else from_data(data, _optional(hint), path)
    if origin is Literal:
        if data not in get_args(hint) or type(data) not in {type(arg) for arg in get_args(hint)}:
            raise StateDataError(f"{path} must be one of {list(get_args(hint))}")
        return data
    if origin is tuple:
        if type(data) is not list:
            raise StateDataError(f"{path} must be a list")
        items = _items(data, hint, path)
        return tuple(from_data(child, item, f"{path}[{i}]") for i, (child, item) in enumerate(items))
    if origin in _MAPPINGS:
        if type(data) is not dict:
            raise StateDataError(f"{path} must be an object")
        item = get_args(hint)[1]
        return {key: from_data(child, item, f"{path}.{key}") for key, child in data.items()}
    raise StateDataError(f"the type {hint} is not one a state may hold")


def _model(data: Any, cls: type[BaseModel], path: str) -> BaseModel:
    """A pydantic model read back by its own validation (which checks every field)."""
    if type(data) is not dict:
        raise StateDataError(f"{path} must be an object")
    try:
        return cls.model_validate(data)
    except ValidationError as error:
        count = error.error_count()
        raise StateDataError(f"{path} is not a valid {cls.__name__} ({count} errors)") from None


def _dataclass(data: Any, cls: type, path: str) -> Any:
    fields = _fields(cls)
    if type(data) is not dict:
        raise StateDataError(f"{path} must be an object")
    if set(data) != {name for name, _ in fields}:
        expected = ", ".join(name for name, _ in fields)
        raise StateDataError(f"{path} must hold exactly the keys {expected}")
    return cls(**{name: from_data(data[name], item, f"{path}.{name}") for name, item in fields})
