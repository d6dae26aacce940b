"""Paging the record: the events one answer may carry, so no read costs more than a bounded amount of work.

``GET …/events`` and ``GET …/export`` answer one page: the events after version ``after`` up to ``limit``
versions further on (at most :data:`MAX_EVENTS_PAGE` or :data:`MAX_EXPORT_PAGE`), in the viewer's own
numbering (a player's stream, :mod:`.stream`; the log's versions for the GM). A page counts versions, so a
GM's page may hold fewer events than its limit where the server's own events (a seed not revealed yet)
are not shown. ``next`` is the ``after`` of the following page, ``null`` on the last.

A client reads the whole record by asking again with ``after=next`` until ``next`` is ``null``;
:func:`join_pages` puts JSON export pages back together into the one export ``talespin verify`` reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any, Final

from .auth import Viewer
from .ledger import Ledger
from .stream import stream
from .views import version_for, visible_events

__all__ = ["MAX_EVENTS_PAGE", "MAX_EXPORT_PAGE", "join_pages", "page_of"]

MAX_EVENTS_PAGE: Final = 500
"""The most versions one ``events`` answer covers (its default ``limit`` too)."""
MAX_EXPORT_PAGE: Final = 5000
"""The most versions one export page covers (its default ``limit`` too)."""


def page_of(
    ledger: Ledger, viewer: Viewer, after: int, limit: int
) -> tuple[list[dict[str, Any]], int | None]:
    """The events ``viewer`` may see of versions ``after``+1 … ``after``+``limit``, and the next ``after``."""
    version = version_for(ledger, viewer)
    start = min(max(after, 0), version)
    stop = start + max(limit, 1)
    if viewer.is_gm:
        shown = visible_events(ledger, viewer, ledger.log[start:stop])
    else:
        shown = [dict(event) for event in stream(ledger, viewer).events[start:stop]]
    return shown, (stop if stop < version else None)


def join_pages(pages: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The one export that JSON export ``pages`` (in any order) are pages of (ValueError if they are not).

    Every page must be of the same campaign and viewer, and each must start where the one before ended.
    The joined export keeps the last page's version, chain, state and seeds; it is whole (``after`` 0,
    ``next`` null) only when the pages were, else :func:`~.verify.verify_export` says it is incomplete.
    """
    if not pages:
        raise ValueError("no export page given")
    for page in pages:
        if not isinstance(page, Mapping) or not isinstance(page.get("events"), list):
            raise ValueError("a page holds no events list: not a talespin export")
    ordered = sorted(pages, key=lambda page: int(page.get("after") or 0))
    first, last = ordered[0], ordered[-1]
    for page in ordered[1:]:
        if page.get("campaign") != first.get("campaign") or page.get("viewer") != first.get("viewer"):
            raise ValueError("the pages are of different campaigns or viewers")
    for before, page in pairwise(ordered):
        if before.get("next") != page.get("after"):
            raise ValueError(
                f"the pages do not follow each other: one ends before version {before.get('next')}, the "
                f"next starts after version {page.get('after')}"
            )
    joined = dict(last)
    joined["events"] = [event for page in ordered for event in page["events"]]
    joined["after"] = first.get("after", 0)
    joined["next"] = last.get("next")
    joined["limit"] = None if len(ordered) > 1 else last.get("limit")
    return joined
