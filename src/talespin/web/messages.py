"""What a client may send on the table's WebSocket, checked like an HTTP body, and what it gets back.

The socket is for listening: the table's events come down it, commands go up over HTTP. A client may send
one kind of message, ``{"kind": "ping"}``, answered ``{"kind": "pong"}``, so a page can tell a live
connection from a silent one. (The pong carries no version: the socket counts the log's versions, and a
player must never learn those, only its own numbering.)

Anything else is answered, never dropped and never a closed connection: a frame of ``{"kind": "error",
"error": {"code", "message", "path"?}}`` says what was wrong, and the socket keeps delivering events. A
message is refused when it is not a text frame, is longer than :data:`MAX_MESSAGE` characters, is not
JSON, is not an object with a ``kind``, names an unknown kind, or holds a value outside the limits every
document has (:func:`~talespin.documents.check_value`: a lone surrogate such as ``"\\ud800"``, a control
character, a number beyond ±10,000, nesting too deep).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..documents import DocumentError, excerpt, parse_document
from .limits import MAX_BODY

__all__ = ["KINDS", "MAX_MESSAGE", "answer"]

MAX_MESSAGE: Final = MAX_BODY
"""The longest message a client may send, in characters (the HTTP body limit: 64 KiB)."""

KINDS: Final = ("ping",)
"""The kinds of message a client may send."""


def _error(code: str, message: str, path: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if path is not None:
        body["path"] = path
    return {"kind": "error", "error": body}


def answer(message: Mapping[str, Any]) -> dict[str, Any]:
    """The frame answering one received ASGI message (``{"type": "websocket.receive", "text"|"bytes"}``)."""
    text = message.get("text")
    if not isinstance(text, str):
        return _error("malformed", "messages are JSON text frames, not binary ones")
    if len(text) > MAX_MESSAGE:
        return _error("too_large", f"the message is {len(text)} characters long; the limit is {MAX_MESSAGE}")
    try:
        data = parse_document(text, "json")
    except DocumentError as error:
        code = error.code if error.code in {"bad_text", "out_of_range", "too_deep"} else "malformed"
        return _error(code, f"the message was refused: {error.message}", error.path)
    if not isinstance(data, Mapping) or "kind" not in data:
        return _error("malformed", 'a message is a JSON object with a "kind", e.g. {"kind": "ping"}')
    kind = data["kind"]
    if kind not in KINDS:
        shown = excerpt(kind)
        return _error(
            "unknown_kind", f"{shown} is not a kind of message: expected one of {', '.join(KINDS)}", "kind"
        )
    return {"kind": "pong"}
