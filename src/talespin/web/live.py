"""Live updates: a hub that fans appended events out to WebSocket connections, per viewer.

The table service calls :meth:`Hub.publish` from a worker thread, inside the campaign's lock, so the events
arrive in version order; the hub hands them to each subscriber's event loop without blocking. The WebSocket
endpoint (:func:`serve_socket`) subscribes *before* reading the backlog (``?after=n``), then skips anything
at or below the version the backlog reached, so a reconnecting client misses nothing and sees nothing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from ..store.port import StoredEvent
from ..table import TableError, TableService
from .errors import error_body, status_of

__all__ = ["Hub", "serve_socket"]


@dataclass(eq=False, slots=True)
class _Subscriber:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[list[StoredEvent]]


class Hub:
    """Who listens to which campaign; thread-safe."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[_Subscriber]] = defaultdict(set)
        self._lock = threading.Lock()

    def subscribe(self, campaign_id: str) -> _Subscriber:
        """A new subscription on the running event loop."""
        subscriber = _Subscriber(asyncio.get_running_loop(), asyncio.Queue())
        with self._lock:
            self._subscribers[campaign_id].add(subscriber)
        return subscriber

    def unsubscribe(self, campaign_id: str, subscriber: _Subscriber) -> None:
        """Stop delivering to ``subscriber``."""
        with self._lock:
            self._subscribers[campaign_id].discard(subscriber)

    def publish(self, campaign_id: str, events: list[StoredEvent]) -> None:
        """Hand freshly appended events to every subscriber of the campaign (any thread)."""
        with self._lock:
            subscribers = list(self._subscribers.get(campaign_id, ()))
        for subscriber in subscribers:
            with contextlib.suppress(RuntimeError):  # its loop has closed: the socket is gone
                subscriber.loop.call_soon_threadsafe(subscriber.queue.put_nowait, events)


async def _close_with_error(websocket: WebSocket, error: Exception) -> None:
    await websocket.accept()
    await websocket.send_json(error_body(error))
    await websocket.close(code=4000 + status_of(error))


async def serve_socket(websocket: WebSocket, service: TableService, hub: Hub, campaign_id: str) -> None:
    """Stream a campaign's events to one viewer, first those after ``?after=n``, then each new one."""
    token = websocket.query_params.get("token")
    after_text = websocket.query_params.get("after")
    try:
        viewer = await run_in_threadpool(service.viewer, campaign_id, token)
        after = int(after_text) if after_text is not None else None
    except (TableError, ValueError) as error:
        if isinstance(error, ValueError):
            error = TableError("after must be a whole-number version")
        await _close_with_error(websocket, error)
        return
    await websocket.accept()
    subscriber = hub.subscribe(campaign_id)
    receiving: asyncio.Future[Any] | None = None

    try:
        mark, backlog, _ = await run_in_threadpool(
            service.backlog, campaign_id, viewer, after if after is not None else None
        )
        for event in backlog:
            await websocket.send_json(event)
        receiving = asyncio.ensure_future(websocket.receive())
        while True:
            getting = asyncio.ensure_future(subscriber.queue.get())
            done, _ = await asyncio.wait({receiving, getting}, return_when=asyncio.FIRST_COMPLETED)
            if receiving in done:
                getting.cancel()
                if receiving.result()["type"] == "websocket.disconnect":
                    return
                receiving = asyncio.ensure_future(websocket.receive())
                continue
            fresh = [stored for stored in getting.result() if stored.version > mark]
            if fresh:
                mark = fresh[-1].version
                for event in await run_in_threadpool(service.visible, campaign_id, viewer, fresh):
                    await websocket.send_json(event)
    except WebSocketDisconnect:
        return
    finally:
        if receiving is not None:
            receiving.cancel()
        hub.unsubscribe(campaign_id, subscriber)
