"""Group commit: writers that arrive while a commit is under way share the next one.

Each durable commit costs a flush to disk (``synchronous=FULL``). When many campaigns write at once, the
first writer to take the lock becomes the *leader*: it takes every write waiting in the queue, runs each in
its own SAVEPOINT (so one write's conflict does not undo another's), commits once, and hands each writer its
own result or error. Writers that queued meanwhile find their work done when they get the lock. Nothing is
acknowledged before the commit that makes it durable has returned.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

__all__ = ["GroupCommit"]

T = TypeVar("T")


@dataclass(eq=False, slots=True)
class _Ticket(Generic[T]):
    work: Callable[[Connection], T]
    value: T | None = None
    error: BaseException | None = None
    done: bool = False


class GroupCommit:
    """Run writes on ``engine`` one leader at a time, many writes per transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._queue_lock = threading.Lock()
        self._pending: list[_Ticket[object]] = []

    def run(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in a transaction shared with concurrent writers; its result once durable."""
        ticket: _Ticket[T] = _Ticket(work)
        with self._queue_lock:
            self._pending.append(ticket)  # type: ignore[arg-type]
        with self._lock:
            if not ticket.done:
                with self._queue_lock:
                    batch, self._pending = self._pending, []
                self._commit(batch)
        if ticket.error is not None:
            raise ticket.error
        return ticket.value  # type: ignore[return-value]

    def _commit(self, batch: list[_Ticket[object]]) -> None:
        try:
            with self.engine.begin() as connection:
                for ticket in batch:
                    try:
                        with connection.begin_nested():
                            ticket.value = ticket.work(connection)
                    except Exception as error:  # handed to its own writer, not swallowed
                        ticket.error = error
        except Exception as error:  # the commit failed: no write of it is durable
            for ticket in batch:
                if ticket.error is None:
                    ticket.value, ticket.error = None, error
        finally:
            for ticket in batch:
                ticket.done = True
