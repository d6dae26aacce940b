"""What the table accepts from a client, checked at the edge before anything walks or stores it.

Commands arrive as JSON of any shape; no command of either system nests more than a few levels, so a limit
of :data:`MAX_DEPTH` refuses pathological input (thousands of nested lists) with a clear error instead of
letting a recursive walk run out of stack. :func:`check_input` applies every limit of the document reader
(:mod:`talespin.documents`): valid Unicode texts without control characters but newline and tab, of a
bounded length, whole numbers within ±10,000, no infinite numbers. A text the table cannot store or send
back (a lone surrogate, a NUL byte) is therefore refused with 422 naming its field, never written.

>>> check_input({"do": "note", "text": "a\\x00"})
Traceback (most recent call last):
...
talespin.systems.errors.MalformedCommand: the command: text: 'a\\x00' holds U+0000, a control character: \
texts may hold newlines and tabs but no other control characters

>>> check_depth({"do": "note", "text": "hi"})
>>> check_depth([[[[]]]], limit=3)
Traceback (most recent call last):
...
talespin.systems.errors.MalformedCommand: the command nests more than 3 levels deep
"""

from __future__ import annotations

from typing import Any

from ..documents import MAX_DEPTH, DocumentError, check_nesting, check_value
from ..systems import MalformedCommand

__all__ = ["MAX_DEPTH", "check_depth", "check_input"]


def check_input(value: Any, *, what: str = "command", path: str = "") -> None:
    """Refuse ``value`` with MalformedCommand (HTTP 422, exit 2) naming the path of its first bad part."""
    try:
        check_value(value, path)
    except DocumentError as error:
        raise MalformedCommand(f"the {what}: {error.message}", code=error.code, path=error.path) from None


def check_depth(value: Any, *, limit: int = MAX_DEPTH, what: str = "command") -> None:
    """Refuse ``value`` with MalformedCommand when its objects and lists nest deeper than ``limit``.

    The walk is the document reader's (:func:`~talespin.documents.check_nesting`), so a command, an odds
    query and a file share one nesting limit and one way of counting it.
    """
    try:
        check_nesting(value, limit=limit)
    except DocumentError:
        raise MalformedCommand(f"the {what} nests more than {limit} levels deep", code="too_deep") from None
