"""Live updates: a hub that fans appended events out to WebSocket connections, per viewer.

The table service calls :meth:`Hub.publish` from a worker thread, inside the campaign's lock, so the events
arrive in version order; the hub hands them to each subscriber's event loop without blocking. The service
has already rendered them, events and JSON text, for every viewer the hub names (:meth:`Hub.viewers`), so
a socket usually sends what is ready, without touching the campaign. The WebSocket
endpoint (:func:`serve_socket`) subscribes *before* reading the backlog (``?after=n``), then skips anything
at or below the version the backlog reached, so a reconnecting client misses nothing and sees nothing twice.

On PostgreSQL the hub watches, through the store's change feed, every campaign a socket of this process
follows (and only those): a socket reads its backlog once announcements of its campaign flow, so an event
committed through another process is either in the backlog or announced.

The hub also knows who is connected: whenever someone comes or goes, every socket of the campaign opened
with ``?presence=1`` gets a presence frame ``{"kind": "presence", "online": [{"who", "name", "role"}]}``
(``who`` is ``"gm"`` or a player id; a frame without ``type``, so it is never mistaken for an event). A
player removed from the table is disconnected at once: its socket closes before any later event is sent.
What a client sends on the socket is checked and answered by :mod:`.messages`.

A socket opened with ``?state=1`` also gets the viewer's state, so a page need not fetch it after every
event: a frame ``{"kind": "state", "state": {…}}`` (exactly what ``GET /state`` answers this viewer) after
the backlog and after each batch of new events. Like ``GET /state`` it is cut by :func:`talespin.table.views.
state_json`, so it carries nothing the viewer may not see; it is built, and written as JSON text, once per
version and viewer however many pages are open; after live events, on the event loop when the campaign is
free, which costs less than a trip through a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections import defaultdict
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from ..store.port import ChangeFeed, StoredEvent
from ..table import TableError, TableService, Unauthorized, Viewer
from ..table.views import json_text
from .errors import error_body, status_of
from .messages import answer

__all__ = ["Hub", "serve_socket"]


Frame = list[StoredEvent] | dict[str, Any]
"""What a subscriber's queue carries: freshly appended events, or a presence frame."""


LISTEN_WAIT = 5.0
"""The longest a new socket waits for its campaign's announcements to flow before reading its backlog."""


@dataclass(eq=False, slots=True)
class _Subscriber:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[Frame]
    seat: dict[str, str] | None = None
    presence: bool = False
    viewer: Viewer | None = None
    heard: Future[None] | None = None
    """Done once the campaign's commits through other processes are announced here (``None``: no feed)."""

    async def hearing(self) -> None:
        """Wait (at most :data:`LISTEN_WAIT`) until other processes' commits reach this subscriber."""
        if self.heard is not None and not self.heard.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.wrap_future(self.heard), LISTEN_WAIT)


