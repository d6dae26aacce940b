"""Rate limits: how much one client, one token and one campaign may ask of the server.

Each limit is a bucket (:class:`Rate`): it holds ``count`` requests, refills evenly over ``seconds``, and a
request that finds it empty is refused with 429, a ``Retry-After`` header (whole seconds until the bucket
holds one request again) and the contract's body ``{"error": {"code": "rate_limited", "message",
"retry_after", "limit"}}``. Nothing is applied when a request is refused.

The buckets (:class:`RateLimits`, every one a setting of ``talespin serve --limits``):

========================  =======================================  ==============
bucket                    counts                                   default
========================  =======================================  ==============
``create``                campaigns created, per client address    30 per hour
``join``                  joins, per client address                60 per hour
``campaign_join``         joins, per campaign                      30 per hour
``token``                 API requests and sockets, per token      600 per minute
``client``                API requests and sockets, per address    1200 per minute
========================  =======================================  ==============

The client address is the connection's peer: behind a reverse proxy, run uvicorn's ``--proxy-headers``
(``--forwarded-allow-ips``) so that it is the player's and not the proxy's. The pages and static files are
not counted.

Where the buckets live: ``token`` and ``client`` in the process's memory (each worker keeps its own, so with
N processes a client may make N times as many requests; they guard one process's work). ``create``,
``join`` and ``campaign_join`` guard the whole table, so on PostgreSQL they live in the database
(:meth:`talespin.store.sql.SqlStore.take_rate`, a locked row per bucket) and hold across every process
serving it, ``--workers N`` or several servers; on SQLite, which one process serves, in its memory too. A
database that cannot be reached for a bucket falls back to the memory bucket (and logs it). In memory the
least recently used buckets are forgotten beyond :data:`MAX_BUCKETS`, so the limiter's memory stays bounded
however many addresses call.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, replace
from typing import Final

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = [
    "MAX_BUCKETS",
    "SHARED",
    "Buckets",
    "Rate",
    "RateLimits",
    "SharedRates",
    "Throttle",
    "deny_socket",
    "rate_limited_body",
]

SharedRates = Callable[[str, int, float], float]
"""Takes one request from a bucket kept for every process: ``(key, count, seconds)`` → seconds to wait."""
SHARED: Final = frozenset({"create", "join", "campaign"})
"""The kinds of bucket key (``create:…``, ``join:…``, ``campaign:…``) kept in shared rates when there are."""

log = logging.getLogger("talespin.web")

MAX_BUCKETS: Final = 50_000
"""The most buckets kept at once (a bucket is a few dozen bytes)."""

_UNITS: Final = {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0}
_RATE = re.compile(r"^\s*(\d{1,9})\s*/\s*(second|minute|hour|day)s?\s*$")
_JOIN = re.compile(r"^/api/campaigns/([^/]+)/join$")


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``count`` requests at once, refilled evenly over ``seconds`` (``Rate(30, 3600)``: 30/hour)."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"30/hour"``, ``"600/minute"``, ``"5/second"`` or ``"100/day"`` (ValueError otherwise)."""
        matched = _RATE.match(text)
        if matched is None or int(matched.group(1)) < 1:
            raise ValueError(f"{text!r} is not a rate: expected COUNT/second|minute|hour|day, e.g. 30/hour")
        return cls(int(matched.group(1)), _UNITS[matched.group(2)])

    def __str__(self) -> str:
        unit = next((name for name, size in _UNITS.items() if size == self.seconds), None)
        return f"{self.count}/{unit}" if unit else f"{self.count} per {self.seconds:g} s"


@dataclass(frozen=True, slots=True)
class RateLimits:
    """Every bucket's rate; ``None`` turns that bucket off (see the module's table)."""

    create: Rate | None = Rate(30, 3600)
    join: Rate | None = Rate(60, 3600)
    campaign_join: Rate | None = Rate(30, 3600)
    token: Rate | None = Rate(600, 60)
    client: Rate | None = Rate(1200, 60)

    @classmethod
    def off(cls) -> RateLimits:
        """No limit at all (a private server, or tests that are not about limits)."""
        return cls(None, None, None, None, None)

    @classmethod
    def parse(cls, text: str) -> RateLimits:
        """``"off"``, or changes to the defaults: ``"create=100/hour,token=off"`` (ValueError otherwise)."""
        if text.strip() == "off":
            return cls.off()
        names = [f.name for f in fields(cls)]
        limits = cls()
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, _, value = part.partition("=")
            name = name.strip()
            if name not in names:
                raise ValueError(f"{name!r} is not a rate limit: expected one of {', '.join(names)}")
            rate = None if value.strip() == "off" else Rate.parse(value)
            limits = replace(limits, **{name: rate})
        return limits


