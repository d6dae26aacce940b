"""Short, steady garbage collection for a serving process, so no command waits behind a long pause.

CPython frees most objects by reference counting; its cycle collector is for the rest. Every now and
then that collector walks *every* object of the oldest generation, and a table keeps a great many alive:
each campaign's ledger, its entries, events and states. With a hundred campaigns that full walk measured
100–220 ms, a pause in which the whole process answers nothing, and it came every few seconds under load:
most commands took 5 ms, but one in twenty waited behind a pause, so the 99th percentile was the pause.

:class:`SteadyCollector` keeps those walks short. Four times a second (:data:`PASS_EVERY`) it collects
and then *freezes* what survived (``gc.freeze``): frozen objects are left out of every later collection,
so each pass walks only what the last quarter of a second left alive, a few milliseconds of work. Frozen
objects are still freed by reference counting, as every object is; only a cycle of garbage that reaches
into frozen objects waits, and every :data:`FULL_EVERY` seconds one full pass (unfreeze, collect, freeze)
reclaims those too, so nothing is kept for good.

Only a process that serves the table starts one (``talespin serve`` and its workers); an app built in
tests or in a notebook leaves the interpreter's collector as it is.
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Final

__all__ = ["FULL_EVERY", "PASS_EVERY", "SteadyCollector"]

PASS_EVERY: Final = 0.25
"""Seconds between two short passes (collect what is not frozen, then freeze the survivors)."""

FULL_EVERY: Final = 600.0
"""Seconds between two full passes over every object, frozen ones included."""


class SteadyCollector:
    """A daemon thread that collects garbage in short, regular passes (see the module's docstring).

    >>> collector = SteadyCollector(every=0.01, full_every=1.0)
    >>> collector.start()
    >>> collector.stop()
    >>> collector.full_passes >= 1  # the one at start
    True
    """

    def __init__(self, *, every: float = PASS_EVERY, full_every: float = FULL_EVERY) -> None:
        if every <= 0 or full_every < every:
            raise ValueError("a pass needs every > 0 and full_every >= every")
        self.every = every
        self.full_every = full_every
        self.passes = 0
        """Short passes made so far."""
        self.full_passes = 0
        """Full passes made so far (the first, at start, included)."""
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Make a full pass now (what start-up built is frozen at once), then keep passing until stopped."""
        if self._thread is not None:
            raise RuntimeError("this collector has already started")
        self._full_pass()
        self._thread = threading.Thread(target=self._run, name="talespin-collector", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop passing and give every frozen object back to the interpreter's own collector."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
        gc.unfreeze()

    def _run(self) -> None:
        last_full = time.monotonic()
        while not self._stopping.wait(self.every):
            if time.monotonic() - last_full >= self.full_every:
                self._full_pass()
                last_full = time.monotonic()
            else:
                gc.collect()  # walks only what is not frozen: what the last pass left alive since
                gc.freeze()
                self.passes += 1

    def _full_pass(self) -> None:
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.full_passes += 1