class Hub:
    """Who listens to which campaign; thread-safe. With a change ``feed`` (PostgreSQL), the campaigns
    followed by a socket are watched on it."""

    def __init__(self, feed: ChangeFeed | None = None) -> None:
        self._subscribers: dict[str, set[_Subscriber]] = defaultdict(set)
        self._lock = threading.Lock()
        self._feed = feed

    def subscribe(
        self, campaign_id: str, viewer: Viewer | None = None, *, presence: bool = False
    ) -> _Subscriber:
        """A new subscription on the running event loop; a ``viewer`` is counted as connected.

        With ``presence`` it is also told who is connected whenever that changes.
        """
        seat = None
        if viewer is not None:
            seat = {
                "who": viewer.label,
                "name": "GM" if viewer.is_gm else viewer.name or "",
                "role": viewer.role,
            }
        subscriber = _Subscriber(asyncio.get_running_loop(), asyncio.Queue(), seat, presence, viewer)
        with self._lock:
            self._subscribers[campaign_id].add(subscriber)
        if self._feed is not None:
            subscriber.heard = self._feed.watch(campaign_id)
        if seat is not None:
            self._announce(campaign_id)
        return subscriber

    def unsubscribe(self, campaign_id: str, subscriber: _Subscriber) -> None:
        """Stop delivering to ``subscriber``."""
        with self._lock:
            self._subscribers[campaign_id].discard(subscriber)
            if not self._subscribers[campaign_id]:
                del self._subscribers[campaign_id]
        if self._feed is not None:
            self._feed.unwatch(campaign_id)
        if subscriber.seat is not None:
            self._announce(campaign_id)

    def watched(self, campaign_id: str) -> bool:
        """Whether any socket of this process follows the campaign now."""
        with self._lock:
            return bool(self._subscribers.get(campaign_id))

    def viewers(self, campaign_id: str) -> set[Viewer]:
        """Whose sockets follow the campaign now (each viewer once): the service renders what they receive
        of each new batch of events ahead (:meth:`~talespin.table.TableService.render_ahead`)."""
        with self._lock:
            return {s.viewer for s in self._subscribers.get(campaign_id, ()) if s.viewer is not None}

    def online(self, campaign_id: str) -> list[dict[str, str]]:
        """Who is connected to the campaign now: one entry per seat, however many sockets it has."""
        with self._lock:
            seats = [s.seat for s in self._subscribers.get(campaign_id, ()) if s.seat is not None]
        unique = {seat["who"]: seat for seat in seats}
        return sorted(unique.values(), key=lambda seat: (seat["role"] != "gm", seat["name"]))

    def _announce(self, campaign_id: str) -> None:
        self._deliver(campaign_id, {"kind": "presence", "online": self.online(campaign_id)})

    def publish(self, campaign_id: str, events: list[StoredEvent]) -> None:
        """Hand freshly appended events to every subscriber of the campaign (any thread)."""
        self._deliver(campaign_id, events)

    def _deliver(self, campaign_id: str, frame: Frame) -> None:
        with self._lock:
            subscribers = list(self._subscribers.get(campaign_id, ()))
        if isinstance(frame, dict):
            subscribers = [s for s in subscribers if s.presence]
        by_loop: dict[asyncio.AbstractEventLoop, list[_Subscriber]] = defaultdict(list)
        for subscriber in subscribers:
            by_loop[subscriber.loop].append(subscriber)
        for loop, group in by_loop.items():  # one wake-up of each loop, not one per socket
            with contextlib.suppress(RuntimeError):  # its loop has closed: the sockets are gone
                loop.call_soon_threadsafe(_hand_out, group, frame)


def _hand_out(subscribers: list[_Subscriber], frame: Frame) -> None:
    """Put one frame in each subscriber's queue (on their event loop, in the order published)."""
    for subscriber in subscribers:
        subscriber.queue.put_nowait(frame)


def _removes(events: list[StoredEvent], viewer: Viewer) -> bool:
    """Whether ``events`` remove this viewer's seat (then nothing more may reach it)."""
    return not viewer.is_gm and any(
        e.type == "PlayerRemoved" and e.data.get("player_id") == viewer.player_id for e in events
    )


BACKLOG_BATCH = 200
"""A batching socket's backlog comes in frames of at most this many events (the last carries the state)."""


