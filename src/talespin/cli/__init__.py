"""The ``talespin`` command line (Typer + Rich).

Sub-commands live one concept per module: ``roll``/``odds`` in :mod:`.dice_commands`, ``ii`` in
:mod:`.ii_commands`, ``ascend`` in :mod:`.ascend_commands`, ``serve``/``verify`` in :mod:`.table_commands`.
Errors become exit codes in one place, :mod:`.output`. Each is imported only when it runs
(:mod:`.lazy`), so ``talespin --help`` loads neither numpy nor the rule systems.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from .lazy import LazyGroup

__all__ = ["app", "main"]

app = typer.Typer(
    name="talespin",
    cls=LazyGroup,
    help="Rules engines, exact odds and a live game table for Inciting Incident and Ascend.",
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
        typer.Option("--version", is_eager=True, callback=_print_version, help="Print the version and exit."),
    ] = False,
) -> None:
    """Rules engines, exact odds and a live game table for Inciting Incident and Ascend."""


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``talespin`` console script.

    With ``--json`` anywhere on the line, a usage error (a missing argument, an option that is not a whole
    number, a value out of its range) is still one JSON document on stdout, ``{"error": {"code":
    "bad_usage", "message", "rule": null}}``, with exit code 2; without it, Typer prints its usual help box.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if "--json" not in args:
        app(args=args)
        return
    try:
        code = app(args=args, standalone_mode=False)
    except typer.TyperException as error:
        from rich.markup import escape  # noqa: PLC0415 - the usage error's path only

        from .output import EXIT_BAD_INPUT, error_console, error_document  # noqa: PLC0415

        message = error.format_message()
        sys.stdout.write(json.dumps(error_document("bad_usage", message), ensure_ascii=False) + "\n")
        error_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
        sys.exit(EXIT_BAD_INPUT)
    except typer.Abort:
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
