"""The routes that read the record, ``events`` and ``export``: one bounded page at a time.

See :mod:`talespin.table.pages` for how a page is cut and how a client reads the whole record.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..table import TableService, Viewer, export_json, export_markdown
from ..table.pages import MAX_EVENTS_PAGE, MAX_EXPORT_PAGE, page_of
from ..table.views import head as chain_head
from ..table.views import version_for

__all__ = ["add_record_routes"]

CampaignId = Annotated[str, PathParam(min_length=1, max_length=64)]
After = Annotated[int, Query(ge=0, le=2**53, description="The version the page starts after.")]
_bearer = HTTPBearer(auto_error=False, description="The GM's or a player's token")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
ViewerOf = Callable[[str, HTTPAuthorizationCredentials | None], Viewer]


def add_record_routes(router: APIRouter, service: TableService, viewer: ViewerOf) -> None:
    """Add ``events`` and ``export`` to ``router``; ``viewer`` reads who holds the request's token."""

    @router.get("/api/campaigns/{campaign_id}/events", tags=["table"], response_model=None)
    def events(
        campaign_id: CampaignId,
        credentials: Credentials,
        after: After = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_EVENTS_PAGE)] = MAX_EVENTS_PAGE,
    ) -> JSONResponse:
        """One page of the events after version ``after`` (``limit`` versions at most), as this token may
        see them: ``{"version", "events", "head", "limit", "next"}``; ``next`` is the ``after`` of the next
        page, ``null`` on the last."""
        who = viewer(campaign_id, credentials)
        service.refresh(campaign_id)
        with service.locked(campaign_id):
            ledger = service.ledger(campaign_id)
            listed, following = page_of(ledger, who, after, limit)
            head = chain_head(ledger, who)
            body = {
                "version": version_for(ledger, who),
                "events": listed,
                "head": head,
                "limit": limit,
                "next": following,
            }
        return JSONResponse(body)

    @router.get("/api/campaigns/{campaign_id}/export", tags=["table"], response_model=None)
    def export(
        campaign_id: CampaignId,
        credentials: Credentials,
        format: Annotated[Literal["json", "markdown"], Query()] = "json",
        after: After = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_EXPORT_PAGE)] = MAX_EXPORT_PAGE,
    ) -> JSONResponse | PlainTextResponse:
        """The session record as this token may see it, as JSON or Markdown, one page of ``limit``
        versions after ``after`` (``next``: the ``after`` of the next page, ``null`` on the last)."""
        who = viewer(campaign_id, credentials)
        service.refresh(campaign_id)
        with service.locked(campaign_id):
            ledger = service.ledger(campaign_id)
            if format == "markdown":
                text = export_markdown(ledger, who, after=after, limit=limit)
                return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")
            return JSONResponse(export_json(ledger, who, after=after, limit=limit))
