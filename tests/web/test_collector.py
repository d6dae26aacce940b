"""The serving process's garbage collector: short passes that freeze survivors, a full pass that frees all.

These check what the passes *do* (garbage freed, survivors frozen, the interpreter's collector given back);
how short the pauses are is a benchmark's question (``bench/bench_cluster.py``), not a test's.
"""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Callable, Iterator

import pytest

from talespin.web.collector import SteadyCollector


class Node:
    """An object that can sit in a reference cycle (reference counting alone never frees one)."""

    def __init__(self) -> None:
        self.partner: Node | None = None


def _eventually(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def _cycle() -> weakref.ref[Node]:
    first, second = Node(), Node()
    first.partner, second.partner = second, first
    return weakref.ref(first)


@pytest.fixture
def collector() -> Iterator[SteadyCollector]:
    running = SteadyCollector(every=0.02, full_every=0.5)
    running.start()
    yield running
    running.stop()


def test_a_cycle_of_fresh_garbage_is_freed_by_a_short_pass(collector: SteadyCollector) -> None:
    gc.disable()  # only the collector's passes may free it
    try:
        dead = _cycle()
        assert dead() is not None
        assert _eventually(lambda: dead() is None)
    finally:
        gc.enable()


def test_survivors_are_frozen_and_a_full_pass_frees_garbage_that_was_frozen() -> None:
    collector = SteadyCollector(every=0.02, full_every=2.0)
    collector.start()
    gc.disable()
    try:
        frozen = gc.get_freeze_count()
        kept = Node()
        kept.partner = kept  # a cycle, still referenced from here
        assert _eventually(lambda: gc.get_freeze_count() > frozen)
        frozen_before = collector.full_passes
        held = weakref.ref(kept)
        passes = collector.passes
        assert _eventually(lambda: collector.passes > passes + 1)  # kept has been frozen by now
        del kept  # garbage now, but frozen: the short passes leave it
        assert held() is not None
        assert _eventually(lambda: collector.full_passes > frozen_before)
        assert _eventually(lambda: held() is None)
    finally:
        gc.enable()
        collector.stop()


def test_stopping_gives_every_frozen_object_back() -> None:
    running = SteadyCollector(every=0.02, full_every=1.0)
    running.start()
    assert gc.get_freeze_count() > 0
    running.stop()
    assert gc.get_freeze_count() == 0
    assert running.full_passes >= 1


@pytest.mark.parametrize(("every", "full_every"), [(0.0, 1.0), (-1.0, 1.0), (1.0, 0.5)])
def test_passes_need_a_positive_period_and_a_longer_full_one(every: float, full_every: float) -> None:
    with pytest.raises(ValueError, match="every > 0"):
        SteadyCollector(every=every, full_every=full_every)


def test_a_collector_starts_once() -> None:
    running = SteadyCollector(every=0.02, full_every=1.0)
    running.start()
    try:
        with pytest.raises(RuntimeError, match="already started"):
            running.start()
    finally:
        running.stop()
