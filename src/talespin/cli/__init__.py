"""The ``talespin`` command line (Typer + Rich).

Sub-commands live one concept per module: ``roll``/``odds`` in :mod:`.dice_commands`, ``ii`` in
:mod:`.ii_commands`, ``ascend`` in :mod:`.ascend_commands`, ``serve``/``verify`` in :mod:`.table_commands`.
Errors become exit codes in one place, :mod:`.output`.
"""

from __future__ import annotations

import typer

from . import ascend_commands, dice_commands, ii_commands, table_commands

__all__ = ["app", "main"]

app = typer.Typer(
    name="talespin",
    help="Rules engines, exact odds and a live game table for Inciting Incident and Ascend.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
dice_commands.register(app)
app.add_typer(ii_commands.app, name="ii")
app.add_typer(ascend_commands.app, name="ascend")
table_commands.register(app)


def main() -> None:
    """Entry point of the ``talespin`` console script."""
    app()
