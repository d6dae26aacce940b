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
    """``{"command": {"do": …}, "expected_version": n, "nonce"?}``: one command, expected to follow version
    ``n``; ``nonce`` (16–128 hex digits, fresh per roll) is the sender's share of its server dice."""

    model_config = ConfigDict(extra="forbid")
    command: dict[str, Any] = Field(examples=[{"do": "note", "text": "The storm breaks."}])
    expected_version: int = Field(ge=0, le=2**53)
    nonce: str | None = Field(default=None, max_length=128, examples=["9f86d081884c7d659a2feaa0c55ad015"])


class SheetRequest(BaseModel):
    """``{"sheet": {...}}``: a character or hero sheet to check."""

    model_config = ConfigDict(extra="forbid")
    sheet: dict[str, Any]
