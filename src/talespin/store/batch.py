"""Group commit: writers that arrive while a commit is under way share the next one.

Each durable commit costs a flush to disk (``synchronous=FULL``). When many campaigns write at once, a
writer that finds no commit under way becomes the *leader*: it takes every write waiting in the queue, runs
each in its own SAVEPOINT (so one write's conflict does not undo another's), commits once, and hands each
writer its own result or error. Writers that queued meanwhile wait; when the commit ends, those whose work is
done return and one of the others leads the next batch with everything that queued, so no writer waits more
than about two commits. Nothing is acknowledged before the commit that makes it durable has returned.
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
        self._turn = threading.Condition()
        self._leading = False
        self._pending: list[_Ticket[object]] = []

    def run(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in a transaction shared with concurrent writers; its result once durable."""
        ticket: _Ticket[T] = _Ticket(work)
        with self._turn:
            self._pending.append(ticket)  # type: ignore[arg-type]
            while self._leading and not ticket.done:
                self._turn.wait()
            if not ticket.done:
                self._leading = True
                batch, self._pending = self._pending, []
        if not ticket.done:
            try:
                self._commit(batch)
            finally:
                with self._turn:
                    self._leading = False
                    self._turn.notify_all()
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
