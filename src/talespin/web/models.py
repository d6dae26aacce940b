"""The request bodies of the HTTP API, as pydantic models (they give ``/openapi.json`` its schemas).

Commands themselves stay free-form mappings (``{"do": …}``): the table and the rule systems check them,
so the same vocabulary serves scene scripts, the API and the browser.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CommandRequest", "JoinRequest", "NewCampaign", "SheetRequest"]


class NewCampaign(BaseModel):
    """``{"name", "system", "variant"?}``: a campaign of a rule system (name or alias), with overrides."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200, examples=["The Long Night"])
    system: str = Field(min_length=1, max_length=64, examples=["ii", "ascend"])
    variant: dict[str, Any] | None = None


class JoinRequest(BaseModel):
    """``{"invite_token", "name"}``: a player joins by the campaign's invite."""

    model_config = ConfigDict(extra="forbid")
    invite_token: str = Field(max_length=200)
    name: str = Field(min_length=1, max_length=200)


class CommandRequest(BaseModel):
    """``{"command": {"do": …}, "expected_version": n}``: one command, expected to follow version ``n``."""

    model_config = ConfigDict(extra="forbid")
    command: dict[str, Any] = Field(examples=[{"do": "note", "text": "The storm breaks."}])
    expected_version: int = Field(ge=0, le=2**53)


class SheetRequest(BaseModel):
    """``{"sheet": {...}}``: a character or hero sheet to check."""

    model_config = ConfigDict(extra="forbid")
    sheet: dict[str, Any]
