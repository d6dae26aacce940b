"""Tokens: long random secrets handed out once, kept only as their SHA-256, compared in constant time.

>>> token = new_token()
>>> token_matches(token, hash_token(token)), token_matches("guess", hash_token(token))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Literal

__all__ = ["Viewer", "hash_token", "new_id", "new_token", "token_matches"]


def new_token() -> str:
    """A fresh bearer token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def new_id() -> str:
    """A fresh id for a campaign or a player (short, URL-safe, unguessable)."""
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    """The SHA-256 of a token, in hex: all the store ever keeps."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(hash_token(token).encode(), stored_hash.encode())


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is asking: the GM, or one player (by id)."""

    role: Literal["gm", "player"]
    player_id: str | None = None
    name: str | None = None

    @property
    def is_gm(self) -> bool:
        """True for the campaign's GM."""
        return self.role == "gm"

    @property
    def label(self) -> str:
        """How the record names who issued a command: ``"gm"`` or the player's id."""
        return "gm" if self.player_id is None else self.player_id
