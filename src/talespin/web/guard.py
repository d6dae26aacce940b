"""What every response says to the browser about itself, and which pages may open the table's WebSocket.

Every HTTP response (pages, API answers, errors alike) carries :data:`SECURITY_HEADERS`: a Content Security
Policy that lets a page run only the app's own script files (no inline script, no ``eval``, nothing from
another origin), forbids framing (``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``), stops content
sniffing (``nosniff``) and sends no referrer (a table link carries its token in the fragment; no page
leaks its address). FastAPI's interactive API pages (``/docs``, ``/redoc``) load their script from a CDN
and start it inline, so they alone get :data:`DOCS_POLICY`.

A browser sends ``Origin`` with every WebSocket handshake and lets any page open a socket to any server, so
a foreign page holding a player's token could listen in. The handshake is refused with 403 (``{"error":
{"code": "foreign_origin", …}}``) unless its ``Origin`` is the server's own (the ``Host`` it was asked
for, by ``http`` or ``https``) or one of the ``origins`` the server was started with. A client that sends
no ``Origin`` (not a browser: the CLI, scripts, tests) is let through: it can hold only tokens it was given.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .throttle import deny_socket

__all__ = ["DOCS_PATHS", "DOCS_POLICY", "PAGE_POLICY", "SECURITY_HEADERS", "Guard"]

PAGE_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The Content Security Policy of every page and answer (``connect-src 'self'`` covers ``ws:``/``wss:`` of
the same host in every current browser)."""

DOCS_POLICY: Final = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
"""The policy of ``/docs`` and ``/redoc`` only: FastAPI's API pages need the CDN and an inline start."""

SECURITY_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
"""Sent with every HTTP response, beside ``Content-Security-Policy``."""

DOCS_PATHS: Final = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
"""The pages that get :data:`DOCS_POLICY`."""


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class Guard:
    """ASGI middleware: the security headers on every response, the ``Origin`` check on every socket."""

    def __init__(self, app: ASGIApp, origins: Iterable[str] = ()) -> None:
        self.app = app
        self.origins = frozenset(origin.rstrip("/").lower() for origin in origins)

    def allows(self, scope: Scope) -> bool:
        """Whether a WebSocket handshake's ``Origin`` (if it sends one) is the server's own or allowed."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        origin = origin.rstrip("/").lower()
        host = (_header(scope, b"host") or "").lower()
        return origin in self.origins or (bool(host) and origin in {f"http://{host}", f"https://{host}"})

    @staticmethod
    async def refuse_socket(scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a WebSocket handshake from a foreign page: 403 ``foreign_origin``."""
        message = "this page may not open the table's live updates: its Origin is not the table's own"
        body = json.dumps({"error": {"code": "foreign_origin", "message": message, "rule": None}}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await deny_socket(scope, receive, send, status=403, body=body, headers=headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if self.allows(scope):
                await self.app(scope, receive, send)
            else:
                await self.refuse_socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = DOCS_POLICY if scope.get("path") in DOCS_PATHS else PAGE_POLICY

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(b"content-security-policy", policy.encode()), *SECURITY_HEADERS]
                added = [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": [*message.get("headers", ()), *added]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
