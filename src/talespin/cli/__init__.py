"""The ``talespin`` command line (Typer + Rich).

Sub-commands live one concept per module: ``roll``/``odds`` in :mod:`.dice_commands`, ``ii`` in
:mod:`.ii_commands`, ``ascend`` in :mod:`.ascend_commands`, ``serve``/``verify`` in :mod:`.table_commands`.
Errors become exit codes in one place, :mod:`.output`. Each is imported only when it runs
(:mod:`.lazy`), and ``talespin --help`` (or ``-h``) is written by :mod:`.root_help` without importing
Typer at all, so it answers about as fast as Python starts. The Typer app is :data:`app`
(:mod:`.root`), imported the first time it is asked for.
"""

from __future__ import annotations

import sys

__all__ = ["app", "main"]

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing before the root's help
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from .root import app

_ROOT_HELP = (["--help"], ["-h"])
"""The argument lists answered by :mod:`.root_help` alone."""


def __getattr__(name: str) -> Any:
    """``talespin.cli.app``: the Typer app, imported on first use."""
    if name == "app":
        from .root import app  # noqa: PLC0415 - Typer is imported only when a command runs

        return app
    raise AttributeError(f"module 'talespin.cli' has no attribute {name!r}")


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``talespin`` console script.

    With ``--json`` anywhere on the line, a usage error (a missing argument, an option that is not a whole
    number, a value out of its range) is still one JSON document on stdout, ``{"error": {"code":
    "bad_usage", "message", "rule": null}}``, with exit code 2; without it, Typer prints its usual help box.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args in _ROOT_HELP:
        from .root_help import print_root_help  # noqa: PLC0415

        print_root_help()
        sys.exit(0)
    import typer  # noqa: PLC0415 - every other command line goes through Typer

    from .root import app  # noqa: PLC0415

    if "--json" not in args:
        app(args=args)
        return
    try:
        code = app(args=args, standalone_mode=False)
    except typer.TyperException as error:
        import json  # noqa: PLC0415

        from rich.markup import escape  # noqa: PLC0415 - the usage error's path only

        from .output import EXIT_BAD_INPUT, error_console, error_document  # noqa: PLC0415

        message = error.format_message()
        sys.stdout.write(json.dumps(error_document("bad_usage", message), ensure_ascii=False) + "\n")
        error_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
        sys.exit(EXIT_BAD_INPUT)
    except typer.Abort:
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
