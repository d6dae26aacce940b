"""The one middleware every request passes: security headers, the socket Origin check, rate limits, body cap.

It does in one ASGI layer, in this order, what :class:`~.guard.Guard`, :class:`~.throttle.Throttle` and
:class:`~.limits.BodyLimit` each do (they stay usable alone; this layer calls their checks): every HTTP
answer carries the security headers, refusals included; a WebSocket from a foreign page is refused with 403;
an ``/api`` request or socket past a rate limit gets 429; a body over the cap gets 413. One layer instead of
three saves two coroutine frames and two wrapped ``send`` functions on every request and every frame.

The busiest request, a command (``POST /api/campaigns/{id}/commands``), then goes down its own lane
(:mod:`.command_lane`) rather than through the framework's routing and dependency solving; a command the lane
cannot take as it stands (not JSON, or a body the model refuses) is handed to the framework with its body
as read, so every refusal is the framework's own.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .command_lane import CommandLane
from .guard import DOCS_PATHS, DOCS_POLICY, PAGE_POLICY, SECURITY_HEADERS, Guard
from .limits import MAX_BODY, BodyLimit, TooLarge
from .throttle import RateLimits, SharedRates, Throttle

__all__ = ["Gate"]

_PAGE_EXTRA = ((b"content-security-policy", PAGE_POLICY.encode()), *SECURITY_HEADERS)
_DOCS_EXTRA = ((b"content-security-policy", DOCS_POLICY.encode()), *SECURITY_HEADERS)


class Gate:
    """ASGI middleware: :class:`~.guard.Guard`, :class:`~.throttle.Throttle` and :class:`~.limits.BodyLimit`
    in one layer, and the command lane."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limits: RateLimits,
        shared: SharedRates | None = None,
        origins: Iterable[str] = (),
        max_body: int = MAX_BODY,
        lane: CommandLane | None = None,
    ) -> None:
        self.app = app
        self.guard = Guard(app, origins=origins)
        self.throttle = Throttle(app, limits=limits, shared=shared)
        self.body_limit = BodyLimit(app, limit=max_body)
        self.lane = lane

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.guard.allows(scope):
            await self.guard.refuse_socket(scope, receive, send)
            return
        if await self.throttle.refused(scope, receive, send):
            return
        await self.app(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            await self._socket(scope, receive, send)
            return
        if kind != "http":
            await self.app(scope, receive, send)
            return
        extra = _DOCS_EXTRA if scope.get("path") in DOCS_PATHS else _PAGE_EXTRA
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        if await self.throttle.refused(scope, receive, send_with_headers):
            return
        limit = self.body_limit.limit
        if self.body_limit.declared_too_large(scope):
            await self.body_limit.refuse(send_with_headers)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise TooLarge(limit)
            return message

        try:
            if self.lane is not None and self.lane.takes(scope):
                await self.lane(scope, limited_receive, send_with_headers, self.app)
            else:
                await self.app(scope, limited_receive, send_with_headers)
        except TooLarge:
            if not started:
                await self.body_limit.refuse(send_with_headers)
