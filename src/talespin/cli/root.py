"""The Typer app of the ``talespin`` command: the root command group, ``--version`` and completion.

Sub-commands are listed from :data:`talespin.cli.root_help.COMMANDS` and imported only when they run
(:mod:`.lazy`); the root's own ``--help`` is printed by :mod:`.root_help` before this module is imported.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .lazy import LazyGroup
from .root_help import HELP, VERSION_HELP

__all__ = ["app"]

app = typer.Typer(
    name="talespin",
    cls=LazyGroup,
    help=HELP,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    if value:
        from .. import __version__  # noqa: PLC0415 - only for --version

        typer.echo(f"talespin {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_print_version, help=VERSION_HELP),
    ] = False,
) -> None:
    """Rules engines, exact odds and a live game table for Inciting Incident and Ascend."""
