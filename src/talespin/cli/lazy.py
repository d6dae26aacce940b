"""Sub-commands loaded when they are used, so ``talespin --help`` starts in a blink.

Each sub-command's module (and what it imports: numpy, the rule systems, the web server) is imported only
when that command runs, or its own ``--help`` is asked for. The root's help lists every command from
:data:`COMMANDS` (kept in :mod:`.root_help`, which imports no Typer), which names each command's module and
the first paragraph of its help; a test checks that this text is the one the command itself carries, so the
two cannot drift apart.
"""

from __future__ import annotations

import importlib
from typing import Any

import typer
import typer.main
from typer import _click as click  # the click Typer carries inside (this Typer has no separate click)
from typer.core import TyperCommand, TyperGroup

from .root_help import COMMANDS

__all__ = ["COMMANDS", "LazyGroup", "load"]


def load(name: str) -> click.Command:
    """The click command ``name`` of :data:`COMMANDS`, its module imported now."""
    module = importlib.import_module(f"talespin.cli.{COMMANDS[name][0]}")
    sub_app = getattr(module, "app", None)
    if isinstance(sub_app, typer.Typer):
        command = typer.main.get_command(sub_app)
        command.name = name
        return command
    holder = typer.Typer()
    module.register(holder)
    return typer.main.get_group(holder).commands[name]


class LazyGroup(TyperGroup):
    """The root command group: lists :data:`COMMANDS` without importing them, loads one when it runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The commands in their order of :data:`COMMANDS`, then any added directly."""
        return [*COMMANDS, *(name for name in super().list_commands(ctx) if name not in COMMANDS)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, imported on first use; while the root's help is written, a stand-in with its help."""
        known = super().get_command(ctx, cmd_name)
        if known is not None or cmd_name not in COMMANDS:
            return known
        if self._listing:
            return TyperCommand(cmd_name, help=COMMANDS[cmd_name][1])
        command = load(cmd_name)
        self.add_command(command, cmd_name)
        return command

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The root's help, listing the commands from :data:`COMMANDS` alone."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False