@dataclass(eq=False, slots=True)
class _Feed:
    """One socket's feed: what it asked for, how far it has been sent, the last state text it was sent.

    ``?state=1`` adds the viewer's state after the backlog and after each batch of events; ``?batch=1``
    sends each batch, and the state with it, as one frame ``{"kind": "batch", "version", "events",
    "state"?}`` instead of a frame per event and a state frame: a third of the writes after a command, and
    no frame at all when nothing this viewer may see has changed.
    """

    websocket: WebSocket
    service: TableService
    campaign_id: str
    viewer: Viewer
    with_state: bool
    batch: bool
    mark: int = 0
    """The log's version up to which events have been handed to this socket."""
    sent_state: str | None = None
    """The text of the last state this socket was sent (a batch is skipped when it would repeat it)."""

    async def state_text(self, *, now: bool = False) -> str:
        """The viewer's state as JSON text; with ``now`` (after live events) built on the event loop if the
        campaign is free, else (and on connecting, when the state may be the first built) on a worker
        thread. The text is written once per version and viewer and shared by all of its sockets."""
        text = self.service.live_state_text_now(self.campaign_id, self.viewer) if now else None
        if text is None:  # a command holds the campaign: wait for it on a worker thread, not here
            text = await run_in_threadpool(self.service.live_state_text, self.campaign_id, self.viewer)
        return text

    async def send(
        self, events: list[dict[str, Any]], *, now: bool, last: bool = True, texts: list[str] | None = None
    ) -> None:
        """Send ``events`` (as this viewer may see them, with their JSON ``texts`` when written already)
        and, when asked for and ``last``, the state."""
        state = await self.state_text(now=now) if self.with_state and last else None
        if texts is None:
            texts = [json_text(event) for event in events]
        if not self.batch:
            for text in texts:
                await self.websocket.send_text(text)
            if state is not None:
                await self.websocket.send_text(f'{{"kind":"state","state":{state}}}')
            return
        if not events and (state is None or state == self.sent_state):
            return  # nothing new for this viewer: no frame, so nothing hidden shows as a frame
        version = events[-1]["version"] if events else json.loads(state or "{}").get("version", 0)
        text = f'{{"kind":"batch","version":{json_text(version)},"events":[{",".join(texts)}]'
        await self.websocket.send_text(text + (f',"state":{state}}}' if state is not None else "}"))
        if state is not None:
            self.sent_state = state

    async def backlog(self, after: int | None) -> bool:
        """The events after ``after`` (as the viewer counts them), then the state when asked for;
        ``False`` (and the socket closed) if the viewer lost its seat before the backlog was read.

        A removal committed before the backlog was read is in no live frame (its version is at most
        :attr:`mark`), so the backlog refuses a removed player; a removal after that arrives live.
        """
        try:
            self.mark, _, missed, _ = await run_in_threadpool(
                self.service.marked_backlog, self.campaign_id, self.viewer, after
            )
        except Unauthorized:
            await self.websocket.close(code=4403)
            return False
        if not self.batch:
            await self.send(missed, now=False)
            return True
        chunks = [missed[i : i + BACKLOG_BATCH] for i in range(0, len(missed), BACKLOG_BATCH)] or [[]]
        for number, chunk in enumerate(chunks, start=1):
            await self.send(chunk, now=False, last=number == len(chunks))
        return True

    async def forward(self, frame: Frame) -> bool:
        """Send one queued frame as the viewer may see it; ``False`` once the socket is closed."""
        if isinstance(frame, dict):
            await self.websocket.send_json(frame)
            return True
        fresh = [stored for stored in frame if stored.version > self.mark]
        if _removes(fresh, self.viewer):
            await self.websocket.close(code=4403)
            return False
        if fresh:
            self.mark = fresh[-1].version
            ready = self.service.rendered(self.campaign_id, self.viewer, fresh)
            if ready is not None:  # rendered as it was taken in, the usual case
                await self.send(ready[0], now=True, texts=ready[1])
                return True
            shown = self.service.visible_now(self.campaign_id, self.viewer, fresh)
            if shown is None:  # a command holds the campaign: wait for it on a worker thread, not here
                shown = await run_in_threadpool(self.service.visible, self.campaign_id, self.viewer, fresh)
            await self.send(shown, now=True)
        return True


async def _close_with_error(websocket: WebSocket, error: Exception) -> None:
    await websocket.accept()
    await websocket.send_json(error_body(error))
    await websocket.close(code=4000 + status_of(error))


_GONE: dict[str, Any] = {"kind": "gone"}
"""Put in a subscriber's queue (this very object) when its client has gone: the socket stops."""


async def _reply(websocket: WebSocket, subscriber: _Subscriber) -> None:
    """Answer every message the client sends (:mod:`.messages`) until it goes, then stop its socket."""
    try:
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                return
            await websocket.send_json(answer(received))
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the connection is gone (or closed under the reply)
    finally:
        subscriber.queue.put_nowait(_GONE)


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
    subscriber = hub.subscribe(campaign_id, viewer, presence=websocket.query_params.get("presence") == "1")
    replying: asyncio.Future[None] | None = None
    feed = _Feed(
        websocket,
        service,
        campaign_id,
        viewer,
        with_state=websocket.query_params.get("state") == "1",
        batch=websocket.query_params.get("batch") == "1",
    )
    try:
        await subscriber.hearing()  # so that what other processes commit next is announced here
        if not await feed.backlog(after):
            return
        replying = asyncio.ensure_future(_reply(websocket, subscriber))
        while True:  # one awaited get per frame: no task, no wait set up for each
            frame = await subscriber.queue.get()
            if frame is _GONE or not await feed.forward(frame):
                return
    except WebSocketDisconnect:
        return
    finally:
        if replying is not None:
            replying.cancel()
        hub.unsubscribe(campaign_id, subscriber)
