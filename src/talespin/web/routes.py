"""The API routes of the game table (see ``contracts.md``, "The game table over HTTP").

Route functions are plain ``def``: the server runs them in its thread pool, and the table service serialises
commands per campaign. Each one authenticates through the bearer token, calls the service, and returns JSON;
errors travel as exceptions to :mod:`.errors`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, WebSocket
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..documents import DocumentError, read_source
from ..store.port import ChangeFeed
from ..systems import MalformedCommand, entries, get_system, system_names
from ..table import TableService, Viewer
from ..table.shape import check_input
from ..table.sheet_text import read_sheet_text
from .errors import UnknownSystem
from .live import Hub, serve_socket
from .models import CommandRequest, DocumentRequest, JoinRequest, NewCampaign, SheetRequest
from .odds_advice import odds_with_advice
from .record_routes import add_record_routes
from .talk_routes import add_talk_routes

__all__ = ["api_router"]

CampaignId = Annotated[str, PathParam(min_length=1, max_length=64)]
_bearer = HTTPBearer(auto_error=False, description="The GM's or a player's token")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def api_router(service: TableService, hub: Hub, feed: ChangeFeed | None = None) -> APIRouter:
    """Every ``/api`` route, bound to one table service, its live hub and the store's change feed."""
    router = APIRouter()

    def viewer(campaign_id: str, credentials: HTTPAuthorizationCredentials | None) -> Viewer:
        return service.viewer(campaign_id, credentials.credentials if credentials else None)

    @router.get("/api/health", tags=["meta"], response_model=None)
    def health() -> JSONResponse:
        """Liveness for a load balancer: the store's kind and the LISTEN link; 503 while the link is down.

        ``listen`` is ``"up"`` or ``"down"`` on PostgreSQL and ``"none"`` on SQLite (one process only).
        Nothing here touches the database, so the check stays cheap however often a proxy asks.
        """
        listen = "none" if feed is None else ("up" if feed.linked else "down")
        status = "degraded" if listen == "down" else "ok"
        body = {"status": status, "store": service.store.kind, "listen": listen}
        return JSONResponse(body, status_code=503 if status == "degraded" else 200)

    @router.get("/api/systems", tags=["meta"])
    def systems() -> dict[str, Any]:
        """The rule systems a campaign may use, and (``registry``) each one's aliases and label."""
        return {"systems": system_names(), "registry": [entry.to_json() for entry in entries()]}

    @router.post("/api/campaigns", status_code=201, tags=["campaigns"])
    def create_campaign(body: NewCampaign) -> dict[str, Any]:
        """A new campaign: the GM token and the invite token are shown only here, once."""
        made = service.create_campaign(body.name, body.system, body.variant)
        return {
            "id": made.id,
            "gm_token": made.gm_token,
            "invite_token": made.invite_token,
            "version": made.version,
            "gm_link": f"/table.html#campaign={made.id}&token={made.gm_token}",
            "invite_link": f"/join.html#campaign={made.id}&invite={made.invite_token}",
        }

    @router.post("/api/campaigns/{campaign_id}/join", status_code=201, tags=["campaigns"])
    def join(campaign_id: CampaignId, body: JoinRequest) -> dict[str, Any]:
        """A player joins with the invite token and gets its own token."""
        joined = service.join(campaign_id, body.invite_token, body.name)
        return {"player_token": joined.player_token, "player_id": joined.player_id, "version": joined.version}

    @router.post("/api/campaigns/{campaign_id}/invite", status_code=201, tags=["campaigns"])
    def invite(campaign_id: CampaignId, credentials: Credentials) -> dict[str, Any]:
        """The GM's fresh invite token and link; the previous invite stops working, players keep theirs."""
        token = service.renew_invite(campaign_id, viewer(campaign_id, credentials))
        return {"invite_token": token, "invite_link": f"/join.html#campaign={campaign_id}&invite={token}"}

    add_talk_routes(router, service, viewer)

    # The table's answers are JSON-ready already: JSONResponse skips a second encoding pass.
    @router.post("/api/campaigns/{campaign_id}/commands", tags=["table"], response_model=None)
    def command(campaign_id: CampaignId, body: CommandRequest, credentials: Credentials) -> JSONResponse:
        """One command (``{"do": …}``) expected to follow ``expected_version``: ``{"version", "events"}``."""
        who = viewer(campaign_id, credentials)
        version, events = service.command(campaign_id, who, body.command, body.expected_version, body.nonce)
        head = events[-1]["head"] if events else service.head(campaign_id, who)
        return JSONResponse({"version": version, "events": events, "head": head})

    @router.get("/api/campaigns/{campaign_id}/state", tags=["table"], response_model=None)
    def state(campaign_id: CampaignId, credentials: Credentials) -> JSONResponse:
        """The campaign as this token may see it, with its version."""
        return JSONResponse(service.state(campaign_id, viewer(campaign_id, credentials)))

    add_record_routes(router, service, viewer)

    @router.post("/api/campaigns/{campaign_id}/odds", tags=["table"])
    def odds(
        campaign_id: CampaignId, credentials: Credentials, query: Annotated[dict[str, Any], Body()]
    ) -> dict[str, Any]:
        """The system's odds for a query (see docs/state-views.md) against the current state."""
        return odds_with_advice(service, campaign_id, viewer(campaign_id, credentials), query)

    @router.post("/api/campaigns/{campaign_id}/validate", tags=["table"])
    def validate_for_campaign(
        campaign_id: CampaignId, body: SheetRequest, credentials: Credentials
    ) -> dict[str, Any]:
        """A sheet checked against this campaign's rules, variant included: ``{"valid", "cost", "errors"}``.

        The same verdict ``add_character`` reaches, so the sheet editor never approves a sheet the campaign
        will refuse. Any token of the campaign may ask, the invite too (a player writes its sheet before it
        joins); the sheet comes as ``sheet`` or as ``text`` (read as the CLI reads a file, the answer then
        also holding ``"sheet"``, the data read).
        """
        service.sheet_checker(campaign_id, credentials.credentials if credentials else None)
        return service.validate_sheet(campaign_id, body.sheet, body.text, body.kind)

    @router.post("/api/systems/{system}/validate", tags=["meta"])
    def validate(system: Annotated[str, PathParam(max_length=64)], body: SheetRequest) -> dict[str, Any]:
        """A character or hero sheet checked against every sheet rule: ``{"valid", "cost", "errors"}``."""
        try:
            rules = get_system(system)
        except MalformedCommand as error:
            raise UnknownSystem(error.message) from None
        if body.text is not None:
            return read_sheet_text(rules, body.text, body.kind)
        check_input(body.sheet, what="sheet")
        return rules.validate_sheet(body.sheet)

    @router.post("/api/documents", tags=["meta"])
    def read_document(body: DocumentRequest) -> dict[str, Any]:
        """A YAML or JSON text read as the CLI reads a file: ``{"data", "repeated"}``, or a 422 naming why.

        The pages send what a person pasted or uploaded (a sheet, a variant, a list of enemies) and use the
        data the server read, so a text means the same on a page as in ``talespin … FILE``.
        """
        try:
            document = read_source("the text", body.text, body.kind)
        except DocumentError as error:
            raise MalformedCommand(error.message, code=error.code, path=error.path) from None
        return {"data": document.data, "repeated": document.repeated}

    @router.websocket("/api/campaigns/{campaign_id}/ws")
    async def live(websocket: WebSocket, campaign_id: str) -> None:
        """Each new event as this token may see it, in order; ``?after=n`` first sends what was missed."""
        await serve_socket(websocket, service, hub, campaign_id)

    return router