class Buckets:
    """Token buckets by key, the least recently used forgotten beyond ``size``; thread-safe."""

    def __init__(self, size: int = MAX_BUCKETS, clock: Callable[[], float] = time.monotonic) -> None:
        self._levels: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._size = size
        self._clock = clock
        self._lock = threading.Lock()

    def take(self, key: str, rate: Rate) -> float:
        """Take one request from ``key``'s bucket: 0 when it had one, else the seconds until it will."""
        now = self._clock()
        per_second = rate.count / rate.seconds
        with self._lock:
            level, then = self._levels.pop(key, (float(rate.count), now))
            level = min(float(rate.count), level + (now - then) * per_second)
            if level >= 1:
                level -= 1
                wait = 0.0
            else:
                wait = (1 - level) / per_second
            self._levels[key] = (level, now)
            while len(self._levels) > self._size:
                self._levels.popitem(last=False)
        return wait


def rate_limited_body(what: str, rate: Rate, wait: float) -> tuple[bytes, int]:
    """The 429 body for a refusal by the ``what`` bucket, and its ``Retry-After`` in whole seconds."""
    retry = max(1, math.ceil(wait))
    message = f"too many requests: the limit is {rate} {what}; try again in {retry} s"
    body = {
        "error": {
            "code": "rate_limited",
            "message": message,
            "rule": None,
            "retry_after": retry,
            "limit": str(rate),
        }
    }
    return json.dumps(body).encode(), retry


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _token(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, credentials = str(value.decode("latin-1")).partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                return credentials.strip()
    if scope["type"] == "websocket":
        for pair in str(scope.get("query_string", b"").decode("latin-1")).split("&"):
            key, _, found = pair.partition("=")
            if key == "token" and found:
                return found
    return None


class Throttle:
    """ASGI middleware applying :class:`RateLimits` to ``/api`` requests and sockets."""

    def __init__(
        self,
        app: ASGIApp,
        limits: RateLimits,
        buckets: Buckets | None = None,
        shared: SharedRates | None = None,
    ) -> None:
        """``shared`` keeps the ``create``, ``join`` and ``campaign_join`` buckets for every process (the
        store's, on PostgreSQL); without it every bucket is this process's own."""
        self.app = app
        self.limits = limits
        self.buckets = buckets or Buckets()
        self.shared = shared

    def _checks(self, scope: Scope) -> Iterator[tuple[str, str, Rate | None]]:
        """``(bucket key, what it counts, rate)`` for each bucket this request draws from."""
        client = scope.get("client")
        address = str(client[0]) if client else "unknown"
        path, method = str(scope.get("path", "")), scope.get("method", "GET")
        yield f"client:{address}", "requests per client", self.limits.client
        token = _token(scope)
        if token is not None:
            yield f"token:{_digest(token)}", "requests per token", self.limits.token
        if method == "POST" and path.rstrip("/") == "/api/campaigns":
            yield f"create:{address}", "campaigns created per client", self.limits.create
        joined = _JOIN.match(path) if method == "POST" else None
        if joined is not None:
            yield f"join:{address}", "joins per client", self.limits.join
            yield f"campaign:{_digest(joined.group(1))}", "joins per campaign", self.limits.campaign_join

    def refusal(self, scope: Scope) -> tuple[bytes, int] | None:
        """The 429 body and Retry-After when a bucket this request draws from is empty, else ``None``.

        A shared bucket costs a trip to the database: call this from a worker thread when
        :meth:`needs_store` says so."""
        for key, what, rate in self._checks(scope):
            if rate is None:
                continue
            wait = self._take(key, rate)
            if wait > 0:
                return rate_limited_body(what, rate, wait)
        return None

    def _take(self, key: str, rate: Rate) -> float:
        if self.shared is not None and key.partition(":")[0] in SHARED:
            try:
                return self.shared(key, rate.count, rate.seconds)
            except Exception as error:  # the limit must not take the server down with the database
                log.warning("shared rate limit %s unavailable, counting in memory: %s", key, error)
        return self.buckets.take(key, rate)

    def needs_store(self, scope: Scope) -> bool:
        """Whether this request draws from a shared bucket (creating a campaign, joining one)."""
        if self.shared is None:
            return False
        return any(
            rate is not None and key.partition(":")[0] in SHARED for key, _, rate in self._checks(scope)
        )

    async def refused(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """Send the 429 (or refuse the socket) if an ``/api`` request finds a bucket empty; whether it did."""
        if scope["type"] not in {"http", "websocket"} or not str(scope.get("path", "")).startswith("/api/"):
            return False
        refused = (
            await run_in_threadpool(self.refusal, scope) if self.needs_store(scope) else self.refusal(scope)
        )
        if refused is None:
            return False
        body, retry = refused
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(retry).encode()),
        ]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 429, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        else:
            await deny_socket(scope, receive, send, status=429, body=body, headers=headers)
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not await self.refused(scope, receive, send):
            await self.app(scope, receive, send)


async def deny_socket(
    scope: Scope,
    receive: Receive,
    send: Send,
    *,
    status: int,
    body: bytes,
    headers: list[tuple[bytes, bytes]],
) -> None:
    """Refuse a WebSocket before it opens: an HTTP ``status`` with ``body`` where the server can send one
    (the ASGI denial-response extension), else a close with code 4000 + ``status``."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send({"type": "websocket.close", "code": 4000 + status})
