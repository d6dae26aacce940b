"""How ``talespin serve`` runs the app: one process, or N worker processes on one port over PostgreSQL.

With ``--workers N`` uvicorn starts N processes that share the listening socket; each imports
:func:`worker_app`, which builds its own app from the environment the parent set (:data:`DB_VARIABLE`,
:data:`SCHEMA_VARIABLE`), with its own connections and its own LISTEN link. They agree through PostgreSQL
alone: commands are decided against the database's versions, and every commit is announced to all of them.

SQLite is one process's store. Several processes on one file would each keep their answers right (every read
checks the file's newest version), but a WebSocket would hear only of commits made through its own process,
so a second server on the same file is refused at start (:func:`claim_sqlite`) and ``--workers`` asks for
PostgreSQL.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

from fastapi import FastAPI
from sqlalchemy.engine import make_url

from ..store.sql import engine_url
from .app import create_app
from .throttle import RateLimits

__all__ = [
    "DB_VARIABLE",
    "LIMITS_VARIABLE",
    "ORIGINS_VARIABLE",
    "SCHEMA_VARIABLE",
    "SingleProcessStore",
    "claim_sqlite",
    "is_sqlite",
    "worker_app",
]

DB_VARIABLE = "TALESPIN_SERVE_DB"
"""The store URL a worker process opens."""
SCHEMA_VARIABLE = "TALESPIN_SERVE_SCHEMA"
"""The PostgreSQL schema a worker process keeps its tables in (unset: the database's default)."""
LIMITS_VARIABLE = "TALESPIN_SERVE_LIMITS"
"""The rate limits of a worker process, as ``--limits`` takes them (unset: the defaults)."""
ORIGINS_VARIABLE = "TALESPIN_SERVE_ORIGINS"
"""The other origins allowed to open a worker's WebSocket, separated by spaces."""


class SingleProcessStore(Exception):
    """Another server already holds this SQLite file, or several workers were asked for on SQLite."""


def is_sqlite(url: str) -> bool:
    """Whether ``url`` (as ``--db`` takes it) names a SQLite store."""
    return engine_url(url).startswith("sqlite")


def claim_sqlite(url: str) -> IO[str] | None:
    """Hold the SQLite file's serve lock for this process's life (the returned file); None for PostgreSQL.

    The lock is ``FILE.serve-lock`` beside the database, taken with ``flock``: the kernel lets it go when the
    process ends in any way, SIGKILL included, so a restarted server never finds a stale lock.
    """
    if not is_sqlite(url):
        return None
    database = make_url(engine_url(url)).database
    if not database or database == ":memory:":
        return None
    path = Path(database).with_name(Path(database).name + ".serve-lock")
    handle = path.open("a", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise SingleProcessStore(
            f"another talespin serve already runs on {database}: one SQLite file serves one process "
            "(its live updates reach only that process's clients); for several processes use PostgreSQL "
            "(--db postgresql://…)"
        ) from None
    return handle


def worker_app() -> FastAPI:
    """The app of one worker process, over the store the parent named in the environment."""
    return create_app(
        os.environ[DB_VARIABLE],
        schema=os.environ.get(SCHEMA_VARIABLE) or None,
        limits=RateLimits.parse(os.environ.get(LIMITS_VARIABLE, "")),
        origins=os.environ.get(ORIGINS_VARIABLE, "").split(),
        steady_collection=True,
    )
