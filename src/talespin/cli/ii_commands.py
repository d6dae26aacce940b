"""Placeholder sub-application; filled in by its own module's work."""

from __future__ import annotations

import typer

__all__ = ["app"]

app = typer.Typer(no_args_is_help=True)
