"""Deterministic sources for a table service: the same run twice gives the same ids, tokens, times, nonces."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable


def counter(prefix: str, width: int = 0) -> Callable[[], str]:
    """``prefix0``, ``prefix1``, … (zero-padded to ``width``)."""
    numbers = itertools.count()
    return lambda: f"{prefix}{next(numbers):0{width}d}"


def sources(tag: str = "run") -> dict[str, Callable[[], str]]:
    """Clock, ids, tokens and server nonces that repeat exactly for the same ``tag``."""
    ticks = itertools.count()
    nonces = itertools.count()
    return {
        "clock": lambda: f"2026-01-01T00:00:{next(ticks) % 60:02d}.{next(ticks):06d}+00:00",
        "ids": counter(f"{tag}-id-"),
        "tokens": counter(f"{tag}-token-", 8),
        "nonces": lambda: hashlib.sha256(f"{tag}:{next(nonces)}".encode()).hexdigest()[:32],
    }


def seeds(tag: str) -> Callable[[], bytes]:
    """Seeds that repeat exactly for the same ``tag`` (and differ for another)."""
    numbers = itertools.count()
    return lambda: hashlib.sha256(f"seed:{tag}:{next(numbers)}".encode()).digest()
