"""Placeholder registered by the CLI; filled in by its own module's work."""

from __future__ import annotations

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
