"""The request bodies of the HTTP API, as pydantic models (they give ``/openapi.json`` its schemas).

Commands themselves stay free-form mappings (``{"do": …}``): the table and the rule systems check them,
so the same vocabulary serves scene scripts, the API and the browser.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..documents import MAX_BYTES
from ..systems.registry import entries

__all__ = [
    "ChatRequest",
    "CommandRequest",
    "DocumentRequest",
    "HandRequest",
    "JoinRequest",
    "NewCampaign",
    "RemoveRequest",
    "SheetRequest",
]


class NewCampaign(BaseModel):
    """``{"name", "system", "variant"?}``: a campaign of a rule system (name or alias), with overrides."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200, examples=["The Long Night"])
    system: str = Field(min_length=1, max_length=64, examples=[e.short for e in entries()])
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
    """``{"sheet": {...}}``, or ``{"text": "…", "kind"?}``: a character or hero sheet to check.

    Given as ``text`` (YAML, or JSON with ``kind: json``) it is read by the server's one document reader, as
    the CLI reads a file: the answer also holds ``"sheet"``, the data read, and a repeated key counts where
    the system's sheet rules forbid one.
    """

    model_config = ConfigDict(extra="forbid")
    sheet: dict[str, Any] | None = None
    text: str | None = Field(default=None, max_length=MAX_BYTES, examples=["name: Ada\nabilities: {}"])
    kind: Literal["yaml", "json"] = "yaml"

    @model_validator(mode="after")
    def _one_form(self) -> SheetRequest:
        if (self.sheet is None) == (self.text is None):
            raise ValueError("give the sheet as data (sheet) or as text (text), not both")
        return self


class DocumentRequest(BaseModel):
    """``{"text": "…", "kind"?: "yaml" | "json"}``: a sheet, script, variant or list of sheets as text."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=MAX_BYTES, examples=["variant:\n  crisis: {auto: 5}"])
    kind: Literal["yaml", "json"] = "yaml"


class ChatRequest(BaseModel):
    """``{"text", "to"?}``: table talk; ``to`` whispers (``"gm"`` from a player, a player id from the GM)."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=2000, examples=["Bram, watch the door."])
    to: str | None = Field(default=None, max_length=64, examples=["gm"])


class RemoveRequest(BaseModel):
    """``{"player_id"}``: the GM removes a player from the table."""

    model_config = ConfigDict(extra="forbid")
    player_id: str = Field(max_length=64)


class HandRequest(BaseModel):
    """``{"character", "to"}``: the GM hands a character to a player (its id) or to the GM (``null``)."""

    model_config = ConfigDict(extra="forbid")
    character: str = Field(max_length=200)
    to: str | None = Field(max_length=64)
