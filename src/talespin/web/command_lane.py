"""The command lane: ``POST /api/campaigns/{id}/commands`` answered without the framework's routing.

A command is the request players send most, and the one whose latency they feel. Through FastAPI it costs a
walk over every route, a dependency solve (the bearer token, the body model), and a hop through anyio's
thread pool; that came to more CPU than the command's decision and its fold together (BENCHMARKS.md, "Where
the time goes"). The lane does the same work directly:

1. the body is read (under the same cap) and, when its ``Content-Type`` is JSON or absent, decoded with
   ``json.loads`` and checked by the same model the route declares (:class:`~.models.CommandRequest`);
2. the bearer token is read as FastAPI's ``HTTPBearer(auto_error=False)`` reads it;
3. the command runs in the lane's own thread pool (one ``run_in_executor``: the store's write blocks, and
   the event loop must keep serving every other socket meanwhile), exactly as the route runs it;
4. the answer, or an engine error mapped by :mod:`.errors`, goes back as the same JSON.

Anything the lane does not take as it stands (another content type, a body that is not JSON or that the model
refuses, a path the route's own rules would refuse) goes to the framework with the body as read, so every
refusal is the framework's own, word for word. The route stays declared in the app, for ``/openapi.json``
and for that fallback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

from fastapi.responses import JSONResponse
from fastapi.security.utils import get_authorization_scheme_param
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..dice import DiceError
from ..store.port import StoreError
from ..systems import RulesError
from ..table import TableService
from ..table.errors import TableError
from .errors import error_body, status_of
from .models import CommandRequest

__all__ = ["LANE_THREADS", "CommandLane"]

LANE_THREADS: Final = 40
"""Threads the lane runs commands in (anyio's default for the framework's pool): commands on different
campaigns run side by side, and SQLite's writers share commits (:mod:`talespin.store.batch`)."""

_PATH = re.compile(r"^/api/campaigns/([^/]{1,64})/commands$")
_ENGINE_ERRORS = (TableError, RulesError, DiceError, StoreError)
_INTERNAL = {
    "error": {"code": "internal", "rule": None, "message": "the server met an error it did not expect"}
}

log = logging.getLogger("talespin.web")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _json_or_none(content_type: str | None) -> bool:
    """Whether the framework would decode this body as JSON: no ``Content-Type``, or ``application/json``."""
    if not content_type:
        return True
    return content_type.partition(";")[0].strip().lower() == "application/json"


class CommandLane:
    """Answers ``POST /api/campaigns/{id}/commands`` for one table service (see the module)."""

    def __init__(self, service: TableService, threads: int = LANE_THREADS) -> None:
        self.service = service
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None

    def takes(self, scope: Scope) -> bool:
        """Whether this request is a command the lane answers (else the framework does)."""
        return (
            scope.get("method") == "POST"
            and not scope.get("root_path")
            and _PATH.match(str(scope.get("path", ""))) is not None
            and _json_or_none(_header(scope, b"content-type"))
        )

    @property
    def pool(self) -> ThreadPoolExecutor:
        """The lane's threads, started on the first command (and again after :meth:`close`, as an app served
        anew after its lifespan ended, as tests do, still answers)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="talespin-command")
        return self._pool

    def close(self) -> None:
        """Stop the lane's threads (once the server has stopped taking requests); a later command starts them
        again."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _run(self, campaign_id: str, token: str | None, request: CommandRequest) -> dict[str, Any]:
        """What the route does, in a lane thread: who is asking, the command, the answer's body."""
        service = self.service
        who = service.viewer(campaign_id, token)
        version, events = service.command(
            campaign_id, who, request.command, request.expected_version, request.nonce
        )
        head = events[-1]["head"] if events else service.head(campaign_id, who)
        return {"version": version, "events": events, "head": head}

    async def __call__(self, scope: Scope, receive: Receive, send: Send, framework: ASGIApp) -> None:
        """Answer the command, or hand it (body as read) to ``framework`` when the lane cannot take it."""
        chunks = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body arrived: nothing to answer
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        try:
            request = CommandRequest.model_validate(json.loads(body))
        except Exception:  # not JSON, or not a command (ValidationError): the framework says why, its way
            await framework(scope, _replay(body, receive), send)
            return
        matched = _PATH.match(str(scope["path"]))
        assert matched is not None  # takes() said so
        scheme, credentials = get_authorization_scheme_param(_header(scope, b"authorization"))
        token = credentials if scheme.lower() == "bearer" and credentials else None
        loop = asyncio.get_running_loop()
        try:
            answer = await loop.run_in_executor(self.pool, self._run, matched.group(1), token, request)
            response = JSONResponse(answer)
        except _ENGINE_ERRORS as error:
            response = JSONResponse(error_body(error), status_code=status_of(error))
        except Exception:  # a bug: still JSON, and logged with its traceback
            log.exception("the command on %s met an error", scope["path"])
            response = JSONResponse(_INTERNAL, status_code=500)
        await response(scope, receive, send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then whatever the connection says next."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
