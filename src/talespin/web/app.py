"""The HTTP app: a FastAPI factory serving the table's API, its WebSocket and the browser pages.

``create_app(store_url)`` opens (and migrates) the store, rebuilds every campaign's state by replay, and
wires the routes. On PostgreSQL the app also LISTENs for other processes' commits while it runs (the store's
change feed, started and stopped with the app's lifespan), so several processes can serve one database: a
commit to a campaign that a socket of this process follows is announced, read and pushed at once; the
others are not announced to this process at all, and are brought up to date when next read.
Sync route functions run in the server's thread pool, commands in the command lane's (:mod:`.command_lane`);
the table service serialises commands per campaign.
See ``contracts.md`` ("The game table over HTTP") for the endpoints and :mod:`.errors` for how every
failure maps to a status code.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ..store import open_store
from ..table import TableService
from ..table.fairness import draw_seed
from .collector import SteadyCollector
from .command_lane import CommandLane
from .errors import install_error_handlers
from .gate import Gate
from .lab_routes import lab_router
from .limits import MAX_BODY
from .live import Hub
from .routes import api_router
from .throttle import RateLimits, SharedRates

__all__ = ["DEFAULT_LIMITS", "STATIC", "create_app"]

STATIC = Path(__file__).with_name("static")
"""The browser pages, served at ``/``."""

DEFAULT_LIMITS = RateLimits()
"""The rate limits a server runs with unless told otherwise (see :mod:`.throttle`)."""

_PLACEHOLDER = "<!doctype html><title>talespin</title><p>The talespin table is running.</p>\n"


def _static_dir() -> Path:
    if not (STATIC / "index.html").exists():
        STATIC.mkdir(parents=True, exist_ok=True)
        (STATIC / "index.html").write_text(_PLACEHOLDER)
    return STATIC


def _shared_rates(store: object) -> SharedRates | None:
    """The rate limits kept in the store for every process on it (PostgreSQL), else ``None``."""
    shared = getattr(store, "shared_rates", None)
    return shared() if callable(shared) else None


def create_app(
    store_url: str,
    *,
    schema: str | None = None,
    max_body: int = MAX_BODY,
    seeds: Callable[[], bytes] = draw_seed,
    sources: Mapping[str, Callable[[], str]] | None = None,
    limits: RateLimits = DEFAULT_LIMITS,
    origins: Iterable[str] = (),
    steady_collection: bool = False,
) -> FastAPI:
    """The whole app over the store at ``store_url`` (``sqlite:///talespin.db``, ``postgresql://…``).

    ``sources`` may replace where the service takes its ``clock``, ``ids``, ``tokens`` and ``nonces`` from
    (see :class:`~talespin.table.TableService`): tests make them deterministic to compare runs byte for byte.
    ``limits`` are the rate limits (:mod:`.throttle`); ``origins`` are the pages' origins, besides the
    server's own, that may open its WebSocket (:mod:`.guard`). ``steady_collection`` makes the process collect
    its garbage in short, regular passes while the app runs (:mod:`.collector`): for a serving process only,
    as it changes the whole interpreter's collector.
    """
    store = open_store(store_url, schema=schema)
    service = TableService(store, seeds=seeds, **dict(sources or {}))
    feed = store.changes()
    hub = Hub(feed)
    service.listen(hub.publish)
    service.render_ahead(hub.viewers)
    service.load_all()
    lane = CommandLane(service)
    collector = SteadyCollector() if steady_collection else None

    def heard(campaign_id: str, version: int) -> None:
        # Sockets here wait for the commit: read it now and push it. A campaign no socket of this process
        # follows is not announced (once its last socket has gone, maybe once more) and is read when next
        # asked for (every read checks the store's newest version first).
        if hub.watched(campaign_id):
            service.follow(campaign_id, version)

    def on_link(up: bool) -> None:
        if up:
            service.resync()  # nothing was announced while the link was down: read what was missed

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if feed is not None:
            feed.start(heard, on_link)
        if collector is not None:
            collector.start()
        yield
        if collector is not None:
            collector.stop()
        if feed is not None:
            feed.stop()
        lane.close()
        store.close()

    app = FastAPI(
        title="talespin table",
        version="1",
        description="The live game table for Inciting Incident and Ascend.",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.store = store
    app.state.hub = hub
    app.state.feed = feed
    install_error_handlers(app)
    # One layer for the security headers, the Origin check, the rate limits and the body cap (in that order:
    # refusals carry the headers too), and the command lane beside the framework's routing.
    app.add_middleware(
        Gate,
        limits=limits,
        shared=_shared_rates(store),
        origins=tuple(origins),
        max_body=max_body,
        lane=lane,
    )

    app.include_router(api_router(service, hub, feed))
    app.include_router(lab_router())
    app.mount("/", StaticFiles(directory=_static_dir(), html=True), name="static")
    return app
