"""The routes of table talk and seats: chat and whispers, removing a player, handing a character on.

They are the table's own facts (see :mod:`talespin.table.talk`), so they have routes of their own rather
than ``do:`` commands: none is an entry in the log, ``undo`` never touches them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi import Path as PathParam
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..table import TableService, Viewer
from .models import ChatRequest, HandRequest, RemoveRequest

__all__ = ["add_talk_routes"]

CampaignId = Annotated[str, PathParam(min_length=1, max_length=64)]
_bearer = HTTPBearer(auto_error=False, description="The GM's or a player's token")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
ViewerOf = Callable[[str, HTTPAuthorizationCredentials | None], Viewer]


def add_talk_routes(router: APIRouter, service: TableService, viewer: ViewerOf) -> None:
    """Add the chat and seat routes to ``router``; ``viewer`` reads who holds the request's token."""

    @router.post("/api/campaigns/{campaign_id}/chat", status_code=201, tags=["table"])
    def chat(campaign_id: CampaignId, body: ChatRequest, credentials: Credentials) -> dict[str, Any]:
        """Table talk: ``{"version", "event"}``; a whisper reaches the GM and the one player it is with."""
        return service.say(campaign_id, viewer(campaign_id, credentials), body.text, body.to)

    @router.post("/api/campaigns/{campaign_id}/seats/remove", tags=["campaigns"])
    def remove_player(
        campaign_id: CampaignId, body: RemoveRequest, credentials: Credentials
    ) -> dict[str, int]:
        """The GM removes a player: its link stops working, its characters pass to the GM."""
        who = viewer(campaign_id, credentials)
        return {"version": service.remove_player(campaign_id, who, body.player_id)}

    @router.post("/api/campaigns/{campaign_id}/seats/hand", tags=["campaigns"])
    def hand_character(
        campaign_id: CampaignId, body: HandRequest, credentials: Credentials
    ) -> dict[str, int]:
        """The GM hands a character to another player (``to``: its id) or takes it (``to``: null)."""
        who = viewer(campaign_id, credentials)
        return {"version": service.hand_character(campaign_id, who, body.character, body.to)}
