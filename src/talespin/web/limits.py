"""A cap on request bodies: anything larger is refused with 413 before it is read into memory.

The cap is checked twice: against ``Content-Length`` when the client sends one, and against the bytes
actually received (a chunked body that runs past the cap is cut off).
"""

from __future__ import annotations

import json
from typing import Final

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_BODY", "BodyLimit", "TooLarge"]

MAX_BODY: Final = 64 * 1024
"""The default cap on a request body, in bytes (64 KiB)."""


class TooLarge(HTTPException):
    """Raised while reading a body that runs past the cap; an HTTPException so the framework passes it on."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than the limit of {limit} bytes")


class BodyLimit:
    """ASGI middleware refusing request bodies over ``limit`` bytes with a JSON 413."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def refuse(self, send: Send) -> None:
        """Send the JSON 413."""
        message = f"the request body is larger than the limit of {self.limit} bytes"
        error = {"code": "too_large", "rule": None, "message": message, "limit": self.limit}
        body = json.dumps({"error": error}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def declared_too_large(self, scope: Scope) -> bool:
        """Whether the request's ``Content-Length`` is over the cap (or not a number)."""
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return True
                if declared > self.limit:
                    return True
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.declared_too_large(scope):
            await self.refuse(send)
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise TooLarge(self.limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except TooLarge:
            if not started:
                await self.refuse(send)
