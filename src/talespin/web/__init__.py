"""The web adapter: the FastAPI app of the game table (:func:`create_app`), its WebSocket and pages."""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
