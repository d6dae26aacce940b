"""A limit on how deeply a command, query or sheet may nest, checked before anything walks it.

Commands arrive as JSON of any shape; no command of either system nests more than a few levels, so a limit
of :data:`MAX_DEPTH` refuses pathological input (thousands of nested lists) with a clear error instead of
letting a recursive walk run out of stack.

>>> check_depth({"do": "note", "text": "hi"})
>>> check_depth([[[[]]]], limit=3)
Traceback (most recent call last):
...
talespin.systems.errors.MalformedCommand: the command nests more than 3 levels deep
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..documents import MAX_DEPTH
from ..systems import MalformedCommand

__all__ = ["MAX_DEPTH", "check_depth"]


def check_depth(value: Any, *, limit: int = MAX_DEPTH, what: str = "command") -> None:
    """Refuse ``value`` with MalformedCommand when its objects and lists nest deeper than ``limit``."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children: Any
        if isinstance(item, Mapping):
            children = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth >= limit:
            raise MalformedCommand(f"the {what} nests more than {limit} levels deep", code="too_deep")
        stack.extend((child, depth + 1) for child in children)
